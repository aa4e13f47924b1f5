//===- HalfTests.cpp - binary16 <-> f32 (RelaxDialect/Runtime/Half.h) -----===//
//
// Every one of the 65536 binary16 values against its definition (sign,
// exponent, mantissa as a power-of-two product in double) and back
// unchanged; f32 values between two halves round to nearest, ties to
// even, including across the subnormal and overflow boundaries, checked
// against the F16C instruction where the CPU has it.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/Half.h"

#include "gtest/gtest.h"

#include <cmath>
#include <immintrin.h>
#include <random>

using relax::runtime::floatToHalf;
using relax::runtime::halfToFloat;

namespace {

double definition(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double magnitude =
      exponent == 0    ? std::ldexp(double(mantissa), -24)
      : exponent == 31 ? (mantissa ? NAN : INFINITY)
                       : std::ldexp(double(mantissa | 0x400), exponent - 25);
  return sign ? -magnitude : magnitude;
}

TEST(Half, EveryValueConvertsExactlyAndBack) {
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    uint16_t h = uint16_t(bits);
    float f = halfToFloat(h);
    double want = definition(h);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(f)) << bits;
      ASSERT_EQ(floatToHalf(f) & 0xfc00, h & 0xfc00) << bits;
      continue;
    }
    ASSERT_EQ(double(f), want) << bits;
    ASSERT_EQ(std::signbit(f), bool(h & 0x8000)) << bits;
    ASSERT_EQ(floatToHalf(f), h) << bits;
  }
}

__attribute__((target("f16c"))) uint16_t hardware(float f) {
  return uint16_t(_mm_extract_epi16(
      _mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_NEAREST_INT), 0));
}

TEST(Half, RoundsToNearestEven) {
  // Halfway between 1 and the next half (1 + 2^-10): ties go to the even
  // mantissa, so 1 + 2^-11 -> 1 and 1 + 3 * 2^-11 -> 1 + 2^-9.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  // The largest half (65504) and the overflow past it.
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(floatToHalf(-1e10f), 0xfc00);
  // Subnormals: 2^-24 is the smallest, half of it ties to zero (even),
  // a bit more rounds up; the largest subnormal rounds into the normals.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(-std::ldexp(1.0f, -14) * (1 - std::ldexp(1.0f, -12))),
            0x8400);
  if (!__builtin_cpu_supports("f16c"))
    GTEST_SKIP() << "no F16C to compare random values with";
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 1000000; ++i) {
    uint32_t x = bits(rng);
    // Exponents around the half range: 2^-30 .. 2^17.
    x = (x & 0x807fffff) | (((x >> 23) % 48 + 97) << 23);
    float f;
    std::memcpy(&f, &x, sizeof(f));
    ASSERT_EQ(floatToHalf(f), hardware(f)) << f;
  }
}

} // namespace
