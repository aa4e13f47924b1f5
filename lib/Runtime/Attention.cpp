//===- Attention.cpp - Attention of the CPU BLAS binding ------------------===//
//
// The relax_blas_attention_* entry points: O = attention(Q, K, V[, mask])
// per block of query rows over two GEMMs (the scores, then the weighted
// values), the softmax's exponentials through libmvec where the CPU has
// AVX-512 or AVX2.
//
//===----------------------------------------------------------------------===//

#include "BlasSupport.h"
#include "CpuGemv.h"

#include <immintrin.h>

#include <type_traits>
#include <vector>

using namespace relax::runtime::blas;

namespace {

// Exponentials of a row of scores: glibc's vector math library (libmvec)
// where the CPU has AVX-512 or AVX2 (cpuIsa(), CpuGemv.h), libm's scalar
// expf elsewhere. The vector
// variants are only declared and called inside functions compiled for
// AVX-512, so the rest of the runtime keeps the baseline ISA. The ISA is
// given per function (the target attribute, which GCC and clang both
// honour; `#pragma GCC target` is GCC's only, and clang, which builds the
// sanitizer and fuzzer configurations, ignores it).
#define RELAX_AVX512 __attribute__((target("avx512f")))
#define RELAX_AVX2_FMA __attribute__((target("avx2,fma")))
// GCC 12's AVX-512 headers build some intrinsics on _mm512_undefined_ps(),
// which -Wuninitialized then reports at every use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
extern "C" RELAX_AVX512 __m512 _ZGVeN16v_expf(__m512);

/// exp of 16 shifted scores. libmvec's fast path covers arguments above
/// about -87.3; below it (masked keys: -inf, -1e9) each lane would go
/// through scalar expf with its underflow handling, which measured 7% of a
/// causal Llama block. Those lanes are exactly 0 in float anyway, so they
/// are clamped for the call and zeroed after it; NaN stays NaN (max_ps
/// returns its second operand when either is NaN).
RELAX_AVX512 inline __m512 expShifted16(__m512 d) {
  const __m512 lowest = _mm512_set1_ps(-87.0f);
  __m512 e = _ZGVeN16v_expf(_mm512_max_ps(lowest, d));
  __mmask16 below = _mm512_cmp_ps_mask(d, lowest, _CMP_LT_OQ);
  if (!below)
    return e;
  // exp(d) < 2^-126 for these lanes: 0 below -104 (it rounds to 0), a
  // subnormal between (rare: an unmasked score that far below the max),
  // computed exactly.
  __mmask16 zero = _mm512_cmp_ps_mask(d, _mm512_set1_ps(-104.0f), _CMP_LT_OQ);
  if (__mmask16 subnormal = below & static_cast<__mmask16>(~zero))
    e = _mm512_mask_mov_ps(e, subnormal, _ZGVeN16v_expf(d));
  return _mm512_mask_mov_ps(e, zero, _mm512_setzero_ps());
}

/// x[j] = exp(x[j] - max) for j < n; returns the sum.
RELAX_AVX512 float expShiftedAvx512(float *x, int64_t n, float max) {
  __m512 shift = _mm512_set1_ps(max);
  __m512 sum = _mm512_setzero_ps();
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m512 e = expShifted16(_mm512_sub_ps(_mm512_loadu_ps(x + j), shift));
    _mm512_storeu_ps(x + j, e);
    sum = _mm512_add_ps(sum, e);
  }
  if (j < n) {
    __mmask16 tail = static_cast<__mmask16>((1u << (n - j)) - 1);
    __m512 e = expShifted16(_mm512_sub_ps(
        _mm512_mask_loadu_ps(_mm512_setzero_ps(), tail, x + j), shift));
    _mm512_mask_storeu_ps(x + j, tail, e);
    sum = _mm512_mask_add_ps(sum, tail, sum, e);
  }
  return _mm512_reduce_add_ps(sum);
}

