//===- CpuQuantGemvTests.cpp - Products with group-quantized weights -----===//
//
// Every kernel level the CPU runs (plain C++, AVX2, AVX-512) against the
// product in double precision of X with W dequantized element by element
// from the layout of CpuQuantGemv.h: 8 and 4 bits, f32 and f16 scales,
// 4-bit zero points, groups of 32 to k (and 16: the plain kernel only),
// 1 to 4 rows of X (straight from the quantized bytes) and more (the
// dequantized blocks), padded strides, one thread and the pool's split.
// The dequantization itself is checked against values written by hand.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CpuQuantGemv.h"
#include "QuantIsaLevels.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using relax::runtime::CpuIsa;
using relax::runtime::testing::quantLevelsOfThisCpu;
using relax::runtime::QuantizedWeight;

namespace {

/// f32 to binary16, round to nearest even (normal range only: the tests'
/// scales are in [2^-8, 1)).
uint16_t toHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = int32_t((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  uint32_t half = sign | (uint32_t(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return uint16_t(half);
}

struct Weights {
  QuantizedWeight w;
  std::vector<uint8_t> q, zeros;
  std::vector<float> scales32;
  std::vector<uint16_t> scales16;
};

Weights makeWeights(int bits, int64_t n, int64_t k, int64_t group, bool f16,
                    bool zeros, std::mt19937 &rng) {
  Weights out;
  int64_t groups = k / group;
  out.q.resize(bits == 8 ? n * k : n * k / 2);
  std::uniform_int_distribution<int> byte(0, 255);
  for (uint8_t &v : out.q)
    v = uint8_t(byte(rng));
  std::uniform_real_distribution<float> scale(1.0f / 256, 1.0f);
  out.scales32.resize(n * groups);
  for (float &s : out.scales32)
    s = scale(rng);
  if (f16)
    for (float s : out.scales32)
      out.scales16.push_back(toHalf(s));
  if (zeros) {
    std::uniform_int_distribution<int> zero(0, 15);
    out.zeros.resize(n * groups);
    for (uint8_t &z : out.zeros)
      z = uint8_t(zero(rng));
  }
  out.w.bits = bits;
  out.w.n = n;
  out.w.k = k;
  out.w.group = group;
  out.w.q = out.q.data();
  out.w.scalesF16 = f16;
  out.w.scales = f16 ? static_cast<const void *>(out.scales16.data())
                     : out.scales32.data();
  out.w.zeros = zeros ? out.zeros.data() : nullptr;
  return out;
}

struct Case {
  int bits;
  int64_t m, n, k, group;
  bool f16, zeros;
  int64_t pad; // extra elements at the end of each row of X and Y
  int threads;
};

/// quantLinearWith against the product in double of X with W dequantized
/// element by element (1e-5 of the sum of magnitudes: the order of the f32
/// sums is the kernels'). With QuantActivations::Int8, 1 to 4 rows of X
/// are as quantizeActivations rounds them (the integer sums are exact) and
/// within that rounding of the exact product.
void check(CpuIsa isa, const Case &c, std::mt19937 &rng,
           relax::runtime::QuantActivations activations =
               relax::runtime::QuantActivations::F32) {
  Weights weights =
      makeWeights(c.bits, c.n, c.k, c.group, c.f16, c.zeros, rng);
  const QuantizedWeight &w = weights.w;
  ASSERT_EQ(relax::runtime::whyUnsupported(w), nullptr);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  int64_t ldx = c.k + c.pad, ldy = c.n + c.pad;
  std::vector<float> x(c.m * ldx);
  for (float &v : x)
    v = dist(rng);
  const float sentinel = 12345.0f;
  std::vector<float> y(c.m * ldy, sentinel);
  ASSERT_TRUE(relax::runtime::quantLinearWith(
      isa, c.m, x.data(), ldx, w, y.data(), ldy, c.threads, activations));
  // More than 4 rows are never quantized.
  bool quantized = activations == relax::runtime::QuantActivations::Int8 &&
                   c.m <= 4;
  std::vector<int8_t> q(c.k);
  std::vector<float> d(c.k / 32);
  for (int64_t i = 0; i < c.m; ++i) {
    if (quantized)
      relax::runtime::quantizeActivations(x.data() + i * ldx, c.k, q.data(),
                                          d.data());
    for (int64_t j = 0; j < c.n; ++j) {
      // rounding: what the rounding of X can move the product by, half a
      // step (d / 2) of each block per |w|.
      double ref = 0, exact = 0, magnitude = 0, rounding = 0;
      for (int64_t l = 0; l < c.k; ++l) {
        double wl = relax::runtime::dequantizedElement(w, j, l);
        double xl = quantized ? double(q[l]) * double(d[l / 32])
                              : double(x[i * ldx + l]);
        ref += xl * wl;
        exact += double(x[i * ldx + l]) * wl;
        magnitude += std::fabs(xl * wl);
        if (quantized)
          rounding += std::fabs(wl) * double(d[l / 32]) / 2;
      }
      ASSERT_NEAR(y[i * ldy + j], ref, 1e-5 * magnitude + 1e-6)
          << relax::runtime::cpuIsaName(isa) << " bits " << c.bits << " m "
          << c.m << " n " << c.n << " k " << c.k << " group " << c.group
          << " zeros " << c.zeros << " quantized " << quantized << " at ("
          << i << ", " << j << ")";
      // Each x moves by at most half a step, 1/254 of its block's largest.
      if (quantized) {
        ASSERT_NEAR(y[i * ldy + j], exact,
                    rounding + 1e-5 * magnitude + 1e-6)
            << relax::runtime::cpuIsaName(isa) << " bits " << c.bits;
      }
    }
    // The padding of Y is never written.
    for (int64_t j = c.n; j < ldy; ++j)
      ASSERT_EQ(y[i * ldy + j], sentinel);
  }
}

TEST(CpuQuantGemv, DequantizesTheDocumentedLayout) {
  // Row 0 of a [2, 4] weight, group 2: 4 bits, zero 8 (no zero points).
  uint8_t q4[4] = {0x3f, 0x80, 0x12, 0x0a}; // elements (15, 3), (0, 8), ...
  float scales[4] = {0.5f, 2.0f, 1.0f, 0.25f};
  QuantizedWeight w;
  w.bits = 4;
  w.n = 2;
  w.k = 4;
  w.group = 2;
  w.q = q4;
  w.scales = scales;
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 0, 0), (15 - 8) * 0.5f);
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 0, 1), (3 - 8) * 0.5f);
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 0, 2), (0 - 8) * 2.0f);
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 0, 3), (8 - 8) * 2.0f);
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 1, 0), (2 - 8) * 1.0f);
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 1, 3), (0 - 8) * 0.25f);
  // With zero points, and f16 scales (1.5 = 0x3e00, -0.125 = 0xb000).
  uint8_t zeros[4] = {3, 0, 15, 1};
  uint16_t halves[4] = {0x3e00, 0xb000, 0x3e00, 0x3c00};
  w.zeros = zeros;
  w.scales = halves;
  w.scalesF16 = true;
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 0, 1), (3 - 3) * 1.5f);
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 0, 3), (8 - 0) * -0.125f);
  EXPECT_EQ(relax::runtime::dequantizedElement(w, 1, 0), (2 - 15) * 1.5f);
  // 8 bits: signed.
  int8_t q8[2] = {-128, 127};
  QuantizedWeight w8;
  w8.bits = 8;
  w8.n = 1;
  w8.k = 2;
  w8.group = 2;
  w8.q = q8;
  w8.scales = scales;
  EXPECT_EQ(relax::runtime::dequantizedElement(w8, 0, 0), -64.0f);
  EXPECT_EQ(relax::runtime::dequantizedElement(w8, 0, 1), 63.5f);
}

