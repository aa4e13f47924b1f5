// RUN: relax-opt --relax-align-tma-shared-memory %s | FileCheck %s
// RUN: relax-opt --relax-align-tma-shared-memory --convert-gpu-to-nvvm %s | FileCheck %s --check-prefix=NVVM

// The tile a TMA copy writes gets 1024-byte alignment, which the NVVM
// lowering puts on its shared global: its address reaches the copy's
// destination through index arithmetic, a pointer cast and the shared ->
// cluster address-space cast, as convert-tir-to-scf builds it. The mbarriers
// (the copy's other shared pointer) and a buffer no copy writes keep their
// alignment. Checked to fail with the alignment at 512 (half the 128-byte
// swizzle's window).
// CHECK-LABEL: gpu.func @tma_kernel
// CHECK-SAME: workgroup(%{{.*}} : memref<2x8x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<2xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: kernel
// NVVM-DAG: llvm.mlir.global internal @__wg_tma_kernel_0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<1024 x f16>
// NVVM-DAG: llvm.mlir.global internal @__wg_tma_kernel_1() {addr_space = 3 : i32} : !llvm.array<2 x i64>
// NVVM-DAG: llvm.mlir.global internal @__wg_tma_kernel_2() {addr_space = 3 : i32} : !llvm.array<4 x f32>
// NVVM-DAG: llvm.mlir.global internal @__wg_view_kernel_0() {addr_space = 3 : i32} : !llvm.array<1 x i64>
// NVVM-DAG: llvm.mlir.global internal @__wg_view_kernel_1() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<1024 x bf16>
// NVVM-DAG: llvm.mlir.global internal @__wg_plain_kernel_0() {addr_space = 3 : i32} : !llvm.array<64 x f16>

// The destination's buffer found through a view (a subview of the stage)
// and a cast: the second attribution is the tile.
// CHECK-LABEL: gpu.func @view_kernel
// CHECK-SAME: workgroup(%{{.*}} : memref<1xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<2x8x64xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})

// A kernel without TMA copies keeps its attributions as they were.
// CHECK-LABEL: gpu.func @plain_kernel
// CHECK-SAME: workgroup(%{{.*}} : memref<64xf16, #gpu.address_space<workgroup>>)
// CHECK-SAME: kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tma_kernel(%map: !llvm.ptr, %stage: i64, %out: memref<4xf32>)
        workgroup(%tile : memref<2x8x64xf16, #gpu.address_space<workgroup>>,
                  %bars : memref<2xi64, #gpu.address_space<workgroup>>,
                  %other : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : i32
      %c1024 = arith.constant 1024 : i64
      %tbase = memref.extract_aligned_pointer_as_index %tile : memref<2x8x64xf16, #gpu.address_space<workgroup>> -> index
      %t64 = arith.index_castui %tbase : index to i64
      %off = arith.muli %stage, %c1024 : i64
      %taddr = arith.addi %t64, %off : i64
      %tptr = llvm.inttoptr %taddr : i64 to !llvm.ptr<3>
      %dst = llvm.addrspacecast %tptr : !llvm.ptr<3> to !llvm.ptr<7>
      %bbase = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, #gpu.address_space<workgroup>> -> index
      %b64 = arith.index_castui %bbase : index to i64
      %bptr = llvm.inttoptr %b64 : i64 to !llvm.ptr<3>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bptr, box[%c0, %c0] : !llvm.ptr<7>, !llvm.ptr
      %i = arith.constant 0 : index
      %v = memref.load %other[%i] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%i] : memref<4xf32>
      gpu.return
    }
    gpu.func @view_kernel(%map: !llvm.ptr)
        workgroup(%bar : memref<1xi64, #gpu.address_space<workgroup>>,
                  %tile : memref<2x8x64xbf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : i32
      %stage = memref.subview %tile[1, 0, 0] [1, 8, 64] [1, 1, 1] : memref<2x8x64xbf16, #gpu.address_space<workgroup>> to memref<8x64xbf16, strided<[64, 1], offset: 512>, #gpu.address_space<workgroup>>
      %cast = memref.cast %stage : memref<8x64xbf16, strided<[64, 1], offset: 512>, #gpu.address_space<workgroup>> to memref<8x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %tbase = memref.extract_aligned_pointer_as_index %cast : memref<8x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>> -> index
      %t64 = arith.index_castui %tbase : index to i64
      %tptr = llvm.inttoptr %t64 : i64 to !llvm.ptr<3>
      %dst = llvm.addrspacecast %tptr : !llvm.ptr<3> to !llvm.ptr<7>
      %bbase = memref.extract_aligned_pointer_as_index %bar : memref<1xi64, #gpu.address_space<workgroup>> -> index
      %b64 = arith.index_castui %bbase : index to i64
      %bptr = llvm.inttoptr %b64 : i64 to !llvm.ptr<3>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bptr, box[%c0, %c0] : !llvm.ptr<7>, !llvm.ptr
      gpu.return
    }
    gpu.func @plain_kernel(%out: memref<4xf16>)
        workgroup(%tile : memref<64xf16, #gpu.address_space<workgroup>>) kernel {
      %i = arith.constant 0 : index
      %v = memref.load %tile[%i] : memref<64xf16, #gpu.address_space<workgroup>>
      memref.store %v, %out[%i] : memref<4xf16>
      gpu.return
    }
  }
}
