//===- RelaxCUDA.cpp - CUDA driver binding of the runtime -----------------===//
//
// The CUDA driver API is reached through dlopen("libcuda.so.1"): linking the
// toolkit's stub would make every program that links the runtime fail to
// start where no driver is installed. Each entry point checks the result of
// its driver call and records the first failure in the runtime's error slot
// instead of aborting; compiled code then runs on (with null pointers, whose
// kernels are never launched once an error is set, see mgpuLaunchKernel)
// and the caller reads the error after the call.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxCUDA.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "ArenaCache.h"
#include "CudaGraphs.h"
#include "TensorMap.h"

#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace {
/// `cuMemAlloc` is a macro for `cuMemAlloc_v2`: stringify after expansion
/// so dlsym looks up the symbol the header means.
#define RELAX_STR2(x) #x
#define RELAX_STR(x) RELAX_STR2(x)

/// The driver functions the runtime uses, resolved once.
struct Driver {
#define RELAX_CUDA_FN(fn) decltype(&::fn) fn = nullptr;
#define RELAX_CUDA_FUNCTIONS(X)                                                \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxGetCurrent)                                                           \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventSynchronize)                                                        \
  X(cuEventRecord)                                                             \
  X(cuEventElapsedTime)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemFree)                                                                 \
  X(cuMemcpyAsync)                                                             \
  X(cuMemsetD32Async)                                                          \
  X(cuMemsetD16Async)
  RELAX_CUDA_FUNCTIONS(RELAX_CUDA_FN)
/// CUDA graphs (relax_rt_cuda_graphs_*): optional, null on a driver
/// without them (then calls launch kernel by kernel).
#define RELAX_CUDA_GRAPH_FUNCTIONS(X)                                          \
  X(cuFuncGetParamInfo)                                                        \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamEndCapture)                                                        \
  X(cuGraphInstantiate)                                                        \
  X(cuGraphLaunch)                                                             \
  X(cuGraphDestroy)                                                            \
  X(cuGraphExecDestroy)                                                        \
  X(cuStreamGetCaptureInfo)                                                    \
  X(cuGraphExecKernelNodeSetParams)
  RELAX_CUDA_GRAPH_FUNCTIONS(RELAX_CUDA_FN)
/// Tensor maps of TMA loads (relax_rt_cuda_tensor_map_encode): optional,
/// null on a driver older than CUDA 12.
#define RELAX_CUDA_TMA_FUNCTIONS(X) X(cuTensorMapEncodeTiled)
  RELAX_CUDA_TMA_FUNCTIONS(RELAX_CUDA_FN)
#undef RELAX_CUDA_FN

  bool ready = false;
  CUcontext context = nullptr;
  std::string failure; // Why the driver is unusable, once tried.
  std::string deviceName;
  std::string chip;
  int ordinal = 0;
};

Driver &driver() {
  static Driver d;
  return d;
}
std::mutex initMutex;
bool initTried = false;

/// Kernel timing for benchmarks (relax_rt_cuda_set_profiling).
bool profiling = false;
double kernelMs = 0;

/// "CUDA_ERROR_NO_DEVICE", or the number when the driver cannot name it.
std::string errorName(CUresult result) {
  const char *name = nullptr;
  Driver &d = driver();
  if (d.cuGetErrorName && d.cuGetErrorName(result, &name) == CUDA_SUCCESS &&
      name)
    return name;
  return "CUDA error " + std::to_string(static_cast<int>(result));
}

/// Records "<what>: CUDA_ERROR_..." and returns false when `result` fails.
bool check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  std::string message =
      std::string("CUDA: ") + what + " failed: " + errorName(result);
  relax_rt_error(message.c_str());
  return false;
}

bool loadDriver(Driver &d, int ordinal) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    const char *why = dlerror();
    d.failure = std::string("no CUDA driver: cannot load libcuda.so.1 (") +
                (why ? why : "not found") + ")";
    return false;
  }
