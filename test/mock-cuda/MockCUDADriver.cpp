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
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {
struct MockFunction {
  std::string name;
};
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
  *str = error == CUDA_ERROR_INVALID_IMAGE ? "CUDA_ERROR_INVALID_IMAGE"
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
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice) {
  *value = attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 8 : 0;
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
  mock->functions.push_back(std::make_unique<MockFunction>(MockFunction{name}));
  *function = reinterpret_cast<CUfunction>(mock->functions.back().get());
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
                        unsigned int gz, unsigned int bx, unsigned int by,
                        unsigned int bz, unsigned int smem, CUstream,
                        void **params, void **) {
  if (!params)
    return CUDA_ERROR_INVALID_VALUE;
  char line[512];
  std::snprintf(line, sizeof(line),
                "launch %s grid=(%u,%u,%u) block=(%u,%u,%u) smem=%u",
                reinterpret_cast<MockFunction *>(f)->name.c_str(), gx, gy, gz,
                bx, by, bz, smem);
  logLine(line);
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
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream) {
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
              bytes);
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
} // extern "C"
