//===- ConvolutionWinogradAvx2.cpp - Winograd transforms, AVX2 ------------===//
//
// The input and output transforms of ConvolutionWinograd.cpp's F(2x2, 3x3),
// built with -mavx2 -mfma (CMakeLists.txt) and called only where the CPU
// has AVX2 (winogradChosen): eight adjacent channels, an nChw8c block or
// eight of an NHWC pixel, are one 256-bit vector. Built for plain x86-64
// the same code spilled its vectors to the stack and took the ReLU lane by
// lane (a quarter of a ResNet-18 call in perf).
//
//===----------------------------------------------------------------------===//

#include "ConvolutionWinograd.h"

#include <immintrin.h>

#include <cstring>

using namespace relax::runtime::blas;
using namespace relax::runtime::blas::winograd;

namespace {

/// Where a tile lies: its image and the top left of its 2x2 outputs.
struct TilePlace {
  int64_t image, row, col;
};
TilePlace placeOf(const Problem &problem, int64_t tile) {
  int64_t perImage = problem.tileRows * problem.tileCols;
  int64_t inImage = tile % perImage;
  return {tile / perImage, 2 * (inImage / problem.tileCols),
          2 * (inImage % problem.tileCols)};
}

/// Lanes of a transform: one channel (float) or eight adjacent ones.
template <int N> struct Lanes;
template <> struct Lanes<1> {
  using V = float;
  static constexpr int count = 1;
  static float load(const float *p) { return *p; }
  static void store(float *p, float v) { *p = v; }
  static float zero() { return 0.0f; }
  static float add(float a, float b) { return a + b; }
  static float sub(float a, float b) { return a - b; }
  static float max(float a, float b) { return a > b ? a : b; }
};
template <> struct Lanes<8> {
  using V = __m256;
  static constexpr int count = 8;
  static __m256 load(const float *p) { return _mm256_loadu_ps(p); }
  static void store(float *p, __m256 v) { _mm256_storeu_ps(p, v); }
  static __m256 zero() { return _mm256_setzero_ps(); }
  static __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
  static __m256 sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
  static __m256 max(__m256 a, __m256 b) { return _mm256_max_ps(a, b); }
};

/// V of one tile for input channels [c, c + lanes) (adjacent in memory):
/// V[p] = (B^T d B)[p] with B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1],
/// d the tile's 4x4 inputs from (h0, w0) on, zero outside X; the 16
/// positions `position` floats apart.
template <int N>
void transformInput(const MemRef<float, 4> &x, const float *base, int64_t h0,
                    int64_t w0, float *to, int64_t position) {
  using L = Lanes<N>;
  using V = typename L::V;
  int64_t height = x.sizes[2], width = x.sizes[3];
  V d[4][4];
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      int64_t h = h0 + a, w = w0 + b;
      d[a][b] = h >= 0 && h < height && w >= 0 && w < width
                    ? L::load(base + h * x.strides[2] + w * x.strides[3])
                    : L::zero();
    }
  for (int a = 0; a < 4; ++a) {
    // Row a of B^T d, then times B.
    V e[4];
    for (int b = 0; b < 4; ++b)
      e[b] = a == 0   ? L::sub(d[0][b], d[2][b])
             : a == 1 ? L::add(d[1][b], d[2][b])
             : a == 2 ? L::sub(d[2][b], d[1][b])
                      : L::sub(d[1][b], d[3][b]);
    float *row = to + 4 * a * position;
    L::store(row, L::sub(e[0], e[2]));
    L::store(row + position, L::add(e[1], e[2]));
    L::store(row + 2 * position, L::sub(e[2], e[1]));
    L::store(row + 3 * position, L::sub(e[1], e[3]));
  }
}

