//===- CpuQuantInt8Avx512.cpp - int8 rows by quantized weights, VNNI ------===//
//
// CpuQuantInt8Kernels.inc over 512-bit vectors with vpdpbusd (four
// unsigned-by-signed byte products summed into each int32 lane). Signed
// 8-bit weights are made unsigned by flipping their sign bit (w + 128, one
// xor per chunk for every row of X), and the chunk's sums start from -128
// times the sum of X's block, which takes the 128 back exactly. This file
// alone is compiled with -mavx512f -mavx512bw -mavx512vnni
// (lib/Runtime/CMakeLists.txt); CpuQuantGemv.cpp calls it only on CPUs
// with all three.
//
//===----------------------------------------------------------------------===//

#include "CpuGemvIsa.h"
#include "CpuVectorHelpers.h"
#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <type_traits>
#include <vector>

namespace {
struct IVec {
  using Reg = __m512;
  using IReg = __m512i;
  static constexpr int kLanes = 16;
  static constexpr int kRegisters = 32;
  static constexpr int kBlocks = 4;
  static constexpr int kBlocks8 = 2;
  static constexpr bool kCentre8 = true;
  static Reg zero() { return _mm512_setzero_ps(); }
  static IReg zeroInts() { return _mm512_setzero_si512(); }
  static IReg bytes(const uint8_t *p) { return _mm512_loadu_si512(p); }
  static IReg bytesTail(const uint8_t *p, int n) {
    // A tail is 1 to 3 blocks: n < 64.
    return _mm512_maskz_loadu_epi8((uint64_t(1) << n) - 1, p);
  }
  static IReg loadInts(const int32_t *p) { return _mm512_loadu_si512(p); }
  static IReg lowNibbles(IReg b) {
    return _mm512_and_si512(b, _mm512_set1_epi8(0x0f));
  }
  static IReg highNibbles(IReg b) {
    return _mm512_and_si512(_mm512_srli_epi16(b, 4), _mm512_set1_epi8(0x0f));
  }
  static IReg dot(IReg acc, IReg lo, IReg xe, IReg hi, IReg xo) {
    return _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(acc, lo, xe), hi, xo);
  }
  using W8 = IReg;
  static W8 weights8(IReg b) {
    return _mm512_xor_si512(b, _mm512_set1_epi8(char(0x80)));
  }
  static IReg dot8(IReg acc, W8 w, IReg x) {
    return _mm512_dpbusd_epi32(acc, w, x);
  }
  static Reg mul(Reg a, Reg b) { return _mm512_mul_ps(a, b); }
  static Reg broadcast(float s) { return _mm512_set1_ps(s); }
  static void halvesToFloats(const uint16_t *p, int64_t n, float *out) {
    relax::runtime::detail::halvesToFloatsF16c(p, n, out);
  }
  static Reg toFloat(IReg v) { return _mm512_cvtepi32_ps(v); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
  static float sum(Reg v) { return _mm512_reduce_add_ps(v); }
  static Reg blockScales(const float *p) {
    return _mm512_permutexvar_ps(
        _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
        _mm512_castps128_ps512(_mm_loadu_ps(p)));
  }
  static Reg blockScales8(const float *p) {
    return _mm512_permutexvar_ps(
        _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1),
        _mm512_castps128_ps512(
            _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double *>(p)))));
  }
  // The tiles' members (CpuQuantInt8Tiles.inc).
  static IReg broadcastPiece8(const void *p) {
    return _mm512_broadcast_i64x4(
        _mm256_loadu_si256(static_cast<const __m256i *>(p)));
  }
  static IReg broadcastPiece4(const void *p) {
    return _mm512_broadcast_i32x4(
        _mm_loadu_si128(static_cast<const __m128i *>(p)));
  }
  /// A tile's 32 f16 scales, [group][row], as floats: groups 0-1, 2-3.
  struct TileScales {
    Reg low, high;
  };
  static TileScales tileScales(const uint8_t *p) {
    return {_mm512_cvtph_ps(_mm256_loadu_si256(
                reinterpret_cast<const __m256i *>(p))),
            _mm512_cvtph_ps(_mm256_loadu_si256(
                reinterpret_cast<const __m256i *>(p + 32)))};
  }
  /// The scales of rows h * P.. of group g, each in the lanes of its
  /// piece.
  template <int P> static Reg rowScales(const TileScales &s, int g, int h) {
    const __m512i piece =
        P == 2 ? _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
                                   1, 1)
               : _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3,
                                   3, 3);
    return _mm512_permutexvar_ps(
        _mm512_add_epi32(piece, _mm512_set1_epi32(g % 2 * 8 + h * P)),
        g < 2 ? s.low : s.high);
  }
  /// c in the first int32 lane of each of P pieces, zeros elsewhere.
  template <int P> static IReg firstLanes(int32_t c) {
    return _mm512_maskz_set1_epi32(P == 2 ? 0x0101 : 0x1111, c);
  }
  template <int P> static void transpose(const Reg *in, Reg *out) {
    if constexpr (P == 2) {
      out[0] = _mm512_shuffle_f32x4(in[0], in[1], _MM_SHUFFLE(1, 0, 1, 0));
      out[1] = _mm512_shuffle_f32x4(in[0], in[1], _MM_SHUFFLE(3, 2, 3, 2));
    } else {
      static_assert(P == 4, "two or four pieces of a register");
      Reg low01 = _mm512_shuffle_f32x4(in[0], in[1], _MM_SHUFFLE(1, 0, 1, 0));
      Reg low23 = _mm512_shuffle_f32x4(in[2], in[3], _MM_SHUFFLE(1, 0, 1, 0));
      Reg high01 = _mm512_shuffle_f32x4(in[0], in[1], _MM_SHUFFLE(3, 2, 3, 2));
      Reg high23 = _mm512_shuffle_f32x4(in[2], in[3], _MM_SHUFFLE(3, 2, 3, 2));
      out[0] = _mm512_shuffle_f32x4(low01, low23, _MM_SHUFFLE(2, 0, 2, 0));
      out[1] = _mm512_shuffle_f32x4(low01, low23, _MM_SHUFFLE(3, 1, 3, 1));
      out[2] = _mm512_shuffle_f32x4(high01, high23, _MM_SHUFFLE(2, 0, 2, 0));
      out[3] = _mm512_shuffle_f32x4(high01, high23, _MM_SHUFFLE(3, 1, 3, 1));
    }
  }
};

#include "CpuQuantInt8Kernels.inc"
#include "CpuQuantInt8Tiles.inc"
} // namespace

void relax::runtime::detail::int8RangeAvx512Vnni(const Int8Rows &x,
                                                 const QuantizedWeight &w,
                                                 float *y, int64_t ldy,
                                                 int64_t begin, int64_t end) {
  int8Range(x, w, y, ldy, begin, end);
}

void relax::runtime::detail::int8TilesAvx512Vnni(const Int8Rows &x,
                                                 const QuantizedWeight &w,
                                                 float *y, int64_t ldy,
                                                 int64_t begin, int64_t end) {
  int8Tiles(x, w, y, ldy, begin, end);
}
