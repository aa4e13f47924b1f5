// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @reshape_count(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{element count n * 4 of the input differs from element count n * 5 of the target shape}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<[n, 5]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 5], f32>
  relax.return
}

// -----

relax.func @reshape_static_count(%x: !relax.tensor<[2, 3], f32>) {
  // expected-error@+2 {{element count 6 of the input differs from element count 8 of the target shape}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<[2, 4]>} : (!relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 4], f32>
  relax.return
}

// -----

relax.func @reshape_not_divisible(%x: !relax.tensor<[7], f32>) {
  // expected-error@+2 {{element count 7 of the input is not divisible by 2 (the product of the other target dims)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<[2, -1]>} : (!relax.tensor<[7], f32>) -> !relax.tensor<[2, ?], f32>
  relax.return
}

// -----

relax.func @reshape_two_inferred(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{at most one target dim may be -1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<[-1, -1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[?, ?], f32>
  relax.return
}

// -----

relax.func @reshape_negative(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{target dim #1 is negative: -2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<[n, -2]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, ?], f32>
  relax.return
}

// -----

relax.func @reshape_unknown_target(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{target dim #0 must not be '?'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<[?, 4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @reshape_unranked_target(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{target shape must have a known rank}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<*>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<*, f32>
  relax.return
}

// -----

relax.func @reshape_zero_product(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{cannot infer the -1 dim: the other target dims have product 0}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<[0, -1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[0, ?], f32>
  relax.return
}

// -----

// An undecidable -1 stays `?`: declaring a dim for it is rejected.
relax.func @reshape_undecided(%x: !relax.tensor<[n, 6], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[4, ?], f32>' are incompatible with return type(s) of operation '!relax.tensor<[4, n floordiv 4 * 6], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.reshape %x {shape = #relax.shape<[4, -1]>} : (!relax.tensor<[n, 6], f32>) -> !relax.tensor<[4, n floordiv 4 * 6], f32>
  relax.return
}

// -----

relax.func @permute_not_permutation(%x: !relax.tensor<[n, m, 4], f32>) {
  // expected-error@+2 {{axis -3 is repeated}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.permute_dims %x {axes = array<i64: 0, 1, -3>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, m, n], f32>
  relax.return
}

// -----

relax.func @permute_wrong_count(%x: !relax.tensor<[n, m, 4], f32>) {
  // expected-error@+2 {{expected 3 axes for an input of rank 3, got 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.permute_dims %x {axes = array<i64: 1, 0>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[m, n], f32>
  relax.return
}

// -----

relax.func @permute_out_of_range(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{axis 2 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.permute_dims %x {axes = array<i64: 2, 0>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[?, n], f32>
  relax.return
}

// -----

relax.func @expand_repeated(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{axis -3 is repeated}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.expand_dims %x {axes = array<i64: 0, -3>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[1, 1, n], f32>
  relax.return
}

// -----

relax.func @expand_out_of_range(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{axis 2 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.expand_dims %x {axes = array<i64: 2>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n, 1], f32>
  relax.return
}

// -----

relax.func @squeeze_not_one(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{cannot squeeze dim #1 of size 4: it is provably not 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.squeeze %x {axes = array<i64: 1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @squeeze_symbolic_not_one(%x: !relax.tensor<[n + 2], f32>) {
  // expected-error@+2 {{cannot squeeze dim #0 of size n + 2: it is provably not 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.squeeze %x {axes = array<i64: 0>} : (!relax.tensor<[n + 2], f32>) -> !relax.tensor<[], f32>
  relax.return
}

// -----

// Without axes, a symbolic dim that may be 1 makes the result rank unknown.
relax.func @squeeze_rank_undecided(%x: !relax.tensor<[n, 1], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<*, f32>' are incompatible with return type(s) of operation '!relax.tensor<[n], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.squeeze %x : (!relax.tensor<[n, 1], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @broadcast_incompatible(%x: !relax.tensor<[n, 3], f32>) {
  // expected-error@+2 {{cannot broadcast dim 3 to 4 (input shape [n, 3], target [n, 4])}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.broadcast_to %x {shape = #relax.shape<[n, 4]>} : (!relax.tensor<[n, 3], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @broadcast_symbolic(%x: !relax.tensor<[n + 2], f32>) {
  // expected-error@+2 {{cannot broadcast dim n + 2 to n + 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.broadcast_to %x {shape = #relax.shape<[n + 3]>} : (!relax.tensor<[n + 2], f32>) -> !relax.tensor<[n + 3], f32>
  relax.return
}

// -----

relax.func @broadcast_rank(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{cannot broadcast rank 2 to the lower rank 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.broadcast_to %x {shape = #relax.shape<[4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[4], f32>
  relax.return
}

// -----

relax.func @broadcast_negative(%x: !relax.tensor<[4], f32>) {
  // expected-error@+2 {{target dim #0 is negative}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.broadcast_to %x {shape = #relax.shape<[-1, 4]>} : (!relax.tensor<[4], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @concat_mismatch(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[m, 5], f32>) {
  // expected-error@+2 {{dim #1 differs between inputs: 4 vs 5}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.concat %a, %b {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 5], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @concat_symbolic_mismatch(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[n + 1, 4], f32>) {
  // expected-error@+2 {{dim #0 differs between inputs: n vs n + 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.concat %a, %b {axis = 1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n + 1, 4], f32>) -> !relax.tensor<[?, 8], f32>
  relax.return
}

// -----

// n and m are not provably equal: the result keeps the simpler (here the
// first) and checks the other at run time; a declared m is not that dim.
relax.func @concat_undecided(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[m, 4], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[n, 8], f32>' are incompatible with return type(s) of operation '!relax.tensor<[m, 8], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.concat %a, %b {axis = 1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 8], f32>
  relax.return
}

// -----

relax.func @concat_rank(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{input #1 has rank 1 but input #0 has rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.concat %a, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @concat_dtype(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[n], f16>) {
  // expected-error@+2 {{input #1 has a different dtype than input #0}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.concat %a, %b : (!relax.tensor<[n], f32>, !relax.tensor<[n], f16>) -> !relax.tensor<[n * 2], f32>
  relax.return
}

// -----

relax.func @concat_axis(%a: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{axis 1 is out of range for rank 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.concat %a, %a {axis = 1 : i64} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @concat_empty() {
  // expected-error@+2 {{expects at least one input}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.concat : () -> !relax.tensor<[1], f32>
  relax.return
}

// -----

relax.func @split_not_divisible(%x: !relax.tensor<[n, 7], f32>) {
  // expected-error@+2 {{dim 7 of axis 1 is not divisible into 3 sections}}
  // expected-error@+1 {{failed to infer returned types}}
  %y:3 = relax.split %x {axis = 1 : i64, sections = 3 : i64} : (!relax.tensor<[n, 7], f32>) -> (!relax.tensor<[n, ?], f32>, !relax.tensor<[n, ?], f32>, !relax.tensor<[n, ?], f32>)
  relax.return
}

// -----

relax.func @split_symbolic_not_divisible(%x: !relax.tensor<[n * 4 + 1], f32>) {
  // expected-error@+2 {{dim n * 4 + 1 of axis 0 is not divisible into 2 sections}}
  // expected-error@+1 {{failed to infer returned types}}
  %y:2 = relax.split %x {sections = 2 : i64} : (!relax.tensor<[n * 4 + 1], f32>) -> (!relax.tensor<[?], f32>, !relax.tensor<[?], f32>)
  relax.return
}

// -----

relax.func @split_both(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{expects exactly one of 'sections' and 'indices'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y:2 = relax.split %x {sections = 2 : i64, indices = #relax.shape<[1]>} : (!relax.tensor<[n], f32>) -> (!relax.tensor<[?], f32>, !relax.tensor<[?], f32>)
  relax.return
}

// -----

relax.func @split_zero_sections(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{sections must be at least 1, got 0}}
  // expected-error@+1 {{failed to infer returned types}}
  relax.split %x {sections = 0 : i64} : (!relax.tensor<[n], f32>) -> ()
  relax.return
}

// -----

relax.func @split_out_of_order(%x: !relax.tensor<[n], f32>, %s: !relax.shape<[k]>) {
  // expected-error@+2 {{split indices are out of order: k after k + 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y:3 = relax.split %x {indices = #relax.shape<[k + 1, k]>} : (!relax.tensor<[n], f32>) -> (!relax.tensor<[?], f32>, !relax.tensor<[?], f32>, !relax.tensor<[?], f32>)
  relax.return
}

// -----

relax.func @split_past_end(%x: !relax.tensor<[4], f32>) {
  // expected-error@+2 {{split index 6 is past dim 4 of axis 0}}
  // expected-error@+1 {{failed to infer returned types}}
  %y:2 = relax.split %x {indices = #relax.shape<[6]>} : (!relax.tensor<[4], f32>) -> (!relax.tensor<[?], f32>, !relax.tensor<[?], f32>)
  relax.return
}

// -----

relax.func @split_negative_index(%x: !relax.tensor<[4], f32>) {
  // expected-error@+2 {{split index #0 is negative: -1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y:2 = relax.split %x {indices = #relax.shape<[-1]>} : (!relax.tensor<[4], f32>) -> (!relax.tensor<[?], f32>, !relax.tensor<[?], f32>)
  relax.return
}

// -----

relax.func @slice_lengths(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{begin and end must have one entry per axis (1)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[0, 0]>, end = #relax.shape<[1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @slice_strides_length(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{strides must have one entry per axis (1)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[1]>, strides = array<i64: 1, 1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @slice_zero_stride(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{stride must not be 0}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[1]>, strides = array<i64: 0>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @slice_repeated_axis(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{axis -2 is repeated}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.strided_slice %x {axes = array<i64: 0, -2>, begin = #relax.shape<[0, 0]>, end = #relax.shape<[1, 1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @take_float_indices(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[k], f32>) {
  // expected-error@+2 {{indices must have an integer dtype (i8 to i64, ui8 to ui64)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.take %x, %i {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[k, 4], f32>
  relax.return
}

// -----

relax.func @take_axis(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[k], i64>) {
  // expected-error@+2 {{axis 2 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.take %x, %i {axis = 2 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k], i64>) -> !relax.tensor<[n, 4, k], f32>
  relax.return
}

// -----

relax.func @tile_negative(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{repeats must be non-negative, got -2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.tile %x {repeats = array<i64: -2>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, ?], f32>
  relax.return
}

// -----

relax.func @repeat_negative(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{repeats must be non-negative, got -1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.repeat %x {repeats = -1 : i64, axis = 0 : i64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return
}

// -----

relax.func @repeat_axis(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{axis -3 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.repeat %x {repeats = 2 : i64, axis = -3 : i64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @trilu_rank(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.trilu' op input must have rank >= 2, got rank 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.trilu %x {upper = true} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @pad_mode(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.pad' op mode must be constant, reflect, edge or wrap, got 'symmetric'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.pad %x {mode = "symmetric", pad_before = #relax.shape<[1]>, pad_after = #relax.shape<[1]>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n + 2], f32>
  relax.return
}

// -----

relax.func @pad_rank(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{'relax.pad' op pads list 1 dims for an input of rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.pad %x {pad_before = #relax.shape<[1]>, pad_after = #relax.shape<[1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n + 2], f32>
  relax.return
}

// -----

relax.func @pad_negative(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{'relax.pad' op dim 1 would be negative: -1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.pad %x {pad_before = #relax.shape<[0, -2]>, pad_after = #relax.shape<[0, -3]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, ?], f32>
  relax.return
}

// -----

relax.func @pad_value(%x: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.pad' op pad value 0.5 is not a 'i32' value}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.pad %x {pad_before = #relax.shape<[1]>, pad_after = #relax.shape<[1]>, value = 0.5 : f64} : (!relax.tensor<[n], i32>) -> !relax.tensor<[n + 2], i32>
  relax.return
}

// -----

relax.func @gather_elements_dtype(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{'relax.gather_elements' op indices must have an integer dtype (i8 to i64, ui8 to ui64)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.gather_elements %x, %i : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @gather_elements_rank(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[n], i64>) {
  // expected-error@+2 {{'relax.gather_elements' op indices must have the data's rank 2, got rank 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.gather_elements %x, %i : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @gather_elements_axis(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[n, 4], i64>) {
  // expected-error@+2 {{'relax.gather_elements' op axis -3 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.gather_elements %x, %i {axis = -3 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i64>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @gather_elements_dim(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[n, 5], i64>) {
  // expected-error@+2 {{'relax.gather_elements' op indices dim 1 (5) exceeds the data dim (4)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.gather_elements %x, %i : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 5], i64>) -> !relax.tensor<[n, 5], f32>
  relax.return
}

// -----

relax.func @gather_nd_tuple(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[k, q], i64>) {
  // expected-error@+2 {{'relax.gather_nd' op the last dim of indices (the index tuple length) must be a constant}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.gather_nd %x, %i : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, q], i64>) -> !relax.tensor<*, f32>
  relax.return
}

// -----

relax.func @gather_nd_long(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[k, 3], i64>) {
  // expected-error@+2 {{'relax.gather_nd' op index tuples of length 3 after 0 batch dims do not fit data of rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.gather_nd %x, %i : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 3], i64>) -> !relax.tensor<[k], f32>
  relax.return
}

// -----

relax.func @gather_nd_batch(%x: !relax.tensor<[3, 4], f32>, %i: !relax.tensor<[2, 1], i64>) {
  // expected-error@+2 {{'relax.gather_nd' op batch dim 0 mismatch: 3 vs 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.gather_nd %x, %i {batch_dims = 1 : i64} : (!relax.tensor<[3, 4], f32>, !relax.tensor<[2, 1], i64>) -> !relax.tensor<[2], f32>
  relax.return
}

// -----

relax.func @scatter_nd_reduction(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[k, 1], i64>, %u: !relax.tensor<[k, 4], f32>) {
  // expected-error@+2 {{'relax.scatter_nd' op reduction must be none, add, mul, max or min, got 'sum'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.scatter_nd %x, %i, %u {reduction = "sum"} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 1], i64>, !relax.tensor<[k, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @scatter_nd_updates(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[k, 1], i64>, %u: !relax.tensor<[k, 5], f32>) {
  // expected-error@+2 {{'relax.scatter_nd' op updates dim 1 mismatch: 5 vs 4}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.scatter_nd %x, %i, %u : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 1], i64>, !relax.tensor<[k, 5], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @scatter_nd_dtype(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[k, 1], i64>, %u: !relax.tensor<[k, 4], f16>) {
  // expected-error@+2 {{'relax.scatter_nd' op updates dtype 'f16' differs from the data dtype 'f32'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.scatter_nd %x, %i, %u : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 1], i64>, !relax.tensor<[k, 4], f16>) -> !relax.tensor<[n, 4], f32>
  relax.return
}
