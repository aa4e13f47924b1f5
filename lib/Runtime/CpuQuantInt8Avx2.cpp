//===- CpuQuantInt8Avx2.cpp - int8 rows by quantized weights, AVX2 --------===//
//
// CpuQuantInt8Kernels.inc over 256-bit vectors: vpmaddubsw (pairs of
// unsigned-by-signed byte products into int16) then vpmaddwd by ones into
// int32 lanes. 4-bit weights are the unsigned side (pairs at most
// 2 * 15 * 127, so they never saturate); signed 8-bit weights multiply as
// |w| by x with w's sign (vpsignb), at most 2 * 128 * 127 < 2^15. Compiled with
// -mavx2 -mfma -mf16c as CpuGemvAvx2.cpp; the kernel of every AVX2 CPU and
// of AVX-512 ones without VNNI.
//
//===----------------------------------------------------------------------===//

#include "CpuGemvIsa.h"
#include "CpuVectorHelpers.h"
#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#include <immintrin.h>

#include <cstring>
#include <type_traits>
#include <vector>

namespace {
struct IVec {
  using Reg = __m256;
  using IReg = __m256i;
  static constexpr int kLanes = 8;
  static constexpr int kRegisters = 16;
  static constexpr int kBlocks = 2;
  static constexpr int kBlocks8 = 1;
  static constexpr bool kCentre8 = false;
  static Reg zero() { return _mm256_setzero_ps(); }
  static IReg zeroInts() { return _mm256_setzero_si256(); }
  static IReg bytes(const uint8_t *p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
  }
  static IReg bytesTail(const uint8_t *p, int n) {
    // A tail is one block of 16 bytes (a chunk holds two).
    (void)n;
    return _mm256_zextsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
  }
  static IReg loadInts(const int32_t *p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
  }
  static IReg lowNibbles(IReg b) {
    return _mm256_and_si256(b, _mm256_set1_epi8(0x0f));
  }
  static IReg highNibbles(IReg b) {
    return _mm256_and_si256(_mm256_srli_epi16(b, 4), _mm256_set1_epi8(0x0f));
  }
  static IReg dot(IReg acc, IReg lo, IReg xe, IReg hi, IReg xo) {
    IReg pairs = _mm256_add_epi16(_mm256_maddubs_epi16(lo, xe),
                                  _mm256_maddubs_epi16(hi, xo));
    return _mm256_add_epi32(acc,
                            _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
  }
  struct W8 {
    IReg magnitude, sign;
  };
  static W8 weights8(IReg b) { return {_mm256_abs_epi8(b), b}; }
  static IReg dot8(IReg acc, const W8 &w, IReg x) {
    IReg pairs = _mm256_maddubs_epi16(w.magnitude, _mm256_sign_epi8(x, w.sign));
    return _mm256_add_epi32(acc,
                            _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
  }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
  static Reg broadcast(float s) { return _mm256_set1_ps(s); }
  static void halvesToFloats(const uint16_t *p, int64_t n, float *out) {
    relax::runtime::detail::halvesToFloatsF16c(p, n, out);
  }
  static Reg toFloat(IReg v) { return _mm256_cvtepi32_ps(v); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
  static float sum(Reg v) { return relax::runtime::detail::sumLanes(v); }
  static Reg blockScales(const float *p) {
    double two;
    std::memcpy(&two, p, sizeof(two));
    return _mm256_permutevar8x32_ps(
        _mm256_castps128_ps256(_mm_castpd_ps(_mm_set_sd(two))),
        _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
  }
  static Reg blockScales8(const float *p) { return _mm256_broadcast_ss(p); }
  // The tiles' members (CpuQuantInt8Tiles.inc).
  static IReg broadcastPiece8(const void *p) {
    return _mm256_loadu_si256(static_cast<const __m256i *>(p));
  }
  static IReg broadcastPiece4(const void *p) {
    return _mm256_broadcastsi128_si256(
        _mm_loadu_si128(static_cast<const __m128i *>(p)));
  }
  /// A tile's 32 f16 scales, [group][row]: converted a group at a time
  /// where a group's rows need them (four registers held over the tile
  /// would be spilled: AVX2 has 16).
  struct TileScales {
    const uint8_t *halves;
  };
  static TileScales tileScales(const uint8_t *p) { return {p}; }
  /// The scales of rows h * P.. of group g, each in the lanes of its
  /// piece.
  template <int P> static Reg rowScales(const TileScales &s, int g, int h) {
    const __m256i piece = P == 1 ? _mm256_setzero_si256()
                                 : _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    return _mm256_permutevar8x32_ps(
        _mm256_cvtph_ps(_mm_loadu_si128(
            reinterpret_cast<const __m128i *>(s.halves + 16 * g))),
        _mm256_add_epi32(piece, _mm256_set1_epi32(h * P)));
  }
  /// c in the first int32 lane of each of P pieces, zeros elsewhere.
  template <int P> static IReg firstLanes(int32_t c) {
    return _mm256_blend_epi32(_mm256_setzero_si256(), _mm256_set1_epi32(c),
                              P == 2 ? 0x11 : 0x01);
  }
  template <int P> static void transpose(const Reg *in, Reg *out) {
    if constexpr (P == 1) {
      out[0] = in[0];
    } else {
      static_assert(P == 2, "one or two pieces of a register");
      out[0] = _mm256_permute2f128_ps(in[0], in[1], 0x20);
      out[1] = _mm256_permute2f128_ps(in[0], in[1], 0x31);
    }
  }
};

#include "CpuQuantInt8Kernels.inc"
#include "CpuQuantInt8Tiles.inc"
} // namespace

void relax::runtime::detail::int8RangeAvx2(const Int8Rows &x,
                                           const QuantizedWeight &w, float *y,
                                           int64_t ldy, int64_t begin,
                                           int64_t end) {
  int8Range(x, w, y, ldy, begin, end);
}

void relax::runtime::detail::int8TilesAvx2(const Int8Rows &x,
                                           const QuantizedWeight &w, float *y,
                                           int64_t ldy, int64_t begin,
                                           int64_t end) {
  int8Tiles(x, w, y, ldy, begin, end);
}
