// RUN: relax-opt %s --convert-tir-to-scf | FileCheck %s

// Off the GPU (serial loops, as the CPU emulation makes them) tir.tma_load
// is the box copy: loops over the 16 x 64 box, the element at corner + p
// when 0 <= corner + p < dim along both dims (memref.dim of the symbolic
// source), else zero; with the 128-byte swizzle its byte offset o (2 bytes
// per f16) is stored at o ^ (((o >> 7) & 7) << 4), unflattened over the
// box (64 elements per row). The mbarrier ops vanish: the copy is done.
// CHECK-LABEL: func.func @tma_serial
// CHECK-NOT: nvvm.
// CHECK: %[[TILE:.*]] = memref.alloc() : memref<2x16x64xf16>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[ROW:.*]] = arith.addi %[[BLK:.*]], %[[R]] : index
// CHECK: %[[M:.*]] = memref.dim %[[X:.*]], %{{.*}} : memref<?x?xf16>
// CHECK: arith.cmpi slt, %[[ROW]], %[[M]] : index
// CHECK: arith.cmpi sge, %[[ROW]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[C]] : index
// CHECK: %[[K:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf16>
// CHECK: arith.cmpi slt, %[[COL]], %[[K]] : index
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (f16) {
// CHECK:   memref.load %[[X]][%[[ROW]], %[[COL]]] : memref<?x?xf16>
// CHECK: } else {
// CHECK:   arith.constant 0.000000e+00 : f16
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %{{.*}}, %[[TWO]] : index
// CHECK: %[[SEVEN:.*]] = arith.constant 7 : index
// CHECK: %[[SHIFT:.*]] = arith.constant 7 : index
// CHECK: %[[RBITS:.*]] = arith.shrui %[[BYTES]], %[[SHIFT]] : index
// CHECK: %[[RMOD:.*]] = arith.andi %[[RBITS]], %[[SEVEN]] : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[CHUNK:.*]] = arith.shli %[[RMOD]], %[[C4]] : index
// CHECK: %[[MOVED:.*]] = arith.xori %[[BYTES]], %[[CHUNK]] : index
// CHECK: %[[EL:.*]] = arith.divui %[[MOVED]], %{{.*}} : index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[SC:.*]] = arith.remui %[[EL]], %[[C64]] : index
// CHECK: %[[ER:.*]] = arith.divui %[[EL]], %{{.*}} : index
// CHECK: %[[SR:.*]] = arith.remui %[[ER]], %{{.*}} : index
// CHECK: memref.store %[[V]], %[[TILE]][%{{.*}}, %[[SR]], %[[SC]]] : memref<2x16x64xf16>
// CHECK-NOT: nvvm.
// CHECK: return
tir.prim_func @tma_serial(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %map = arith.constant 0 : i64
  tir.for %blk = %c0 to %c2 step %c1 {
    %bars = tir.alloc : !tir.buffer<[2], i64, global>
    %tile = tir.alloc : !tir.buffer<[2, 16, 64], f16, global>
    tir.mbarrier_init %bars[%c1] {count = 1 : i64} : !tir.buffer<[2], i64, global>
    tir.mbarrier_arrive_expect_tx %bars[%c1] {bytes = 2048 : i64} : !tir.buffer<[2], i64, global>
    tir.tma_load %tile[%c1], %x[%blk, %c64], %bars[%c1], %map {swizzle = 128 : i64} : !tir.buffer<[2, 16, 64], f16, global>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, global>
    tir.mbarrier_wait %bars[%c1], %c0 : !tir.buffer<[2], i64, global>
  }
  tir.return
}

// In a GPU thread: mbarrier.init with the arrival count (then the
// async-proxy fence: TMA updates the mbarrier), arrive.expect_tx
// with the box's bytes, the bulk tensor copy into stage 1 of the tile
// (4096 bytes in: 64 x 32 f16) through the tensor map's generic address,
// counted on mbarrier 1 (8 bytes in), with the corner's coordinates
// innermost first (k, then the row), and the try-wait loop on the parity.
// CHECK-LABEL: func.func @tma_gpu
// CHECK: %[[MAP:.*]] = arith.constant 4096 : i64
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[BARS:.*]] = memref.alloc() : memref<2xi64, #gpu.address_space<workgroup>>
// CHECK: %[[TILE:.*]] = memref.alloc() : memref<2x64x32xf16, #gpu.address_space<workgroup>>
// CHECK: memref.extract_aligned_pointer_as_index %[[BARS]]
// CHECK: %[[C8:.*]] = arith.constant 8 : i64
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %[[C8]] : i64
// CHECK: %[[ADDR:.*]] = arith.addi %{{.*}}, %[[OFF]] : i64
// CHECK: %[[BAR:.*]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr<3>
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: nvvm.mbarrier.init %[[BAR]], %[[ONE]] : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: %[[BYTES:.*]] = arith.constant 4096 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK: memref.extract_aligned_pointer_as_index %[[TILE]]
// CHECK: %[[STAGE:.*]] = arith.constant 4096 : i64
// CHECK: arith.muli %{{.*}}, %[[STAGE]] : i64
// CHECK: %[[DST3:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[DST:.*]] = llvm.addrspacecast %[[DST3]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: %[[MBAR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[DESC:.*]] = llvm.inttoptr %[[MAP]] : i64 to !llvm.ptr
// CHECK: %[[KC:.*]] = arith.index_cast %[[K0:.*]] : index to i32
// CHECK: %[[RC:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[DESC]], %[[MBAR]], box[%[[KC]], %[[RC]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[PARITY:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[TICKS:.*]] = arith.constant 10000000 : i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %[[TICKS]] : !llvm.ptr<3>, i32, i32
tir.prim_func @tma_gpu(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %map = arith.constant 4096 : i64
  tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %bars = tir.alloc : !tir.buffer<[2], i64, shared>
    %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
    tir.mbarrier_init %bars[%c1] {count = 1 : i64} : !tir.buffer<[2], i64, shared>
    tir.mbarrier_arrive_expect_tx %bars[%c1] {bytes = 4096 : i64} : !tir.buffer<[2], i64, shared>
    tir.tma_load %tile[%c1], %x[%t, %c32], %bars[%c1], %map : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
    tir.mbarrier_wait %bars[%c1], %c1 : !tir.buffer<[2], i64, shared>
  }
  tir.return
}

