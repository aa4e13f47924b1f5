// RUN: relax-opt %s --relax-dispatch-library | FileCheck %s
// RUN: relax-opt %s --relax-dispatch-library="target=cuda library-gemms=all" | FileCheck %s --check-prefix=CUDA
// An unknown target is rejected when the pipeline is parsed, before any
// pass runs; so is one of --relax-fuse-ops' dispatch-library.
// RUN: ! relax-opt %s --relax-dispatch-library=target=tpu 2> %t.err
// RUN: FileCheck %s --check-prefix=BAD < %t.err
// RUN: ! relax-opt %s --relax-fuse-ops=dispatch-library=tpu 2> %t.fuse
// RUN: FileCheck %s --check-prefix=BAD-FUSE < %t.fuse

// BAD: for the --target option: Cannot find option named 'tpu'!
// BAD-FUSE: for the --dispatch-library option: Cannot find option named 'tpu'!

// One declaration per variant, shared by every call; symbolic signatures.
// CHECK-DAG: extern.func private @relax_blas_matmul_f32(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>, !relax.tensor<[m, n], f32>) attributes {link_name = "relax_blas_matmul_f32", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_blas_matmul_f64(
// CHECK-DAG: extern.func private @relax_blas_batch_matmul_f32(!relax.tensor<[b, m, k], f32>, !relax.tensor<[b, k, n], f32>, !relax.tensor<[b, m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_batch_matmul_bcast_f32(!relax.tensor<[b, m, k], f32>, !relax.tensor<[k, n], f32>, !relax.tensor<[b, m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_matmul_nt_f32(!relax.tensor<[m, k], f32>, !relax.tensor<[n, k], f32>, !relax.tensor<[m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_batch_matmul_bcast_nt_f32(!relax.tensor<[b, m, k], f32>, !relax.tensor<[n, k], f32>, !relax.tensor<[b, m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_batch2_matmul_nt_f32(!relax.tensor<[b0, b1, m, k], f32>, !relax.tensor<[b0, b1, n, k], f32>, !relax.tensor<[b0, b1, m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_batch2_matmul_f32(!relax.tensor<[b0, b1, m, k], f32>, !relax.tensor<[b0, b1, k, n], f32>, !relax.tensor<[b0, b1, m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_batch2_matmul_bcast_f32(!relax.tensor<[b0, b1, m, k], f32>, !relax.tensor<[k, n], f32>, !relax.tensor<[b0, b1, m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_conv2d_nchw_f32(!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[o, g, r, s], f32>, !relax.tensor<[9], i64>, !relax.tensor<[n, o, p, q], f32>) attributes {link_name = "relax_blas_conv2d_nchw_f32", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_blas_attention_f32(!relax.tensor<[b, s, hq, d], f32>, !relax.tensor<[b, t, hkv, d], f32>, !relax.tensor<[b, t, hkv, e], f32>, !relax.tensor<[2], f64>, !relax.tensor<[b, s, hq, e], f32>) attributes {link_name = "relax_blas_attention_f32", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_blas_attention_mask_f32(!relax.tensor<[b, s, hq, d], f32>, !relax.tensor<[b, t, hkv, d], f32>, !relax.tensor<[b, t, hkv, e], f32>, !relax.tensor<[m0, m1, m2, m3], f32>, !relax.tensor<[2], f64>, !relax.tensor<[b, s, hq, e], f32>)
// CHECK-DAG: extern.func private @relax_blas_attention_bmask_f32(!relax.tensor<[b, s, hq, d], f32>, !relax.tensor<[b, t, hkv, d], f32>, !relax.tensor<[b, t, hkv, e], f32>, !relax.tensor<[m0, m1, m2, m3], i1>, !relax.tensor<[2], f64>, !relax.tensor<[b, s, hq, e], f32>)
// CHECK-DAG: extern.func private @relax_blas_batch_matmul_bcast_nt_packed_f32(!relax.tensor<[b, m, k], f32>, !relax.tensor<[n, k], f32>, !relax.tensor<[b, m, n], f32>) attributes {link_name = "relax_blas_batch_matmul_bcast_nt_packed_f32", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_blas_matmul_packed_f32(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>, !relax.tensor<[m, n], f32>)
// CHECK-DAG: extern.func private @relax_blas_conv2d_fused_packed_f32(!relax.tensor<[xn, xc, xh, xw], f32>, !relax.tensor<[o, g, r, s], f32>, !relax.tensor<[o], f32>, !relax.tensor<[13], i64>, !relax.tensor<[yn, y1, y2, y3], f32>) attributes {link_name = "relax_blas_conv2d_fused_packed_f32", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_blas_conv2d_fused_res_packed_f32(!relax.tensor<[xn, xc, xh, xw], f32>, !relax.tensor<[o, g, r, s], f32>, !relax.tensor<[o], f32>, !relax.tensor<[rn, r1, r2, r3], f32>, !relax.tensor<[13], i64>, !relax.tensor<[yn, y1, y2, y3], f32>)
// CHECK-NOT: extern.func

