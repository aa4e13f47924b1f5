//===- BPEModel.cpp - BPE merges by rank ----------------------------------===//

#include "BPEModel.h"

#include "Utf8.h"

#include <queue>

using namespace mlir::relax::tok;

bool BPEModel::addToken(const std::string &token, int id) {
  if (id < 0)
    return false;
  if (size_t(id) >= idToToken.size()) {
    idToToken.resize(id + 1);
    hasId.resize(id + 1, false);
  }
  if (hasId[id])
    return false;
  hasId[id] = true;
  idToToken[id] = token;
  vocab.emplace(token, id);
  return true;
}

bool BPEModel::addMerge(const std::string &left, const std::string &right,
                        int rank, std::string &error) {
  int a = lookup(left), b = lookup(right), merged = lookup(left + right);
  if (a < 0 || b < 0 || merged < 0) {
    error = "merge " + std::to_string(rank) + " ('" + left + "' '" + right +
            "'): '" +
            (a < 0   ? left
             : b < 0 ? right
                     : left + right) +
            "' is not in the vocabulary";
    return false;
  }
  // The first occurrence of a pair wins, as in the reference.
  merges.emplace(pairKey(a, b), Merge{rank, merged});
  return true;
}

int BPEModel::lookup(std::string_view token) const {
  auto it = vocab.find(std::string(token));
  return it == vocab.end() ? -1 : it->second;
}

const std::string *BPEModel::token(int id) const {
  if (id < 0 || size_t(id) >= idToToken.size() || !hasId[id])
    return nullptr;
  return &idToToken[id];
}

bool BPEModel::encodeWord(const std::string &word, std::vector<int> &ids,
                          std::string &error) const {
  if (auto it = cache.find(word); it != cache.end()) {
    ids.insert(ids.end(), it->second.begin(), it->second.end());
    return true;
  }
  std::vector<int> symbols;
  int whole = ignoreMerges ? lookup(word) : -1;
  if (whole >= 0) {
    symbols.push_back(whole);
  } else {
    for (size_t i = 0; i < word.size();) {
      uint32_t cp;
      size_t n = decodeUtf8(word, i, cp);
      if (n == 0)
        n = 1;
      int id = lookup(std::string_view(word).substr(i, n));
      if (id < 0) {
        error = "'" + word.substr(i, n) + "' of '" + word +
                "' is not in the vocabulary (and the model has no unk_token)";
        return false;
      }
      symbols.push_back(id);
      i += n;
    }
    mergeSymbols(symbols);
  }
  ids.insert(ids.end(), symbols.begin(), symbols.end());
  if (cache.size() < 100000)
    cache.emplace(word, std::move(symbols));
  return true;
}

void BPEModel::mergeSymbols(std::vector<int> &symbols) const {
  // Symbols in a linked list, candidate pairs in a queue ordered by rank,
  // then position (the leftmost of equal ranks first, as the reference):
  // O(n log n) where rescanning all pairs after each merge would be
  // quadratic (a run of 20000 spaces took a second).
  struct Candidate {
    int rank, pos, left, right;
    bool operator>(const Candidate &o) const {
      return rank != o.rank ? rank > o.rank : pos > o.pos;
    }
  };
  int n = int(symbols.size());
  std::vector<int> next(n), prev(n);
  for (int i = 0; i < n; ++i) {
    next[i] = i + 1 < n ? i + 1 : -1;
    prev[i] = i - 1;
  }
  std::priority_queue<Candidate, std::vector<Candidate>,
                      std::greater<Candidate>>
      queue;
  auto consider = [&](int i) {
    if (i < 0 || next[i] < 0)
      return;
    auto it = merges.find(pairKey(symbols[i], symbols[next[i]]));
    if (it != merges.end())
      queue.push({it->second.rank, i, symbols[i], symbols[next[i]]});
  };
  for (int i = 0; i + 1 < n; ++i)
    consider(i);
  std::vector<bool> alive(n, true);
  while (!queue.empty()) {
    Candidate c = queue.top();
    queue.pop();
    int i = c.pos, j = next[i];
    // Skip pairs a merge has changed since they were queued.
    if (!alive[i] || j < 0 || symbols[i] != c.left || symbols[j] != c.right)
      continue;
    symbols[i] = merges.at(pairKey(c.left, c.right)).id;
    alive[j] = false;
    next[i] = next[j];
    if (next[j] >= 0)
      prev[next[j]] = i;
    consider(prev[i]);
    consider(i);
  }
  std::vector<int> merged;
  for (int i = 0; i >= 0 && i < n; i = next[i])
    merged.push_back(symbols[i]);
  symbols = std::move(merged);
}
