// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// A row sum over a symbolic axis in 8 lanes: partial[8] set to the init
// (0), k div 8 steps of a lane loop that reads x[i, 8 j + l] into slot l,
// the remainder (k mod 8 iterations) into slot 0, slots 1..7 added into
// slot 0, which is stored to y[i]. The original loop is gone.
// CHECK-LABEL: tir.prim_func @row_sum
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[P:.*]] = tir.alloc : !tir.buffer<[8], f32, local>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: tir.store %[[ZERO]], %[[P]][%{{.*}}]
// CHECK: %[[STEPS:.*]] = arith.divui %[[K:.*]], %[[C8:.*]] : index
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %[[STEPS]] step
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[J]], %[[C8]]
// CHECK: tir.for %[[L:.*]] = %{{.*}} to %[[C8]] step
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[BASE]], %[[L]]
// CHECK-NEXT: tir.block "sum_lanes" (%[[VI:.*]] = %[[I]], %[[VR:.*]] = %[[R]]) kinds [spatial, reduce] {
// CHECK-NEXT: %[[A:.*]] = tir.load %[[P]][%[[L]]]
// CHECK-NEXT: %[[B:.*]] = tir.load %{{.*}}[%[[VI]], %[[VR]]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]]
// CHECK-NEXT: tir.store %[[S]], %[[P]][%[[L]]]
// CHECK: %[[DONE:.*]] = arith.muli %[[STEPS]], %[[C8]]
// CHECK: tir.for %[[T:.*]] = %[[DONE]] to %[[K]] step
// CHECK-NEXT: tir.block "sum_lanes" (%{{.*}} = %[[I]], %{{.*}} = %[[T]])
// CHECK-NEXT: tir.load %[[P]][%[[Z:.*]]]
// CHECK: tir.for %[[F:.*]] = %{{.*}} to %[[C8]] step
// CHECK-NEXT: %[[X:.*]] = tir.load %[[P]][%[[Z]]]
// CHECK-NEXT: %[[Y:.*]] = tir.load %[[P]][%[[F]]]
// CHECK-NEXT: %[[XY:.*]] = arith.addf %[[X]], %[[Y]]
// CHECK-NEXT: tir.store %[[XY]], %[[P]][%[[Z]]]
// CHECK: %[[TOTAL:.*]] = tir.load %[[P]][%[[Z]]]
// CHECK-NEXT: tir.store %[[TOTAL]], %{{.*}}[%[[I]]] : !tir.buffer<[m], f32>
// CHECK-NOT: tir.block "sum"
// CHECK: tir.return
tir.prim_func @row_sum(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["lane_reduction sum r 8"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 name = "i" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

tir.prim_func @bad_lanes(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["lane_reduction sum r 12"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 name = "i" {
    // expected-error@+1 {{lane_reduction: lanes must be a power of two in [2, 64], got 12}}
    tir.for %r = %c0 to %k step %c1 name = "r" {
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

// A column sum reads across the reduce variable (x[r, j]): its lanes would
// gather, so the primitive refuses.
tir.prim_func @column_sum(%x: !tir.buffer<[k, m], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["lane_reduction sum r 16"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %j = %c0 to %m step %c1 name = "j" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      // expected-error@+1 {{lane_reduction: a load reads across the reduce variable, not along it}}
      tir.block "sum" (%vj = %j, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %y[%vj] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vj] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vr, %vj] : !tir.buffer<[k, m], f32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %y[%vj] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

// The preconditions it shares with cross_thread_reduction: here an init
// that is not the identity of the update.
tir.prim_func @not_identity(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["lane_reduction sum r 16"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 name = "i" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 1.0 : f32
          // expected-error@+1 {{lane_reduction: the init value is not the identity of the update}}
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}
