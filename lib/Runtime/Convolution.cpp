//===- Convolution.cpp - conv2d of the CPU BLAS binding -------------------===//
//
// The relax_blas_conv2d_* entry points. Y = conv2d(X, W) runs as im2col +
// GEMM, or through oneDNN where W is a module constant; the fused
// convolutions add a bias, a residual and a ReLU, with X, Y and the
// residual each NCHW or NHWC: a 1x1 window as GEMMs on the tensors where
// they are, other windows as oneDNN primitives cut into pieces over the
// pool, im2col + GEMM where neither applies.
//
//===----------------------------------------------------------------------===//

#include "BlasSupport.h"
#include "ConvolutionLayouts.h"
#include "ConvolutionWinograd.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

using namespace relax::runtime::blas;

namespace {

/// ceil(a / b) for b > 0 and any sign of a.
int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/// Whether the window values are valid and X, W and Y (NCHW / OIHW views)
/// agree with them; reports what is wrong otherwise.
template <typename T>
bool checkConv(const char *fn, const MemRef<T, 4> *x, const MemRef<T, 4> *w,
               const int64_t win[9], const MemRef<T, 4> *y) {
  int64_t sh = win[0], sw = win[1], pt = win[2], pl = win[3], pb = win[4],
          pr = win[5], dh = win[6], dw = win[7], groups = win[8];
  if (sh <= 0 || sw <= 0 || dh <= 0 || dw <= 0 || groups <= 0 || pt < 0 ||
      pl < 0 || pb < 0 || pr < 0) {
    reportError("%s: bad window (strides %lld, %lld; padding %lld, %lld, "
                "%lld, %lld; dilation %lld, %lld; groups %lld)",
                fn, (long long)sh, (long long)sw, (long long)pt, (long long)pl,
                (long long)pb, (long long)pr, (long long)dh, (long long)dw,
                (long long)groups);
    return false;
  }
  if (hasNegativeSize(x) || hasNegativeSize(w) || hasNegativeSize(y)) {
    reportError("%s: negative size in X %s, W %s or Y %s", fn,
                shapeString(x).c_str(), shapeString(w).c_str(),
                shapeString(y).c_str());
    return false;
  }
  int64_t n = x->sizes[0], c = x->sizes[1], h = x->sizes[2], wd = x->sizes[3];
  int64_t o = w->sizes[0], cg = w->sizes[1], kh = w->sizes[2], kw = w->sizes[3];
  if (c != cg * groups || o % groups != 0) {
    reportError("%s: X is %s and W is %s: channels do not match %lld "
                "groups",
                fn, shapeString(x).c_str(), shapeString(w).c_str(),
                static_cast<long long>(groups));
    return false;
  }
  int64_t p = (h + pt + pb - dh * (kh - 1) - 1) / sh + 1;
  int64_t q = (wd + pl + pr - dw * (kw - 1) - 1) / sw + 1;
  if (h + pt + pb < dh * (kh - 1) + 1 || wd + pl + pr < dw * (kw - 1) + 1)
    p = q = 0;
  if (y->sizes[0] != n || y->sizes[1] != o || y->sizes[2] != p ||
      y->sizes[3] != q) {
    reportError("%s: Y is %s, expected [%lld, %lld, %lld, %lld] for X %s and "
                "W %s",
                fn, shapeString(y).c_str(), (long long)n, (long long)o,
                (long long)p, (long long)q, shapeString(x).c_str(),
                shapeString(w).c_str());
    return false;
  }
  return true;
}

#ifdef RELAX_RUNTIME_HAS_DNNL
/// Y = act(conv2d(X, W) + bias (+ R)) through oneDNN, cut into pieces over
/// the pool (below, with the fused convolutions); the bias and R may be
/// null. False when oneDNN has no kernel for these views.
bool convolveFused(const MemRef<float, 4> &x, const MemRef<float, 4> *w,
                   const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                   const int64_t window[9], bool relu,
                   const MemRef<float, 4> &y, int threads,
                   const ConvBlocks &blocks = {});
#endif

/// Validates and runs Y = conv2d(X, W) (NCHW, OIHW) as im2col + GEMM: for
/// each image and group, the receptive fields become the columns of a
/// [g * r * s, p * q] matrix and W's group rows multiply it into Y's rows.
/// A 1x1 window with unit strides and no padding reads X in place.
template <typename T>
void conv2d(const char *fn, MemRef<T, 4> *x, MemRef<T, 4> *w,
            MemRef<int64_t, 1> *window, MemRef<T, 4> *y,
            bool constantW = false) {
  if (!x || !w || !window || !y) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  if (window->sizes[0] != 9) {
    reportError("%s: the window has %lld values, expected 9", fn,
                static_cast<long long>(window->sizes[0]));
    return;
  }
  int64_t win[9];
  for (int i = 0; i < 9; ++i)
    win[i] = window->aligned[window->offset + i * window->strides[0]];
  if (!checkConv(fn, x, w, win, y))
    return;
  int64_t sh = win[0], sw = win[1], pt = win[2], pl = win[3], pb = win[4],
          pr = win[5], dh = win[6], dw = win[7], groups = win[8];
  int64_t n = x->sizes[0], h = x->sizes[2], wd = x->sizes[3];
  int64_t o = w->sizes[0], cg = w->sizes[1], kh = w->sizes[2], kw = w->sizes[3];
  int64_t p = y->sizes[2], q = y->sizes[3];
  int64_t og = o / groups, kdim = cg * kh * kw, pixels = p * q;
  if (n == 0 || o == 0 || pixels == 0)
    return;
#ifdef RELAX_RUNTIME_HAS_DNNL
  if constexpr (std::is_same_v<T, float>) {
    int64_t window4[9] = {sh, sw, pt, pl, pb, pr, dh, dw, groups};
    if (constantW && kdim > 0 &&
        convolveFused(*x, w, nullptr, nullptr, window4, false, *y,
                      threadsFor(2.0 * double(n) * double(o) * double(kdim) *
                                 double(pixels))))
      return;
  }
#endif
  if (!fitsBlasInt(og) || !fitsBlasInt(kdim) || !fitsBlasInt(pixels)) {
    reportError("%s: GEMM dims exceed the BLAS integer range", fn);
    return;
  }
  // W's group g as a [og, kdim] matrix (its dims c, kh, kw must be one run
  // for that; otherwise a packed copy).
  std::vector<T> packedW;
  const T *wBase = w->aligned + w->offset;
  int64_t wRow = w->strides[0];
  bool wDense = (kh == 1 || w->strides[2] == kw * w->strides[3]) &&
                (cg == 1 || w->strides[1] == kh * kw * w->strides[3]) &&
                (kw == 1 || w->strides[3] == 1);
  if (!wDense || w->strides[3] != 1) {
    packedW.resize(o * kdim);
    for (int64_t a = 0; a < o; ++a)
      for (int64_t b = 0; b < cg; ++b)
        for (int64_t r = 0; r < kh; ++r)
          for (int64_t s = 0; s < kw; ++s)
            packedW[((a * cg + b) * kh + r) * kw + s] =
                wBase[a * w->strides[0] + b * w->strides[1] +
                      r * w->strides[2] + s * w->strides[3]];
    wBase = packedW.data();
    wRow = kdim;
  }
  // Y's image i, channels of group g as a [og, p * q] matrix.
  bool yDense = (q == 1 || y->strides[3] == 1) &&
                (p == 1 || y->strides[2] == q * y->strides[3]);
  bool pointwise = kh == 1 && kw == 1 && sh == 1 && sw == 1 && pt == 0 &&
                   pl == 0 && pb == 0 && pr == 0 &&
                   (wd == 1 || x->strides[3] == 1) &&
                   (h == 1 || x->strides[2] == wd * x->strides[3]);
  int64_t tasks = n * groups;
  int threads =
      threadsFor(2.0 * double(n) * double(o) * double(kdim) * double(pixels));
  auto run = [&](int64_t task, int gemmThreads) {
    int64_t i = task / groups, g = task % groups;
    const T *xImage = x->aligned + x->offset + i * x->strides[0];
    Matrix<T> cols;
    if (pointwise) {
      cols = {const_cast<T *>(xImage) + g * cg * x->strides[1], kdim, pixels,
              x->strides[1], 1};
    } else {
      // One buffer per thread, kept across calls: a fresh one would be
      // faulted in (and zeroed) on every call.
      static thread_local std::vector<T> im2col;
      im2col.resize(kdim * pixels);
      for (int64_t b = 0; b < cg; ++b) {
        const T *plane = xImage + (g * cg + b) * x->strides[1];
        for (int64_t r = 0; r < kh; ++r)
          for (int64_t s = 0; s < kw; ++s) {
            T *row = im2col.data() + ((b * kh + r) * kw + s) * pixels;
            // Output columns whose input column lies inside the image:
            // ix = ox * sw - pl + s * dw in [0, wd).
            int64_t shift = pl - s * dw;
            int64_t lo = std::clamp<int64_t>(ceilDiv(shift, sw), 0, q);
            int64_t hi = std::clamp<int64_t>(ceilDiv(wd + shift, sw), lo, q);
            for (int64_t oy = 0; oy < p; ++oy) {
              T *dst = row + oy * q;
              int64_t iy = oy * sh - pt + r * dh;
              if (iy < 0 || iy >= h) {
                std::fill(dst, dst + q, T(0));
                continue;
              }
              const T *line = plane + iy * x->strides[2];
              std::fill(dst, dst + lo, T(0));
              for (int64_t ox = lo; ox < hi; ++ox)
                dst[ox] = line[(ox * sw - shift) * x->strides[3]];
              std::fill(dst + hi, dst + q, T(0));
            }
          }
      }
      cols = {im2col.data(), kdim, pixels, pixels, 1};
    }
    Matrix<T> weights{const_cast<T *>(wBase) + g * og * wRow, og, kdim, wRow,
                      1};
    T *yBase =
        y->aligned + y->offset + i * y->strides[0] + g * og * y->strides[1];
    if (yDense) {
      multiplySplit(weights, cols,
                    Matrix<T>{yBase, og, pixels, y->strides[1], 1},
                    gemmThreads);
      return;
    }
    std::vector<T> out(og * pixels);
    multiplySplit(weights, cols, Matrix<T>{out.data(), og, pixels, pixels, 1},
                  gemmThreads);
    for (int64_t a = 0; a < og; ++a)
      for (int64_t oy = 0; oy < p; ++oy)
        for (int64_t ox = 0; ox < q; ++ox)
          yBase[a * y->strides[1] + oy * y->strides[2] + ox * y->strides[3]] =
              out[(a * p + oy) * q + ox];
  };
  // Images (and groups) over the team when there are enough; else each
  // GEMM split.
  if (tasks >= threads) {
    parallelFor(tasks, threads, [&](int64_t t) { run(t, 1); });
    return;
  }
  for (int64_t t = 0; t < tasks; ++t)
    run(t, threads);
}

//===----------------------------------------------------------------------===//
// Convolution with its epilogue: bias, residual, ReLU; NCHW or NHWC tensors
//===----------------------------------------------------------------------===//

/// The fused convolution's options operand: the window (as conv2d's), then
/// the layouts of X, Y and the residual (ConvLayout) and the activation
/// (0 none, 1 ReLU).
constexpr int64_t kConvFusedOptions = 13;

#ifdef RELAX_RUNTIME_HAS_DNNL
/// A convolution with constant weights and its epilogue as one oneDNN
/// primitive: the bias is the primitive's, a residual is a `sum` post-op
/// (reordered into the destination first), the ReLU an eltwise post-op.
/// X, Y and the residual are described by their strides, so an NHWC tensor
/// is read and written in place by the NHWC kernels oneDNN prefers; only
/// the operands whose layout differs from the primitive's are reordered.
struct FusedConv {
  std::mutex mutex; // One call at a time: the scratch buffers are shared.
  dnnl::convolution_forward primitive;
  dnnl::memory weights, src, dst;
  dnnl::reorder toSrc, toDst, residualToDst;
  bool reorderSrc = false, reorderDst = false;
};
std::map<std::vector<int64_t>, std::unique_ptr<FusedConv>> fusedConvs;
/// The packings of each constant W (by address), shared by the primitives
/// of its pieces: row pieces of one convolution want the same layout.
std::map<const float *, std::vector<dnnl::memory>> fusedConvWeights;

/// oneDNN's description of an NCHW view with its own strides, or of a
/// blocked one (operandView) as nChw8c / nChw16c.
dnnl::memory::desc viewDesc(const MemRef<float, 4> &m, int64_t block) {
  using dnnl::memory;
  memory::dims dims(m.sizes, m.sizes + 4);
  if (block)
    return memory::desc(dims, memory::data_type::f32,
                        block == 8 ? memory::format_tag::nChw8c
                                   : memory::format_tag::nChw16c);
  return memory::desc(dims, memory::data_type::f32,
                      memory::dims(m.strides, m.strides + 4));
}

/// The primitive of Y = act(conv2d(X, W) + bias (+ R)) on NCHW views (or
/// blocked ones, `blocks`), made (and W packed) on first use, planned for
/// the calling thread alone; null when oneDNN has no kernel for them. The
/// formats are oneDNN's choice (`any`): a blocked operand in the layout it
/// chose is read or written in place, any other one reordered.
FusedConv *fusedConvFor(const MemRef<float, 4> &x, const MemRef<float, 4> *w,
                        const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                        const int64_t window[9], bool relu,
                        const MemRef<float, 4> &y, int64_t piece,
                        const ConvBlocks &blocks) {
  using dnnl::memory;
  auto positive = [](const MemRef<float, 4> &m) {
    for (int i = 0; i < 4; ++i)
      if (m.sizes[i] <= 0 || m.strides[i] <= 0)
        return false;
    return true;
  };
  // Broadcast (stride-0) or empty views, grouped or strided weights and a
  // strided bias are left to the general path.
  bool wDense = w->strides[3] == 1 && w->strides[2] == w->sizes[3] &&
                w->strides[1] == w->sizes[2] * w->sizes[3] &&
                w->strides[0] == w->sizes[1] * w->strides[1];
  int64_t groups = window[8];
  if (!positive(x) || !positive(y) || (r && !positive(*r)) || !wDense ||
      groups < 1 || w->sizes[0] % groups != 0 ||
      (bias && bias->sizes[0] > 1 && bias->strides[0] != 1))
    return nullptr;
  memory::desc xDesc = viewDesc(x, blocks.x), yDesc = viewDesc(y, blocks.y);
  memory::desc rDesc = r ? viewDesc(*r, blocks.r) : memory::desc();
  memory::dims wd(w->sizes, w->sizes + 4);
  // A grouped convolution's W (OIHW, O = groups * O/groups) is the same
  // bytes as oneDNN's goihw; a depthwise one (one input channel per group)
  // then runs on oneDNN's depthwise kernels instead of a GEMM per channel.
  memory::dims convW = wd;
  memory::format_tag wTag = memory::format_tag::oihw;
  if (groups > 1) {
    convW = {groups, wd[0] / groups, wd[1], wd[2], wd[3]};
    wTag = memory::format_tag::goihw;
  }
  std::vector<int64_t> key = {
      static_cast<int64_t>(reinterpret_cast<uintptr_t>(w->aligned + w->offset)),
      relu, r != nullptr, bias != nullptr, piece};
  key.insert(key.end(), {blocks.x, blocks.y, blocks.r});
  key.insert(key.end(), wd.begin(), wd.end());
  key.insert(key.end(), window, window + 9);
  for (const MemRef<float, 4> *m : {&x, &y, r}) {
    if (!m)
      continue;
    key.insert(key.end(), m->sizes, m->sizes + 4);
    key.insert(key.end(), m->strides, m->strides + 4);
  }
  FusedConv *conv = nullptr;
  {
    std::lock_guard<std::mutex> lock(packedMutex);
    std::unique_ptr<FusedConv> &entry = fusedConvs[key];
    if (!entry) {
      try {
        auto any = [](const memory::dims &dims) {
          return memory::desc(dims, memory::data_type::f32,
                              memory::format_tag::any);
        };
        // A zero descriptor: no bias term.
        memory::desc biasDesc =
            bias ? memory::desc({wd[0]}, memory::data_type::f32,
                                memory::format_tag::a)
                 : memory::desc();
        // oneDNN counts dilation from 0 (1 = one gap).
        // `exact`: blocked operands in their own layout, so that oneDNN
        // picks kernels that read and write it (at AVX-512 it would pick
        // NHWC brgemm kernels for 1x1 and strided windows); the others, and
        // every operand when no kernel takes them so, in oneDNN's choice.
        auto descOf = [&](dnnl::algorithm algorithm, bool exact) {
          auto layout = [&](const memory::desc &d, int64_t block) {
            return exact && block ? d : any(d.dims());
          };
          return dnnl::convolution_forward::desc(
              dnnl::prop_kind::forward_inference, algorithm,
              layout(xDesc, blocks.x), any(convW), biasDesc,
              layout(yDesc, blocks.y), {window[0], window[1]},
              {window[6] - 1, window[7] - 1}, {window[2], window[3]},
              {window[4], window[5]});
        };
        dnnl::post_ops ops;
        if (r)
          ops.append_sum(1.0f);
        if (relu)
          ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
        dnnl::primitive_attr attr;
        attr.set_post_ops(ops);
        // Pieces of one convolution run at once on the pool's threads:
        // each thread passes its own scratchpad (withScratchpad).
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        // A 3x3, stride-1, undilated window goes through Winograd F(2x2,
        // 3x3) where oneDNN has it (AVX-512, channels in blocks of 16): 2.25x
        // fewer multiplies, 0.58-0.62 against 0.97 ms for a ResNet-18 stage-1
        // conv; its transforms only scale by 1/2, so the error stays within
        // a few ulp of the sum. Every other window is direct.
        bool winograd = groups == 1 && wd[2] == 3 && wd[3] == 3 &&
                        window[0] == 1 && window[1] == 1 && window[6] == 1 &&
                        window[7] == 1 && wd[0] % 16 == 0 && wd[1] % 16 == 0;
        dnnl::convolution_forward::primitive_desc pd;
        auto tryMake = [&](dnnl::algorithm algorithm, bool exact) {
          try {
            pd = dnnl::convolution_forward::primitive_desc(
                descOf(algorithm, exact), attr, cpuEngine());
            return true;
          } catch (const dnnl::error &) {
            return false;
          }
        };
        bool found = false;
        for (bool exact : {true, false}) {
          if (exact && !blocks.x && !blocks.y)
            continue;
          found = (winograd &&
                   tryMake(dnnl::algorithm::convolution_winograd, exact)) ||
                  tryMake(dnnl::algorithm::convolution_direct, exact);
          if (found)
            break;
        }
        if (!found) {
          fusedConvs.erase(key);
          return nullptr;
        }
        auto made = std::make_unique<FusedConv>();
        made->primitive = dnnl::convolution_forward(pd);
        std::vector<memory> &packings =
            fusedConvWeights[w->aligned + w->offset];
        for (const memory &packed : packings)
          if (packed.get_desc() == pd.weights_desc())
            made->weights = packed;
        if (!made->weights) {
          memory plainW(memory::desc(convW, memory::data_type::f32, wTag),
                        cpuEngine(), w->aligned + w->offset);
          made->weights = memory(pd.weights_desc(), cpuEngine());
          dnnl::stream stream(cpuEngine());
          dnnl::reorder(plainW, made->weights)
              .execute(stream, plainW, made->weights);
          stream.wait();
          packings.push_back(made->weights);
        }
        dnnl::primitive_attr reorderAttr;
        reorderAttr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        made->reorderSrc = pd.src_desc() != xDesc;
        made->reorderDst = pd.dst_desc() != yDesc;
        if (made->reorderSrc) {
          made->src = memory(pd.src_desc(), cpuEngine());
          made->toSrc = dnnl::reorder(dnnl::reorder::primitive_desc(
              cpuEngine(), xDesc, cpuEngine(), pd.src_desc(), reorderAttr));
        }
        if (made->reorderDst) {
          made->dst = memory(pd.dst_desc(), cpuEngine());
          made->toDst = dnnl::reorder(dnnl::reorder::primitive_desc(
              cpuEngine(), pd.dst_desc(), cpuEngine(), yDesc, reorderAttr));
        }
        if (r)
          made->residualToDst = dnnl::reorder(dnnl::reorder::primitive_desc(
              cpuEngine(), rDesc, cpuEngine(), pd.dst_desc(), reorderAttr));
        entry = std::move(made);
      } catch (const dnnl::error &) {
        fusedConvs.erase(key);
        return nullptr;
      }
    }
    conv = entry.get();
  }
  return conv;
}

/// Runs `conv` (fusedConvFor of the same views) on the calling thread.
void runFusedConv(FusedConv *conv, const MemRef<float, 4> &x,
                  const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                  const MemRef<float, 4> &y, const ConvBlocks &blocks) {
  using dnnl::memory;
  memory::desc xDesc = viewDesc(x, blocks.x), yDesc = viewDesc(y, blocks.y);
  memory::desc rDesc = r ? viewDesc(*r, blocks.r) : memory::desc();
  int64_t channels = y.sizes[1];
  std::lock_guard<std::mutex> busy(conv->mutex);
  memory xMem(xDesc, cpuEngine(), x.aligned + x.offset);
  memory yMem(yDesc, cpuEngine(), y.aligned + y.offset);
  memory biasMem;
  if (bias)
    biasMem = memory(
        memory::desc({channels}, memory::data_type::f32, memory::format_tag::a),
        cpuEngine(), bias->aligned + bias->offset);
  memory src = conv->reorderSrc ? conv->src : xMem;
  memory dst = conv->reorderDst ? conv->dst : yMem;
  // The residual already in place (Y is R) needs no copy.
  bool residualInPlace = r && !conv->reorderDst &&
                         r->aligned + r->offset == y.aligned + y.offset &&
                         rDesc == yDesc;
  // Runs `p` on its arguments plus this thread's scratchpad.
  auto run = [](dnnl::stream &stream, const dnnl::primitive &p,
                std::unordered_map<int, memory> args) {
    p.execute(stream, withScratchpad(p, std::move(args)));
  };
  runOnStream([&](dnnl::stream &stream) {
    if (conv->reorderSrc)
      run(stream, conv->toSrc, {{DNNL_ARG_FROM, xMem}, {DNNL_ARG_TO, src}});
    if (r && !residualInPlace) {
      memory rMem(rDesc, cpuEngine(), r->aligned + r->offset);
      run(stream, conv->residualToDst,
          {{DNNL_ARG_FROM, rMem}, {DNNL_ARG_TO, dst}});
    }
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, conv->weights},
        {DNNL_ARG_DST, dst}};
    if (bias)
      args.emplace(DNNL_ARG_BIAS, biasMem);
    run(stream, conv->primitive, std::move(args));
    if (conv->reorderDst)
      run(stream, conv->toDst, {{DNNL_ARG_FROM, dst}, {DNNL_ARG_TO, yMem}});
  });
}

