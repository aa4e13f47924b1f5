// RUN: relax-opt %s --convert-tir-to-scf | FileCheck %s
// RUN: relax-opt %s --convert-tir-to-scf | FileCheck %s --check-prefix=GPU

// tir.wgmma (the 64 x n x k warpgroup product of sm_90a) outside GPU
// threads (serial loops, as the CPU emulation makes them) is loops that
// read the core-matrix tiles through the wgmma matrix descriptors, decoded
// field by field: the start address (bits 0-13), the leading byte offset
// (bits 16-29, between core matrices along k) and the stride byte offset
// (bits 32-45, between core matrices 8 rows apart), each in 16-byte units.
// For the f16 tiles [2, 4, 16, 8, 8] the leading offset is 16 core
// matrices of 128 bytes = 2048 bytes (field 128), the stride offset 128
// bytes (field 8): 128 << 16 | 8 << 32 = 34368126976; for the bf16 B tile
// [2, 4, 8, 8, 8] (n = 64) 1024 bytes (field 64): 64 << 16 | 8 << 32 =
// 34363932672. k = 32 is two chained 16-wide steps; the second starts two
// core matrices (4096 bytes for A) further along k.
// CHECK-LABEL: func.func @wgmma_serial
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<64xf32>
// CHECK: %[[FLATA:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2, 3, 4]] : memref<2x4x16x8x8xf16> into memref<8192xf16>
// CHECK: %[[FLATB:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2, 3, 4]] : memref<2x4x8x8x8xf16> into memref<4096xf16>
// Stage 1 of A starts 8192 bytes in, core-matrix columns are 2048 apart.
// CHECK: arith.constant 8192 : i64
// CHECK: arith.constant 2048 : i64
// CHECK: %[[FA:.*]] = arith.constant 34368126976 : i64
// CHECK: %[[DESCA:.*]] = arith.ori %{{.*}}, %[[FA]] : i64
// CHECK: %[[FB:.*]] = arith.constant 34363932672 : i64
// CHECK: %[[DESCB:.*]] = arith.ori %{{.*}}, %[[FB]] : i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: %[[INIT:.*]] = memref.load %[[ACC]][%{{.*}}] : memref<64xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %[[INIT]]) -> (f32) {
// CHECK:   arith.shrui %[[DESCA]], %{{.*}} : i64
// CHECK:   arith.shrui %[[DESCA]], %{{.*}} : i64
// CHECK:   arith.shrui %[[DESCA]], %{{.*}} : i64
// CHECK:   %[[X:.*]] = memref.load %[[FLATA]][%{{.*}}] : memref<8192xf16>
// CHECK:   %[[XF:.*]] = arith.extf %[[X]]
// CHECK:   arith.shrui %[[DESCB]], %{{.*}} : i64
// CHECK:   %[[Y:.*]] = memref.load %[[FLATB]][%{{.*}}] : memref<4096xf16>
// CHECK:   %[[YF:.*]] = arith.extf %[[Y]]
// CHECK:   %[[P:.*]] = arith.mulf %[[XF]], %[[YF]] : f32
// CHECK:   %[[N:.*]] = arith.addf %[[S]], %[[P]] : f32
// CHECK:   scf.yield %[[N]] : f32
// CHECK: memref.store %{{.*}}, %[[ACC]][%{{.*}}] : memref<64xf32>
// The second k step: descriptors two core-matrix columns further along k
// (4096 bytes for A).
// CHECK: %[[STEP1:.*]] = arith.constant 4096 : i64
// CHECK: arith.addi %[[STEP1]], %{{.*}} : i64
// CHECK: arith.ori %{{.*}}, %{{.*}} : i64
// CHECK: scf.for
// CHECK-NOT: nvvm.wgmma
// CHECK-LABEL: func.func @wgmma(
tir.prim_func @wgmma_serial(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %m step %c1 {
    %acc = tir.alloc : !tir.buffer<[64], f32, local>
    %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, global>
    %b = tir.alloc : !tir.buffer<[2, 4, 8, 8, 8], f16, global>
    tir.for %t = %c0 to %c128 step %c1 {
      tir.wgmma %t, %acc[%c0], %a[%c1, %c0, %c0], %b[%c1, %c0, %c0] {n = 64 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, global>, !tir.buffer<[2, 4, 8, 8, 8], f16, global>
      %v = tir.load %acc[%c4] : !tir.buffer<[64], f32, local>
      tir.store %v, %out[%blk, %c0] : !tir.buffer<[m, 4], f32>
    }
  }
  tir.return
}

// In a GPU thread: the shared tiles' addresses, a proxy fence, the register
// fence, two chained wgmma.mma_async m64n128k16 (bf16 into f32, both
// operands K-major) on the thread's 64 accumulators, commit and wait.
// GPU-LABEL: func.func @wgmma(
// GPU: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<2x4x16x8x8xbf16, #gpu.address_space<workgroup>> -> index
// GPU: %[[BASEA:.*]] = arith.index_castui %[[PA]] : index to i64
// GPU: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<2x4x16x8x8xbf16, #gpu.address_space<workgroup>> -> index
// GPU: %[[BASEB:.*]] = arith.index_castui %[[PB]] : index to i64
// GPU: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// GPU-NEXT: nvvm.wgmma.fence.aligned
// GPU-COUNT-64: llvm.insertvalue
// The corner of A: stage 0 (8192 bytes a stage), core-matrix column 0
// (2048 bytes each), core-matrix row %rc of the warpgroup (128 bytes each).
// GPU: arith.constant 8192 : i64
// GPU: arith.constant 2048 : i64
// GPU: %[[RC:.*]] = arith.index_castui %{{.*}} : index to i64
// GPU-NEXT: %[[ROWBYTES:.*]] = arith.constant 128 : i64
// GPU-NEXT: %[[ROW:.*]] = arith.muli %[[RC]], %[[ROWBYTES]] : i64
// GPU-NEXT: %[[OFF:.*]] = arith.addi %{{.*}}, %[[ROW]] : i64
// GPU-NEXT: %[[ADDR:.*]] = arith.addi %[[BASEA]], %[[OFF]] : i64
// GPU-NEXT: %[[FOUR:.*]] = arith.constant 4 : i64
// GPU-NEXT: %[[MASK:.*]] = arith.constant 262143 : i64
// GPU-NEXT: %[[LOW:.*]] = arith.andi %[[ADDR]], %[[MASK]] : i64
// GPU-NEXT: %[[START:.*]] = arith.shrui %[[LOW]], %[[FOUR]] : i64
// GPU-NEXT: %[[FA:.*]] = arith.constant 34368126976 : i64
// GPU-NEXT: %[[DA:.*]] = arith.ori %[[START]], %[[FA]] : i64
// GPU: arith.addi %[[BASEB]], %{{.*}} : i64
// GPU: %[[DB:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// GPU-NEXT: %[[D1:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// The second k step: 4096 bytes further along k in both tiles.
// GPU-NEXT: %[[STEP1:.*]] = arith.constant 4096 : i64
// GPU: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[D1]], <m = 64, n = 128, k = 16>
// GPU-NEXT: nvvm.wgmma.commit.group.sync.aligned
// GPU-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// GPU-COUNT-64: llvm.extractvalue
// GPU-NOT: nvvm.wgmma.mma_async
// GPU: return
tir.prim_func @wgmma(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    %acc = tir.alloc : !tir.buffer<[64], f32, local>
    %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
    %b = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
    tir.for %t = %c0 to %c256 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %w = arith.divui %t, %c128 : index
      %in = arith.remui %t, %c128 : index
      %rc = arith.muli %w, %c8 : index
      tir.wgmma %in, %acc[%c0], %a[%c0, %c0, %rc], %b[%c0, %c0, %c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>, !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
      %v = tir.load %acc[%c4] : !tir.buffer<[64], f32, local>
      tir.store %v, %out[%blk, %c0] : !tir.buffer<[m, 4], f32>
    }
  }
  tir.return
}

// The staging's wait, for wgmma readers: cp.async commit and wait, then a
// proxy fence so that the tensor cores see the writes after the barrier.
// GPU-LABEL: func.func @wait_async_proxy
// GPU: nvvm.cp.async.commit.group
// GPU-NEXT: nvvm.cp.async.wait.group 0
// GPU-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// GPU: nvvm.cp.async.commit.group
// GPU-NEXT: nvvm.cp.async.wait.group 0
// GPU-NOT: nvvm.fence.proxy
// GPU: return
tir.prim_func @wait_async_proxy() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
    tir.copy_async_wait async_proxy
    tir.copy_async_wait
  }
  tir.return
}
