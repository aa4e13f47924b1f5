//===- CpuQuantGemv.cpp - Products with group-quantized weights ----------===//
//
// The dispatcher of CpuQuantGemv.h, the plain C++ kernel and the split of
// a product over the runtime's pool.
//
//===----------------------------------------------------------------------===//

#include "CpuQuantGemv.h"
#include "CpuGemvIsa.h"
#include "RelaxDialect/Runtime/Half.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#include <emmintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace relax::runtime;
namespace qt = relax::runtime::quant_tiles;

// The pool's pieces start at multiples of kPieceGrain rows of W, so that
// every piece of a tiled W is whole blocks of 8 rows (n is a multiple of
// 8, so the last piece's end is too): the tile kernels take whole blocks.
static_assert(detail::kPieceGrain % qt::kRows == 0,
              "pieces of a tiled weight must be whole row blocks");

namespace {
/// Row j's group g of a tiled W: its scale's bits and its bytes (32 int8 or
/// 16 bytes of nibbles, as the plain layout stores them).
const uint8_t *tileChunk(const QuantizedWeight &w, int64_t j, int64_t g,
                         uint16_t *scale) {
  const uint8_t *tile = static_cast<const uint8_t *>(w.q) +
                        qt::tileOffset(w.bits, w.k, j, g * qt::kGroup);
  const int64_t slot = g % qt::kGroups * qt::kRows + j % qt::kRows;
  if (scale)
    std::memcpy(scale, tile + 2 * slot, 2);
  return tile + qt::kScaleBytes + slot * qt::chunkBytes(w.bits);
}

float scaleOf(const QuantizedWeight &w, int64_t j, int64_t g) {
  if (w.layout == QuantLayout::Tiles) {
    uint16_t half;
    tileChunk(w, j, g, &half);
    return halfToFloat(half);
  }
  int64_t groups = w.k / w.group;
  if (w.scalesF16)
    return halfToFloat(static_cast<const uint16_t *>(w.scales)[j * groups + g]);
  return static_cast<const float *>(w.scales)[j * groups + g];
}

/// q(j, l) - zero(j, l / group) for `count` consecutive l from `begin`, as
/// f32 (the scale is applied per group by the caller).
void unpackCentred(const QuantizedWeight &w, int64_t j, int64_t begin,
                   int64_t count, float *out) {
  if (w.layout == QuantLayout::Tiles) {
    // Group 32, zero 8 for 4 bits (whyUnsupported).
    for (int64_t l = 0; l < count; ++l) {
      int64_t e = begin + l, at = e % qt::kGroup;
      const uint8_t *chunk = tileChunk(w, j, e / qt::kGroup, nullptr);
      out[l] = w.bits == 8 ? float(int8_t(chunk[at]))
                           : float(((chunk[at / 2] >> (at & 1) * 4) & 0xf) - 8);
    }
    return;
  }
  if (w.bits == 8) {
    const int8_t *row = static_cast<const int8_t *>(w.q) + j * w.k;
    for (int64_t l = 0; l < count; ++l)
      out[l] = float(row[begin + l]);
    return;
  }
  const uint8_t *row = static_cast<const uint8_t *>(w.q) + j * (w.k / 2);
  int64_t groups = w.k / w.group;
  for (int64_t l = 0; l < count; ++l) {
    int64_t e = begin + l;
    int zero = w.zeros ? w.zeros[j * groups + e / w.group] : 8;
    int q = (row[e / 2] >> ((e & 1) * 4)) & 0xf;
    out[l] = float(q - zero);
  }
}

/// Outputs [begin, end) of every row of X, plain C++: one group of W's row
/// unpacked at a time, dotted with each row of X.
void quantRangeGeneric(int64_t m, const float *x, int64_t ldx,
                       const QuantizedWeight &w, float *y, int64_t ldy,
                       int64_t begin, int64_t end) {
  std::vector<float> unpacked(w.group);
  std::vector<float> acc(m);
  int64_t groups = w.k / w.group;
  for (int64_t j = begin; j < end; ++j) {
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (int64_t g = 0; g < groups; ++g) {
      unpackCentred(w, j, g * w.group, w.group, unpacked.data());
      float scale = scaleOf(w, j, g);
      for (int64_t i = 0; i < m; ++i) {
        const float *xi = x + i * ldx + g * w.group;
        float dot = 0.0f;
        for (int64_t l = 0; l < w.group; ++l)
          dot += xi[l] * unpacked[l];
        acc[i] += dot * scale;
      }
    }
    for (int64_t i = 0; i < m; ++i)
      y[i * ldy + j] = acc[i];
  }
}

/// A scratch buffer of the calling thread, grown on demand and kept: a
/// decode step allocates nothing once the first one has run.
float *scratch(std::vector<float> &buffer, size_t size) {
  if (buffer.size() < size)
    buffer.resize(size);
  return buffer.data();
}

/// X's rows with each block of 32 elements reordered as its 16 even
/// elements and then its 16 odd ones: the order in which the 4-bit kernels
/// unpack a block's low and high nibbles (CpuQuantKernels.inc).
const float *permuteForNibbles(int64_t m, const float *x, int64_t ldx,
                               int64_t k) {
  static thread_local std::vector<float> buffer;
  float *out = scratch(buffer, size_t(m * k));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t l0 = 0; l0 < k; l0 += 32)
      for (int64_t t = 0; t < 16; ++t) {
        out[i * k + l0 + t] = x[i * ldx + l0 + 2 * t];
        out[i * k + l0 + 16 + t] = x[i * ldx + l0 + 2 * t + 1];
      }
  return out;
}