/// Y = act(conv2d(X, W) + bias (+ R)) on NCHW views through oneDNN, cut
/// into one piece per thread of the pool, each a primitive planned for one
/// thread: blocks of output rows (each reads its rows of X, padded only at
/// the edges of X; the pieces share W's packing), or for outputs of few
/// rows blocks of output channels (each with its slice of W). Rows first:
/// a Winograd convolution transforms all of its input whatever its output
/// channels, so channel pieces would each transform all of X. False when
/// oneDNN has no kernel for them (the caller then computes it otherwise).
bool convolveFused(const MemRef<float, 4> &x, const MemRef<float, 4> *w,
                   const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                   const int64_t window[9], bool relu,
                   const MemRef<float, 4> &y, int threads,
                   const ConvBlocks &blocks) {
  TeamSize team(1);
  // Below AVX-512, 3x3 windows by Winograd (2.25x or 4x fewer multiplies
  // than oneDNN's direct kernels there, which run near the FMA peak).
  if (int64_t tile = winogradTile(window, *w, x, y, r, blocks)) {
    winogradConvolve(x, *w, bias, r, window, relu, y, threads, blocks, tile);
    return true;
  }
  struct Piece {
    MemRef<float, 4> x, w, y, r;
    MemRef<float, 1> bias;
    int64_t window[9];
    FusedConv *conv;
  };
  int64_t rows = y.sizes[2], channels = w->sizes[0], images = y.sizes[0];
  // At least 4 output rows, or two blocks of 16 channels, per piece.
  int64_t rowParts = std::min<int64_t>(threads, rows / 4);
  // (Channel pieces of a grouped convolution would cut its groups.)
  int64_t channelParts = channels % 16 == 0 && window[8] == 1
                             ? std::min<int64_t>(threads, channels / 32)
                             : 1;
  // A block of rows of a blocked tensor is no layout oneDNN's kernels take,
  // nor are some channels of several images: with blocked operands the
  // pieces are runs of images, or with fewer images than threads each
  // image's output channels in blocks of 16 (a multiple of every block).
  int64_t imageParts = 1;
  if (blocks.any()) {
    rowParts = 0;
    if (threads > 1 && (images >= threads || channelParts <= 1)) {
      imageParts = std::min<int64_t>(threads, images);
      channelParts = 1;
    } else if (threads > 1) {
      imageParts = images;
      channelParts = std::min<int64_t>(threads / images, channels / 32);
    }
  }
  channelParts = std::max<int64_t>(channelParts, 1);
  bool byRows = rowParts >= std::max<int64_t>(channelParts, 2);
  int64_t parts =
      std::max<int64_t>(byRows ? rowParts : imageParts * channelParts, 1);
  std::vector<Piece> pieces(parts);
  auto slice = [](const MemRef<float, 4> &m, int dim, int64_t begin,
                  int64_t end) {
    MemRef<float, 4> v = m;
    v.offset += begin * m.strides[dim];
    v.sizes[dim] = end - begin;
    return v;
  };
  // Every piece's primitive first, on this thread, so that a piece oneDNN
  // has no kernel for leaves Y (and an in-place residual) untouched.
  for (int64_t p = 0; p < parts; ++p) {
    Piece &piece = pieces[p];
    piece.x = x;
    piece.w = *w;
    if (bias)
      piece.bias = *bias;
    piece.y = y;
    if (r)
      piece.r = *r;
    std::copy(window, window + 9, piece.window);
    if (byRows) {
      int64_t begin = pieceStart(rows, parts, p),
              end = pieceStart(rows, parts, p + 1);
      // Input rows [first, last) of output rows [begin, end), in the
      // coordinates of the padded input.
      int64_t stride = window[0], padTop = window[2], height = x.sizes[2];
      int64_t extent = (w->sizes[2] - 1) * window[6] + 1;
      int64_t first = begin * stride - padTop;
      int64_t last = (end - 1) * stride - padTop + extent;
      piece.x = slice(x, 2, std::max<int64_t>(first, 0),
                      std::min(last, height));
      piece.window[2] = std::max<int64_t>(-first, 0);
      piece.window[4] = std::max<int64_t>(last - height, 0);
      piece.y = slice(y, 2, begin, end);
      if (r)
        piece.r = slice(*r, 2, begin, end);
    } else {
      int64_t image = p / channelParts, part = p % channelParts;
      if (imageParts > 1) {
        int64_t first = pieceStart(images, imageParts, image),
                last = pieceStart(images, imageParts, image + 1);
        piece.x = slice(x, 0, first, last);
        piece.y = slice(y, 0, first, last);
        if (r)
          piece.r = slice(*r, 0, first, last);
      }
      int64_t begin = pieceStart(channels, channelParts, part, 16),
              end = pieceStart(channels, channelParts, part + 1, 16);
      piece.w.offset += begin * w->strides[0];
      piece.w.sizes[0] = end - begin;
      if (bias) {
        piece.bias.offset += begin * bias->strides[0];
        piece.bias.sizes[0] = end - begin;
      }
      piece.y = slice(piece.y, 1, begin, end);
      if (r)
        piece.r = slice(piece.r, 1, begin, end);
    }
    // Pieces of equal views (runs of images) each get their own primitive
    // and buffers.
    piece.conv = fusedConvFor(piece.x, &piece.w, bias ? &piece.bias : nullptr,
                              r ? &piece.r : nullptr, piece.window, relu,
                              piece.y, byRows ? p : p / channelParts, blocks);
    if (!piece.conv)
      return false;
  }
  parallelFor(parts, threads, [&](int64_t p) {
    const Piece &piece = pieces[p];
    runFusedConv(piece.conv, piece.x, bias ? &piece.bias : nullptr,
                 r ? &piece.r : nullptr, piece.y, blocks);
  });
  return true;
}
#endif

