// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// A max over a symbolic axis with 64 threads: the init value (-inf) seeds
// every slot and the tree combines with maximumf (32, 16, ..., 1).
// CHECK-LABEL: tir.prim_func @row_max
// CHECK: tir.alloc : !tir.buffer<[64], f32, shared>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: tir.block "max_cross_thread"
// CHECK: arith.maximumf
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[C32]] step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK: arith.maximumf
// CHECK-COUNT-6: kind = thread_binding thread = "threadIdx.x"
tir.prim_func @row_max(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["bind i blockIdx.x", "cross_thread_reduction max r 64"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 name = "i" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      tir.block "max" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0xFF800000 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.maximumf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

tir.prim_func @bad_threads(%x: !tir.buffer<[k], f32>, %y: !tir.buffer<[], f32>)
    attributes {tir.schedule = ["cross_thread_reduction sum r 48"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  // expected-error@+1 {{cross_thread_reduction: threads must be a power of two in [32, 1024], got 48}}
  tir.for %r = %c0 to %k step %c1 name = "r" {
    tir.block "sum" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %y[] : !tir.buffer<[], f32>
      }
      %a = tir.load %y[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[k], f32>
      %s = arith.addf %a, %b : f32
      tir.store %s, %y[] : !tir.buffer<[], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @not_identity(%x: !tir.buffer<[k], f32>, %y: !tir.buffer<[], f32>)
    attributes {tir.schedule = ["cross_thread_reduction sum r 32"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  tir.for %r = %c0 to %k step %c1 name = "r" {
    tir.block "sum" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 1.0 : f32
        // expected-error@+1 {{cross_thread_reduction: the init value is not the identity of the update}}
        tir.store %z, %y[] : !tir.buffer<[], f32>
      }
      %a = tir.load %y[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[k], f32>
      %s = arith.addf %a, %b : f32
      tir.store %s, %y[] : !tir.buffer<[], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @unknown_combiner(%x: !tir.buffer<[k], f32>, %y: !tir.buffer<[], f32>)
    attributes {tir.schedule = ["cross_thread_reduction sum r 32"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  tir.for %r = %c0 to %k step %c1 name = "r" {
    tir.block "sum" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %y[] : !tir.buffer<[], f32>
      }
      %a = tir.load %y[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[k], f32>
      %s = arith.subf %a, %b : f32
      // expected-error@+1 {{cross_thread_reduction: the update is not combine(output, value) with a known combiner}}
      tir.store %s, %y[] : !tir.buffer<[], f32>
    }
  }
  tir.return
}
