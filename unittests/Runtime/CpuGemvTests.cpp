//===- CpuGemvTests.cpp - The runtime's streamed few-row products ---------===//
//
// Every kernel level the CPU runs (plain C++, AVX2, AVX-512) against a
// product in double precision: 1 to 4 rows of X, both layouts of B, sizes
// that leave tails of every length, padded strides, one thread and the
// pool's split.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CpuGemv.h"
#include "../../lib/Runtime/CpuGemvIsa.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <initializer_list>
#include <mutex>
#include <random>
#include <utility>
#include <vector>

using relax::runtime::CpuIsa;

namespace {

std::vector<CpuIsa> levelsOfThisCpu() {
  std::vector<CpuIsa> levels = {CpuIsa::Generic};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    levels.push_back(CpuIsa::Avx2);
  if (__builtin_cpu_supports("avx512f"))
    levels.push_back(CpuIsa::Avx512);
  return levels;
}

struct Case {
  int64_t m, n, k;
  bool transposed; // B^T stored [n, k] (torch's linear weight)
  int64_t pad;     // extra elements at the end of each row of X, B, Y
  int threads;
};

void check(CpuIsa isa, const Case &c, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  int64_t ldx = c.k + c.pad, ldy = c.n + c.pad;
  int64_t ldb = (c.transposed ? c.k : c.n) + c.pad;
  std::vector<float> x(c.m * ldx), b((c.transposed ? c.n : c.k) * ldb);
  const float sentinel = 12345.0f;
  std::vector<float> y(c.m * ldy, sentinel);
  for (float &v : x)
    v = dist(rng);
  for (float &v : b)
    v = dist(rng);
  int64_t rowStride = c.transposed ? 1 : ldb;
  int64_t colStride = c.transposed ? ldb : 1;
  ASSERT_TRUE(relax::runtime::gemvSmallRowsWith(
      isa, c.m, c.n, c.k, x.data(), ldx, b.data(), rowStride, colStride,
      y.data(), ldy, c.threads));
  for (int64_t i = 0; i < c.m; ++i) {
    for (int64_t j = 0; j < c.n; ++j) {
      double ref = 0, scale = 0;
      for (int64_t l = 0; l < c.k; ++l) {
        double p =
            double(x[i * ldx + l]) * double(b[l * rowStride + j * colStride]);
        ref += p;
        scale += std::fabs(p);
      }
      ASSERT_LE(std::fabs(y[i * ldy + j] - ref), 1e-5 * scale + 1e-30)
          << relax::runtime::cpuIsaName(isa) << " m=" << c.m << " n=" << c.n
          << " k=" << c.k << " transposed=" << c.transposed << " at (" << i
          << ", " << j << ")";
    }
    for (int64_t j = c.n; j < ldy; ++j)
      ASSERT_EQ(y[i * ldy + j], sentinel) << "wrote past row " << i;
  }
}

/// Every level of this CPU, 1 to kMaxGemvRows rows of X, the given layouts
/// of B, sizes and row paddings, one thread.
void checkEverySize(const std::vector<std::pair<int64_t, int64_t>> &sizes,
                    std::initializer_list<bool> layouts,
                    std::initializer_list<int64_t> pads, unsigned seed) {
  std::mt19937 rng(seed);
  for (CpuIsa isa : levelsOfThisCpu())
    for (int64_t m = 1; m <= relax::runtime::kMaxGemvRows; ++m)
      for (bool transposed : layouts)
        for (auto [n, k] : sizes)
          for (int64_t pad : pads)
            check(isa, {m, n, k, transposed, pad, 1}, rng);
}

TEST(CpuGemvTest, EveryLevelMatchesDoubleReference) {
  // (n, k): every tail length of 8 and 16 lanes, blocks of the [n, k]
  // kernel with every remainder (J up to 8), and long rows of B (16390 and
  // 65553 columns).
  checkEverySize({{1, 1},
                  {7, 3},
                  {16, 16},
                  {33, 17},
                  {513, 9},
                  {100, 257},
                  {1030, 65},
                  {2100, 5},
                  {16390, 6},
                  {65553, 5}},
                 {false, true}, {0, 3}, 7);
}

TEST(CpuGemvTest, RegisterBlocksOfKnKernelMatchDoubleReference) {
  // The [k, n] kernel (axpyRange in CpuGemvKernels.inc) adds B up in
  // groups of 12 rows (6, or 4 for blocks of one vector, where rows are a
  // multiple of 4 KiB apart), across the columns in register blocks of C
  // vectors (AVX-512: 128 columns for one row of X, 64 for two, 32 for
  // three, 16 for four; AVX2: 96, 32, 24, 16), then single vectors, then
  // scalar columns. Depths: inside one group, exactly one and two groups, a
  // last group of one row, several groups (later ones add to Y); widths:
  // whole blocks, blocks plus single vectors plus scalar columns for each
  // block width; row strides that are multiples of 4 KiB (n = 1024 and 2048
  // unpadded).
  checkEverySize({{64, 11},
                  {128, 12},
                  {96, 24},
                  {181, 25},
                  {287, 37},
                  {203, 13},
                  {1024, 40},
                  {4000, 29},
                  {2055, 26},
                  {2048, 14}},
                 {false}, {0, 5}, 13);
}

TEST(CpuGemvTest, ManyRowsOfTransposedBMatchDoubleReference) {
  // Five to kMaxDotRows rows of X against B^T stored [n, k] (dotsRangeRows,
  // X read in place or packed by dotsPackX): every remainder of the row
  // groups (4 with AVX-512, 3 below) and of the blocks of B's rows, depths
  // from kMinDotDepth to three blocks of k (the later ones added to Y, each
  // packed at its own offset, the last one longer or shorter), depth tails
  // of every lane count.
  const std::vector<std::pair<int64_t, int64_t>> sizes = {
      {1, 512}, {7, 515}, {13, 2048}, {37, 3073}, {6, 4100}, {5, 9217}};
  std::mt19937 rng(5);
  for (CpuIsa isa : levelsOfThisCpu())
    for (int64_t m : {5, 6, 7, 8, 13, 31, 32})
      for (auto [n, k] : sizes)
        for (int64_t pad : {0, 3})
          check(isa, {m, n, k, true, pad, 1}, rng);
  // X is packed where its rows are a multiple of 4 KiB apart (k = 2048
  // above, unpadded): here also one to three blocks of k with tails of
  // every kind (rows padded to 1024 floats apart: 2049, 4100 and 9217
  // deep), one thread and the pool's pieces (several threads reading the
  // one packed X); 6144 deep: two blocks of 3072, no tail.
  for (CpuIsa isa : levelsOfThisCpu()) {
    check(isa, {relax::runtime::kMaxDotRows, 1037, 700, true, 1, 2}, rng);
    for (int64_t m : {5, 7, 13, 32})
      for (auto [k, pad] : {std::pair<int64_t, int64_t>{2049, 1023},
                            {4100, 1020},
                            {9217, 1023},
                            {6144, 0}})
        for (int threads : {1, 3})
          check(isa, {m, 299, k, true, pad, threads}, rng);
  }
}

TEST(CpuGemvTest, PoolSplitMatchesOneThread) {
  // Large enough (B over kMinPieceBytes) to be cut into pieces, with a
  // column count that is no multiple of the pieces' grain.
  std::mt19937 rng(11);
  for (CpuIsa isa : levelsOfThisCpu())
    for (bool transposed : {false, true})
      for (int64_t m : {1, 3})
        check(isa, {m, 1037, 301, transposed, 1, 2}, rng);
  // B [k, n] is cut along k (bands of rows added up after): a first band
  // left empty by the grain (k = 20 in two pieces), padded rows of Y.
  for (CpuIsa isa : levelsOfThisCpu()) {
    check(isa, {2, 5000, 20, false, 0, 3}, rng);
    check(isa, {4, 3000, 517, false, 5, 3}, rng);
  }
}

TEST(CpuGemvTest, PoolStreamsRunEveryPieceOnce) {
  // splitOverPoolStreams (the quantized products' split): every output in
  // exactly one call, whichever thread claims a stream's front or
  // another's back; more streams than the pool's threads, so that some
  // are taken over. The calls are one per piece, each starting on the
  // grain; each thread's stream (splitOverPool's bounds by the stream
  // count) is cut into pieces that shrink toward its back, its last piece
  // about 1 / kStreamPieces^2 of it.
  using namespace relax::runtime::detail;
  for (int threads : {1, 2, 3, 4, 8}) {
    for (int64_t extent : {1, 15, 16, 17, 300, 1037, 5632, 20000}) {
      const int64_t bytes = extent * (int64_t(1) << 20);
      std::vector<std::atomic<int>> runs(static_cast<size_t>(extent));
      std::mutex mutex;
      std::vector<std::pair<int64_t, int64_t>> calls;
      splitOverPoolStreams(extent, bytes, threads,
                           [&](int64_t begin, int64_t end) {
                             for (int64_t e = begin; e < end; ++e)
                               runs[size_t(e)].fetch_add(1);
                             std::lock_guard<std::mutex> lock(mutex);
                             calls.emplace_back(begin, end);
                           });
      const std::string where = "threads " + std::to_string(threads) +
                                " extent " + std::to_string(extent);
      for (int64_t e = 0; e < extent; ++e)
        ASSERT_EQ(runs[size_t(e)].load(), 1) << where << " at " << e;
      const int64_t pieces =
          poolPieces(extent, bytes, threads, kStreamPieces);
      ASSERT_LE(int64_t(calls.size()), std::max<int64_t>(pieces, 1)) << where;
      std::sort(calls.begin(), calls.end());
      if (pieces <= 1) {
        EXPECT_EQ(calls.size(), 1u) << where;
        continue;
      }
      const int64_t streams = std::min<int64_t>(threads, pieces);
      for (int64_t s = 0; s < streams; ++s) {
        const int64_t begin = pieceBound(extent, streams, s);
        const int64_t end = pieceBound(extent, streams, s + 1);
        std::vector<int64_t> sizes;
        for (auto [b, e] : calls)
          if (b >= begin && b < end) {
            EXPECT_LE(e, end) << where << ": a call across streams";
            EXPECT_EQ(b % kPieceGrain, 0) << where << " at " << b;
            sizes.push_back(e - b);
          }
        if (end - begin < 4 * kStreamPieces * kPieceGrain)
          continue;
        // Long enough that the grain rounds little: front to back, each
        // piece at most a grain longer than the one before, the last a
        // small part of the stream (the first a large one).
        for (size_t i = 1; i < sizes.size(); ++i)
          EXPECT_LE(sizes[i], sizes[i - 1] + kPieceGrain) << where;
        const int64_t length = end - begin, count = pieces / streams;
        EXPECT_LE(sizes.back(), length / (count * count) + 2 * kPieceGrain)
            << where;
        EXPECT_GE(sizes.front(), length / count) << where;
      }
    }
  }
}

TEST(CpuGemvTest, RefusesWhatItDoesNotTake) {
  float x[8] = {}, b[8] = {}, y[8] = {};
  // Five rows of X, and a B with no unit stride.
  EXPECT_FALSE(relax::runtime::gemvSmallRows(5, 1, 1, x, 1, b, 1, 1, y, 1, 1));
  EXPECT_FALSE(relax::runtime::gemvSmallRows(1, 2, 2, x, 2, b, 4, 2, y, 2, 1));
  EXPECT_FALSE(relax::runtime::gemvSmallRows(1, 0, 2, x, 2, b, 1, 1, y, 2, 1));
  // More than four rows: only B^T stored [n, k], at least kMinDotDepth deep,
  // at most kMaxDotRows rows (nothing is read: the sizes are refused).
  using relax::runtime::kMaxDotRows;
  using relax::runtime::kMinDotDepth;
  EXPECT_FALSE(relax::runtime::gemvSmallRows(5, 2, kMinDotDepth, x, 1, b, 2,
                                             1, y, 1, 1));
  EXPECT_FALSE(relax::runtime::gemvSmallRows(5, 2, kMinDotDepth - 1, x, 1, b,
                                             1, 2, y, 1, 1));
  EXPECT_FALSE(relax::runtime::gemvSmallRows(kMaxDotRows + 1, 2, kMinDotDepth,
                                             x, 1, b, 1, 2, y, 1, 1));
  // Several rows against a B shallow where the kernels stream it (the
  // scores and values of a group of attention heads): left to the BLAS;
  // one row still takes it.
  // B [512, 64] or B^T [512, 64], X [2, 512] or [2, 64], Y within 2 x 512.
  std::vector<float> big(64 * kMinDotDepth, 0.0f), out(2 * kMinDotDepth);
  EXPECT_FALSE(relax::runtime::gemvSmallRows(2, kMinDotDepth, 64, big.data(),
                                             64, big.data(), 1, 64, out.data(),
                                             kMinDotDepth, 1));
  EXPECT_FALSE(relax::runtime::gemvSmallRows(2, 64, kMinDotDepth, big.data(),
                                             kMinDotDepth, big.data(), 64, 1,
                                             out.data(), 64, 1));
  EXPECT_TRUE(relax::runtime::gemvSmallRows(1, 64, kMinDotDepth, big.data(),
                                            kMinDotDepth, big.data(), 64, 1,
                                            out.data(), 64, 1));
}

} // namespace
