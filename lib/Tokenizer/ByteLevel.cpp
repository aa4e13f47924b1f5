//===- ByteLevel.cpp - GPT-2's byte <-> character map ---------------------===//

#include "ByteLevel.h"

#include "Utf8.h"

#include <array>
#include <cstdint>

using namespace mlir::relax;

namespace {
/// Code point of each byte, and the byte of each code point below 0x144
/// (-1 for the others).
struct ByteMap {
  std::array<uint32_t, 256> toChar;
  std::array<int, 0x144> toByte;
  ByteMap() {
    toByte.fill(-1);
    uint32_t next = 0x100;
    for (int b = 0; b < 256; ++b) {
      bool visible = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) ||
                     (b >= 0xAE && b <= 0xFF);
      toChar[b] = visible ? uint32_t(b) : next++;
      toByte[toChar[b]] = b;
    }
  }
};

const ByteMap &byteMap() {
  static const ByteMap map;
  return map;
}
} // namespace

std::string tok::byteLevelEncode(std::string_view bytes) {
  const ByteMap &map = byteMap();
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes)
    appendUtf8(out, map.toChar[b]);
  return out;
}

bool tok::byteLevelDecode(std::string_view token, std::string &out) {
  const ByteMap &map = byteMap();
  std::string bytes;
  for (size_t i = 0; i < token.size();) {
    uint32_t cp;
    size_t n = decodeUtf8(token, i, cp);
    if (n == 0 || cp >= map.toByte.size() || map.toByte[cp] < 0)
      return false;
    bytes += char(map.toByte[cp]);
    i += n;
  }
  out += bytes;
  return true;
}
