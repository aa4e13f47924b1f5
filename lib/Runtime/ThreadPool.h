//===- ThreadPool.h - The runtime's own thread pool -------------*- C++ -*-===//
//
// The pool behind relax_rt_parallel_for (RelaxRuntime.h), for the runtime's
// C++ kernels (BlasGemm.cpp and the other files of the BLAS binding). See
// RelaxThreads.cpp for how it works and why it is not OpenMP.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_THREADPOOL_H
#define RELAX_RUNTIME_THREADPOOL_H

#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <cstdint>

namespace relax::runtime {

/// The threads a parallel loop may use: RELAX_NUM_THREADS, else
/// OMP_NUM_THREADS, else the CPUs this process may run on. 1 inside a task of
/// the pool (tasks do not fork again).
int poolThreads();

/// Runs fn(0), ..., fn(count - 1) over the pool, the calling thread
/// included; returns when all have run. Each index is one task: callers cut
/// their work into about as many pieces as they want to balance.
template <typename Fn> void parallelTasks(int64_t count, Fn &fn) {
  relax_rt_parallel_for(
      [](void *context, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
          (*static_cast<Fn *>(context))(i);
      },
      &fn, count, count, -1);
}

} // namespace relax::runtime

#endif // RELAX_RUNTIME_THREADPOOL_H
