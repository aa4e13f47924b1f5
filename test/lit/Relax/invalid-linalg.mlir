// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @k_mismatch(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[5, m], f32>) {
  // expected-error@+2 {{'relax.matmul' op contraction dims differ: 4 vs 5 (shapes [n, 4] and [5, m])}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[5, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// -----

relax.func @k_mismatch_symbolic(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[k + 1, m], f32>) {
  // expected-error@+2 {{'relax.matmul' op contraction dims differ: k vs k + 1 (shapes [n, k] and [k + 1, m])}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[k + 1, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// -----

relax.func @k_mismatch_vector(%a: !relax.tensor<[n, k], f32>, %v: !relax.tensor<[2 * k + 1], f32>) {
  // expected-error@+2 {{'relax.matmul' op contraction dims differ: k vs k * 2 + 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %v : (!relax.tensor<[n, k], f32>, !relax.tensor<[2 * k + 1], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @batch_mismatch(%a: !relax.tensor<[2, n, k], f32>, %b: !relax.tensor<[3, k, m], f32>) {
  // expected-error@+2 {{'relax.matmul' op cannot broadcast dim 2 with dim 3 (shapes [2] and [3])}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %b : (!relax.tensor<[2, n, k], f32>, !relax.tensor<[3, k, m], f32>) -> !relax.tensor<[?, n, m], f32>
  relax.return
}

// -----

// Batch dims b and c cannot be decided: the result dim is max(b, c)
// (checked at run time), not b.
relax.func @batch_undecidable(%a: !relax.tensor<[b, n, k], f32>, %c: !relax.tensor<[c, k, m], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[max(b, c), n, m], f32>' are incompatible with return type(s) of operation '!relax.tensor<[b, n, m], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %c : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[c, k, m], f32>) -> !relax.tensor<[b, n, m], f32>
  relax.return
}

// -----

relax.func @scalar_operand(%a: !relax.tensor<[], f32>, %b: !relax.tensor<[k, m], f32>) {
  // expected-error@+2 {{'relax.matmul' op operands must have rank >= 1, got [] and [k, m]}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %b : (!relax.tensor<[], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<*, f32>
  relax.return
}

// -----

