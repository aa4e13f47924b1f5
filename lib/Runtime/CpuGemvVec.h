//===- CpuGemvVec.h - The vector types of the few-row kernels ----*- C++
//-*-===//
//
// The `Vec` interface CpuGemvKernels.inc is written over, for the
// translation units compiled for one instruction set each
// (CpuGemvAvx512.cpp, CpuGemvAvx2.cpp) and for bench/cpu/gemv_ab.cpp, which
// compiles two versions of the kernels side by side: Vec512 where the unit
// is compiled with AVX-512F, Vec256 with AVX2 + FMA.
//
// In an anonymous namespace on purpose: each unit keeps its own copies of
// these inline functions. Shared ones (external linkage) from units
// compiled with different -m flags could be merged by the linker into the
// copy with instructions that a CPU running the other unit lacks.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CPUGEMVVEC_H
#define RELAX_RUNTIME_CPUGEMVVEC_H

#include "CpuVectorHelpers.h"

#include <immintrin.h>

namespace {

#ifdef __AVX512F__
/// 16 lanes of f32, 32 registers.
struct Vec512 {
  using Reg = __m512;
  static constexpr int kLanes = 16;
  static constexpr int kRegisters = 32;
  static Reg zero() { return _mm512_setzero_ps(); }
  static Reg load(const float *p) { return _mm512_loadu_ps(p); }
  static Reg broadcast(float s) { return _mm512_set1_ps(s); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
  static void store(float *p, Reg v) { _mm512_storeu_ps(p, v); }
  static float sum(Reg v) { return _mm512_reduce_add_ps(v); }
};
#endif

#if defined(__AVX2__) && defined(__FMA__)
/// 8 lanes of f32, 16 registers.
struct Vec256 {
  using Reg = __m256;
  static constexpr int kLanes = 8;
  static constexpr int kRegisters = 16;
  static Reg zero() { return _mm256_setzero_ps(); }
  static Reg load(const float *p) { return _mm256_loadu_ps(p); }
  static Reg broadcast(float s) { return _mm256_set1_ps(s); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
  static void store(float *p, Reg v) { _mm256_storeu_ps(p, v); }
  static float sum(Reg v) { return relax::runtime::detail::sumLanes(v); }
};
#endif

} // namespace

#endif // RELAX_RUNTIME_CPUGEMVVEC_H
