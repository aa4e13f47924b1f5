/*===- RelaxCUDA.h - relax-mlir CUDA runtime, C ABI ---------------*- C -*-===*\
|*                                                                            *|
|* The device side of the runtime, on the CUDA driver API. Two parts:        *|
|*                                                                            *|
|*  - the `mgpu*` functions that upstream MLIR's gpu-to-llvm lowering and    *|
|*    the gpu.binary translation call (module load from the embedded PTX or *|
|*    cubin, kernel launch, streams, device memory), with the signatures of *|
|*    MLIR 22's lowering; Debian ships no libmlir_cuda_runtime, this is the *|
|*    project's own implementation;                                          *|
|*  - `relax_rt_cuda_*` for tools and embedders: driver start-up with a     *|
|*    readable reason when there is no driver or GPU.                       *|
|*                                                                            *|
|* libcuda is opened with dlopen on first use, so programs linked against   *|
|* this runtime start (and run on the CPU) on machines without a driver.    *|
|* Nothing aborts: CUDA failures are recorded in the runtime's error slot   *|
|* (relax_rt_last_error, RelaxRuntime.h) and the call returns; pointers     *|
|* come back null.                                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef RELAXDIALECT_RUNTIME_RELAXCUDA_H
#define RELAXDIALECT_RUNTIME_RELAXCUDA_H

#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the driver, initialises it and makes device `ordinal`'s primary
 * context current. Returns 1 on success; 0 with the reason recorded in the
 * error slot ("libcuda.so.1 not found", "cuInit: CUDA_ERROR_NO_DEVICE",
 * ...). Safe to call again. */
int relax_rt_cuda_init(int ordinal);
/* "NVIDIA H100 80GB HBM3 (sm_90)"; empty before a successful init. */
const char *relax_rt_cuda_device_name(void);
/* The compute capability as "sm_XY"; empty before a successful init. */
const char *relax_rt_cuda_chip(void);

/* Benchmarks: when on, every kernel launch is timed with CUDA events (and
 * waited for); relax_rt_cuda_take_kernel_ms returns the summed kernel time
 * since the last take and resets it. */
void relax_rt_cuda_set_profiling(int on);
double relax_rt_cuda_take_kernel_ms(void);

/* CUDA graphs for calls repeated at the same shapes (a decode step), opt-in
 * (docs/gpu.md, "CUDA graphs"). Between relax_rt_cuda_graphs_begin(key) and
 * relax_rt_cuda_graphs_end() the kernel launches of the calling code are
 * recorded (arguments copied) instead of issued; at the next copy, memset,
 * free, cuBLAS call or the end, the recorded run is issued on the runtime's
 * own stream and waited for: as the replay of the graph captured for an
 * identical run under `key` before (same kernels, grids and argument bytes:
 * the same shapes and buffers), else, when only arguments differ from such
 * a graph (a buffer at a new address), with those kernel nodes updated
 * (cuGraphExecKernelNodeSetParams), else captured now (cuStreamBeginCapture /
 * cuStreamEndCapture / cuGraphInstantiate, then cuGraphLaunch) while `key`
 * has fewer than 8 graphs, else launched kernel by kernel.
 * relax_rt_cuda_graphs_begin returns 0 (and records nothing) when graphs
 * cannot be used: no driver, a driver without graph support, or kernel
 * profiling on; the call then launches as usual. relax_rt_cuda_graphs_end
 * returns 0 when a driver call failed (recorded in the error slot). One call
 * at a time per process. relax_rt_cuda_graphs_stats counts the runs
 * captured, replayed as they were, replayed after an update and launched
 * plainly since start-up;
 * relax_rt_cuda_graphs_release destroys every graph (call it when the
 * modules whose kernels they launch are unloaded). */
int relax_rt_cuda_graphs_begin(const void *key);
int relax_rt_cuda_graphs_end(void);
void relax_rt_cuda_graphs_flush(void);
void relax_rt_cuda_graphs_stats(int64_t *captures, int64_t *replays,
                                int64_t *updates, int64_t *plain_segments);
void relax_rt_cuda_graphs_release(void);

