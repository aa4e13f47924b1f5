//===- Half.h - IEEE binary16 <-> f32 conversions -----------------*- C++ -*-===//
//
// The scalar conversions between IEEE 754 binary16 (f16 tensors, the f16
// scales of quantized weights) and f32 that the runtime and the host tools
// share: every binary16 value converts exactly to f32 (subnormals, signed
// zeros, infinities, NaN payloads); f32 to binary16 rounds to nearest even,
// overflowing to infinity. Header-only: the host tools need it without the
// vector kernels (CpuVectorHelpers.h converts whole runs with F16C).
//
//===----------------------------------------------------------------------===//

#ifndef RELAXDIALECT_RUNTIME_HALF_H
#define RELAXDIALECT_RUNTIME_HALF_H

#include <cstdint>
#include <cstring>

namespace relax::runtime {

/// The f32 of the binary16 bits `h` (exact).
inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal: normalise.
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | (uint32_t(113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// The binary16 bits nearest to `f` (ties to even; beyond the largest
/// finite half, infinity; NaN stays a quiet NaN of the same sign).
inline uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof(x));
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t biased = (x >> 23) & 0xff;
  uint32_t mantissa = x & 0x7fffff;
  if (biased == 0xff)
    return uint16_t(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  int32_t exponent = int32_t(biased) - 127 + 15;
  if (exponent >= 31)
    return uint16_t(sign | 0x7c00);
  // The result's mantissa bits with the leading one (normal) and how far
  // to shift the f32 mantissa down to them.
  uint32_t full = mantissa | 0x800000;
  uint32_t shift = 13;
  uint32_t base = 0;
  if (exponent <= 0) {
    if (exponent < -10)
      return uint16_t(sign); // below half the smallest subnormal
    shift = uint32_t(14 - exponent);
  } else {
    base = uint32_t(exponent) << 10;
    full = mantissa;
  }
  uint32_t half = full >> shift;
  uint32_t rest = full & ((1u << shift) - 1), halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1)))
    ++half; // may carry into the exponent: still the right encoding
  return uint16_t(sign | (base + half));
}

} // namespace relax::runtime

#endif // RELAXDIALECT_RUNTIME_HALF_H
