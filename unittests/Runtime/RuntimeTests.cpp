//===- RuntimeTests.cpp - the relax C runtime -----------------------------===//
//
// The error slot (first error kept, clear) and the CPU BLAS binding: every
// entry point against a naive triple loop, with padded, transposed, offset
// and non-unit-stride descriptors, broadcasts, empty dims and bad shapes.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "../../lib/Runtime/CpuGemv.h"

#include "gtest/gtest.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using relax_rt::MemRef;

namespace {

//===----------------------------------------------------------------------===//
// Error slot
//===----------------------------------------------------------------------===//

class ErrorSlotTest : public ::testing::Test {
protected:
  void SetUp() override { relax_rt_clear_error(); }
  void TearDown() override { relax_rt_clear_error(); }
};

TEST_F(ErrorSlotTest, StartsEmpty) {
  EXPECT_EQ(relax_rt_has_error(), 0);
  EXPECT_STREQ(relax_rt_last_error(), "");
}

TEST_F(ErrorSlotTest, FormatsActualThenExpected) {
  relax_rt_shape_error("main: argument 'x' dim 1: expected %2$lld, got %1$lld",
                       5, 4);
  EXPECT_EQ(relax_rt_has_error(), 1);
  EXPECT_STREQ(relax_rt_last_error(),
               "main: argument 'x' dim 1: expected 4, got 5");
}

TEST_F(ErrorSlotTest, FirstErrorIsKept) {
  relax_rt_shape_error("first %lld %lld", 1, 2);
  relax_rt_shape_error("second %lld %lld", 3, 4);
  relax_rt_error("third");
  EXPECT_STREQ(relax_rt_last_error(), "first 1 2");
}

TEST_F(ErrorSlotTest, ClearForgets) {
  relax_rt_error("boom");
  relax_rt_clear_error();
  EXPECT_EQ(relax_rt_has_error(), 0);
  EXPECT_STREQ(relax_rt_last_error(), "");
  relax_rt_shape_error("again %lld vs %lld", 7, 8);
  EXPECT_STREQ(relax_rt_last_error(), "again 7 vs 8");
}

TEST_F(ErrorSlotTest, PreformattedMessageIsNotAFormat) {
  relax_rt_error("100% sure: %s %lld");
  EXPECT_STREQ(relax_rt_last_error(), "100% sure: %s %lld");
}

#ifdef RELAX_RUNTIME_HAS_BLAS

//===----------------------------------------------------------------------===//
// Strided tensors
//===----------------------------------------------------------------------===//

/// A tensor with its own storage and an arbitrary strided descriptor into
/// it; storage not covered by the view holds a sentinel that must survive.
template <typename T, int N> struct Strided {
  std::vector<T> storage;
  MemRef<T, N> desc;

  static constexpr T kSentinel = T(-777);

  Strided(std::array<int64_t, N> sizes, std::array<int64_t, N> strides,
          int64_t offset = 0) {
    int64_t extent = offset + 1;
    for (int i = 0; i < N; ++i)
      if (sizes[i] > 0)
        extent += (sizes[i] - 1) * strides[i];
    storage.assign(extent, kSentinel);
    desc.allocated = storage.data();
    desc.aligned = storage.data();
    desc.offset = offset;
    for (int i = 0; i < N; ++i) {
      desc.sizes[i] = sizes[i];
      desc.strides[i] = strides[i];
    }
  }

  /// Row-major and dense.
  static Strided contiguous(std::array<int64_t, N> sizes) {
    std::array<int64_t, N> strides;
    int64_t s = 1;
    for (int i = N - 1; i >= 0; --i) {
      strides[i] = s;
      s *= std::max<int64_t>(sizes[i], 1);
    }
    return Strided(sizes, strides);
  }

  int64_t index(std::array<int64_t, N> idx) const {
    int64_t at = desc.offset;
    for (int i = 0; i < N; ++i)
      at += idx[i] * desc.strides[i];
    return at;
  }
  T &at(std::array<int64_t, N> idx) { return storage[index(idx)]; }
  T get(std::array<int64_t, N> idx) const { return storage[index(idx)]; }

  /// Fills the viewed elements with values in [-1, 1).
  void randomize(std::mt19937 &rng) {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    forEach([&](std::array<int64_t, N> idx) { at(idx) = T(dist(rng)); });
  }

  template <typename Fn> void forEach(Fn fn) const {
    std::array<int64_t, N> idx{};
    for (int i = 0; i < N; ++i)
      if (desc.sizes[i] == 0)
        return;
    while (true) {
      fn(idx);
      int d = N - 1;
      while (d >= 0 && ++idx[d] == desc.sizes[d])
        idx[d--] = 0;
      if (d < 0)
        return;
    }
  }
};

/// Element (batch..., row, col) of an operand of rank 2 to 4, where `batch`
/// holds C's batch indices; a batch dim of one broadcasts, and the last two
/// dims may be transposed.
template <typename T, int N, size_t NB>
T element(const Strided<T, N> &t, const std::array<int64_t, NB> &batch,
          int64_t row, int64_t col, bool transposed) {
  if (transposed)
    std::swap(row, col);
  std::array<int64_t, N> idx{};
  for (int i = 0; i < N - 2; ++i)
    idx[i] = t.desc.sizes[i] == 1 ? 0 : batch[int(NB) - (N - 2) + i];
  idx[N - 2] = row;
  idx[N - 1] = col;
  return t.get(idx);
}

/// Checks C against a naive product in double precision. The tolerance is
/// 1e-5 relative to the magnitude sum_k |a * b|, which bounds the rounding
/// error of any summation order.
template <typename T, int RA, int RB>
void expectProduct(const Strided<T, RA> &a, const Strided<T, RB> &b,
                   const Strided<T, RA> &c, bool transposeB) {
  ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
  int64_t k = a.desc.sizes[RA - 1];
  c.forEach([&](std::array<int64_t, RA> idx) {
    constexpr size_t NB = RA > 2 ? RA - 2 : 1;
    std::array<int64_t, NB> batch{};
    for (int i = 0; i < RA - 2; ++i)
      batch[i] = idx[i];
    int64_t i = idx[RA - 2], j = idx[RA - 1];
    double ref = 0, scale = 0;
    for (int64_t kk = 0; kk < k; ++kk) {
      double p = double(element(a, batch, i, kk, false)) *
                 double(element(b, batch, kk, j, transposeB));
      ref += p;
      scale += std::fabs(p);
    }
    double got = c.get(idx);
    ASSERT_LE(std::fabs(got - ref), 1e-5 * std::max(scale, 1e-30) + 1e-30)
        << "at batch " << batch[0] << "," << batch[NB - 1] << " (" << i << ", "
        << j << "): got " << got << ", expected " << ref;
  });
  // Storage outside the view of C must be untouched.
  std::vector<bool> viewed(c.storage.size(), false);
  c.forEach([&](std::array<int64_t, RA> idx) { viewed[c.index(idx)] = true; });
  const T sentinel = Strided<T, RA>::kSentinel;
  for (size_t p = 0; p < c.storage.size(); ++p) {
    if (!viewed[p]) {
      ASSERT_EQ(c.storage[p], sentinel) << "wrote outside C at " << p;
    }
  }
}

template <typename T> struct Blas;
template <> struct Blas<float> {
  static constexpr auto mm = _mlir_ciface_relax_blas_matmul_f32;
  static constexpr auto mmNT = _mlir_ciface_relax_blas_matmul_nt_f32;
  static constexpr auto bmm = _mlir_ciface_relax_blas_batch_matmul_f32;
  static constexpr auto bmmNT = _mlir_ciface_relax_blas_batch_matmul_nt_f32;
  static constexpr auto bcast = _mlir_ciface_relax_blas_batch_matmul_bcast_f32;
  static constexpr auto bcastNT =
      _mlir_ciface_relax_blas_batch_matmul_bcast_nt_f32;
  static constexpr auto bmm2 = _mlir_ciface_relax_blas_batch2_matmul_f32;
  static constexpr auto bmm2NT = _mlir_ciface_relax_blas_batch2_matmul_nt_f32;
  static constexpr auto bcast2 =
      _mlir_ciface_relax_blas_batch2_matmul_bcast_f32;
  static constexpr auto bcast2NT =
      _mlir_ciface_relax_blas_batch2_matmul_bcast_nt_f32;
  static constexpr auto conv2d = _mlir_ciface_relax_blas_conv2d_nchw_f32;
  static constexpr auto convPacked =
      _mlir_ciface_relax_blas_conv2d_nchw_packed_f32;
  static constexpr auto convFused =
      _mlir_ciface_relax_blas_conv2d_fused_packed_f32;
  static constexpr auto convFusedRes =
      _mlir_ciface_relax_blas_conv2d_fused_res_packed_f32;
  // B a module constant: packed once (oneDNN, f32) or the BLAS.
  static constexpr auto mmPacked = _mlir_ciface_relax_blas_matmul_packed_f32;
  static constexpr auto mmNTPacked =
      _mlir_ciface_relax_blas_matmul_nt_packed_f32;
  static constexpr auto bcastPacked =
      _mlir_ciface_relax_blas_batch_matmul_bcast_packed_f32;
  static constexpr auto bcastNTPacked =
      _mlir_ciface_relax_blas_batch_matmul_bcast_nt_packed_f32;
  static constexpr auto bcast2NTPacked =
      _mlir_ciface_relax_blas_batch2_matmul_bcast_nt_packed_f32;
  // With the epilogue: + bias (then GELU).
  static constexpr auto mmNTBias =
      _mlir_ciface_relax_blas_matmul_nt_packed_bias_f32;
  static constexpr auto bcastBiasGelu =
      _mlir_ciface_relax_blas_batch_matmul_bcast_packed_bias_gelu_f32;
  static constexpr auto bcastRes =
      _mlir_ciface_relax_blas_batch_matmul_bcast_packed_res_f32;
  static constexpr auto mmNTBiasRes =
      _mlir_ciface_relax_blas_matmul_nt_packed_bias_res_f32;
  static constexpr const char *suffix = "f32";
};
template <> struct Blas<double> {
  static constexpr auto mm = _mlir_ciface_relax_blas_matmul_f64;
  static constexpr auto mmNT = _mlir_ciface_relax_blas_matmul_nt_f64;
  static constexpr auto bmm = _mlir_ciface_relax_blas_batch_matmul_f64;
  static constexpr auto bmmNT = _mlir_ciface_relax_blas_batch_matmul_nt_f64;
  static constexpr auto bcast = _mlir_ciface_relax_blas_batch_matmul_bcast_f64;
  static constexpr auto bcastNT =
      _mlir_ciface_relax_blas_batch_matmul_bcast_nt_f64;
  static constexpr auto bmm2 = _mlir_ciface_relax_blas_batch2_matmul_f64;
  static constexpr auto bmm2NT = _mlir_ciface_relax_blas_batch2_matmul_nt_f64;
  static constexpr auto bcast2 =
      _mlir_ciface_relax_blas_batch2_matmul_bcast_f64;
  static constexpr auto bcast2NT =
      _mlir_ciface_relax_blas_batch2_matmul_bcast_nt_f64;
  static constexpr auto conv2d = _mlir_ciface_relax_blas_conv2d_nchw_f64;
  static constexpr auto convPacked =
      _mlir_ciface_relax_blas_conv2d_nchw_packed_f64;
  static constexpr auto convFused =
      _mlir_ciface_relax_blas_conv2d_fused_packed_f64;
  static constexpr auto convFusedRes =
      _mlir_ciface_relax_blas_conv2d_fused_res_packed_f64;
  // B a module constant: packed once (oneDNN, f32) or the BLAS.
  static constexpr auto mmPacked = _mlir_ciface_relax_blas_matmul_packed_f64;
  static constexpr auto mmNTPacked =
      _mlir_ciface_relax_blas_matmul_nt_packed_f64;
  static constexpr auto bcastPacked =
      _mlir_ciface_relax_blas_batch_matmul_bcast_packed_f64;
  static constexpr auto bcastNTPacked =
      _mlir_ciface_relax_blas_batch_matmul_bcast_nt_packed_f64;
  static constexpr auto bcast2NTPacked =
      _mlir_ciface_relax_blas_batch2_matmul_bcast_nt_packed_f64;
  // With the epilogue: + bias (then GELU).
  static constexpr auto mmNTBias =
      _mlir_ciface_relax_blas_matmul_nt_packed_bias_f64;
  static constexpr auto bcastBiasGelu =
      _mlir_ciface_relax_blas_batch_matmul_bcast_packed_bias_gelu_f64;
  static constexpr auto bcastRes =
      _mlir_ciface_relax_blas_batch_matmul_bcast_packed_res_f64;
  static constexpr auto mmNTBiasRes =
      _mlir_ciface_relax_blas_matmul_nt_packed_bias_res_f64;
  static constexpr const char *suffix = "f64";
};

template <typename T> class BlasTest : public ::testing::Test {
protected:
  using M2 = Strided<T, 2>;
  using M3 = Strided<T, 3>;
  using M4 = Strided<T, 4>;
  void SetUp() override { relax_rt_clear_error(); }
  void TearDown() override { relax_rt_clear_error(); }
  std::mt19937 rng{1234};
  std::string name(const char *base) {
    return std::string(base) + "_" + Blas<T>::suffix;
  }
};

using Dtypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(BlasTest, Dtypes, );

//===----------------------------------------------------------------------===//
// Rank 2
//===----------------------------------------------------------------------===//

TYPED_TEST(BlasTest, Rank2) {
  using M2 = typename TestFixture::M2;
  for (auto [m, k, n] : std::vector<std::array<int64_t, 3>>{{1, 1, 1},
                                                            {3, 4, 5},
                                                            {17, 33, 9},
                                                            {64, 64, 64},
                                                            {1, 100, 7},
                                                            {50, 1, 3}}) {
    M2 a = M2::contiguous({m, k}), b = M2::contiguous({k, n}),
       c = M2::contiguous({m, n});
    a.randomize(this->rng);
    b.randomize(this->rng);
    Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
    expectProduct(a, b, c, false);
  }
}

TYPED_TEST(BlasTest, Rank2TransposeB) {
  using M2 = typename TestFixture::M2;
  for (auto [m, k, n] : std::vector<std::array<int64_t, 3>>{
           {1, 1, 1}, {5, 7, 3}, {31, 16, 40}}) {
    M2 a = M2::contiguous({m, k}), b = M2::contiguous({n, k}),
       c = M2::contiguous({m, n});
    a.randomize(this->rng);
    b.randomize(this->rng);
    Blas<TypeParam>::mmNT(&a.desc, &b.desc, &c.desc);
    expectProduct(a, b, c, true);
  }
}

TYPED_TEST(BlasTest, Rank2PaddedRowsAndOffsets) {
  using M2 = typename TestFixture::M2;
  // Sub-views of larger buffers: the row stride is the leading dimension.
  M2 a({6, 5}, {8, 1}, /*offset=*/3), b({5, 4}, {7, 1}, 2),
      c({6, 4}, {9, 1}, 5);
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
}

TYPED_TEST(BlasTest, Rank2ColumnMajorInputs) {
  using M2 = typename TestFixture::M2;
  // Transposed views (row stride 1) reach BLAS as transposed operands.
  M2 a({6, 5}, {1, 6}), b({5, 4}, {1, 7}), c = M2::contiguous({6, 4});
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
  M2 bt({4, 5}, {1, 4}), c2 = M2::contiguous({6, 4});
  bt.randomize(this->rng);
  Blas<TypeParam>::mmNT(&a.desc, &bt.desc, &c2.desc);
  expectProduct(a, bt, c2, true);
}

TYPED_TEST(BlasTest, Rank2NonUnitInnerStrides) {
  using M2 = typename TestFixture::M2;
  // Every second element: packed into a copy; C is scattered back.
  M2 a({7, 6}, {14, 2}, 1), b({6, 5}, {15, 3}), c({7, 5}, {12, 2}, 1);
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
}

TYPED_TEST(BlasTest, Rank2BroadcastStrides) {
  using M2 = typename TestFixture::M2;
  // Stride 0: every row of A is the same row (an expanded view).
  M2 a({4, 6}, {0, 1}), b = M2::contiguous({6, 3}), c = M2::contiguous({4, 3});
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
}

TYPED_TEST(BlasTest, Rank2EmptyDims) {
  using M2 = typename TestFixture::M2;
  // k = 0: C is all zeros (an empty sum).
  M2 a = M2::contiguous({3, 0}), b = M2::contiguous({0, 4}),
     c = M2::contiguous({3, 4});
  c.forEach([&](std::array<int64_t, 2> idx) { c.at(idx) = TypeParam(9); });
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
  // m = 0: nothing to do, no error.
  M2 a0 = M2::contiguous({0, 3}), b0 = M2::contiguous({3, 2}),
     c0 = M2::contiguous({0, 2});
  Blas<TypeParam>::mm(&a0.desc, &b0.desc, &c0.desc);
  EXPECT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
}

//===----------------------------------------------------------------------===//
// Rank 3
//===----------------------------------------------------------------------===//

TYPED_TEST(BlasTest, Rank3Batched) {
  using M3 = typename TestFixture::M3;
  M3 a = M3::contiguous({4, 5, 6}), b = M3::contiguous({4, 6, 3}),
     c = M3::contiguous({4, 5, 3});
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::bmm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
}

TYPED_TEST(BlasTest, Rank3BatchedTransposeB) {
  using M3 = typename TestFixture::M3;
  M3 a = M3::contiguous({3, 8, 16}), b = M3::contiguous({3, 5, 16}),
     c = M3::contiguous({3, 8, 5});
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::bmmNT(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, true);
}

TYPED_TEST(BlasTest, Rank3BatchOfOneBroadcasts) {
  using M3 = typename TestFixture::M3;
  M3 a = M3::contiguous({1, 4, 5}), b = M3::contiguous({3, 5, 2}),
     c = M3::contiguous({3, 4, 2});
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::bmm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
  M3 a2 = M3::contiguous({3, 4, 5}), b2 = M3::contiguous({1, 5, 2}),
     c2 = M3::contiguous({3, 4, 2});
  a2.randomize(this->rng);
  b2.randomize(this->rng);
  Blas<TypeParam>::bmm(&a2.desc, &b2.desc, &c2.desc);
  expectProduct(a2, b2, c2, false);
}

TYPED_TEST(BlasTest, Rank3StridedBatches) {
  using M3 = typename TestFixture::M3;
  // Batch-minor layout ([m, b, k] storage viewed as [b, m, k]) and a
  // non-unit inner stride in B.
  M3 a({3, 4, 5}, {5, 15, 1}), b({3, 5, 2}, {1, 12, 3}),
      c({3, 4, 2}, {16, 4, 1}, 2);
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::bmm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
}

TYPED_TEST(BlasTest, Rank3SharedB) {
  using M2 = typename TestFixture::M2;
  using M3 = typename TestFixture::M3;
  // Stacked batches: one GEMM of b * m rows.
  M3 a = M3::contiguous({2, 7, 6}), c = M3::contiguous({2, 7, 4});
  M2 b = M2::contiguous({6, 4});
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::bcast(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
  // Batches that are not stacked: one GEMM per batch.
  M3 a2({2, 7, 6}, {50, 6, 1}), c2({2, 7, 4}, {1, 8, 2});
  a2.randomize(this->rng);
  Blas<TypeParam>::bcast(&a2.desc, &b.desc, &c2.desc);
  expectProduct(a2, b, c2, false);
}

TYPED_TEST(BlasTest, Rank3SharedBTransposed) {
  using M2 = typename TestFixture::M2;
  using M3 = typename TestFixture::M3;
  // A linear layer: x [b, s, in] times w [out, in]^T.
  M3 a = M3::contiguous({3, 5, 12}), c = M3::contiguous({3, 5, 10});
  M2 w = M2::contiguous({10, 12});
  a.randomize(this->rng);
  w.randomize(this->rng);
  Blas<TypeParam>::bcastNT(&a.desc, &w.desc, &c.desc);
  expectProduct(a, w, c, true);
}

//===----------------------------------------------------------------------===//
// Rank 4: two batch dims (attention's [batch, heads])
//===----------------------------------------------------------------------===//

TYPED_TEST(BlasTest, Rank4Batched) {
  using M4 = typename TestFixture::M4;
  // scores = q k^T and context = p v over [batch, heads].
  M4 q = M4::contiguous({2, 3, 5, 4}), k = M4::contiguous({2, 3, 6, 4}),
     s = M4::contiguous({2, 3, 5, 6});
  q.randomize(this->rng);
  k.randomize(this->rng);
  Blas<TypeParam>::bmm2NT(&q.desc, &k.desc, &s.desc);
  expectProduct(q, k, s, true);
  M4 v = M4::contiguous({2, 3, 6, 4}), ctx = M4::contiguous({2, 3, 5, 4});
  v.randomize(this->rng);
  Blas<TypeParam>::bmm2(&s.desc, &v.desc, &ctx.desc);
  expectProduct(s, v, ctx, false);
}

TYPED_TEST(BlasTest, Rank4BroadcastAndStridedBatches) {
  using M4 = typename TestFixture::M4;
  // One batch dim of B broadcasts (grouped-query: one k/v head for all),
  // and A is viewed head-major over [batch, seq, heads, dim] storage.
  M4 a({2, 3, 5, 4}, {60, 4, 12, 1}), b = M4::contiguous({2, 1, 4, 7}),
                                      c = M4::contiguous({2, 3, 5, 7});
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::bmm2(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
}

TYPED_TEST(BlasTest, Rank4SharedB) {
  using M2 = typename TestFixture::M2;
  using M4 = typename TestFixture::M4;
  // Stacked batches (one GEMM of b0 * b1 * m rows) and, with padded
  // batches, one GEMM per batch.
  M4 a = M4::contiguous({2, 3, 5, 6}), c = M4::contiguous({2, 3, 5, 4});
  M2 w = M2::contiguous({4, 6});
  a.randomize(this->rng);
  w.randomize(this->rng);
  Blas<TypeParam>::bcast2NT(&a.desc, &w.desc, &c.desc);
  expectProduct(a, w, c, true);
  M4 a2({2, 3, 5, 6}, {100, 32, 6, 1});
  M2 b = M2::contiguous({6, 4});
  a2.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::bcast2(&a2.desc, &b.desc, &c.desc);
  expectProduct(a2, b, c, false);
}

//===----------------------------------------------------------------------===//
// Constant B (the `_packed` variants)
//===----------------------------------------------------------------------===//

TYPED_TEST(BlasTest, PackedConstantBEpilogue) {
  using M1 = Strided<TypeParam, 1>;
  using M2 = typename TestFixture::M2;
  using M3 = typename TestFixture::M3;
  relax_rt_blas_release_constants();
  M2 w = M2::contiguous({40, 24}), b = M2::contiguous({24, 40});
  M1 bias = M1::contiguous({40});
  w.randomize(this->rng);
  b.randomize(this->rng);
  bias.randomize(this->rng);
  auto gelu = [](double x) {
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  };
  // Against the plain product plus the epilogue computed here: stacked
  // batches (one GEMM with oneDNN's post-ops for f32), batches that are not
  // stacked rows (the epilogue applied per batch), rank 2 with B transposed.
  for (int64_t rows : {1, 7, 64}) {
    for (bool stacked : {true, false}) {
      M3 x = stacked ? M3::contiguous({2, rows, 24})
                     : M3({2, rows, 24}, {rows * 30, 30, 1});
      M3 y = M3::contiguous({2, rows, 40}), ref = M3::contiguous({2, rows, 40});
      x.randomize(this->rng);
      Blas<TypeParam>::bcast(&x.desc, &b.desc, &ref.desc);
      Blas<TypeParam>::bcastBiasGelu(&x.desc, &b.desc, &bias.desc, &y.desc);
      ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
      y.forEach([&](std::array<int64_t, 3> idx) {
        double expected =
            gelu(double(ref.get(idx)) + double(bias.get({idx[2]})));
        ASSERT_NEAR(double(y.get(idx)), expected, 1e-4)
            << "rows " << rows << ", stacked " << stacked;
      });
    }
  }
  M2 a = M2::contiguous({9, 24}), c = M2::contiguous({9, 40}),
     ref = M2::contiguous({9, 40});
  a.randomize(this->rng);
  Blas<TypeParam>::mmNT(&a.desc, &w.desc, &ref.desc);
  Blas<TypeParam>::mmNTBias(&a.desc, &w.desc, &bias.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
  c.forEach([&](std::array<int64_t, 2> idx) {
    ASSERT_NEAR(double(c.get(idx)),
                double(ref.get(idx)) + double(bias.get({idx[1]})), 1e-4);
  });
  // A residual R added last: stacked batches and batches that are not
  // (R's or A's), and after a bias.
  for (int rStacked = 0; rStacked < 2; ++rStacked)
    for (int aStacked = 0; aStacked < 2; ++aStacked) {
      M3 x =
          aStacked ? M3::contiguous({2, 7, 24}) : M3({2, 7, 24}, {300, 30, 1});
      M3 r =
          rStacked ? M3::contiguous({2, 7, 40}) : M3({2, 7, 40}, {500, 50, 1});
      M3 y = M3::contiguous({2, 7, 40}), ref3 = M3::contiguous({2, 7, 40});
      x.randomize(this->rng);
      r.randomize(this->rng);
      Blas<TypeParam>::bcast(&x.desc, &b.desc, &ref3.desc);
      Blas<TypeParam>::bcastRes(&x.desc, &b.desc, &r.desc, &y.desc);
      ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
      y.forEach([&](std::array<int64_t, 3> idx) {
        ASSERT_NEAR(double(y.get(idx)),
                    double(ref3.get(idx)) + double(r.get(idx)), 1e-4)
            << "R stacked " << rStacked << ", A stacked " << aStacked;
      });
    }
  {
    M2 r = M2::contiguous({9, 40}), y = M2::contiguous({9, 40});
    r.randomize(this->rng);
    Blas<TypeParam>::mmNTBiasRes(&a.desc, &w.desc, &bias.desc, &r.desc,
                                 &y.desc);
    ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
    y.forEach([&](std::array<int64_t, 2> idx) {
      ASSERT_NEAR(double(y.get(idx)),
                  double(ref.get(idx)) + double(bias.get({idx[1]})) +
                      double(r.get(idx)),
                  1e-4);
    });
    // R of another shape is reported.
    M2 wrong = M2::contiguous({9, 39});
    Blas<TypeParam>::mmNTBiasRes(&a.desc, &w.desc, &bias.desc, &wrong.desc,
                                 &y.desc);
    ASSERT_EQ(relax_rt_has_error(), 1);
    EXPECT_EQ(std::string(relax_rt_last_error()),
              this->name("relax_blas_matmul_nt_packed_bias_res") +
                  ": R is [9, 39], expected the shape of C [9, 40]");
    relax_rt_clear_error();
  }
  // A bias of the wrong length is reported and C left alone.
  M1 shortBias = M1::contiguous({39});
  M2 untouched = M2::contiguous({9, 40});
  Blas<TypeParam>::mmNTBias(&a.desc, &w.desc, &shortBias.desc, &untouched.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_matmul_nt_packed_bias") +
                ": the bias has 39 values, expected 40 (the columns of C "
                "[9, 40])");
  untouched.forEach([&](std::array<int64_t, 2> idx) {
    ASSERT_EQ(untouched.get(idx), M2::kSentinel);
  });
  relax_rt_clear_error();
  relax_rt_blas_release_constants();
}

TYPED_TEST(BlasTest, PackedConstantB) {
  using M2 = typename TestFixture::M2;
  using M3 = typename TestFixture::M3;
  using M4 = typename TestFixture::M4;
  relax_rt_blas_release_constants();
  M2 w = M2::contiguous({40, 24}); // [out, in]: a linear layer's weights.
  w.randomize(this->rng);
  // The same constant under several row counts (symbolic sequence
  // lengths): one packing, one kernel per shape.
  for (int64_t rows : {1, 7, 64, 3}) {
    M3 x = M3::contiguous({1, rows, 24}), y = M3::contiguous({1, rows, 40});
    x.randomize(this->rng);
    Blas<TypeParam>::bcastNTPacked(&x.desc, &w.desc, &y.desc);
    expectProduct(x, w, y, true);
  }
  // Padded rows of A and C, rank 2, and B not transposed.
  M2 b = M2::contiguous({24, 40});
  b.randomize(this->rng);
  M2 a({9, 24}, {30, 1}, 2), c({9, 40}, {48, 1}, 5);
  a.randomize(this->rng);
  Blas<TypeParam>::mmPacked(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
  M2 cT = M2::contiguous({9, 24});
  M2 wT = M2::contiguous({24, 24});
  wT.randomize(this->rng);
  Blas<TypeParam>::mmNTPacked(&a.desc, &wT.desc, &cT.desc);
  expectProduct(a, wT, cT, true);
  // Batches that are not stacked rows: one GEMM per batch, still right.
  M3 a3({2, 5, 24}, {200, 24, 1}), c3 = M3::contiguous({2, 5, 40});
  a3.randomize(this->rng);
  Blas<TypeParam>::bcastPacked(&a3.desc, &b.desc, &c3.desc);
  expectProduct(a3, b, c3, false);
  M4 a4 = M4::contiguous({2, 3, 4, 24}), c4 = M4::contiguous({2, 3, 4, 40});
  a4.randomize(this->rng);
  Blas<TypeParam>::bcast2NTPacked(&a4.desc, &w.desc, &c4.desc);
  expectProduct(a4, w, c4, true);
  // New values at the same address are a new constant once the module's
  // constants are released (what a module's owner does when it unloads).
  relax_rt_blas_release_constants();
  w.randomize(this->rng);
  M3 x = M3::contiguous({1, 7, 24}), y = M3::contiguous({1, 7, 40});
  x.randomize(this->rng);
  Blas<TypeParam>::bcastNTPacked(&x.desc, &w.desc, &y.desc);
  expectProduct(x, w, y, true);
  // Shape errors are reported as for the other variants.
  M3 bad = M3::contiguous({1, 7, 23});
  Blas<TypeParam>::bcastNTPacked(&bad.desc, &w.desc, &y.desc);
  EXPECT_NE(std::string(relax_rt_last_error())
                .find(this->name("relax_blas_batch_matmul_bcast_nt_packed")),
            std::string::npos)
      << relax_rt_last_error();
  relax_rt_blas_release_constants();
}

TYPED_TEST(BlasTest, Rank4BatchMismatch) {
  using M4 = typename TestFixture::M4;
  M4 a = M4::contiguous({2, 3, 4, 5}), b = M4::contiguous({2, 2, 5, 6}),
     c = M4::contiguous({2, 3, 4, 6});
  Blas<TypeParam>::bmm2(&a.desc, &b.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_batch2_matmul") +
                ": A is [2, 3, 4, 5] and B is [2, 2, 5, 6]: batch dims "
                "differ (3 vs 2)");
  c.forEach([&](std::array<int64_t, 4> idx) {
    ASSERT_EQ(c.get(idx), M4::kSentinel);
  });
}

//===----------------------------------------------------------------------===//
// Products large enough to be split over the OpenMP team (with more than
// one thread): by rows, by columns, by batch, and a batch split per GEMM
//===----------------------------------------------------------------------===//

TYPED_TEST(BlasTest, LargeProductsSplit) {
  using M2 = typename TestFixture::M2;
  using M3 = typename TestFixture::M3;
  using M4 = typename TestFixture::M4;
  // More rows than columns (row blocks, an odd count), and the reverse
  // (column blocks, into a padded C).
  M2 a = M2::contiguous({257, 96}), b = M2::contiguous({96, 40}),
     c = M2::contiguous({257, 40});
  a.randomize(this->rng);
  b.randomize(this->rng);
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  expectProduct(a, b, c, false);
  M2 x = M2::contiguous({9, 128}), w = M2::contiguous({515, 128}),
     y({9, 515}, {520, 1});
  x.randomize(this->rng);
  w.randomize(this->rng);
  Blas<TypeParam>::mmNT(&x.desc, &w.desc, &y.desc);
  expectProduct(x, w, y, true);
  // Stacked rows of a linear layer on [2, 100, 64] x [64, 80].
  M3 s = M3::contiguous({2, 100, 64}), t = M3::contiguous({2, 100, 80});
  M2 v = M2::contiguous({64, 80});
  s.randomize(this->rng);
  v.randomize(this->rng);
  Blas<TypeParam>::bcast(&s.desc, &v.desc, &t.desc);
  expectProduct(s, v, t, false);
  // Heads over threads, and a single batch split within its GEMM.
  M4 q = M4::contiguous({1, 6, 64, 32}), k = M4::contiguous({1, 6, 64, 32}),
     p = M4::contiguous({1, 6, 64, 64});
  q.randomize(this->rng);
  k.randomize(this->rng);
  Blas<TypeParam>::bmm2NT(&q.desc, &k.desc, &p.desc);
  expectProduct(q, k, p, true);
  M4 q1 = M4::contiguous({1, 1, 200, 64}), v1 = M4::contiguous({1, 1, 64, 90}),
     o1 = M4::contiguous({1, 1, 200, 90});
  q1.randomize(this->rng);
  v1.randomize(this->rng);
  Blas<TypeParam>::bmm2(&q1.desc, &v1.desc, &o1.desc);
  expectProduct(q1, v1, o1, false);
}

//===----------------------------------------------------------------------===//
// conv2d: im2col + GEMM against a direct loop in double precision
//===----------------------------------------------------------------------===//

/// The window operand: strides, padding (top, left, bottom, right),
/// dilation, groups.
struct ConvWindow {
  int64_t values[9];
  MemRef<int64_t, 1> desc;
  ConvWindow(std::array<int64_t, 9> v) {
    std::copy(v.begin(), v.end(), values);
    desc.allocated = desc.aligned = values;
    desc.offset = 0;
    desc.sizes[0] = 9;
    desc.strides[0] = 1;
  }
};

template <typename T>
void expectConv(const Strided<T, 4> &x, const Strided<T, 4> &w,
                const ConvWindow &win, const Strided<T, 4> &y) {
  ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
  const int64_t *v = win.values;
  int64_t groups = v[8], cg = w.desc.sizes[1], og = w.desc.sizes[0] / groups;
  y.forEach([&](std::array<int64_t, 4> idx) {
    auto [i, a, oy, ox] = idx;
    int64_t g = a / og;
    double ref = 0, scale = 0;
    for (int64_t b = 0; b < cg; ++b)
      for (int64_t r = 0; r < w.desc.sizes[2]; ++r)
        for (int64_t s = 0; s < w.desc.sizes[3]; ++s) {
          int64_t iy = oy * v[0] - v[2] + r * v[6];
          int64_t ix = ox * v[1] - v[3] + s * v[7];
          if (iy < 0 || ix < 0 || iy >= x.desc.sizes[2] ||
              ix >= x.desc.sizes[3])
            continue;
          double prod = double(x.get({i, g * cg + b, iy, ix})) *
                        double(w.get({a, b, r, s}));
          ref += prod;
          scale += std::fabs(prod);
        }
    ASSERT_LE(std::fabs(double(y.get(idx)) - ref), 1e-5 * scale + 1e-30)
        << "at (" << i << ", " << a << ", " << oy << ", " << ox << ")";
  });
}

TYPED_TEST(BlasTest, Conv2D) {
  using M4 = typename TestFixture::M4;
  struct Case {
    std::array<int64_t, 4> x, w;
    std::array<int64_t, 9> window;
  };
  for (const Case &c : std::vector<Case>{
           // 3x3, pad 1, stride 1: a ResNet body conv (and large enough to
           // run over the team).
           {{2, 16, 20, 20}, {16, 16, 3, 3}, {1, 1, 1, 1, 1, 1, 1, 1, 1}},
           // One image: the GEMM itself is split over the team.
           {{1, 16, 20, 20}, {16, 16, 3, 3}, {1, 1, 1, 1, 1, 1, 1, 1, 1}},
           // Stride 2, asymmetric padding, non-square kernel.
           {{1, 3, 9, 11}, {4, 3, 3, 2}, {2, 2, 1, 0, 2, 1, 1, 1, 1}},
           // Groups and dilation.
           {{2, 4, 8, 7}, {6, 2, 3, 3}, {1, 1, 2, 2, 2, 2, 2, 2, 2}},
           // Depthwise, stride 2.
           {{1, 8, 10, 10}, {8, 1, 3, 3}, {2, 2, 1, 1, 1, 1, 1, 1, 8}},
           // 1x1 (X read in place), with a stride 1 and stride 2 variant.
           {{2, 8, 5, 6}, {12, 8, 1, 1}, {1, 1, 0, 0, 0, 0, 1, 1, 1}},
           {{2, 8, 5, 6}, {12, 8, 1, 1}, {2, 2, 0, 0, 0, 0, 1, 1, 1}},
           // A kernel larger than the padded input: empty output.
           {{1, 2, 2, 2}, {3, 2, 3, 3}, {1, 1, 0, 0, 0, 0, 1, 1, 1}}}) {
    const int64_t *v = c.window.data();
    int64_t p = (c.x[2] + v[2] + v[4] - v[6] * (c.w[2] - 1) - 1) / v[0] + 1;
    int64_t q = (c.x[3] + v[3] + v[5] - v[7] * (c.w[3] - 1) - 1) / v[1] + 1;
    p = std::max<int64_t>(p, 0);
    q = std::max<int64_t>(q, 0);
    M4 x = M4::contiguous(c.x), w = M4::contiguous(c.w),
       y = M4::contiguous({c.x[0], c.w[0], p, q});
    x.randomize(this->rng);
    w.randomize(this->rng);
    ConvWindow win(c.window);
    Blas<TypeParam>::conv2d(&x.desc, &w.desc, &win.desc, &y.desc);
    expectConv(x, w, win, y);
    // W a module constant: oneDNN's convolution with W packed (f32, one
    // group), im2col + GEMM otherwise; twice, the second from the cache.
    for (int again = 0; again < 2; ++again) {
      M4 yp = M4::contiguous({c.x[0], c.w[0], p, q});
      Blas<TypeParam>::convPacked(&x.desc, &w.desc, &win.desc, &yp.desc);
      expectConv(x, w, win, yp);
    }
    // W is freed here, and the next case's W may take its address: as when
    // a module unloads, the packings keyed by the address must go.
    relax_rt_blas_release_constants();
  }
}

TYPED_TEST(BlasTest, Conv2DStridedOperands) {
  using M4 = typename TestFixture::M4;
  // NHWC storage viewed as NCHW, a weight with padded rows, an output with
  // padded rows (so neither the 1x1 nor the direct-write path applies).
  M4 x({2, 3, 6, 5}, {90, 1, 15, 3}), w({4, 3, 3, 3}, {40, 9, 3, 1}),
      y({2, 4, 6, 5}, {140, 35, 6, 1});
  x.randomize(this->rng);
  w.randomize(this->rng);
  ConvWindow win({1, 1, 1, 1, 1, 1, 1, 1, 1});
  Blas<TypeParam>::conv2d(&x.desc, &w.desc, &win.desc, &y.desc);
  expectConv(x, w, win, y);
  M4 xp({2, 3, 6, 5}, {90, 1, 15, 3}), w1 = M4::contiguous({4, 3, 1, 1}),
                                       y1 = M4::contiguous({2, 4, 6, 5});
  xp.randomize(this->rng);
  w1.randomize(this->rng);
  ConvWindow one({1, 1, 0, 0, 0, 0, 1, 1, 1});
  Blas<TypeParam>::conv2d(&xp.desc, &w1.desc, &one.desc, &y1.desc);
  expectConv(xp, w1, one, y1);
}

/// The fused convolution's options: the window, the layouts of X, Y and R
/// (0 NCHW, 1 NHWC), the activation (1 ReLU).
struct ConvOptions {
  int64_t values[13];
  MemRef<int64_t, 1> desc;
  ConvOptions(std::array<int64_t, 13> v) {
    std::copy(v.begin(), v.end(), values);
    desc.allocated = desc.aligned = values;
    desc.offset = 0;
    desc.sizes[0] = 13;
    desc.strides[0] = 1;
  }
};

TYPED_TEST(BlasTest, Conv2DFused) {
  using M4 = typename TestFixture::M4;
  using M1 = Strided<TypeParam, 1>;
  // A ResNet-style conv (3x3, pad 1) on 2 images, 16 channels, 9x7, with
  // every layout combination of X, Y and R (NHWC given as NHWC storage) and
  // with and without the residual and the ReLU; against the plain conv
  // plus the epilogue computed here. f32 goes through oneDNN, f64 through
  // im2col + GEMM and the epilogue loop.
  int64_t n = 2, c = 16, h = 9, wd = 7, o = 16;
  auto tensor = [](bool nhwc, int64_t n, int64_t c, int64_t h, int64_t w) {
    return nhwc ? M4::contiguous({n, h, w, c}) : M4::contiguous({n, c, h, w});
  };
  auto nchw = [](const M4 &m, bool nhwc, std::array<int64_t, 4> idx) {
    auto [i, a, y, x] = idx;
    return nhwc ? m.get({i, y, x, a}) : m.get(idx);
  };
  M4 w = M4::contiguous({o, c, 3, 3});
  M1 bias = M1::contiguous({o});
  w.randomize(this->rng);
  bias.randomize(this->rng);
  ConvWindow win({1, 1, 1, 1, 1, 1, 1, 1, 1});
  for (int layouts = 0; layouts < 8; ++layouts)
    for (int flags = 0; flags < 4; ++flags) {
      bool xNhwc = layouts & 1, yNhwc = layouts & 2, rNhwc = layouts & 4;
      bool residual = flags & 1, relu = flags & 2;
      M4 x = tensor(xNhwc, n, c, h, wd), r = tensor(rNhwc, n, o, h, wd),
         y = tensor(yNhwc, n, o, h, wd);
      x.randomize(this->rng);
      r.randomize(this->rng);
      // The reference: the plain convolution of X's NCHW copy.
      M4 xc = M4::contiguous({n, c, h, wd}),
         ref = M4::contiguous({n, o, h, wd});
      xc.forEach([&](std::array<int64_t, 4> idx) {
        xc.at(idx) = nchw(x, xNhwc, idx);
      });
      Blas<TypeParam>::conv2d(&xc.desc, &w.desc, &win.desc, &ref.desc);
      expectConv(xc, w, win, ref);
      ConvOptions options(
          {1, 1, 1, 1, 1, 1, 1, 1, 1, xNhwc, yNhwc, rNhwc, relu});
      // Twice: the second call finds the primitive in the cache.
      for (int again = 0; again < 2; ++again) {
        if (residual)
          Blas<TypeParam>::convFusedRes(&x.desc, &w.desc, &bias.desc, &r.desc,
                                        &options.desc, &y.desc);
        else
          Blas<TypeParam>::convFused(&x.desc, &w.desc, &bias.desc,
                                     &options.desc, &y.desc);
        ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
        ref.forEach([&](std::array<int64_t, 4> idx) {
          double expected = double(ref.get(idx)) + double(bias.get({idx[1]}));
          if (residual)
            expected += double(nchw(r, rNhwc, idx));
          if (relu)
            expected = std::max(expected, 0.0);
          ASSERT_NEAR(double(nchw(y, yNhwc, idx)), expected, 1e-4)
              << "layouts " << layouts << ", flags " << flags;
        });
      }
    }
  relax_rt_blas_release_constants();
}

/// The channel block the runtime gives a conv-private tensor of `channels`
/// channels (0: NHWC), as docs/extern.md states it: f32 only, 8 floats with
/// AVX2 (oneDNN's nChw8c), NHWC with AVX-512 unless RELAX_CONV_BLOCK sets
/// 8 or 16; a block that does not divide the channels gives NHWC.
template <typename T> int64_t expectedPrivateBlock(int64_t channels) {
#ifdef RELAX_RUNTIME_HAS_DNNL
  if (std::is_same_v<T, float>) {
    int64_t block =
        relax::runtime::cpuIsa() == relax::runtime::CpuIsa::Avx2 ? 8 : 0;
    if (const char *set = std::getenv("RELAX_CONV_BLOCK"))
      block = std::string(set) == "8" ? 8 : std::string(set) == "16" ? 16 : 0;
    return block && channels % block == 0 ? block : 0;
  }
#endif
  (void)channels;
  return 0;
}

TYPED_TEST(BlasTest, Conv2DFusedPrivateLayout) {
  using M4 = typename TestFixture::M4;
  using M1 = Strided<TypeParam, 1>;
  // A conv-private tensor (layout 2, typed NHWC) between two fused
  // convolutions: a 3x3 conv writes it, a 1x1 conv reads it as its input
  // and as its residual. Its bytes must be oneDNN's nChw<b>c (or NHWC where
  // no block divides the channels: 12, and 24 with a block of 16), and the
  // second output that of the same chain through NCHW tensors. Two images:
  // over several threads the blocked pieces are runs of images.
  for (int64_t c : {16, 24, 12}) {
    int64_t n = 2, h = 5, wd = 6;
    M4 x = M4::contiguous({n, c, h, wd}), w1 = M4::contiguous({c, c, 3, 3}),
       w2 = M4::contiguous({c, c, 1, 1});
    M1 b1 = M1::contiguous({c}), b2 = M1::contiguous({c});
    for (M4 *m : {&x, &w1, &w2})
      m->randomize(this->rng);
    b1.randomize(this->rng);
    b2.randomize(this->rng);
    ConvOptions toPrivate({1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2, 0, 1});
    ConvOptions plain3x3({1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1});
    M4 t = M4::contiguous({n, h, wd, c}), tp = M4::contiguous({n, c, h, wd});
    Blas<TypeParam>::convFused(&x.desc, &w1.desc, &b1.desc, &toPrivate.desc,
                               &t.desc);
    ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
    Blas<TypeParam>::convFused(&x.desc, &w1.desc, &b1.desc, &plain3x3.desc,
                               &tp.desc);
    ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
    int64_t block = expectedPrivateBlock<TypeParam>(c);
    tp.forEach([&](std::array<int64_t, 4> idx) {
      auto [i, a, y, e] = idx;
      int64_t at =
          block ? (((i * (c / block) + a / block) * h + y) * wd + e) * block +
                      a % block
                : ((i * h + y) * wd + e) * c + a;
      // (Winograd and direct convolutions, or pieces cut differently, round
      // differently: a wrong position is off by the values themselves.)
      ASSERT_NEAR(double(t.storage[at]), double(tp.get(idx)),
                  1e-4 * (1 + std::fabs(double(tp.get(idx)))))
          << "channels " << c << ", block " << block;
    });
    ConvOptions fromPrivate({1, 1, 0, 0, 0, 0, 1, 1, 1, 2, 0, 2, 0});
    ConvOptions plain1x1({1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0});
    M4 y = M4::contiguous({n, c, h, wd}), yp = M4::contiguous({n, c, h, wd});
    Blas<TypeParam>::convFusedRes(&t.desc, &w2.desc, &b2.desc, &t.desc,
                                  &fromPrivate.desc, &y.desc);
    ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
    Blas<TypeParam>::convFusedRes(&tp.desc, &w2.desc, &b2.desc, &tp.desc,
                                  &plain1x1.desc, &yp.desc);
    ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
    yp.forEach([&](std::array<int64_t, 4> idx) {
      ASSERT_NEAR(double(y.get(idx)), double(yp.get(idx)),
                  1e-4 * (1 + std::fabs(double(yp.get(idx)))))
          << "channels " << c;
    });
    // A conv-private operand is one dense buffer; a view with gaps cannot
    // hold a blocked tensor.
    if (block) {
      M4 gappy({n, h, wd, c}, {h * wd * c * 2, wd * c, c, 1});
      Blas<TypeParam>::convFused(&x.desc, &w1.desc, &b1.desc, &toPrivate.desc,
                                 &gappy.desc);
      ASSERT_EQ(relax_rt_has_error(), 1);
      EXPECT_EQ(std::string(relax_rt_last_error()),
                this->name("relax_blas_conv2d_fused_packed") +
                    ": the conv-private Y is not one dense buffer ([2, 5, 6, " +
                    std::to_string(c) + "])");
      relax_rt_clear_error();
    }
    relax_rt_blas_release_constants();
  }
}

TYPED_TEST(BlasTest, Conv2DFusedAliases) {
  using M4 = typename TestFixture::M4;
  using M1 = Strided<TypeParam, 1>;
  // The memory plan writes a fused convolution's Y over its residual when
  // the residual dies at the call (relax.output_may_alias, MemoryPlan.h): Y
  // and R are then one view in one layout, and every path must read an
  // element of R before it writes that element of Y (oneDNN on NCHW, NHWC
  // and conv-private operands; the 1x1 GEMMs, which write C first and so
  // read R from a copy). An X that is Y, or an R that shares only part of
  // Y's bytes, must be read from copies. Each result must equal the same
  // call on separate buffers.
  int64_t n = 2, c = 16, h = 5, wd = 6;
  for (int64_t k : {1, 3})
    for (int64_t layout : {0, 1, 2}) {
      auto make = [&]() {
        return layout ? M4::contiguous({n, h, wd, c})
                      : M4::contiguous({n, c, h, wd});
      };
      auto copyOf = [&](const M4 &m) {
        M4 copy = make();
        std::copy(m.storage.begin(), m.storage.end(), copy.storage.begin());
        return copy;
      };
      M4 w = M4::contiguous({c, c, k, k});
      M1 bias = M1::contiguous({c});
      w.randomize(this->rng);
      bias.randomize(this->rng);
      int64_t p = k / 2;
      ConvOptions options(
          {1, 1, p, p, p, p, 1, 1, 1, layout, layout, layout, 1});
      M4 x = make(), r = make(), y = make();
      x.randomize(this->rng);
      r.randomize(this->rng);
      Blas<TypeParam>::convFusedRes(&x.desc, &w.desc, &bias.desc, &r.desc,
                                    &options.desc, &y.desc);
      ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
      auto expectY = [&](const M4 &got, const char *what) {
        for (size_t i = 0; i < y.storage.size(); ++i)
          ASSERT_NEAR(double(got.storage[i]), double(y.storage[i]),
                      1e-5 * (1 + std::fabs(double(y.storage[i]))))
              << what << ", window " << k << ", layout " << layout
              << ", element " << i;
      };
      M4 overR = copyOf(r);
      Blas<TypeParam>::convFusedRes(&x.desc, &w.desc, &bias.desc, &overR.desc,
                                    &options.desc, &overR.desc);
      ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
      expectY(overR, "Y over R");
      M4 overX = copyOf(x);
      Blas<TypeParam>::convFusedRes(&overX.desc, &w.desc, &bias.desc, &r.desc,
                                    &options.desc, &overX.desc);
      ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
      expectY(overX, "Y over X");
      // Y half an image further on in R's buffer (dense, any layout): a
      // copy of R into Y front to back would overwrite R before reading it.
      int64_t image = c * h * wd, shift = image / 2;
      M1 both = M1::contiguous({n * image + shift});
      MemRef<TypeParam, 4> yv = y.desc, rv = r.desc;
      yv.allocated = yv.aligned = rv.allocated = rv.aligned =
          both.storage.data();
      yv.offset = shift;
      std::copy(r.storage.begin(), r.storage.end(), both.storage.begin());
      Blas<TypeParam>::convFusedRes(&x.desc, &w.desc, &bias.desc, &rv,
                                    &options.desc, &yv);
      ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
      M4 partly = make();
      std::copy(both.storage.begin() + shift, both.storage.end(),
                partly.storage.begin());
      expectY(partly, "R partly over Y");
      relax_rt_blas_release_constants();
    }
}

TYPED_TEST(BlasTest, Conv2DFusedBadOperands) {
  using M4 = typename TestFixture::M4;
  using M1 = Strided<TypeParam, 1>;
  M4 x = M4::contiguous({1, 4, 5, 5}), w = M4::contiguous({6, 4, 3, 3}),
     y = M4::contiguous({1, 6, 5, 5}), r = M4::contiguous({1, 6, 5, 4});
  M1 bias = M1::contiguous({6}), shortBias = M1::contiguous({5});
  ConvOptions plain({1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0});
  Blas<TypeParam>::convFused(&x.desc, &w.desc, &shortBias.desc, &plain.desc,
                             &y.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_conv2d_fused_packed") +
                ": the bias has 5 values, expected 6 (W is [6, 4, 3, 3])");
  relax_rt_clear_error();
  Blas<TypeParam>::convFusedRes(&x.desc, &w.desc, &bias.desc, &r.desc,
                                &plain.desc, &y.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_conv2d_fused_res_packed") +
                ": the residual is [1, 6, 5, 4], expected the shape of Y "
                "[1, 6, 5, 5]");
  relax_rt_clear_error();
  ConvOptions badLayout({1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 0, 0, 0});
  Blas<TypeParam>::convFused(&x.desc, &w.desc, &bias.desc, &badLayout.desc,
                             &y.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_conv2d_fused_packed") +
                ": option 9 is 3, expected 0, 1 or 2 (NCHW, NHWC, "
                "conv-private)");
  relax_rt_clear_error();
  // Y in NHWC: [1, 5, 5, 6] is right, NCHW [1, 6, 5, 5] read as NHWC is not.
  ConvOptions nhwcOut({1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0});
  Blas<TypeParam>::convFused(&x.desc, &w.desc, &bias.desc, &nhwcOut.desc,
                             &y.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  y.forEach([&](std::array<int64_t, 4> idx) {
    ASSERT_EQ(y.get(idx), M4::kSentinel);
  });
  relax_rt_clear_error();
}

TYPED_TEST(BlasTest, Conv2DBadShapes) {
  using M4 = typename TestFixture::M4;
  M4 x = M4::contiguous({1, 4, 5, 5}), w = M4::contiguous({6, 3, 3, 3}),
     y = M4::contiguous({1, 6, 5, 5});
  ConvWindow win({1, 1, 1, 1, 1, 1, 1, 1, 1});
  Blas<TypeParam>::conv2d(&x.desc, &w.desc, &win.desc, &y.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_conv2d_nchw") +
                ": X is [1, 4, 5, 5] and W is [6, 3, 3, 3]: channels do not "
                "match 1 groups");
  relax_rt_clear_error();
  M4 w4 = M4::contiguous({6, 4, 3, 3});
  ConvWindow stride2({2, 2, 1, 1, 1, 1, 1, 1, 1});
  Blas<TypeParam>::conv2d(&x.desc, &w4.desc, &stride2.desc, &y.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_conv2d_nchw") +
                ": Y is [1, 6, 5, 5], expected [1, 6, 3, 3] for X "
                "[1, 4, 5, 5] and W [6, 4, 3, 3]");
  y.forEach([&](std::array<int64_t, 4> idx) {
    ASSERT_EQ(y.get(idx), M4::kSentinel);
  });
  relax_rt_clear_error();
  ConvWindow zeroStride({0, 1, 0, 0, 0, 0, 1, 1, 1});
  Blas<TypeParam>::conv2d(&x.desc, &w4.desc, &zeroStride.desc, &y.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
}

//===----------------------------------------------------------------------===//
// Bad shapes are reported, not crashes
//===----------------------------------------------------------------------===//

TYPED_TEST(BlasTest, InnerDimMismatch) {
  using M2 = typename TestFixture::M2;
  M2 a = M2::contiguous({3, 4}), b = M2::contiguous({5, 6}),
     c = M2::contiguous({3, 6});
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_matmul") +
                ": A is [3, 4] and B is [5, 6]: inner dims differ (4 vs 5)");
  // The output is left as it was.
  c.forEach([&](std::array<int64_t, 2> idx) {
    ASSERT_EQ(c.get(idx), M2::kSentinel);
  });
}

TYPED_TEST(BlasTest, TransposedInnerDimMismatch) {
  using M2 = typename TestFixture::M2;
  M2 a = M2::contiguous({3, 4}), b = M2::contiguous({4, 6}),
     c = M2::contiguous({3, 4});
  // With B transposed, B [4, 6] means k = 6.
  Blas<TypeParam>::mmNT(&a.desc, &b.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_matmul_nt") +
                ": A is [3, 4] and B is [4, 6]: inner dims differ (4 vs 6)");
}

TYPED_TEST(BlasTest, OutputShapeMismatch) {
  using M2 = typename TestFixture::M2;
  M2 a = M2::contiguous({3, 4}), b = M2::contiguous({4, 6}),
     c = M2::contiguous({3, 5});
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_matmul") +
                ": C is [3, 5], expected [3, 6] for A [3, 4] and B [4, 6]");
}

TYPED_TEST(BlasTest, BatchMismatch) {
  using M3 = typename TestFixture::M3;
  M3 a = M3::contiguous({2, 3, 4}), b = M3::contiguous({3, 4, 5}),
     c = M3::contiguous({2, 3, 5});
  Blas<TypeParam>::bmm(&a.desc, &b.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_batch_matmul") +
                ": A is [2, 3, 4] and B is [3, 4, 5]: batch dims differ "
                "(2 vs 3)");
  relax_rt_clear_error();
  // The output batch must match the broadcast batch.
  M3 a1 = M3::contiguous({1, 3, 4}), b3 = M3::contiguous({3, 4, 5});
  Blas<TypeParam>::bmm(&a1.desc, &b3.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_batch_matmul") +
                ": C is [2, 3, 5], expected [3, 3, 5] for A [1, 3, 4] and "
                "B [3, 4, 5]");
}

TYPED_TEST(BlasTest, FirstBadCallIsReported) {
  using M2 = typename TestFixture::M2;
  M2 a = M2::contiguous({3, 4}), b = M2::contiguous({5, 6}),
     c = M2::contiguous({3, 6}), c2 = M2::contiguous({2, 2});
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  Blas<TypeParam>::mm(&a.desc, &a.desc, &c2.desc);
  EXPECT_NE(std::string(relax_rt_last_error()).find("inner dims differ"),
            std::string::npos);
}

TYPED_TEST(BlasTest, NegativeSizeAndNullDescriptor) {
  using M2 = typename TestFixture::M2;
  M2 a = M2::contiguous({3, 4}), b = M2::contiguous({4, 2}),
     c = M2::contiguous({3, 2});
  a.desc.sizes[0] = -3;
  Blas<TypeParam>::mm(&a.desc, &b.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_NE(std::string(relax_rt_last_error()).find("negative size"),
            std::string::npos);
  relax_rt_clear_error();
  Blas<TypeParam>::mm(nullptr, &b.desc, &c.desc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_EQ(std::string(relax_rt_last_error()),
            this->name("relax_blas_matmul") + ": null memref descriptor");
}

#endif // RELAX_RUNTIME_HAS_BLAS

} // namespace
