//===- Utf8.cpp - UTF-8 helpers of the tokenizers -------------------------===//
//
// Incremental decoding needs to know where a character ends (never print
// half of one); decoding of bytes needs Rust's lossy conversion (one U+FFFD
// per maximal invalid subpart) to match the reference's text.
//
//===----------------------------------------------------------------------===//

#include "Utf8.h"

#include "RelaxDialect/Tokenizer/Tokenizer.h"

using namespace mlir::relax;

namespace {
/// The sequence length a lead byte announces (0: not a lead byte), and the
/// range its second byte must lie in (narrower after E0, ED, F0, F4).
size_t leadLength(unsigned char b, unsigned char &lo, unsigned char &hi) {
  lo = 0x80;
  hi = 0xBF;
  if (b < 0x80)
    return 1;
  if (b >= 0xC2 && b <= 0xDF)
    return 2;
  if (b >= 0xE0 && b <= 0xEF) {
    if (b == 0xE0)
      lo = 0xA0;
    if (b == 0xED)
      hi = 0x9F;
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    if (b == 0xF0)
      lo = 0x90;
    if (b == 0xF4)
      hi = 0x8F;
    return 4;
  }
  return 0;
}

/// How many bytes after the lead at `s[i]` continue it validly (at most
/// length - 1).
size_t validContinuations(std::string_view s, size_t i, size_t length,
                          unsigned char lo, unsigned char hi) {
  size_t n = 0;
  while (n + 1 < length && i + n + 1 < s.size()) {
    unsigned char c = s[i + n + 1];
    bool ok = n == 0 ? (c >= lo && c <= hi) : (c >= 0x80 && c <= 0xBF);
    if (!ok)
      break;
    ++n;
  }
  return n;
}
} // namespace

size_t tok::decodeUtf8(std::string_view s, size_t i, uint32_t &cp) {
  unsigned char lo, hi, b = s[i];
  size_t length = leadLength(b, lo, hi);
  if (length == 0 || validContinuations(s, i, length, lo, hi) != length - 1)
    return 0;
  static const unsigned char kMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  cp = b & kMask[length];
  for (size_t k = 1; k < length; ++k)
    cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return length;
}

size_t tok::invalidUtf8Length(std::string_view s, size_t i) {
  unsigned char lo, hi;
  size_t length = leadLength(s[i], lo, hi);
  return length == 0 ? 1 : 1 + validContinuations(s, i, length, lo, hi);
}

void tok::appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

size_t tok::completeUtf8Prefix(std::string_view s) {
  // Only the last lead byte can start an unfinished character.
  for (size_t back = 1; back <= 4 && back <= s.size(); ++back) {
    size_t i = s.size() - back;
    unsigned char b = s[i], lo, hi;
    if (b >= 0x80 && b <= 0xBF)
      continue; // a continuation byte: look further back
    size_t length = leadLength(b, lo, hi);
    // Cut before a lead whose valid continuations run to the end but are
    // too few: the next bytes may finish it.
    if (length > back && validContinuations(s, i, length, lo, hi) == back - 1)
      return i;
    return s.size();
  }
  return s.size();
}

std::string tok::toValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    uint32_t cp;
    if (size_t n = decodeUtf8(s, i, cp)) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      i += invalidUtf8Length(s, i);
    }
  }
  return out;
}

size_t tok::findInvalidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    uint32_t cp;
    size_t n = decodeUtf8(s, i, cp);
    if (n == 0)
      return i;
    i += n;
  }
  return std::string_view::npos;
}
