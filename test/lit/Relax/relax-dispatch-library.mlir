// RUN: relax-opt %s --relax-dispatch-library | FileCheck %s
// RUN: relax-opt %s --relax-dispatch-library=target=cuda | FileCheck %s --check-prefix=CUDA
// RUN: ! relax-opt %s --relax-dispatch-library=target=tpu 2> %t.err
// RUN: FileCheck %s --check-prefix=BAD < %t.err

// BAD: unknown target 'tpu' (expected cpu or cuda)

// One declaration per variant, shared by every call; symbolic signatures.
// CHECK-DAG: extern.func private @relax_blas_matmul_f32(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>, !relax.tensor<[m, n], f32>) attributes {link_name = "relax_blas_matmul_f32", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_blas_matmul_f64(
// CHECK-DAG: extern.func private @relax_blas_batch_matmul_f32(!relax.tensor<[b, m, k], f32>, !relax.tensor<[b, k, n], f32>, !relax.tensor<[b, m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_batch_matmul_bcast_f32(!relax.tensor<[b, m, k], f32>, !relax.tensor<[k, n], f32>, !relax.tensor<[b, m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_matmul_nt_f32(!relax.tensor<[m, k], f32>, !relax.tensor<[n, k], f32>, !relax.tensor<[m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_batch_matmul_bcast_nt_f32(!relax.tensor<[b, m, k], f32>, !relax.tensor<[n, k], f32>, !relax.tensor<[b, m, n], f32>)
// CHECK-NOT: extern.func

// CUDA-DAG: extern.func private @relax_cublas_matmul_f32(
// CUDA-DAG: extern.func private @relax_cublas_matmul_f16(!relax.tensor<[m, k], f16>, !relax.tensor<[k, n], f16>, !relax.tensor<[m, n], f16>) attributes {link_name = "relax_cublas_matmul_f16", num_outputs = 1 : i64}
// CUDA-NOT: extern.func private @relax_cublas_matmul_f64

