// RUN: relax-opt %s --convert-tir-to-scf -split-input-file | FileCheck %s
// RUN: relax-opt %s --convert-tir-to-scf -split-input-file | FileCheck %s --check-prefix=GPU

// tir.mma_sync outside GPU threads (here serial loops, as the CPU emulation
// makes them) is its definition: for each of the lane's four accumulator
// elements i (row g + 8 * (i / 2) of A, row 2q + i % 2 of the n-by-k B), a
// sum over k < 16 of the widened products. In a GPU thread (@mma below) it
// is one nvvm.mma.sync of 32-bit fragment pairs (bf16 pairs as i32). Loop
// extents are the symbolic m of the output.
// CHECK-LABEL: func.func @mma_serial
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<32xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[G:.*]] = arith.divui %[[LANE:.*]], %{{.*}} : index
// CHECK: %[[Q:.*]] = arith.remui %[[LANE]], %{{.*}} : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[INIT:.*]] = memref.load %[[ACC]][%{{.*}}] : memref<32xf32>
// CHECK:   %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %[[INIT]]) -> (f32) {
// CHECK:     memref.load %{{.*}} : memref<64x40xbf16, #gpu.address_space<workgroup>>
// CHECK:     memref.load %{{.*}} : memref<64x40xbf16, #gpu.address_space<workgroup>>
// CHECK:     arith.extf
// CHECK:     arith.extf
// CHECK:     %[[P:.*]] = arith.mulf
// CHECK:     %[[N:.*]] = arith.addf %[[S]], %[[P]] : f32
// CHECK:     scf.yield %[[N]] : f32
// CHECK:   memref.store %[[SUM]], %[[ACC]][%{{.*}}] : memref<32xf32>
// CHECK-NOT: nvvm.mma.sync
// CHECK-LABEL: func.func @mma(
tir.prim_func @mma_serial(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %m step %c1 {
    %acc = tir.alloc : !tir.buffer<[32], f32, local>
    %a = tir.alloc : !tir.buffer<[64, 40], bf16, shared>
    %b = tir.alloc : !tir.buffer<[64, 40], bf16, shared>
    tir.for %t = %c0 to %c32 step %c1 {
      tir.mma_sync %t, %acc[%c4], %a[%c0, %c0], %b[%c0, %c0] : !tir.buffer<[32], f32, local>, !tir.buffer<[64, 40], bf16, shared>, !tir.buffer<[64, 40], bf16, shared>
      %v = tir.load %acc[%c4] : !tir.buffer<[32], f32, local>
      tir.store %v, %out[%blk, %c0] : !tir.buffer<[m, 4], f32>
    }
  }
  tir.return
}

// GPU-LABEL: func.func @mma
// GPU-COUNT-6: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// GPU-COUNT-4: memref.load %{{.*}} : memref<32xf32>
// GPU: %[[R:.*]] = nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// GPU: llvm.extractvalue %[[R]][3]
// GPU: memref.store
tir.prim_func @mma(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    %acc = tir.alloc : !tir.buffer<[32], f32, local>
    %a = tir.alloc : !tir.buffer<[64, 40], bf16, shared>
    %b = tir.alloc : !tir.buffer<[64, 40], bf16, shared>
    tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
      tir.mma_sync %t, %acc[%c4], %a[%c0, %c0], %b[%c0, %c0] : !tir.buffer<[32], f32, local>, !tir.buffer<[64, 40], bf16, shared>, !tir.buffer<[64, 40], bf16, shared>
      %v = tir.load %acc[%c4] : !tir.buffer<[32], f32, local>
      tir.store %v, %out[%blk, %c0] : !tir.buffer<[m, 4], f32>
    }
  }
  tir.return
}

// -----

// f16 fragments are vector<2xf16> as they are loaded.
// GPU-LABEL: func.func @mma_f16
// GPU: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
tir.prim_func @mma_f16(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    %acc = tir.alloc : !tir.buffer<[4], f32, local>
    %a = tir.alloc : !tir.buffer<[16, 16], f16, shared>
    tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
      tir.mma_sync %t, %acc[%c0], %a[%c0, %c0], %a[%c0, %c0] : !tir.buffer<[4], f32, local>, !tir.buffer<[16, 16], f16, shared>, !tir.buffer<[16, 16], f16, shared>
    }
  }
  tir.return
}

// -----

// tir.copy_async in a GPU thread is a cp.async of 16 bytes that reads
// nothing and zero-fills when out of bounds (the source index clamped to
// 0); tir.copy_async_wait commits and waits. Outside GPU threads: a copy
// loop, zeros when out of bounds, and no wait. The source rows are the
// symbolic m.
// GPU-LABEL: func.func @copy
// GPU: %[[ROW:.*]] = arith.select %[[IN:.*]], %{{.*}}, %[[ZERO:.*]] : index
// GPU: %[[C8:.*]] = arith.constant 8 : index
// GPU: %[[COUNT:.*]] = arith.select %[[IN]], %[[C8]], %[[ZERO]] : index
// GPU: nvgpu.device_async_copy %{{.*}}[%[[ROW]], %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8, %[[COUNT]] {bypassL1} : memref<?x64xf16> to memref<64x40xf16, #gpu.address_space<workgroup>>
// GPU: nvvm.cp.async.commit.group
// GPU: nvvm.cp.async.wait.group 0
// CHECK-LABEL: func.func @copy_serial
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[V:.*]] = scf.if %{{.*}} -> (f16) {
// CHECK:     memref.load %{{.*}} : memref<?x64xf16>
// CHECK:   } else {
// CHECK:     arith.constant 0.000000e+00 : f16
// CHECK:   memref.store %[[V]], %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: nvvm.cp.async
// CHECK: return
tir.prim_func @copy(%x: !tir.buffer<[m, 64], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %c1 step %c1 kind = thread_binding thread = "blockIdx.x" {
    %s = tir.alloc : !tir.buffer<[64, 40], f16, shared>
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %in = arith.cmpi ult, %t, %m : index
      tir.copy_async %s[%c0, %c0], %x[%t, %c0], %in {lanes = 8 : i64} : !tir.buffer<[64, 40], f16, shared>, !tir.buffer<[m, 64], f16>
      tir.copy_async_wait
    }
  }
  tir.return
}
tir.prim_func @copy_serial(%x: !tir.buffer<[m, 64], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %c1 step %c1 {
    %s = tir.alloc : !tir.buffer<[64, 40], f16, shared>
    tir.for %t = %c0 to %c128 step %c1 {
      %in = arith.cmpi ult, %t, %m : index
      tir.copy_async %s[%c0, %c0], %x[%t, %c0], %in {lanes = 8 : i64} : !tir.buffer<[64, 40], f16, shared>, !tir.buffer<[m, 64], f16>
      tir.copy_async_wait
    }
  }
  tir.return
}
