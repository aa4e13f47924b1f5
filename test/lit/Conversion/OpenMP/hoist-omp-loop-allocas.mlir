// RUN: relax-opt --convert-scf-to-openmp --hoist-omp-loop-allocas -split-input-file %s | FileCheck %s
// RUN: relax-opt --convert-scf-to-openmp --hoist-omp-loop-allocas --canonicalize --convert-scf-to-cf -split-input-file %s | FileCheck %s --check-prefix=CF

// A parallel loop over rows with a per-row scratch of symbolic size m (the
// form a tir `local` buffer takes): the alloca moves to the start of
// omp.parallel (once per thread) and the per-iteration scope disappears, so
// that scf-to-cf can split the body into blocks.
// CHECK-LABEL: func.func @rows
// CHECK: omp.parallel {
// CHECK-NEXT: %[[S:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
// CHECK: omp.loop_nest
// CHECK-NOT: memref.alloca_scope
// CHECK: memref.store %{{.*}}, %[[S]]
// CF-LABEL: func.func @rows
// CF-NOT: memref.alloca_scope
// CF: cf.br
func.func @rows(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %s = memref.alloca(%m) : memref<?xf32>
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      memref.store %v, %s[%j] : memref<?xf32>
    }
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %s[%j] : memref<?xf32>
      memref.store %v, %y[%i, %j] : memref<?x?xf32>
    }
    scf.reduce
  }
  return
}

// -----

// A size computed inside the loop cannot move out: the scope stays.
// CHECK-LABEL: func.func @size_inside
// CHECK: omp.loop_nest
// CHECK: memref.alloca_scope
// CHECK: memref.alloca(%{{.*}}) : memref<?xf32>
func.func @size_inside(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %k = arith.addi %i, %c1 : index
    %s = memref.alloca(%k) : memref<?xf32>
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %s[%c0] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Heap scratch (what convert-tir-to-scf makes of scratch too large for the
// stack): the alloc moves to the start of omp.parallel and its dealloc to
// the end, one allocation per thread instead of one per iteration.
// CHECK-LABEL: func.func @heap_rows
// CHECK: omp.parallel {
// CHECK-NEXT: %[[H:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: omp.loop_nest
// CHECK-NOT: memref.alloca_scope
// CHECK-NOT: memref.dealloc
// CHECK: memref.store %{{.*}}, %[[H]]
// CHECK: omp.yield
// CHECK: memref.dealloc %[[H]] : memref<?xf32>
// CHECK-NEXT: omp.terminator
func.func @heap_rows(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %s = memref.alloc(%m) : memref<?xf32>
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      memref.store %v, %s[%j] : memref<?xf32>
    }
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %s[%j] : memref<?xf32>
      memref.store %v, %y[%i, %j] : memref<?x?xf32>
    }
    memref.dealloc %s : memref<?xf32>
    scf.reduce
  }
  return
}
