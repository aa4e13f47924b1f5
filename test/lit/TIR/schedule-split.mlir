// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// A symbolic extent that is not provably a multiple of the factor: the body
// is guarded.
// CHECK-LABEL: tir.prim_func @split_guarded
// CHECK-NOT: tir.schedule
// CHECK: %[[N:.*]] = tir.sym_var "n" : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[SUM:.*]] = arith.addi %[[N]], %[[C3]] : index
// CHECK: %[[UB:.*]] = arith.divui %[[SUM]], %[[C4]] : index
// CHECK: tir.for %[[O:.*]] = %{{.*}} to %[[UB]] step %{{.*}} name = "i.outer" {
// CHECK-NEXT: tir.for %[[I:.*]] = %{{.*}} to %[[C4]] step %{{.*}} name = "i.inner" {
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[O]], %[[C4]] : index
// CHECK-NEXT: %[[IDX:.*]] = arith.addi %[[M]], %[[I]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[IDX]], %[[N]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: tir.block "add" (%{{.*}} = %[[IDX]]) kinds [spatial] {
tir.prim_func @split_guarded(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 4"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %v, %one : f32
      tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// n * 8 is a multiple of 4 for every n: no guard.
// CHECK-LABEL: tir.prim_func @split_divisible
// CHECK: %[[E:.*]] = arith.muli
// CHECK: tir.for %[[O:.*]] = %{{.*}} to %{{.*}} step %{{.*}} name = "i.outer" {
// CHECK-NEXT: tir.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} name = "i.inner" {
// CHECK-NEXT: arith.muli %[[O]]
// CHECK-NEXT: %[[IDX:.*]] = arith.addi %{{.*}}, %[[I]] : index
// CHECK-NOT: scf.if
// CHECK: tir.block "copy" (%{{.*}} = %[[IDX]]) kinds [spatial] {
tir.prim_func @split_divisible(%x: !tir.buffer<[n, 8], f32>, %y: !tir.buffer<[n * 8], f32>)
    attributes {tir.schedule = ["split i 4"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = tir.sym_var "n" : index
  %e = arith.muli %n, %c8 : index
  tir.for %i = %c0 to %e step %c1 name = "i" {
    tir.block "copy" (%vi = %i) kinds [spatial] {
      %r = arith.divui %vi, %c8 : index
      %c = arith.remui %vi, %c8 : index
      %v = tir.load %x[%r, %c] : !tir.buffer<[n, 8], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n * 8], f32>
    }
  }
  tir.return
}

// -----

// Constant extents: 16 / 4 needs no guard, 10 / 4 does; the outer extent is
// folded.
// CHECK-LABEL: tir.prim_func @split_const
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[C4B:.*]] = arith.constant 4 : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[C4B]] step %{{.*}} name = "a.outer" {
// CHECK-NOT: scf.if
// CHECK: tir.block "a"
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[C3]] step %{{.*}} name = "b.outer" {
// CHECK: scf.if
// CHECK: tir.block "b"
tir.prim_func @split_const(%y: !tir.buffer<[16], f32>)
    attributes {tir.schedule = ["split a 4", "split b 4"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  tir.for %i = %c0 to %c16 step %c1 name = "a" {
    tir.block "a" (%vi = %i) kinds [spatial] {
      tir.store %zero, %y[%vi] : !tir.buffer<[16], f32>
    }
  }
  tir.for %i = %c0 to %c10 step %c1 name = "b" {
    tir.block "b" (%vi = %i) kinds [spatial] {
      tir.store %zero, %y[%vi] : !tir.buffer<[16], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @split_zero(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 0"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  // expected-error @below {{split: factor must be positive, got 0}}
  tir.for %i = %c0 to %n step %c1 name = "i" {
  }
  tir.return
}

// -----

tir.prim_func @split_step(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 2"]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tir.sym_var "n" : index
  // expected-error @below {{split: loop must have lower bound 0 and step 1}}
  tir.for %i = %c0 to %n step %c2 name = "i" {
  }
  tir.return
}

// -----

// expected-error @below {{schedule: no loop named 'j'}}
tir.prim_func @split_missing(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split j 2"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
  }
  tir.return
}

// -----

// A name two loops carry picks neither.
// expected-error @below {{schedule: 2 loops are named 'i'}}
tir.prim_func @split_ambiguous(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 2"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
  }
  tir.for %i2 = %c0 to %n step %c1 name = "i" {
  }
  tir.return
}
