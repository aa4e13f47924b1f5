//===- RelaxThreads.cpp - The runtime's OpenMP wait policy ----------------===//
//
// Compiled kernels (omp.parallel) and the BLAS binding share one OpenMP
// team, LLVM's libomp. By default its workers spin for 200 ms after each
// region. On a machine whose cores are shared (another process, another
// thread pool) a spinning worker holds the core that the thread about to
// fork or join needs, and regions then wait for scheduler time slices: a
// Llama-style block at sequence 128 on two threads took 16-80 ms beside a
// busy loop with spinning workers and 3.4-7.8 ms with sleeping ones
// (docs/perf.md). So the runtime asks libomp for passive waits
// (KMP_BLOCKTIME=0) when it is loaded, before libomp initialises, unless
// the environment already chooses a policy (OMP_WAIT_POLICY or
// KMP_BLOCKTIME), which then wins.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>

// libomp's extension (declared in its omp.h, not in GCC's): settings in
// environment-variable syntax, taken as defaults when libomp initialises.
extern "C" void kmp_set_defaults(char const *settings);

namespace {
[[gnu::constructor]] void preferPassiveWaits() {
  if (!std::getenv("OMP_WAIT_POLICY") && !std::getenv("KMP_BLOCKTIME"))
    kmp_set_defaults("KMP_BLOCKTIME=0");
}
} // namespace
