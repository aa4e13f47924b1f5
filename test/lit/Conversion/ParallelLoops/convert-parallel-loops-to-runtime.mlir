// RUN: relax-opt %s --convert-parallel-loops-to-runtime=min-work=4096 --split-input-file | FileCheck %s

// A two-dimensional loop over a symbolic [n, 37] buffer: the bounds and the
// memref travel in a context struct on the caller's stack (allocated in
// the entry block), the constants are cloned into the outlined function,
// and the flattened range is walked a row of the inner dim at a time. The
// work estimate (n * 37 iterations of 4 ops, the alloca included) picks
// one chunk below min-work, the runtime's choice (0) above it.

// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %[[X:.*]]: memref<?x37xf32>, %[[N:.*]]: index)
// CHECK: %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, i64)>
// CHECK: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[X]] : memref<?x37xf32> to !llvm.struct
// CHECK: llvm.store %[[DESC]], %{{.*}}
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: llvm.store %[[N64]], %{{.*}}
// CHECK: %[[BIG:.*]] = arith.cmpi sge, %{{.*}}, %c4096
// CHECK: %[[CHUNKS:.*]] = arith.select %[[BIG]], %{{.*}}, %{{.*}} : i64
// CHECK: %[[FN:.*]] = constant @scale_par : (!llvm.ptr, i64, i64) -> ()
// CHECK: call @relax_rt_parallel_for(%[[FN]], %[[CTX]], %{{.*}}, %[[CHUNKS]], %{{.*}})
// CHECK-NOT: scf.parallel
// CHECK: return

// CHECK-LABEL: func.func private @scale_par(
// CHECK-SAME: %[[C:.*]]: !llvm.ptr, %[[B:.*]]: i64, %[[E:.*]]: i64)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK: %[[C37:.*]] = arith.constant 37 : index
// CHECK: llvm.load
// CHECK: %[[XX:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x37xf32>
// CHECK: %[[BEGIN:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK: %[[END:.*]] = arith.index_cast %[[E]] : i64 to index
// The scratch of each iteration, once per range:
// CHECK-NEXT: memref.alloca() : memref<4xf32>
// CHECK: scf.while (%[[I:.*]] = %[[BEGIN]])
// CHECK: arith.cmpi slt, %[[I]], %[[END]]
// CHECK: arith.remui
// CHECK: arith.divui
// CHECK: arith.minsi
// CHECK: scf.for
// CHECK: memref.load %[[XX]]
// CHECK: memref.store
// CHECK-NOT: memref.alloca
// CHECK: scf.yield
// CHECK: return
// CHECK: func.func private @relax_rt_parallel_for((!llvm.ptr, i64, i64) -> (), !llvm.ptr, i64, i64, i64)
func.func @scale(%x: memref<?x37xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c37) step (%c1, %c1) {
    %scratch = memref.alloca() : memref<4xf32>
    %v = memref.load %x[%i, %j] : memref<?x37xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %scratch[%c0] : memref<4xf32>
    memref.store %w, %x[%i, %j] : memref<?x37xf32>
    scf.reduce
  }
  return
}

// -----

// One dim: a counted loop over the range, no while. A nested scf.parallel
// stays in the body (it runs sequentially), and loops with reductions are
// left alone.

// CHECK-LABEL: func.func @rows(
// CHECK: call @relax_rt_parallel_for
// CHECK: scf.parallel
// CHECK: scf.reduce(
// CHECK-LABEL: func.func private @rows_par(
// CHECK-NOT: scf.while
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.parallel
func.func @rows(%x: memref<?x?xf32>, %n: index, %m: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%m) step (%c1) {
      memref.store %zero, %x[%i, %j] : memref<?x?xf32>
      scf.reduce
    }
    scf.reduce
  }
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i, %c0] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}

// -----

// Heap scratch of an iteration (an alloc with its one dealloc in the body,
// sized by a captured value) is made once per range and freed at its end;
// scratch sized inside the body stays there.

// CHECK-LABEL: func.func private @heap_par(
// CHECK-SAME: %[[CTX:.*]]: !llvm.ptr, %{{.*}}: i64, %[[E:.*]]: i64)
// CHECK: %[[MSLOT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK-NEXT: %[[M:.*]] = arith.index_cast %[[MSLOT]] : i64 to index
// CHECK: arith.index_cast %[[E]] : i64 to index
// CHECK-NEXT: %[[H:.*]] = memref.alloc(%[[M]]) : memref<?xf32>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[H]]
// CHECK: %[[INNER:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.dealloc %[[INNER]]
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[H]]
// CHECK-NEXT: return
func.func @heap(%x: memref<?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %h = memref.alloc(%m) : memref<?xf32>
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %h[%c0] : memref<?xf32>
    %k = arith.addi %i, %c1 : index
    %inner = memref.alloc(%k) : memref<?xf32>
    memref.store %v, %inner[%c0] : memref<?xf32>
    memref.dealloc %inner : memref<?xf32>
    memref.dealloc %h : memref<?xf32>
    scf.reduce
  }
  return
}