#define RELAX_CUDA_LOAD(fn)                                                    \
  d.fn = reinterpret_cast<decltype(&::fn)>(dlsym(lib, RELAX_STR(fn)));         \
  if (!d.fn) {                                                                 \
    d.failure = "CUDA driver too old: no " RELAX_STR(fn) " in libcuda.so.1";   \
    return false;                                                              \
  }
  RELAX_CUDA_FUNCTIONS(RELAX_CUDA_LOAD)
#undef RELAX_CUDA_LOAD
#define RELAX_CUDA_LOAD_OPTIONAL(fn)                                           \
  d.fn = reinterpret_cast<decltype(&::fn)>(dlsym(lib, RELAX_STR(fn)));
  RELAX_CUDA_GRAPH_FUNCTIONS(RELAX_CUDA_LOAD_OPTIONAL)
  RELAX_CUDA_TMA_FUNCTIONS(RELAX_CUDA_LOAD_OPTIONAL)
#undef RELAX_CUDA_LOAD_OPTIONAL

  auto fail = [&](CUresult r, const char *what) {
    d.failure = std::string(what) + " failed: " + errorName(r);
    return false;
  };
  if (CUresult r = d.cuInit(0))
    return fail(r, "cuInit (no usable GPU or driver)");
  CUdevice device;
  if (CUresult r = d.cuDeviceGet(&device, ordinal))
    return fail(r, "cuDeviceGet");
  if (CUresult r = d.cuDevicePrimaryCtxRetain(&d.context, device))
    return fail(r, "cuDevicePrimaryCtxRetain");
  if (CUresult r = d.cuCtxSetCurrent(d.context))
    return fail(r, "cuCtxSetCurrent");
  char name[256] = {0};
  d.cuDeviceGetName(name, sizeof(name) - 1, device);
  int major = 0, minor = 0;
  d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                         device);
  d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                         device);
  d.chip = "sm_" + std::to_string(major) + std::to_string(minor);
  d.deviceName = std::string(name) + " (" + d.chip + ")";
  d.ordinal = ordinal;
  return true;
}

/// The driver with this thread's context current, or null after recording
/// why not.
Driver *ready() {
  Driver &d = driver();
  if (!d.ready) {
    if (!relax_rt_cuda_init(d.ordinal))
      return nullptr;
  }
  CUcontext current = nullptr;
  if (d.cuCtxGetCurrent(&current) != CUDA_SUCCESS || current != d.context)
    if (!check(d.cuCtxSetCurrent(d.context), "cuCtxSetCurrent"))
      return nullptr;
  return &d;
}
} // namespace

extern "C" int relax_rt_cuda_init(int ordinal) {
  std::lock_guard<std::mutex> lock(initMutex);
  Driver &d = driver();
  if (!initTried) {
    initTried = true;
    d.ready = loadDriver(d, ordinal);
  }
  if (!d.ready) {
    relax_rt_error(d.failure.c_str());
    return 0;
  }
  return 1;
}

extern "C" const char *relax_rt_cuda_device_name(void) {
  return driver().deviceName.c_str();
}

extern "C" const char *relax_rt_cuda_chip(void) {
  return driver().chip.c_str();
}

//===----------------------------------------------------------------------===//
// CUDA graphs (CudaGraphs.h)
//===----------------------------------------------------------------------===//

