// End-to-end: reductions along a row, which the CPU schedule accumulates in
// 64 bytes of lanes (laneReduction: 16 f32 or i32, 8 f64; whole steps of
// lanes, then the remainder into lane 0, then the lanes folded), at row
// lengths m below one step (5), exactly one (16), steps plus a remainder
// (37 for every type: 2 x 16 + 5, 4 x 8 + 5) and longer (300), n symbolic
// too: sum, max, min of a shifted row (-inf / +inf identities), the mean of
// squares of an RMS norm, softmax, an i32 sum (exact) and an f64 sum;
// against numpy in float64. f32 sums of at most 300 values in [-1, 1):
// rtol 1e-5, atol 1e-5; f64 rtol 1e-12.
// RUN: rm -rf %t
// RUN: for m in 5 16 37 300; do %python %S/ref.py %t/m$m --seed $m "x.sum(axis=1)" "x.max(axis=1)" "(x - 2.0).min(axis=1, keepdims=True)" "(x.astype(np.float64) ** 2).mean(axis=-1, keepdims=True)" "softmax(4.0 * x.astype(np.float64))" "i.sum(axis=1).astype(np.int32)" "d.sum(axis=1)" -- x:f32:3,$m i:i32:3,$m d:f64:3,$m; done
// RUN: for m in 5 16 37 300; do for f in "" --fuse; do relax-run $f %s --input %t/m$m/in0.npy --input %t/m$m/in1.npy --input %t/m$m/in2.npy --expect %t/m$m/out0.npy --expect %t/m$m/out1.npy --expect %t/m$m/out2.npy --expect %t/m$m/out3.npy --expect %t/m$m/out4.npy --expect %t/m$m/out5.npy --rtol 1e-5 --atol 1e-5 || exit 1; done; done | FileCheck %s
// CHECK-COUNT-8: all 6 outputs match
// RUN: for m in 5 37 300; do relax-run %s --entry f64 --input %t/m$m/in2.npy --expect %t/m$m/out6.npy --rtol 1e-12 --atol 1e-12 || exit 1; done | FileCheck %s --check-prefix=F64
// F64-COUNT-3: all 1 outputs match
//
// The lanes are there: 16 for the f32 and i32 sums, 8 for the f64 one.
// RUN: relax-opt --relax-legalize-ops --tir-cpu-default-schedule %s | FileCheck %s --check-prefix=IR
// IR-LABEL: tir.prim_func private @T_sum(
// IR: tir.alloc : !tir.buffer<[16], f32, local>
// IR: tir.block "sum_lanes"
// IR-LABEL: tir.prim_func private @T_sum_1(
// IR: tir.alloc : !tir.buffer<[16], i32, local>
// IR-LABEL: tir.prim_func private @T_sum_2(
// IR: tir.alloc : !tir.buffer<[8], f64, local>

relax.func @main(%x: !relax.tensor<[n, m], f32>, %i: !relax.tensor<[n, m], i32>, %d: !relax.tensor<[n, m], f64>)
    -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n, 1], f32>, !relax.tensor<[n, 1], f32>,
        !relax.tensor<[n, m], f32>, !relax.tensor<[n], i32>) {
  %a = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], f32>
  %b = relax.max %x {axes = array<i64: 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], f32>
  %two = relax.constant dense<2.0> : tensor<f32>
  %s = relax.subtract %x, %two : (!relax.tensor<[n, m], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[n, m], f32>
  %c = relax.min %s {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, 1], f32>
  %sq = relax.multiply %x, %x : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %e = relax.mean %sq {axes = array<i64: -1>, keepdims = true} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, 1], f32>
  %four = relax.constant dense<4.0> : tensor<f32>
  %x4 = relax.multiply %x, %four : (!relax.tensor<[n, m], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[n, m], f32>
  %f = relax.softmax %x4 : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %g = relax.sum %i {axes = array<i64: 1>} : (!relax.tensor<[n, m], i32>) -> !relax.tensor<[n], i32>
  relax.return %a, %b, %c, %e, %f, %g : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n, 1], f32>, !relax.tensor<[n, 1], f32>, !relax.tensor<[n, m], f32>, !relax.tensor<[n], i32>
}

relax.func @f64(%d: !relax.tensor<[n, m], f64>) -> !relax.tensor<[n], f64> {
  %s = relax.sum %d {axes = array<i64: 1>} : (!relax.tensor<[n, m], f64>) -> !relax.tensor<[n], f64>
  relax.return %s : !relax.tensor<[n], f64>
}
