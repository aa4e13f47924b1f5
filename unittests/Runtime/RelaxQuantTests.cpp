//===- RelaxQuantTests.cpp - the quantized-linear C entries ---------------===//
//
// lib/Runtime/RelaxQuant.cpp: the relax_quant_linear_* entries against the
// decoded weight (dequantizedElement) in double, for every format, f16 and
// f32 scales, rank-2 and rank-3 activations and a row-padded X; the entries
// of weights in tiles against the plain entries on the same weights (the
// kernels are bit-identical); and every error they report, with Y left
// untouched.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"
#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "gtest/gtest.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using relax_rt::MemRef;

extern "C" {
void _mlir_ciface_relax_quant_linear_q8_f32(MemRef<float, 2> *,
                                            MemRef<int8_t, 2> *,
                                            MemRef<float, 2> *,
                                            MemRef<float, 2> *);
void _mlir_ciface_relax_quant_linear_batch_q8_f16(MemRef<float, 3> *,
                                                  MemRef<int8_t, 2> *,
                                                  MemRef<uint16_t, 2> *,
                                                  MemRef<float, 3> *);
void _mlir_ciface_relax_quant_linear_q4_f16(MemRef<float, 2> *,
                                            MemRef<uint8_t, 2> *,
                                            MemRef<uint16_t, 2> *,
                                            MemRef<float, 2> *);
void _mlir_ciface_relax_quant_linear_batch_q4z_f32(MemRef<float, 3> *,
                                                   MemRef<uint8_t, 2> *,
                                                   MemRef<float, 2> *,
                                                   MemRef<uint8_t, 2> *,
                                                   MemRef<float, 3> *);
// Weights in tiles, and the plain entries they are compared with.
void _mlir_ciface_relax_quant_linear_q8_f16(MemRef<float, 2> *,
                                            MemRef<int8_t, 2> *,
                                            MemRef<uint16_t, 2> *,
                                            MemRef<float, 2> *);
void _mlir_ciface_relax_quant_linear_q8_f16_a8(MemRef<float, 2> *,
                                               MemRef<int8_t, 2> *,
                                               MemRef<uint16_t, 2> *,
                                               MemRef<float, 2> *);
void _mlir_ciface_relax_quant_linear_batch_q4_f16(MemRef<float, 3> *,
                                                  MemRef<uint8_t, 2> *,
                                                  MemRef<uint16_t, 2> *,
                                                  MemRef<float, 3> *);
void _mlir_ciface_relax_quant_linear_batch_q4_f16_a8(MemRef<float, 3> *,
                                                     MemRef<uint8_t, 2> *,
                                                     MemRef<uint16_t, 2> *,
                                                     MemRef<float, 3> *);
void _mlir_ciface_relax_quant_linear_q8t_f32(MemRef<float, 2> *,
                                             MemRef<uint8_t, 3> *,
                                             MemRef<float, 2> *);
void _mlir_ciface_relax_quant_linear_q8t_f32_a8(MemRef<float, 2> *,
                                                MemRef<uint8_t, 3> *,
                                                MemRef<float, 2> *);
void _mlir_ciface_relax_quant_linear_batch_q4t_f32(MemRef<float, 3> *,
                                                   MemRef<uint8_t, 3> *,
                                                   MemRef<float, 3> *);
void _mlir_ciface_relax_quant_linear_batch_q4t_f32_a8(MemRef<float, 3> *,
                                                      MemRef<uint8_t, 3> *,
                                                      MemRef<float, 3> *);
}

namespace {

/// A row-major descriptor of `data` with `sizes`; `rowPad` extra elements
/// after each innermost row (a padded view).
template <typename T, int N>
MemRef<T, N> desc(std::vector<T> &data, std::array<int64_t, N> sizes,
                  int64_t rowPad = 0) {
  MemRef<T, N> m;
  m.allocated = m.aligned = data.data();
  m.offset = 0;
  int64_t stride = 1;
  for (int i = N - 1; i >= 0; --i) {
    m.sizes[i] = sizes[i];
    m.strides[i] = stride;
    stride *= sizes[i] + (i == N - 1 ? rowPad : 0);
  }
  return m;
}

class RelaxQuantTest : public ::testing::Test {
protected:
  void SetUp() override { relax_rt_clear_error(); }
  void TearDown() override { relax_rt_clear_error(); }

