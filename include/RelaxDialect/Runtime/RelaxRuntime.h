/*===- RelaxRuntime.h - relax-mlir CPU runtime, C ABI -------------*- C -*-===*\
|*                                                                            *|
|* The small runtime that compiled relax modules call into: error reporting  *|
|* that returns to the caller instead of aborting, and the CPU BLAS binding  *|
|* behind the extern GEMM. Compiled code reaches it through plain C symbols; *|
|* tools (relax-run) and C/C++ embedders read the error back.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef RELAXDIALECT_RUNTIME_RELAXRUNTIME_H
#define RELAXDIALECT_RUNTIME_RELAXRUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Records a shape-check failure. `format` is a printf format with two
 * %lld conversions, in the order (actual, expected) unless the message
 * spells otherwise; generated code passes messages such as
 * "main: argument 'x' dim 1: expected 4, got %lld". Only the first error
 * of a call is kept: later checks cannot overwrite the root cause. */
void relax_rt_shape_error(const char *format, int64_t actual,
                          int64_t expected);

/* Records a complete error message (first error kept, like
 * relax_rt_shape_error); used by runtime functions that validate their own
 * inputs, such as the BLAS binding (RelaxBlas.h). */
void relax_rt_error(const char *message);

/* Non-zero when an error was recorded on this thread since the last clear. */
int relax_rt_has_error(void);

/* The recorded message (empty when there is none). Owned by the runtime. */
const char *relax_rt_last_error(void);

/* Forgets the recorded error of this thread. */
void relax_rt_clear_error(void);

/* The descriptor of a memref<?xi8> in MLIR's C interface: how runtime
 * functions hand raw memory (arenas, device copies) to compiled code. */
typedef struct relax_rt_bytes {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
} relax_rt_bytes;

/* Memory of planned functions (--relax-plan-memory). Compiled code takes
 * each planned function's arena from a per-function cache (keyed by `key`,
 * the address of a private global, never dereferenced), at least
 * `capacity` bytes when it can, and gives it back on return. A null
 * `aligned` pointer in the result means no memory. Called through MLIR's C
 * interface. relax_rt_workspace_trim frees every cached arena; call it only
 * when no compiled function is running. */
void _mlir_ciface_relax_rt_workspace_acquire(relax_rt_bytes *result,
                                             const void *key, int64_t bytes,
                                             int64_t capacity);
void _mlir_ciface_relax_rt_workspace_release(const void *key,
                                             relax_rt_bytes *buffer);
void relax_rt_workspace_trim(void);

/* What the runtime keeps about the constants of loaded modules, keyed by
 * their addresses (GEMM weights packed once: the `_packed` BLAS variants,
 * RelaxBlas.h). Whoever unloads a module calls this first, since the next
 * module may place other constants at those addresses; the module loader
 * and the JIT do. Packings of modules still loaded are rebuilt on use. */
void relax_rt_blas_release_constants(void);

/* Does the library products' one-time work of the process now (oneDNN
 * generates its GEMM kernels on its first product: 45 ms on a Zen 4 core);
 * later calls return at once. The module loader calls it for a module that
 * calls the BLAS binding, so that its first call (a prefill) does not pay
 * it. Thread-safe. */
void relax_rt_blas_warm_up(void);

/* The runtime's thread pool (lib/Runtime/RelaxThreads.cpp). Runs
 * fn(context, begin, end) over [0, n) cut into `chunks` near-equal pieces,
 * on the pool's threads and the calling one, and returns when every piece
 * has run. chunks <= 0 lets the runtime choose from `work` (an estimate of
 * the operations of the whole loop, or -1 when unknown); chunks == 1 runs
 * the loop on the calling thread. The outer parallel loops of compiled
 * kernels call it (--convert-parallel-loops-to-runtime). Threads:
 * RELAX_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs the process may
 * use; idle workers spin RELAX_SPIN_US microseconds (default 200), then
 * sleep. */
typedef void (*relax_rt_task_fn)(void *context, int64_t begin, int64_t end);
void relax_rt_parallel_for(relax_rt_task_fn fn, void *context, int64_t n,
                           int64_t chunks, int64_t work);
/* The number of threads relax_rt_parallel_for spreads a loop over. */
int relax_rt_num_threads(void);

/* Memory counters, fed by code compiled with
 * --relax-lower-shapes=record-memory=true (relax-run --memory-report):
 * bytes of intermediates allocated and freed, and what each planned
 * function's plan came to. */
void relax_rt_memory_alloc(int64_t bytes);
void relax_rt_memory_free(int64_t bytes);
void relax_rt_memory_plan(const char *function, const char *arena_formula,
                          int64_t arena_bytes, const char *unplanned_formula,
                          int64_t unplanned_bytes, int64_t storages,
                          int64_t planned, int64_t intermediates,
                          int64_t bound);
/* Forgets the counters and the recorded plans. */
void relax_rt_memory_reset(void);
/* The largest sum of live intermediate bytes since the last reset. */
int64_t relax_rt_memory_peak(void);
/* A readable report of the peak and of each recorded plan (formulas and
 * bytes); owned by the runtime, valid until the next call. */
const char *relax_rt_memory_report(void);

#ifdef __cplusplus
}
#endif

#endif /* RELAXDIALECT_RUNTIME_RELAXRUNTIME_H */
