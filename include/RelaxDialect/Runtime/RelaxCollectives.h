//===- RelaxCollectives.h - collectives over MPI, C ABI ---------*- C++ -*-===//
//
// The CPU side of the communication built-ins of tensor-parallel programs
// (relax.ccl.*, lowered by --relax-lower-collectives; link names in
// RelaxDialect/Extern/IR/Builtins.h), in libRelaxCollectives, the one
// library that links MPI. Each entry takes memref descriptors (RelaxBlas.h's
// layout): the input X, an i64 options tensor, the output Y:
//
//   _mlir_ciface_relax_mpi_allreduce_<sum|prod|max|min>_r<N>_<f32|f64>(
//       X [d0..], options [1] = (num_ranks), Y [d0..])
//   _mlir_ciface_relax_mpi_allgather_r<N>_<f32|f64>(
//       X [d0..], options [2] = (num_ranks, axis), Y [.., ranks * d_axis, ..])
//
// for ranks N = 1 to 4, on MPI_COMM_WORLD. The caller (llama-generate-tp)
// initializes MPI; every rank must call the same collectives in the same
// order. Errors (MPI not initialized, a run on another number of ranks than
// the program was sharded for, shapes, an MPI failure) go to the runtime's
// error slot with the function's name; nothing aborts.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RUNTIME_RELAXCOLLECTIVES_H
#define RELAXDIALECT_RUNTIME_RELAXCOLLECTIVES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What this process spent inside the collectives since the last reset:
 * wall seconds (MPI calls and the copies around them), calls, and bytes
 * sent by this rank. Any pointer may be null. */
void relax_mpi_stats(double *seconds, int64_t *calls, int64_t *bytes);
void relax_mpi_reset_stats(void);

#ifdef __cplusplus
}
#endif

#endif // RELAXDIALECT_RUNTIME_RELAXCOLLECTIVES_H
