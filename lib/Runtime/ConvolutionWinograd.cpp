//===- ConvolutionWinograd.cpp - 3x3 convolutions by Winograd -------------===//
//
// Winograd's minimal filtering F(m x m, 3x3) (Lavin and Gray, "Fast
// Algorithms for Convolutional Neural Networks", 2016), m = 2 or 4: an
// alpha x alpha tile d of X (alpha = m + 2) and a 3x3 filter g become
// alpha^2 values each, V = B^T d B and U = G g G^T; the convolution's sum
// over input channels is, for each of the alpha^2 positions, one product of
// a [tiles, channels] matrix V by a [channels, outputs] matrix U (16 or 36
// GEMMs on oneDNN's sgemm, which the runtime's `multiply` calls); each
// tile's sums M become m x m outputs, A^T M A. F(2x2, 3x3) does 16
// multiplies for 4 outputs where the direct window takes 36 (2.25x fewer)
// and its transforms only add, subtract and halve; F(4x4, 3x3) does 36 for
// 16 (4x fewer), its transforms scale by up to 8 (and W's by 1/24, in
// double): the errors stay those of the direct sum's order on ResNet
// (docs/perf.md).
//
// Why it exists: oneDNN 2.6 has Winograd kernels from AVX-512 on only; its
// direct AVX2 kernels run ResNet's 3x3 convolutions at 90-100% of the FMA
// peak (docs/perf.md), so below AVX-512 only fewer multiplies make them
// faster, and its sgemm runs the products of a ResNet layer at 91-110
// GFLOP/s on a Zen 4 core (2026-12-07).
//
//===----------------------------------------------------------------------===//

#include "ConvolutionWinograd.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

using namespace relax::runtime::blas;