/// The transpose of a matrix view (no data moves).
template <typename T> Matrix<T> transposed(Matrix<T> m) {
  return {m.data, m.cols, m.rows, m.colStride, m.rowStride};
}

/// Y = act(W X + bias (+ R)) per image for a 1x1 window with unit strides,
/// no padding and one group: a GEMM per image of [channels, pixels]
/// matrices read where they are, in whichever layout each tensor has (NCHW
/// or NHWC: H and W fold into one run of pixels). oneDNN's convolutions
/// want their own blocked (nChw16c) layouts and reorder X in and Y out of
/// them around each call: 11 of ResNet-50's 78 ms on a Zen 4 (2026-12-06),
/// where the products themselves run as fast as GEMMs (dnnl_sgemm took
/// 0.9-1.8 ms for its bottlenecks' 1x1 products, as the brgemm convolution
/// did). Y with channels last is computed as Y^T = X^T W^T, the packed-B
/// product with bias, ReLU and residual as post-ops; Y with channels first
/// as W X by blocks of channels, the epilogue along its rows. False
/// (nothing written) for any other convolution or layout.
template <typename T>
bool convolve1x1AsGemm(const MemRef<T, 4> &x, const MemRef<T, 4> *w,
                       const MemRef<T, 1> *bias, const MemRef<T, 4> *r,
                       const int64_t window[9], bool relu,
                       const MemRef<T, 4> &y, int threads) {
  if (w->sizes[2] != 1 || w->sizes[3] != 1 || window[0] != 1 ||
      window[1] != 1 || window[2] != 0 || window[3] != 0 || window[4] != 0 ||
      window[5] != 0 || window[8] != 1)
    return false;
  int64_t n = y.sizes[0], o = y.sizes[1], hw = y.sizes[2] * y.sizes[3];
  // Image `i` of `m` as [channels, pixels], or nothing when its pixels are
  // not one run of equal strides.
  auto image = [&](const MemRef<T, 4> &m, int64_t i) -> std::optional<Matrix<T>> {
    for (int d = 0; d < 4; ++d)
      if (m.strides[d] < 0)
        return std::nullopt;
    if (m.sizes[2] > 1 && m.strides[2] != m.sizes[3] * m.strides[3])
      return std::nullopt;
    return Matrix<T>{m.aligned + m.offset + i * m.strides[0], m.sizes[1], hw,
                     m.strides[1], m.strides[3]};
  };
  if (!image(x, 0) || !image(y, 0) || (r && !image(*r, 0)))
    return false;
  // X, Y and R in one layout: across layouts one GEMM operand is read
  // transposed, which took up to twice the convolution's time.
  auto channelsLastOf = [](const MemRef<T, 4> &m) { return m.strides[1] == 1; };
  if (hw > 1 && (channelsLastOf(x) != channelsLastOf(y) ||
                 (r && channelsLastOf(*r) != channelsLastOf(y))))
    return false;
  // Y written over R (the memory plan's residual that dies here, which
  // reaches this path where the channels do not fill oneDNN's block):
  // both GEMMs below write C before they add R, so R is read from a copy.
  std::vector<T> rStorage;
  MemRef<T, 4> rCopy;
  if (r && sharesBytes(*r, y)) {
    rCopy = copyOfView(*r, rStorage);
    r = &rCopy;
  }
  Matrix<T> weights{w->aligned + w->offset, o, w->sizes[1], w->strides[0],
                    w->strides[1]};
  // A GEMM's epilogue is act(C + bias) + R, the convolution's act(C + bias
  // + R): the ReLU goes after it.
  GemmEpilogue<T> epilogue;
  if (bias) {
    epilogue.bias = bias->aligned + bias->offset;
    epilogue.biasStride = bias->strides[0];
  }
  epilogue.activation = relu && !r ? GemmActivation::Relu : GemmActivation::None;
  epilogue.residual = r != nullptr;
  GemmEpilogue<T> reluAfter;
  reluAfter.activation = relu && r ? GemmActivation::Relu : GemmActivation::None;
  bool channelsLast = y.strides[1] == 1 && hw > 1;
  if (channelsLast) {
    for (int64_t i = 0; i < n; ++i) {
      Matrix<T> xt = transposed(*image(x, i)), yt = transposed(*image(y, i));
      Matrix<T> rt = r ? transposed(*image(*r, i)) : Matrix<T>{};
#ifdef RELAX_RUNTIME_HAS_DNNL
      if constexpr (std::is_same_v<T, float>)
        if (multiplyPacked(xt, transposed(weights), yt, threads, epilogue,
                           rt)) {
          applyEpilogue(yt, reluAfter, rt);
          continue;
        }
#endif
      multiplySplit(xt, transposed(weights), yt, threads);
      applyEpilogue(yt, epilogue, rt);
      applyEpilogue(yt, reluAfter, rt);
    }
    return true;
  }
  // Blocks of output channels (each reads all of X), so that one image
  // still uses every thread.
  int64_t parts = std::max<int64_t>(1, std::min<int64_t>(threads, o / 16));
  parallelFor(n * parts, threads, [&](int64_t task) {
    int64_t i = task / parts, p = task % parts;
    int64_t begin = pieceStart(o, parts, p, 16),
            end = pieceStart(o, parts, p + 1, 16);
    if (begin == end)
      return;
    Matrix<T> ym = rowsOf(*image(y, i), begin, end);
    multiply(rowsOf(weights, begin, end), *image(x, i), ym);
    Matrix<T> rm = r ? rowsOf(*image(*r, i), begin, end) : Matrix<T>{};
    for (int64_t c = 0; c < ym.rows; ++c) {
      T *row = ym.data + c * ym.rowStride;
      T b = bias ? epilogue.bias[(begin + c) * epilogue.biasStride] : T(0);
      if (ym.colStride == 1 && (!r || rm.colStride == 1)) {
        const T *res = r ? rm.data + c * rm.rowStride : nullptr;
        if (res)
          for (int64_t j = 0; j < hw; ++j)
            row[j] += b + res[j];
        else
          for (int64_t j = 0; j < hw; ++j)
            row[j] += b;
        if (relu)
          for (int64_t j = 0; j < hw; ++j)
            row[j] = std::max(row[j], T(0));
        continue;
      }
      for (int64_t j = 0; j < hw; ++j) {
        T &v = row[j * ym.colStride];
        v += b;
        if (r)
          v += rm.data[c * rm.rowStride + j * rm.colStride];
        if (relu)
          v = std::max(v, T(0));
      }
    }
  });
  return true;
}

