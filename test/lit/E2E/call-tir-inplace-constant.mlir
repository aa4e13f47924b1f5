// An in-place update of a constant hidden behind a match_cast to symbolic
// dims: relax-run (whose JIT dropped the update) and relax-compile (whose
// library added it to the stored weights on every call) both refuse the
// module with the verifier's located error, naming the constant.
// RUN: relax-run %s --random-inputs --dim n=3 > %t.run 2>&1; test $? -eq 1
// RUN: FileCheck %s < %t.run
// RUN: relax-compile %s -o %t.so > %t.compile 2>&1; test $? -eq 1
// RUN: FileCheck %s < %t.compile
// CHECK: call-tir-inplace-constant.mlir:34:8: error: 'relax.call_tir_inplace' op input #0 is updated in place, but its storage is a relax.constant (through relax.match_cast): constants cannot be updated in place
// CHECK: call-tir-inplace-constant.mlir:32:8: note: the relax.constant

// w += 1, in place.
tir.prim_func private @add_one(%w: !tir.buffer<[n, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %c4 step %c1 {
      tir.block "inc" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %w[%vi, %vj] : !tir.buffer<[n, 4], f32>
        %s = arith.addf %v, %one : f32
        tir.store %s, %w[%vi, %vj] : !tir.buffer<[n, 4], f32>
      }
    }
  }
  tir.return
}

relax.func @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %c = relax.constant dense<2.0> : tensor<3x4xf32>
  %w = relax.match_cast %c : !relax.tensor<[3, 4], f32> to !relax.tensor<[n, 4], f32>
  %u = relax.call_tir_inplace @add_one(%w) inplace_indices([0]) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %y = relax.add %x, %u : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %y : !relax.tensor<[n, 4], f32>
}