/// Y of one tile for output channels [o, o + lanes) (adjacent in Y, and in
/// R if any) from its M (`from`, the 16 positions `position` floats
/// apart): A^T M A with A^T = [1 1 1 0; 0 1 -1 -1], plus the bias and R,
/// then the ReLU, where the tile lies inside Y.
template <int N>
void transformOutput(const Problem &problem, float *yBase, const float *rBase,
                     int64_t o, int64_t h0, int64_t w0, const float *from,
                     int64_t position) {
  using L = Lanes<N>;
  using V = typename L::V;
  const MemRef<float, 4> &y = problem.y;
  V e[2][4];
  for (int b = 0; b < 4; ++b) {
    V m0 = L::load(from + b * position), m1 = L::load(from + (4 + b) * position),
      m2 = L::load(from + (8 + b) * position),
      m3 = L::load(from + (12 + b) * position);
    e[0][b] = L::add(L::add(m0, m1), m2);
    e[1][b] = L::sub(L::sub(m1, m2), m3);
  }
  float biasLanes[L::count] = {};
  if (problem.bias)
    for (int j = 0; j < L::count; ++j)
      biasLanes[j] = problem.bias[(o + j) * problem.biasStride];
  V bias = L::load(biasLanes);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      int64_t h = h0 + a, w = w0 + b;
      if (h >= y.sizes[2] || w >= y.sizes[3])
        continue;
      V value = b == 0 ? L::add(L::add(e[a][0], e[a][1]), e[a][2])
                       : L::sub(L::sub(e[a][1], e[a][2]), e[a][3]);
      value = L::add(value, bias);
      if (problem.r)
        value = L::add(value, L::load(rBase + h * problem.r->strides[2] +
                                      w * problem.r->strides[3]));
      if (problem.relu)
        value = L::max(value, L::zero());
      L::store(yBase + h * y.strides[2] + w * y.strides[3], value);
    }
}

} // namespace

void relax::runtime::blas::winograd::transformInputs(const Problem &problem,
                                                     int64_t first,
                                                     int64_t count, float *v,
                                                     int64_t ldv) {
  const MemRef<float, 4> &x = problem.x;
  const std::vector<int64_t> &groups = problem.xGroups;
  // Tile by tile, all channels of a tile at once: V's rows are then
  // written whole.
  for (int64_t t = 0; t < count; ++t) {
    TilePlace place = placeOf(problem, first + t);
    const float *image = x.aligned + x.offset + place.image * x.strides[0];
    int64_t h0 = place.row - problem.padTop, w0 = place.col - problem.padLeft;
    for (size_t i = 0; i + 1 < groups.size(); ++i) {
      int64_t c = groups[i];
      const float *base = image + problem.xChannels[c];
      float *to = v + t * ldv + c;
      if (groups[i + 1] - c == 8)
        transformInput<8>(x, base, h0, w0, to, count * ldv);
      else
        transformInput<1>(x, base, h0, w0, to, count * ldv);
    }
  }
}

void relax::runtime::blas::winograd::transformOutputs(const Problem &problem,
                                                      int64_t first,
                                                      int64_t count,
                                                      const float *m,
                                                      int64_t ldm) {
  const MemRef<float, 4> &y = problem.y;
  const MemRef<float, 4> *r = problem.r;
  const std::vector<int64_t> &groups = problem.yGroups;
  for (int64_t t = 0; t < count; ++t) {
    TilePlace place = placeOf(problem, first + t);
    float *yImage = y.aligned + y.offset + place.image * y.strides[0];
    const float *rImage =
        r ? r->aligned + r->offset + place.image * r->strides[0] : nullptr;
    for (size_t i = 0; i + 1 < groups.size(); ++i) {
      int64_t o = groups[i];
      float *yBase = yImage + problem.yChannels[o];
      const float *rBase = r ? rImage + problem.rChannels[o] : nullptr;
      const float *from = m + t * ldm + o;
      if (groups[i + 1] - o == 8)
        transformOutput<8>(problem, yBase, rBase, o, place.row, place.col,
                                from, count * ldm);
      else
        transformOutput<1>(problem, yBase, rBase, o, place.row, place.col,
                               from, count * ldm);
    }
  }
}
