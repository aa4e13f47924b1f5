//===- CpuGemvIsa.h - The per-ISA entry points of CpuGemv --------*- C++
//-*-===//
//
// Internal to CpuGemv.cpp and the translation units compiled for one
// instruction set each (CpuGemvAvx2.cpp, CpuGemvAvx512.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CPUGEMVISA_H
#define RELAX_RUNTIME_CPUGEMVISA_H

#include <cstdint>

namespace relax::runtime::detail {

/// Y[:, [begin, end)] = X * B for m <= 4 rows of X; `transposed`: B^T is
/// stored [n, k] with row stride ldb, else B is stored [k, n].
using GemvRangeFn = void(int64_t m, bool transposed, const float *x,
                         int64_t ldx, const float *b, int64_t ldb, int64_t k,
                         float *y, int64_t ldy, int64_t begin, int64_t end);
GemvRangeFn gemvRangeAvx2;
GemvRangeFn gemvRangeAvx512;

} // namespace relax::runtime::detail

#endif // RELAX_RUNTIME_CPUGEMVISA_H
