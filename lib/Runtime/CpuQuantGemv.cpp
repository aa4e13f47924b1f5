//===- CpuQuantGemv.cpp - Products with group-quantized weights ----------===//
//
// The dispatcher of CpuQuantGemv.h, the plain C++ kernel and the split of
// a product over the runtime's pool.
//
//===----------------------------------------------------------------------===//

#include "CpuQuantGemv.h"
#include "CpuGemvIsa.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace relax::runtime;

namespace {
/// IEEE binary16 to f32 (every value, subnormals and non-finite included).
float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal: normalise.
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | (uint32_t(113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

float scaleOf(const QuantizedWeight &w, int64_t j, int64_t g) {
  int64_t groups = w.k / w.group;
  if (w.scalesF16)
    return halfToFloat(static_cast<const uint16_t *>(w.scales)[j * groups + g]);
  return static_cast<const float *>(w.scales)[j * groups + g];
}

/// q(j, l) - zero(j, l / group) for `count` consecutive l from `begin`, as
/// f32 (the scale is applied per group by the caller).
void unpackCentred(const QuantizedWeight &w, int64_t j, int64_t begin,
                   int64_t count, float *out) {
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
} // namespace

const char *relax::runtime::whyUnsupported(const QuantizedWeight &w) {
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
                                 int64_t ldy, int threads) {
  return quantLinearWith(cpuIsa(), m, x, ldx, w, y, ldy, threads);
}

bool relax::runtime::quantLinearWith(CpuIsa isa, int64_t m, const float *x,
                                     int64_t ldx, const QuantizedWeight &w,
                                     float *y, int64_t ldy, int threads) {
  if (m < 0 || whyUnsupported(w))
    return false;
  if (m == 0)
    return true;
  detail::QuantRangeFn *vector = nullptr;
  if (isa == CpuIsa::Avx512)
    vector = detail::quantRangeAvx512;
  else if (isa == CpuIsa::Avx2)
    vector = detail::quantRangeAvx2;
  // The vector kernels take whole chunks of 32 elements per group.
  if (w.group % 32 != 0)
    vector = nullptr;
  if (vector && w.bits == 4 && m <= kMaxGemvRows) {
    x = permuteForNibbles(m, x, ldx, w.k);
    ldx = w.k;
  }
  int64_t groups = w.k / w.group;
  detail::splitOverPool(
      w.n, w.n * w.k * w.bits / 8, threads, [&](int64_t begin, int64_t end) {
        if (!vector)
          return quantRangeGeneric(m, x, ldx, w, y, ldy, begin, end);
        static thread_local std::vector<float> scales, block;
        vector(m, x, ldx, w, y, ldy, begin, end,
               scratch(scales, (detail::kMaxQuantRows + kMaxGemvRows) * groups),
               m > kMaxGemvRows ? scratch(block, detail::kDequantRows * w.k)
                                : nullptr);
      });
  return true;
}
