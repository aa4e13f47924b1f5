//===- PreTokenizer.h - tokenizer.json pre-tokenizers -----------*- C++ -*-===//
//
// Internal to lib/Tokenizer: splits text into the pre-tokens BPE encodes
// one by one. Supported: ByteLevel (GPT-2's regex when use_regex, the
// prefix space, the byte-level spelling), Split (a Regex or String pattern,
// each behavior but Contiguous, invert) and Sequence of those, which is
// what GPT-2, Llama 3 and Qwen2 use. Regexes run on PCRE2 in UTF and UCP
// mode: \p{L}, \p{N} and \s are Unicode classes, as in the reference's
// Oniguruma.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_LIB_TOKENIZER_PRETOKENIZER_H
#define RELAX_LIB_TOKENIZER_PRETOKENIZER_H

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <string>
#include <vector>

namespace mlir::relax::tok {

class PreTokenizer {
public:
  virtual ~PreTokenizer();
  /// Splits each piece of `pieces` further (in place).
  virtual void apply(std::vector<std::string> &pieces) const = 0;

  /// The pre-tokenizer of tokenizer.json's "pre_tokenizer" value; null with
  /// `error` set when it is not supported. A JSON null splits nothing.
  static std::unique_ptr<PreTokenizer> fromJSON(const nlohmann::json &value,
                                                std::string &error);
};

} // namespace mlir::relax::tok

#endif // RELAX_LIB_TOKENIZER_PRETOKENIZER_H