/// x[j] = x[j] * scale (+ add[j]) for j < n; returns the max. (A NaN score
/// is skipped by the max, as max_ps returns its second operand, and still
/// makes the row NaN through its exponential.)
RELAX_AVX512 float scaleMaskMaxAvx512(float *x, int64_t n, float scale, const float *add) {
  __m512 factor = _mm512_set1_ps(scale);
  __m512 max = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m512 v = _mm512_mul_ps(_mm512_loadu_ps(x + j), factor);
    if (add)
      v = _mm512_add_ps(v, _mm512_loadu_ps(add + j));
    _mm512_storeu_ps(x + j, v);
    max = _mm512_max_ps(v, max);
  }
  if (j < n) {
    __mmask16 tail = static_cast<__mmask16>((1u << (n - j)) - 1);
    __m512 v = _mm512_mul_ps(
        _mm512_mask_loadu_ps(_mm512_setzero_ps(), tail, x + j), factor);
    if (add)
      v = _mm512_add_ps(
          v, _mm512_mask_loadu_ps(_mm512_setzero_ps(), tail, add + j));
    _mm512_mask_storeu_ps(x + j, tail, v);
    max = _mm512_mask_max_ps(max, tail, v, max);
  }
  return _mm512_reduce_max_ps(max);
}
#pragma GCC diagnostic pop

// The same two passes with libmvec's AVX2 variant, 8 lanes, for CPUs with
// AVX2 and FMA but no AVX-512 (and for RELAX_MAX_CPU_ISA=avx2). Tails run
// the scalar code of the portable path.
extern "C" RELAX_AVX2_FMA __m256 _ZGVdN8v_expf(__m256);

/// exp of 8 shifted scores, with expShifted16's handling of the lanes
/// below libmvec's fast path.
RELAX_AVX2_FMA inline __m256 expShifted8(__m256 d) {
  const __m256 lowest = _mm256_set1_ps(-87.0f);
  __m256 e = _ZGVdN8v_expf(_mm256_max_ps(lowest, d));
  __m256 below = _mm256_cmp_ps(d, lowest, _CMP_LT_OQ);
  if (_mm256_testz_ps(below, below))
    return e;
  __m256 zero = _mm256_cmp_ps(d, _mm256_set1_ps(-104.0f), _CMP_LT_OQ);
  __m256 subnormal = _mm256_andnot_ps(zero, below);
  if (!_mm256_testz_ps(subnormal, subnormal))
    e = _mm256_blendv_ps(e, _ZGVdN8v_expf(d), subnormal);
  return _mm256_andnot_ps(zero, e);
}

/// x[j] = exp(x[j] - max) for j < n; returns the sum.
RELAX_AVX2_FMA float expShiftedAvx2(float *x, int64_t n, float max) {
  __m256 shift = _mm256_set1_ps(max);
  __m256 sum = _mm256_setzero_ps();
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    __m256 e = expShifted8(_mm256_sub_ps(_mm256_loadu_ps(x + j), shift));
    _mm256_storeu_ps(x + j, e);
    sum = _mm256_add_ps(sum, e);
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  float total = 0;
  for (float lane : lanes)
    total += lane;
  for (; j < n; ++j)
    total += x[j] = std::exp(x[j] - max);
  return total;
}

/// x[j] = x[j] * scale (+ add[j]) for j < n; returns the max, NaN skipped
/// as in scaleMaskMaxAvx512.
RELAX_AVX2_FMA float scaleMaskMaxAvx2(float *x, int64_t n, float scale, const float *add) {
  __m256 factor = _mm256_set1_ps(scale);
  __m256 max = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    __m256 v = _mm256_mul_ps(_mm256_loadu_ps(x + j), factor);
    if (add)
      v = _mm256_add_ps(v, _mm256_loadu_ps(add + j));
    _mm256_storeu_ps(x + j, v);
    max = _mm256_max_ps(v, max);
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, max);
  float best = lanes[0];
  for (float lane : lanes)
    best = lane > best ? lane : best;
  for (; j < n; ++j) {
    float v = x[j] * scale;
    if (add)
      v += add[j];
    x[j] = v;
    best = v > best ? v : best;
  }
  return best;
}
#undef RELAX_AVX512
#undef RELAX_AVX2_FMA