  std::mt19937 rng{7};
  std::vector<float> randomFloats(size_t n) {
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<float> v(n);
    for (float &x : v)
      x = d(rng);
    return v;
  }
  std::vector<uint8_t> randomBytes(size_t n, int limit = 256) {
    std::uniform_int_distribution<int> d(0, limit - 1);
    std::vector<uint8_t> v(n);
    for (uint8_t &x : v)
      x = uint8_t(d(rng));
    return v;
  }
  /// f16 scales between 2^-8 and 2^-5 (exact binary16 values).
  std::vector<uint16_t> randomHalves(size_t n) {
    std::uniform_int_distribution<int> d(0x1C00, 0x2800);
    std::vector<uint16_t> v(n);
    for (uint16_t &x : v)
      x = uint16_t(d(rng));
    return v;
  }

  /// Y (rows of ldy) against X W^T in double over the decoded W.
  void expectProduct(const relax::runtime::QuantizedWeight &w,
                     const std::vector<float> &x, int64_t m, int64_t ldx,
                     const std::vector<float> &y) {
    ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < w.n; ++j) {
        double ref = 0;
        for (int64_t l = 0; l < w.k; ++l)
          ref += double(x[i * ldx + l]) *
                 double(relax::runtime::dequantizedElement(w, j, l));
        EXPECT_NEAR(y[i * w.n + j], ref, 1e-4 * (1 + std::abs(ref)))
            << "row " << i << ", column " << j;
      }
  }
};

TEST_F(RelaxQuantTest, Q8F32ScalesPaddedRows) {
  int64_t m = 3, n = 5, k = 64, g = 2;
  std::vector<float> x = randomFloats(m * (k + 3)), s = randomFloats(n * g);
  std::vector<uint8_t> bytes = randomBytes(n * k);
  std::vector<int8_t> q(bytes.begin(), bytes.end());
  std::vector<float> y(m * n, -7.0f);
  auto xd = desc<float, 2>(x, {m, k}, 3);
  auto qd = desc<int8_t, 2>(q, {n, k});
  auto sd = desc<float, 2>(s, {n, g});
  auto yd = desc<float, 2>(y, {m, n});
  _mlir_ciface_relax_quant_linear_q8_f32(&xd, &qd, &sd, &yd);
  relax::runtime::QuantizedWeight w{8,        n,        k,     k / g,
                                    q.data(), s.data(), false, nullptr};
  expectProduct(w, x, m, k + 3, y);
}

TEST_F(RelaxQuantTest, Q8F16ScalesBatched) {
  int64_t b = 2, m = 3, n = 4, k = 96, g = 3;
  std::vector<float> x = randomFloats(b * m * k);
  std::vector<uint16_t> s = randomHalves(n * g);
  std::vector<uint8_t> bytes = randomBytes(n * k);
  std::vector<int8_t> q(bytes.begin(), bytes.end());
  std::vector<float> y(b * m * n);
  auto xd = desc<float, 3>(x, {b, m, k});
  auto qd = desc<int8_t, 2>(q, {n, k});
  auto sd = desc<uint16_t, 2>(s, {n, g});
  auto yd = desc<float, 3>(y, {b, m, n});
  _mlir_ciface_relax_quant_linear_batch_q8_f16(&xd, &qd, &sd, &yd);
  relax::runtime::QuantizedWeight w{8,        n,        k,    k / g,
                                    q.data(), s.data(), true, nullptr};
  expectProduct(w, x, b * m, k, y);
}

TEST_F(RelaxQuantTest, Q4F16Scales) {
  int64_t m = 1, n = 7, k = 128, g = 4;
  std::vector<float> x = randomFloats(m * k);
  std::vector<uint16_t> s = randomHalves(n * g);
  std::vector<uint8_t> q = randomBytes(n * k / 2);
  std::vector<float> y(m * n);
  auto xd = desc<float, 2>(x, {m, k});
  auto qd = desc<uint8_t, 2>(q, {n, k / 2});
  auto sd = desc<uint16_t, 2>(s, {n, g});
  auto yd = desc<float, 2>(y, {m, n});
  _mlir_ciface_relax_quant_linear_q4_f16(&xd, &qd, &sd, &yd);
  relax::runtime::QuantizedWeight w{4,        n,        k,    k / g,
                                    q.data(), s.data(), true, nullptr};
  expectProduct(w, x, m, k, y);
}

