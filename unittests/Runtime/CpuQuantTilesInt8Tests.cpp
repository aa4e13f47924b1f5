//===- CpuQuantTilesInt8Tests.cpp - Int8 activations by tiled weights ----===//
//
// QuantActivations::Int8 products with weights in tiles (QuantTiles.h) at
// every kernel level the CPU runs: bit for bit against the plain layout of
// the same weights (the tile kernels add each row's f32 sums in the plain
// kernels' order), and within the f32 rounding of a double product of the
// same int8 X and weights; 8 and 4 bits, 1 to 4 rows of X, one thread and
// the pool's split, X with a block of zeros and a block holding a NaN.
// (The refusals of shapes tiles cannot hold: CpuQuantTilesTests.cpp.)
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CpuQuantGemv.h"
#include "QuantIsaLevels.h"
#include "RelaxDialect/Runtime/Half.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace rt = relax::runtime;
namespace qt = relax::runtime::quant_tiles;

namespace {

constexpr auto kInt8 = rt::QuantActivations::Int8;

/// One random W [n, k] (group 32, f16 scales of either sign with
/// magnitudes in [2^-8, 1)) in both layouts.
struct TiledWeight {
  std::vector<uint8_t> q, tiles;
  std::vector<uint16_t> scales;
  rt::QuantizedWeight plain, tiled;

  TiledWeight(int bits, int64_t n, int64_t k, std::mt19937 &rng)
      : q(size_t(n * k * bits / 8)), tiles(size_t(qt::weightBytes(bits, n, k))),
        scales(size_t(n * k / 32)) {
    std::uniform_int_distribution<int> byte(0, 255), mantissa(0, 0x1fff);
    for (uint8_t &v : q)
      v = uint8_t(byte(rng));
    // Exponent fields 7 to 14: 2^-8 <= |s| < 1.
    for (uint16_t &s : scales)
      s = uint16_t((0x1c00 + mantissa(rng)) | (byte(rng) & 1) << 15);
    qt::pack(bits, n, k, q.data(), scales.data(), tiles.data());
    plain.bits = bits;
    plain.n = n;
    plain.k = k;
    plain.group = 32;
    plain.q = q.data();
    plain.scales = scales.data();
    plain.scalesF16 = true;
    tiled = plain;
    tiled.layout = rt::QuantLayout::Tiles;
    tiled.q = tiles.data();
    tiled.scales = nullptr;
  }

  /// W[j, l] from the plain bytes.
  double at(int64_t j, int64_t l) const {
    const int64_t k = plain.k;
    double centred =
        plain.bits == 8
            ? double(int8_t(q[size_t(j * k + l)]))
            : double((q[size_t(j * k / 2 + l / 2)] >> (l % 2 * 4) & 15) - 8);
    return centred * rt::halfToFloat(scales[size_t(j * k / 32 + l / 32)]);
  }
};

/// The product in double of the int8 row (q, d) of X with row j of W, and
/// the sum of the magnitudes of its terms.
std::pair<double, double> reference(const TiledWeight &w, const int8_t *q,
                                    const float *d, int64_t j) {
  double sum = 0, magnitude = 0;
  for (int64_t l = 0; l < w.plain.k; ++l) {
    double term = double(q[l]) * double(d[l / 32]) * w.at(j, l);
    sum += term;
    magnitude += std::fabs(term);
  }
  return {sum, magnitude};
}

struct Case {
  int bits;
  int64_t m, n, k;
  int threads;
};

std::string describe(rt::CpuIsa isa, const Case &c) {
  return std::string(rt::cpuIsaName(isa)) + " bits " +
         std::to_string(c.bits) + " m " + std::to_string(c.m) + " n " +
         std::to_string(c.n) + " k " + std::to_string(c.k) + " threads " +
         std::to_string(c.threads);
}

/// Y of the tiles and of the plain layout (padded rows: ldx = k + 3,
/// ldy = n + 2) for X; the padding of Y keeps its sentinel.
void products(rt::CpuIsa isa, const Case &c, const TiledWeight &w,
              const std::vector<float> &x, std::vector<float> &tiled,
              std::vector<float> &plain) {
  const int64_t ldx = c.k + 3, ldy = c.n + 2;
  const float sentinel = 12345.0f;
  tiled.assign(size_t(c.m * ldy), sentinel);
  plain.assign(size_t(c.m * ldy), sentinel);
  ASSERT_TRUE(rt::quantLinearWith(isa, c.m, x.data(), ldx, w.tiled,
                                  tiled.data(), ldy, c.threads, kInt8));
  ASSERT_TRUE(rt::quantLinearWith(isa, c.m, x.data(), ldx, w.plain,
                                  plain.data(), ldy, c.threads, kInt8));
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = c.n; j < ldy; ++j)
      ASSERT_EQ(tiled[size_t(i * ldy + j)], sentinel) << describe(isa, c);
}