/// Y = act(conv2d(X, W) + bias (+ R)) on views with strides (NCHW or
/// NHWC data): a 1x1 window as GEMMs, else oneDNN (f32), else conv2d's
/// im2col + GEMM into an NCHW buffer, then the epilogue written through Y's
/// layout.
template <typename T>
void convolveFusedStrided(const char *fn, MemRef<T, 4> &xv, MemRef<T, 4> *w,
                          MemRef<T, 1> *bias, const MemRef<T, 4> *rv,
                          const int64_t opt[kConvFusedOptions], bool relu,
                          const MemRef<T, 4> &yv, double flops) {
  int64_t n = yv.sizes[0], o = yv.sizes[1], p = yv.sizes[2], q = yv.sizes[3];
  if (w->sizes[1] > 0 &&
      convolve1x1AsGemm(xv, w, bias, rv, opt, relu, yv, threadsFor(flops)))
    return;
#ifdef RELAX_RUNTIME_HAS_DNNL
  if constexpr (std::is_same_v<T, float>)
    if (w->sizes[1] > 0 &&
        convolveFused(xv, w, bias, rv, opt, relu, yv, threadsFor(flops)))
      return;
#endif
  std::vector<T> out(n * o * p * q);
  MemRef<T, 4> dense{
      out.data(), out.data(), 0, {n, o, p, q}, {o * p * q, p * q, q, 1}};
  MemRef<int64_t, 1> window{
      const_cast<int64_t *>(opt), const_cast<int64_t *>(opt), 0, {9}, {1}};
  conv2d(fn, &xv, w, &window, &dense);
  parallelFor(n * o, threadsFor(flops), [&](int64_t image) {
    int64_t i = image / o, c = image % o;
    T b = bias->aligned[bias->offset + c * bias->strides[0]];
    const T *from = out.data() + image * p * q;
    for (int64_t a = 0; a < p; ++a)
      for (int64_t e = 0; e < q; ++e) {
        T v = from[a * q + e] + b;
        if (rv)
          v +=
              rv->aligned[rv->offset + i * rv->strides[0] + c * rv->strides[1] +
                          a * rv->strides[2] + e * rv->strides[3]];
        if (relu)
          v = std::max(v, T(0));
        yv.aligned[yv.offset + i * yv.strides[0] + c * yv.strides[1] +
                   a * yv.strides[2] + e * yv.strides[3]] = v;
      }
  });
}

