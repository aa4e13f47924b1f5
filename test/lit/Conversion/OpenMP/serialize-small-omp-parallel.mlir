// RUN: relax-opt --convert-scf-to-openmp --serialize-small-omp-parallel %s | FileCheck %s
// RUN: relax-opt --convert-scf-to-openmp --serialize-small-omp-parallel --canonicalize %s | FileCheck %s --check-prefix=FOLD
// RUN: relax-opt --convert-scf-to-openmp --serialize-small-omp-parallel=min-work=16 --canonicalize %s | FileCheck %s --check-prefix=LOW

// Symbolic sizes: the estimate is built in front of the region from the
// loop bounds, n rows times m iterations of a 3-op body, and compared with
// the threshold at run time.
// CHECK-LABEL: func.func @rows
// CHECK: omp.parallel if(%{{.*}})
// FOLD-LABEL: func.func @rows
// FOLD-DAG: %[[N:.*]] = memref.dim %{{.*}}, %c0
// FOLD-DAG: %[[M:.*]] = memref.dim %{{.*}}, %c1
// FOLD-DAG: %[[ROWS:.*]] = arith.maxsi %[[N]], %c0 : index
// FOLD-DAG: %[[COLS:.*]] = arith.maxsi %[[M]], %c0 : index
// FOLD: %[[ROW:.*]] = arith.muli %[[COLS]], %c3 : index
// FOLD: %[[WORK:.*]] = arith.muli %[[ROWS]], %[[ROW]] : index
// FOLD: %[[BIG:.*]] = arith.cmpi sge, %[[WORK]], %c32768 : index
// FOLD: omp.parallel if(%[[BIG]])
func.func @rows(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i, %j] : memref<?x?xf32>
    }
    scf.reduce
  }
  return
}

// Static sizes fold to a constant decision: 4 x 8 x 3 operations stay on
// one thread, 1024 x 1024 x 3 do not; with min-work=16 both go parallel.
// FOLD-LABEL: func.func @small
// FOLD: omp.parallel if(%false)
// FOLD-LABEL: func.func @large
// FOLD: omp.parallel if(%true)
// LOW-LABEL: func.func @small
// LOW: omp.parallel if(%true)
func.func @small(%x: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i, %j] : memref<4x8xf32>
    }
    scf.reduce
  }
  return
}

func.func @large(%x: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i) = (%c0) to (%c1024) step (%c1) {
    scf.for %j = %c0 to %c1024 step %c1 {
      %v = memref.load %x[%i, %j] : memref<1024x1024xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i, %j] : memref<1024x1024xf32>
    }
    scf.reduce
  }
  return
}

// An inner loop whose bound is computed inside the region (here from the
// row index: a triangle) has no estimate before the region starts: the
// region keeps no if clause and always forks.
// CHECK-LABEL: func.func @triangle
// CHECK: omp.parallel {
// CHECK-NOT: if(
func.func @triangle(%x: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %end = arith.addi %i, %c1 : index
    scf.for %j = %c0 to %end step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      memref.store %v, %x[%j, %i] : memref<?x?xf32>
    }
    scf.reduce
  }
  return
}

// A loop without a trip count to read (scf.while) gives no estimate either.
// CHECK-LABEL: func.func @while_loop
// CHECK: omp.parallel {
// CHECK-NOT: if(
func.func @while_loop(%x: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xi32>
    %r = scf.while (%a = %v) : (i32) -> i32 {
      %c = arith.constant 0 : i32
      %more = arith.cmpi sgt, %a, %c : i32
      scf.condition(%more) %a : i32
    } do {
    ^bb0(%a: i32):
      %one = arith.constant 1 : i32
      %next = arith.subi %a, %one : i32
      scf.yield %next : i32
    }
    memref.store %r, %x[%i] : memref<?xi32>
    scf.reduce
  }
  return
}

// Nested regions: the outer estimate counts the inner region's work, and
// the inner region gets its own clause (it forks when the outer one was
// serialized), built inside the outer body in front of it.
// CHECK-LABEL: func.func @nested
// FOLD-LABEL: func.func @nested
// FOLD: %[[OUTER:.*]] = arith.cmpi sge
// FOLD: omp.parallel if(%[[OUTER]])
// FOLD: %[[INNER:.*]] = arith.cmpi sge
// FOLD: omp.parallel if(%[[INNER]])
func.func @nested(%x: memref<64x?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %x, %c1 : memref<64x?x8xf32>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      scf.for %k = %c0 to %c8 step %c1 {
        %v = memref.load %x[%i, %j, %k] : memref<64x?x8xf32>
        memref.store %v, %x[%i, %j, %k] : memref<64x?x8xf32>
      }
      scf.reduce
    }
    scf.reduce
  }
  return
}