// CUDA-DAG: extern.func private @relax_cublas_matmul_f32(
// CUDA-DAG: extern.func private @relax_cublas_matmul_f16(!relax.tensor<[m, k], f16>, !relax.tensor<[k, n], f16>, !relax.tensor<[m, n], f16>) attributes {link_name = "relax_cublas_matmul_f16", num_outputs = 1 : i64}
// CUDA-NOT: extern.func private @relax_cublas_matmul_f64

// CHECK-LABEL: relax.func @symbolic
// CHECK-SAME: (%[[A:.*]]: !relax.tensor<[n, k], f32>, %[[B:.*]]: !relax.tensor<[k, m], f32>)
// CHECK: %[[C:.*]] = relax.call_dps_packed @relax_blas_matmul_f32(%[[A]], %[[B]]) : (!relax.tensor<[n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
// The transpose feeding the rhs is read through the transposed-B variant.
// CHECK-NOT: relax.permute_dims
// CHECK: relax.call_dps_packed @relax_blas_matmul_nt_f32(%[[C]], %[[C]]) : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, n], f32>
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
// operands, broadcast batches (rank 4 and 3), unknown rank, unknown result
// dims. (cuBLAS has no rank-4 variant.)
// CHECK-LABEL: relax.func @not_dispatched
// CHECK-COUNT-8: relax.matmul
// CHECK-NOT: relax.call_dps_packed
// CUDA-LABEL: relax.func @not_dispatched
// CUDA: relax.call_dps_packed @relax_cublas_matmul_f16(
// CUDA-COUNT-6: relax.matmul
relax.func @not_dispatched(%i: !relax.tensor<[n, k], i32>, %h: !relax.tensor<[n, k], f16>,
                           %hk: !relax.tensor<[k, m], f16>, %v: !relax.tensor<[k], f32>,
                           %a: !relax.tensor<[n, k], f32>, %q: !relax.tensor<[2, s, n, k], f32>,
                           %r: !relax.tensor<[2, 1, k, m], f32>, %one: !relax.tensor<[1, n, k], f32>,
                           %bb: !relax.tensor<[s, k, m], f32>, %u: !relax.tensor<*, f32>,
                           %qa: !relax.tensor<[?, k], f32>, %ik: !relax.tensor<[k, m], i32>,
                           %fk: !relax.tensor<[k, m], f32>) {
  %0 = relax.matmul %i, %ik : (!relax.tensor<[n, k], i32>, !relax.tensor<[k, m], i32>) -> !relax.tensor<[n, m], i32>
  %1 = relax.matmul %h, %hk : (!relax.tensor<[n, k], f16>, !relax.tensor<[k, m], f16>) -> !relax.tensor<[n, m], f16>
  %2 = relax.matmul %h, %hk {out_dtype = f32} : (!relax.tensor<[n, k], f16>, !relax.tensor<[k, m], f16>) -> !relax.tensor<[n, m], f32>
  %3 = relax.matmul %a, %v : (!relax.tensor<[n, k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[n], f32>
  %4 = relax.matmul %q, %r : (!relax.tensor<[2, s, n, k], f32>, !relax.tensor<[2, 1, k, m], f32>) -> !relax.tensor<[2, s, n, m], f32>
  %5 = relax.matmul %one, %bb : (!relax.tensor<[1, n, k], f32>, !relax.tensor<[s, k, m], f32>) -> !relax.tensor<[s, n, m], f32>
  %6 = relax.matmul %u, %fk : (!relax.tensor<*, f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<*, f32>
  %7 = relax.matmul %qa, %fk : (!relax.tensor<[?, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[?, m], f32>
  relax.return
}

// Attention's products over [batch, heads]: the rank-4 variants (CPU only).
// A transpose of the last two dims feeding the rhs is read through the
// transposed-B variant and disappears when nothing else reads it; one with
// another reader stays for it; other permutations are not folded.
// CHECK-LABEL: relax.func @attention
// CHECK-SAME: (%[[Q:[^:]*]]: !relax.tensor<[b, 4, s, 8], f32>, %[[K:[^:]*]]: !relax.tensor<[b, 4, s, 8], f32>, %[[V:[^:]*]]: !relax.tensor<[b, 4, s, 8], f32>, %[[W:[^:]*]]: !relax.tensor<[8, 8], f32>, %[[K2:[^:]*]]: !relax.tensor<[s, 8], f32>, %[[M:[^:]*]]: !relax.tensor<[4, b, 8, 8], f32>)
// CHECK-NOT: relax.permute_dims %[[K]]
// CHECK: %[[S:.*]] = relax.call_dps_packed @relax_blas_batch2_matmul_nt_f32(%[[Q]], %[[K]]) : (!relax.tensor<[b, 4, s, 8], f32>, !relax.tensor<[b, 4, s, 8], f32>) -> !relax.tensor<[b, 4, s, s], f32>
// CHECK: relax.call_dps_packed @relax_blas_batch2_matmul_f32(%[[S]], %[[V]]) : (!relax.tensor<[b, 4, s, s], f32>, !relax.tensor<[b, 4, s, 8], f32>) -> !relax.tensor<[b, 4, s, 8], f32>
// CHECK: relax.call_dps_packed @relax_blas_batch2_matmul_bcast_f32(%[[Q]], %[[W]])
// CHECK: %[[T:.*]] = relax.permute_dims %[[K2]]
// CHECK: relax.call_dps_packed @relax_blas_matmul_nt_f32(%[[K2]], %[[K2]])
// CHECK: %[[P:.*]] = relax.permute_dims %[[M]] {axes = array<i64: 1, 0, 3, 2>}
// CHECK: relax.call_dps_packed @relax_blas_batch2_matmul_f32(%[[Q]], %[[P]])
// CHECK: relax.return %[[T]]
// CUDA-LABEL: relax.func @attention
// CUDA-COUNT-2: relax.matmul
// CUDA: relax.call_dps_packed @relax_cublas_matmul_nt_f32(
relax.func @attention(%q: !relax.tensor<[b, 4, s, 8], f32>, %k: !relax.tensor<[b, 4, s, 8], f32>,
                      %v: !relax.tensor<[b, 4, s, 8], f32>, %w: !relax.tensor<[8, 8], f32>,
                      %k2: !relax.tensor<[s, 8], f32>, %m: !relax.tensor<[4, b, 8, 8], f32>)
    -> !relax.tensor<[8, s], f32> {
  %kt = relax.permute_dims %k {axes = array<i64: 0, 1, -1, -2>} : (!relax.tensor<[b, 4, s, 8], f32>) -> !relax.tensor<[b, 4, 8, s], f32>
  %s = relax.matmul %q, %kt : (!relax.tensor<[b, 4, s, 8], f32>, !relax.tensor<[b, 4, 8, s], f32>) -> !relax.tensor<[b, 4, s, s], f32>
  %c = relax.matmul %s, %v : (!relax.tensor<[b, 4, s, s], f32>, !relax.tensor<[b, 4, s, 8], f32>) -> !relax.tensor<[b, 4, s, 8], f32>
  %p = relax.matmul %q, %w : (!relax.tensor<[b, 4, s, 8], f32>, !relax.tensor<[8, 8], f32>) -> !relax.tensor<[b, 4, s, 8], f32>
  %t = relax.permute_dims %k2 : (!relax.tensor<[s, 8], f32>) -> !relax.tensor<[8, s], f32>
  %g = relax.matmul %k2, %t : (!relax.tensor<[s, 8], f32>, !relax.tensor<[8, s], f32>) -> !relax.tensor<[s, s], f32>
  %mp = relax.permute_dims %m {axes = array<i64: 1, 0, 3, 2>} : (!relax.tensor<[4, b, 8, 8], f32>) -> !relax.tensor<[b, 4, 8, 8], f32>
  %x = relax.matmul %q, %mp : (!relax.tensor<[b, 4, s, 8], f32>, !relax.tensor<[b, 4, 8, 8], f32>) -> !relax.tensor<[b, 4, s, 8], f32>
  relax.return %t : !relax.tensor<[8, s], f32>
}

// conv2d on the CPU: the im2col + GEMM built-in, the window (strides,
// padding top/left/bottom/right, dilation, groups) a constant operand;
// output dims are the caller's expressions. cuBLAS has no conv2d, and f16
// stays with the legalizer.
// CHECK-LABEL: relax.func @conv
// CHECK-SAME: (%[[X:[^:]*]]: !relax.tensor<[b, 4, h, w], f32>, %[[W:[^:]*]]: !relax.tensor<[6, 2, 3, 3], f32>
// CHECK: %[[WIN:.*]] = relax.constant dense<[2, 2, 1, 0, 2, 1, 1, 1, 2]> : tensor<9xi64>
// CHECK: relax.call_dps_packed @relax_blas_conv2d_nchw_f32(%[[X]], %[[W]], %[[WIN]]) : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[6, 2, 3, 3], f32>, !relax.tensor<[9], i64>) -> !relax.tensor<[b, 6, h floordiv 2 + 1, w floordiv 2], f32>
// CHECK: %[[WIN2:.*]] = relax.constant dense<[1, 1, 2, 2, 2, 2, 2, 2, 2]> : tensor<9xi64>
// CHECK: relax.call_dps_packed @relax_blas_conv2d_nchw_f32(%[[X]], %[[W]], %[[WIN2]])
// CHECK: relax.conv2d %{{.*}} : (!relax.tensor<[b, 4, h, w], f16>
// CUDA-LABEL: relax.func @conv
// CUDA-NOT: relax_cublas_conv2d
// CUDA-COUNT-3: relax.conv2d
relax.func @conv(%x: !relax.tensor<[b, 4, h, w], f32>, %wt: !relax.tensor<[6, 2, 3, 3], f32>,
                 %xh: !relax.tensor<[b, 4, h, w], f16>, %wh: !relax.tensor<[6, 2, 3, 3], f16>) {
  %0 = relax.conv2d %x, %wt {strides = array<i64: 2>, padding = array<i64: 1, 0, 2, 1>, groups = 2} : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[6, 2, 3, 3], f32>) -> !relax.tensor<[b, 6, h floordiv 2 + 1, w floordiv 2], f32>
  %1 = relax.conv2d %x, %wt {padding = array<i64: 2>, dilation = array<i64: 2>, groups = 2} : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[6, 2, 3, 3], f32>) -> !relax.tensor<[b, 6, h, w], f32>
  %2 = relax.conv2d %xh, %wh {groups = 2} : (!relax.tensor<[b, 4, h, w], f16>, !relax.tensor<[6, 2, 3, 3], f16>) -> !relax.tensor<[b, 6, h - 2, w - 2], f16>
  relax.return
}

// attention on the CPU: the blocked-attention built-in, one variant per
// mask kind; the options operand is (scale, causal), NaN standing for
// 1 / sqrt(d) (d may be symbolic). A mask of rank below 4 gets leading unit
// dims. f16 (no CPU variant) and a cuda target keep relax.attention for the
// legalizer.
// CHECK-LABEL: relax.func @fused_attention
// CHECK-SAME: (%[[Q:.*]]: !relax.tensor<[b, s, 8, d], f32>, %[[K:.*]]: !relax.tensor<[b, t, 2, d], f32>, %[[V:.*]]: !relax.tensor<[b, t, 2, 16], f32>, %[[M:.*]]: !relax.tensor<[s, t], f32>, %[[BM:.*]]: !relax.tensor<[b, 8, s, t], i1>, %[[H:.*]]: !relax.tensor<[1, s, 4, 8], f16>)
// CHECK: %[[OPT0:.*]] = relax.constant dense<[0x7FF8000000000000, 1.000000e+00]> : tensor<2xf64>
// CHECK: relax.call_dps_packed @relax_blas_attention_f32(%[[Q]], %[[K]], %[[V]], %[[OPT0]]) : {{.*}} -> !relax.tensor<[b, s, 8, 16], f32>
// CHECK: %[[M4:.*]] = relax.expand_dims %[[M]] {axes = array<i64: 0, 1>} : (!relax.tensor<[s, t], f32>) -> !relax.tensor<[1, 1, s, t], f32>
// CHECK: %[[OPT1:.*]] = relax.constant dense<[2.500000e-01, 0.000000e+00]> : tensor<2xf64>
// CHECK: relax.call_dps_packed @relax_blas_attention_mask_f32(%[[Q]], %[[K]], %[[V]], %[[M4]], %[[OPT1]])
// CHECK: relax.call_dps_packed @relax_blas_attention_bmask_f32(%[[Q]], %[[K]], %[[V]], %[[BM]], %{{.*}})
// CHECK: relax.attention %[[H]], %[[H]], %[[H]]
// CUDA-LABEL: relax.func @fused_attention
// CUDA-COUNT-4: relax.attention
relax.func @fused_attention(%q: !relax.tensor<[b, s, 8, d], f32>, %k: !relax.tensor<[b, t, 2, d], f32>,
                      %v: !relax.tensor<[b, t, 2, 16], f32>, %m: !relax.tensor<[s, t], f32>,
                      %bm: !relax.tensor<[b, 8, s, t], i1>, %h: !relax.tensor<[1, s, 4, 8], f16>)
    -> (!relax.tensor<[b, s, 8, 16], f32>, !relax.tensor<[b, s, 8, 16], f32>,
        !relax.tensor<[b, s, 8, 16], f32>, !relax.tensor<[1, s, 4, 8], f16>) {
  %y0 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[b, s, 8, d], f32>, !relax.tensor<[b, t, 2, d], f32>, !relax.tensor<[b, t, 2, 16], f32>) -> !relax.tensor<[b, s, 8, 16], f32>
  %y1 = relax.attention %q, %k, %v, %m {scale = 0.25 : f64} : (!relax.tensor<[b, s, 8, d], f32>, !relax.tensor<[b, t, 2, d], f32>, !relax.tensor<[b, t, 2, 16], f32>, !relax.tensor<[s, t], f32>) -> !relax.tensor<[b, s, 8, 16], f32>
  %y2 = relax.attention %q, %k, %v, %bm : (!relax.tensor<[b, s, 8, d], f32>, !relax.tensor<[b, t, 2, d], f32>, !relax.tensor<[b, t, 2, 16], f32>, !relax.tensor<[b, 8, s, t], i1>) -> !relax.tensor<[b, s, 8, 16], f32>
  %y3 = relax.attention %h, %h, %h : (!relax.tensor<[1, s, 4, 8], f16>, !relax.tensor<[1, s, 4, 8], f16>, !relax.tensor<[1, s, 4, 8], f16>) -> !relax.tensor<[1, s, 4, 8], f16>
  relax.return %y0, %y1, %y2, %y3 : !relax.tensor<[b, s, 8, 16], f32>, !relax.tensor<[b, s, 8, 16], f32>, !relax.tensor<[b, s, 8, 16], f32>, !relax.tensor<[1, s, 4, 8], f16>
}

// A B that is a relax.constant (a layer's weights) takes the `_packed`
// variant on the CPU: the runtime packs it once. A B computed at run time,
// and every cuBLAS call, keep the plain variants.
// CHECK-LABEL: relax.func @constant_weights
// CHECK: %[[W:.*]] = relax.constant
// CHECK: %[[Y:.*]] = relax.call_dps_packed @relax_blas_batch_matmul_bcast_nt_packed_f32(%{{.*}}, %[[W]]) : (!relax.tensor<[b, n, 4], f32>, !relax.tensor<[3, 4], f32>) -> !relax.tensor<[b, n, 3], f32>
// CHECK: %[[V:.*]] = relax.constant
// CHECK: relax.call_dps_packed @relax_blas_matmul_packed_f32(%{{.*}}, %[[V]]) : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4, 2], f32>) -> !relax.tensor<[n, 2], f32>
// CHECK: relax.call_dps_packed @relax_blas_matmul_f32(
// CUDA-LABEL: relax.func @constant_weights
// CUDA-NOT: _packed_f32
// CUDA: relax.return
relax.func @constant_weights(%x: !relax.tensor<[b, n, 4], f32>, %z: !relax.tensor<[n, 4], f32>, %u: !relax.tensor<[4, 2], f32>)
    -> (!relax.tensor<[b, n, 3], f32>, !relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], f32>) {
  %w = relax.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5], [-1.0, 0.0, 1.0, 2.0]]> : tensor<3x4xf32>
  %y = relax.linear %x, %w : (!relax.tensor<[b, n, 4], f32>, !relax.tensor<[3, 4], f32>) -> !relax.tensor<[b, n, 3], f32>
  %v = relax.constant dense<1.5> : tensor<4x2xf32>
  %p = relax.matmul %z, %v : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4, 2], f32>) -> !relax.tensor<[n, 2], f32>
  %q = relax.matmul %z, %u : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4, 2], f32>) -> !relax.tensor<[n, 2], f32>
  relax.return %y, %p, %q : !relax.tensor<[b, n, 3], f32>, !relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], f32>
}

