// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// compact: a top-level scratch buffer [n, 4] that only loop i reads and
// writes, always at row i, becomes a per-iteration local [1, 4] inside i,
// indexed at row 0 (what the CPU default schedule does after compute_at).
// CHECK-LABEL: tir.prim_func @rows
// CHECK-NOT: tir.alloc : !tir.buffer<[n, 4], f32>
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} name = "i" {
// CHECK-NEXT: %[[T:.*]] = tir.alloc : !tir.buffer<[1, 4], f32, local>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK: tir.store %{{.*}}, %[[T]][%[[Z]], %{{.*}}] : !tir.buffer<[1, 4], f32, local>
// CHECK: tir.load %[[T]][%[[Z]], %{{.*}}] : !tir.buffer<[1, 4], f32, local>
tir.prim_func @rows(%x: !tir.buffer<[n, 4], f32>, %y: !tir.buffer<[n, 4], f32>)
    attributes {tir.schedule = ["compact 0 i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = tir.sym_var "n" : index
  %t = tir.alloc : !tir.buffer<[n, 4], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %c4 step %c1 name = "j" {
      tir.block "produce" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, 4], f32>
        tir.store %v, %t[%vi, %vj] : !tir.buffer<[n, 4], f32>
      }
    }
    tir.for %k = %c0 to %c4 step %c1 name = "k" {
      tir.block "consume" (%vi = %i, %vk = %k) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vk] : !tir.buffer<[n, 4], f32>
        %s = arith.addf %v, %v : f32
        tir.store %s, %y[%vi, %vk] : !tir.buffer<[n, 4], f32>
      }
    }
  }
  tir.return
}

// -----

// The buffer is read after the loop: a per-iteration copy would be gone.
tir.prim_func @outside(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compact 0 i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  // expected-error @+1 {{compact: the buffer is accessed outside the loop}}
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "produce" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %t[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.for %j = %c0 to %n step %c1 name = "j" {
    tir.block "consume" (%vj = %j) kinds [spatial] {
      %v = tir.load %t[%vj] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vj] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// Each iteration of i writes every element (inner loop j), so no dim is
// indexed by i's iv everywhere.
tir.prim_func @no_dim(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compact 0 i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  // expected-error @+1 {{compact: no dim of the buffer is indexed by the loop's iv everywhere}}
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %n step %c1 name = "j" {
      tir.block "copy" (%vj = %j) kinds [spatial] {
        %v = tir.load %x[%vj] : !tir.buffer<[n], f32>
        tir.store %v, %t[%vj] : !tir.buffer<[n], f32>
      }
    }
    tir.block "use" (%vi = %i) kinds [spatial] {
      %v = tir.load %t[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// The buffer is passed to another op than a load or store.
tir.prim_func @other_use(%x: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compact 0 i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  // expected-error @+1 {{compact: the buffer has a use other than a load or store}}
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "copy" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %t[%vi] : !tir.buffer<[n], f32>
    }
  }
  %m = builtin.unrealized_conversion_cast %t : !tir.buffer<[n], f32> to memref<?xf32>
  tir.return
}
