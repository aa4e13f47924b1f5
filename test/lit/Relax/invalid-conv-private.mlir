// RUN: relax-opt %s -split-input-file -verify-diagnostics
//
// The conv-private contract (include/RelaxDialect/Relax/IR/ConvPrivateLayout.h):
// a result marked relax.conv_private_result holds bytes only the fused
// convolutions understand, so every reader must declare it in
// relax.conv_private_operands, and nothing else may be declared so.

// A conv-private result read as a plain tensor.
relax.func @plain_reader(%x: !relax.tensor<[n, 8, h, w], f32>) -> !relax.tensor<[n, h, w, 8], f32> {
  // expected-note@+1 {{written here}}
  %y = relax.call_dps_packed @conv(%x) {relax.conv_private_result} : (!relax.tensor<[n, 8, h, w], f32>) -> !relax.tensor<[n, h, w, 8], f32>
  // expected-error@+1 {{'relax.relu' op reads operand #0 as a plain tensor, but its bytes are in a layout private to the fused convolutions (declare it in 'relax.conv_private_operands' on a call that reads that layout)}}
  %r = relax.relu %y : (!relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32>
  relax.return %r : !relax.tensor<[n, h, w, 8], f32>
}
extern.func private @conv(!relax.tensor<[a, b, c, d], f32>, !relax.tensor<[e, f, g, k], f32>)
    attributes {link_name = "conv", num_outputs = 1 : i64}

// -----

// A reader that declares another operand than the one it reads privately.
relax.func @wrong_operand(%x: !relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32> {
  // expected-note@+1 {{written here}}
  %y = relax.call_dps_packed @conv2(%x, %x) {relax.conv_private_result} : (!relax.tensor<[n, h, w, 8], f32>, !relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32>
  // expected-error@+1 {{'relax.call_dps_packed' op reads operand #1 as a plain tensor}}
  %z = relax.call_dps_packed @conv2(%y, %y) {relax.conv_private_operands = array<i64: 0>} : (!relax.tensor<[n, h, w, 8], f32>, !relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32>
  relax.return %z : !relax.tensor<[n, h, w, 8], f32>
}
extern.func private @conv2(!relax.tensor<[a, b, c, d], f32>, !relax.tensor<[a, b, c, d], f32>, !relax.tensor<[e, f, g, k], f32>)
    attributes {link_name = "conv2", num_outputs = 1 : i64}

// -----

// A declared private operand that no conv-private call wrote.
relax.func @not_private(%x: !relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32> {
  // expected-error@+1 {{'relax.call_dps_packed' op reads operand #0 in the conv-private layout, but it is not the result of a call carrying 'relax.conv_private_result'}}
  %z = relax.call_dps_packed @conv(%x) {relax.conv_private_operands = array<i64: 0>} : (!relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32>
  relax.return %z : !relax.tensor<[n, h, w, 8], f32>
}
extern.func private @conv(!relax.tensor<[a, b, c, d], f32>, !relax.tensor<[e, f, g, k], f32>)
    attributes {link_name = "conv", num_outputs = 1 : i64}

// -----

relax.func @out_of_range(%x: !relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32> {
  // expected-error@+1 {{'relax.call_dps_packed' op 'relax.conv_private_operands' names operand #3 of 1}}
  %z = relax.call_dps_packed @conv(%x) {relax.conv_private_operands = array<i64: 3>} : (!relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32>
  relax.return %z : !relax.tensor<[n, h, w, 8], f32>
}
extern.func private @conv(!relax.tensor<[a, b, c, d], f32>, !relax.tensor<[e, f, g, k], f32>)
    attributes {link_name = "conv", num_outputs = 1 : i64}

// -----

relax.func @not_an_array(%x: !relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32> {
  // expected-error@+1 {{'relax.call_dps_packed' op 'relax.conv_private_operands' must be an array<i64>}}
  %z = relax.call_dps_packed @conv(%x) {relax.conv_private_operands = 0 : i64} : (!relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32>
  relax.return %z : !relax.tensor<[n, h, w, 8], f32>
}
extern.func private @conv(!relax.tensor<[a, b, c, d], f32>, !relax.tensor<[e, f, g, k], f32>)
    attributes {link_name = "conv", num_outputs = 1 : i64}

// -----

relax.func @not_a_call(%x: !relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32> {
  // expected-error@+1 {{'relax.relu' op carries 'relax.conv_private_result', which only a relax.call_dps_packed may carry}}
  %r = relax.relu %x {relax.conv_private_result} : (!relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32>
  relax.return %r : !relax.tensor<[n, h, w, 8], f32>
}

// -----

relax.func @two_results(%x: !relax.tensor<[n, h, w, 8], f32>) -> !relax.tensor<[n, h, w, 8], f32> {
  // expected-error@+1 {{'relax.call_dps_packed' op carries 'relax.conv_private_result' but has 2 results, expected 1}}
  %a, %b = relax.call_dps_packed @split(%x) {relax.conv_private_result} : (!relax.tensor<[n, h, w, 8], f32>) -> (!relax.tensor<[n, h, w, 8], f32>, !relax.tensor<[n, h, w, 8], f32>)
  relax.return %a : !relax.tensor<[n, h, w, 8], f32>
}
extern.func private @split(!relax.tensor<[a, b, c, d], f32>, !relax.tensor<[a, b, c, d], f32>, !relax.tensor<[a, b, c, d], f32>)
    attributes {link_name = "split", num_outputs = 2 : i64}