TEST(CpuQuantGemv, RefusesLayoutsItDoesNotTake) {
  int8_t q[64] = {};
  float scales[4] = {};
  QuantizedWeight w;
  w.n = 1;
  w.k = 64;
  w.q = q;
  w.scales = scales;
  w.bits = 3;
  EXPECT_NE(relax::runtime::whyUnsupported(w), nullptr);
  w.bits = 8;
  w.group = 48; // does not divide 64
  EXPECT_NE(relax::runtime::whyUnsupported(w), nullptr);
  w.group = 32;
  uint8_t zeros[2] = {};
  w.zeros = zeros; // 8-bit weights are symmetric
  EXPECT_NE(relax::runtime::whyUnsupported(w), nullptr);
  float y[1] = {7.0f}, x[64] = {};
  EXPECT_FALSE(relax::runtime::quantLinear(1, x, 64, w, y, 1, 1));
  EXPECT_EQ(y[0], 7.0f);
  w.zeros = nullptr;
  w.bits = 4;
  w.k = 63;
  w.group = 63; // odd k with 4 bits
  EXPECT_NE(relax::runtime::whyUnsupported(w), nullptr);
}

TEST(CpuQuantGemv, EveryLevelMatchesTheDequantizedProduct) {
  std::mt19937 rng(42);
  for (CpuIsa isa : quantLevelsOfThisCpu()) {
    for (int bits : {8, 4}) {
      for (int64_t m : {1, 2, 3, 4, 5, 9, 33, 40}) {
        // Tails of every length in n: blocks of 1..4 rows of W and 16 for
        // the dequantized path.
        for (int64_t n : {1, 3, 7, 37}) {
          for (int64_t group : {32, 64, 128}) {
            for (bool f16 : {false, true})
              check(isa, {bits, m, n, 256, group, f16, false, 0, 1}, rng);
            if (bits == 4)
              check(isa, {bits, m, n, 256, group, true, true, 3, 1}, rng);
          }
        }
      }
      // Per-channel (one group per row), a deep k, the plain kernel's
      // group of 16, padded strides, the pool's split.
      check(isa, {bits, 1, 40, 2048 + 96, 2048 + 96, false, false, 0, 1},
            rng);
      check(isa, {bits, 2, 33, 512, 16, true, bits == 4, 5, 1}, rng);
      check(isa, {bits, 1, 1000, 1024, 32, true, false, 0, 4}, rng);
      // An odd number of groups of 32 (one row of q8 takes two at a time).
      check(isa, {bits, 1, 13, 224, 32, true, false, 1, 1}, rng);
      check(isa, {bits, 4, 300, 2048, 128, false, bits == 4, 1, 3}, rng);
      check(isa, {bits, 20, 300, 2048, 64, true, false, 2, 2}, rng);
    }
  }
}

