// The attention of bench/gpu/run.sh: a Llama-sized head (f16, 32 query
// heads over 8 kv heads, d = dv = 128, causal), symbolic lengths.
// --lower-to-gpu runs it as flash attention (FlashAttention.cpp): @prefill
// (s = t) on tensor cores, 32-row query tiles per kv head; @decode (one
// query over t cached keys) split over the keys in chunks of 128 (flash
// decoding) and combined by a second kernel.
relax.func @prefill(%q: !relax.tensor<[1, s, 32, 128], f16>, %k: !relax.tensor<[1, s, 8, 128], f16>, %v: !relax.tensor<[1, s, 8, 128], f16>) -> !relax.tensor<[1, s, 32, 128], f16> {
  %y = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 32, 128], f16>, !relax.tensor<[1, s, 8, 128], f16>, !relax.tensor<[1, s, 8, 128], f16>) -> !relax.tensor<[1, s, 32, 128], f16>
  relax.return %y : !relax.tensor<[1, s, 32, 128], f16>
}

relax.func @decode(%q: !relax.tensor<[1, 1, 32, 128], f16>, %k: !relax.tensor<[1, t, 8, 128], f16>, %v: !relax.tensor<[1, t, 8, 128], f16>) -> !relax.tensor<[1, 1, 32, 128], f16> {
  %y = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, 1, 32, 128], f16>, !relax.tensor<[1, t, 8, 128], f16>, !relax.tensor<[1, t, 8, 128], f16>) -> !relax.tensor<[1, 1, 32, 128], f16>
  relax.return %y : !relax.tensor<[1, 1, 32, 128], f16>
}
