//===- BPEModel.cpp - BPE merges by rank ----------------------------------===//

#include "BPEModel.h"

#include "Utf8.h"

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
            "'): '" + (a < 0 ? left : b < 0 ? right : left + right) +
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
    // Quadratic in the pre-token's length, which the pre-tokenizer keeps
    // short (words, digit groups, whitespace runs).
    while (symbols.size() > 1) {
      size_t best = 0;
      const Merge *bestMerge = nullptr;
      for (size_t i = 0; i + 1 < symbols.size(); ++i) {
        auto it = merges.find(pairKey(symbols[i], symbols[i + 1]));
        if (it != merges.end() &&
            (!bestMerge || it->second.rank < bestMerge->rank)) {
          best = i;
          bestMerge = &it->second;
        }
      }
      if (!bestMerge)
        break;
      symbols[best] = bestMerge->id;
      symbols.erase(symbols.begin() + best + 1);
    }
  }
  ids.insert(ids.end(), symbols.begin(), symbols.end());
  if (cache.size() < 100000)
    cache.emplace(word, std::move(symbols));
  return true;
}
