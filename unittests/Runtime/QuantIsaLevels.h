//===- QuantIsaLevels.h - The quantized kernels' levels this CPU runs -----===//
//
// Shared by the tests of the quantized products (CpuQuantGemvTests.cpp,
// CpuQuantTilesTests.cpp): every kernel level they compare.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_UNITTESTS_RUNTIME_QUANTISALEVELS_H
#define RELAX_UNITTESTS_RUNTIME_QUANTISALEVELS_H

#include "../../lib/Runtime/CpuGemv.h"

#include <vector>

namespace relax::runtime::testing {

/// The levels of CpuQuantGemv.h's kernels this CPU runs: plain C++, AVX2
/// (with FMA and F16C, which converts the f16 scales) and AVX-512.
inline std::vector<CpuIsa> quantLevelsOfThisCpu() {
  std::vector<CpuIsa> levels = {CpuIsa::Generic};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("f16c"))
    levels.push_back(CpuIsa::Avx2);
  if (__builtin_cpu_supports("avx512f"))
    levels.push_back(CpuIsa::Avx512);
  return levels;
}

} // namespace relax::runtime::testing

#endif // RELAX_UNITTESTS_RUNTIME_QUANTISALEVELS_H