/// x[j] = x[j] * scale (+ add[j * addStride]) for j < n; returns the max.
/// This pass is as long as the softmax's exponentials: a scalar max
/// reduction (one dependent maxss per score) measured a tenth of the BERT
/// layer, so unit-stride f32 rows take AVX-512 or AVX2 where the CPU has it.
template <typename T>
T scaleMaskMax(T *x, int64_t n, T scale, const T *add, int64_t addStride) {
  if constexpr (std::is_same_v<T, float>) {
    if (!add || addStride == 1 || n <= 1) {
      switch (relax::runtime::cpuIsa()) {
      case relax::runtime::CpuIsa::Avx512:
        return scaleMaskMaxAvx512(x, n, scale, add);
      case relax::runtime::CpuIsa::Avx2:
        return scaleMaskMaxAvx2(x, n, scale, add);
      case relax::runtime::CpuIsa::Generic:
        break;
      }
    }
  }
  // Four partial maxima, so the reduction is not one dependent chain.
  T max[4] = {
      -std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
      -std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity()};
  for (int64_t j = 0; j < n; ++j) {
    T v = x[j] * scale;
    if (add)
      v += add[j * addStride];
    x[j] = v;
    max[j & 3] = v > max[j & 3] ? v : max[j & 3];
  }
  return std::max(std::max(max[0], max[1]), std::max(max[2], max[3]));
}

float expShifted(float *x, int64_t n, float max) {
  switch (relax::runtime::cpuIsa()) {
  case relax::runtime::CpuIsa::Avx512:
    return expShiftedAvx512(x, n, max);
  case relax::runtime::CpuIsa::Avx2:
    return expShiftedAvx2(x, n, max);
  case relax::runtime::CpuIsa::Generic:
    break;
  }
  float sum = 0;
  for (int64_t j = 0; j < n; ++j)
    sum += x[j] = std::exp(x[j] - max);
  return sum;
}

double expShifted(double *x, int64_t n, double max) {
  double sum = 0;
  for (int64_t j = 0; j < n; ++j)
    sum += x[j] = std::exp(x[j] - max);
  return sum;
}

/// The mask operand of an attention call: none, additive (T) or boolean
/// (one byte per element), broadcast to [b, hq, s, t] by zero strides.
template <typename T> struct AttentionMaskView {
  const T *additive = nullptr;
  const uint8_t *boolean = nullptr;
  int64_t strides[4] = {0, 0, 0, 0};
};