// CHECK-LABEL: relax.func @symbolic
// CHECK-SAME: (%[[A:.*]]: !relax.tensor<[n, k], f32>, %[[B:.*]]: !relax.tensor<[k, m], f32>)
// CHECK: %[[C:.*]] = relax.call_dps_packed @relax_blas_matmul_f32(%[[A]], %[[B]]) : (!relax.tensor<[n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK: %[[T:.*]] = relax.permute_dims %[[C]]
// CHECK: relax.call_dps_packed @relax_blas_matmul_f32(%[[C]], %[[T]]) : (!relax.tensor<[n, m], f32>, !relax.tensor<[m, n], f32>) -> !relax.tensor<[n, n], f32>
// CHECK-NOT: relax.matmul
// CHECK: relax.return
// CUDA-LABEL: relax.func @symbolic
// CUDA: relax.call_dps_packed @relax_cublas_matmul_f32(
relax.func @symbolic(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[k, m], f32>)
    -> !relax.tensor<[n, n], f32> {
  %c = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
  %t = relax.permute_dims %c {axes = array<i64: 1, 0>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[m, n], f32>
  %d = relax.matmul %c, %t : (!relax.tensor<[n, m], f32>, !relax.tensor<[m, n], f32>) -> !relax.tensor<[n, n], f32>
  relax.return %d : !relax.tensor<[n, n], f32>
}

// relax.call_dps_packed is pure at graph level, so matmuls inside dataflow
// regions are dispatched too.
// CHECK-LABEL: relax.func @in_dataflow
// CHECK: relax.dataflow
// CHECK: relax.call_dps_packed @relax_blas_matmul_f32
relax.func @in_dataflow(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[k, m], f32>)
    -> !relax.tensor<[n, m], f32> {
  %r = relax.dataflow -> !relax.tensor<[n, m], f32> {
    %c = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
    relax.output %c : !relax.tensor<[n, m], f32>
  }
  relax.return %r : !relax.tensor<[n, m], f32>
}

// CHECK-LABEL: relax.func @static_f64
// CHECK: relax.call_dps_packed @relax_blas_matmul_f64(%{{.*}}, %{{.*}}) : (!relax.tensor<[4, 8], f64>, !relax.tensor<[8, 2], f64>) -> !relax.tensor<[4, 2], f64>
// CUDA-LABEL: relax.func @static_f64
// CUDA: relax.matmul
relax.func @static_f64(%a: !relax.tensor<[4, 8], f64>, %b: !relax.tensor<[8, 2], f64>)
    -> !relax.tensor<[4, 2], f64> {
  %c = relax.matmul %a, %b : (!relax.tensor<[4, 8], f64>, !relax.tensor<[8, 2], f64>) -> !relax.tensor<[4, 2], f64>
  relax.return %c : !relax.tensor<[4, 2], f64>
}

// CHECK-LABEL: relax.func @batched
// CHECK: relax.call_dps_packed @relax_blas_batch_matmul_f32(%{{.*}}, %{{.*}}) : (!relax.tensor<[s, n, k], f32>, !relax.tensor<[s, k, m], f32>) -> !relax.tensor<[s, n, m], f32>
// CHECK: relax.call_dps_packed @relax_blas_batch_matmul_bcast_f32(%{{.*}}, %{{.*}}) : (!relax.tensor<[s, n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[s, n, m], f32>
relax.func @batched(%a: !relax.tensor<[s, n, k], f32>, %b: !relax.tensor<[s, k, m], f32>,
                    %w: !relax.tensor<[k, m], f32>) -> !relax.tensor<[s, n, m], f32> {
  %c = relax.matmul %a, %b : (!relax.tensor<[s, n, k], f32>, !relax.tensor<[s, k, m], f32>) -> !relax.tensor<[s, n, m], f32>
  %d = relax.matmul %a, %w : (!relax.tensor<[s, n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[s, n, m], f32>
  relax.return %d : !relax.tensor<[s, n, m], f32>
}

// Linear layers: the transposed-B variants; the bias becomes a relax.add.
// CHECK-LABEL: relax.func @linear
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, 16], f32>, %[[W:.*]]: !relax.tensor<[32, 16], f32>, %[[BIAS:.*]]: !relax.tensor<[32], f32>, %[[X3:.*]]: !relax.tensor<[s, n, 16], f32>)
// CHECK: relax.call_dps_packed @relax_blas_matmul_nt_f32(%[[X]], %[[W]]) : (!relax.tensor<[n, 16], f32>, !relax.tensor<[32, 16], f32>) -> !relax.tensor<[n, 32], f32>
// CHECK: %[[P:.*]] = relax.call_dps_packed @relax_blas_matmul_nt_f32(%[[X]], %[[W]])
// CHECK: relax.add %[[P]], %[[BIAS]] : (!relax.tensor<[n, 32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32>
// CHECK: %[[Q:.*]] = relax.call_dps_packed @relax_blas_batch_matmul_bcast_nt_f32(%[[X3]], %[[W]]) : (!relax.tensor<[s, n, 16], f32>, !relax.tensor<[32, 16], f32>) -> !relax.tensor<[s, n, 32], f32>
// CHECK: relax.add %[[Q]], %[[BIAS]]
// CHECK-NOT: relax.linear
relax.func @linear(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[32, 16], f32>,
                   %bias: !relax.tensor<[32], f32>, %x3: !relax.tensor<[s, n, 16], f32>)
    -> !relax.tensor<[s, n, 32], f32> {
  %y0 = relax.linear %x, %w : (!relax.tensor<[n, 16], f32>, !relax.tensor<[32, 16], f32>) -> !relax.tensor<[n, 32], f32>
  %y1 = relax.linear %x, %w, %bias : (!relax.tensor<[n, 16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32>
  %y2 = relax.linear %x3, %w, %bias : (!relax.tensor<[s, n, 16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[s, n, 32], f32>
  relax.return %y2 : !relax.tensor<[s, n, 32], f32>
}

// Left for the legalizer: integer dtype, f16 on CPU, mixed precision, 1-D
// operands, rank 4, broadcast batch, unknown rank, unknown result dims.
// CHECK-LABEL: relax.func @not_dispatched
// CHECK-COUNT-8: relax.matmul
// CHECK-NOT: relax.call_dps_packed
// CUDA-LABEL: relax.func @not_dispatched
// CUDA: relax.call_dps_packed @relax_cublas_matmul_f16(
// CUDA-COUNT-6: relax.matmul
relax.func @not_dispatched(%i: !relax.tensor<[n, k], i32>, %h: !relax.tensor<[n, k], f16>,
                           %hk: !relax.tensor<[k, m], f16>, %v: !relax.tensor<[k], f32>,
                           %a: !relax.tensor<[n, k], f32>, %q: !relax.tensor<[2, s, n, k], f32>,
                           %r: !relax.tensor<[2, s, k, m], f32>, %one: !relax.tensor<[1, n, k], f32>,
                           %bb: !relax.tensor<[s, k, m], f32>, %u: !relax.tensor<*, f32>,
                           %qa: !relax.tensor<[?, k], f32>, %ik: !relax.tensor<[k, m], i32>,
                           %fk: !relax.tensor<[k, m], f32>) {
  %0 = relax.matmul %i, %ik : (!relax.tensor<[n, k], i32>, !relax.tensor<[k, m], i32>) -> !relax.tensor<[n, m], i32>
  %1 = relax.matmul %h, %hk : (!relax.tensor<[n, k], f16>, !relax.tensor<[k, m], f16>) -> !relax.tensor<[n, m], f16>
  %2 = relax.matmul %h, %hk {out_dtype = f32} : (!relax.tensor<[n, k], f16>, !relax.tensor<[k, m], f16>) -> !relax.tensor<[n, m], f32>
  %3 = relax.matmul %a, %v : (!relax.tensor<[n, k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[n], f32>
  %4 = relax.matmul %q, %r : (!relax.tensor<[2, s, n, k], f32>, !relax.tensor<[2, s, k, m], f32>) -> !relax.tensor<[2, s, n, m], f32>
  %5 = relax.matmul %one, %bb : (!relax.tensor<[1, n, k], f32>, !relax.tensor<[s, k, m], f32>) -> !relax.tensor<[s, n, m], f32>
  %6 = relax.matmul %u, %fk : (!relax.tensor<*, f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<*, f32>
  %7 = relax.matmul %qa, %fk : (!relax.tensor<[?, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[?, m], f32>
  relax.return
}