// A conv2d with constant weights takes the fused conv built-in (here with
// no epilogue: a zero bias; options = window, NCHW in and out, no ReLU), a
// grouped one too (groups in options[8]); one with run-time weights the
// plain one.
// CHECK-LABEL: relax.func @constant_conv
// CHECK-DAG: %[[ZERO:.*]] = relax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-DAG: %[[OPT:.*]] = relax.constant dense<[1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0]> : tensor<13xi64>
// CHECK: relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%arg0, %{{.*}}, %[[ZERO]], %[[OPT]]) : {{.*}} -> !relax.tensor<[b, 3, h, w], f32>
// CHECK: relax.call_dps_packed @relax_blas_conv2d_nchw_f32(
// CHECK: %[[GOPT:.*]] = relax.constant dense<[1, 1, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, 0]> : tensor<13xi64>
// CHECK: relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%arg0, %{{.*}}, %{{.*}}, %[[GOPT]]) : {{.*}} -> !relax.tensor<[b, 4, h, w], f32>
// CHECK-NOT: conv2d_nchw_packed
relax.func @constant_conv(%x: !relax.tensor<[b, 2, h, w], f32>, %k: !relax.tensor<[3, 2, 1, 1], f32>)
    -> (!relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[b, 4, h, w], f32>) {
  %c = relax.constant dense<0.5> : tensor<3x2x1x1xf32>
  %y = relax.conv2d %x, %c : (!relax.tensor<[b, 2, h, w], f32>, !relax.tensor<[3, 2, 1, 1], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %z = relax.conv2d %x, %k : (!relax.tensor<[b, 2, h, w], f32>, !relax.tensor<[3, 2, 1, 1], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %g = relax.constant dense<0.25> : tensor<4x1x1x1xf32>
  %u = relax.conv2d %x, %g {groups = 2} : (!relax.tensor<[b, 2, h, w], f32>, !relax.tensor<[4, 1, 1, 1], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  relax.return %y, %z, %u : !relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[b, 4, h, w], f32>
}

// ConvNeXt's head of a block: a depthwise 7x7 conv with a bias whose output
// only a channels-last view reads (permute_dims [0, 2, 3, 1]) writes NHWC
// itself (options[10] = 1, the result [b, h, w, 8]) and replaces the view;
// the layer norm reads the call's result. No transpose is left.
// CHECK-LABEL: relax.func @depthwise_channels_last
// CHECK: %[[DOPT:.*]] = relax.constant dense<[1, 1, 3, 3, 3, 3, 1, 1, 8, 0, 1, 0, 0]> : tensor<13xi64>
// CHECK: %[[D:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%arg0, %{{.*}}, %{{.*}}, %[[DOPT]]) : {{.*}} -> !relax.tensor<[b, h, w, 8], f32>
// CHECK-NOT: relax.permute_dims
// CHECK: relax.layer_norm %[[D]]
relax.func @depthwise_channels_last(%x: !relax.tensor<[b, 8, h, w], f32>)
    -> !relax.tensor<[b, h, w, 8], f32> {
  %wd = relax.constant dense<0.02> : tensor<8x1x7x7xf32>
  %c = relax.conv2d %x, %wd {groups = 8, padding = array<i64: 3>} : (!relax.tensor<[b, 8, h, w], f32>, !relax.tensor<[8, 1, 7, 7], f32>) -> !relax.tensor<[b, 8, h, w], f32>
  %bias = relax.constant dense<0.1> : tensor<8x1x1xf32>
  %cb = relax.add %c, %bias : (!relax.tensor<[b, 8, h, w], f32>, !relax.tensor<[8, 1, 1], f32>) -> !relax.tensor<[b, 8, h, w], f32>
  %t = relax.permute_dims %cb {axes = array<i64: 0, 2, 3, 1>} : (!relax.tensor<[b, 8, h, w], f32>) -> !relax.tensor<[b, h, w, 8], f32>
  %gamma = relax.constant dense<1.0> : tensor<8xf32>
  %beta = relax.constant dense<0.0> : tensor<8xf32>
  %n = relax.layer_norm %t, %gamma, %beta {axes = array<i64: -1>, epsilon = 1.0e-06 : f64} : (!relax.tensor<[b, h, w, 8], f32>, !relax.tensor<[8], f32>, !relax.tensor<[8], f32>) -> !relax.tensor<[b, h, w, 8], f32>
  relax.return %n : !relax.tensor<[b, h, w, 8], f32>
}

// A ResNet basic block: each conv absorbs its bias (expand_dims of a rank-1
// constant: the [o] tensor is passed as it is), the residual add and the
// ReLUs; the first conv's output is read only by the second, so it is
// conv-private (typed NHWC [b, h, w, 3], options[10] = 2, the call marked
// relax.conv_private_result) and the second reads it so (options[9] = 2,
// operand 0 in relax.conv_private_operands). The residual %x is NCHW
// (options[11] = 0), the output's layout: the call lets the memory plan
// write the output over it (relax.output_may_alias, operand 3). No kernel,
// no transpose and no expand_dims is left.
// CHECK-LABEL: relax.func @conv_block
// CHECK-DAG: %[[B1:.*]] = relax.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[O1:.*]] = relax.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2, 0, 1]> : tensor<13xi64>
// CHECK: %[[Y1:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%arg0, %{{.*}}, %[[B1]], %[[O1]]) {relax.conv_private_result} : {{.*}} -> !relax.tensor<[b, h, w, 3], f32>
// CHECK: %[[B2:.*]] = relax.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK: %[[O2:.*]] = relax.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 1]> : tensor<13xi64>
// CHECK: %[[Y2:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_res_packed_f32(%[[Y1]], %{{.*}}, %[[B2]], %arg0, %[[O2]]) {relax.conv_private_operands = array<i64: 0>, relax.output_may_alias = array<i64: 3>} : {{.*}} -> !relax.tensor<[b, 3, h, w], f32>
// CHECK-NOT: relax.permute_dims
// CHECK-NOT: relax.expand_dims
// CHECK-NOT: relax.add
// CHECK-NOT: relax.relu
// CHECK: relax.return %[[Y2]]
relax.func @conv_block(%x: !relax.tensor<[b, 3, h, w], f32>) -> !relax.tensor<[b, 3, h, w], f32> {
  %w1 = relax.constant dense<0.5> : tensor<3x3x3x3xf32>
  %c1 = relax.conv2d %x, %w1 {padding = array<i64: 1>} : (!relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[3, 3, 3, 3], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %b1 = relax.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e1 = relax.expand_dims %b1 {axes = array<i64: 1, 2>} : (!relax.tensor<[3], f32>) -> !relax.tensor<[3, 1, 1], f32>
  %a1 = relax.add %c1, %e1 : (!relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[3, 1, 1], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %r1 = relax.relu %a1 : (!relax.tensor<[b, 3, h, w], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %w2 = relax.constant dense<0.25> : tensor<3x3x3x3xf32>
  %c2 = relax.conv2d %r1, %w2 {padding = array<i64: 1>} : (!relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[3, 3, 3, 3], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %b2 = relax.constant dense<0.5> : tensor<1x3x1x1xf32>
  %a2 = relax.add %b2, %c2 : (!relax.tensor<[1, 3, 1, 1], f32>, !relax.tensor<[b, 3, h, w], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %a3 = relax.add %a2, %x : (!relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[b, 3, h, w], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %r2 = relax.relu %a3 : (!relax.tensor<[b, 3, h, w], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  relax.return %r2 : !relax.tensor<[b, 3, h, w], f32>
}

// The epilogue stops at a value with a second user (the bias-added output
// is returned too), and an output read by anything but a conv stays NCHW.
// CHECK-LABEL: relax.func @conv_shared
// CHECK: %[[Y:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32({{.*}}) : {{.*}} -> !relax.tensor<[b, 3, h, w], f32>
// CHECK: %[[R:.*]] = relax.relu %[[Y]]
// CHECK: relax.return %[[Y]], %[[R]]
relax.func @conv_shared(%x: !relax.tensor<[b, 3, h, w], f32>) -> (!relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[b, 3, h, w], f32>) {
  %w1 = relax.constant dense<0.5> : tensor<3x3x3x3xf32>
  %c1 = relax.conv2d %x, %w1 {padding = array<i64: 1>} : (!relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[3, 3, 3, 3], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %b1 = relax.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e1 = relax.expand_dims %b1 {axes = array<i64: 1, 2>} : (!relax.tensor<[3], f32>) -> !relax.tensor<[3, 1, 1], f32>
  %a1 = relax.add %c1, %e1 : (!relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[3, 1, 1], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  %r1 = relax.relu %a1 : (!relax.tensor<[b, 3, h, w], f32>) -> !relax.tensor<[b, 3, h, w], f32>
  relax.return %a1, %r1 : !relax.tensor<[b, 3, h, w], f32>, !relax.tensor<[b, 3, h, w], f32>
}

// A ResNet bottleneck with a shortcut conv: the block's last conv (%c3)
// comes before the shortcut conv (%d) but absorbs the add of both, so its
// call is made after the shortcut's, at the ReLU it replaces; the
// shortcut's output, read only as that residual, is conv-private and so is
// %c1's (options[9] = options[11] = 2). The block's output feeds the next
// conv as its input and as its residual, so it is private too; only the
// function's result is NCHW. The block's call may write over its private
// residual (relax.output_may_alias); the next one, whose residual is
// private and output NCHW, may not (different layouts).
// CHECK-LABEL: relax.func @bottleneck_shortcut
// CHECK: %[[Y1:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%arg0, {{.*}}) {relax.conv_private_result} : {{.*}} -> !relax.tensor<[b, h, w, 4], f32>
// CHECK: %[[D:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%arg0, {{.*}}) {relax.conv_private_result} : {{.*}} -> !relax.tensor<[b, h, w, 4], f32>
// CHECK: %[[O3:.*]] = relax.constant dense<[1, 1, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 1]> : tensor<13xi64>
// CHECK: %[[Y3:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_res_packed_f32(%[[Y1]], %{{.*}}, %{{.*}}, %[[D]], %[[O3]]) {relax.conv_private_operands = array<i64: 0, 3>, relax.conv_private_result, relax.output_may_alias = array<i64: 3>} : {{.*}} -> !relax.tensor<[b, h, w, 4], f32>
// CHECK: %[[O4:.*]] = relax.constant dense<[1, 1, 0, 0, 0, 0, 1, 1, 1, 2, 0, 2, 0]> : tensor<13xi64>
// CHECK: %[[Y4:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_res_packed_f32(%[[Y3]], %{{.*}}, %{{.*}}, %[[Y3]], %[[O4]]) {relax.conv_private_operands = array<i64: 0, 3>} : {{.*}} -> !relax.tensor<[b, 4, h, w], f32>
// CHECK-NOT: relax.permute_dims
// CHECK: relax.return %[[Y4]]
relax.func @bottleneck_shortcut(%x: !relax.tensor<[b, 4, h, w], f32>) -> !relax.tensor<[b, 4, h, w], f32> {
  %w1 = relax.constant dense<0.5> : tensor<4x4x1x1xf32>
  %c1 = relax.conv2d %x, %w1 : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[4, 4, 1, 1], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  %r1 = relax.relu %c1 : (!relax.tensor<[b, 4, h, w], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  %w3 = relax.constant dense<0.25> : tensor<4x4x1x1xf32>
  %c3 = relax.conv2d %r1, %w3 : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[4, 4, 1, 1], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  %wd = relax.constant dense<0.125> : tensor<4x4x1x1xf32>
  %d = relax.conv2d %x, %wd : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[4, 4, 1, 1], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  %s = relax.add %c3, %d : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[b, 4, h, w], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  %r = relax.relu %s : (!relax.tensor<[b, 4, h, w], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  %w4 = relax.constant dense<2.0> : tensor<4x4x1x1xf32>
  %c4 = relax.conv2d %r, %w4 : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[4, 4, 1, 1], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  %s4 = relax.add %c4, %r : (!relax.tensor<[b, 4, h, w], f32>, !relax.tensor<[b, 4, h, w], f32>) -> !relax.tensor<[b, 4, h, w], f32>
  relax.return %s4 : !relax.tensor<[b, 4, h, w], f32>
}

// Layouts are decided for the whole function from each output's users:
// %a is read only by the next conv: private. %b is read by a conv and a
// max pool: NCHW (the pool forces the plain layout at that edge; the
// reorder runs once, in %b's call). %s and %t are added, the add absorbed
// by %s's conv (the first in program order), so %t's output is private and
// its call comes first. An f64 chain stays NHWC (options[10] = 1): only
// oneDNN's f32 kernels have the blocked layout.
// CHECK-LABEL: relax.func @conv_layouts
// CHECK: %[[A:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%arg0, {{.*}}) {relax.conv_private_result} : {{.*}} -> !relax.tensor<[n, h, w, 8], f32>
// CHECK: %[[OB:.*]] = relax.constant dense<[2, 2, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 0]> : tensor<13xi64>
// CHECK: %[[B:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%[[A]], %{{.*}}, %{{.*}}, %[[OB]]) {relax.conv_private_operands = array<i64: 0>} : {{.*}} -> !relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
// CHECK: relax.max_pool2d %[[B]]
// CHECK: %[[T:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f32(%[[B]], {{.*}}) {relax.conv_private_result} : {{.*}} -> !relax.tensor<[n, (h + 1) floordiv 2, (w + 1) floordiv 2, 8], f32>
// CHECK: %[[OS:.*]] = relax.constant dense<[1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 2, 0]> : tensor<13xi64>
// CHECK: relax.call_dps_packed @relax_blas_conv2d_fused_res_packed_f32(%[[B]], %{{.*}}, %{{.*}}, %[[T]], %[[OS]]) {relax.conv_private_operands = array<i64: 3>} : {{.*}} -> !relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
// CHECK: %[[OD:.*]] = relax.constant dense<[1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0]> : tensor<13xi64>
// CHECK: %[[D:.*]] = relax.call_dps_packed @relax_blas_conv2d_fused_packed_f64(%arg1, %{{.*}}, %{{.*}}, %[[OD]]) : {{.*}} -> !relax.tensor<[n, h, w, 8], f64>
// CHECK: relax.call_dps_packed @relax_blas_conv2d_fused_packed_f64(%[[D]], {{.*}}) : {{.*}} -> !relax.tensor<[n, 8, h, w], f64>
// CHECK-NOT: relax.permute_dims
// CHECK: relax.return
relax.func @conv_layouts(%x: !relax.tensor<[n, 8, h, w], f32>, %xd: !relax.tensor<[n, 8, h, w], f64>)
    -> (!relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, 8, ?, ?], f32>, !relax.tensor<[n, 8, h, w], f64>) {
  %w1 = relax.constant dense<0.5> : tensor<8x8x1x1xf32>
  %a = relax.conv2d %x, %w1 : (!relax.tensor<[n, 8, h, w], f32>, !relax.tensor<[8, 8, 1, 1], f32>) -> !relax.tensor<[n, 8, h, w], f32>
  %w2 = relax.constant dense<0.25> : tensor<8x8x3x3xf32>
  %b = relax.conv2d %a, %w2 {strides = array<i64: 2>, padding = array<i64: 1>} : (!relax.tensor<[n, 8, h, w], f32>, !relax.tensor<[8, 8, 3, 3], f32>) -> !relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %p = relax.max_pool2d %b {pool_size = array<i64: 2>} : (!relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>) -> !relax.tensor<[n, 8, ?, ?], f32>
  %s = relax.conv2d %b, %w1 : (!relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[8, 8, 1, 1], f32>) -> !relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %t = relax.conv2d %b, %w1 : (!relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[8, 8, 1, 1], f32>) -> !relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %st = relax.add %s, %t : (!relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>) -> !relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %wd = relax.constant dense<0.5> : tensor<8x8x1x1xf64>
  %d1 = relax.conv2d %xd, %wd : (!relax.tensor<[n, 8, h, w], f64>, !relax.tensor<[8, 8, 1, 1], f64>) -> !relax.tensor<[n, 8, h, w], f64>
  %d2 = relax.conv2d %d1, %wd : (!relax.tensor<[n, 8, h, w], f64>, !relax.tensor<[8, 8, 1, 1], f64>) -> !relax.tensor<[n, 8, h, w], f64>
  relax.return %st, %p, %d2 : !relax.tensor<[n, 8, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, 8, ?, ?], f32>, !relax.tensor<[n, 8, h, w], f64>
}
