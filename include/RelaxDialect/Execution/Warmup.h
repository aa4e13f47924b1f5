//===- Warmup.h - The untimed calls before a benchmark ----------*- C++ -*-===//
//
// How many calls a benchmark makes before it times any, shared by both
// halves of relax-run (RelaxRunJIT.cpp through exec::timeCalls, and the
// LLVM-free library runner relax-run.cpp). No LLVM.
//
// The first calls of a compiled module are not its steady state: page
// faults and the pool's threads starting, and the runtime's one-time work
// on constants (a constant weight is multiplied as it is stored until it
// has met 1024 rows of A, then packed once: DnnlGemm.cpp), which
// onnxruntime, for one, does when its session is made. So by default a
// benchmark warms up with up to kDefaultWarmupCalls calls, stopping early
// once kDefaultWarmupSeconds have gone by (a call of a large model is its
// own steady state after a few); `--warmup W` makes exactly W.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_WARMUP_H
#define RELAXDIALECT_EXECUTION_WARMUP_H

#include <chrono>
#include <optional>

namespace mlir::relax::exec {

inline constexpr unsigned kDefaultWarmupCalls = 20;
inline constexpr double kDefaultWarmupSeconds = 1.0;

/// Calls `runOnce` (which returns false on an error, then the warm-up
/// stops and returns false) exactly `calls` times, or without `calls` at
/// least once and then until kDefaultWarmupCalls calls or
/// kDefaultWarmupSeconds.
template <typename RunOnce>
bool warmUp(std::optional<unsigned> calls, RunOnce runOnce) {
  if (calls) {
    for (unsigned c = 0; c < *calls; ++c)
      if (!runOnce())
        return false;
    return true;
  }
  auto start = std::chrono::steady_clock::now();
  for (unsigned c = 0; c < kDefaultWarmupCalls; ++c) {
    if (!runOnce())
      return false;
    std::chrono::duration<double> spent =
        std::chrono::steady_clock::now() - start;
    if (spent.count() >= kDefaultWarmupSeconds)
      break;
  }
  return true;
}

} // namespace mlir::relax::exec

#endif // RELAXDIALECT_EXECUTION_WARMUP_H
