// Timing and buffers shared by the A/B programs of the runtime's kernels
// (gemv_ab.cpp, quant_ab.cpp): a call's thread CPU time and wall time, and
// page-aligned buffers.
#ifndef RELAX_BENCH_CPU_AB_UTIL_H
#define RELAX_BENCH_CPU_AB_UTIL_H

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <ctime>
#include <utility>

namespace ab {

/// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID: time on a CPU,
/// memory stalls included, time descheduled left out).
inline double threadSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

inline double wallSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// `size` elements of T, page-aligned, so that both sides of an A/B meet
/// the same 4 KiB aliasing between their operands.
template <typename T> struct PageBuffer {
  explicit PageBuffer(size_t n)
      : data(static_cast<T *>(std::aligned_alloc(
            4096, (n * sizeof(T) + 4095) / 4096 * 4096))),
        size(n) {}
  PageBuffer(PageBuffer &&o) noexcept
      : data(std::exchange(o.data, nullptr)), size(o.size) {}
  ~PageBuffer() { std::free(data); }
  T *data;
  size_t size;
};

} // namespace ab

#endif // RELAX_BENCH_CPU_AB_UTIL_H
