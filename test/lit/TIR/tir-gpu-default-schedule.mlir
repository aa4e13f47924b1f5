// RUN: relax-opt %s --tir-gpu-default-schedule -split-input-file | FileCheck %s
// RUN: relax-opt %s --tir-gpu-default-schedule="max-threads=128" -split-input-file | FileCheck %s --check-prefix=T128
// RUN: ! relax-opt %s --tir-gpu-default-schedule="max-threads=100" 2> %t.err
// RUN: FileCheck %s --check-prefix=BAD < %t.err

// BAD: max-threads must be a multiple of 32 in [32, 1024], got 100

// Injective over [n, 4]: both loops are fused (n * 4 elements), split by
// the block size with a tail guard (n * 4 need not divide 256) and bound.
// CHECK-LABEL: tir.prim_func @injective
// CHECK: %[[N:.*]] = tir.sym_var "n"
// CHECK: %[[TOTAL:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[C255:.*]] = arith.constant 255 : index
// CHECK: %[[SUM:.*]] = arith.addi %[[TOTAL]], %[[C255]]
// CHECK: %[[NB:.*]] = arith.divui %[[SUM]], %[[C256]]
// CHECK: tir.for %[[B:.*]] = %{{.*}} to %[[NB]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// CHECK-NEXT: tir.for %[[T:.*]] = %{{.*}} to %[[C256]] step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[B]], %[[C256]]
// CHECK-NEXT: %[[IDX:.*]] = arith.addi %[[M]], %[[T]]
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[IDX]], %[[TOTAL]]
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: %[[I:.*]] = arith.divui %[[IDX]], %{{.*}}
// CHECK-NEXT: %[[J:.*]] = arith.remui %[[IDX]], %{{.*}}
// CHECK-NEXT: tir.block "relu" (%{{.*}} = %[[I]], %{{.*}} = %[[J]]) kinds [spatial, spatial]
// T128-LABEL: tir.prim_func @injective
// T128: arith.constant 128 : index
// T128: kind = thread_binding thread = "threadIdx.x"
tir.prim_func @injective(%x: !tir.buffer<[n, 4], f32>, %y: !tir.buffer<[n, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.for %j = %c0 to %c4 step %c1 kind = vectorized {
      tir.block "relu" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, 4], f32>
        %r = arith.maximumf %v, %zero : f32
        tir.store %r, %y[%vi, %vj] : !tir.buffer<[n, 4], f32>
      }
    }
  }
  tir.return
}

// -----

// Row sums over a symbolic axis k: the row loop is bound, the reduction
// loop runs serially in each thread (and is no longer parallel).
// CHECK-LABEL: tir.prim_func @row_sum
// CHECK: kind = thread_binding thread = "blockIdx.x"
// CHECK: kind = thread_binding thread = "threadIdx.x"
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[K:.*]] step %{{.*}} {
// CHECK: scf.if
// CHECK: tir.block "sum" ({{.*}}) kinds [spatial, reduce]
tir.prim_func @row_sum(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 kind = parallel {
    tir.for %r = %c0 to %k step %c1 kind = parallel {
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

// A reduction to a scalar has no spatial loop: one thread does it. A
// small constant extent gets a warp-sized block (2 -> 32) in a second nest.
// CHECK-LABEL: tir.prim_func @scalar_then_small
// CHECK: tir.sym_var "n"
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[C1]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// CHECK-NEXT: tir.for %{{.*}} = %{{.*}} to %[[C1]] step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NEXT: tir.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: tir.block "total" {{.*}} kinds [reduce]
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: kind = thread_binding thread = "blockIdx.x"
// CHECK-NEXT: tir.for %{{.*}} = %{{.*}} to %[[C32]] step %{{.*}} kind = thread_binding thread = "threadIdx.x"
// CHECK: tir.block "scale"
tir.prim_func @scalar_then_small(%x: !tir.buffer<[n], f32>, %s: !tir.buffer<[], f32>, %y: !tir.buffer<[2], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tir.sym_var "n" : index
  tir.for %r = %c0 to %n step %c1 {
    tir.block "total" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %s[] : !tir.buffer<[], f32>
      }
      %a = tir.load %s[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[n], f32>
      %t = arith.addf %a, %b : f32
      tir.store %t, %s[] : !tir.buffer<[], f32>
    }
  }
  tir.for %i = %c0 to %c2 step %c1 {
    tir.block "scale" (%vi = %i) kinds [spatial] {
      %a = tir.load %s[] : !tir.buffer<[], f32>
      tir.store %a, %y[%vi] : !tir.buffer<[2], f32>
    }
  }
  tir.return
}

// -----

// A prim_func that binds a loop already was scheduled by hand: unchanged.
// CHECK-LABEL: tir.prim_func @hand_scheduled
// CHECK: tir.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NOT: blockIdx
tir.prim_func @hand_scheduled(%x: !tir.buffer<[64], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tir.for %i = %c0 to %c64 step %c1 kind = thread_binding thread = "threadIdx.x" {
    tir.block "fill" (%vi = %i) kinds [spatial] {
      %z = arith.constant 0.0 : f32
      tir.store %z, %x[%vi] : !tir.buffer<[64], f32>
    }
  }
  tir.return
}
