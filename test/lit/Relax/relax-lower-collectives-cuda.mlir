// RUN: relax-opt %s --relax-lower-collectives=target=cuda | FileCheck %s

// The GPU's half-precision collectives (NCCL names; the CPU has none:
// relax-lower-collectives-invalid.mlir).

// CHECK-DAG: extern.func private @relax_nccl_allreduce_sum_r2_f16(!relax.tensor<[d0, d1], f16>, !relax.tensor<[1], i64>, !relax.tensor<[d0, d1], f16>)
// CHECK-DAG: extern.func private @relax_nccl_allgather_r2_bf16(!relax.tensor<[d0, d1], bf16>, !relax.tensor<[2], i64>, !relax.tensor<[e0, e1], bf16>)
// CHECK-LABEL: relax.func @half
// CHECK: relax.constant dense<4> : tensor<1xi64>
// CHECK: relax.call_dps_packed @relax_nccl_allreduce_sum_r2_f16
// CHECK: relax.constant dense<[4, 0]> : tensor<2xi64>
// CHECK: relax.call_dps_packed @relax_nccl_allgather_r2_bf16
relax.func @half(%x: !relax.tensor<[n, 8], f16>, %b: !relax.tensor<[n, 8], bf16>) -> (!relax.tensor<[n, 8], f16>, !relax.tensor<[4 * n, 8], bf16>) {
  %0:2 = relax.dataflow -> !relax.tensor<[n, 8], f16>, !relax.tensor<[4 * n, 8], bf16> {
    %s = relax.ccl.allreduce %x {num_ranks = 4 : i64} : (!relax.tensor<[n, 8], f16>) -> !relax.tensor<[n, 8], f16>
    %g = relax.ccl.allgather %b {axis = 0 : i64, num_ranks = 4 : i64} : (!relax.tensor<[n, 8], bf16>) -> !relax.tensor<[4 * n, 8], bf16>
    relax.output %s, %g : !relax.tensor<[n, 8], f16>, !relax.tensor<[4 * n, 8], bf16>
  }
  relax.return %0#0, %0#1 : !relax.tensor<[n, 8], f16>, !relax.tensor<[4 * n, 8], bf16>
}
