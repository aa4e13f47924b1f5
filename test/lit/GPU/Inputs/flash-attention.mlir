// Unmasked relax.attention for the flash-attention GPU kernel
// (FlashAttention.cpp), at symbolic lengths, and a static decode step. Used
// by emulate-flash-attention.test (numerics on the CPU),
// run-flash-attention.test (on a GPU) and ptxas-flash-attention.test.

// f32, grouped-query heads (4 over 2), d = 16, dv = 8: causal, not causal,
// and causal with scale = 2 (peaked scores: the running max moves often).
relax.func @main(%q: !relax.tensor<[1, s, 4, 16], f32>, %k: !relax.tensor<[1, t, 2, 16], f32>,
                 %v: !relax.tensor<[1, t, 2, 8], f32>)
    -> (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>) {
  %y0 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 4, 16], f32>, !relax.tensor<[1, t, 2, 16], f32>, !relax.tensor<[1, t, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %y1 = relax.attention %q, %k, %v : (!relax.tensor<[1, s, 4, 16], f32>, !relax.tensor<[1, t, 2, 16], f32>, !relax.tensor<[1, t, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %y2 = relax.attention %q, %k, %v {causal = true, scale = 2.0 : f64} : (!relax.tensor<[1, s, 4, 16], f32>, !relax.tensor<[1, t, 2, 16], f32>, !relax.tensor<[1, t, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  relax.return %y0, %y1, %y2 : !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>
}

// A KV-cache step: p cached keys and values plus the s new ones, causal
// (query i sees the cache and the new keys up to its own), batch 2.
relax.func @cache(%q: !relax.tensor<[2, s, 4, 16], f32>,
                  %pk: !relax.tensor<[2, p, 2, 16], f32>, %pv: !relax.tensor<[2, p, 2, 16], f32>,
                  %k: !relax.tensor<[2, s, 2, 16], f32>, %v: !relax.tensor<[2, s, 2, 16], f32>)
    -> !relax.tensor<[2, s, 4, 16], f32> {
  %kk = relax.concat %pk, %k {axis = 1 : i64} : (!relax.tensor<[2, p, 2, 16], f32>, !relax.tensor<[2, s, 2, 16], f32>) -> !relax.tensor<[2, p + s, 2, 16], f32>
  %vv = relax.concat %pv, %v {axis = 1 : i64} : (!relax.tensor<[2, p, 2, 16], f32>, !relax.tensor<[2, s, 2, 16], f32>) -> !relax.tensor<[2, p + s, 2, 16], f32>
  %y = relax.attention %q, %kk, %vv {causal = true} : (!relax.tensor<[2, s, 4, 16], f32>, !relax.tensor<[2, p + s, 2, 16], f32>, !relax.tensor<[2, p + s, 2, 16], f32>) -> !relax.tensor<[2, s, 4, 16], f32>
  relax.return %y : !relax.tensor<[2, s, 4, 16], f32>
}

// f16 inputs and output (f32 inside), 8 heads, d = dv = 64, causal.
relax.func @half(%q: !relax.tensor<[1, s, 8, 64], f16>, %k: !relax.tensor<[1, t, 8, 64], f16>,
                 %v: !relax.tensor<[1, t, 8, 64], f16>) -> !relax.tensor<[1, s, 8, 64], f16> {
  %y = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 8, 64], f16>, !relax.tensor<[1, t, 8, 64], f16>, !relax.tensor<[1, t, 8, 64], f16>) -> !relax.tensor<[1, s, 8, 64], f16>
  relax.return %y : !relax.tensor<[1, s, 8, 64], f16>
}

// A Llama-sized head: f16, 32 query heads over 8 kv heads, d = dv = 128
// (tensor cores: tiles of 32 rows by 32 keys), causal.
relax.func @llama(%q: !relax.tensor<[1, s, 32, 128], f16>, %k: !relax.tensor<[1, t, 8, 128], f16>,
                  %v: !relax.tensor<[1, t, 8, 128], f16>) -> !relax.tensor<[1, s, 32, 128], f16> {
  %y = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 32, 128], f16>, !relax.tensor<[1, t, 8, 128], f16>, !relax.tensor<[1, t, 8, 128], f16>) -> !relax.tensor<[1, s, 32, 128], f16>
  relax.return %y : !relax.tensor<[1, s, 32, 128], f16>
}

// A decode step with static lengths: one query over 1000 keys, 8 query heads
// over 2, f16, d = dv = 64, causal: only the split kernels (flash decoding,
// 8 chunks of 128 keys, the last one 104).
relax.func @decode(%q: !relax.tensor<[2, 1, 8, 64], f16>, %k: !relax.tensor<[2, 1000, 2, 64], f16>,
                   %v: !relax.tensor<[2, 1000, 2, 64], f16>) -> !relax.tensor<[2, 1, 8, 64], f16> {
  %y = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[2, 1, 8, 64], f16>, !relax.tensor<[2, 1000, 2, 64], f16>, !relax.tensor<[2, 1000, 2, 64], f16>) -> !relax.tensor<[2, 1, 8, 64], f16>
  relax.return %y : !relax.tensor<[2, 1, 8, 64], f16>
}

// bf16, 4 query heads over 2, d = dv = 64, causal: the tensor-core kernels
// with bf16 fragments, checked against a float64 reference of the bf16
// inputs (ref.py bf16: bit patterns in uint16 .npy files).
relax.func @bf16(%q: !relax.tensor<[1, s, 4, 64], bf16>, %k: !relax.tensor<[1, t, 2, 64], bf16>,
                 %v: !relax.tensor<[1, t, 2, 64], bf16>) -> !relax.tensor<[1, s, 4, 64], bf16> {
  %y = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 4, 64], bf16>, !relax.tensor<[1, t, 2, 64], bf16>, !relax.tensor<[1, t, 2, 64], bf16>) -> !relax.tensor<[1, s, 4, 64], bf16>
  relax.return %y : !relax.tensor<[1, s, 4, 64], bf16>
}

// A KV-cache step in f16 (tensor cores): 8 query heads over 2, d = dv = 64,
// causal, p cached keys plus the s new ones.
relax.func @cache_half(%q: !relax.tensor<[1, s, 8, 64], f16>,
                       %pk: !relax.tensor<[1, p, 2, 64], f16>, %pv: !relax.tensor<[1, p, 2, 64], f16>,
                       %k: !relax.tensor<[1, s, 2, 64], f16>, %v: !relax.tensor<[1, s, 2, 64], f16>)
    -> !relax.tensor<[1, s, 8, 64], f16> {
  %kk = relax.concat %pk, %k {axis = 1 : i64} : (!relax.tensor<[1, p, 2, 64], f16>, !relax.tensor<[1, s, 2, 64], f16>) -> !relax.tensor<[1, p + s, 2, 64], f16>
  %vv = relax.concat %pv, %v {axis = 1 : i64} : (!relax.tensor<[1, p, 2, 64], f16>, !relax.tensor<[1, s, 2, 64], f16>) -> !relax.tensor<[1, p + s, 2, 64], f16>
  %y = relax.attention %q, %kk, %vv {causal = true} : (!relax.tensor<[1, s, 8, 64], f16>, !relax.tensor<[1, p + s, 2, 64], f16>, !relax.tensor<[1, p + s, 2, 64], f16>) -> !relax.tensor<[1, s, 8, 64], f16>
  relax.return %y : !relax.tensor<[1, s, 8, 64], f16>
}