/// X's sums per group, [m, k / group], of X [m, k] (packed rows), for the
/// zero points of 4-bit weights (CpuQuantKernels.inc), in a buffer of the
/// calling thread that the pool's pieces read while it waits.
const float *groupSums(int64_t m, const float *x, int64_t k, int64_t group) {
  static thread_local std::vector<float> buffer;
  const int64_t groups = k / group;
  float *sums = scratch(buffer, size_t(m * groups));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t g = 0; g < groups; ++g) {
      float sum = 0.0f;
      for (int64_t l = g * group; l < (g + 1) * group; ++l)
        sum += x[i * k + l];
      sums[i * groups + g] = sum;
    }
  return sums;
}

/// How a kernel of QuantActivations::Int8 wants X's int8 rows
/// (detail::Int8Rows).
struct Int8Layout {
  int64_t chunkBlocks = 1; ///< blocks per chunk of the kernel
  int64_t centreLanes = 4; ///< int32 lanes of a block in a chunk
  int32_t centre = 0;      ///< the factor of a block's sum in its centre
  bool nibbleOrder = false; ///< even elements of a chunk's blocks first
};

/// The int8 rows of QuantActivations::Int8 (detail::Int8Rows) for W's
/// `group`, in buffers of the calling thread that the pool's pieces read
/// while it waits.
detail::Int8Rows prepareInt8Rows(int64_t m, const float *x, int64_t ldx,
                                 int64_t k, int64_t group,
                                 const Int8Layout &layout) {
  static thread_local std::vector<int8_t> q, plain;
  static thread_local std::vector<float> scales, groupSums;
  static thread_local std::vector<int32_t> centre;
  const int64_t blocks = k / 32, padded = (blocks + 3) / 4 * 4;
  const int64_t groups = k / group, perGroup = group / 32;
  const int64_t lanes = layout.centreLanes, chunk = layout.chunkBlocks;
  q.assign(size_t(m * padded * 32), 0);
  scales.assign(size_t(m * padded), 0.0f);
  centre.assign(size_t(m * padded * lanes), 0);
  groupSums.assign(size_t(m * groups), 0.0f);
  plain.resize(size_t(k));
  for (int64_t i = 0; i < m; ++i) {
    float *d = scales.data() + i * padded;
    int8_t *row = q.data() + i * padded * 32;
    quantizeActivations(x + i * ldx, k, layout.nibbleOrder ? plain.data() : row,
                        d);
    const int8_t *quantized = layout.nibbleOrder ? plain.data() : row;
    // SSE2, as quantizeActivations: with byte loops (the sums, and the
    // nibble order's moves one byte at a time) this took two thirds of a
    // k = 2048 product's fixed cost of 1.9 us, serial in every decode
    // product.
    const __m128i zero = _mm_setzero_si128(), flip = _mm_set1_epi8(-128);
    const __m128i lowBytes = _mm_set1_epi16(0x00ff);
    // Local pointers: the byte stores below may alias anything, and the
    // vectors' own would be reloaded after each.
    int32_t *centreRow = centre.data() + i * padded * lanes;
    float *groupSumRow = groupSums.data() + i * groups;
    // Counted, not divided: a 64-bit division per block cost more than
    // the rest of the block's work.
    int64_t g = 0, inGroup = 0, c = 0, within = 0;
    for (int64_t b = 0; b < blocks; ++b) {
      const __m128i front = _mm_loadu_si128(
          reinterpret_cast<const __m128i *>(quantized + b * 32));
      const __m128i back = _mm_loadu_si128(
          reinterpret_cast<const __m128i *>(quantized + b * 32 + 16));
      // The sum of the 32 signed bytes: psadbw adds unsigned bytes, so
      // each is taken + 128, and 32 * 128 taken back.
      const __m128i sums =
          _mm_add_epi64(_mm_sad_epu8(_mm_xor_si128(front, flip), zero),
                        _mm_sad_epu8(_mm_xor_si128(back, flip), zero));
      const int32_t sum = _mm_cvtsi128_si32(sums) +
                          _mm_extract_epi16(sums, 4) - 32 * 128;
      centreRow[b * lanes] = layout.centre * sum;
      groupSumRow[g] += d[b] * float(sum);
      if (++inGroup == perGroup) {
        inGroup = 0;
        ++g;
      }
      if (!layout.nibbleOrder)
        continue;
      // Per chunk: the even elements of its blocks, then the odd ones
      // (each 16-bit lane's low byte, then its high byte, packed).
      int8_t *even = row + c * 32 * chunk + within * 16;
      int8_t *odd = even + 16 * chunk;
      _mm_storeu_si128(reinterpret_cast<__m128i *>(even),
                       _mm_packus_epi16(_mm_and_si128(front, lowBytes),
                                        _mm_and_si128(back, lowBytes)));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(odd),
                       _mm_packus_epi16(_mm_srli_epi16(front, 8),
                                        _mm_srli_epi16(back, 8)));
      if (++within == chunk) {
        within = 0;
        ++c;
      }
    }
  }
  detail::Int8Rows rows;
  rows.m = m;
  rows.paddedBlocks = padded;
  rows.q = q.data();
  rows.ldq = padded * 32;
  rows.scales = scales.data();
  rows.centre = centre.data();
  rows.centreLanes = lanes;
  rows.groupSums = groupSums.data();
  return rows;
}