/// Validates and runs O = attention(Q, K, V[, mask]) with relax.attention's
/// semantics (see the legalizer, lib/Relax/Transforms/Legalize/NN.cpp): per
/// (batch, head, block of query rows) the scores S = Q K^T by one GEMM,
/// then per row the scale, the mask and the softmax, then O = P V by a
/// second GEMM. Only a block's scores exist at a time.
template <typename T, typename M>
void attention(const char *fn, MemRef<T, 4> *q, MemRef<T, 4> *k,
               MemRef<T, 4> *v, MemRef<M, 4> *mask,
               MemRef<double, 1> *options, MemRef<T, 4> *o) {
  if (!q || !k || !v || !options || !o) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  if (options->sizes[0] != 2) {
    reportError("%s: the options have %lld values, expected 2", fn,
                static_cast<long long>(options->sizes[0]));
    return;
  }
  if (hasNegativeSize(q) || hasNegativeSize(k) || hasNegativeSize(v) ||
      hasNegativeSize(o) || (mask && hasNegativeSize(mask))) {
    reportError("%s: negative size in Q %s, K %s, V %s or O %s", fn,
                shapeString(q).c_str(), shapeString(k).c_str(),
                shapeString(v).c_str(), shapeString(o).c_str());
    return;
  }
  int64_t b = q->sizes[0], s = q->sizes[1], hq = q->sizes[2], d = q->sizes[3];
  int64_t t = k->sizes[1], hkv = k->sizes[2], e = v->sizes[3];
  if (k->sizes[0] != b || k->sizes[3] != d || v->sizes[0] != b ||
      v->sizes[1] != t || v->sizes[2] != hkv || hkv == 0 || hq % hkv != 0) {
    reportError("%s: Q %s, K %s and V %s do not agree (expected K [b, t, "
                "hkv, d] and V [b, t, hkv, e] with hkv dividing hq)",
                fn, shapeString(q).c_str(), shapeString(k).c_str(),
                shapeString(v).c_str());
    return;
  }
  if (o->sizes[0] != b || o->sizes[1] != s || o->sizes[2] != hq ||
      o->sizes[3] != e) {
    reportError("%s: O is %s, expected [%lld, %lld, %lld, %lld]", fn,
                shapeString(o).c_str(), (long long)b, (long long)s,
                (long long)hq, (long long)e);
    return;
  }
  AttentionMaskView<T> maskView;
  if (mask) {
    const int64_t full[4] = {b, hq, s, t};
    for (int i = 0; i < 4; ++i) {
      if (mask->sizes[i] != 1 && mask->sizes[i] != full[i]) {
        reportError("%s: the mask %s does not broadcast to [%lld, %lld, "
                    "%lld, %lld]",
                    fn, shapeString(mask).c_str(), (long long)b,
                    (long long)hq, (long long)s, (long long)t);
        return;
      }
      maskView.strides[i] = mask->sizes[i] == 1 ? 0 : mask->strides[i];
    }
    const M *base = mask->aligned + mask->offset;
    if constexpr (std::is_same_v<M, T>)
      maskView.additive = base;
    else
      maskView.boolean = reinterpret_cast<const uint8_t *>(base);
  }
  if (!fitsBlasInt(s) || !fitsBlasInt(t) || !fitsBlasInt(d) ||
      !fitsBlasInt(e)) {
    reportError("%s: dims exceed the BLAS integer range", fn);
    return;
  }
  const double *opt = options->aligned + options->offset;
  double scaleOption = opt[0];
  bool causal = opt[options->strides[0]] != 0.0;
  T scale = std::isnan(scaleOption)
                ? T(1) / std::sqrt(T(std::max<int64_t>(d, 1)))
                : T(scaleOption);
  if (b == 0 || s == 0 || hq == 0 || e == 0)
    return;
  if (t == 0) {
    // No key at all: the uniform average over zero values, 0 / 0, as the
    // legalized program gives.
    for (int64_t bi = 0; bi < b; ++bi)
      for (int64_t i = 0; i < s; ++i)
        for (int64_t h = 0; h < hq; ++h)
          for (int64_t j = 0; j < e; ++j)
            o->aligned[o->offset + bi * o->strides[0] + i * o->strides[1] +
                       h * o->strides[2] + j * o->strides[3]] =
                std::numeric_limits<T>::quiet_NaN();
    return;
  }
  // Rows per block: the block's scores stay within about 64 KiB.
  int64_t blockRows =
      std::clamp<int64_t>((int64_t(1) << 14) / std::max<int64_t>(t, 1), 8, 128);
  blockRows = std::min(blockRows, s);
  int64_t blocks = (s + blockRows - 1) / blockRows;
  int64_t group = hq / hkv;
  // A block is rows of one query head (a block of its query positions), or
  // for one query position (decode) the `group` query heads that read one
  // kv head: their rows are then one GEMM's, so that K and V stream once
  // per kv head rather than once per query head.
  bool stackHeads = s == 1 && group > 1;
  int64_t units = stackHeads ? hkv : hq;
  auto run = [&](int64_t task) {
    int64_t block = task % blocks, unit = (task / blocks) % units,
            bi = task / (blocks * units);
    int64_t r0 = block * blockRows;
    int64_t rows = stackHeads ? group : std::min(blockRows, s - r0);
    int64_t h0 = stackHeads ? unit * group : unit;
    int64_t kh = h0 / group;
    // Row i is query head h0 + i * headStep at position r0 + i * posStep.
    int64_t headStep = stackHeads ? 1 : 0, posStep = stackHeads ? 0 : 1;
    int64_t qRowStride = stackHeads ? q->strides[2] : q->strides[1];
    int64_t oRowStride = stackHeads ? o->strides[2] : o->strides[1];
    T *qBase = q->aligned + q->offset + bi * q->strides[0] +
               r0 * q->strides[1] + h0 * q->strides[2];
    T *kBase = k->aligned + k->offset + bi * k->strides[0] + kh * k->strides[2];
    T *vBase = v->aligned + v->offset + bi * v->strides[0] + kh * v->strides[2];
    T *oBase = o->aligned + o->offset + bi * o->strides[0] +
               r0 * o->strides[1] + h0 * o->strides[2];
    // One buffer per thread, kept across calls.
    static thread_local std::vector<T> scores;
    scores.resize(rows * t);
    multiply(Matrix<T>{qBase, rows, d, qRowStride, q->strides[3]},
             Matrix<T>{kBase, d, t, k->strides[3], k->strides[1]},
             Matrix<T>{scores.data(), rows, t, t, 1});
    for (int64_t i = 0; i < rows; ++i) {
      T *row = scores.data() + i * t;
      int64_t qi = r0 + i * posStep, h = h0 + i * headStep;
      // Keys j <= qi + t - s are visible under the causal mask.
      int64_t visibleEnd = causal ? std::clamp<int64_t>(qi + t - s + 1, 0, t) : t;
      int64_t maskBase = bi * maskView.strides[0] + h * maskView.strides[1] +
                         qi * maskView.strides[2];
      int64_t visible = 0;
      T max = -std::numeric_limits<T>::infinity();
      if (!maskView.boolean) {
        // The common case, without per-key tests: the visible keys are a
        // prefix, scaled and masked in one vectorizable pass. (A NaN score
        // that the max reduction skips still makes the row NaN through its
        // exponential below.)
        const T *add = maskView.additive ? maskView.additive + maskBase
                                         : nullptr;
        max = scaleMaskMax(row, visibleEnd, scale, add, maskView.strides[3]);
        // The keys the causal mask hides weigh exactly 0: no exponential
        // is computed for them (half a causal prefill's).
        std::fill(row + visibleEnd, row + t, T(0));
        visible = visibleEnd;
      }
      for (int64_t j = 0; maskView.boolean && j < t; ++j) {
        bool hidden = j >= visibleEnd ||
                      (maskView.boolean &&
                       !maskView.boolean[maskBase + j * maskView.strides[3]]);
        if (hidden) {
          row[j] = -std::numeric_limits<T>::infinity();
          continue;
        }
        T x = row[j] * scale;
        if (maskView.additive)
          x += maskView.additive[maskBase + j * maskView.strides[3]];
        row[j] = x;
        ++visible;
        // A NaN score makes the row NaN through its exponential below.
        max = std::max(max, x);
      }
      if (visible == 0) {
        // No visible key: the uniform average of every value row, as the
        // legalized program (and TVM) give.
        std::fill(row, row + t, T(1) / T(t));
        continue;
      }
      // Every visible score -inf leaves max = -inf and the row NaN, as
      // numpy's softmax (the hidden keys' zeros then meet NaN in the
      // product with V). Without a boolean mask the visible keys are the
      // prefix [0, visibleEnd); with one, hidden keys hold -inf anywhere.
      int64_t live = maskView.boolean ? t : visibleEnd;
      T sum = expShifted(row, live, max);
      T inverse = T(1) / sum;
      for (int64_t j = 0; j < live; ++j)
        row[j] *= inverse;
    }
    multiply(Matrix<T>{scores.data(), rows, t, t, 1},
             Matrix<T>{vBase, t, e, v->strides[1], v->strides[3]},
             Matrix<T>{oBase, rows, e, oRowStride, o->strides[3]});
  };
  int64_t tasks = b * units * blocks;
  int threads = threadsFor(4.0 * double(b) * double(hq) * double(s) *
                           double(t) * double(std::max(d, e)));
  parallelFor(tasks, threads, run);
}

} // namespace

