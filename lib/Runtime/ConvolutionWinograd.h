//===- ConvolutionWinograd.h - Winograd convolutions ------------*- C++ -*-===//
//
// The fused convolution's Winograd path below AVX-512 (docs/extern.md,
// "Winograd below AVX-512"): oneDNN 2.6 has Winograd kernels only from
// AVX-512 on, and its direct AVX2 kernels already run ResNet's 3x3
// convolutions at 90-100% of the FMA peak, so only fewer multiplies make
// them faster.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CONVOLUTIONWINOGRAD_H
#define RELAX_RUNTIME_CONVOLUTIONWINOGRAD_H

#include "ConvolutionLayouts.h"

#include <cstdint>
#include <vector>

namespace relax::runtime::blas {

/// The Winograd tile m (2 or 4: F(m x m, 3x3)) that Y = act(conv2d(X, W) +
/// bias (+ R)) with `window` (conv2d's nine values) on these views (blocked
/// ones as `blocks` says) runs by, or 0 for oneDNN's direct kernels: a 3x3,
/// stride-1, undilated, ungrouped window at the AVX2 level
/// (RELAX_MAX_CPU_ISA caps it) with at least 32 input and 32 output
/// channels, whose X, Y and R hold their channels innermost (blocked or
/// NHWC, where the transforms read eight channels at once) or in multiples
/// of 8 (NCHW, reordered into nChw8c copies, as oneDNN's direct kernels
/// would). F(4x4, 3x3) where the call has at least 32 tiles of 4x4
/// outputs (over all images), else F(2x2, 3x3) where it has 32 of 2x2.
/// Fewer tiles make the GEMMs too thin: their weights (16/9 or 4 times
/// W's bytes) stream from memory for little work (one Zen 4 core, 2026-12-07:
/// ResNet's 512-channel 7x7 layer at batch 1, 16 tiles of 2x2, took 3.0-3.5
/// against 2.2 ms direct; at batch 3, 12 tiles of 4x4, 6.6-7.7 against 4.2-4.4
/// ms for F(2x2, 3x3)). RELAX_CONV_WINOGRAD=0 never takes it, =2 or =4 takes
/// that tile for every such window, channel count, size and layout at the
/// AVX2 level and above (for tests and side-by-side measurements).
int64_t winogradTile(const int64_t window[9], const MemRef<float, 4> &w,
                     const MemRef<float, 4> &x, const MemRef<float, 4> &y,
                     const MemRef<float, 4> *r, const ConvBlocks &blocks);

/// Y = act(conv2d(X, W) + bias (+ R)) by Winograd's F(m x m, 3x3), m =
/// `tile`, on NCHW views with strides or blocked ones (`blocks`,
/// operandView): bias and R may be null, Y may be R itself (each output
/// reads its residual element just before writing it). Cut into runs of
/// tiles over `threads` threads of the pool. The window must be one
/// winogradTile accepts.
void winogradConvolve(const MemRef<float, 4> &x, const MemRef<float, 4> &w,
                      const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                      const int64_t window[9], bool relu,
                      const MemRef<float, 4> &y, int threads,
                      const ConvBlocks &blocks, int64_t tile);

namespace winograd {

/// The transformed positions of a tile of F(m x m, 3x3): (m + 2)^2, one
/// GEMM each (16 for m = 2, 36 for m = 4).
constexpr int64_t positions(int64_t tile) { return (tile + 2) * (tile + 2); }

/// One convolution as the transforms see it: the views (R may be null),
/// where each channel starts relative to its image (blocked views
/// included), the channels cut into groups (the first of each, then the
/// end: a group of 8 is adjacent in memory and runs as one vector), the
/// grid of 2x2 output tiles, the padding and the epilogue.
struct Problem {
  const MemRef<float, 4> &x, &y;
  const MemRef<float, 4> *r;
  const std::vector<int64_t> &xChannels, &yChannels, &rChannels;
  const std::vector<int64_t> &xGroups, &yGroups;
  /// m: each tile's outputs are m x m (2 or 4).
  int64_t tile;
  int64_t tileRows, tileCols, padTop, padLeft;
  const float *bias;
  int64_t biasStride;
  bool relu;
};

// The transforms (ConvolutionWinogradAvx2.cpp, built for AVX2 + FMA: call
// them only where the CPU has it). Tiles are numbered image by image, row
// by row.

/// V[p][t][c] = (B^T d B)[p] of tiles [first, first + count), each
/// position's rows `ldv` floats apart (matrix p starts at p * count * ldv,
/// p = row * (m + 2) + column of the transformed tile).
void transformInputs(const Problem &problem, int64_t first, int64_t count,
                     float *v, int64_t ldv);

/// Y of tiles [first, first + count) from their M laid out as V is: A^T M
/// A, plus the bias and R, then the ReLU, where the tile lies inside Y.
void transformOutputs(const Problem &problem, int64_t first, int64_t count,
                      const float *m, int64_t ldm);

} // namespace winograd

/// Copies an NCHW view (any strides) into a dense nChw8c one of the same
/// sizes (`toBlocked`) or back, by a oneDNN reorder on the calling thread.
void reorderBlocked(const MemRef<float, 4> &plain,
                    const MemRef<float, 4> &blocked, bool toBlocked);

/// Forgets the transformed weights (relax_rt_blas_release_constants: the
/// next module may place other constants at their addresses).
void releaseWinogradWeights();

} // namespace relax::runtime::blas

#endif // RELAX_RUNTIME_CONVOLUTIONWINOGRAD_H