/// Validates and runs Y = act(conv2d(X, W) + bias (+ R)): X, Y and R each
/// NCHW, NHWC or conv-private as `options` says (kConvFusedOptions,
/// ConvLayout), bias [o]. Blocked operands go to oneDNN as they are; where
/// it has no kernel for them, the strided path runs on NCHW copies.
template <typename T>
void conv2dFused(const char *fn, MemRef<T, 4> *x, MemRef<T, 4> *w,
                 MemRef<T, 1> *bias, MemRef<T, 4> *residual,
                 MemRef<int64_t, 1> *options, MemRef<T, 4> *y,
                 bool hasResidual) {
  if (!x || !w || !bias || !options || !y || (hasResidual && !residual)) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  if (options->sizes[0] != kConvFusedOptions) {
    reportError("%s: the options have %lld values, expected %lld", fn,
                static_cast<long long>(options->sizes[0]),
                static_cast<long long>(kConvFusedOptions));
    return;
  }
  int64_t opt[kConvFusedOptions];
  for (int i = 0; i < kConvFusedOptions; ++i)
    opt[i] = options->aligned[options->offset + i * options->strides[0]];
  for (int i = 9; i < 12; ++i)
    if (opt[i] < kNchw || opt[i] > kConvPrivate) {
      reportError("%s: option %d is %lld, expected 0, 1 or 2 (NCHW, NHWC, "
                  "conv-private)",
                  fn, i, static_cast<long long>(opt[i]));
      return;
    }
  if (opt[12] != 0 && opt[12] != 1) {
    reportError("%s: option 12 is %lld, expected 0 or 1", fn,
                static_cast<long long>(opt[12]));
    return;
  }
  MemRef<T, 4> xv, yv, rv;
  ConvBlocks blocks;
  if (!operandView(fn, "X", x, opt[9], xv, blocks.x) ||
      !operandView(fn, "Y", y, opt[10], yv, blocks.y) ||
      (hasResidual &&
       !operandView(fn, "residual", residual, opt[11], rv, blocks.r)))
    return;
  bool relu = opt[12] == 1;
  if (!checkConv(fn, &xv, w, opt, &yv))
    return;
  int64_t n = yv.sizes[0], o = yv.sizes[1], p = yv.sizes[2], q = yv.sizes[3];
  if (bias->sizes[0] != o) {
    reportError("%s: the bias has %lld values, expected %lld (W is %s)", fn,
                static_cast<long long>(bias->sizes[0]),
                static_cast<long long>(o), shapeString(w).c_str());
    return;
  }
  if (hasResidual && !std::equal(rv.sizes, rv.sizes + 4, yv.sizes)) {
    reportError("%s: the residual is %s, expected the shape of Y %s", fn,
                shapeString(residual).c_str(), shapeString(y).c_str());
    return;
  }
  if (n == 0 || o == 0 || p == 0 || q == 0)
    return;
  // Y may be the residual itself, one view in one layout (the memory plan
  // writes Y over a residual that dies at this call: MemoryPlan.h): every
  // path reads a residual element before it writes that output element, or
  // reads R from a copy. X, or a residual that shares some of Y's bytes
  // otherwise, would be overwritten while still read: those (which the
  // compiler never passes) are read from copies in their own layouts.
  std::vector<T> xStorage, rStorage;
  MemRef<T, 4> xCopy, rCopy;
  if (sharesBytes(*x, *y)) {
    xCopy = copyOfView(*x, xStorage);
    operandView(fn, "X", &xCopy, opt[9], xv, blocks.x);
  }
  if (hasResidual && sharesBytes(*residual, *y) &&
      !(sameView(*residual, *y) && opt[10] == opt[11])) {
    rCopy = copyOfView(*residual, rStorage);
    operandView(fn, "residual", &rCopy, opt[11], rv, blocks.r);
  }
  double flops = 2.0 * double(n) * double(o) * double(p * q) *
                 double(w->sizes[1] * w->sizes[2] * w->sizes[3]);
  if (!blocks.any()) {
    convolveFusedStrided(fn, xv, w, bias, hasResidual ? &rv : nullptr, opt,
                         relu, yv, flops);
    return;
  }
#ifdef RELAX_RUNTIME_HAS_DNNL
  if constexpr (std::is_same_v<T, float>)
    if (w->sizes[1] > 0 &&
        convolveFused(xv, w, bias, hasResidual ? &rv : nullptr, opt, relu, yv,
                      threadsFor(flops), blocks))
      return;
#endif
  std::vector<T> xs, rs, ys;
  MemRef<T, 4> xp = blocks.x ? plainCopy(xv, blocks.x, xs, true) : xv;
  MemRef<T, 4> rp = blocks.r ? plainCopy(rv, blocks.r, rs, true) : rv;
  MemRef<T, 4> yp = blocks.y ? plainCopy(yv, blocks.y, ys, false) : yv;
  convolveFusedStrided(fn, xp, w, bias, hasResidual ? &rp : nullptr, opt, relu,
                       yp, flops);
  if (blocks.y)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t c = 0; c < o; ++c)
        for (int64_t a = 0; a < p; ++a)
          for (int64_t e = 0; e < q; ++e)
            blockedAt(yv, blocks.y, i, c, a, e) =
                ys[((i * o + c) * p + a) * q + e];
}

} // namespace

