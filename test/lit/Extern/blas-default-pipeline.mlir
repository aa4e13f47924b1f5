// The default CPU pipeline offloads contractions to the BLAS: linear layers
// ([1, s, 32] x [32, 32]^T) and two batched products over [batch, heads]
// (rank 4); the two head transposes of k compose into one permute, which
// its bias-add kernel writes, so no transpose kernel is left either way. (The products are gated by a sigmoid, not a softmax:
// softmax attention becomes relax.attention's streaming kernel first, see
// --relax-fuse-attention.) Fused or not, the outputs match the
// compiled loops (--dispatch-library=false), on a symbolic sequence length.
//
// RUN: relax-opt %s --relax-lower-to-cpu | FileCheck %s --check-prefix=LOWERED
// RUN: relax-opt %s --relax-lower-to-cpu=dispatch-library=false | FileCheck %s --check-prefix=LOOPS
// RUN: relax-opt %s --relax-fuse-ops=dispatch-library=cpu | FileCheck %s --check-prefix=FUSED
// RUN: rm -rf %t && mkdir -p %t
// RUN: relax-run %s --dispatch-library=false --random-inputs --dim s=13 --output-dir %t/ref > /dev/null
// RUN: relax-run %s --random-inputs --dim s=13 --expect %t/ref/output_0.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run %s --fuse --random-inputs --dim s=13 --expect %t/ref/output_0.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run %s --fuse --random-inputs --dim s=1 --dispatch-library=false --output-dir %t/ref1 > /dev/null
// RUN: relax-run %s --fuse --random-inputs --dim s=1 --expect %t/ref1/output_0.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: all 1 outputs match

// LOWERED-DAG: llvm.call @_mlir_ciface_relax_blas_batch_matmul_bcast_nt_f32(
// LOWERED-DAG: llvm.call @_mlir_ciface_relax_blas_batch2_matmul_f32(
// LOOPS-NOT: relax_blas

// The library calls stay outside the fused programs; the bias adds, the
// head split and the sigmoid fuse around them, and no transpose of k is
// left.
// FUSED-LABEL: relax.func @main
// FUSED-COUNT-3: relax.call_dps_packed @relax_blas_batch_matmul_bcast_nt_f32
// FUSED-COUNT-3: relax.call_tir @fused_add_reshape_permute_dims
// FUSED: relax.call_dps_packed @relax_blas_batch2_matmul_f32(%{{.*}}, %{{.*}}) : (!relax.tensor<[1, 2, s, 16], f32>, !relax.tensor<[1, 2, 16, s], f32>) -> !relax.tensor<[1, 2, s, s], f32>
// FUSED: relax.call_tir @{{.*}}sigmoid
// FUSED: relax.call_dps_packed @relax_blas_batch2_matmul_f32(%{{.*}}, %{{.*}}) : (!relax.tensor<[1, 2, s, s], f32>, !relax.tensor<[1, 2, s, 16], f32>) -> !relax.tensor<[1, 2, s, 16], f32>
// FUSED-NOT: relax.matmul
// FUSED: relax.return

relax.func @main(%x: !relax.tensor<[1, s, 32], f32>,
                 %wq: !relax.tensor<[32, 32], f32>, %wk: !relax.tensor<[32, 32], f32>,
                 %wv: !relax.tensor<[32, 32], f32>, %bias: !relax.tensor<[32], f32>)
    -> !relax.tensor<[1, 2, s, 16], f32> {
  %r = relax.dataflow -> !relax.tensor<[1, 2, s, 16], f32> {
    %q0 = relax.linear %x, %wq, %bias : (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[32, 32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[1, s, 32], f32>
    %k0 = relax.linear %x, %wk, %bias : (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[32, 32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[1, s, 32], f32>
    %v0 = relax.linear %x, %wv, %bias : (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[32, 32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[1, s, 32], f32>
    %q1 = relax.reshape %q0 {shape = #relax.shape<[1, s, 2, 16]>} : (!relax.tensor<[1, s, 32], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    %k1 = relax.reshape %k0 {shape = #relax.shape<[1, s, 2, 16]>} : (!relax.tensor<[1, s, 32], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    %v1 = relax.reshape %v0 {shape = #relax.shape<[1, s, 2, 16]>} : (!relax.tensor<[1, s, 32], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    %q = relax.permute_dims %q1 {axes = array<i64: 0, 2, 1, 3>} : (!relax.tensor<[1, s, 2, 16], f32>) -> !relax.tensor<[1, 2, s, 16], f32>
    %k = relax.permute_dims %k1 {axes = array<i64: 0, 2, 1, 3>} : (!relax.tensor<[1, s, 2, 16], f32>) -> !relax.tensor<[1, 2, s, 16], f32>
    %v = relax.permute_dims %v1 {axes = array<i64: 0, 2, 1, 3>} : (!relax.tensor<[1, s, 2, 16], f32>) -> !relax.tensor<[1, 2, s, 16], f32>
    %kt = relax.permute_dims %k {axes = array<i64: 0, 1, 3, 2>} : (!relax.tensor<[1, 2, s, 16], f32>) -> !relax.tensor<[1, 2, 16, s], f32>
    %scores = relax.matmul %q, %kt : (!relax.tensor<[1, 2, s, 16], f32>, !relax.tensor<[1, 2, 16, s], f32>) -> !relax.tensor<[1, 2, s, s], f32>
    %p = relax.sigmoid %scores : (!relax.tensor<[1, 2, s, s], f32>) -> !relax.tensor<[1, 2, s, s], f32>
    %ctx = relax.matmul %p, %v : (!relax.tensor<[1, 2, s, s], f32>, !relax.tensor<[1, 2, s, 16], f32>) -> !relax.tensor<[1, 2, s, 16], f32>
    relax.output %ctx : !relax.tensor<[1, 2, s, 16], f32>
  }
  relax.return %r : !relax.tensor<[1, 2, s, 16], f32>
}