relax.func @matmul_dtype(%a: !relax.tensor<[n, k], f16>, %b: !relax.tensor<[k, m], f32>) {
  // expected-error@+2 {{'relax.matmul' op operand dtypes differ (use relax.astype)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %b : (!relax.tensor<[n, k], f16>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// -----

relax.func @matmul_bool(%a: !relax.tensor<[n, k], i1>, %b: !relax.tensor<[k, m], i1>) {
  // expected-error@+2 {{'relax.matmul' op requires a numeric (non-i1) dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %b : (!relax.tensor<[n, k], i1>, !relax.tensor<[k, m], i1>) -> !relax.tensor<[n, m], i1>
  relax.return
}

// -----

relax.func @matmul_out_dtype(%a: !relax.tensor<[n, k], f16>, %b: !relax.tensor<[k, m], f16>) {
  // expected-error@+2 {{'relax.matmul' op unsupported out_dtype 'i4'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.matmul %a, %b {out_dtype = i4} : (!relax.tensor<[n, k], f16>, !relax.tensor<[k, m], f16>) -> !relax.tensor<[n, m], f16>
  relax.return
}

// -----

relax.func @linear_in_mismatch(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[32, 8], f32>) {
  // expected-error@+2 {{'relax.linear' op contraction dims differ: 16 vs 8}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.linear %x, %w : (!relax.tensor<[n, 16], f32>, !relax.tensor<[32, 8], f32>) -> !relax.tensor<[n, 32], f32>
  relax.return
}

// -----

relax.func @linear_weight_rank(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[2, 32, 16], f32>) {
  // expected-error@+2 {{'relax.linear' op weight must have rank 2 [out, in], got [2, 32, 16]}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.linear %x, %w : (!relax.tensor<[n, 16], f32>, !relax.tensor<[2, 32, 16], f32>) -> !relax.tensor<*, f32>
  relax.return
}

// -----

relax.func @linear_bias(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[32, 16], f32>, %b: !relax.tensor<[16], f32>) {
  // expected-error@+2 {{'relax.linear' op cannot broadcast dim 32 with dim 16 (shapes [n, 32] and [16])}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.linear %x, %w, %b : (!relax.tensor<[n, 16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[16], f32>) -> !relax.tensor<[n, 32], f32>
  relax.return
}

// -----

relax.func @linear_dtype(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[32, 16], f32>, %b: !relax.tensor<[32], f16>) {
  // expected-error@+2 {{'relax.linear' op operand dtypes differ (use relax.astype)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.linear %x, %w, %b : (!relax.tensor<[n, 16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f16>) -> !relax.tensor<[n, 32], f32>
  relax.return
}

// -----

relax.func @einsum_char(%a0: !relax.tensor<[n, 3], f32>, %a1: !relax.tensor<[3, m], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation 'ij#,jk': invalid character '#' at position 2 (labels are letters)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0, %a1 {equation = "ij#,jk"} : (!relax.tensor<[n, 3], f32>, !relax.tensor<[3, m], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_terms(%a0: !relax.tensor<[n, 3], f32>, %a1: !relax.tensor<[3, m], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation 'ij': 1 operand term for 2 operands}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0, %a1 {equation = "ij"} : (!relax.tensor<[n, 3], f32>, !relax.tensor<[3, m], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_rank(%a0: !relax.tensor<[n, 3], f32>, %a1: !relax.tensor<[3, m], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation 'ijk,jk->i': term #0 'ijk' has 3 labels but operand #0 has rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0, %a1 {equation = "ijk,jk->i"} : (!relax.tensor<[n, 3], f32>, !relax.tensor<[3, m], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_rank_ellipsis(%a0: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation '...ij->...': term #0 '...ij' has 2 labels but operand #0 has rank 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "...ij->..."} : (!relax.tensor<[n], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_output_repeated(%a0: !relax.tensor<[n, 3], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation 'ij->ii': output label 'i' at position 5 appears twice}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "ij->ii"} : (!relax.tensor<[n, 3], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_output_unknown(%a0: !relax.tensor<[n, 3], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation 'ij->k': output label 'k' at position 4 does not appear in the operand terms}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "ij->k"} : (!relax.tensor<[n, 3], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_dot(%a0: !relax.tensor<[n, 3], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation 'i.j': '.' at position 1 is not part of '...'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "i.j"} : (!relax.tensor<[n, 3], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_arrow(%a0: !relax.tensor<[n, 3], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation 'ij-ji': '-' at position 2 is not part of '->'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "ij-ji"} : (!relax.tensor<[n, 3], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_two_arrows(%a0: !relax.tensor<[n, 3], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation 'ij->ji->ij': second '->' at position 6}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "ij->ji->ij"} : (!relax.tensor<[n, 3], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_two_ellipses(%a0: !relax.tensor<[n, 3, 4], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation '...i...': second '...' in one term at position 4}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "...i..."} : (!relax.tensor<[n, 3, 4], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_output_ellipsis(%a0: !relax.tensor<[b, n, 3], f32>) {
  // expected-error@+2 {{'relax.einsum' op equation '...ij->ij': the output term has no '...' for the 1 ellipsis dims of the operands}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "...ij->ij"} : (!relax.tensor<[b, n, 3], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_label_dims(%a0: !relax.tensor<[n, 3], f32>, %a1: !relax.tensor<[4, m], f32>) {
  // expected-error@+2 {{'relax.einsum' op label 'j' is 3 in operand #0 dim 1 but 4 in operand #1 dim 0}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0, %a1 {equation = "ij,jk->ik"} : (!relax.tensor<[n, 3], f32>, !relax.tensor<[4, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// -----

relax.func @einsum_label_dims_symbolic(%a0: !relax.tensor<[n, n * 2 + 1], f32>) {
  // expected-error@+2 {{'relax.einsum' op label 'i' is n in operand #0 dim 0 but n * 2 + 1 in operand #0 dim 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "ii->i"} : (!relax.tensor<[n, n * 2 + 1], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_ellipsis_broadcast(%a0: !relax.tensor<[2, n], f32>, %a1: !relax.tensor<[3, n], f32>) {
  // expected-error@+2 {{'relax.einsum' op cannot broadcast dim 2 with dim 3 (shapes [2] and [3])}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0, %a1 {equation = "...i,...i->..."} : (!relax.tensor<[2, n], f32>, !relax.tensor<[3, n], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @einsum_dtype(%a0: !relax.tensor<[n, 3], f32>, %a1: !relax.tensor<[3, m], f16>) {
  // expected-error@+2 {{'relax.einsum' op operand #1 dtype f16 differs from operand #0 dtype f32}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0, %a1 {equation = "ij,jk->ik"} : (!relax.tensor<[n, 3], f32>, !relax.tensor<[3, m], f16>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// -----

relax.func @einsum_bool(%a0: !relax.tensor<[n], i1>) {
  // expected-error@+2 {{'relax.einsum' op requires a numeric (non-i1) dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum %a0 {equation = "i->i"} : (!relax.tensor<[n], i1>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @einsum_no_operands() {
  // expected-error@+2 {{'relax.einsum' op needs at least one operand}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.einsum {equation = "->"} : () -> !relax.tensor<[], f32>
  relax.return
}
