// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// The nest as legalization builds it, with the inner bounds' constants inside
// the outer loop: they are hoisted, then the loops fuse over n * m.
// CHECK-LABEL: tir.prim_func @fuse
// CHECK-DAG: %[[N:.*]] = tir.sym_var "n" : index
// CHECK-DAG: %[[M:.*]] = tir.sym_var "m" : index
// CHECK: %[[NM:.*]] = arith.muli %[[N]], %[[M]] : index
// CHECK: tir.for %[[F:.*]] = %{{.*}} to %[[NM]] step %{{.*}} name = "i.j.fused" {
// CHECK-NEXT: %[[I:.*]] = arith.divui %[[F]], %[[M]] : index
// CHECK-NEXT: %[[J:.*]] = arith.remui %[[F]], %[[M]] : index
// CHECK-NEXT: tir.block "copy" (%{{.*}} = %[[I]], %{{.*}} = %[[J]]) kinds [spatial, spatial]
// CHECK-NOT: tir.for
tir.prim_func @fuse(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["fuse i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    %c0b = arith.constant 0 : index
    %c1b = arith.constant 1 : index
    %m = tir.sym_var "m" : index
    tir.for %j = %c0b to %m step %c1b name = "j" {
      tir.block "copy" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// Fusing a split pair back: the extents are ceildiv(n, 4) and 4.
// CHECK-LABEL: tir.prim_func @split_then_fuse
// CHECK: tir.for %[[F:.*]] = %{{.*}} to %{{.*}} step %{{.*}} name = "i.outer.i.inner.fused" {
// CHECK: scf.if
tir.prim_func @split_then_fuse(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 4", "fuse i.outer i.inner"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "z" (%vi = %i) kinds [spatial] {
      tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @fuse_not_perfect(%y: !tir.buffer<[n, n], f32>)
    attributes {tir.schedule = ["fuse i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{fuse: loops 'i' and 'j' are not perfectly nested}}
    tir.store %zero, %y[%i, %c0] : !tir.buffer<[n, n], f32>
    tir.for %j = %c0 to %n step %c1 name = "j" {
    }
  }
  tir.return
}

// -----

tir.prim_func @fuse_triangular(%y: !tir.buffer<[n, n], f32>)
    attributes {tir.schedule = ["fuse i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{fuse: bounds of loop 'j' depend on the induction variable of loop 'i'}}
    tir.for %j = %c0 to %i step %c1 name = "j" {
    }
  }
  tir.return
}

// -----

tir.prim_func @fuse_not_nested(%y: !tir.buffer<[n, n], f32>)
    attributes {tir.schedule = ["fuse i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
  }
  // expected-error @below {{fuse: loop 'j' is not directly nested in loop 'i'}}
  tir.for %j = %c0 to %n step %c1 name = "j" {
  }
  tir.return
}

// -----

tir.prim_func @fuse_lower_bound(%y: !tir.buffer<[n, n], f32>)
    attributes {tir.schedule = ["fuse i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{fuse: loop must have lower bound 0 and step 1}}
    tir.for %j = %c1 to %n step %c1 name = "j" {
    }
  }
  tir.return
}