TEST_F(RelaxQuantTest, Q4Group128FewRowsAndMany) {
  for (int64_t m : {1, 2, 9, 40}) {
    int64_t n = 6, k = 256, g = 2;
    std::vector<float> x = randomFloats(m * k);
    std::vector<uint16_t> s = randomHalves(n * g);
    std::vector<uint8_t> q = randomBytes(n * k / 2);
    std::vector<float> y(m * n);
    auto xd = desc<float, 2>(x, {m, k});
    auto qd = desc<uint8_t, 2>(q, {n, k / 2});
    auto sd = desc<uint16_t, 2>(s, {n, g});
    auto yd = desc<float, 2>(y, {m, n});
    _mlir_ciface_relax_quant_linear_q4_f16(&xd, &qd, &sd, &yd);
    relax::runtime::QuantizedWeight w{4,        n,        k,    k / g,
                                      q.data(), s.data(), true, nullptr};
    expectProduct(w, x, m, k, y);
  }
}

TEST_F(RelaxQuantTest, Q4ZeroPointsGroup16Batched) {
  int64_t b = 1, m = 5, n = 3, k = 64, g = 4;
  std::vector<float> x = randomFloats(b * m * k), s = randomFloats(n * g);
  std::vector<uint8_t> q = randomBytes(n * k / 2), z = randomBytes(n * g, 16);
  std::vector<float> y(b * m * n);
  auto xd = desc<float, 3>(x, {b, m, k});
  auto qd = desc<uint8_t, 2>(q, {n, k / 2});
  auto sd = desc<float, 2>(s, {n, g});
  auto zd = desc<uint8_t, 2>(z, {n, g});
  auto yd = desc<float, 3>(y, {b, m, n});
  _mlir_ciface_relax_quant_linear_batch_q4z_f32(&xd, &qd, &sd, &zd, &yd);
  relax::runtime::QuantizedWeight w{4,        n,        k,     k / g,
                                    q.data(), s.data(), false, z.data()};
  expectProduct(w, x, b * m, k, y);
}

/// Each malformed call reports `message` and leaves Y as it was.
struct BadCall {
  std::array<int64_t, 2> x, q, s, y;
  int64_t qPad = 0;
  const char *message;
};

TEST_F(RelaxQuantTest, Q8Errors) {
  const BadCall cases[] = {
      {{2, 64},
       {4, 32},
       {4, 2},
       {2, 4},
       0,
       "relax_quant_linear_q8_f32: X [2, 64], Q [4, 32] and scales [4, 2] "
       "do not agree (expected Q [n, k] and scales [n, g])"},
      {{2, 64},
       {4, 64},
       {3, 2},
       {2, 4},
       0,
       "relax_quant_linear_q8_f32: X [2, 64], Q [4, 64] and scales [3, 2] "
       "do not agree (expected Q [n, k] and scales [n, g])"},
      {{2, 64},
       {4, 64},
       {4, 3},
       {2, 4},
       0,
       "relax_quant_linear_q8_f32: scales [4, 3]: 3 groups do not divide "
       "the row of 64 elements"},
      {{2, 64},
       {4, 64},
       {4, 0},
       {2, 4},
       0,
       "relax_quant_linear_q8_f32: scales [4, 0]: 0 groups do not divide "
       "the row of 64 elements"},
      {{2, 64},
       {4, 64},
       {4, 2},
       {2, 5},
       0,
       "relax_quant_linear_q8_f32: Y is [2, 5], expected X's rows [2, 64] "
       "by 4"},
      {{2, 64},
       {4, 64},
       {4, 2},
       {2, 4},
       1,
       "relax_quant_linear_q8_f32: unsupported strides (X [2, 64], Y [2, "
       "4]; Q, scales and zeros must be dense)"},
  };
  for (const BadCall &c : cases) {
    relax_rt_clear_error();
    std::vector<float> x(c.x[0] * c.x[1], 1.0f), s(c.s[0] * c.s[1], 1.0f);
    std::vector<int8_t> q(c.q[0] * (c.q[1] + c.qPad), 1);
    std::vector<float> y(c.y[0] * c.y[1], -7.0f);
    auto xd = desc<float, 2>(x, c.x);
    auto qd = desc<int8_t, 2>(q, c.q, c.qPad);
    auto sd = desc<float, 2>(s, c.s);
    auto yd = desc<float, 2>(y, c.y);
    _mlir_ciface_relax_quant_linear_q8_f32(&xd, &qd, &sd, &yd);
    EXPECT_STREQ(relax_rt_last_error(), c.message);
    for (float v : y)
      EXPECT_EQ(v, -7.0f) << c.message;
  }
}

