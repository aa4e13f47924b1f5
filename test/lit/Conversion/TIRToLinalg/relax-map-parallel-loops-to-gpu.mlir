// RUN: relax-opt %s --relax-map-parallel-loops-to-gpu | FileCheck %s
// RUN: relax-opt %s --relax-map-parallel-loops-to-gpu=block-size=128 --convert-parallel-loops-to-gpu | FileCheck %s --check-prefix=LAUNCH

// A 2-d parallel loop over symbolic sizes: collapsed into one dim of n * m
// iterations (row-major), tiled by the block size with a guard instead of
// a min bound, tiles on blockIdx.x and elements on threadIdx.x; a parallel
// loop after a reduction loop runs sequentially in the thread.
// CHECK-LABEL: func.func @ewise
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c0
// CHECK: %[[M:.*]] = memref.dim %{{.*}}, %c1
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK:   scf.parallel (%[[E:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK:     scf.if
// CHECK:       arith.remsi %{{.*}}, %[[M]]
// CHECK:       arith.divsi %{{.*}}, %[[M]]
// CHECK:       memref.load
// CHECK:       memref.store
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// LAUNCH-LABEL: func.func @ewise
// LAUNCH: %[[C128:.*]] = arith.constant 128 : index
// LAUNCH: gpu.launch blocks
// LAUNCH-NOT: scf.parallel
// LAUNCH: gpu.terminator
func.func @ewise(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    memref.store %x, %b[%i, %j] : memref<?x?xf32>
  }
  return
}

// CHECK-LABEL: func.func @inner_parallel
// CHECK: scf.for
// CHECK:   scf.parallel
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = sequential
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
func.func @inner_parallel(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %k = %c0 to %m step %c1 {
      scf.parallel (%j) = (%c0) to (%m) step (%c1) {
        %x = memref.load %a[%i, %j] : memref<?x?xf32>
        memref.store %x, %b[%i, %k] : memref<?x?xf32>
      }
    }
  }
  return
}

// Loops already mapped (by the tir GPU schedule) and loops inside a launch
// are left alone.
// CHECK-LABEL: func.func @mapped
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NOT: scf.parallel
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_y
func.func @mapped(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %a[%i] : memref<?xf32>
  } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// CHECK-LABEL: func.func @in_launch
// CHECK: gpu.launch
// CHECK: scf.parallel
// CHECK-NOT: mapping
// CHECK: gpu.terminator
func.func @in_launch(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %x = memref.load %a[%i] : memref<?xf32>
      memref.store %x, %a[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
