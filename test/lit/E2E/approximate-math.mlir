// End-to-end: the CPU pipeline's f32 exp, erf and tanh are upstream's
// polynomial approximations (relax-approximate-math), the rest libm. Against
// float64 numpy on 40000 inputs over [-100, 100] and the special values
// (Inputs/approximate_math.py): rtol 1e-6 (the approximations measured at
// most 4.6 ulp, about 3e-7), atol 1e-37 (results below the smallest normal
// float flush to zero); infinities and NaNs must match exactly, which
// relax-run's comparison enforces. log stays libm: its subnormal input
// 1e-40 must give -92.1, not the approximation's -87.3. sigmoid is built on
// exp. The same with --approximate-math off (libm everywhere) and fused.
// RUN: rm -rf %t && %python -B %S/Inputs/approximate_math.py %t
// RUN: relax-run %s --input %t/in0.npy --input %t/in1.npy --expect %t/out0.npy --expect %t/out1.npy --expect %t/out2.npy --expect %t/out3.npy --expect %t/out4.npy --rtol 1e-6 --atol 1e-37 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/in0.npy --input %t/in1.npy --expect %t/out0.npy --expect %t/out1.npy --expect %t/out2.npy --expect %t/out3.npy --expect %t/out4.npy --rtol 1e-6 --atol 1e-37 | FileCheck %s
// RUN: relax-run --approximate-math=false %s --input %t/in0.npy --input %t/in1.npy --expect %t/out0.npy --expect %t/out1.npy --expect %t/out2.npy --expect %t/out3.npy --expect %t/out4.npy --rtol 1e-6 --atol 1e-37 | FileCheck %s
// CHECK: all 5 outputs match
// The lowered code calls no scalar libm function for the approximated ops.
// RUN: relax-run %s --input %t/in0.npy --input %t/in1.npy --print-lowered | FileCheck %s --check-prefix=LOWERED --implicit-check-not=llvm.intr.exp --implicit-check-not=@erff --implicit-check-not=llvm.intr.tanh
// RUN: relax-run --approximate-math=false %s --input %t/in0.npy --input %t/in1.npy --print-lowered | FileCheck %s --check-prefix=LIBM
// (LLVM lowers its exp and tanh intrinsics to expf and tanhf.)
// LOWERED: llvm.intr.log
// LIBM-DAG: llvm.func @erff
// LIBM-DAG: llvm.intr.exp
// LIBM-DAG: llvm.intr.tanh

relax.func @main(%x: !relax.tensor<[n], f32>, %p: !relax.tensor<[m], f32>)
    -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>,
        !relax.tensor<[m], f32>, !relax.tensor<[n], f32>) {
  %a = relax.exp %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %b = relax.erf %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %c = relax.tanh %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %d = relax.log %p : (!relax.tensor<[m], f32>) -> !relax.tensor<[m], f32>
  %e = relax.sigmoid %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %a, %b, %c, %d, %e : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[m], f32>, !relax.tensor<[n], f32>
}
