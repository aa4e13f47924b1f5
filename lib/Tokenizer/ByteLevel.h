//===- ByteLevel.h - GPT-2's byte <-> character map -------------*- C++ -*-===//
//
// Internal to lib/Tokenizer. Byte-level BPE spells every byte as a visible
// character so that its vocabulary is text: printable Latin-1 bytes stand
// for themselves, the other 68 (controls, space, 0x7F-0xA0, 0xAD) for
// U+0100 onwards in byte order ("Ġ" is the space). tokenizer.json files
// store tokens in this spelling.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_LIB_TOKENIZER_BYTELEVEL_H
#define RELAX_LIB_TOKENIZER_BYTELEVEL_H

#include <string>
#include <string_view>

namespace mlir::relax::tok {

/// `bytes` spelled in byte-level characters (UTF-8).
std::string byteLevelEncode(std::string_view bytes);

/// The bytes that byte-level `token` spells; false (and `out` unchanged)
/// where a character of it is not one of the 256.
bool byteLevelDecode(std::string_view token, std::string &out);

} // namespace mlir::relax::tok

#endif // RELAX_LIB_TOKENIZER_BYTELEVEL_H
