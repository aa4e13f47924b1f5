// End-to-end: relax.lstm (bidirectional, peepholes, clip, input_forget,
// HardSigmoid / ScaledTanh / Elu on the reverse direction), relax.gru
// (reverse, linear_before_reset 0, Softsign / Softplus) and relax.rnn
// (bidirectional, Relu / Affine) over symbolic seq and batch, with lengths
// 0, seq + 3 (clamped to seq) and 2, against numpy (recurrent_ref.py) at two
// sizes, unfused and fused. rtol 1e-4, atol 1e-5: f32 recurrences of at
// most 9 steps. @gru_f16 (linear_before_reset, f16 operands computed in
// f32) against numpy on the f16-rounded operands: rtol 1e-2, atol 2e-3.
// RUN: rm -rf %t && %python %S/recurrent_ref.py %t/a 5 3
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --input %t/a/in6.npy --input %t/a/in7.npy --input %t/a/in8.npy --input %t/a/in9.npy --input %t/a/in10.npy --input %t/a/in11.npy --input %t/a/in12.npy --input %t/a/in13.npy --input %t/a/in14.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --input %t/a/in6.npy --input %t/a/in7.npy --input %t/a/in8.npy --input %t/a/in9.npy --input %t/a/in10.npy --input %t/a/in11.npy --input %t/a/in12.npy --input %t/a/in13.npy --input %t/a/in14.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run %s --entry gru_f16 --input %t/a/f16_in0.npy --input %t/a/f16_in1.npy --input %t/a/f16_in2.npy --input %t/a/f16_in3.npy --input %t/a/f16_in4.npy --expect %t/a/f16_out0.npy --expect %t/a/f16_out1.npy --rtol 1e-2 --atol 2e-3 | FileCheck %s --check-prefix=F16
// RUN: %python %S/recurrent_ref.py %t/b 9 4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --input %t/b/in6.npy --input %t/b/in7.npy --input %t/b/in8.npy --input %t/b/in9.npy --input %t/b/in10.npy --input %t/b/in11.npy --input %t/b/in12.npy --input %t/b/in13.npy --input %t/b/in14.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --input %t/b/in6.npy --input %t/b/in7.npy --input %t/b/in8.npy --input %t/b/in9.npy --input %t/b/in10.npy --input %t/b/in11.npy --input %t/b/in12.npy --input %t/b/in13.npy --input %t/b/in14.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --entry gru_f16 --input %t/b/f16_in0.npy --input %t/b/f16_in1.npy --input %t/b/f16_in2.npy --input %t/b/f16_in3.npy --input %t/b/f16_in4.npy --expect %t/b/f16_out0.npy --expect %t/b/f16_out1.npy --rtol 1e-2 --atol 2e-3 | FileCheck %s --check-prefix=F16
// CHECK: all 7 outputs match
// F16: all 2 outputs match

relax.func @main(%xl: !relax.tensor<[s, n, 2, 12], f32>, %rl: !relax.tensor<[2, 12, 3], f32>, %bl: !relax.tensor<[2, 12], f32>,
                 %hl: !relax.tensor<[2, n, 3], f32>, %cl: !relax.tensor<[2, n, 3], f32>, %pl: !relax.tensor<[2, 9], f32>,
                 %lens: !relax.tensor<[n], i32>,
                 %xg: !relax.tensor<[s, n, 1, 9], f32>, %rg: !relax.tensor<[1, 9, 3], f32>, %bg: !relax.tensor<[1, 9], f32>,
                 %hg: !relax.tensor<[1, n, 3], f32>,
                 %xr: !relax.tensor<[s, n, 2, 3], f32>, %rr: !relax.tensor<[2, 3, 3], f32>, %br: !relax.tensor<[2, 3], f32>,
                 %hr: !relax.tensor<[2, n, 3], f32>)
    -> (!relax.tensor<[s, 2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>, !relax.tensor<[s, 1, n, 3], f32>, !relax.tensor<[1, n, 3], f32>, !relax.tensor<[s, 2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>) {
  %ly, %lh, %lc = relax.lstm %xl, %rl, %bl, %hl, %cl, %pl, %lens {direction = "bidirectional", input_forget = true, clip = 1.5 : f64, activations = ["Sigmoid", "Tanh", "Tanh", "HardSigmoid", "ScaledTanh", "Elu"], activation_alpha = array<f64: 1.0, 1.0, 1.0, 0.3, 1.5, 0.8>, activation_beta = array<f64: 0.0, 0.0, 0.0, 0.4, 0.7, 0.0>} : (!relax.tensor<[s, n, 2, 12], f32>, !relax.tensor<[2, 12, 3], f32>, !relax.tensor<[2, 12], f32>, !relax.tensor<[2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>, !relax.tensor<[2, 9], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>)
  %gy, %gh = relax.gru %xg, %rg, %bg, %hg, %lens {direction = "reverse", activations = ["Softsign", "Softplus"]} : (!relax.tensor<[s, n, 1, 9], f32>, !relax.tensor<[1, 9, 3], f32>, !relax.tensor<[1, 9], f32>, !relax.tensor<[1, n, 3], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 3], f32>, !relax.tensor<[1, n, 3], f32>)
  %ry, %rh = relax.rnn %xr, %rr, %br, %hr, %lens {direction = "bidirectional", activations = ["Relu", "Affine"], activation_alpha = array<f64: 1.0, 0.5>, activation_beta = array<f64: 0.0, 0.25>} : (!relax.tensor<[s, n, 2, 3], f32>, !relax.tensor<[2, 3, 3], f32>, !relax.tensor<[2, 3], f32>, !relax.tensor<[2, n, 3], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>)
  relax.return %ly, %lh, %lc, %gy, %gh, %ry, %rh : !relax.tensor<[s, 2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>, !relax.tensor<[s, 1, n, 3], f32>, !relax.tensor<[1, n, 3], f32>, !relax.tensor<[s, 2, n, 3], f32>, !relax.tensor<[2, n, 3], f32>
}

relax.func @gru_f16(%x: !relax.tensor<[s, n, 1, 9], f16>, %r: !relax.tensor<[1, 9, 3], f16>, %b: !relax.tensor<[1, 9], f16>,
                    %h: !relax.tensor<[1, n, 3], f16>, %lens: !relax.tensor<[n], i32>)
    -> (!relax.tensor<[s, 1, n, 3], f16>, !relax.tensor<[1, n, 3], f16>) {
  %y, %yh = relax.gru %x, %r, %b, %h, %lens {linear_before_reset = true} : (!relax.tensor<[s, n, 1, 9], f16>, !relax.tensor<[1, 9, 3], f16>, !relax.tensor<[1, 9], f16>, !relax.tensor<[1, n, 3], f16>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 3], f16>, !relax.tensor<[1, n, 3], f16>)
  relax.return %y, %yh : !relax.tensor<[s, 1, n, 3], f16>, !relax.tensor<[1, n, 3], f16>
}
