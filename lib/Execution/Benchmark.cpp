//===- Benchmark.cpp - Timing repeated calls ------------------------------===//

#include "RelaxDialect/Execution/Benchmark.h"
#include "RelaxDialect/Execution/Warmup.h"

#ifdef RELAX_RUNTIME_HAS_CUDA
#include "RelaxDialect/Runtime/RelaxCUDA.h"
#endif

#include <algorithm>
#include <chrono>

using namespace mlir::relax::exec;

llvm::Expected<Timings>
mlir::relax::exec::timeCalls(Call &call, unsigned runs,
                             std::optional<unsigned> warmup) {
  // Untimed runs first (page faults, thread start, weights packed), then
  // timed runs.
  llvm::Error failure = llvm::Error::success();
  if (!warmUp(warmup, [&] {
        if (llvm::Error err = call.run()) {
          failure = std::move(err);
          return false;
        }
        call.releaseOutputs();
        return true;
      }))
    return std::move(failure);
  Timings timings;
  for (unsigned r = 0; r < runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error err = call.run())
      return std::move(err);
    auto stop = std::chrono::steady_clock::now();
    call.releaseOutputs();
    timings.ms.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::sort(timings.ms.begin(), timings.ms.end());
  return timings;
}

llvm::Expected<Timings> mlir::relax::exec::timeGPUKernels(Call &call,
                                                          unsigned runs) {
  if (call.getDevice() != Device::CUDA)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel timing needs a call on the GPU");
#ifdef RELAX_RUNTIME_HAS_CUDA
  relax_rt_cuda_set_profiling(1);
  Timings timings;
  for (unsigned r = 0; r < runs; ++r) {
    relax_rt_cuda_take_kernel_ms();
    if (llvm::Error err = call.run()) {
      relax_rt_cuda_set_profiling(0);
      return std::move(err);
    }
    timings.ms.push_back(relax_rt_cuda_take_kernel_ms());
    call.releaseOutputs();
  }
  relax_rt_cuda_set_profiling(0);
  std::sort(timings.ms.begin(), timings.ms.end());
  return timings;
#else
  // A call on the GPU needs initDevice, which fails in this build.
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "this build has no CUDA runtime");
#endif
}

std::string mlir::relax::exec::gpuDeviceName() {
#ifdef RELAX_RUNTIME_HAS_CUDA
  return relax_rt_cuda_device_name();
#else
  return "";
#endif
}

std::string mlir::relax::exec::cudaGraphSummary() {
  int64_t captures = 0, replays = 0, updates = 0, plain = 0;
#ifdef RELAX_RUNTIME_HAS_CUDA
  relax_rt_cuda_graphs_stats(&captures, &replays, &updates, &plain);
#endif
  return "cuda graphs: " + std::to_string(captures) + " captured, " +
         std::to_string(replays) + " replayed, " + std::to_string(updates) +
         " updated, " + std::to_string(plain) + " launched kernel by kernel";
}