TEST(CpuQuantGemv, OneRowOfXAddsInTheOrderOfTwoRows) {
  // The exact kernels of one and two rows of X add each output's terms in
  // one order: each group's products summed lane by lane from zero, then
  // scaled into the accumulator, the lanes summed last. One row of 8-bit
  // weights in groups of 32 has a kernel of its own (two groups per
  // iteration, quantBlockRow8), so its outputs must equal the two-row
  // product's first row bit for bit: k of 1 to 7 groups (an odd count
  // leaves a last group alone) and deep, n with tails of every block size.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (CpuIsa isa : quantLevelsOfThisCpu()) {
    for (int64_t k : {32, 64, 96, 224, 2048 + 32}) {
      for (int64_t n : {1, 5, 13, 40}) {
        for (bool f16 : {false, true}) {
          Weights weights = makeWeights(8, n, k, 32, f16, false, rng);
          std::vector<float> x(2 * k), one(n), two(2 * n);
          for (float &v : x)
            v = dist(rng);
          ASSERT_TRUE(relax::runtime::quantLinearWith(
              isa, 1, x.data(), k, weights.w, one.data(), n, 1));
          ASSERT_TRUE(relax::runtime::quantLinearWith(
              isa, 2, x.data(), k, weights.w, two.data(), n, 1));
          for (int64_t j = 0; j < n; ++j)
            ASSERT_EQ(std::memcmp(&one[j], &two[j], sizeof(float)), 0)
                << relax::runtime::cpuIsaName(isa) << " k " << k << " n "
                << n << " f16 " << f16 << " at " << j << ": " << one[j]
                << " != " << two[j];
        }
      }
    }
  }
}

