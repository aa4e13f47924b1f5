// End-to-end: the streaming (online-softmax) relax.attention kernel against
// float64 numpy (Inputs/attention_streaming.py, ref.py attention_ref) for
// symbolic s and t: a single query row over 3000 keys, 5 rows over 2000
// keys, and 3 rows over 2 keys (causal leaves query row 0 no visible key).
// Grouped heads hq = 4 over hkv = 2, d = 8. y0: no mask; y1: causal; y2:
// an additive mask with -inf entries, its last row all -inf (NaN, as
// numpy's softmax), scale 0.25; y3: a boolean mask with one fully masked
// row, together with causal (a row without visible keys is the uniform
// average of v over all keys).
// By default the CPU pipeline hands relax.attention to the runtime's
// blocked attention (relax-dispatch-library: two GEMMs per block of query
// rows, 8 rows per block at t = 2000 or 3000); --dispatch-library=false
// runs the legalized streaming program instead. Both must agree with the
// reference on every case above.
// RUN: rm -rf %t
// RUN: %python -B %S/Inputs/attention_streaming.py %t/a 1 3000
// RUN: %python -B %S/Inputs/attention_streaming.py %t/b 5 2000
// RUN: %python -B %S/Inputs/attention_streaming.py %t/c 3 2
// RUN: cd %t/a && relax-run %s --input in0.npy --input in1.npy --input in2.npy --input in3.npy --input in4.npy --expect out0.npy --expect out1.npy --expect out2.npy --expect out3.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: cd %t/a && relax-run --dispatch-library=false %s --input in0.npy --input in1.npy --input in2.npy --input in3.npy --input in4.npy --expect out0.npy --expect out1.npy --expect out2.npy --expect out3.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: cd %t/b && relax-run %s --input in0.npy --input in1.npy --input in2.npy --input in3.npy --input in4.npy --expect out0.npy --expect out1.npy --expect out2.npy --expect out3.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: cd %t/b && relax-run --dispatch-library=false %s --input in0.npy --input in1.npy --input in2.npy --input in3.npy --input in4.npy --expect out0.npy --expect out1.npy --expect out2.npy --expect out3.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: cd %t/c && relax-run %s --input in0.npy --input in1.npy --input in2.npy --input in3.npy --input in4.npy --expect out0.npy --expect out1.npy --expect out2.npy --expect out3.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: cd %t/c && relax-run --dispatch-library=false %s --input in0.npy --input in1.npy --input in2.npy --input in3.npy --input in4.npy --expect out0.npy --expect out1.npy --expect out2.npy --expect out3.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: cd %t/b && relax-run --fuse %s --input in0.npy --input in1.npy --input in2.npy --input in3.npy --input in4.npy --expect out0.npy --expect out1.npy --expect out2.npy --expect out3.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: all 4 outputs match

relax.func @main(%q: !relax.tensor<[1, s, 4, 8], f32>, %k: !relax.tensor<[1, t, 2, 8], f32>,
                 %v: !relax.tensor<[1, t, 2, 8], f32>, %m: !relax.tensor<[1, 1, s, t], f32>,
                 %bm: !relax.tensor<[1, 4, s, t], i1>)
    -> (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>,
        !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>) {
  %y0 = relax.attention %q, %k, %v : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %y1 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %y2 = relax.attention %q, %k, %v, %m {scale = 0.25 : f64} : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, 1, s, t], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %y3 = relax.attention %q, %k, %v, %bm {causal = true} : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, 4, s, t], i1>) -> !relax.tensor<[1, s, 4, 8], f32>
  relax.return %y0, %y1, %y2, %y3 : !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>
}
