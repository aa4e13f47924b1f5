// RUN: relax-opt --mlir-very-unsafe-disable-verifier-on-parsing --relax-verify-well-formed -split-input-file -verify-diagnostics %s
// RUN: relax-opt --mlir-very-unsafe-disable-verifier-on-parsing -split-input-file %s 2>&1 | FileCheck %s --check-prefix=NOPASS

// Every diagnostic of --relax-verify-well-formed. The relax.func verifier
// runs the same check (verifyWellFormed), so parsed IR that breaks a rule
// never reaches the pass: the inputs are parsed with the verifier off, as
// IR produced by a pass run without -verify-each would be. The pass can
// therefore never fire on IR that passed verification; it exists for
// pipelines that disable verification. The second RUN shows that without
// the pass nothing reports these inputs: the tool exits 0 and prints them
// (in generic form, since they do not verify) with no diagnostic of its
// own; MLIR only notes that the expected errors were not produced.
// NOPASS-NOT: error: 'relax.
// NOPASS: sym_name = "result_unbound"
// NOPASS-NOT: error: 'relax.

// expected-error @below {{'relax.func' op parameter #1 uses symbolic variable 'k' that no parameter binds (a parameter dim that is the bare variable binds it)}}
relax.func @unbound_param(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n, k + 1], f32>) {
  relax.return
}

// -----

// The use comes before the match_cast that binds k, across the boundary of
// a dataflow region.
relax.func @use_before_bind(%x: !relax.tensor<*, f32>) -> !relax.tensor<[k], f32> {
  %0 = relax.dataflow -> !relax.tensor<[k], f32> {
    // expected-error @below {{'relax.exp' op uses symbolic variable 'k' before it is bound (bind it with a parameter type, an earlier relax.match_cast or relax.tensor_to_shape)}}
    %e = relax.exp %1 : (!relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
    relax.output %e : !relax.tensor<[k], f32>
  }
  %1 = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[k], f32>
  relax.return %0 : !relax.tensor<[k], f32>
}

// -----

// tir_vars is the one attribute whose variables need not appear in a type.
tir.prim_func private @pad(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>, %k: index) {
  tir.return
}
relax.func @attr_before_bind(%x: !relax.tensor<[n], f32>) {
  // expected-error @below {{'relax.call_tir' op attribute 'tir_vars' uses symbolic variable 'k' before it is bound}}
  %y = relax.call_tir @pad(%x) tir_vars(#relax.shape<[n + k]>) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

// Every function is checked, each reporting its first error.
relax.func @first(%x: !relax.tensor<[n], f32>) {
  // expected-error @below {{'relax.match_cast' op uses symbolic variable 'j' before it is bound}}
  %c = relax.match_cast %x : !relax.tensor<[n], f32> to !relax.tensor<[j + 1], f32>
  relax.return
}
// expected-error @below {{'relax.func' op result #1 uses symbolic variable 'k' that is never bound}}
relax.func @result_unbound(%x: !relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[k], f32>) {
  relax.return %x, %x : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
}
