//===- CpuGemv.h - Matrix products of a few rows, streamed -------*- C++
//-*-===//
//
// Products Y = X * B whose X has at most kMaxGemvRows rows: an LLM decode
// step's linear layers (one token: one row), attention of one query, a
// small batch of them. Such a product reads every element of B once and
// does two flops with it, so it runs at the speed B streams from memory.
// A GEMM kernel would first pack B into its panel layout (reading and
// writing B once more than the product itself); these kernels read B where
// it is, in either of its two row-major layouts:
//   - B^T stored [n, k] (a linear layer's weight, torch's layout): each
//     output is a dot product of a row of B^T with each row of X;
//   - B stored [k, n] (ONNX MatMul's initializers): rows of B are added,
//     scaled by X's elements, into a panel of Y held in L1.
// Kernels exist for AVX-512, AVX2 + FMA and plain C++, chosen once from
// the CPU's features (cpuid), never from how the runtime was compiled.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CPUGEMV_H
#define RELAX_RUNTIME_CPUGEMV_H

#include <cstdint>

namespace relax::runtime {

/// The most rows of X the streamed kernels take.
constexpr int64_t kMaxGemvRows = 4;
/// The most rows of X the kernels take for B^T stored [n, k], from a depth
/// of kMinDotDepth: blocks of rows of B^T are read from memory once and
/// dotted with every row of X from cache (dotsRangeRows in
/// CpuGemvKernels.inc). One Zen 4 core, 2026-12-07, B^T [5632, 2048], 32
/// rows, in GFLOP/s of CPU time: 82-86 against 73 for oneDNN's brgemm and
/// 50 for its sgemm on the same unpacked B (which copy or transpose B per
/// call); 96-98 since X is packed once per call (dotsPackX). From 64 rows
/// brgemm wins, and below a depth of 512 the sum per output costs more
/// than the GEMM kernels' packing.
constexpr int64_t kMaxDotRows = 32;
constexpr int64_t kMinDotDepth = 512;

/// The instruction sets the runtime's own kernels are compiled for.
enum class CpuIsa { Generic, Avx2, Avx512 };

/// The best set this CPU runs, capped by RELAX_MAX_CPU_ISA (`generic`,
/// `avx2`, `avx512`): the AVX2 path can then be tested on an AVX-512
/// machine. The same cap is given to oneDNN (dnnl_set_max_cpu_isa) so that
/// every product of the runtime runs at the same level.
CpuIsa cpuIsa();

/// Its name, for reports.
const char *cpuIsaName(CpuIsa isa);

/// Y[i, j] = sum_l X[i, l] * B[l, j] for i < m, j < n, l < k: m <=
/// kMaxGemvRows, or m <= kMaxDotRows for B^T [n, k]. X and Y have unit
/// column strides; B is [k, n] with unit column stride (bRowStride = its
/// row stride) or unit row stride (bColStride = the row stride of B^T). Cut
/// into pieces over the runtime's pool when `threads` > 1. Returns false
/// (and writes nothing) for shapes or layouts it does not take, and for
/// several rows of X against a B small in the dim the kernels stream along
/// (k for B^T [n, k], n for B [k, n]: below kMinDotDepth), which the BLAS
/// multiplies faster.
bool gemvSmallRows(int64_t m, int64_t n, int64_t k, const float *x, int64_t ldx,
                   const float *b, int64_t bRowStride, int64_t bColStride,
                   float *y, int64_t ldy, int threads);

/// gemvSmallRows with the kernels of `isa`, which the CPU must run (tests
/// compare every level the machine has), for every shape the kernels take
/// (no choice against the BLAS).
bool gemvSmallRowsWith(CpuIsa isa, int64_t m, int64_t n, int64_t k,
                       const float *x, int64_t ldx, const float *b,
                       int64_t bRowStride, int64_t bColStride, float *y,
                       int64_t ldy, int threads);

} // namespace relax::runtime

#endif // RELAX_RUNTIME_CPUGEMV_H
