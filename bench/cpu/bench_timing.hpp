// Timing shared by the C++ benchmarks of bench/cpu (conv_impls.cpp,
// conv_layers.cpp).
#ifndef RELAX_BENCH_TIMING_HPP
#define RELAX_BENCH_TIMING_HPP

#include <algorithm>
#include <chrono>
#include <vector>

// The times of `iters` calls of `call` in ms, sorted, after two warm-ups.
template <typename Fn> std::vector<double> timeCalls(int iters, Fn call) {
  std::vector<double> ms;
  for (int i = 0; i < iters + 2; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    call();
    auto t1 = std::chrono::steady_clock::now();
    if (i >= 2)
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

#endif // RELAX_BENCH_TIMING_HPP
