// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// relax.ccl.allreduce keeps its input's type (symbolic dims included; the
// default op, sum, is not printed);
// relax.ccl.allgather multiplies the gathered dim by the ranks, a negative
// axis counting from the end; a `?` dim stays `?`.

// CHECK-LABEL: relax.func @collectives
// CHECK: relax.ccl.allreduce %{{.*}} {num_ranks = 2 : i64} : (!relax.tensor<[1, s, h], f32>) -> !relax.tensor<[1, s, h], f32>
// CHECK: relax.ccl.allreduce %{{.*}} {num_ranks = 3 : i64, op = "max"} : (!relax.tensor<*, f64>) -> !relax.tensor<*, f64>
// CHECK: relax.ccl.allgather %{{.*}} {axis = -1 : i64, num_ranks = 2 : i64} : (!relax.tensor<[1, s, h], f32>) -> !relax.tensor<[1, s, h * 2], f32>
// CHECK: relax.ccl.allgather %{{.*}} {axis = 0 : i64, num_ranks = 3 : i64} : (!relax.tensor<[?, 4], f16>) -> !relax.tensor<[?, 4], f16>
relax.func @collectives(%x: !relax.tensor<[1, s, h], f32>, %u: !relax.tensor<*, f64>, %q: !relax.tensor<[?, 4], f16>) {
  %0 = relax.ccl.allreduce %x {num_ranks = 2 : i64} : (!relax.tensor<[1, s, h], f32>) -> !relax.tensor<[1, s, h], f32>
  %1 = relax.ccl.allreduce %u {num_ranks = 3 : i64, op = "max"} : (!relax.tensor<*, f64>) -> !relax.tensor<*, f64>
  %2 = relax.ccl.allgather %x {axis = -1 : i64, num_ranks = 2 : i64} : (!relax.tensor<[1, s, h], f32>) -> !relax.tensor<[1, s, 2 * h], f32>
  %3 = relax.ccl.allgather %q {axis = 0 : i64, num_ranks = 3 : i64} : (!relax.tensor<[?, 4], f16>) -> !relax.tensor<[?, 4], f16>
  relax.return
}
