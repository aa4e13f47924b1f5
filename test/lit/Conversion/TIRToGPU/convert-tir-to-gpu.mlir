// RUN: relax-opt %s --convert-tir-to-scf --convert-tir-to-gpu -split-input-file -verify-diagnostics | FileCheck %s
// The deprecated former flag is an alias that runs the same pass, also
// inside a textual pipeline:
// RUN: relax-opt %s --pass-pipeline="builtin.module(convert-tir-to-scf,convert-bound-loops-to-gpu)" -split-input-file -verify-diagnostics | FileCheck %s

// An elementwise nest over a symbolic n: the grid is the block loop's
// extent (computed on the host), the block size the thread loop's.
// CHECK-LABEL: func.func @flat
// CHECK: %[[N:.*]] = memref.dim
// CHECK: %[[NB:.*]] = arith.divui
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[NB]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]],
// CHECK: arith.muli %[[BX]]
// CHECK: arith.addi %{{.*}}, %[[TX]]
// CHECK: memref.load
// CHECK: memref.store
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
tir.prim_func @flat(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %n = tir.sym_var "n" : index
  %s = arith.addi %n, %c127 : index
  %nb = arith.divui %s, %c128 : index
  tir.for %b = %c0 to %nb step %c1 kind = thread_binding thread = "blockIdx.x" {
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %m = arith.muli %b, %c128 : index
      %i = arith.addi %m, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        tir.block "neg" (%vi = %i) kinds [spatial] {
          %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
          %r = arith.negf %v : f32
          tir.store %r, %y[%vi] : !tir.buffer<[n], f32>
        }
      }
    }
  }
  tir.return
}

// -----

// A block reduction: 64 threads write partial sums to a shared buffer, a
// barrier, then 1 thread combines them. The shared buffer becomes a
// workgroup attribution; the smaller thread loop runs under tid < 1; the
// last thread loop needs no barrier after it.
// CHECK-LABEL: func.func @block_sum
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) workgroup(%[[SH:.*]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.alloc
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[SH]][%[[TX]]]
// CHECK: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[TX]], %{{.*}}
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.load %[[SH]]
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.dealloc
// CHECK: gpu.terminator
tir.prim_func @block_sum(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0.0 : f32
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %b = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    %sh = tir.alloc : !tir.buffer<[64], f32, shared>
    tir.for %t = %c0 to %c64 step %c1 kind = thread_binding thread = "threadIdx.x" {
      tir.store %z, %sh[%t] : !tir.buffer<[64], f32, shared>
      tir.for %r = %t to %k step %c64 {
        %a = tir.load %sh[%t] : !tir.buffer<[64], f32, shared>
        %v = tir.load %x[%b, %r] : !tir.buffer<[m, k], f32>
        %s = arith.addf %a, %v : f32
        tir.store %s, %sh[%t] : !tir.buffer<[64], f32, shared>
      }
    }
    tir.for %t = %c0 to %c1 step %c1 kind = thread_binding thread = "threadIdx.x" {
      tir.store %z, %y[%b] : !tir.buffer<[m], f32>
      tir.for %j = %c0 to %c64 step %c1 {
        %a = tir.load %y[%b] : !tir.buffer<[m], f32>
        %v = tir.load %sh[%j] : !tir.buffer<[64], f32, shared>
        %s = arith.addf %a, %v : f32
        tir.store %s, %y[%b] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

// Warp reductions over clusters of lanes (the 4 lanes that hold a row of an
// mma.sync accumulator fragment): butterfly shuffles by 1 and 2 only, for a
// max and a sum, no shuffle by 4 or more. Symbolic rows.
// CHECK-LABEL: func.func @row_reduce
// CHECK: gpu.launch
// CHECK: %[[X:.*]] = memref.load
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[X]], %[[C1:.*]], %{{.*}} : f32
// CHECK: %[[M1:.*]] = arith.maximumf %[[X]], %[[S1]] : f32
// CHECK: %[[S2:.*]], %{{.*}} = gpu.shuffle xor %[[M1]], %[[C2:.*]], %{{.*}} : f32
// CHECK: %[[M2:.*]] = arith.maximumf %[[M1]], %[[S2]] : f32
// CHECK: %[[T1:.*]], %{{.*}} = gpu.shuffle xor %[[X]], %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %[[X]], %[[T1]] : f32
// CHECK: gpu.shuffle xor
// CHECK: arith.addf
// CHECK-NOT: gpu.shuffle xor %{{.*}}, %c4_i32
// CHECK-NOT: gpu.subgroup_reduce
// CHECK: gpu.terminator
tir.prim_func @row_reduce(%o: !tir.buffer<[m, 128], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %m = tir.sym_var "m" : index
  tir.for %b = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %x = tir.load %o[%b, %t] : !tir.buffer<[m, 128], f32>
      %r = gpu.subgroup_reduce maximumf %x uniform cluster(size = 4) : (f32) -> f32
      %s = gpu.subgroup_reduce add %x uniform cluster(size = 4) : (f32) -> f32
      %y = arith.addf %r, %s : f32
      tir.store %y, %o[%b, %t] : !tir.buffer<[m, 128], f32>
    }
  }
  tir.return
}
