// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// compute_at under the outer consumer loop: row i of t is computed (the
// whole symbolic extent m of the inner producer loop) before the consumer's
// inner loop reads it; the producer nest is gone from the top level.
// CHECK-LABEL: tir.prim_func @at_outer
// CHECK: %[[N:.*]] = tir.sym_var "n" : index
// CHECK: %[[M:.*]] = tir.sym_var "m" : index
// CHECK: %[[T:.*]] = tir.alloc : !tir.buffer<[n, m], f32>
// CHECK-NOT: name = "a"
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} name = "i" {
// CHECK-NEXT: tir.for %[[B:.*]] = %{{.*}} to %[[M]] step %{{.*}} name = "b" {
// CHECK-NEXT: tir.block "mul" (%{{.*}} = %[[I]], %{{.*}} = %[[B]])
// CHECK: tir.store %{{.*}}, %[[T]][
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[M]] step %{{.*}} name = "j" {
// CHECK-NEXT: tir.block "add"
// CHECK-NEXT: tir.load %[[T]][
// CHECK: tir.return
tir.prim_func @at_outer(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["compute_at mul i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      tir.block "mul" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %v, %two : f32
        tir.store %s, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// Under the inner loop both dims are fixed: one element per iteration.
// CHECK-LABEL: tir.prim_func @at_inner
// CHECK: tir.for %[[I:.*]] = %{{.*}} name = "i" {
// CHECK-NEXT: tir.for %[[J:.*]] = %{{.*}} name = "j" {
// CHECK-NEXT: tir.block "mul" (%{{.*}} = %[[I]], %{{.*}} = %[[J]])
// CHECK: tir.block "add" (%{{.*}} = %[[I]], %{{.*}} = %[[J]])
// CHECK-NOT: tir.for
// CHECK: tir.return
tir.prim_func @at_inner(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["compute_at mul j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      tir.block "mul" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %v, %two : f32
        tir.store %s, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// t is read again after the loop: it would only hold what the loop needed.
tir.prim_func @outside(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["compute_at mul j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      // expected-error @+1 {{compute_at: block 'mul' has a consumer outside loop 'j'}}
      tir.block "mul" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %v, %two : f32
        tir.store %s, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  // expected-note @+1 {{see this op}}
  %late = tir.load %t[%c0, %c0] : !tir.buffer<[n, m], f32>
  tir.return
}

// -----

// The consumer reads t transposed: its loop i would index dim 1 (extent m).
tir.prim_func @transposed(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["compute_at mul i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      // expected-error @+1 {{compute_at: block 'mul' has a loop whose range differs from that of loop 'i'}}
      tir.block "mul" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %v, %two : f32
        tir.store %s, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vj, %vi] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// A constant index follows no loop: nothing to fix.
tir.prim_func @no_fixed(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["compute_at mul i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      // expected-error @+1 {{compute_at: block 'mul' has no buffer dim that its consumers index by loop 'i' or a loop around it}}
      tir.block "mul" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %v, %two : f32
        tir.store %s, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%c0, %c0] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// The producer writes a parameter, which the caller reads in full.
tir.prim_func @param(%x: !tir.buffer<[n], f32>, %t: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compute_at mul i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %a = %c0 to %n step %c1 name = "a" {
    // expected-error @+1 {{compute_at: block 'mul' writes a buffer that is not a tir.alloc}}
    tir.block "mul" (%va = %a) kinds [spatial] {
      %v = tir.load %x[%va] : !tir.buffer<[n], f32>
      tir.store %v, %t[%va] : !tir.buffer<[n], f32>
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %t[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}
