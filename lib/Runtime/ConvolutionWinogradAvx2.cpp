//===- ConvolutionWinogradAvx2.cpp - Winograd transforms, AVX2 ------------===//
//
// The input and output transforms of ConvolutionWinograd.cpp's F(2x2, 3x3)
// and F(4x4, 3x3), built with -mavx2 -mfma (CMakeLists.txt) and called only
// where the CPU has AVX2 (winogradTile): eight adjacent channels, an nChw8c
// block or eight of an NHWC pixel, are one 256-bit vector. Built for plain
// x86-64 the same code spilled its vectors to the stack and took the ReLU
// lane by lane (a quarter of a ResNet-18 call in perf).
//
//===----------------------------------------------------------------------===//

#include "ConvolutionWinograd.h"

#include <immintrin.h>

using namespace relax::runtime::blas;
using namespace relax::runtime::blas::winograd;

namespace {

/// Where a tile lies: its image and the top left of its outputs.
struct TilePlace {
  int64_t image, row, col;
};
TilePlace placeOf(const Problem &problem, int64_t tile) {
  int64_t perImage = problem.tileRows * problem.tileCols;
  int64_t inImage = tile % perImage;
  return {tile / perImage, problem.tile * (inImage / problem.tileCols),
          problem.tile * (inImage % problem.tileCols)};
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
  /// a * k + b.
  static float fma(float a, float k, float b) { return a * k + b; }
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
  static __m256 fma(__m256 a, float k, __m256 b) {
    return _mm256_fmadd_ps(a, _mm256_set1_ps(k), b);
  }
  static __m256 max(__m256 a, __m256 b) { return _mm256_max_ps(a, b); }
};

/// The one-dimensional transforms of F(m, 3) over `alpha` = m + 2 points:
/// `input` applies B^T, `output` A^T (Lavin and Gray's matrices).
template <int M> struct Rows;
template <> struct Rows<2> {
  static constexpr int alpha = 4;
  // B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1].
  template <typename L, typename V> static void input(const V d[4], V r[4]) {
    r[0] = L::sub(d[0], d[2]);
    r[1] = L::add(d[1], d[2]);
    r[2] = L::sub(d[2], d[1]);
    r[3] = L::sub(d[1], d[3]);
  }
  // A^T = [1 1 1 0; 0 1 -1 -1].
  template <typename L, typename V> static void output(const V m[4], V o[2]) {
    o[0] = L::add(L::add(m[0], m[1]), m[2]);
    o[1] = L::sub(L::sub(m[1], m[2]), m[3]);
  }
};
template <> struct Rows<4> {
  static constexpr int alpha = 6;
  // B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0;
  //        0 2 -1 -2 1 0; 0 4 0 -5 0 1].
  template <typename L, typename V> static void input(const V d[6], V r[6]) {
    r[0] = L::fma(d[0], 4.0f, L::fma(d[2], -5.0f, d[4]));
    r[1] = L::fma(L::add(d[1], d[2]), -4.0f, L::add(d[3], d[4]));
    r[2] = L::fma(L::sub(d[1], d[2]), 4.0f, L::sub(d[4], d[3]));
    r[3] = L::fma(L::sub(d[3], d[1]), 2.0f, L::sub(d[4], d[2]));
    r[4] = L::fma(L::sub(d[1], d[3]), 2.0f, L::sub(d[4], d[2]));
    r[5] = L::fma(d[1], 4.0f, L::fma(d[3], -5.0f, d[5]));
  }
  // A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1].
  template <typename L, typename V> static void output(const V m[6], V o[4]) {
    V sum12 = L::add(m[1], m[2]), diff12 = L::sub(m[1], m[2]);
    V sum34 = L::add(m[3], m[4]), diff34 = L::sub(m[3], m[4]);
    o[0] = L::add(L::add(m[0], sum12), sum34);
    o[1] = L::fma(diff34, 2.0f, diff12);
    o[2] = L::fma(sum34, 4.0f, sum12);
    o[3] = L::add(L::fma(diff34, 8.0f, diff12), m[5]);
  }
};

/// V of one tile for input channels [c, c + lanes) (adjacent in memory):
/// V[p] = (B^T d B)[p], d the tile's alpha x alpha inputs from (h0, w0) on,
/// zero outside X; the positions `position` floats apart.
template <int M, int N>
void transformInput(const MemRef<float, 4> &x, const float *base, int64_t h0,
                    int64_t w0, float *to, int64_t position) {
  using L = Lanes<N>;
  using V = typename L::V;
  constexpr int alpha = Rows<M>::alpha;
  int64_t height = x.sizes[2], width = x.sizes[3];
  V d[alpha][alpha];
  for (int a = 0; a < alpha; ++a)
    for (int b = 0; b < alpha; ++b) {
      int64_t h = h0 + a, w = w0 + b;
      d[a][b] = h >= 0 && h < height && w >= 0 && w < width
                    ? L::load(base + h * x.strides[2] + w * x.strides[3])
                    : L::zero();
    }
  // B^T d: the columns; then times B: the rows.
  V e[alpha][alpha];
  for (int b = 0; b < alpha; ++b) {
    V column[alpha], out[alpha];
    for (int a = 0; a < alpha; ++a)
      column[a] = d[a][b];
    Rows<M>::template input<L>(column, out);
    for (int a = 0; a < alpha; ++a)
      e[a][b] = out[a];
  }
  for (int a = 0; a < alpha; ++a) {
    V out[alpha];
    Rows<M>::template input<L>(e[a], out);
    for (int b = 0; b < alpha; ++b)
      L::store(to + (a * alpha + b) * position, out[b]);
  }
}

/// Y of one tile for output channels [o, o + lanes) (adjacent in Y, and in
/// R if any) from its M (`from`, the positions `position` floats apart):
/// A^T M A, plus the bias and R, then the ReLU, where the tile lies inside
/// Y.
template <int M, int N>
void transformOutput(const Problem &problem, float *yBase, const float *rBase,
                     int64_t o, int64_t h0, int64_t w0, const float *from,
                     int64_t position) {
  using L = Lanes<N>;
  using V = typename L::V;
  constexpr int alpha = Rows<M>::alpha;
  const MemRef<float, 4> &y = problem.y;
  // A^T M: the columns.
  V e[M][alpha];
  for (int b = 0; b < alpha; ++b) {
    V column[alpha], out[M];
    for (int a = 0; a < alpha; ++a)
      column[a] = L::load(from + (a * alpha + b) * position);
    Rows<M>::template output<L>(column, out);
    for (int a = 0; a < M; ++a)
      e[a][b] = out[a];
  }
  float biasLanes[L::count] = {};
  if (problem.bias)
    for (int j = 0; j < L::count; ++j)
      biasLanes[j] = problem.bias[(o + j) * problem.biasStride];
  V bias = L::load(biasLanes);
  for (int a = 0; a < M; ++a) {
    int64_t h = h0 + a;
    if (h >= y.sizes[2])
      break;
    // Then times A: the rows.
    V row[M];
    Rows<M>::template output<L>(e[a], row);
    for (int b = 0; b < M; ++b) {
      int64_t w = w0 + b;
      if (w >= y.sizes[3])
        break;
      V value = L::add(row[b], bias);
      if (problem.r)
        value = L::add(value, L::load(rBase + h * problem.r->strides[2] +
                                      w * problem.r->strides[3]));
      if (problem.relu)
        value = L::max(value, L::zero());
      L::store(yBase + h * y.strides[2] + w * y.strides[3], value);
    }
  }
}

template <int M>
void transformInputsOf(const Problem &problem, int64_t first, int64_t count,
                       float *v, int64_t ldv) {
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
        transformInput<M, 8>(x, base, h0, w0, to, count * ldv);
      else
        transformInput<M, 1>(x, base, h0, w0, to, count * ldv);
    }
  }
}

template <int M>
void transformOutputsOf(const Problem &problem, int64_t first, int64_t count,
                        const float *m, int64_t ldm) {
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
        transformOutput<M, 8>(problem, yBase, rBase, o, place.row, place.col,
                              from, count * ldm);
      else
        transformOutput<M, 1>(problem, yBase, rBase, o, place.row, place.col,
                              from, count * ldm);
    }
  }
}

} // namespace

void relax::runtime::blas::winograd::transformInputs(const Problem &problem,
                                                     int64_t first,
                                                     int64_t count, float *v,
                                                     int64_t ldv) {
  (problem.tile == 4 ? transformInputsOf<4>
                     : transformInputsOf<2>)(problem, first, count, v, ldv);
}

void relax::runtime::blas::winograd::transformOutputs(const Problem &problem,
                                                      int64_t first,
                                                      int64_t count,
                                                      const float *m,
                                                      int64_t ldm) {
  (problem.tile == 4 ? transformOutputsOf<4>
                     : transformOutputsOf<2>)(problem, first, count, m, ldm);
}
