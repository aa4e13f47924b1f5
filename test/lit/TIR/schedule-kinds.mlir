// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// parallel / vectorize / unroll / bind on loops with symbolic extents.
// CHECK-LABEL: tir.prim_func @kinds
// CHECK: tir.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} kind = parallel name = "i.outer" {
// CHECK: tir.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} kind = vectorized name = "i.inner" {
// CHECK: tir.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} kind = unrolled name = "j" {
tir.prim_func @kinds(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["split i 4", "parallel i.outer", "vectorize i.inner", "unroll j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "copy" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// The GPU form: fuse, split by the block size, bind.
// CHECK-LABEL: tir.prim_func @gpu
// CHECK: tir.for %{{.*}} kind = thread_binding thread = "blockIdx.x" name = "i.j.fused.outer" {
// CHECK: tir.for %{{.*}} kind = thread_binding thread = "threadIdx.x" name = "i.j.fused.inner" {
// CHECK: scf.if
tir.prim_func @gpu(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["fuse i j", "split i.j.fused 128", "bind i.j.fused.outer blockIdx.x", "bind i.j.fused.inner threadIdx.x"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "copy" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// Rebinding a loop to a non-thread kind drops its thread attribute.
// CHECK-LABEL: tir.prim_func @rebind
// CHECK: tir.for %{{.*}} kind = parallel name = "i" {
tir.prim_func @rebind(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["parallel i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 kind = thread_binding thread = "threadIdx.x" name = "i" {
  }
  tir.return
}

// -----

tir.prim_func @parallel_reduce(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["parallel i", "parallel k"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{parallel: loop 'k' carries reduce iteration variable #1 of block 'sum'}}
    tir.for %k = %c0 to %m step %c1 name = "k" {
      // expected-note @below {{reduction block here}}
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

// A split reduction loop still carries the reduction through index math.
tir.prim_func @vectorize_reduce(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split k 4", "vectorize k.inner"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{vectorize: loop 'k.inner' carries reduce iteration variable #1 of block 'sum'}}
    tir.for %k = %c0 to %m step %c1 name = "k" {
      // expected-note @below {{reduction block here}}
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

tir.prim_func @bind_bad_axis(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["bind i threadIdx.w"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  // expected-error @below {{bind: unknown thread axis 'threadIdx.w' (expected blockIdx.x/y/z or threadIdx.x/y/z)}}
  tir.for %i = %c0 to %n step %c1 name = "i" {
  }
  tir.return
}

// -----

tir.prim_func @bind_twice(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["bind i threadIdx.x", "bind j threadIdx.x"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{bind: an enclosing loop is already bound to 'threadIdx.x'}}
    tir.for %j = %c0 to %n step %c1 name = "j" {
    }
  }
  tir.return
}