namespace {
/// The graph logic's view of the driver; failures are recorded in the
/// error slot like every other driver call.
struct DriverForGraphs : relax_rt::GraphDriver {
  bool available(Driver &d) const {
    return d.cuFuncGetParamInfo && d.cuStreamBeginCapture &&
           d.cuStreamEndCapture && d.cuGraphInstantiate && d.cuGraphLaunch &&
           d.cuGraphDestroy && d.cuGraphExecDestroy;
  }
  bool paramSizes(void *function, size_t count,
                  std::vector<size_t> &sizes) override {
    Driver &d = driver();
    for (size_t i = 0; i < count; ++i) {
      size_t offset = 0, size = 0;
      if (d.cuFuncGetParamInfo(static_cast<CUfunction>(function), i, &offset,
                               &size) != CUDA_SUCCESS)
        return false;
      sizes.push_back(size);
    }
    return true;
  }
  bool launch(const relax_rt::KernelLaunch &l, void *stream) override {
    std::vector<void *> args = l.argPointers();
    return check(driver().cuLaunchKernel(
                     static_cast<CUfunction>(l.function), l.grid[0], l.grid[1],
                     l.grid[2], l.block[0], l.block[1], l.block[2],
                     l.sharedBytes, static_cast<CUstream>(stream),
                     args.data(), nullptr),
                 "cuLaunchKernel");
  }
  bool beginCapture(void *stream) override {
    return check(driver().cuStreamBeginCapture(
                     static_cast<CUstream>(stream),
                     CU_STREAM_CAPTURE_MODE_RELAXED),
                 "cuStreamBeginCapture");
  }
  bool endCapture(void *stream, void *&graph) override {
    CUgraph g = nullptr;
    bool ok = check(
        driver().cuStreamEndCapture(static_cast<CUstream>(stream), &g),
        "cuStreamEndCapture");
    graph = g;
    return ok;
  }
  bool instantiate(void *graph, void *&exec) override {
    CUgraphExec e = nullptr;
    bool ok = check(
        driver().cuGraphInstantiate(&e, static_cast<CUgraph>(graph), 0),
        "cuGraphInstantiate");
    exec = e;
    return ok;
  }
  void destroyGraph(void *graph) override {
    check(driver().cuGraphDestroy(static_cast<CUgraph>(graph)),
          "cuGraphDestroy");
  }
  bool launchGraph(void *exec, void *stream) override {
    return check(driver().cuGraphLaunch(static_cast<CUgraphExec>(exec),
                                        static_cast<CUstream>(stream)),
                 "cuGraphLaunch");
  }
  void destroyExec(void *exec) override {
    check(driver().cuGraphExecDestroy(static_cast<CUgraphExec>(exec)),
          "cuGraphExecDestroy");
  }
  bool capturedNode(void *stream, void *&node) override {
    Driver &d = driver();
    CUstreamCaptureStatus status;
    const CUgraphNode *last = nullptr;
    size_t count = 0;
    if (!d.cuStreamGetCaptureInfo || !d.cuGraphExecKernelNodeSetParams ||
        d.cuStreamGetCaptureInfo(static_cast<CUstream>(stream), &status,
                                 nullptr, nullptr, &last, nullptr,
                                 &count) != CUDA_SUCCESS ||
        count != 1)
      return false;
    node = last[0];
    return true;
  }
  bool updateKernel(void *exec, void *node,
                    const relax_rt::KernelLaunch &l) override {
    std::vector<void *> args = l.argPointers();
    CUDA_KERNEL_NODE_PARAMS params = {};
    params.func = static_cast<CUfunction>(l.function);
    params.gridDimX = static_cast<unsigned>(l.grid[0]);
    params.gridDimY = static_cast<unsigned>(l.grid[1]);
    params.gridDimZ = static_cast<unsigned>(l.grid[2]);
    params.blockDimX = static_cast<unsigned>(l.block[0]);
    params.blockDimY = static_cast<unsigned>(l.block[1]);
    params.blockDimZ = static_cast<unsigned>(l.block[2]);
    params.sharedMemBytes = static_cast<unsigned>(l.sharedBytes);
    params.kernelParams = args.data();
    return check(driver().cuGraphExecKernelNodeSetParams(
                     static_cast<CUgraphExec>(exec),
                     static_cast<CUgraphNode>(node), &params),
                 "cuGraphExecKernelNodeSetParams");
  }
};

/// The process's graphs and the stream deferred launches are issued on (the
/// compiled code's streams may be destroyed before a segment is issued).
struct Graphs {
  std::mutex mutex;
  DriverForGraphs adapter;
  relax_rt::LaunchGraphs graphs{adapter};
  CUstream stream = nullptr;
};
Graphs &graphState() {
  static auto *instance = new Graphs();
  return *instance;
}

/// Issues the deferred launches and waits for them: called before anything
/// that must see their effects (copies, frees, memsets, cuBLAS, the call's
/// end). The compiled code never reads device memory on the host between
/// those points, so its own stream synchronisations need no flush.
bool flushGraphs(Graphs &g) {
  if (!g.graphs.isActive())
    return true;
  if (relax_rt_has_error()) {
    g.graphs.discard();
    return false;
  }
  if (!g.graphs.flush())
    return false;
  return check(driver().cuStreamSynchronize(g.stream),
               "cuStreamSynchronize (a kernel of a CUDA graph failed)");
}
void flushGraphs() {
  Graphs &g = graphState();
  std::lock_guard<std::mutex> lock(g.mutex);
  flushGraphs(g);
}
} // namespace

