//===- Benchmark.h - Timing repeated calls ----------------------*- C++ -*-===//
//
// Wall time of repeated calls of a prepared entry (one warm-up call first:
// page faults, OpenMP thread start), and on the GPU the kernel time alone
// (the calls include device allocation and a synchronisation per launch).
// Freeing the outputs is outside the timed region.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_BENCHMARK_H
#define RELAXDIALECT_EXECUTION_BENCHMARK_H

#include "RelaxDialect/Execution/CompiledModule.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::relax::exec {

/// Milliseconds per call, sorted ascending.
struct Timings {
  std::vector<double> ms;
  double min() const { return ms.front(); }
  /// The upper median (ms[size / 2]).
  double median() const { return ms[ms.size() / 2]; }
};

/// Untimed calls (`warmup` of them, or Warmup.h's default: up to 20
/// within a second), then `runs` (>= 1) timed calls.
llvm::Expected<Timings> timeCalls(Call &call, unsigned runs,
                                  std::optional<unsigned> warmup = {});

/// `runs` (>= 1) further calls with every kernel launch timed on the device:
/// the summed kernel time per call. Only for calls on Device::CUDA.
llvm::Expected<Timings> timeGPUKernels(Call &call, unsigned runs);

/// The name of the GPU in use ("" without one).
std::string gpuDeviceName();

/// What the CUDA graph calls (Call::setCudaGraphs) made of their kernel
/// launches so far: "cuda graphs: C captured, R replayed, U updated, P
/// launched kernel by kernel" (runs of launches; the counters of
/// relax_rt_cuda_graphs_stats).
std::string cudaGraphSummary();

} // namespace mlir::relax::exec

#endif // RELAXDIALECT_EXECUTION_BENCHMARK_H