#ifdef RELAX_RUNTIME_HAS_DNNL
void relax::runtime::blas::releaseFusedConvs() {
  fusedConvs.clear();
  fusedConvWeights.clear();
  releaseWinogradWeights();
}
#endif

#define RELAX_BLAS_DEFINE_CONV2D(T, SUFFIX)                                    \
  extern "C" void _mlir_ciface_relax_blas_conv2d_nchw_##SUFFIX(                \
      MemRef<T, 4> *x, MemRef<T, 4> *w, MemRef<int64_t, 1> *window,            \
      MemRef<T, 4> *y) {                                                       \
    conv2d("relax_blas_conv2d_nchw_" #SUFFIX, x, w, window, y);                \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_conv2d_nchw_packed_##SUFFIX(         \
      MemRef<T, 4> *x, MemRef<T, 4> *w, MemRef<int64_t, 1> *window,            \
      MemRef<T, 4> *y) {                                                       \
    conv2d("relax_blas_conv2d_nchw_packed_" #SUFFIX, x, w, window, y, true);   \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_conv2d_fused_packed_##SUFFIX(        \
      MemRef<T, 4> *x, MemRef<T, 4> *w, MemRef<T, 1> *bias,                    \
      MemRef<int64_t, 1> *options, MemRef<T, 4> *y) {                          \
    conv2dFused<T>("relax_blas_conv2d_fused_packed_" #SUFFIX, x, w, bias,      \
                   nullptr, options, y, false);                                \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_conv2d_fused_res_packed_##SUFFIX(    \
      MemRef<T, 4> *x, MemRef<T, 4> *w, MemRef<T, 1> *bias, MemRef<T, 4> *r,   \
      MemRef<int64_t, 1> *options, MemRef<T, 4> *y) {                          \
    conv2dFused("relax_blas_conv2d_fused_res_packed_" #SUFFIX, x, w, bias, r,  \
                options, y, true);                                             \
  }

RELAX_BLAS_DEFINE_CONV2D(float, f32)
RELAX_BLAS_DEFINE_CONV2D(double, f64)