#define RELAX_BLAS_DEFINE_ATTENTION(T, SUFFIX)                                 \
  extern "C" void _mlir_ciface_relax_blas_attention_##SUFFIX(                  \
      MemRef<T, 4> *q, MemRef<T, 4> *k, MemRef<T, 4> *v,                       \
      MemRef<double, 1> *options, MemRef<T, 4> *o) {                           \
    attention<T, T>("relax_blas_attention_" #SUFFIX, q, k, v, nullptr,         \
                    options, o);                                               \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_attention_mask_##SUFFIX(             \
      MemRef<T, 4> *q, MemRef<T, 4> *k, MemRef<T, 4> *v, MemRef<T, 4> *mask,   \
      MemRef<double, 1> *options, MemRef<T, 4> *o) {                           \
    attention<T, T>("relax_blas_attention_mask_" #SUFFIX, q, k, v, mask,       \
                    options, o);                                               \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_attention_bmask_##SUFFIX(            \
      MemRef<T, 4> *q, MemRef<T, 4> *k, MemRef<T, 4> *v,                       \
      MemRef<bool, 4> *mask, MemRef<double, 1> *options, MemRef<T, 4> *o) {    \
    attention<T, bool>("relax_blas_attention_bmask_" #SUFFIX, q, k, v, mask,   \
                       options, o);                                            \
  }

RELAX_BLAS_DEFINE_ATTENTION(float, f32)
RELAX_BLAS_DEFINE_ATTENTION(double, f64)
