// RUN: relax-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of relax.dequantize's inference.

relax.func @bits(%q: !relax.tensor<[n, 64], i8>, %s: !relax.tensor<[n, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op bits must be 4 or 8, got 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 2, group_size = 32} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @group_zero(%q: !relax.tensor<[n, 64], i8>, %s: !relax.tensor<[n, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op group_size must be positive, got 0}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 8, group_size = 0} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @group_odd(%q: !relax.tensor<[n, 32], ui8>, %s: !relax.tensor<[n, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op group_size must be even with 4 bits (a byte holds two elements of one group), got 33}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 4, group_size = 33} : (!relax.tensor<[n, 32], ui8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @q8_dtype(%q: !relax.tensor<[n, 64], ui8>, %s: !relax.tensor<[n, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op q must be i8 with 8 bits, got ui8}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 8, group_size = 32} : (!relax.tensor<[n, 64], ui8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @q4_dtype(%q: !relax.tensor<[n, 32], i8>, %s: !relax.tensor<[n, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op q must be ui8 (two 4-bit values a byte) with 4 bits, got i8}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 4, group_size = 32} : (!relax.tensor<[n, 32], i8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @scales_dtype(%q: !relax.tensor<[n, 64], i8>, %s: !relax.tensor<[n, 2], bf16>) {
  // expected-error@+2 {{'relax.dequantize' op scales must be f32 or f16, got bf16}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 8, group_size = 32} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 2], bf16>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @zeros_8bit(%q: !relax.tensor<[n, 64], i8>, %s: !relax.tensor<[n, 2], f32>, %z: !relax.tensor<[n, 2], ui8>) {
  // expected-error@+2 {{'relax.dequantize' op zero points need bits = 4 (8-bit weights are symmetric)}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s, %z {bits = 8, group_size = 32} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], ui8>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @zeros_dtype(%q: !relax.tensor<[n, 32], ui8>, %s: !relax.tensor<[n, 2], f32>, %z: !relax.tensor<[n, 2], i8>) {
  // expected-error@+2 {{'relax.dequantize' op zeros must be ui8, got i8}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s, %z {bits = 4, group_size = 32} : (!relax.tensor<[n, 32], ui8>, !relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], i8>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @q_rank(%q: !relax.tensor<[n, 2, 32], i8>, %s: !relax.tensor<[n, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op q must have rank 2, got [n, 2, 32]}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 8, group_size = 32} : (!relax.tensor<[n, 2, 32], i8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @scales_rank(%q: !relax.tensor<[n, 64], i8>, %s: !relax.tensor<[2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op scales must have rank 2, got [2]}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 8, group_size = 32} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @zeros_rank(%q: !relax.tensor<[n, 32], ui8>, %s: !relax.tensor<[n, 2], f32>, %z: !relax.tensor<[2], ui8>) {
  // expected-error@+2 {{'relax.dequantize' op zeros must have rank 2, got [2]}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s, %z {bits = 4, group_size = 32} : (!relax.tensor<[n, 32], ui8>, !relax.tensor<[n, 2], f32>, !relax.tensor<[2], ui8>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @rows(%q: !relax.tensor<[n, 64], i8>, %s: !relax.tensor<[n + 1, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op scales dim 0 differs from q's: n + 1 vs n}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 8, group_size = 32} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n + 1, 2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

// 64 elements of 4 bits are 32 bytes: k is 64, so 3 groups of 32 do not fit.
relax.func @groups(%q: !relax.tensor<[n, 32], ui8>, %s: !relax.tensor<[n, 3], f32>) {
  // expected-error@+2 {{'relax.dequantize' op scales dim 1 times group_size 32 must equal the row length: 96 vs 64}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 4, group_size = 32} : (!relax.tensor<[n, 32], ui8>, !relax.tensor<[n, 3], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @groups_symbolic(%q: !relax.tensor<[n, 32 * g + 1], i8>, %s: !relax.tensor<[n, g], f32>) {
  // expected-error@+2 {{'relax.dequantize' op scales dim 1 times group_size 32 must equal the row length: g * 32 vs g * 32 + 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 8, group_size = 32} : (!relax.tensor<[n, 32 * g + 1], i8>, !relax.tensor<[n, g], f32>) -> !relax.tensor<[n, 32 * g + 1], f32>
  relax.return
}

// -----

relax.func @per_channel(%q: !relax.tensor<[n, 64], i8>, %s: !relax.tensor<[n, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op without group_size (per-channel) scales dim 1 must be 1: 2 vs 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 8} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @zeros_shape(%q: !relax.tensor<[n, 32], ui8>, %s: !relax.tensor<[n, 2], f32>, %z: !relax.tensor<[n, 4], ui8>) {
  // expected-error@+2 {{'relax.dequantize' op zeros dim 1 differs from scales': 4 vs 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s, %z {bits = 4, group_size = 32} : (!relax.tensor<[n, 32], ui8>, !relax.tensor<[n, 2], f32>, !relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n, 64], f32>
  relax.return
}

// -----

relax.func @result_type(%q: !relax.tensor<[n, 32], ui8>, %s: !relax.tensor<[n, 2], f32>) {
  // expected-error@+2 {{'relax.dequantize' op inferred type(s) '!relax.tensor<[n, 64], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n, 32], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize %q, %s {bits = 4, group_size = 32} : (!relax.tensor<[n, 32], ui8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 32], f32>
  relax.return
}

// -----

// Every diagnostic of relax.dequantize_tiles' inference.

relax.func @tiles_bits(%t: !relax.tensor<[nb, kb, 1088], ui8>) {
  // expected-error@+2 {{'relax.dequantize_tiles' op bits must be 4 or 8, got 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize_tiles %t {bits = 2} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  relax.return
}

// -----

relax.func @tiles_dtype(%t: !relax.tensor<[nb, kb, 1088], i8>) {
  // expected-error@+2 {{'relax.dequantize_tiles' op tiles must be ui8 (bytes), got i8}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize_tiles %t {bits = 8} : (!relax.tensor<[nb, kb, 1088], i8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  relax.return
}

// -----

relax.func @tiles_rank(%t: !relax.tensor<[n, 1088], ui8>) {
  // expected-error@+2 {{'relax.dequantize_tiles' op tiles must have rank 3 ([nb, kb, tile bytes]), got [n, 1088]}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize_tiles %t {bits = 8} : (!relax.tensor<[n, 1088], ui8>) -> !relax.tensor<[n, 128], f32>
  relax.return
}

// -----

relax.func @tiles_size(%t: !relax.tensor<[nb, kb, 1088], ui8>) {
  // expected-error@+2 {{'relax.dequantize_tiles' op tiles dim 2 must be 576 (the bytes of a tile of 8 x 128 4-bit elements and its scales), got 1088}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize_tiles %t {bits = 4} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  relax.return
}

// -----

relax.func @tiles_symbolic_size(%t: !relax.tensor<[nb, kb, t], ui8>) {
  // expected-error@+2 {{'relax.dequantize_tiles' op tiles dim 2 must be 1088 (the bytes of a tile of 8 x 128 8-bit elements and its scales), got t}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize_tiles %t {bits = 8} : (!relax.tensor<[nb, kb, t], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  relax.return
}

// -----

relax.func @tiles_unknown_size(%t: !relax.tensor<[nb, kb, ?], ui8>) {
  // expected-error@+2 {{'relax.dequantize_tiles' op tiles dim 2 must be 1088 (the bytes of a tile of 8 x 128 8-bit elements and its scales), got ?}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize_tiles %t {bits = 8} : (!relax.tensor<[nb, kb, ?], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  relax.return
}

// -----

relax.func @tiles_result(%t: !relax.tensor<[nb, kb, 1088], ui8>) {
  // expected-error@+2 {{'relax.dequantize_tiles' op inferred type(s) '!relax.tensor<[nb * 8, kb * 128], f32>' are incompatible with return type(s) of operation '!relax.tensor<[nb, kb * 128], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %w = relax.dequantize_tiles %t {bits = 8} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[nb, 128 * kb], f32>
  relax.return
}
