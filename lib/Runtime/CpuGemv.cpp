//===- CpuGemv.cpp - Matrix products of a few rows, streamed -------------===//
//
// The dispatcher of CpuGemv.h: the instruction set chosen once from cpuid
// (and RELAX_MAX_CPU_ISA), the plain C++ kernels, and the split of a
// product over the runtime's pool.
//
//===----------------------------------------------------------------------===//

#include "CpuGemv.h"
#include "CpuGemvIsa.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

namespace {
/// The portable kernels: one lane, the compiler's own vectorization.
struct Vec {
  using Reg = float;
  static constexpr int kLanes = 1;
  static constexpr int kRegisters = 16;
  static Reg zero() { return 0.0f; }
  static Reg load(const float *p) { return *p; }
  static Reg broadcast(float s) { return s; }
  static Reg fma(Reg a, Reg b, Reg c) { return a * b + c; }
  static void store(float *p, Reg v) { *p = v; }
  static float sum(Reg v) { return v; }
};

#include "CpuGemvKernels.inc"

using relax::runtime::CpuIsa;

CpuIsa detectIsa() {
  __builtin_cpu_init();
  CpuIsa best = CpuIsa::Generic;
  if (__builtin_cpu_supports("avx512f"))
    best = CpuIsa::Avx512;
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("f16c"))
    best = CpuIsa::Avx2;
  const char *cap = std::getenv("RELAX_MAX_CPU_ISA");
  if (!cap)
    return best;
  CpuIsa limit = best;
  if (!std::strcmp(cap, "generic"))
    limit = CpuIsa::Generic;
  else if (!std::strcmp(cap, "avx2"))
    limit = CpuIsa::Avx2;
  return std::min(best, limit);
}

/// Whether B is B^T stored [n, k] (unit row stride of B) rather than B
/// stored [k, n].
bool storedTransposed(int64_t n, int64_t bRowStride, int64_t bColStride) {
  return bRowStride == 1 && (bColStride != 1 || n == 1);
}
} // namespace

CpuIsa relax::runtime::cpuIsa() {
  static const CpuIsa isa = detectIsa();
  return isa;
}

const char *relax::runtime::cpuIsaName(CpuIsa isa) {
  switch (isa) {
  case CpuIsa::Avx512:
    return "avx512";
  case CpuIsa::Avx2:
    return "avx2";
  case CpuIsa::Generic:
    break;
  }
  return "generic";
}

bool relax::runtime::gemvSmallRows(int64_t m, int64_t n, int64_t k,
                                   const float *x, int64_t ldx, const float *b,
                                   int64_t bRowStride, int64_t bColStride,
                                   float *y, int64_t ldy, int threads) {
  bool transposed = storedTransposed(n, bRowStride, bColStride);
  // Several rows of X: only where B is large in the dim the kernels stream
  // along (k for B^T [n, k], n for B [k, n]); a small one (attention's
  // d = 64 for the scores of a group of query heads, e = 64 for their
  // values) leaves the per-output sums or the panel of Y to dominate, and
  // the BLAS's packed kernels are faster (decode attention of 4 query heads
  // per kv head over 1024 keys: 0.14 -> 0.04 ms, one Zen 4 core,
  // 2026-12-07).
  if (m > 1 && (transposed ? k : n) < kMinDotDepth)
    return false;
  return gemvSmallRowsWith(cpuIsa(), m, n, k, x, ldx, b, bRowStride, bColStride,
                           y, ldy, threads);
}

bool relax::runtime::gemvSmallRowsWith(CpuIsa isa, int64_t m, int64_t n,
                                       int64_t k, const float *x, int64_t ldx,
                                       const float *b, int64_t bRowStride,
                                       int64_t bColStride, float *y,
                                       int64_t ldy, int threads) {
  if (m < 1 || m > kMaxDotRows || n < 1 || k < 1)
    return false;
  bool transposed = storedTransposed(n, bRowStride, bColStride);
  // More than kMaxGemvRows rows: B^T [n, k] only.
  if (m > kMaxGemvRows && !transposed)
    return false;
  int64_t ldb = transposed ? bColStride : bRowStride;
  if (!transposed && bColStride != 1)
    return false;
  detail::GemvKernels kernels = {gemvRange, dotsPackX};
  switch (isa) {
  case CpuIsa::Avx512:
    kernels = detail::gemvKernelsAvx512;
    break;
  case CpuIsa::Avx2:
    kernels = detail::gemvKernelsAvx2;
    break;
  case CpuIsa::Generic:
    break;
  }
  detail::GemvRangeFn *range = kernels.range;
  int64_t bytes = n * k * int64_t(sizeof(float));
  int64_t depthPieces = detail::poolPieces(k, bytes, threads);
  if (!transposed && depthPieces > 1) {
    // B [k, n] over several threads: each piece takes whole rows of B (a
    // band of k) into a Y of its own, added up after. Cut by columns
    // instead, every row would be read in runs of a piece's width (512
    // bytes for n = 1024 in 8 pieces), restarting the hardware prefetcher
    // at each; a band of rows is one sequential stream.
    static thread_local std::vector<float> partials;
    int64_t size = m * n;
    if (partials.size() < size_t((depthPieces - 1) * size))
      partials.resize(size_t((depthPieces - 1) * size));
    float *parts = partials.data();
    auto piece = [&](int64_t p) {
      int64_t begin = detail::pieceBound(k, depthPieces, p);
      int64_t end = detail::pieceBound(k, depthPieces, p + 1);
      float *out = p == 0 ? y : parts + (p - 1) * size;
      int64_t ldOut = p == 0 ? ldy : n;
      if (begin == end) {
        for (int64_t i = 0; i < m; ++i)
          std::fill(out + i * ldOut, out + i * ldOut + n, 0.0f);
        return;
      }
      range(m, false, x + begin, ldx, b + begin * ldb, ldb, end - begin, out,
            ldOut, 0, n, nullptr);
    };
    parallelTasks(depthPieces, piece);
    // In piece order, so a thread count gives one answer.
    for (int64_t p = 1; p < depthPieces; ++p)
      for (int64_t i = 0; i < m; ++i) {
        const float *part = parts + (p - 1) * size + i * n;
        float *row = y + i * ldy;
        for (int64_t j = 0; j < n; ++j)
          row[j] += part[j];
      }
    return true;
  }
  // More than kMaxGemvRows rows whose starts are a multiple of 4 KiB apart
  // (k = 1024, 2048, 4096, ... unpadded): X packed once (dotsPackX), by
  // this thread, for every piece (a buffer of the calling thread's, kept
  // between calls: at most kMaxDotRows x k floats). Such rows put every line
  // of a step of a group of rows in one L1 set; packed, 32 x 2048 -> 5632
  // went from 78 to 97 GFLOP/s (one Zen 4 core, CPU time, gemv_ab.sh).
  // Rows at other distances spread over the sets already, and packed they
  // were 2-3% slower (5 and 8 x 5632 -> 2048, AVX-512): read in place.
  const float *xp = nullptr;
  if (m > kMaxGemvRows && (ldx * int64_t(sizeof(float))) % 4096 == 0) {
    static thread_local std::vector<float> packed;
    if (packed.size() < size_t(m * k))
      packed.resize(size_t(m * k));
    kernels.pack(m, x, ldx, k, packed.data());
    xp = packed.data();
  }
  detail::splitOverPool(n, bytes, threads, [&](int64_t begin, int64_t end) {
    range(m, transposed, x, ldx, b, ldb, k, y, ldy, begin, end, xp);
  });
  return true;
}
