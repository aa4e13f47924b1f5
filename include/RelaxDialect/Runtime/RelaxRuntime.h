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

#ifdef __cplusplus
}
#endif

#endif /* RELAXDIALECT_RUNTIME_RELAXRUNTIME_H */