extern "C" int relax_rt_cuda_graphs_begin(const void *key) {
  Driver *d = ready();
  Graphs &g = graphState();
  std::lock_guard<std::mutex> lock(g.mutex);
  if (!d || profiling || !g.adapter.available(*d))
    return 0;
  if (!g.stream &&
      !check(d->cuStreamCreate(&g.stream, CU_STREAM_NON_BLOCKING),
             "cuStreamCreate (CUDA graphs)"))
    return 0;
  flushGraphs(g);
  g.graphs.begin(key);
  return 1;
}

extern "C" int relax_rt_cuda_graphs_end(void) {
  Graphs &g = graphState();
  std::lock_guard<std::mutex> lock(g.mutex);
  bool ok = flushGraphs(g);
  g.graphs.end();
  return ok ? 1 : 0;
}

extern "C" void relax_rt_cuda_graphs_flush(void) { flushGraphs(); }

extern "C" void relax_rt_cuda_graphs_stats(int64_t *captures,
                                           int64_t *replays,
                                           int64_t *updates,
                                           int64_t *plainSegments) {
  Graphs &g = graphState();
  std::lock_guard<std::mutex> lock(g.mutex);
  const relax_rt::GraphStats &s = g.graphs.getStats();
  *captures = s.captures;
  *replays = s.replays;
  *updates = s.updates;
  *plainSegments = s.plainSegments;
}

extern "C" void relax_rt_cuda_graphs_release(void) {
  Graphs &g = graphState();
  std::lock_guard<std::mutex> lock(g.mutex);
  if (driver().ready)
    g.graphs.clear();
}

//===----------------------------------------------------------------------===//
// Tensor maps of TMA loads (TensorMap.h)
//===----------------------------------------------------------------------===//

namespace {
/// The tensor-map data type of a RELAX_RT_TMA_* code; false for another.
bool tensorMapDataType(int32_t dtype, CUtensorMapDataType &dataType) {
  switch (dtype) {
  case RELAX_RT_TMA_F16:
    dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    return true;
  case RELAX_RT_TMA_BF16:
    dataType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    return true;
  case RELAX_RT_TMA_F32:
    dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    return true;
  default:
    return false;
  }
}
} // namespace

extern "C" int relax_rt_cuda_tensor_map_supported(
    int32_t dtype, const void *base, int64_t rank, const int64_t *dims,
    const int64_t *strides, const int64_t *box, int32_t swizzle) {
  CUtensorMapDataType dataType;
  return tensorMapDataType(dtype, dataType) &&
         relax_rt::tensorMapProblem(
             relax_rt::TensorMapOperand("operand", dataType, base, rank, dims,
                                        strides, box, swizzle))
             .empty();
}

extern "C" int
relax_rt_cuda_tensor_map_encode(void *map, const char *name, int32_t dtype,
                                const void *base, int64_t rank,
                                const int64_t *dims, const int64_t *strides,
                                const int64_t *box, int32_t swizzle) {
  name = name ? name : "operand";
  CUtensorMapDataType dataType;
  if (!tensorMapDataType(dtype, dataType)) {
    std::string message = std::string("CUDA: tensor map of ") + name +
                          ": unknown element type code " +
                          std::to_string(dtype);
    relax_rt_error(message.c_str());
    return 0;
  }
  relax_rt::TensorMapOperand operand(name, dataType, base, rank, dims, strides,
                                     box, swizzle);
  Driver *d = ready();
  if (!d)
    return 0;
  if (!d->cuTensorMapEncodeTiled) {
    relax_rt_error("CUDA: the driver has no cuTensorMapEncodeTiled (TMA "
                   "needs a CUDA 12 driver)");
    return 0;
  }
  std::string problem =
      relax_rt::encodeTensorMap(d->cuTensorMapEncodeTiled, errorName, operand,
                                static_cast<CUtensorMap *>(map));
  if (problem.empty())
    return 1;
  relax_rt_error(("CUDA: " + problem).c_str());
  return 0;
}

