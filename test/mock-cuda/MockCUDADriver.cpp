//===- MockCUDADriver.cpp - A CPU stand-in for libcuda.so.1, for tests ----===//
//
// Built as libcuda.so.1 in the build tree only. Lit tests put it on
// LD_LIBRARY_PATH to run relax-run --device cuda without a GPU: device
// memory is host memory (zero-filled), copies are memcpy, modules are
// checked to be PTX (or an ELF cubin) and kept, and each kernel launch is
// appended to the file named by MOCK_CUDA_LOG as
//   launch <kernel> grid=(x,y,z) block=(x,y,z) smem=<bytes>
// without running it. That exercises the whole host side (module loading
// from the embedded binary, launch arguments, grid sizes computed from
// symbolic shapes at run time, allocation and copies) on any machine.
//
// CUDA graphs: cuFuncGetParamInfo reads the parameter sizes from the
// kernel's PTX; launches on a capturing stream are kept in the graph
// instead of logged ("capture end <n> kernels"), and each cuGraphLaunch
// logs "graph launch <n> kernels" and the launch lines it replays, each
// prefixed with "graph: "; cuGraphExecKernelNodeSetParams logs
// "graph update node <i>: <launch line>". cuTensorMapEncodeTiled logs its
// arguments ("tensor map ..."). MOCK_CUDA_FAIL=<function> makes that driver
// function fail with CUDA_ERROR_UNKNOWN (the error paths of the callers).
// MOCK_CUDA_LOG_COPIES=1 also logs each copy ("copy <bytes>").
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {
struct MockFunction {
  std::string name;
  /// Byte sizes of the kernel's parameters, from its PTX (empty for a
  /// cubin).
  std::vector<size_t> paramSizes;
};
/// A captured or instantiated graph: its launch lines.
struct MockGraph {
  std::vector<std::string> launches;
};
/// The graph being captured (streams are not told apart).
MockGraph *capturing = nullptr;
/// A loaded module owns its functions, as with the real driver: they are
/// freed by cuModuleUnload.
struct MockModule {
  std::string text;
  std::vector<std::unique_ptr<MockFunction>> functions;
};
int dummy;

void logLine(const std::string &line) {
  const char *path = std::getenv("MOCK_CUDA_LOG");
  if (!path)
    return;
  if (FILE *f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

bool failing(const char *function) {
  const char *fail = std::getenv("MOCK_CUDA_FAIL");
  return fail && std::strcmp(fail, function) == 0;
}

/// The sizes of the parameters of `.entry name(...)` in PTX text: each
/// `.param .<type> ...` (a 1, 2, 4 or 8-byte scalar by its type's width, or
/// `.b8 x[N]`, N bytes).
std::vector<size_t> parseParamSizes(const std::string &ptx,
                                    const std::string &name) {
  std::vector<size_t> sizes;
  size_t pos = ptx.find(".entry " + name + "(");
  if (pos == std::string::npos)
    return sizes;
  size_t end = ptx.find(')', pos);
  while ((pos = ptx.find(".param", pos)) < end) {
    size_t stop = std::min(ptx.find(',', pos), end);
    std::string decl = ptx.substr(pos, stop - pos);
    pos = stop;
    size_t bracket = decl.find('[');
    if (bracket != std::string::npos) {
      sizes.push_back(std::strtoul(decl.c_str() + bracket + 1, nullptr, 10));
      continue;
    }
    size_t bits = 64;
    for (const char *t : {"8 ", "16 ", "32 ", "64 "}) {
      for (const char *k : {".u", ".s", ".b", ".f"})
        if (decl.find(std::string(k) + t) != std::string::npos)
          bits = std::strtoul(t, nullptr, 10);
    }
    sizes.push_back(bits / 8);
  }
  return sizes;
}

/// "launch <kernel> grid=(x,y,z) block=(x,y,z) smem=<bytes>".
std::string launchLine(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                       unsigned bx, unsigned by, unsigned bz, unsigned smem) {
  char line[512];
  std::snprintf(line, sizeof(line),
                "launch %s grid=(%u,%u,%u) block=(%u,%u,%u) smem=%u",
                reinterpret_cast<MockFunction *>(f)->name.c_str(), gx, gy, gz,
                bx, by, bz, smem);
  return line;
}

CUresult loadModule(CUmodule *module, const void *image) {
  const char *text = static_cast<const char *>(image);
  bool ptx = std::strstr(text, ".version") && std::strstr(text, ".target");
  bool elf = std::memcmp(text,
                         "\x7f"
                         "ELF",
                         4) == 0;
  if (!ptx && !elf)
    return CUDA_ERROR_INVALID_IMAGE;
  const char *target = std::strstr(text, ".target ");
  std::string chip =
      target ? std::string(target + 8, std::strcspn(target + 8, "\n, "))
             : "cubin";
  logLine("load module " + chip);
  *module = reinterpret_cast<CUmodule>(new MockModule{
      std::string(text, ptx ? std::strlen(text) : 4), {}});
  return CUDA_SUCCESS;
}
} // namespace

extern "C" {
CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }
CUresult cuGetErrorName(CUresult error, const char **str) {
  *str = error == CUDA_ERROR_INVALID_IMAGE   ? "CUDA_ERROR_INVALID_IMAGE"
         : error == CUDA_ERROR_UNKNOWN       ? "CUDA_ERROR_UNKNOWN"
         : error == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
                                             : "CUDA_ERROR_MOCK";
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice) {
  std::snprintf(name, len, "Mock GPU");
  return CUDA_SUCCESS;
}
/// Compute capability 8.0, or MOCK_CUDA_CC's ("90": 9.0, a Hopper).
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice) {
  const char *cc = std::getenv("MOCK_CUDA_CC");
  int capability = cc ? std::atoi(cc) : 80;
  *value =
      attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR   ? capability / 10
      : attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ? capability % 10
                                                             : 0;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice) {
  *ctx = reinterpret_cast<CUcontext>(&dummy);
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxGetCurrent(CUcontext *ctx) {
  *ctx = reinterpret_cast<CUcontext>(&dummy);
  return CUDA_SUCCESS;
}
CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  return loadModule(module, image);
}
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int,
                            CUjit_option *, void **) {
  return loadModule(module, image);
}
CUresult cuModuleUnload(CUmodule module) {
  delete reinterpret_cast<MockModule *>(module);
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  auto *mock = reinterpret_cast<MockModule *>(module);
  if (mock->text.size() > 4 &&
      mock->text.find(std::string(".entry ") + name) == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  // One handle per kernel, as the driver gives (the compiled code asks
  // again at every launch; CUDA graphs compare handles).
  for (const std::unique_ptr<MockFunction> &f : mock->functions)
    if (f->name == name) {
      *function = reinterpret_cast<CUfunction>(f.get());
      return CUDA_SUCCESS;
    }
  mock->functions.push_back(std::make_unique<MockFunction>(
      MockFunction{name, parseParamSizes(mock->text, name)}));
  *function = reinterpret_cast<CUfunction>(mock->functions.back().get());
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
                        unsigned int gz, unsigned int bx, unsigned int by,
                        unsigned int bz, unsigned int smem, CUstream,
                        void **params, void **) {
  if (!params)
    return CUDA_ERROR_INVALID_VALUE;
  std::string line = launchLine(f, gx, gy, gz, bx, by, bz, smem);
  if (capturing)
    capturing->launches.push_back(line);
  else
    logLine(line);
  return CUDA_SUCCESS;
}
CUresult cuFuncGetParamInfo(CUfunction f, size_t index, size_t *offset,
                            size_t *size) {
  const std::vector<size_t> &sizes =
      reinterpret_cast<MockFunction *>(f)->paramSizes;
  if (failing("cuFuncGetParamInfo") || index >= sizes.size())
    return CUDA_ERROR_INVALID_VALUE;
  *offset = 0;
  for (size_t i = 0; i < index; ++i)
    *offset = (*offset + sizes[i] + 7) / 8 * 8;
  *size = sizes[index];
  return CUDA_SUCCESS;
}
CUresult cuStreamBeginCapture(CUstream, CUstreamCaptureMode) {
  if (failing("cuStreamBeginCapture") || capturing)
    return CUDA_ERROR_UNKNOWN;
  capturing = new MockGraph();
  return CUDA_SUCCESS;
}
CUresult cuStreamEndCapture(CUstream, CUgraph *graph) {
  if (!capturing)
    return CUDA_ERROR_ILLEGAL_STATE;
  logLine("capture end " + std::to_string(capturing->launches.size()) +
          " kernels");
  *graph = reinterpret_cast<CUgraph>(capturing);
  capturing = nullptr;
  return CUDA_SUCCESS;
}
CUresult cuGraphInstantiate(CUgraphExec *exec, CUgraph graph,
                            unsigned long long) {
  if (failing("cuGraphInstantiate"))
    return CUDA_ERROR_UNKNOWN;
  *exec = reinterpret_cast<CUgraphExec>(
      new MockGraph(*reinterpret_cast<MockGraph *>(graph)));
  return CUDA_SUCCESS;
}
CUresult cuGraphDestroy(CUgraph graph) {
  delete reinterpret_cast<MockGraph *>(graph);
  return CUDA_SUCCESS;
}
CUresult cuGraphExecDestroy(CUgraphExec exec) {
  delete reinterpret_cast<MockGraph *>(exec);
  return CUDA_SUCCESS;
}
/// A kernel node is its launch's position in the graph, plus one.
CUresult cuStreamGetCaptureInfo(CUstream, CUstreamCaptureStatus *status,
                                cuuint64_t *, CUgraph *,
                                const CUgraphNode **last, const CUgraphEdgeData **,
                                size_t *count) {
  static CUgraphNode node;
  *status = capturing ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                      : CU_STREAM_CAPTURE_STATUS_NONE;
  if (failing("cuStreamGetCaptureInfo") || !capturing ||
      capturing->launches.empty()) {
    *count = 0;
    return capturing ? CUDA_SUCCESS : CUDA_ERROR_ILLEGAL_STATE;
  }
  node = reinterpret_cast<CUgraphNode>(capturing->launches.size());
  *last = &node;
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                        const CUDA_KERNEL_NODE_PARAMS *p) {
  auto *graph = reinterpret_cast<MockGraph *>(exec);
  size_t index = reinterpret_cast<size_t>(node) - 1;
  if (failing("cuGraphExecKernelNodeSetParams") ||
      index >= graph->launches.size() || !p->kernelParams)
    return CUDA_ERROR_UNKNOWN;
  std::string line =
      launchLine(p->func, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX,
                 p->blockDimY, p->blockDimZ, p->sharedMemBytes);
  graph->launches[index] = line;
  logLine("graph update node " + std::to_string(index + 1) + ": " + line);
  return CUDA_SUCCESS;
}
CUresult cuGraphLaunch(CUgraphExec exec, CUstream) {
  auto *graph = reinterpret_cast<MockGraph *>(exec);
  logLine("graph launch " + std::to_string(graph->launches.size()) +
          " kernels");
  for (const std::string &line : graph->launches)
    logLine("graph: " + line);
  return CUDA_SUCCESS;
}
CUresult cuStreamCreate(CUstream *stream, unsigned int) {
  *stream = reinterpret_cast<CUstream>(&dummy);
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned int) {
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *event, unsigned int) {
  *event = reinterpret_cast<CUevent>(&dummy);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent, CUevent) {
  *ms = 0;
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *ptr, size_t bytes) {
  *ptr = reinterpret_cast<CUdeviceptr>(std::calloc(bytes, 1));
  char line[64];
  std::snprintf(line, sizeof(line), "alloc %zu", bytes);
  logLine(line);
  return *ptr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t bytes, unsigned int) {
  return cuMemAlloc(ptr, bytes);
}
CUresult cuMemFree(CUdeviceptr ptr) {
  std::free(reinterpret_cast<void *>(ptr));
  return CUDA_SUCCESS;
}
/// With MOCK_CUDA_LOG_COPIES set, logs "copy <bytes>" (tests of copies the
/// runtime skips, such as an unchanged tensor map).
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream) {
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
              bytes);
  if (std::getenv("MOCK_CUDA_LOG_COPIES"))
    logLine("copy " + std::to_string(bytes));
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t n,
                          CUstream) {
  auto *p = reinterpret_cast<unsigned int *>(dst);
  for (size_t i = 0; i < n; ++i)
    p[i] = value;
  return CUDA_SUCCESS;
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t n,
                          CUstream) {
  auto *p = reinterpret_cast<unsigned short *>(dst);
  for (size_t i = 0; i < n; ++i)
    p[i] = value;
  return CUDA_SUCCESS;
}
/// Logs "tensor map dtype=<n> rank=<r> dims=(..) strides=(..) box=(..)
/// swizzle=<n> fill=<n>" in the driver's order (innermost first) and writes
/// the rank into the map; with MOCK_CUDA_FAIL=cuTensorMapEncodeTiled it
/// refuses as the driver refuses a bad stride: CUDA_ERROR_INVALID_VALUE.
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType dtype,
                                cuuint32_t rank, void *, const cuuint64_t *dims,
                                const cuuint64_t *strides,
                                const cuuint32_t *box, const cuuint32_t *,
                                CUtensorMapInterleave,
                                CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion,
                                CUtensorMapFloatOOBfill fill) {
  if (failing("cuTensorMapEncodeTiled"))
    return CUDA_ERROR_INVALID_VALUE;
  auto list = [](auto *values, cuuint32_t n) {
    std::string text = "(";
    for (cuuint32_t i = 0; i < n; ++i)
      text += (i ? "," : "") + std::to_string(values[i]);
    return text + ")";
  };
  logLine("tensor map dtype=" + std::to_string(dtype) +
          " rank=" + std::to_string(rank) + " dims=" + list(dims, rank) +
          " strides=" + list(strides, rank - 1) + " box=" + list(box, rank) +
          " swizzle=" + std::to_string(swizzle) +
          " fill=" + std::to_string(fill));
  map->opaque[0] = rank;
  return CUDA_SUCCESS;
}
} // extern "C"