TEST_F(RelaxQuantTest, Q4Errors) {
  // A 4-bit Q of 16 bytes a row holds k = 32; X says 64.
  std::vector<float> x(64, 1.0f), y(4, -7.0f);
  std::vector<uint16_t> s(8, 0x3C00);
  std::vector<uint8_t> q(4 * 16, 0x88), z(4 * 3, 8);
  auto xd = desc<float, 2>(x, {1, 64});
  auto qd = desc<uint8_t, 2>(q, {4, 16});
  auto sd = desc<uint16_t, 2>(s, {4, 2});
  auto yd = desc<float, 2>(y, {1, 4});
  _mlir_ciface_relax_quant_linear_q4_f16(&xd, &qd, &sd, &yd);
  EXPECT_STREQ(relax_rt_last_error(),
               "relax_quant_linear_q4_f16: X [1, 64], Q [4, 16] and scales "
               "[4, 2] do not agree (expected Q [n, k / 2] and scales [n, "
               "g])");
  // Zeros of another shape than the scales.
  relax_rt_clear_error();
  std::vector<float> x3(64, 1.0f), s3(8, 1.0f), y3(4, -7.0f);
  std::vector<uint8_t> q3(4 * 32, 0x88);
  auto x3d = desc<float, 3>(x3, {1, 1, 64});
  auto q3d = desc<uint8_t, 2>(q3, {4, 32});
  auto s3d = desc<float, 2>(s3, {4, 2});
  auto z3d = desc<uint8_t, 2>(z, {4, 3});
  auto y3d = desc<float, 3>(y3, {1, 1, 4});
  _mlir_ciface_relax_quant_linear_batch_q4z_f32(&x3d, &q3d, &s3d, &z3d, &y3d);
  EXPECT_STREQ(relax_rt_last_error(),
               "relax_quant_linear_batch_q4z_f32: zeros [4, 3] differ from "
               "scales [4, 2]");
  // A null descriptor.
  relax_rt_clear_error();
  _mlir_ciface_relax_quant_linear_batch_q4z_f32(&x3d, &q3d, &s3d, nullptr,
                                                &y3d);
  EXPECT_STREQ(relax_rt_last_error(),
               "relax_quant_linear_batch_q4z_f32: null memref descriptor");
  for (float v : y3)
    EXPECT_EQ(v, -7.0f);
  for (float v : y)
    EXPECT_EQ(v, -7.0f);
}