namespace {
/// The device copies of tensor maps, one per call site of compiled code
/// (its slot): the bytes last copied, to skip the copy when a call encodes
/// the same map (a decode loop at fixed shapes).
struct TensorMapSlot {
  CUtensorMap bytes;
  void *device = nullptr;
};
struct TensorMapSlots {
  std::mutex mutex;
  std::unordered_map<const void *, TensorMapSlot> slots;
};
TensorMapSlots &tensorMapSlots() {
  static auto *instance = new TensorMapSlots();
  return *instance;
}
} // namespace

extern "C" int64_t relax_rt_cuda_tensor_map_device(
    const void *slot, const char *name, int32_t dtype, const void *base,
    int64_t rank, const int64_t *dims, const int64_t *strides,
    const int64_t *box, int32_t swizzle) {
  if (!relax_rt_cuda_tensor_map_supported(dtype, base, rank, dims, strides,
                                          box, swizzle))
    return 0;
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  if (!relax_rt_cuda_tensor_map_encode(&map, name, dtype, base, rank, dims,
                                       strides, box, swizzle))
    return 0;
  TensorMapSlots &s = tensorMapSlots();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto [it, fresh] = s.slots.try_emplace(slot);
  TensorMapSlot &entry = it->second;
  if (!entry.device) {
    entry.device = mgpuMemAlloc(sizeof(CUtensorMap), nullptr, false);
    if (!entry.device) {
      s.slots.erase(it);
      return 0;
    }
  } else if (std::memcmp(&entry.bytes, &map, sizeof(map)) == 0) {
    return reinterpret_cast<int64_t>(entry.device);
  }
  // No kernel reads the old map any more: compiled launches wait for their
  // kernel, and mgpuMemcpy first issues and waits for a run recorded for a
  // CUDA graph.
  mgpuMemcpy(entry.device, &map, sizeof(map), nullptr);
  if (relax_rt_has_error()) {
    std::memset(&entry.bytes, 0, sizeof(map));
    return 0;
  }
  entry.bytes = map;
  return reinterpret_cast<int64_t>(entry.device);
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

extern "C" void *mgpuModuleLoad(void *data, size_t /*size*/) {
  Driver *d = ready();
  CUmodule module = nullptr;
  if (d && !check(d->cuModuleLoadData(&module, data), "cuModuleLoadData"))
    return nullptr;
  return module;
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  Driver *d = ready();
  if (!d)
    return nullptr;
  // PTX is compiled by the driver for the device present; its log explains
  // a rejection.
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log) - 1)};
  CUmodule module = nullptr;
  CUresult r = d->cuModuleLoadDataEx(&module, data, 3, options, values);
  if (r != CUDA_SUCCESS) {
    check(r, "cuModuleLoadDataEx (PTX JIT)");
    if (log[0])
      relax_rt_error(log);
    return nullptr;
  }
  return module;
}

