// RUN: relax-opt %s --relax-lower-collectives | FileCheck %s --check-prefix=CPU
// RUN: relax-opt %s --relax-lower-collectives=target=cuda | FileCheck %s --check-prefix=CUDA
// Fusion leaves collectives alone (target-neutral); the CPU pipeline lowers
// them to MPI calls of the C interface (LLVM dialect).
// RUN: relax-opt %s --relax-fuse-ops | FileCheck %s --check-prefix=FUSED
// RUN: relax-opt %s --relax-fuse-ops --relax-lower-to-cpu | FileCheck %s --check-prefix=HOST

// Symbolic dims: the declaration's own variables, one per rank and dtype;
// the ranks (and the gather's axis, made non-negative) in the options.

// CPU-DAG: extern.func private @relax_mpi_allreduce_sum_r3_f32(!relax.tensor<[d0, d1, d2], f32>, !relax.tensor<[1], i64>, !relax.tensor<[d0, d1, d2], f32>) attributes {link_name = "relax_mpi_allreduce_sum_r3_f32", num_outputs = 1 : i64}
// CPU-DAG: extern.func private @relax_mpi_allreduce_max_r1_f32(
// CPU-DAG: extern.func private @relax_mpi_allgather_r3_f32(!relax.tensor<[d0, d1, d2], f32>, !relax.tensor<[2], i64>, !relax.tensor<[e0, e1, e2], f32>) attributes {link_name = "relax_mpi_allgather_r3_f32", num_outputs = 1 : i64}
// CPU-LABEL: relax.func @tp
// CPU: %[[R:.*]] = relax.constant dense<2> : tensor<1xi64>
// CPU: %[[S:.*]] = relax.call_dps_packed @relax_mpi_allreduce_sum_r3_f32(%{{.*}}, %[[R]]) : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[1], i64>) -> !relax.tensor<[1, s, 64], f32>
// CPU: %[[G:.*]] = relax.constant dense<2> : tensor<2xi64>
// CPU: relax.call_dps_packed @relax_mpi_allgather_r3_f32(%[[S]], %[[G]]) : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[2], i64>) -> !relax.tensor<[1, s, 128], f32>
// CPU: relax.call_dps_packed @relax_mpi_allreduce_max_r1_f32
// CPU-NOT: relax.ccl

// CUDA-DAG: extern.func private @relax_nccl_allreduce_sum_r3_f32(
// CUDA-DAG: extern.func private @relax_nccl_allgather_r3_f32(
// CUDA-LABEL: relax.func @tp
// CUDA: relax.call_dps_packed @relax_nccl_allreduce_sum_r3_f32
// CUDA: relax.call_dps_packed @relax_nccl_allgather_r3_f32

// FUSED-LABEL: relax.func @tp
// FUSED: relax.ccl.allreduce
// FUSED: relax.ccl.allgather

// HOST-DAG: llvm.call @_mlir_ciface_relax_mpi_allreduce_sum_r3_f32(
// HOST-DAG: llvm.call @_mlir_ciface_relax_mpi_allgather_r3_f32(
// HOST-DAG: llvm.call @_mlir_ciface_relax_mpi_allreduce_max_r1_f32(
relax.func @tp(%x: !relax.tensor<[1, s, 64], f32>, %w: !relax.tensor<[64, 32], f32>, %v: !relax.tensor<[n], f32>) -> (!relax.tensor<[1, s, 128], f32>, !relax.tensor<[n], f32>) {
  %0:2 = relax.dataflow -> !relax.tensor<[1, s, 128], f32>, !relax.tensor<[n], f32> {
    %e = relax.exp %x : (!relax.tensor<[1, s, 64], f32>) -> !relax.tensor<[1, s, 64], f32>
    %s = relax.ccl.allreduce %e {num_ranks = 2 : i64, op = "sum"} : (!relax.tensor<[1, s, 64], f32>) -> !relax.tensor<[1, s, 64], f32>
    %g = relax.ccl.allgather %s {axis = -1 : i64, num_ranks = 2 : i64} : (!relax.tensor<[1, s, 64], f32>) -> !relax.tensor<[1, s, 128], f32>
    %m = relax.ccl.allreduce %v {num_ranks = 2 : i64, op = "max"} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.output %g, %m : !relax.tensor<[1, s, 128], f32>, !relax.tensor<[n], f32>
  }
  relax.return %0#0, %0#1 : !relax.tensor<[1, s, 128], f32>, !relax.tensor<[n], f32>
}
