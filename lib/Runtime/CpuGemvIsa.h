//===- CpuGemvIsa.h - The per-ISA entry points of CpuGemv --------*- C++
//-*-===//
//
// Internal to CpuGemv.cpp and the translation units compiled for one
// instruction set each (CpuGemvAvx2.cpp, CpuGemvAvx512.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CPUGEMVISA_H
#define RELAX_RUNTIME_CPUGEMVISA_H

#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace relax::runtime {
struct QuantizedWeight;
} // namespace relax::runtime

namespace relax::runtime::detail {

/// Bytes of a streamed operand below which a product is not cut into
/// pieces: starting the pool's workers costs about what streaming this much
/// takes.
constexpr int64_t kMinPieceBytes = 64 << 10;
/// Outputs per piece come in multiples of this (a cache line of Y for the
/// [k, n] layout; 16 rows of B^T or W for the others).
constexpr int64_t kPieceGrain = 16;

/// How many pieces splitOverPool cuts `extent` into for a product
/// streaming `bytes`: `perThread` (about four) per thread, so that a thread
/// slowed by another process leaves its share to the others (the pool
/// hands out pieces as threads free up), none streaming less than
/// kMinPieceBytes, none under kPieceGrain of the extent.
inline int64_t poolPieces(int64_t extent, int64_t bytes, int threads,
                          int64_t perThread = 4) {
  return std::min<int64_t>({threads > 1 ? perThread * int64_t(threads) : 1,
                            bytes / kMinPieceBytes,
                            (extent + kPieceGrain - 1) / kPieceGrain});
}

/// Bounds of piece p of poolPieces' `pieces` over [0, extent): multiples
/// of kPieceGrain, the last one ending at extent.
inline int64_t pieceBound(int64_t extent, int64_t pieces, int64_t p) {
  return p == pieces ? extent
                     : extent * p / pieces / kPieceGrain * kPieceGrain;
}

/// Runs range(begin, end) over [0, extent) outputs of a product streaming
/// `bytes`, in poolPieces' pieces; one call on this thread when that makes
/// one piece.
template <typename Range>
void splitOverPool(int64_t extent, int64_t bytes, int threads, Range range) {
  int64_t pieces = poolPieces(extent, bytes, threads);
  if (pieces <= 1) {
    range(int64_t(0), extent);
    return;
  }
  auto piece = [&](int64_t p) {
    int64_t begin = pieceBound(extent, pieces, p);
    int64_t end = pieceBound(extent, pieces, p + 1);
    if (begin < end)
      range(begin, end);
  };
  parallelTasks(pieces, piece);
}

/// splitOverPool's extent dealt as one long stream per thread, each cut
/// into kStreamPieces pieces that shrink toward its back: the task of
/// stream s runs its pieces in order from the front, then what is left of
/// the other streams from their backs. A thread's pieces then continue one
/// stream of W (the rows a kernel prefetches past a piece's end are its
/// next piece's, where splitOverPool's pieces, claimed by the threads in
/// turn, each start cold); a thread that starts late or is slowed by
/// another process still leaves its stream's tail to the others; and the
/// pieces that threads take from each other, and the last one a thread may
/// be left waiting on, are the smallest. Four equal pieces a thread left
/// the first thread done idle for 9.6% of a decode product's time on
/// average (llama-16l q4a8, two Zen 4 threads), tapered pieces 2.0%.
constexpr int64_t kStreamPieces = 8;
template <typename Range>
void splitOverPoolStreams(int64_t extent, int64_t bytes, int threads,
                          Range range) {
  const int64_t pieces = poolPieces(extent, bytes, threads, kStreamPieces);
  if (pieces <= 1) {
    range(int64_t(0), extent);
    return;
  }
  const int64_t streams = std::min<int64_t>({threads, pieces, 64});
  // [front, back) of each stream's unclaimed pieces in one word, so that
  // either end is claimed by one compare-exchange.
  std::atomic<uint64_t> left[64];
  for (int64_t s = 0; s < streams; ++s)
    left[s].store(uint64_t(s * pieces / streams) << 32 |
                      uint64_t((s + 1) * pieces / streams),
                  std::memory_order_relaxed);
  auto claim = [&](int64_t s, bool front) -> int64_t {
    uint64_t v = left[s].load(std::memory_order_relaxed);
    for (;;) {
      uint64_t f = v >> 32, b = v & 0xffffffffu;
      if (f >= b)
        return -1;
      uint64_t next = front ? (f + 1) << 32 | b : f << 32 | (b - 1);
      if (left[s].compare_exchange_weak(v, next, std::memory_order_relaxed))
        return int64_t(front ? f : b - 1);
    }
  };
  // Where piece p (of those of stream s) starts: 1 - (1 - u)^2 of the
  // stream lies before the piece at u of its count, down to a multiple of
  // kPieceGrain.
  auto bound = [&](int64_t s, int64_t p) {
    const int64_t first = s * pieces / streams;
    const int64_t count = (s + 1) * pieces / streams - first;
    const int64_t begin = pieceBound(extent, streams, s);
    const int64_t end = pieceBound(extent, streams, s + 1);
    const int64_t rest = count - (p - first);
    if (rest == 0)
      return end;
    const int64_t length = end - begin;
    return begin + (length - length * rest * rest / (count * count)) /
                       kPieceGrain * kPieceGrain;
  };
  auto task = [&](int64_t s) {
    auto run = [&](int64_t stream, int64_t p) {
      int64_t begin = bound(stream, p);
      int64_t end = bound(stream, p + 1);
      if (begin < end)
        range(begin, end);
    };
    for (int64_t p; (p = claim(s, true)) >= 0;)
      run(s, p);
    for (int64_t o = 1; o < streams; ++o)
      for (int64_t p; (p = claim((s + o) % streams, false)) >= 0;)
        run((s + o) % streams, p);
  };
  parallelTasks(streams, task);
}

/// Y[:, [begin, end)] = X * B for m rows of X; `transposed`: B^T is
/// stored [n, k] with row stride ldb, else B is stored [k, n]. More than
/// kMaxGemvRows rows (B^T only): X's rows packed by the same ISA's
/// GemvPackFn at xp, or read where they lie if xp is null.
using GemvRangeFn = void(int64_t m, bool transposed, const float *x,
                         int64_t ldx, const float *b, int64_t ldb, int64_t k,
                         float *y, int64_t ldy, int64_t begin, int64_t end,
                         const float *xp);

/// X's m rows over k packed for that ISA's several-row kernel (dotsPackX
/// in CpuGemvKernels.inc) into xp, m * k floats: once per product, read by
/// every piece.
using GemvPackFn = void(int64_t m, const float *x, int64_t ldx, int64_t k,
                        float *xp);

/// The f32 kernels of one instruction set's translation unit.
struct GemvKernels {
  GemvRangeFn *range;
  GemvPackFn *pack;
};
extern const GemvKernels gemvKernelsAvx2;
extern const GemvKernels gemvKernelsAvx512;

/// Rows of W dequantized per block of the several-row quantized path: 24
/// rows of k = 5632 are 528 KiB, in L2 while every row of X is dotted with
/// them, and a multiple of the f32 dot kernel's blocks of rows (6 with
/// AVX-512, 4 with AVX2).
constexpr int64_t kDequantRows = 24;
/// The most rows of W the few-row quantized kernels read at once.
constexpr int64_t kMaxQuantRows = 8;

/// Fetches into L2 the scales of rows [j, j + rows) of a quantized W
/// (`groups` of them a row, binary16 or f32). The few-row kernels call it
/// for the block of rows two blocks ahead, whose weight bytes they
/// prefetch while a block runs: the scales are a second, sparser stream
/// (1 KiB for 8 rows of k = 2048 in groups of 32, f16), read in one burst
/// at the start of each block, which the hardware prefetchers did not
/// cover: profiled decode of llama-16l on one Zen 4 core spent 10% (q8)
/// and 20% (q4 by int8 rows) of its time waiting for them in the scales'
/// conversion (docs/perf.md, 2026-12-07 19:00). Only the lines that start
/// in the range are asked for: the one it starts in is the previous
/// block's. Addresses past W's scales are harmless: a prefetch never
/// faults.
inline void prefetchScales(const void *scales, bool f16, int64_t groups,
                           int64_t j, int64_t rows) {
  const uintptr_t size = f16 ? 2 : 4;
  const uintptr_t begin =
      reinterpret_cast<uintptr_t>(scales) + uintptr_t(j * groups) * size;
  const uintptr_t end = begin + uintptr_t(rows * groups) * size;
  for (uintptr_t line = (begin + 63) & ~uintptr_t(63); line < end; line += 64)
    __builtin_prefetch(reinterpret_cast<const void *>(line), 0, 2);
}

/// Y[:, [begin, end)] = X * W^T for m rows of X and a quantized W
/// (CpuQuantGemv.h); for 4 bits and m <= 4, X permuted per block of 32
/// (CpuQuantKernels.inc) and `xsums` X's sums per group, [m, k / group]
/// (made once per call by quantLinearWith, not once per piece of the
/// pool's split), else null.
/// `scales` has room for kMaxQuantRows rows of W's scales as floats,
/// `block` kDequantRows rows of W (the dequantized blocks of m > 4).
using QuantRangeFn = void(int64_t m, const float *x, int64_t ldx,
                          const QuantizedWeight &w, float *y, int64_t ldy,
                          int64_t begin, int64_t end, const float *xsums,
                          float *scales, float *block);
QuantRangeFn quantRangeAvx2;
QuantRangeFn quantRangeAvx512;

/// X's rows for the kernels of QuantActivations::Int8 (CpuQuantGemv.h,
/// CpuQuantInt8Kernels.inc), made once per call and read by every piece:
/// each row of X quantized by blocks of 32 (quantizeActivations), its
/// blocks padded with zero blocks to `paddedBlocks` (a multiple of 4), and
/// for 4-bit W the bytes of each chunk of `chunkBlocks` blocks reordered as
/// the even elements of its blocks and then the odd ones (the order in which
/// a kernel unpacks the low and high nibbles of the chunk's weight bytes);
/// for 8-bit W in plain order.
struct Int8Rows {
  int64_t m = 0;            ///< rows (1 to 4)
  int64_t paddedBlocks = 0; ///< blocks per row, padded
  const int8_t *q = nullptr; ///< [m, ldq], ldq = 32 * paddedBlocks
  int64_t ldq = 0;
  const float *scales = nullptr; ///< [m, paddedBlocks] per-block scales
  /// [m, centreLanes * paddedBlocks]: per block {c * sum of its q, 0, ...}
  /// (centreLanes int32 lanes, those of a block in the kernel's chunk), the
  /// start of a chunk's integer sums that centres symmetric weights
  /// exactly: c = -8 for 4-bit nibbles, -128 for 8-bit weights summed as
  /// w + 128. The tile kernels take one lane per block (centreLanes 1) and
  /// spread it themselves: fewer bytes of X to keep in L1.
  const int32_t *centre = nullptr;
  int64_t centreLanes = 4;
  /// [m, k / group]: per group of W, sum over its blocks of scale * sum of
  /// q (X's sums for the zero points of W).
  const float *groupSums = nullptr;
};

/// Y[:, [begin, end)] = X * W^T for the quantized W and x.m <= 4 rows
/// prepared for the kernel's chunks: 4-bit W 4 blocks (the AVX-512 VNNI
/// kernel) or 2 (the AVX2 one), 8-bit W 2 or 1.
using Int8RangeFn = void(const Int8Rows &x, const QuantizedWeight &w, float *y,
                         int64_t ldy, int64_t begin, int64_t end);
Int8RangeFn int8RangeAvx2;
Int8RangeFn int8RangeAvx512Vnni;

/// Int8RangeFn for a W in tiles (QuantLayout::Tiles, QuantTiles.h), x laid
/// out as for the plain kernel of the same instruction set (the generic one
/// for int8TilesGeneric); begin and end multiples of 8 (whole row blocks).
/// Each row's f32 sums are added in the plain kernel's order, so the
/// outputs are bit-identical to it (CpuQuantInt8Tiles.inc).
Int8RangeFn int8TilesGeneric;
Int8RangeFn int8TilesAvx2;
Int8RangeFn int8TilesAvx512Vnni;

/// The integer dot product of one block of 32 weights (8 bits: 32 int8;
/// 4 bits: 16 bytes of nibbles) with X's block `xb` (8 bits: plain order;
/// 4 bits: its 16 even elements then its 16 odd ones), added to `start`:
/// the plain C++ kernels' block sum, exact.
inline int32_t int8BlockSum(int bits, const uint8_t *wb, const int8_t *xb,
                            int32_t start) {
  int32_t sum = start;
  if (bits == 8) {
    for (int t = 0; t < 32; ++t)
      sum += int8_t(wb[t]) * xb[t];
    return sum;
  }
  for (int t = 0; t < 16; ++t)
    sum += (wb[t] & 15) * xb[t] + (wb[t] >> 4) * xb[16 + t];
  return sum;
}

} // namespace relax::runtime::detail

#endif // RELAX_RUNTIME_CPUGEMVISA_H
