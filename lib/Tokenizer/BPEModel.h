//===- BPEModel.h - BPE merges by rank --------------------------*- C++ -*-===//
//
// Internal to lib/Tokenizer: the "model" of a tokenizer.json of type BPE.
// A pre-token, spelled in byte-level characters, starts as one symbol per
// character; the adjacent pair of lowest merge rank is merged (the leftmost
// among equals) until no pair has a merge. With ignore_merges (Llama 3) a
// pre-token that is itself in the vocabulary is that one token.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_LIB_TOKENIZER_BPEMODEL_H
#define RELAX_LIB_TOKENIZER_BPEMODEL_H

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mlir::relax::tok {

class BPEModel {
public:
  /// Adds vocabulary entry `token` = `id`; false if the id is taken.
  bool addToken(const std::string &token, int id);
  /// Adds the merge of rank `rank` (its position in the file); false with
  /// `error` set where a side or the result is not in the vocabulary.
  bool addMerge(const std::string &left, const std::string &right, int rank,
                std::string &error);
  void setIgnoreMerges(bool ignore) { ignoreMerges = ignore; }

  /// Appends the ids of pre-token `word` (byte-level spelling); false with
  /// `error` set where one of its characters is not in the vocabulary.
  bool encodeWord(const std::string &word, std::vector<int> &ids,
                  std::string &error) const;

  int lookup(std::string_view token) const;
  /// The spelling of `id`, or null.
  const std::string *token(int id) const;
  int size() const { return int(idToToken.size()); }

private:
  /// Applies the merges to `symbols` (ids) until none applies.
  void mergeSymbols(std::vector<int> &symbols) const;
  static uint64_t pairKey(int a, int b) {
    return (uint64_t(uint32_t(a)) << 32) | uint32_t(b);
  }
  struct Merge {
    int rank, id;
  };
  std::unordered_map<std::string, int> vocab;
  std::vector<std::string> idToToken;
  std::vector<bool> hasId;
  std::unordered_map<uint64_t, Merge> merges;
  bool ignoreMerges = false;
  // Pre-tokens repeat (" the", "\n"): their ids are remembered. Not
  // thread-safe, like the tokenizer that owns the model.
  mutable std::unordered_map<std::string, std::vector<int>> cache;
};

} // namespace mlir::relax::tok

#endif // RELAX_LIB_TOKENIZER_BPEMODEL_H
