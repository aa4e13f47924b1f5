// A Llama-style decoder block with a symbolic sequence length s (batch 1,
// hidden 64, 4 query heads over 2 key/value heads of size 16, SwiGLU FFN of
// width 128): RMSNorm, Q/K/V projections, rotary embedding (cos/sin tables
// of shape [s, 16] are inputs), causal grouped-query attention, output
// projection and residual, RMSNorm, SwiGLU MLP and residual.
// Run it: relax-run llama_block.mlir --random-inputs --dim s=7
relax.func @main(%x: !relax.tensor<[1, s, 64], f32> {relax.name = "x"},
                 %attn_norm: !relax.tensor<[64], f32> {relax.name = "attn_norm"},
                 %wq: !relax.tensor<[64, 64], f32> {relax.name = "wq"},
                 %wk: !relax.tensor<[64, 32], f32> {relax.name = "wk"},
                 %wv: !relax.tensor<[64, 32], f32> {relax.name = "wv"},
                 %wo: !relax.tensor<[64, 64], f32> {relax.name = "wo"},
                 %ffn_norm: !relax.tensor<[64], f32> {relax.name = "ffn_norm"},
                 %w_gate: !relax.tensor<[64, 128], f32> {relax.name = "w_gate"},
                 %w_up: !relax.tensor<[64, 128], f32> {relax.name = "w_up"},
                 %w_down: !relax.tensor<[128, 64], f32> {relax.name = "w_down"},
                 %cos: !relax.tensor<[s, 16], f32> {relax.name = "cos"},
                 %sin: !relax.tensor<[s, 16], f32> {relax.name = "sin"})
    -> !relax.tensor<[1, s, 64], f32>
    attributes {sym_bounds = {s = array<i64: 1, 4096>}} {
  %out = relax.dataflow -> !relax.tensor<[1, s, 64], f32> {
    // Attention.
    %h = relax.rms_norm %x, %attn_norm {axes = array<i64: -1>} : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[64], f32>) -> !relax.tensor<[1, s, 64], f32>
    %q0 = relax.matmul %h, %wq : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[64, 64], f32>) -> !relax.tensor<[1, s, 64], f32>
    %k0 = relax.matmul %h, %wk : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[64, 32], f32>) -> !relax.tensor<[1, s, 32], f32>
    %v0 = relax.matmul %h, %wv : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[64, 32], f32>) -> !relax.tensor<[1, s, 32], f32>
    %q = relax.reshape %q0 {shape = #relax.shape<[1, s, 4, 16]>} : (!relax.tensor<[1, s, 64], f32>) -> !relax.tensor<[1, s, 4, 16], f32>
    %k = relax.reshape %k0 {shape = #relax.shape<[1, s, 2, 16]>} : (!relax.tensor<[1, s, 32], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    %v = relax.reshape %v0 {shape = #relax.shape<[1, s, 2, 16]>} : (!relax.tensor<[1, s, 32], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    // Rotary embedding: t * cos + rotate_half(t) * sin, with
    // rotate_half(t) = concat(-t[..., 8:], t[..., :8]).
    %c = relax.reshape %cos {shape = #relax.shape<[1, s, 1, 16]>} : (!relax.tensor<[s, 16], f32>) -> !relax.tensor<[1, s, 1, 16], f32>
    %sn = relax.reshape %sin {shape = #relax.shape<[1, s, 1, 16]>} : (!relax.tensor<[s, 16], f32>) -> !relax.tensor<[1, s, 1, 16], f32>
    %q_lo = relax.strided_slice %q {axes = array<i64: 3>, begin = #relax.shape<[0]>, end = #relax.shape<[8]>} : (!relax.tensor<[1, s, 4, 16], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
    %q_hi = relax.strided_slice %q {axes = array<i64: 3>, begin = #relax.shape<[8]>, end = #relax.shape<[16]>} : (!relax.tensor<[1, s, 4, 16], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
    %q_hi_neg = relax.negative %q_hi : (!relax.tensor<[1, s, 4, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
    %q_rot = relax.concat %q_hi_neg, %q_lo {axis = 3 : i64} : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>) -> !relax.tensor<[1, s, 4, 16], f32>
    %q_cos = relax.multiply %q, %c : (!relax.tensor<[1, s, 4, 16], f32>, !relax.tensor<[1, s, 1, 16], f32>) -> !relax.tensor<[1, s, 4, 16], f32>
    %q_sin = relax.multiply %q_rot, %sn : (!relax.tensor<[1, s, 4, 16], f32>, !relax.tensor<[1, s, 1, 16], f32>) -> !relax.tensor<[1, s, 4, 16], f32>
    %q_r = relax.add %q_cos, %q_sin : (!relax.tensor<[1, s, 4, 16], f32>, !relax.tensor<[1, s, 4, 16], f32>) -> !relax.tensor<[1, s, 4, 16], f32>
    %k_lo = relax.strided_slice %k {axes = array<i64: 3>, begin = #relax.shape<[0]>, end = #relax.shape<[8]>} : (!relax.tensor<[1, s, 2, 16], f32>) -> !relax.tensor<[1, s, 2, 8], f32>
    %k_hi = relax.strided_slice %k {axes = array<i64: 3>, begin = #relax.shape<[8]>, end = #relax.shape<[16]>} : (!relax.tensor<[1, s, 2, 16], f32>) -> !relax.tensor<[1, s, 2, 8], f32>
    %k_hi_neg = relax.negative %k_hi : (!relax.tensor<[1, s, 2, 8], f32>) -> !relax.tensor<[1, s, 2, 8], f32>
    %k_rot = relax.concat %k_hi_neg, %k_lo {axis = 3 : i64} : (!relax.tensor<[1, s, 2, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    %k_cos = relax.multiply %k, %c : (!relax.tensor<[1, s, 2, 16], f32>, !relax.tensor<[1, s, 1, 16], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    %k_sin = relax.multiply %k_rot, %sn : (!relax.tensor<[1, s, 2, 16], f32>, !relax.tensor<[1, s, 1, 16], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    %k_r = relax.add %k_cos, %k_sin : (!relax.tensor<[1, s, 2, 16], f32>, !relax.tensor<[1, s, 2, 16], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
    %attn = relax.attention %q_r, %k_r, %v {causal = true} : (!relax.tensor<[1, s, 4, 16], f32>, !relax.tensor<[1, s, 2, 16], f32>, !relax.tensor<[1, s, 2, 16], f32>) -> !relax.tensor<[1, s, 4, 16], f32>
    %attn2 = relax.reshape %attn {shape = #relax.shape<[1, s, 64]>} : (!relax.tensor<[1, s, 4, 16], f32>) -> !relax.tensor<[1, s, 64], f32>
    %o = relax.matmul %attn2, %wo : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[64, 64], f32>) -> !relax.tensor<[1, s, 64], f32>
    %x1 = relax.add %x, %o : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[1, s, 64], f32>) -> !relax.tensor<[1, s, 64], f32>
    // SwiGLU feed-forward.
    %h2 = relax.rms_norm %x1, %ffn_norm {axes = array<i64: -1>} : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[64], f32>) -> !relax.tensor<[1, s, 64], f32>
    %g = relax.matmul %h2, %w_gate : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[64, 128], f32>) -> !relax.tensor<[1, s, 128], f32>
    %u = relax.matmul %h2, %w_up : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[64, 128], f32>) -> !relax.tensor<[1, s, 128], f32>
    %g_act = relax.silu %g : (!relax.tensor<[1, s, 128], f32>) -> !relax.tensor<[1, s, 128], f32>
    %gu = relax.multiply %g_act, %u : (!relax.tensor<[1, s, 128], f32>, !relax.tensor<[1, s, 128], f32>) -> !relax.tensor<[1, s, 128], f32>
    %f = relax.matmul %gu, %w_down : (!relax.tensor<[1, s, 128], f32>, !relax.tensor<[128, 64], f32>) -> !relax.tensor<[1, s, 64], f32>
    %y = relax.add %x1, %f : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[1, s, 64], f32>) -> !relax.tensor<[1, s, 64], f32>
    relax.output %y : !relax.tensor<[1, s, 64], f32>
  }
  relax.return %out : !relax.tensor<[1, s, 64], f32>
}
