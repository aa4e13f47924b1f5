//===- CpuQuantTilesTests.cpp - Products with tiled quantized weights -----===//
//
// QuantLayout::Tiles (RelaxDialect/Runtime/QuantTiles.h) against the plain
// layout of the same weights: pack/unpack round trips and the documented
// byte positions, the layouts whyUnsupported refuses (one message each),
// dequantizedElement, and the exact products of every kernel level the CPU
// runs, which must equal the plain layout's bit for bit (the tile kernels
// add each output's terms in the plain kernels' order).
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CpuQuantGemv.h"
#include "QuantIsaLevels.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>
#include <string>
#include <vector>

using relax::runtime::CpuIsa;
using relax::runtime::testing::quantLevelsOfThisCpu;
using relax::runtime::QuantizedWeight;
using relax::runtime::QuantLayout;
namespace qt = relax::runtime::quant_tiles;

namespace {

/// A W [n, k] in both layouts: random bytes, f16 scales in [2^-8, 1) (any
/// bits of a normal positive half), group 32.
struct BothLayouts {
  std::vector<uint8_t> q, tiles;
  std::vector<uint16_t> scales;
  QuantizedWeight plain, tiled;
};

BothLayouts makeBoth(int bits, int64_t n, int64_t k, std::mt19937 &rng) {
  BothLayouts out;
  out.q.resize(n * k * bits / 8);
  std::uniform_int_distribution<int> byte(0, 255);
  for (uint8_t &v : out.q)
    v = uint8_t(byte(rng));
  // Exponents 7..14 (2^-8 to 2^-1), any mantissa.
  std::uniform_int_distribution<int> exponent(7, 14), mantissa(0, 1023);
  out.scales.resize(n * k / 32);
  for (uint16_t &s : out.scales)
    s = uint16_t(exponent(rng) << 10 | mantissa(rng));
  out.tiles.resize(qt::weightBytes(bits, n, k));
  qt::pack(bits, n, k, out.q.data(), out.scales.data(), out.tiles.data());
  out.plain.bits = bits;
  out.plain.n = n;
  out.plain.k = k;
  out.plain.group = 32;
  out.plain.q = out.q.data();
  out.plain.scales = out.scales.data();
  out.plain.scalesF16 = true;
  out.tiled = out.plain;
  out.tiled.layout = QuantLayout::Tiles;
  out.tiled.q = out.tiles.data();
  out.tiled.scales = nullptr;
  return out;
}

TEST(CpuQuantTiles, PackPutsEachByteWhereTheHeaderSays) {
  std::mt19937 rng(3);
  for (int bits : {8, 4}) {
    const int64_t n = 24, k = 384, chunk = qt::chunkBytes(bits);
    BothLayouts both = makeBoth(bits, n, k, rng);
    ASSERT_EQ(both.tiles.size(), size_t(n / 8 * 3 * (bits == 8 ? 1088 : 576)));
    // Row 13 (block 1, row 5), group 9 (tile 2, group 1).
    const uint8_t *tile = both.tiles.data() + (1 * 3 + 2) * qt::tileBytes(bits);
    uint16_t scale;
    std::memcpy(&scale, tile + 2 * (1 * 8 + 5), 2);
    EXPECT_EQ(scale, both.scales[13 * (k / 32) + 9]) << bits;
    EXPECT_EQ(std::memcmp(tile + 64 + (1 * 8 + 5) * chunk,
                          both.q.data() + 13 * (k * bits / 8) + 9 * chunk,
                          chunk),
              0)
        << bits;
    // unpack inverts pack.
    std::vector<uint8_t> q(both.q.size(), 0);
    std::vector<uint16_t> scales(both.scales.size(), 0);
    qt::unpack(bits, n, k, both.tiles.data(), q.data(), scales.data());
    EXPECT_EQ(q, both.q) << bits;
    EXPECT_EQ(scales, both.scales) << bits;
  }
}

TEST(CpuQuantTiles, RefusesWhatTilesDoNotHold) {
  std::vector<uint8_t> tiles(qt::weightBytes(8, 16, 256));
  QuantizedWeight w;
  w.layout = QuantLayout::Tiles;
  w.bits = 8;
  w.n = 16;
  w.k = 256;
  w.group = 32;
  w.scalesF16 = true;
  w.q = tiles.data();
  // scales are unused (null).
  EXPECT_EQ(relax::runtime::whyUnsupported(w), nullptr);
  // One change a refusal, and its message.
  uint8_t zeros[128] = {};
  const struct {
    void (*change)(QuantizedWeight &, uint8_t *);
    const char *message;
  } refusals[] = {
      {[](QuantizedWeight &c, uint8_t *) { c.bits = 3; },
       "tiles hold 4-bit or 8-bit weights only"},
      {[](QuantizedWeight &c, uint8_t *) { c.n = 12; },
       "tiles need a positive number of rows (n) divisible by 8"},
      {[](QuantizedWeight &c, uint8_t *) { c.k = 192; },
       "tiles need a positive depth (k) divisible by 128"},
      {[](QuantizedWeight &c, uint8_t *) { c.group = 64; },
       "tiles hold groups of 32 elements"},
      {[](QuantizedWeight &c, uint8_t *) { c.scalesF16 = false; },
       "tiles hold f16 scales"},
      {[](QuantizedWeight &c, uint8_t *z) {
         c.bits = 4;
         c.zeros = z;
       },
       "tiles hold symmetric weights (no zero points)"},
      {[](QuantizedWeight &c, uint8_t *) { c.q = nullptr; },
       "null weight tiles"},
  };
  for (const auto &refusal : refusals) {
    QuantizedWeight c = w;
    refusal.change(c, zeros);
    const char *message = relax::runtime::whyUnsupported(c);
    EXPECT_EQ(std::string(message ? message : "(accepted)"), refusal.message);
  }
  // Refused: nothing written.
  std::vector<float> x(256, 1.0f), y(16, 7.0f);
  QuantizedWeight c = w;
  c.k = 192;
  EXPECT_FALSE(relax::runtime::quantLinear(1, x.data(), 256, c, y.data(), 16,
                                           1));
  EXPECT_EQ(y, std::vector<float>(16, 7.0f));
}

TEST(CpuQuantTiles, DequantizesAsThePlainLayout) {
  std::mt19937 rng(5);
  for (int bits : {8, 4}) {
    BothLayouts both = makeBoth(bits, 16, 256, rng);
    for (int64_t j = 0; j < 16; ++j)
      for (int64_t l = 0; l < 256; ++l)
        ASSERT_EQ(relax::runtime::dequantizedElement(both.tiled, j, l),
                  relax::runtime::dequantizedElement(both.plain, j, l))
            << bits << " (" << j << ", " << l << ")";
  }
}

TEST(CpuQuantTiles, ProductsEqualThePlainLayoutsBitForBit) {
  // 1 to 4 rows of X (the streaming kernels: subsets of a block's rows,
  // partial sums or scaled vectors as the plain kernels) and more (the
  // dequantized blocks); one tile, two, and 17 along k; one and two blocks
  // of rows and 37 (pieces of the pool's split end inside a 16-row grain).
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const float sentinel = 12345.0f;
  for (int bits : {8, 4})
    for (int64_t k : {128, 256, 2176})
      for (int64_t n : {8, 16, 8 * 37}) {
        BothLayouts both = makeBoth(bits, n, k, rng);
        for (int64_t m : {1, 2, 3, 4, 5, 17, 40}) {
          const int64_t ldx = k + 3, ldy = n + 2;
          std::vector<float> x(m * ldx);
          for (float &v : x)
            v = dist(rng);
          for (CpuIsa isa : quantLevelsOfThisCpu())
            for (int threads : {1, 3}) {
              std::vector<float> plain(m * ldy, sentinel),
                  tiled(m * ldy, sentinel);
              ASSERT_TRUE(relax::runtime::quantLinearWith(
                  isa, m, x.data(), ldx, both.plain, plain.data(), ldy,
                  threads));
              ASSERT_TRUE(relax::runtime::quantLinearWith(
                  isa, m, x.data(), ldx, both.tiled, tiled.data(), ldy,
                  threads));
              for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < ldy; ++j)
                  ASSERT_EQ(std::memcmp(&plain[i * ldy + j],
                                        &tiled[i * ldy + j], sizeof(float)),
                            0)
                      << relax::runtime::cpuIsaName(isa) << " bits " << bits
                      << " m " << m << " n " << n << " k " << k
                      << " threads " << threads << " at (" << i << ", " << j
                      << "): plain " << plain[i * ldy + j] << " tiles "
                      << tiled[i * ldy + j];
            }
        }
      }
}

} // namespace