/// Outputs [begin, end) of the int8 rows `x` (one block per chunk, 4-bit
/// rows centred by x.centre) by W, plain C++: the integer sums of each
/// block, then its scales.
void int8RangeGeneric(const detail::Int8Rows &x, const QuantizedWeight &w,
                      float *y, int64_t ldy, int64_t begin, int64_t end) {
  const int64_t blocks = w.k / 32, groups = w.k / w.group;
  const int64_t perGroup = w.group / 32;
  for (int64_t j = begin; j < end; ++j) {
    const uint8_t *row =
        static_cast<const uint8_t *>(w.q) + j * (w.k * w.bits / 8);
    for (int64_t i = 0; i < x.m; ++i) {
      const int8_t *xi = x.q + i * x.ldq;
      float acc = 0.0f;
      for (int64_t b = 0; b < blocks; ++b) {
        int32_t sum = detail::int8BlockSum(
            w.bits, row + b * 32 * w.bits / 8, xi + b * 32,
            w.bits == 8 || w.zeros
                ? 0
                : x.centre[(i * x.paddedBlocks + b) * x.centreLanes]);
        acc += float(sum) * (scaleOf(w, j, b / perGroup) *
                             x.scales[i * x.paddedBlocks + b]);
      }
      if (w.zeros)
        for (int64_t g = 0; g < groups; ++g)
          acc -= scaleOf(w, j, g) * float(w.zeros[j * groups + g]) *
                 x.groupSums[i * groups + g];
      y[i * ldy + j] = acc;
    }
  }
}

/// Whether the CPU has the AVX-512 byte and VNNI instructions of
/// CpuQuantInt8Avx512.cpp.
bool hasAvx512Vnni() {
  static const bool has = __builtin_cpu_supports("avx512f") &&
                          __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vnni");
  return has;
}
} // namespace

