// RUN: relax-opt %s --convert-tir-to-scf | FileCheck %s

// The host's tensor maps: relax_rt_cuda_tensor_map_device with the op's
// own slot (a private global), its name as a C string, the dtype code
// (f16 = 0), the base pointer, the rank and three stack arrays of i64
// (the view's dims [k / 8, m, 8], strides [8, k, 1], the box [4, 128, 8]),
// the swizzle; with check_only, relax_rt_cuda_tensor_map_supported (no
// slot, no name) on the source's own dims and row-major strides [k, 1],
// bf16 = 1, its 0 / 1 result widened to i64.
// CHECK-DAG: func.func private @relax_rt_cuda_tensor_map_device(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> i64
// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:__relax_tma_name_[0-9]+]]("A\00")
// CHECK-DAG: llvm.mlir.global internal @[[SLOT:__relax_tma_slot_[0-9]+]](0 : i8)
// CHECK-DAG: func.func private @relax_rt_cuda_tensor_map_supported(i32, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> i32
// CHECK-LABEL: func.func @tensor_map_host
// CHECK: %[[M:.*]] = memref.dim %arg0, %{{.*}} : memref<?x?xf16>
// CHECK: %[[K:.*]] = memref.dim %arg0, %{{.*}} : memref<?x?xf16>
// CHECK: %[[K8:.*]] = arith.divui %[[K]], %{{.*}} : index
// CHECK: %[[F16:.*]] = arith.constant 0 : i32
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[BASE:.*]] = llvm.inttoptr
// CHECK: %[[RANK:.*]] = arith.constant 3 : i64
// CHECK: %[[DIMS:.*]] = llvm.alloca %{{.*}} x !llvm.array<3 x i64>
// CHECK: arith.index_cast %[[K8]] : index to i64
// CHECK: arith.index_cast %[[M]] : index to i64
// CHECK: %[[STRIDES:.*]] = llvm.alloca %{{.*}} x !llvm.array<3 x i64>
// CHECK: arith.index_cast %[[K]] : index to i64
// CHECK: %[[BOX:.*]] = llvm.alloca %{{.*}} x !llvm.array<3 x i64>
// CHECK: %[[NOSWIZZLE:.*]] = arith.constant 0 : i32
// CHECK: %[[NAMEPTR:.*]] = llvm.mlir.addressof @[[NAME]]
// CHECK: %[[STR:.*]] = llvm.getelementptr %[[NAMEPTR]][0, 0]
// CHECK: %[[SLOTPTR:.*]] = llvm.mlir.addressof @[[SLOT]]
// CHECK: %[[MAP:.*]] = call @relax_rt_cuda_tensor_map_device(%[[SLOTPTR]], %[[STR]], %[[F16]], %[[BASE]], %[[RANK]], %[[DIMS]], %[[STRIDES]], %[[BOX]], %[[NOSWIZZLE]])
// CHECK: %[[BF16:.*]] = arith.constant 1 : i32
// CHECK: %[[OK:.*]] = call @relax_rt_cuda_tensor_map_supported(%[[BF16]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[YES:.*]] = arith.cmpi ne, %[[OK]], %{{.*}} : i32
// CHECK: %[[WIDE:.*]] = arith.extui %[[YES]] : i1 to i64
// CHECK: memref.store %[[MAP]], %arg2
// CHECK: memref.store %[[WIDE]], %arg2
tir.prim_func @tensor_map_host(%x: !tir.buffer<[m, k], f16>, %y: !tir.buffer<[n, k], bf16>, %out: !tir.buffer<[2], i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  %k8 = arith.divui %k, %c8 : index
  %a = tir.tensor_map %x view [%k8, %m, %c8] strides [%c8, %k, %c1] {name = "A", box = array<i64: 4, 128, 8>} : !tir.buffer<[m, k], f16>
  %b = tir.tensor_map %y {name = "B", box = array<i64: 64, 32>, swizzle = 64 : i64, check_only} : !tir.buffer<[n, k], bf16>
  tir.store %a, %out[%c0] : !tir.buffer<[2], i64>
  tir.store %b, %out[%c1] : !tir.buffer<[2], i64>
  tir.return
}