/// The tiles against the plain layout (bit for bit) and against the double
/// product of the same int8 X and W: within 1e-5 of the sum of |terms|.
/// Each lane of a kernel adds at most k / 32 = 68 scaled block sums, then 16
/// lanes in 4 steps, each product scaled twice: (68 + 4 + 2) * 2^-24 =
/// 4.4e-6 of the sum of magnitudes bounds the f32 error.
void check(rt::CpuIsa isa, const Case &c, std::mt19937 &rng) {
  TiledWeight w(c.bits, c.n, c.k, rng);
  const int64_t ldx = c.k + 3, ldy = c.n + 2;
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(size_t(c.m * ldx));
  for (float &v : x)
    v = dist(rng);
  std::vector<float> tiled, plain;
  products(isa, c, w, x, tiled, plain);
  std::vector<int8_t> q(size_t(c.k));
  std::vector<float> d(size_t(c.k / 32));
  for (int64_t i = 0; i < c.m; ++i) {
    rt::quantizeActivations(x.data() + i * ldx, c.k, q.data(), d.data());
    for (int64_t j = 0; j < c.n; ++j) {
      const float got = tiled[size_t(i * ldy + j)];
      ASSERT_EQ(got, plain[size_t(i * ldy + j)])
          << describe(isa, c) << " at (" << i << ", " << j << ")";
      auto [ref, magnitude] = reference(w, q.data(), d.data(), j);
      ASSERT_NEAR(got, ref, 1e-5 * magnitude + 1e-6)
          << describe(isa, c) << " at (" << i << ", " << j << ")";
    }
  }
}

TEST(CpuQuantTilesInt8, MatchesThePlainLayoutBitForBit) {
  std::mt19937 rng(31);
  for (rt::CpuIsa isa : rt::testing::quantLevelsOfThisCpu())
    for (int bits : {8, 4})
      for (int64_t m : {1, 2, 3, 4})
        for (int64_t k : {128, 256, 2176})
          for (int64_t n : {8, 16, 8 * 37})
            for (int threads : {1, 3})
              check(isa, {bits, m, n, k, threads}, rng);
}

// A block of zeros quantizes to d = 0 and adds nothing; a block holding a
// NaN to d = NaN, which makes every output of its row NaN (never a finite
// value), as quantizeActivations documents. The other rows are untouched.
TEST(CpuQuantTilesInt8, ZeroAndNaNBlocksOfX) {
  std::mt19937 rng(8);
  for (rt::CpuIsa isa : rt::testing::quantLevelsOfThisCpu())
    for (int bits : {8, 4}) {
      const Case c{bits, 3, 24, 256, 1};
      TiledWeight w(bits, c.n, c.k, rng);
      const int64_t ldx = c.k + 3, ldy = c.n + 2;
      std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
      std::vector<float> x(size_t(c.m * ldx));
      for (float &v : x)
        v = dist(rng);
      // Row 0: block 1 zero. Row 1: a NaN in block 5. Row 2: both.
      for (int64_t l = 32; l < 64; ++l)
        x[size_t(l)] = x[size_t(2 * ldx + l)] = 0.0f;
      x[size_t(ldx + 5 * 32 + 7)] = x[size_t(2 * ldx + 5 * 32 + 7)] =
          std::numeric_limits<float>::quiet_NaN();
      std::vector<float> tiled, plain;
      products(isa, c, w, x, tiled, plain);
      for (int64_t j = 0; j < c.n; ++j) {
        const float row0 = tiled[size_t(j)];
        EXPECT_EQ(row0, plain[size_t(j)]) << describe(isa, c) << " j " << j;
        EXPECT_TRUE(std::isfinite(row0)) << describe(isa, c) << " j " << j;
        EXPECT_TRUE(std::isnan(tiled[size_t(ldy + j)]))
            << describe(isa, c) << " j " << j;
        EXPECT_TRUE(std::isnan(tiled[size_t(2 * ldy + j)]))
            << describe(isa, c) << " j " << j;
      }
      // Row 0 against its double product (the zero block's q and d are 0).
      std::vector<int8_t> q(size_t(c.k));
      std::vector<float> d(size_t(c.k / 32));
      rt::quantizeActivations(x.data(), c.k, q.data(), d.data());
      EXPECT_EQ(d[1], 0.0f);
      for (int64_t j = 0; j < c.n; ++j) {
        auto [ref, magnitude] = reference(w, q.data(), d.data(), j);
        EXPECT_NEAR(tiled[size_t(j)], ref, 1e-5 * magnitude + 1e-6)
            << describe(isa, c) << " j " << j;
      }
    }
}

} // namespace