/* Constants of compiled modules live on the device once uploaded: compiled
 * code asks for the device copy of a host constant (by its address) through
 * relax_rt_cuda_constant (MLIR's C interface, returns memref<?xi8>), which
 * copies it on first use. relax_rt_cuda_release_constants frees every copy;
 * call it when the modules whose constants they are are unloaded (their
 * host addresses may be reused by the next module). */
void _mlir_ciface_relax_rt_cuda_constant(relax_rt_bytes *result,
                                         int64_t host_address, int64_t bytes);
void relax_rt_cuda_release_constants(void);

/* Device arenas of planned functions (--relax-lower-to-gpu): the device
 * counterparts of relax_rt_workspace_acquire / _release (RelaxRuntime.h),
 * with the same contract: an arena per function key, cached between calls
 * and allocated at `capacity` (the plan's bound) when that fits, so a
 * bounded function allocates device memory once. A failed allocation
 * returns null and records the error. relax_rt_cuda_release_workspaces
 * frees the cached arenas; call it when the modules whose keys they are are
 * unloaded. */
void _mlir_ciface_relax_rt_cuda_workspace_acquire(relax_rt_bytes *result,
                                                  const void *key,
                                                  int64_t bytes,
                                                  int64_t capacity);
void _mlir_ciface_relax_rt_cuda_workspace_release(const void *key,
                                                  relax_rt_bytes *buffer);
void relax_rt_cuda_release_workspaces(void);

/* Tensor maps of TMA loads (cp.async.bulk.tensor, sm_90; docs/gpu.md,
 * "TMA loads"). An operand is given as tir lists it: `rank` dims and
 * strides (in elements) outermost first, the box (the tile a kernel
 * stages) likewise, the shared-memory swizzle span in bytes (0, 32, 64 or
 * 128), the element type one of RELAX_RT_TMA_*. Out-of-bounds elements of
 * a box read as zero. relax_rt_cuda_tensor_map_supported says whether the
 * operand can be mapped at all (16-byte-aligned base, innermost stride 1,
 * other strides multiples of 16 bytes, box dims in 1..256 whose innermost
 * is a multiple of 16 bytes and fits the swizzle span): compiled code keeps
 * its cp.async kernel when it cannot; it records no error and needs no
 * driver. relax_rt_cuda_tensor_map_encode writes the 128-byte map into `map`
 * (64-byte aligned) with the driver's cuTensorMapEncodeTiled; it returns 0
 * with the reason in the error slot ("CUDA: tensor map of B: stride of dim
 * 0 is 8194 bytes, not a positive multiple of 16 below 2^40", or the
 * driver's error with the arguments it was given) when it cannot. */
enum { RELAX_RT_TMA_F16 = 0, RELAX_RT_TMA_BF16 = 1, RELAX_RT_TMA_F32 = 2 };
int relax_rt_cuda_tensor_map_supported(int32_t dtype, const void *base,
                                       int64_t rank, const int64_t *dims,
                                       const int64_t *strides,
                                       const int64_t *box, int32_t swizzle);
int relax_rt_cuda_tensor_map_encode(void *map, const char *operand,
                                    int32_t dtype, const void *base,
                                    int64_t rank, const int64_t *dims,
                                    const int64_t *strides, const int64_t *box,
                                    int32_t swizzle);
/* What compiled code calls before a launch (tir.tensor_map): 0 when the
 * operand cannot be mapped (relax_rt_cuda_tensor_map_supported; no error:
 * the caller runs its kernel without TMA), else the device address of the
 * operand's map, encoded for this call and copied into a 128-byte device
 * buffer of `slot` (one per call site, allocated on first use); the copy is
 * skipped when the bytes equal those the slot holds (the same shapes and
 * buffers as the previous call). A failed encode, allocation or copy
 * returns 0 with the reason in the error slot. */
int64_t relax_rt_cuda_tensor_map_device(const void *slot, const char *operand,
                                        int32_t dtype, const void *base,
                                        int64_t rank, const int64_t *dims,
                                        const int64_t *strides,
                                        const int64_t *box, int32_t swizzle);

/* The upstream GPU runtime ABI (mlir/lib/ExecutionEngine/CudaRuntimeWrappers
 * names; own implementation). */
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream);
void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
}
#endif

#endif /* RELAXDIALECT_RUNTIME_RELAXCUDA_H */
