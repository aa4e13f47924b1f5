// Unmasked relax.attention for the tensor-core body of the flash-attention
// kernel (FlashAttentionTensorCore.cpp): f16 and bf16, d = 64 and 128,
// causal and not, symbolic lengths. Used by emulate-flash-attention-tc.test
// (numerics on the CPU) and run-flash-attention-tc.test (the same cases on
// a GPU).

// f16, d = dv = 64, 4 query heads over 2: not causal, and causal with
// scale = 2 (peaked scores: the running max moves often).
relax.func @open64(%q: !relax.tensor<[1, s, 4, 64], f16>, %k: !relax.tensor<[1, t, 2, 64], f16>,
                   %v: !relax.tensor<[1, t, 2, 64], f16>)
    -> (!relax.tensor<[1, s, 4, 64], f16>, !relax.tensor<[1, s, 4, 64], f16>) {
  %y0 = relax.attention %q, %k, %v : (!relax.tensor<[1, s, 4, 64], f16>, !relax.tensor<[1, t, 2, 64], f16>, !relax.tensor<[1, t, 2, 64], f16>) -> !relax.tensor<[1, s, 4, 64], f16>
  %y1 = relax.attention %q, %k, %v {causal = true, scale = 2.0 : f64} : (!relax.tensor<[1, s, 4, 64], f16>, !relax.tensor<[1, t, 2, 64], f16>, !relax.tensor<[1, t, 2, 64], f16>) -> !relax.tensor<[1, s, 4, 64], f16>
  relax.return %y0, %y1 : !relax.tensor<[1, s, 4, 64], f16>, !relax.tensor<[1, s, 4, 64], f16>
}

// f16, d = dv = 128, 4 query heads over 2: not causal and causal.
relax.func @open128(%q: !relax.tensor<[1, s, 4, 128], f16>, %k: !relax.tensor<[1, t, 2, 128], f16>,
                    %v: !relax.tensor<[1, t, 2, 128], f16>)
    -> (!relax.tensor<[1, s, 4, 128], f16>, !relax.tensor<[1, s, 4, 128], f16>) {
  %y0 = relax.attention %q, %k, %v : (!relax.tensor<[1, s, 4, 128], f16>, !relax.tensor<[1, t, 2, 128], f16>, !relax.tensor<[1, t, 2, 128], f16>) -> !relax.tensor<[1, s, 4, 128], f16>
  %y1 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 4, 128], f16>, !relax.tensor<[1, t, 2, 128], f16>, !relax.tensor<[1, t, 2, 128], f16>) -> !relax.tensor<[1, s, 4, 128], f16>
  relax.return %y0, %y1 : !relax.tensor<[1, s, 4, 128], f16>, !relax.tensor<[1, s, 4, 128], f16>
}

// bf16, d = dv = 128, 4 query heads over 2: not causal and causal.
relax.func @bf16_128(%q: !relax.tensor<[1, s, 4, 128], bf16>, %k: !relax.tensor<[1, t, 2, 128], bf16>,
                     %v: !relax.tensor<[1, t, 2, 128], bf16>)
    -> (!relax.tensor<[1, s, 4, 128], bf16>, !relax.tensor<[1, s, 4, 128], bf16>) {
  %y0 = relax.attention %q, %k, %v : (!relax.tensor<[1, s, 4, 128], bf16>, !relax.tensor<[1, t, 2, 128], bf16>, !relax.tensor<[1, t, 2, 128], bf16>) -> !relax.tensor<[1, s, 4, 128], bf16>
  %y1 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 4, 128], bf16>, !relax.tensor<[1, t, 2, 128], bf16>, !relax.tensor<[1, t, 2, 128], bf16>) -> !relax.tensor<[1, s, 4, 128], bf16>
  relax.return %y0, %y1 : !relax.tensor<[1, s, 4, 128], bf16>, !relax.tensor<[1, s, 4, 128], bf16>
}
