// RUN: relax-opt --mlir-very-unsafe-disable-verifier-on-parsing --tir-test-schedule -split-input-file -verify-diagnostics %s
// RUN: ! relax-opt -split-input-file %s 2> %t.err
// RUN: FileCheck %s --check-prefix=VERIFIER < %t.err

// The checks of the schedule primitives that verified IR never reaches: a
// buffer of unknown extent is rejected by the tir.alloc verifier first
// (second RUN, VERIFIER lines); cache_read still refuses it (the cache
// would have no size), tested with the parser's verifier off.

// VERIFIER: error: 'tir.alloc' op cannot allocate a buffer with an unknown dim
tir.prim_func @read_unknown_extent(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add 0 local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %x = tir.alloc : !tir.buffer<[?], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @+1 {{cache_read: a buffer of block 'add' has a dimension of unknown extent}}
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[?], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}
