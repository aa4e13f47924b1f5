// RUN: relax-opt --relax-fuse-tir -split-input-file -verify-diagnostics %s

// Groups marked by hand that cannot be merged get an error and the module is
// left as it was.

// The exp result is read by a call outside the group that runs before the
// group's last call: the merged call (at the last member) would come too
// late.
tir.prim_func private @ew(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.block "ew" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}
relax.func @not_convex(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n], f32> {
    // expected-error @below {{cannot be fused: its result is used by relax.call_tir before the group's last call}}
    %a = relax.call_tir @ew(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %b = relax.call_tir @ew(%a) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %c = relax.call_tir @ew(%b) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.output %c : !relax.tensor<[n], f32>
  }
  relax.return %0 : !relax.tensor<[n], f32>
}

// -----

// A program without a body (an external declaration) cannot be merged.
tir.prim_func private @decl(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
tir.prim_func private @ew(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
relax.func @no_body(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n], f32> {
    // expected-error @below {{cannot be fused: 'decl' is not a tir.prim_func with a body}}
    %a = relax.call_tir @decl(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %b = relax.call_tir @ew(%a) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.output %b : !relax.tensor<[n], f32>
  }
  relax.return %0 : !relax.tensor<[n], f32>
}

// -----

// The merged program is stated in the caller's variables: a callee variable
// the call binds to an unknown dim (`?`) has no restatement.
tir.prim_func private @ew(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
relax.func @unknown_dim(%x: !relax.tensor<[?], f32>) -> !relax.tensor<[?], f32> {
  %0 = relax.dataflow -> !relax.tensor<[?], f32> {
    // expected-error @below {{cannot be fused: callee variable 'n' is bound to an unknown dim}}
    %a = relax.call_tir @ew(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[?], f32>) -> !relax.tensor<[?], f32>
    %b = relax.call_tir @ew(%a) {relax.fusion_group = 0 : i64} : (!relax.tensor<[?], f32>) -> !relax.tensor<[?], f32>
    relax.output %b : !relax.tensor<[?], f32>
  }
  relax.return %0 : !relax.tensor<[?], f32>
}

// -----

// The callee's static buffer binds no variable, but the group's input has
// an unknown dim: the merged program's parameter would have no shape.
tir.prim_func private @ew4(%x: !tir.buffer<[4], f32>, %y: !tir.buffer<[4], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
relax.func @not_fully_known(%x: !relax.tensor<[?], f32>) -> !relax.tensor<[4], f32> {
  %0 = relax.dataflow -> !relax.tensor<[4], f32> {
    // expected-error @below {{cannot be fused: the group passes '!relax.tensor<[?], f32>', whose shape is not fully known}}
    %a = relax.call_tir @ew4(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[?], f32>) -> !relax.tensor<[4], f32>
    %b = relax.call_tir @ew4(%a) {relax.fusion_group = 0 : i64} : (!relax.tensor<[4], f32>) -> !relax.tensor<[4], f32>
    relax.output %b : !relax.tensor<[4], f32>
  }
  relax.return %0 : !relax.tensor<[4], f32>
}

// -----

// A relax.call_tir_inplace only ends a group: a later member would have to
// compute from its result, which is its input's buffer.
tir.prim_func private @ew(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
relax.func @inplace_not_last(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{cannot be fused: a relax.call_tir_inplace must be the last call of its group}}
  %a = relax.call_tir_inplace @inc(%x) inplace_indices([0]) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %b = relax.call_tir @ew(%a) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %b : !relax.tensor<[n], f32>
}

// -----

// The input an in-place call updates must be a buffer from outside its
// group.
tir.prim_func private @ew(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
relax.func @updated_in_group(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %a = relax.call_tir @ew(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  // expected-error @below {{cannot be fused: the input it updates in place is computed in its group}}
  %b = relax.call_tir_inplace @inc(%a) inplace_indices([0]) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %b : !relax.tensor<[n], f32>
}

// -----

// No other member may read the input the group's in-place call updates: the
// merged program would read it where the update writes.
tir.prim_func private @ew(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
tir.prim_func private @set(%x: !tir.buffer<[n], f32>, %v: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
relax.func @reads_updated(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{cannot be fused: it reads an input that the group's last call updates in place}}
  %a = relax.call_tir @ew(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %b = relax.call_tir_inplace @set(%x, %a) inplace_indices([0]) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %b : !relax.tensor<[n], f32>
}
