//===- Normalizer.h - Unicode normalization of tokenizer.json ---*- C++ -*-===//
//
// Internal to lib/Tokenizer: the NFC normalizer of tokenizer.json files
// (Qwen2's), on utf8proc's composition tables. Without libutf8proc at build
// time haveNfc() is false and HFTokenizer refuses the normalizer.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_LIB_TOKENIZER_NORMALIZER_H
#define RELAX_LIB_TOKENIZER_NORMALIZER_H

#include <string>
#include <string_view>

namespace mlir::relax::tok {

/// Whether this build can normalize (libutf8proc was found).
bool haveNfc();

/// Sets `out` to `text` in Unicode Normalization Form C (canonical
/// decomposition, then canonical composition); false with `error` set where
/// utf8proc fails (text that is not UTF-8, no memory) or haveNfc() is false.
bool toNfc(std::string_view text, std::string &out, std::string &error);

} // namespace mlir::relax::tok

#endif // RELAX_LIB_TOKENIZER_NORMALIZER_H