void relax::runtime::quantizeActivations(const float *x, int64_t k, int8_t *q,
                                         float *d) {
  // SSE2 (every x86-64 CPU): a decode step quantizes a row of X per
  // product, and scalar code (a libm call per rounding) took 7 of the 9 us
  // of a k = 2048 product's fixed cost. _mm_cvtps_epi32 rounds to nearest
  // even, as the documented rule says.
  const __m128 signBit = _mm_set1_ps(-0.0f);
  const __m128 largest = _mm_set1_ps(std::numeric_limits<float>::max());
  for (int64_t b = 0; b < k / 32; ++b) {
    const float *xb = x + b * 32;
    int8_t *qb = q + b * 32;
    __m128 v[8], amax = _mm_setzero_ps(), finite = _mm_castsi128_ps(
                                              _mm_set1_epi32(-1));
    for (int i = 0; i < 8; ++i) {
      v[i] = _mm_loadu_ps(xb + 4 * i);
      __m128 a = _mm_andnot_ps(signBit, v[i]);
      // False for NaN and infinity.
      finite = _mm_and_ps(finite, _mm_cmple_ps(a, largest));
      amax = _mm_max_ps(amax, a);
    }
    amax = _mm_max_ps(amax, _mm_movehl_ps(amax, amax));
    amax = _mm_max_ss(amax, _mm_shuffle_ps(amax, amax, 1));
    float largestAbs = _mm_cvtss_f32(amax);
    bool allFinite = _mm_movemask_ps(finite) == 0xf;
    float inverse = 127.0f / largestAbs;
    if (!allFinite || largestAbs == 0.0f) {
      d[b] = allFinite ? 0.0f : std::numeric_limits<float>::quiet_NaN();
      std::fill(qb, qb + 32, int8_t(0));
      continue;
    }
    d[b] = largestAbs / 127.0f;
    if (!(inverse <= std::numeric_limits<float>::max())) {
      // |x| < 127 / FLT_MAX everywhere: 127 / amax overflows f32.
      double wide = 127.0 / double(largestAbs);
      for (int64_t t = 0; t < 32; ++t)
        qb[t] = int8_t(std::clamp(std::nearbyint(double(xb[t]) * wide),
                                  -127.0, 127.0));
      continue;
    }
    __m128 scale = _mm_set1_ps(inverse);
    __m128i r[8];
    for (int i = 0; i < 8; ++i)
      r[i] = _mm_cvtps_epi32(_mm_mul_ps(v[i], scale));
    // |x * 127 / amax| <= 127 rounds into [-127, 127]: the packs never
    // saturate.
    for (int i = 0; i < 8; i += 4)
      _mm_storeu_si128(reinterpret_cast<__m128i *>(qb + 4 * i),
                       _mm_packs_epi16(_mm_packs_epi32(r[i], r[i + 1]),
                                       _mm_packs_epi32(r[i + 2], r[i + 3])));
  }
}

const char *relax::runtime::whyUnsupported(const QuantizedWeight &w) {
  if (w.layout == QuantLayout::Tiles) {
    if (const char *why = qt::whyNotTileable(w.bits, w.n, w.k))
      return why;
    if (w.group != qt::kGroup)
      return "tiles hold groups of 32 elements";
    if (!w.scalesF16)
      return "tiles hold f16 scales";
    if (w.zeros)
      return "tiles hold symmetric weights (no zero points)";
    if (!w.q)
      return "null weight tiles";
    return nullptr;
  }
  if (w.bits != 4 && w.bits != 8)
    return "bits must be 4 or 8";
  if (w.n < 1 || w.k < 1 || w.group < 1)
    return "n, k and the group size must be positive";
  if (w.k % w.group != 0)
    return "the group size must divide k";
  if (w.bits == 4 && w.k % 2 != 0)
    return "4-bit weights need an even k";
  if (w.bits == 8 && w.zeros)
    return "8-bit weights are symmetric (no zero points)";
  if (!w.q || !w.scales)
    return "null weight or scales";
  return nullptr;
}

float relax::runtime::dequantizedElement(const QuantizedWeight &w, int64_t j,
                                         int64_t l) {
  float centred;
  unpackCentred(w, j, l, 1, &centred);
  return centred * scaleOf(w, j, l / w.group);
}