/// The tiled entries give the plain entries' Y bit for bit (the same
/// values, only the bytes' order differs), with f32 and int8 activations,
/// X of rank 2 (8 bits) and 3 (4 bits), decode-sized and larger m.
TEST_F(RelaxQuantTest, TilesEqualPlain) {
  namespace qt = relax::runtime::quant_tiles;
  const int64_t n = 24, k = 384, g = k / 32;
  for (int bits : {8, 4})
    for (int64_t m : {1, 3, 9})
      for (bool a8 : {false, true}) {
        std::vector<float> x = randomFloats(m * k);
        std::vector<uint16_t> s = randomHalves(n * g);
        std::vector<uint8_t> q = randomBytes(n * k * bits / 8);
        std::vector<uint8_t> t(qt::weightBytes(bits, n, k));
        qt::pack(bits, n, k, q.data(), s.data(), t.data());
        std::vector<float> plain(m * n, -7.0f), tiled(m * n, -9.0f);
        auto td = desc<uint8_t, 3>(t, {n / 8, k / 128, qt::tileBytes(bits)});
        auto sd = desc<uint16_t, 2>(s, {n, g});
        if (bits == 8) {
          std::vector<int8_t> q8(q.begin(), q.end());
          auto xd = desc<float, 2>(x, {m, k});
          auto qd = desc<int8_t, 2>(q8, {n, k});
          auto pd = desc<float, 2>(plain, {m, n});
          auto yd = desc<float, 2>(tiled, {m, n});
          (a8 ? _mlir_ciface_relax_quant_linear_q8_f16_a8
              : _mlir_ciface_relax_quant_linear_q8_f16)(&xd, &qd, &sd, &pd);
          (a8 ? _mlir_ciface_relax_quant_linear_q8t_f32_a8
              : _mlir_ciface_relax_quant_linear_q8t_f32)(&xd, &td, &yd);
        } else {
          auto xd = desc<float, 3>(x, {1, m, k});
          auto qd = desc<uint8_t, 2>(q, {n, k / 2});
          auto pd = desc<float, 3>(plain, {1, m, n});
          auto yd = desc<float, 3>(tiled, {1, m, n});
          (a8 ? _mlir_ciface_relax_quant_linear_batch_q4_f16_a8
              : _mlir_ciface_relax_quant_linear_batch_q4_f16)(&xd, &qd, &sd,
                                                              &pd);
          (a8 ? _mlir_ciface_relax_quant_linear_batch_q4t_f32_a8
              : _mlir_ciface_relax_quant_linear_batch_q4t_f32)(&xd, &td, &yd);
        }
        ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
        for (int64_t i = 0; i < m * n; ++i)
          ASSERT_EQ(tiled[i], plain[i])
              << "bits " << bits << " m " << m << " a8 " << a8 << " at " << i;
        if (!a8) {
          relax::runtime::QuantizedWeight w;
          w.bits = bits;
          w.n = n;
          w.k = k;
          w.q = t.data();
          w.scalesF16 = true;
          w.layout = relax::runtime::QuantLayout::Tiles;
          expectProduct(w, x, m, k, tiled);
        }
      }
}

TEST_F(RelaxQuantTest, TilesErrors) {
  struct TilesCall {
    std::array<int64_t, 2> x;
    std::array<int64_t, 3> t;
    std::array<int64_t, 2> y;
    int64_t tPad;
    const char *message;
  };
  const TilesCall cases[] = {
      {{2, 256},
       {2, 2, 576},
       {2, 16},
       0,
       "relax_quant_linear_q8t_f32: X [2, 256] and tiles [2, 2, 576] do not "
       "agree (expected tiles [n / 8, k / 128, 1088])"},
      {{2, 256},
       {2, 1, 1088},
       {2, 16},
       0,
       "relax_quant_linear_q8t_f32: X [2, 256] and tiles [2, 1, 1088] do "
       "not agree (expected tiles [n / 8, k / 128, 1088])"},
      {{2, 256},
       {2, 2, 1088},
       {2, 15},
       0,
       "relax_quant_linear_q8t_f32: Y is [2, 15], expected X's rows [2, 256] "
       "by 16"},
      {{2, 256},
       {2, 2, 1088},
       {2, 16},
       64,
       "relax_quant_linear_q8t_f32: unsupported strides (X [2, 256], Y [2, "
       "16]; the tiles must be dense)"},
  };
  for (const TilesCall &c : cases) {
    relax_rt_clear_error();
    std::vector<float> x(c.x[0] * c.x[1], 1.0f), y(c.y[0] * c.y[1], -7.0f);
    std::vector<uint8_t> t(c.t[0] * c.t[1] * (c.t[2] + c.tPad), 0);
    auto xd = desc<float, 2>(x, c.x);
    auto td = desc<uint8_t, 3>(t, c.t, c.tPad);
    auto yd = desc<float, 2>(y, c.y);
    _mlir_ciface_relax_quant_linear_q8t_f32(&xd, &td, &yd);
    EXPECT_STREQ(relax_rt_last_error(), c.message);
    for (float v : y)
      EXPECT_EQ(v, -7.0f) << c.message;
  }
  relax_rt_clear_error();
  std::vector<float> x(256, 1.0f), y(16, -7.0f);
  auto xd = desc<float, 2>(x, {1, 256});
  auto yd = desc<float, 2>(y, {1, 16});
  _mlir_ciface_relax_quant_linear_q8t_f32(&xd, nullptr, &yd);
  EXPECT_STREQ(relax_rt_last_error(),
               "relax_quant_linear_q8t_f32: null memref descriptor");
}

} // namespace
