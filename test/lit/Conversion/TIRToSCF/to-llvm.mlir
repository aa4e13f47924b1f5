// The lowered programs go through upstream's standard CPU pipeline.
// RUN: relax-opt %s --convert-tir-to-scf --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s

// CHECK-NOT: tir.
// CHECK-NOT: scf.
// CHECK-NOT: memref.
// CHECK-NOT: unrealized_conversion_cast
// CHECK-LABEL: llvm.func @row_sum
// CHECK: llvm.fadd
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @scratch
// CHECK: llvm.alloca
// CHECK: llvm.call @malloc
// CHECK: llvm.call @free
tir.prim_func @row_sum(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.for %r = %c0 to %m step %c1 {
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %v = tir.load %x[%vi, %vr] : !tir.buffer<[n, m], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

tir.prim_func @scratch(%a: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 {
    %l = tir.alloc : !tir.buffer<[1], f32, local>
    %g = tir.alloc : !tir.buffer<[n + 1], f32>
    %v = tir.load %a[%i] : !tir.buffer<[n], f32>
    tir.store %v, %l[%c0] : !tir.buffer<[1], f32, local>
    tir.store %v, %g[%i] : !tir.buffer<[n + 1], f32>
    %w = tir.load %g[%i] : !tir.buffer<[n + 1], f32>
    tir.store %w, %a[%i] : !tir.buffer<[n], f32>
  }
  tir.return
}
