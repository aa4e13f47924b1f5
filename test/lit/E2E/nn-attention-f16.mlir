// End-to-end: f16 relax.attention (causal, hq = 4 over hkv = 2, d = 8)
// against numpy in float64; the legalization accumulates scores, softmax
// and the weighted sum in f32 and rounds once to f16. Symbolic s = skv at
// s = 1 and s = 7; f16 output rounding: rtol 2e-3, atol 1e-3.
// RUN: rm -rf %t && %python -B %S/ref.py %t/a "__import__('ref').attention_ref(q, k, v, causal=True)" -- q:f16:1,1,4,8 k:f16:1,1,2,8 v:f16:1,1,2,8
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --expect %t/a/out0.npy --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --expect %t/a/out0.npy --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: %python -B %S/ref.py %t/b --seed 3 "__import__('ref').attention_ref(q, k, v, causal=True)" -- q:f16:1,7,4,8 k:f16:1,7,2,8 v:f16:1,7,2,8
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --expect %t/b/out0.npy --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --expect %t/b/out0.npy --rtol 2e-3 --atol 1e-3 | FileCheck %s
// CHECK: all 1 outputs match

relax.func @main(%q: !relax.tensor<[1, s, 4, 8], f16>, %k: !relax.tensor<[1, s, 2, 8], f16>, %v: !relax.tensor<[1, s, 2, 8], f16>) -> !relax.tensor<[1, s, 4, 8], f16> {
  %y0 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 4, 8], f16>, !relax.tensor<[1, s, 2, 8], f16>, !relax.tensor<[1, s, 2, 8], f16>) -> !relax.tensor<[1, s, 4, 8], f16>
  relax.return %y0 : !relax.tensor<[1, s, 4, 8], f16>
}