TEST(CpuQuantGemv, QuantizesActivationsByBlocks) {
  std::vector<float> x(96, 0.0f);
  // Block 0: largest 127, so d = 1 and x rounds to nearest even.
  x[0] = 127.0f;
  x[1] = -63.5f;
  x[2] = 0.5f;
  x[3] = 1.5f;
  x[31] = -127.0f;
  // Block 1 stays zero; block 2 holds a NaN.
  x[70] = std::nanf("");
  x[71] = 1.0f;
  std::vector<int8_t> q(96, 99);
  std::vector<float> d(3, -1.0f);
  relax::runtime::quantizeActivations(x.data(), 96, q.data(), d.data());
  EXPECT_EQ(d[0], 1.0f);
  EXPECT_EQ(q[0], 127);
  EXPECT_EQ(q[1], -64);
  EXPECT_EQ(q[2], 0);
  EXPECT_EQ(q[3], 2);
  EXPECT_EQ(q[31], -127);
  EXPECT_EQ(q[4], 0);
  EXPECT_EQ(d[1], 0.0f);
  for (int l = 32; l < 96; ++l)
    EXPECT_EQ(q[l], 0) << l;
  EXPECT_TRUE(std::isnan(d[2]));
  // A subnormal largest value still maps to +-127.
  std::vector<float> tiny(32, 0.0f);
  tiny[5] = -1e-40f;
  relax::runtime::quantizeActivations(tiny.data(), 32, q.data(), d.data());
  EXPECT_EQ(q[5], -127);
  EXPECT_GT(d[0], 0.0f);
}

TEST(CpuQuantGemv, Int8ActivationsMatchTheirReference) {
  constexpr auto kInt8 = relax::runtime::QuantActivations::Int8;
  std::mt19937 rng(7);
  for (CpuIsa isa : quantLevelsOfThisCpu()) {
    for (int64_t m : {1, 2, 3, 4, 5}) {
      for (int64_t n : {1, 9, 37}) {
        // k of 1 to 8 blocks (tails of every chunk width), groups that do
        // and do not divide the 4-block chunk.
        for (int64_t k : {32, 96, 160, 256}) {
          for (int64_t group : {int64_t(32), int64_t(k)}) {
            check(isa, {4, m, n, k, group, true, false, 0, 1}, rng, kInt8);
            check(isa, {4, m, n, k, group, false, true, 3, 1}, rng, kInt8);
            check(isa, {8, m, n, k, group, true, false, 0, 1}, rng, kInt8);
            check(isa, {8, m, n, k, group, false, false, 2, 1}, rng, kInt8);
          }
        }
        check(isa, {4, m, n, 384, 96, true, true, 1, 1}, rng, kInt8);
        check(isa, {4, m, n, 512, 64, false, false, 0, 1}, rng, kInt8);
        // Groups of 3 blocks (neither one nor whole chunks of 8 bits).
        check(isa, {8, m, n, 384, 96, true, false, 1, 1}, rng, kInt8);
        check(isa, {8, m, n, 512, 64, false, false, 0, 1}, rng, kInt8);
      }
      // The pool's split, a deep k.
      check(isa, {4, m, 300, 2048, 128, true, m % 2 == 0, 2, 3}, rng, kInt8);
      check(isa, {8, m, 300, 2048, 32, true, false, 2, 3}, rng, kInt8);
    }
  }
}

} // namespace
