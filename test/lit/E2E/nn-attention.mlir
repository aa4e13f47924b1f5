// End-to-end: relax.attention (BSNH, grouped-query heads hq = 4 over
// hkv = 2, d = 8) on the CPU against numpy (ref.py attention_ref), for two
// runtime sizes of the symbolic s and t: (s, t) = (1, 5) and (7, 9).
// y0/y1: Llama-style self-attention with s = skv, causal on and off;
// y2: causal with skv = t > s (bottom-right aligned); y3: an additive
// [1, 1, s, t] mask and scale = 0.5; y4: a boolean [2, 4, s, t] mask
// together with causal. Scores and the max-subtracted softmax in f32:
// rtol 1e-4, atol 1e-5. Three routes: the runtime's blocked attention (the
// default: relax-dispatch-library), the legalized streaming program
// (--dispatch-library=false) and fusion.
// RUN: rm -rf %t && %python -B %S/ref.py %t/a "__import__('ref').attention_ref(q, k, v, causal=True)" "__import__('ref').attention_ref(q, k, v)" "__import__('ref').attention_ref(q2, k2, v2, causal=True)" "__import__('ref').attention_ref(q2, k2, v2, mask=m, scale=0.5)" "__import__('ref').attention_ref(q2, k2, v2, mask=bm, causal=True)" -- q:f32:1,1,4,8 k:f32:1,1,2,8 v:f32:1,1,2,8 q2:f32:2,1,4,8 k2:f32:2,5,2,8 v2:f32:2,5,2,4 m:f32:1,1,1,5 bm:i1:2,4,1,5
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --input %t/a/in6.npy --input %t/a/in7.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --dispatch-library=false %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --input %t/a/in6.npy --input %t/a/in7.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --input %t/a/in6.npy --input %t/a/in7.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python -B %S/ref.py %t/b --seed 3 "__import__('ref').attention_ref(q, k, v, causal=True)" "__import__('ref').attention_ref(q, k, v)" "__import__('ref').attention_ref(q2, k2, v2, causal=True)" "__import__('ref').attention_ref(q2, k2, v2, mask=m, scale=0.5)" "__import__('ref').attention_ref(q2, k2, v2, mask=bm, causal=True)" -- q:f32:1,7,4,8 k:f32:1,7,2,8 v:f32:1,7,2,8 q2:f32:2,7,4,8 k2:f32:2,9,2,8 v2:f32:2,9,2,4 m:f32:1,1,7,9 bm:i1:2,4,7,9
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --input %t/b/in6.npy --input %t/b/in7.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --dispatch-library=false %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --input %t/b/in6.npy --input %t/b/in7.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --input %t/b/in6.npy --input %t/b/in7.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: all 5 outputs match

relax.func @main(%q: !relax.tensor<[1, s, 4, 8], f32>, %k: !relax.tensor<[1, s, 2, 8], f32>,
                 %v: !relax.tensor<[1, s, 2, 8], f32>, %q2: !relax.tensor<[2, s, 4, 8], f32>,
                 %k2: !relax.tensor<[2, t, 2, 8], f32>, %v2: !relax.tensor<[2, t, 2, 4], f32>,
                 %m: !relax.tensor<[1, 1, s, t], f32>, %bm: !relax.tensor<[2, 4, s, t], i1>)
    -> (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>,
        !relax.tensor<[2, s, 4, 4], f32>, !relax.tensor<[2, s, 4, 4], f32>,
        !relax.tensor<[2, s, 4, 4], f32>) {
  %y0 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %y1 = relax.attention %q, %k, %v : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %y2 = relax.attention %q2, %k2, %v2 {causal = true} : (!relax.tensor<[2, s, 4, 8], f32>, !relax.tensor<[2, t, 2, 8], f32>, !relax.tensor<[2, t, 2, 4], f32>) -> !relax.tensor<[2, s, 4, 4], f32>
  %y3 = relax.attention %q2, %k2, %v2, %m {scale = 0.5 : f64} : (!relax.tensor<[2, s, 4, 8], f32>, !relax.tensor<[2, t, 2, 8], f32>, !relax.tensor<[2, t, 2, 4], f32>, !relax.tensor<[1, 1, s, t], f32>) -> !relax.tensor<[2, s, 4, 4], f32>
  %y4 = relax.attention %q2, %k2, %v2, %bm {causal = true} : (!relax.tensor<[2, s, 4, 8], f32>, !relax.tensor<[2, t, 2, 8], f32>, !relax.tensor<[2, t, 2, 4], f32>, !relax.tensor<[2, 4, s, t], i1>) -> !relax.tensor<[2, s, 4, 4], f32>
  relax.return %y0, %y1, %y2, %y3, %y4 : !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[2, s, 4, 4], f32>, !relax.tensor<[2, s, 4, 4], f32>, !relax.tensor<[2, s, 4, 4], f32>
}
