// RUN: relax-opt %s --convert-tir-to-scf | FileCheck %s
// RUN: relax-opt %s --convert-tir-to-scf=max-stack-bytes=1024 | FileCheck %s --check-prefix=SMALL
// RUN: relax-opt %s --convert-tir-to-scf | relax-opt --relax-check-stack-allocs -o /dev/null

// The stack rule for host `local` scratch (default budget 64 KiB per
// function): a constant-size buffer stays on the stack; one of symbolic size
// is heap memory (m is unbounded at @c's call), allocated at the start of
// its parallel loop body with its size computed at entry, and freed at the
// end of the body; one whose size
// the callers' sym_bounds bound (m <= 1024: 4 KiB) is a view of a
// constant-size stack slot.

// CHECK-LABEL: func.func private @rows
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf32>, %[[Y:.*]]: memref<?x?xf32>)
// CHECK: %[[M:.*]] = memref.dim %[[X]], %c1
// CHECK: %[[M2:.*]] = arith.muli %{{.*}}, %[[M]] : index
// CHECK: scf.parallel
// CHECK-DAG: %[[C:.*]] = memref.alloca() : memref<16xf32>
// CHECK-DAG: %[[H:.*]] = memref.alloc(%[[M2]]) : memref<?xf32>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK: memref.store %{{.*}}, %[[H]]
// CHECK: memref.dealloc %[[H]] : memref<?xf32>
// CHECK-NEXT: scf.reduce
// SMALL-LABEL: func.func private @rows
// SMALL-DAG: memref.alloca() : memref<16xf32>
// SMALL-DAG: memref.alloc(%{{.*}}) : memref<?xf32>
tir.prim_func private @rows(%x: !tir.buffer<[n, m], f32>,
                            %y: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    %c = tir.alloc : !tir.buffer<[16], f32, local>
    %h = tir.alloc : !tir.buffer<[m * 2], f32, local>
    tir.for %j = %c0 to %m step %c1 {
      %v = tir.load %x[%i, %j] : !tir.buffer<[n, m], f32>
      tir.store %v, %c[%c0] : !tir.buffer<[16], f32, local>
      tir.store %v, %h[%j] : !tir.buffer<[m * 2], f32, local>
      %w = tir.load %h[%j] : !tir.buffer<[m * 2], f32, local>
      tir.store %w, %y[%i, %j] : !tir.buffer<[n, m], f32>
    }
  }
  tir.return
}

// The same scratch of m floats with m bounded by every caller: @a binds m
// to k (k <= 1024), @b to 512. The bound is the largest, 4 KiB; within the
// default budget it is a view of a 4096-byte slot, over a 1 KiB budget it
// goes to the heap.
// CHECK-LABEL: func.func private @bounded
// CHECK: scf.parallel
// CHECK-NEXT: %[[SLOT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4096xi8>
// CHECK: %[[V:.*]] = memref.view %[[SLOT]][%{{.*}}][%{{.*}}] : memref<4096xi8> to memref<?xf32>
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK-NOT: memref.dealloc
// CHECK: scf.reduce
// SMALL-LABEL: func.func private @bounded
// SMALL-NOT: memref.alloca
// SMALL: memref.alloc(%{{.*}}) : memref<?xf32>
// SMALL: memref.dealloc
tir.prim_func private @bounded(%x: !tir.buffer<[n, m], f32>,
                               %y: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    %h = tir.alloc : !tir.buffer<[m], f32, local>
    tir.for %j = %c0 to %m step %c1 {
      %v = tir.load %x[%i, %j] : !tir.buffer<[n, m], f32>
      tir.store %v, %h[%j] : !tir.buffer<[m], f32, local>
      %w = tir.load %h[%j] : !tir.buffer<[m], f32, local>
      tir.store %w, %y[%i, %j] : !tir.buffer<[n, m], f32>
    }
  }
  tir.return
}

// A scratch that is the whole function's (no parallel loop) goes to the
// prologue; unbounded (n has no sym_bounds in @a), it is freed at return.
// CHECK-LABEL: func.func private @whole
// CHECK: %[[W:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: scf.for
// CHECK: memref.dealloc %[[W]]
// CHECK-NEXT: return
tir.prim_func private @whole(%x: !tir.buffer<[n, m], f32>,
                             %y: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %w = tir.alloc : !tir.buffer<[n], f32, local>
  tir.for %i = %c0 to %n step %c1 {
    %v = tir.load %x[%i, %c0] : !tir.buffer<[n, m], f32>
    tir.store %v, %w[%i] : !tir.buffer<[n], f32, local>
  }
  tir.return
}

relax.func @a(%x: !relax.tensor<[n, k], f32>) -> !relax.tensor<[n, k], f32>
    attributes {sym_bounds = {k = array<i64: 1, 1024>}} {
  %1 = relax.call_tir @bounded(%x) : (!relax.tensor<[n, k], f32>) -> !relax.tensor<[n, k], f32>
  %2 = relax.call_tir @whole(%1) : (!relax.tensor<[n, k], f32>) -> !relax.tensor<[n, k], f32>
  relax.return %2 : !relax.tensor<[n, k], f32>
}

relax.func @b(%x: !relax.tensor<[n, 512], f32>) -> !relax.tensor<[n, 512], f32> {
  %0 = relax.call_tir @bounded(%x) : (!relax.tensor<[n, 512], f32>) -> !relax.tensor<[n, 512], f32>
  relax.return %0 : !relax.tensor<[n, 512], f32>
}

// No sym_bounds: @rows's m (bound to this k) has no upper bound.
relax.func @c(%x: !relax.tensor<[n, k], f32>) -> !relax.tensor<[n, k], f32> {
  %0 = relax.call_tir @rows(%x) : (!relax.tensor<[n, k], f32>) -> !relax.tensor<[n, k], f32>
  relax.return %0 : !relax.tensor<[n, k], f32>
}
