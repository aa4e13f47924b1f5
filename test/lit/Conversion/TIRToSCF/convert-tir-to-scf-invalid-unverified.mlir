// RUN: relax-opt --mlir-very-unsafe-disable-verifier-on-parsing --convert-tir-to-scf -split-input-file -verify-diagnostics %s
// RUN: ! relax-opt -split-input-file %s 2> %t.err
// RUN: FileCheck %s --check-prefix=VERIFIER < %t.err

// The checks of --convert-tir-to-scf that verified IR never reaches: the
// prim_func verifier binds every dim of an allocation and the tir ops'
// verifiers keep them inside prim_funcs (second RUN, VERIFIER lines). The
// checks stay for pipelines run without verification, tested with the
// parser's verifier off.

// VERIFIER: error: 'tir.alloc' op shape uses symbolic variable 'k' that the parameters of @unbound_alloc do not bind
tir.prim_func @unbound_alloc(%y: !tir.buffer<[n], f32>) {
  // expected-error@+1 {{'tir.alloc' op cannot materialise dim k}}
  %t = tir.alloc : !tir.buffer<[k], f32>
  tir.return
}

// -----

// A tir op outside a prim_func is left over after the lowering.
// VERIFIER: error: 'tir.sym_var' op must be nested in a tir.prim_func
func.func @stray() -> index {
  // expected-error@+1 {{'tir.sym_var' op could not be lowered to scf/memref}}
  %n = tir.sym_var "n" : index
  return %n : index
}