namespace {

/// Each run of tiles keeps its V and M (16 or 36 matrices each) within
/// this many floats (4 MiB), so that they stay in the caches between the
/// transforms and the GEMMs.
constexpr int64_t kRunFloats = int64_t(1) << 20;

/// U of one weight tensor: positions(tile) matrices [channels, outputs],
/// rows `ld` floats apart.
struct WinogradWeights {
  std::vector<float> u;
  int64_t ld = 0;
};

std::mutex weightsMutex;
/// By W's first element, its sizes (a module constant) and the tile.
std::map<std::tuple<const float *, int64_t, int64_t, int64_t>, WinogradWeights>
    transformedWeights;

/// Where channel c of an NCHW view (block 0) or a blocked one starts,
/// relative to its image: a blocked view's channel strides are those of
/// the blocks (operandView).
std::vector<int64_t> channelOffsets(const MemRef<float, 4> &m, int64_t block) {
  std::vector<int64_t> offsets(m.sizes[1]);
  for (int64_t c = 0; c < m.sizes[1]; ++c)
    offsets[c] =
        block ? (c - c % block) * m.strides[1] + c % block : c * m.strides[1];
  return offsets;
}

/// The channels cut into groups of 8 adjacent in memory in each of
/// `views` (the inner loops of the transforms run over them) and single
/// ones elsewhere: the first channel of each group, then the end.
std::vector<int64_t>
channelGroups(std::initializer_list<const std::vector<int64_t> *> views) {
  int64_t channels = int64_t(views.begin()[0]->size());
  std::vector<int64_t> starts;
  for (int64_t c = 0; c < channels;) {
    starts.push_back(c);
    bool adjacent = c + 8 <= channels;
    for (const std::vector<int64_t> *offsets : views)
      for (int64_t j = 1; adjacent && j < 8; ++j)
        adjacent = (*offsets)[c + j] == (*offsets)[c] + j;
    c += adjacent ? 8 : 1;
  }
  starts.push_back(channels);
  return starts;
}

/// G of F(m x m, 3x3), alpha x 3 (alpha = m + 2), Lavin and Gray's.
const double kG2[4][3] = {
    {1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
const double kG4[6][3] = {{1.0 / 4, 0, 0},
                          {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                          {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                          {1.0 / 24, 1.0 / 12, 1.0 / 6},
                          {1.0 / 24, -1.0 / 12, 1.0 / 6},
                          {0, 0, 1}};

/// U = G g G^T for every (input, output) channel pair, made once per weight
/// tensor and tile (in double, rounded once).
const WinogradWeights &weightsFor(const MemRef<float, 4> &w, int64_t tile) {
  int64_t outputs = w.sizes[0], channels = w.sizes[1];
  std::lock_guard<std::mutex> lock(weightsMutex);
  WinogradWeights &entry =
      transformedWeights[{w.aligned + w.offset, outputs, channels, tile}];
  if (!entry.u.empty())
    return entry;
  int alpha = int(tile) + 2;
  auto g = [&](int i, int j) { return tile == 4 ? kG4[i][j] : kG2[i][j]; };
  // sgemm's AVX2 kernels slow down twice when B's rows are a multiple of
  // 4 KiB apart (docs/extern.md): such rows get 16 floats more.
  entry.ld = (outputs * 4) % 4096 == 0 ? outputs + 16 : outputs;
  entry.u.assign(winograd::positions(tile) * channels * entry.ld, 0.0f);
  for (int64_t o = 0; o < outputs; ++o)
    for (int64_t c = 0; c < channels; ++c) {
      const float *filter =
          w.aligned + w.offset + o * w.strides[0] + c * w.strides[1];
      double gf[6][3];
      for (int i = 0; i < alpha; ++i)
        for (int s = 0; s < 3; ++s) {
          gf[i][s] = 0;
          for (int r = 0; r < 3; ++r)
            gf[i][s] += g(i, r) * filter[r * w.strides[2] + s * w.strides[3]];
        }
      for (int i = 0; i < alpha; ++i)
        for (int j = 0; j < alpha; ++j) {
          double u = 0;
          for (int s = 0; s < 3; ++s)
            u += gf[i][s] * g(j, s);
          entry.u[((i * alpha + j) * channels + c) * entry.ld + o] = float(u);
        }
    }
  return entry;
}

/// Whether a view (blocked when `block`) holds its channels innermost:
/// blocked or NHWC, where the transforms read eight channels at once.
bool channelsInner(const MemRef<float, 4> &m, int64_t block) {
  return block || m.sizes[1] == 1 || m.strides[1] == 1;
}

/// winogradConvolve on the views as they are.
void convolveViews(const MemRef<float, 4> &x, const MemRef<float, 4> &w,
                   const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                   const int64_t window[9], bool relu,
                   const MemRef<float, 4> &y, int threads,
                   const ConvBlocks &blocks, int64_t tile) {
  int64_t images = y.sizes[0], outputs = y.sizes[1], channels = x.sizes[1];
  std::vector<int64_t> xChannels = channelOffsets(x, blocks.x);
  std::vector<int64_t> yChannels = channelOffsets(y, blocks.y);
  std::vector<int64_t> rChannels =
      r ? channelOffsets(*r, blocks.r) : std::vector<int64_t>();
  std::vector<int64_t> xGroups = channelGroups({&xChannels});
  std::vector<int64_t> yGroups =
      r ? channelGroups({&yChannels, &rChannels}) : channelGroups({&yChannels});
  winograd::Problem problem{x,
                            y,
                            r,
                            xChannels,
                            yChannels,
                            rChannels,
                            xGroups,
                            yGroups,
                            tile,
                            (y.sizes[2] + tile - 1) / tile,
                            (y.sizes[3] + tile - 1) / tile,
                            window[2],
                            window[3],
                            bias ? bias->aligned + bias->offset : nullptr,
                            bias ? bias->strides[0] : 0,
                            relu};
  int64_t tiles = images * problem.tileRows * problem.tileCols;
  if (tiles == 0 || outputs == 0)
    return;
  const WinogradWeights &u = weightsFor(w, tile);
  int64_t positions = winograd::positions(tile);
  // Runs of tiles: V and M within kRunFloats, and at least one run per
  // thread.
  int64_t ldv = channels, ldm = outputs;
  int64_t run = std::max<int64_t>(8, kRunFloats / (positions * (ldv + ldm)));
  if (threads > 1)
    run = std::min(run, (tiles + threads - 1) / threads);
  run = std::min(run, tiles);
  int64_t runs = (tiles + run - 1) / run;
  parallelFor(runs, threads, [&](int64_t q) {
    int64_t first = q * run, count = std::min(run, tiles - first);
    // Kept across calls: a fresh buffer would be faulted in every time.
    static thread_local std::vector<float> buffer;
    buffer.resize(positions * run * (ldv + ldm));
    float *v = buffer.data(), *m = v + positions * run * ldv;
    winograd::transformInputs(problem, first, count, v, ldv);
    for (int64_t p = 0; p < positions; ++p)
      multiply(
          Matrix<float>{v + p * count * ldv, count, channels, ldv, 1},
          Matrix<float>{const_cast<float *>(u.u.data()) + p * channels * u.ld,
                        channels, outputs, u.ld, 1},
          Matrix<float>{m + p * count * ldm, count, outputs, ldm, 1});
    winograd::transformOutputs(problem, first, count, m, ldm);
  });
}

#ifdef RELAX_RUNTIME_HAS_DNNL
/// A dense nChw8c tensor of `m`'s sizes in `storage` (a blocked view, as
/// operandView makes), holding `m`'s values when `copyIn`.
MemRef<float, 4> blockedCopy(const MemRef<float, 4> &m,
                             std::vector<float> &storage, bool copyIn) {
  int64_t n = m.sizes[0], c = m.sizes[1], h = m.sizes[2], w = m.sizes[3];
  storage.resize(n * c * h * w);
  MemRef<float, 4> blocked{storage.data(),
                           storage.data(),
                           0,
                           {n, c, h, w},
                           {c * h * w, h * w, w * 8, 8}};
  if (copyIn)
    reorderBlocked(m, blocked, true);
  return blocked;
}
#endif

} // namespace

int64_t relax::runtime::blas::winogradTile(const int64_t window[9],
                                           const MemRef<float, 4> &w,
                                           const MemRef<float, 4> &x,
                                           const MemRef<float, 4> &y,
                                           const MemRef<float, 4> *r,
                                           const ConvBlocks &blocks) {
  // 0: never; 2 or 4: that tile wherever the window fits; -1 (unset or
  // anything else): by the rule below.
  static const int mode = [] {
    const char *set = std::getenv("RELAX_CONV_WINOGRAD");
    std::string value = set ? set : "";
    return value == "0" ? 0 : value == "2" ? 2 : value == "4" ? 4 : -1;
  }();
  bool fits = w.sizes[2] == 3 && w.sizes[3] == 3 && window[0] == 1 &&
              window[1] == 1 && window[6] == 1 && window[7] == 1 &&
              window[8] == 1 && w.sizes[0] > 0 && w.sizes[1] > 0;
  if (!fits || mode == 0)
    return 0;
  // The transforms are AVX2 code (ConvolutionWinogradAvx2.cpp).
  if (relax::runtime::cpuIsa() == relax::runtime::CpuIsa::Generic)
    return 0;
  if (mode > 0)
    return mode;
  // Tiles of m x m outputs over all images.
  auto tiles = [&](int64_t m) {
    return y.sizes[0] * ((y.sizes[2] + m - 1) / m) * ((y.sizes[3] + m - 1) / m);
  };
  // Channels innermost, or in 8-blocks of an nChw8c copy.
  auto fits8 = [](const MemRef<float, 4> &m, int64_t block) {
    return channelsInner(m, block) || m.sizes[1] % 8 == 0;
  };
  if (relax::runtime::cpuIsa() != relax::runtime::CpuIsa::Avx2 ||
      !fits8(x, blocks.x) || !fits8(y, blocks.y) ||
      (r && !fits8(*r, blocks.r)) || w.sizes[0] < 32 || w.sizes[1] < 32)
    return 0;
  return tiles(4) >= 32 ? 4 : tiles(2) >= 32 ? 2 : 0;
}

#ifdef RELAX_RUNTIME_HAS_DNNL
void relax::runtime::blas::reorderBlocked(const MemRef<float, 4> &plain,
                                          const MemRef<float, 4> &blocked,
                                          bool toBlocked) {
  using dnnl::memory;
  memory::dims dims(plain.sizes, plain.sizes + 4);
  memory plainMem(memory::desc(dims, memory::data_type::f32,
                               memory::dims(plain.strides, plain.strides + 4)),
                  cpuEngine(), plain.aligned + plain.offset);
  memory blockedMem(
      memory::desc(dims, memory::data_type::f32, memory::format_tag::nChw8c),
      cpuEngine(), blocked.aligned + blocked.offset);
  memory &from = toBlocked ? plainMem : blockedMem;
  memory &to = toBlocked ? blockedMem : plainMem;
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  // oneDNN's primitive cache makes the second and later of these cheap.
  dnnl::reorder reorder(dnnl::reorder::primitive_desc(
      cpuEngine(), from.get_desc(), cpuEngine(), to.get_desc(), attr));
  runOnStream([&](dnnl::stream &stream) {
    reorder.execute(stream, withScratchpad(reorder, {{DNNL_ARG_FROM, from},
                                                     {DNNL_ARG_TO, to}}));
  });
}
#endif

void relax::runtime::blas::winogradConvolve(
    const MemRef<float, 4> &x, const MemRef<float, 4> &w,
    const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
    const int64_t window[9], bool relu, const MemRef<float, 4> &y, int threads,
    const ConvBlocks &blocks, int64_t tile) {
#ifdef RELAX_RUNTIME_HAS_DNNL
  // NCHW operands whose channels fill 8-blocks go through nChw8c copies
  // (oneDNN's reorders, as its direct kernels would reorder them): the
  // transforms then read and write eight channels at once. R first, as Y
  // may be R.
  auto copied = [](const MemRef<float, 4> &m, int64_t block) {
    return !channelsInner(m, block) && m.sizes[1] % 8 == 0;
  };
  if (copied(x, blocks.x) || copied(y, blocks.y) ||
      (r && copied(*r, blocks.r))) {
    std::vector<float> xs, ys, rs;
    ConvBlocks inner = blocks;
    MemRef<float, 4> xb = x, yb = y, rb = r ? *r : MemRef<float, 4>{};
    if (copied(x, blocks.x)) {
      xb = blockedCopy(x, xs, true);
      inner.x = 8;
    }
    if (r && copied(*r, blocks.r)) {
      rb = blockedCopy(*r, rs, true);
      inner.r = 8;
    }
    if (copied(y, blocks.y)) {
      yb = blockedCopy(y, ys, false);
      inner.y = 8;
    }
    convolveViews(xb, w, bias, r ? &rb : nullptr, window, relu, yb, threads,
                  inner, tile);
    if (inner.y != blocks.y)
      reorderBlocked(y, yb, false);
    return;
  }
#endif
  convolveViews(x, w, bias, r, window, relu, y, threads, blocks, tile);
}

void relax::runtime::blas::releaseWinogradWeights() {
  std::lock_guard<std::mutex> lock(weightsMutex);
  transformedWeights.clear();
}
