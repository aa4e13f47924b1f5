//===- Utf8.h - UTF-8 helpers of the tokenizers -----------------*- C++ -*-===//
//
// Internal to lib/Tokenizer: reading code points out of UTF-8 and writing
// them back, with the validity rules of the Unicode standard (no overlong
// forms, no surrogates, nothing above U+10FFFF), which Rust's str, and so
// the reference tokenizers, enforce.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_LIB_TOKENIZER_UTF8_H
#define RELAX_LIB_TOKENIZER_UTF8_H

#include <cstdint>
#include <string>
#include <string_view>

namespace mlir::relax::tok {

/// The length of the valid UTF-8 sequence at `s[i]` with its code point in
/// `cp`, or 0 where none starts there (invalid or cut short).
size_t decodeUtf8(std::string_view s, size_t i, uint32_t &cp);

/// How many bytes from `s[i]` form the longest prefix of some valid
/// sequence (at least 1): what one U+FFFD replaces.
size_t invalidUtf8Length(std::string_view s, size_t i);

/// Appends code point `cp` as UTF-8.
void appendUtf8(std::string &out, uint32_t cp);

} // namespace mlir::relax::tok

#endif // RELAX_LIB_TOKENIZER_UTF8_H