bool relax::runtime::quantLinear(int64_t m, const float *x, int64_t ldx,
                                 const QuantizedWeight &w, float *y,
                                 int64_t ldy, int threads,
                                 QuantActivations activations) {
  return quantLinearWith(cpuIsa(), m, x, ldx, w, y, ldy, threads,
                         activations);
}

bool relax::runtime::quantLinearWith(CpuIsa isa, int64_t m, const float *x,
                                     int64_t ldx, const QuantizedWeight &w,
                                     float *y, int64_t ldy, int threads,
                                     QuantActivations activations) {
  if (m < 0 || whyUnsupported(w))
    return false;
  if (m == 0)
    return true;
  if (activations == QuantActivations::Int8 && m <= kMaxGemvRows &&
      w.group % 32 == 0) {
    // A chunk is one register of weight bytes: 4 blocks of 4 bits or 2 of
    // 8 in the VNNI kernel, 2 or 1 in the AVX2 one (also the kernel of
    // AVX-512 CPUs without VNNI), 1 in the plain one.
    const bool nibbles = w.bits == 4;
    const bool tiles = w.layout == QuantLayout::Tiles;
    // Tiles read X as the plain kernel of the same instruction set does.
    detail::Int8RangeFn *kernel =
        tiles ? detail::int8TilesGeneric : int8RangeGeneric;
    Int8Layout layout;
    layout.nibbleOrder = nibbles;
    layout.centre = nibbles ? -8 : 0;
    if (isa == CpuIsa::Avx512 && hasAvx512Vnni()) {
      kernel = tiles ? detail::int8TilesAvx512Vnni : detail::int8RangeAvx512Vnni;
      layout.chunkBlocks = nibbles ? 4 : 2;
      layout.centreLanes = nibbles ? 4 : 8;
      // vpdpbusd sums (w + 128) * x.
      layout.centre = nibbles ? -8 : -128;
    } else if (isa != CpuIsa::Generic) {
      kernel = tiles ? detail::int8TilesAvx2 : detail::int8RangeAvx2;
      layout.chunkBlocks = nibbles ? 2 : 1;
      layout.centreLanes = nibbles ? 4 : 8;
    }
    // The tile kernels re-read X once per block of 8 rows of W, which
    // streams 8 k bytes (8 bits) through L1 meanwhile: X's centres compact,
    // one int32 a block, keep more of X there (2048 x 5632, one Zen 4
    // core: q8a8 0.92 -> 1.03 and q4a8 0.82 -> 0.94 of the plain layout).
    if (tiles)
      layout.centreLanes = 1;
    detail::Int8Rows rows = prepareInt8Rows(m, x, ldx, w.k, w.group, layout);
    detail::splitOverPoolStreams(w.n, w.n * w.k * w.bits / 8, threads,
                                 [&](int64_t begin, int64_t end) {
                                   kernel(rows, w, y, ldy, begin, end);
                                 });
    return true;
  }
  detail::QuantRangeFn *vector = nullptr;
  if (isa == CpuIsa::Avx512)
    vector = detail::quantRangeAvx512;
  else if (isa == CpuIsa::Avx2)
    vector = detail::quantRangeAvx2;
  // The vector kernels take whole chunks of 32 elements per group.
  if (w.group % 32 != 0)
    vector = nullptr;
  int64_t groups = w.k / w.group;
  const float *xsums = nullptr;
  if (vector && w.bits == 4 && m <= kMaxGemvRows) {
    x = permuteForNibbles(m, x, ldx, w.k);
    ldx = w.k;
    xsums = groupSums(m, x, w.k, w.group);
  }
  detail::splitOverPoolStreams(
      w.n, w.n * w.k * w.bits / 8, threads, [&](int64_t begin, int64_t end) {
        if (!vector)
          return quantRangeGeneric(m, x, ldx, w, y, ldy, begin, end);
        static thread_local std::vector<float> scales, block;
        vector(m, x, ldx, w, y, ldy, begin, end, xsums,
               scratch(scales, detail::kMaxQuantRows * groups),
               m > kMaxGemvRows ? scratch(block, detail::kDequantRows * w.k)
                                : nullptr);
      });
  return true;
}