// The core-matrix view off the GPU: loops over the box [4, 16, 8]; the
// coordinates corner + p bounded by the view's dims (the operands, not
// memref.dim); the element's offset kc * 8 + row * k + c in the source's
// row-major elements, unflattened over its dims (and under its size); the
// box position flattened and laid over the tile's [4, 2, 8, 8] core
// matrices.
// CHECK-LABEL: func.func @tma_view_serial
// CHECK-NOT: nvvm.
// CHECK: %[[TILE:.*]] = memref.alloc() : memref<2x4x2x8x8xf16>
// CHECK: scf.for %[[P0:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[P1:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[P2:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[KC:.*]] = arith.addi %[[KC0:.*]], %[[P0]] : index
// CHECK: arith.cmpi slt, %[[KC]], %[[K8:.*]] : index
// CHECK: %[[ROW:.*]] = arith.addi %[[ROW0:.*]], %[[P1]] : index
// CHECK: arith.cmpi slt, %[[ROW]], %[[M:.*]] : index
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[P2]] : index
// CHECK: arith.cmpi slt, %[[COL]], %[[C8:.*]] : index
// CHECK: arith.muli %[[KC]], %[[C8]] : index
// CHECK: arith.muli %[[ROW]], %[[K:.*]] : index
// CHECK: arith.muli %[[COL]], %{{.*}} : index
// CHECK: %[[OFF:.*]] = arith.addi
// CHECK: %[[XK:.*]] = memref.dim %[[X:.*]], %{{.*}} : memref<?x?xf16>
// CHECK: %[[XC:.*]] = arith.remui %[[OFF]], %[[XK]] : index
// CHECK: %[[XR:.*]] = arith.divui %[[OFF]], %[[XK]] : index
// CHECK: %[[XM:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf16>
// CHECK: arith.cmpi ult, %[[XR]], %[[XM]] : index
// CHECK: scf.if %{{.*}} -> (f16) {
// CHECK:   memref.load %[[X]][%[[XR]], %[[XC]]] : memref<?x?xf16>
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: arith.muli %{{.*}}, %[[C16]] : index
// CHECK: memref.store %{{.*}}, %[[TILE]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x4x2x8x8xf16>
// CHECK-NOT: nvvm.
// CHECK: return
tir.prim_func @tma_view_serial(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %map = arith.constant 0 : i64
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  %k8 = arith.divui %k, %c8 : index
  tir.for %blk = %c0 to %c2 step %c1 {
    %bars = tir.alloc : !tir.buffer<[2], i64, global>
    %tile = tir.alloc : !tir.buffer<[2, 4, 2, 8, 8], f16, global>
    tir.tma_load %tile[%c1], %x[%c4, %blk, %c0] view [%k8, %m, %c8] strides [%c8, %k, %c1], %bars[%c1], %map {box = array<i64: 4, 16, 8>} : !tir.buffer<[2, 4, 2, 8, 8], f16, global>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, global>
  }
  tir.return
}

// In a GPU thread the view is the tensor map's business: one bulk copy
// into stage 1 of the core-matrix tile (8192 bytes in), the view's three
// coordinates innermost first (the column in the core matrix, the row, the
// core-matrix column); the view's dims and strides do not reach the kernel.
// CHECK-LABEL: func.func @tma_view_gpu
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[STAGE:.*]] = arith.constant 8192 : i64
// CHECK: arith.muli %{{.*}}, %[[STAGE]] : i64
// CHECK: %[[C0:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[RC:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK: %[[KC:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%[[C0]], %[[RC]], %[[KC]]] : !llvm.ptr<7>, !llvm.ptr
tir.prim_func @tma_view_gpu(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %map = arith.constant 4096 : i64
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  %k8 = arith.divui %k, %c8 : index
  tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %bars = tir.alloc : !tir.buffer<[2], i64, shared>
    %tile = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
    tir.mbarrier_arrive_expect_tx %bars[%c1] {bytes = 8192 : i64} : !tir.buffer<[2], i64, shared>
    tir.tma_load %tile[%c1], %x[%c4, %t, %c0] view [%k8, %m, %c8] strides [%c8, %k, %c1], %bars[%c1], %map {box = array<i64: 4, 128, 8>} : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  }
  tir.return
}
