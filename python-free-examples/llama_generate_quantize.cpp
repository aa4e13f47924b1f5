//===- llama_generate_quantize.cpp - Quantizing f32 weights at load time --===//
//
// The formulas of docs/quantization.md (scripts/quantize.py is their numpy
// twin), in float32 exactly as written: llama.cpp's Q8_0 and Q4_0 per group
// and an asymmetric 4-bit form with per-group zeros. The file is compiled
// with -ffp-contract=off: a fused multiply-add would round `x * id + 8.5`
// once instead of twice and change some q.
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace llama_generate {

namespace {

/// binary16 nearest to `f`, ties to even (what numpy's astype does).
uint16_t toHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = (x >> 16) & 0x8000;
  uint32_t absx = x & 0x7fffffff;
  if (absx >= 0x7f800000) // inf or NaN
    return sign | 0x7c00 | (absx > 0x7f800000 ? 0x200 : 0);
  if (absx >= 0x477ff000) // rounds to >= 65520: infinity
    return sign | 0x7c00;
  int exp = int(absx >> 23) - 127;
  uint32_t mant = (absx & 0x7fffff) | 0x800000; // 24 significant bits
  // Bits to drop: 13 for normal halves, more below 2^-14 (subnormals).
  int shift = exp >= -14 ? 13 : 13 + (-14 - exp);
  if (absx == 0 || shift > 24)
    return sign;
  uint32_t kept = mant >> shift, rest = mant & ((1u << shift) - 1),
           halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1)))
    ++kept; // may carry into the exponent: still the right bits
  uint32_t bits =
      exp >= -14 ? (uint32_t(exp + 15) << 10) + (kept - 0x400) : kept;
  return sign | uint16_t(bits);
}

float inverse(float d) { return d != 0.0f ? 1.0f / d : 0.0f; }

} // namespace

void quantizeMatrix(const float *w, int64_t out, int64_t in, int bits,
                    int64_t group, bool zeroPoints, bool f16Scales,
                    OwnedTensor &q, OwnedTensor &scales, OwnedTensor &zeros) {
  int64_t groups = in / group;
  q = {bits == 8 ? "I8" : "U8", {out, bits == 8 ? in : in / 2}, {}};
  q.bytes.assign(size_t(out) * (bits == 8 ? in : in / 2), 0);
  scales = {f16Scales ? "F16" : "F32", {out, groups}, {}};
  scales.bytes.resize(size_t(out * groups) * (f16Scales ? 2 : 4));
  zeros = {"U8", {out, groups}, {}};
  if (zeroPoints)
    zeros.bytes.assign(size_t(out * groups), 0);
  std::vector<int> values(group);
  for (int64_t r = 0; r < out; ++r)
    for (int64_t g = 0; g < groups; ++g) {
      const float *x = w + r * in + g * group;
      float d = 0;
      int zero = 0;
      if (bits == 8) {
        float amax = 0;
        for (int64_t j = 0; j < group; ++j)
          amax = std::max(amax, std::fabs(x[j]));
        d = amax / 127.0f;
        float id = inverse(d);
        for (int64_t j = 0; j < group; ++j)
          values[j] = int(std::roundf(x[j] * id));
      } else if (!zeroPoints) {
        // The signed element of largest magnitude (the first on ties).
        float amax = 0, max = 0;
        for (int64_t j = 0; j < group; ++j)
          if (amax < std::fabs(x[j])) {
            amax = std::fabs(x[j]);
            max = x[j];
          }
        d = max / -8.0f;
        float id = inverse(d);
        for (int64_t j = 0; j < group; ++j) {
          float v = x[j] * id;
          v = v + 8.5f;
          values[j] = std::min(15, int(static_cast<int8_t>(v)));
        }
      } else {
        float lo = 0, hi = 0;
        for (int64_t j = 0; j < group; ++j) {
          lo = std::min(lo, x[j]);
          hi = std::max(hi, x[j]);
        }
        d = (hi - lo) / 15.0f;
        float id = inverse(d);
        zero = int(std::min(15.0f, std::roundf(-lo * id)));
        for (int64_t j = 0; j < group; ++j)
          values[j] = std::clamp(int(std::roundf(x[j] * id)) + zero, 0, 15);
        zeros.bytes[r * groups + g] = uint8_t(zero);
      }
      if (f16Scales) {
        uint16_t h = toHalf(d);
        std::memcpy(&scales.bytes[(r * groups + g) * 2], &h, 2);
      } else {
        std::memcpy(&scales.bytes[(r * groups + g) * 4], &d, 4);
      }
      for (int64_t j = 0; j < group; ++j) {
        int64_t col = g * group + j;
        if (bits == 8)
          q.bytes[r * in + col] = uint8_t(int8_t(values[j]));
        else
          q.bytes[r * (in / 2) + col / 2] |=
              uint8_t(values[j] << (col % 2 ? 4 : 0));
      }
    }
}

} // namespace llama_generate
