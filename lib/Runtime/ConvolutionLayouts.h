//===- ConvolutionLayouts.h - Layouts of the fused convolution --*- C++ -*-===//
//
// How Convolution.cpp's fused convolution sees its X, Y and residual: NCHW
// or NHWC tensors as NCHW views with strides, and conv-private tensors
// (docs/extern.md), whose bytes are oneDNN's blocked layout nChw<b>c where
// the runtime's block divides the channels. Writer and reader of a
// conv-private tensor both decide its layout here, from its channel count
// and the instruction set, so they always agree.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CONVOLUTIONLAYOUTS_H
#define RELAX_RUNTIME_CONVOLUTIONLAYOUTS_H

#include "BlasSupport.h"
#include "CpuGemv.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace relax::runtime::blas {

/// The channel blocks of X, Y and the residual (0: described by strides).
struct ConvBlocks {
  int64_t x = 0, y = 0, r = 0;
  bool any() const { return x || y || r; }
};

/// The layouts of the fused convolution's tensors (options 9 to 11). A
/// conv-private tensor (typed NHWC by the compiler, which lets only fused
/// convolutions read it: relax-dispatch-library) holds oneDNN's blocked
/// layout nChw<b>c where privateConvBlock gives a block b for its channels,
/// and NHWC where it does not; writer and reader decide alike from the
/// channel count and the instruction set, so between two convolutions no
/// reorder runs.
enum ConvLayout : int64_t { kNchw = 0, kNhwc = 1, kConvPrivate = 2 };

/// The channel block of a conv-private tensor of `channels` channels, or 0
/// (NHWC): the block of oneDNN's kernels at the level it runs (8 floats
/// with AVX2; RELAX_MAX_CPU_ISA caps both alike), where it divides the
/// channels so that the blocked tensor has exactly the bytes of the plain
/// one: 8 floats with AVX2, 16 with AVX-512 (where oneDNN 2.6 would run 1x1
/// and strided windows as NHWC brgemm kernels: 16c is still 4-5% faster
/// end to end, ResNet-18/50 on a Zen 4, docs/perf.md). RELAX_CONV_BLOCK=16
/// or 8 sets the block instead, 0 NHWC, for side-by-side measurements.
/// Only oneDNN (f32) computes on blocked tensors.
template <typename T> int64_t privateConvBlock(int64_t channels) {
#ifdef RELAX_RUNTIME_HAS_DNNL
  if constexpr (std::is_same_v<T, float>) {
    static const int64_t block = []() -> int64_t {
      if (const char *set = std::getenv("RELAX_CONV_BLOCK"))
        return std::string(set) == "8" ? 8 : std::string(set) == "16" ? 16 : 0;
      switch (relax::runtime::cpuIsa()) {
      case relax::runtime::CpuIsa::Avx512:
        return 16;
      case relax::runtime::CpuIsa::Avx2:
        return 8;
      default:
        return 0;
      }
    }();
    return block > 0 && channels % block == 0 ? block : 0;
  }
#endif
  (void)channels;
  return 0;
}

/// A 4-D tensor in NCHW or NHWC layout as an NCHW view of the same data.
template <typename T> MemRef<T, 4> nchwView(const MemRef<T, 4> *m, bool nhwc) {
  MemRef<T, 4> view = *m;
  if (nhwc) {
    const int fromNhwc[4] = {0, 3, 1, 2};
    for (int i = 0; i < 4; ++i) {
      view.sizes[i] = m->sizes[fromNhwc[i]];
      view.strides[i] = m->strides[fromNhwc[i]];
    }
  }
  return view;
}

