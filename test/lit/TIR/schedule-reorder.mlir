// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// Swaps i and j with their bounds, kinds and names.
// CHECK-LABEL: tir.prim_func @reorder
// CHECK-DAG: %[[N:.*]] = tir.sym_var "n" : index
// CHECK-DAG: %[[M:.*]] = tir.sym_var "m" : index
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %[[M]] step %{{.*}} name = "j" {
// CHECK-NEXT: tir.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} kind = parallel name = "i" {
// CHECK-NEXT: tir.block "t" (%{{.*}} = %[[J]], %{{.*}} = %[[I]]) kinds [spatial, spatial]
tir.prim_func @reorder(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[m, n], f32>)
    attributes {tir.schedule = ["reorder i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel name = "i" {
    %m = tir.sym_var "m" : index
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "t" (%vj = %j, %vi = %i) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vj, %vi] : !tir.buffer<[m, n], f32>
      }
    }
  }
  tir.return
}

// -----

// The reduction loop moves outside; split + reorder gives the usual tiled
// form.
// CHECK-LABEL: tir.prim_func @tile
// CHECK: name = "i.outer"
// CHECK: name = "k"
// CHECK: name = "i.inner"
// CHECK: scf.if
// CHECK: tir.block "sum"
tir.prim_func @tile(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 8", "reorder i.inner k"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %v = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// -----

tir.prim_func @reorder_triangular(%y: !tir.buffer<[n, n], f32>)
    attributes {tir.schedule = ["reorder i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{reorder: bounds of loop 'j' depend on the induction variable of loop 'i'}}
    tir.for %j = %i to %n step %c1 name = "j" {
    }
  }
  tir.return
}

// -----

tir.prim_func @reorder_not_perfect(%y: !tir.buffer<[n, n], f32>)
    attributes {tir.schedule = ["reorder i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %n step %c1 name = "j" {
    }
    // expected-error @below {{reorder: loops 'i' and 'j' are not perfectly nested}}
    tir.store %zero, %y[%i, %c0] : !tir.buffer<[n, n], f32>
  }
  tir.return
}

// -----

tir.prim_func @reorder_not_nested(%y: !tir.buffer<[n, n], f32>)
    attributes {tir.schedule = ["reorder i j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %n step %c1 name = "k" {
      // expected-error @below {{reorder: loop 'j' is not directly nested in loop 'i'}}
      tir.for %j = %c0 to %n step %c1 name = "j" {
      }
    }
  }
  tir.return
}