extern "C" void mgpuModuleUnload(void *module) {
  Driver *d = ready();
  if (d && module)
    check(d->cuModuleUnload(static_cast<CUmodule>(module)), "cuModuleUnload");
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  Driver *d = ready();
  CUfunction function = nullptr;
  if (!d || !module)
    return nullptr;
  if (!check(d->cuModuleGetFunction(&function, static_cast<CUmodule>(module),
                                    name),
             "cuModuleGetFunction"))
    return nullptr;
  return function;
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void *stream, void **params, void **extra,
                                 size_t paramsCount) {
  // After an error (a failed allocation, a module that did not load) the
  // kernel would read null pointers: skip it, the caller reports the error.
  if (relax_rt_has_error() || !function)
    return;
  // An empty grid (a tensor with a zero dim) has nothing to do.
  if (gridX <= 0 || gridY <= 0 || gridZ <= 0)
    return;
  Driver *d = ready();
  if (!d)
    return;
  if (!profiling) {
    // A call with CUDA graphs on records the launch instead; one it cannot
    // record runs after what was recorded.
    Graphs &g = graphState();
    std::lock_guard<std::mutex> lock(g.mutex);
    int64_t grid[3] = {gridX, gridY, gridZ},
            block[3] = {blockX, blockY, blockZ};
    if (g.graphs.isActive()) {
      if (g.graphs.defer(function, grid, block, smem, g.stream, params,
                         paramsCount))
        return;
      if (!flushGraphs(g))
        return;
    }
  }
  CUevent start = nullptr, stop = nullptr;
  if (profiling &&
      check(d->cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate") &&
      check(d->cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate"))
    check(d->cuEventRecord(start, static_cast<CUstream>(stream)),
          "cuEventRecord");
  check(d->cuLaunchKernel(static_cast<CUfunction>(function), gridX, gridY,
                          gridZ, blockX, blockY, blockZ, smem,
                          static_cast<CUstream>(stream), params, extra),
        "cuLaunchKernel");
  if (start && stop) {
    float ms = 0;
    if (check(d->cuEventRecord(stop, static_cast<CUstream>(stream)),
              "cuEventRecord") &&
        check(d->cuEventSynchronize(stop), "cuEventSynchronize") &&
        check(d->cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime"))
      kernelMs += ms;
  }
  if (start)
    d->cuEventDestroy(start);
  if (stop)
    d->cuEventDestroy(stop);
}

extern "C" void relax_rt_cuda_set_profiling(int on) { profiling = on != 0; }

extern "C" double relax_rt_cuda_take_kernel_ms(void) {
  double ms = kernelMs;
  kernelMs = 0;
  return ms;
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

extern "C" void *mgpuStreamCreate(void) {
  Driver *d = ready();
  CUstream stream = nullptr;
  if (d)
    check(d->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream;
}

extern "C" void mgpuStreamDestroy(void *stream) {
  Driver *d = ready();
  if (d && stream)
    check(d->cuStreamDestroy(static_cast<CUstream>(stream)), "cuStreamDestroy");
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  Driver *d = ready();
  if (d)
    check(d->cuStreamSynchronize(static_cast<CUstream>(stream)),
          "cuStreamSynchronize (a kernel failed)");
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  Driver *d = ready();
  if (d)
    check(d->cuStreamWaitEvent(static_cast<CUstream>(stream),
                               static_cast<CUevent>(event), 0),
          "cuStreamWaitEvent");
}

extern "C" void *mgpuEventCreate(void) {
  Driver *d = ready();
  CUevent event = nullptr;
  if (d)
    check(d->cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  Driver *d = ready();
  if (d && event)
    check(d->cuEventDestroy(static_cast<CUevent>(event)), "cuEventDestroy");
}

extern "C" void mgpuEventSynchronize(void *event) {
  Driver *d = ready();
  if (d)
    check(d->cuEventSynchronize(static_cast<CUevent>(event)),
          "cuEventSynchronize");
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  Driver *d = ready();
  if (d)
    check(d->cuEventRecord(static_cast<CUevent>(event),
                           static_cast<CUstream>(stream)),
          "cuEventRecord");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/,
                              bool isHostShared) {
  // Empty tensors get no allocation; their kernels are never launched.
  if (sizeBytes == 0)
    return nullptr;
  Driver *d = ready();
  CUdeviceptr ptr = 0;
  if (!d)
    return nullptr;
  if (isHostShared)
    check(d->cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
  else
    check(d->cuMemAlloc(&ptr, sizeBytes), "cuMemAlloc");
  return reinterpret_cast<void *>(ptr);
}

extern "C" void mgpuMemFree(void *ptr, void * /*stream*/) {
  flushGraphs();
  Driver *d = ready();
  if (d && ptr)
    check(d->cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree");
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream) {
  if (sizeBytes == 0)
    return;
  flushGraphs();
  Driver *d = ready();
  if (!d)
    return;
  // Unified addressing tells host from device pointers.
  if (check(d->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                             reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                             static_cast<CUstream>(stream)),
            "cuMemcpyAsync"))
    check(d->cuStreamSynchronize(static_cast<CUstream>(stream)),
          "cuStreamSynchronize after cuMemcpyAsync");
}

namespace {
/// Device copies of the compiled modules' constants, by host address: made
/// on first use and kept (the weights are uploaded once, not per call).
struct ResidentConstants {
  std::mutex mutex;
  std::unordered_map<int64_t, void *> copies;
};
ResidentConstants &residentConstants() {
  static auto *instance = new ResidentConstants();
  return *instance;
}
} // namespace

extern "C" void _mlir_ciface_relax_rt_cuda_constant(relax_rt_bytes *result,
                                                    int64_t hostAddress,
                                                    int64_t bytes) {
  *result = relax_rt_bytes{nullptr, nullptr, 0, bytes, 1};
  ResidentConstants &r = residentConstants();
  std::lock_guard<std::mutex> lock(r.mutex);
  void *&copy = r.copies[hostAddress];
  if (!copy && bytes > 0) {
    copy = mgpuMemAlloc(static_cast<uint64_t>(bytes), nullptr, false);
    if (!copy)
      return;
    mgpuMemcpy(copy, reinterpret_cast<void *>(hostAddress),
               static_cast<size_t>(bytes), nullptr);
  }
  result->allocated = result->aligned = copy;
}

extern "C" void relax_rt_cuda_release_constants(void) {
  ResidentConstants &r = residentConstants();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto &entry : r.copies)
    mgpuMemFree(entry.second, nullptr);
  r.copies.clear();
}

namespace {
/// Device arenas of planned functions, by the function's key (as the CPU's
/// relax_rt_workspace_acquire): idle arenas wait here between calls, so a
/// function whose plan has a bound allocates its device arena once.
relax_rt::ArenaCache &deviceArenas() {
  static auto *instance = new relax_rt::ArenaCache();
  return *instance;
}
/// Device allocations are 256-byte aligned.
constexpr int64_t kDeviceArenaGranule = 256;
} // namespace

extern "C" void _mlir_ciface_relax_rt_cuda_workspace_acquire(
    relax_rt_bytes *result, const void *key, int64_t bytes, int64_t capacity) {
  *result = relax_rt_bytes{nullptr, nullptr, 0, bytes, 1};
  Driver *d = ready();
  if (!d || bytes < 0)
    return;
  relax_rt::ArenaCache &a = deviceArenas();
  relax_rt::ArenaCache::Arena arena = a.take(key);
  if (!arena.data || arena.capacity < bytes) {
    mgpuMemFree(arena.data, nullptr);
    // At the bound first; a bound too large for the device falls back to
    // what this call needs (only that failure is an error).
    arena = relax_rt::ArenaCache::allocate(
        bytes, capacity, kDeviceArenaGranule, [&](int64_t size, bool last) {
          CUdeviceptr ptr = 0;
          CUresult r = d->cuMemAlloc(&ptr, static_cast<size_t>(size));
          if (r != CUDA_SUCCESS && last)
            check(r, "cuMemAlloc (arena)");
          return r == CUDA_SUCCESS ? reinterpret_cast<void *>(ptr) : nullptr;
        });
    if (!arena.data)
      return;
  }
  a.lend(arena);
  result->allocated = result->aligned = arena.data;
}

extern "C" void
_mlir_ciface_relax_rt_cuda_workspace_release(const void *key,
                                             relax_rt_bytes *buffer) {
  if (!buffer || !buffer->allocated)
    return;
  mgpuMemFree(deviceArenas().giveBack(key, buffer->allocated), nullptr);
}

extern "C" void relax_rt_cuda_release_workspaces(void) {
  for (void *data : deviceArenas().drain())
    mgpuMemFree(data, nullptr);
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  flushGraphs();
  Driver *d = ready();
  if (d && count)
    check(d->cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                              static_cast<CUstream>(stream)),
          "cuMemsetD32Async");
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  flushGraphs();
  Driver *d = ready();
  if (d && count)
    check(d->cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                              static_cast<CUstream>(stream)),
          "cuMemsetD16Async");
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  driver().ordinal = device;
}