/// A dense tensor of layout `layout` as an NCHW view; `block` is set for a
/// blocked conv-private one, whose strides then are those of the blocked
/// layout's outer positions (C*H*W per image, H*W per channel, W*block per
/// row, block per column): whole images, and channels at multiples of the
/// block, are then sliced by moving the offset alone, and element (i, c,
/// h, w) is at blockedAt. False (reported) for a conv-private tensor that
/// is not one dense buffer, which no blocked layout can occupy.
template <typename T>
bool operandView(const char *fn, const char *what, const MemRef<T, 4> *m,
                 int64_t layout, MemRef<T, 4> &view, int64_t &block) {
  view = nchwView(m, layout != kNchw);
  block = layout == kConvPrivate ? privateConvBlock<T>(view.sizes[1]) : 0;
  if (!block)
    return true;
  int64_t expected = 1;
  for (int d = 3; d >= 0; --d) {
    if (m->sizes[d] > 1 && m->strides[d] != expected) {
      reportError("%s: the conv-private %s is not one dense buffer (%s)", fn,
                  what, shapeString(m).c_str());
      return false;
    }
    expected *= m->sizes[d];
  }
  int64_t c = view.sizes[1], h = view.sizes[2], w = view.sizes[3];
  int64_t strides[4] = {c * h * w, h * w, w * block, block};
  std::copy(strides, strides + 4, view.strides);
  return true;
}

/// Element (i, c, h, w) of a blocked view (operandView).
template <typename T>
T &blockedAt(const MemRef<T, 4> &m, int64_t block, int64_t i, int64_t c,
             int64_t h, int64_t w) {
  int64_t at = m.offset + i * m.strides[0] + (c - c % block) * m.strides[1] +
               h * m.strides[2] + w * m.strides[3] + c % block;
  return m.aligned[at];
}

/// A dense NCHW tensor of `m`'s sizes in `storage`, holding `m`'s values
/// when `copy` (m blocked).
template <typename T>
MemRef<T, 4> plainCopy(const MemRef<T, 4> &m, int64_t block,
                       std::vector<T> &storage, bool copy) {
  int64_t n = m.sizes[0], c = m.sizes[1], h = m.sizes[2], w = m.sizes[3];
  storage.assign(n * c * h * w, T(0));
  MemRef<T, 4> plain{storage.data(),
                     storage.data(),
                     0,
                     {n, c, h, w},
                     {c * h * w, h * w, w, 1}};
  if (copy)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t a = 0; a < c; ++a)
        for (int64_t y = 0; y < h; ++y)
          for (int64_t x = 0; x < w; ++x)
            storage[((i * c + a) * h + y) * w + x] =
                blockedAt(m, block, i, a, y, x);
  return plain;
}

/// The elements [first, last] that a view may touch, or nothing when it is
/// empty.
template <typename T>
std::optional<std::pair<int64_t, int64_t>> elementSpan(const MemRef<T, 4> &m) {
  int64_t first = m.offset, last = m.offset;
  for (int d = 0; d < 4; ++d) {
    if (m.sizes[d] <= 0)
      return std::nullopt;
    int64_t reach = (m.sizes[d] - 1) * m.strides[d];
    (reach < 0 ? first : last) += reach;
  }
  return std::make_pair(first, last);
}

/// Whether two views may share an element.
template <typename T>
bool sharesBytes(const MemRef<T, 4> &a, const MemRef<T, 4> &b) {
  auto sa = elementSpan(a), sb = elementSpan(b);
  if (!sa || !sb)
    return false;
  auto at = [](const T *base, int64_t i) {
    return reinterpret_cast<uintptr_t>(base + i);
  };
  return at(a.aligned, sa->second) >= at(b.aligned, sb->first) &&
         at(b.aligned, sb->second) >= at(a.aligned, sa->first);
}

/// Whether two descriptors are one view: the same first element, sizes and
/// strides.
template <typename T>
bool sameView(const MemRef<T, 4> &a, const MemRef<T, 4> &b) {
  return a.aligned + a.offset == b.aligned + b.offset &&
         std::equal(a.sizes, a.sizes + 4, b.sizes) &&
         std::equal(a.strides, a.strides + 4, b.strides);
}

/// A copy of the elements `m` may touch in `storage`, viewed with `m`'s
/// sizes and strides (the same layout, blocked ones included).
template <typename T>
MemRef<T, 4> copyOfView(const MemRef<T, 4> &m, std::vector<T> &storage) {
  auto span = elementSpan(m);
  if (!span)
    return m;
  storage.assign(m.aligned + span->first, m.aligned + span->second + 1);
  MemRef<T, 4> copy = m;
  copy.allocated = copy.aligned = storage.data();
  copy.offset = m.offset - span->first;
  return copy;
}

} // namespace relax::runtime::blas

#endif // RELAX_RUNTIME_CONVOLUTIONLAYOUTS_H
