// RUN: relax-opt %s --convert-host-memory-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// Host allocations of a symbolic size become device allocations; the
// constant is a view of its resident device copy, which the runtime
// uploads once (keyed by the host address; 4 x 4 bytes) and keeps: nothing
// copies or frees it per call; kernel code is left alone.
// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[G:.*]] = memref.get_global @cst : memref<4xf32>
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[G]] : memref<4xf32> -> index
// CHECK: %[[ADDR64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: %[[BYTES:.*]] = arith.constant 16 : i64
// CHECK: %[[DEV:.*]] = call @relax_rt_cuda_constant(%[[ADDR64]], %[[BYTES]]) : (i64, i64) -> memref<?xi8>
// CHECK: %[[DG:.*]] = memref.view %[[DEV]][%{{.*}}][] : memref<?xi8> to memref<4xf32>
// CHECK-NOT: gpu.memcpy
// CHECK: %[[A:.*]] = gpu.alloc (%[[N]]) : memref<?x4xf32>
// CHECK: gpu.launch
// CHECK: memref.load %[[DG]]
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: gpu.terminator
// CHECK: gpu.dealloc %[[A]] : memref<?x4xf32>
// CHECK-NOT: gpu.dealloc
// CHECK: return
memref.global "private" constant @cst : memref<4xf32> = dense<1.0>
func.func @host(%n: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %g = memref.get_global @cst : memref<4xf32>
  %a = memref.alloc(%n) : memref<?x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %g[%c0] : memref<4xf32>
    memref.store %e, %a[%bx, %c0] : memref<?x4xf32>
    gpu.terminator
  }
  memref.dealloc %a : memref<?x4xf32>
  return
}

// -----

// A host staging buffer stays on the host: the copy filling it from a
// tensor becomes a device-to-host transfer and host code may read it.
// CHECK-LABEL: func.func @staging
// CHECK-SAME: (%[[T:.*]]: memref<?xi64>, %[[N:.*]]: index)
// CHECK: %[[H:.*]] = memref.alloc(%[[N]]) {relax.host_staging} : memref<?xi64>
// CHECK-NEXT: gpu.memcpy %[[H]], %[[T]] : memref<?xi64>, memref<?xi64>
// CHECK-NEXT: memref.load %[[H]]
// CHECK-NEXT: memref.dealloc %[[H]] {relax.host_staging}
func.func @staging(%t: memref<?xi64>, %n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %h = memref.alloc(%n) {relax.host_staging} : memref<?xi64>
  memref.copy %t, %h : memref<?xi64> to memref<?xi64>
  %v = memref.load %h[%c0] : memref<?xi64>
  memref.dealloc %h {relax.host_staging} : memref<?xi64>
  return %v : i64
}

// -----

// A layout with symbols (the bufferization never makes one) has no
// gpu.alloc form.
func.func @symbolic_layout(%n: index, %s: index) {
  // expected-error@+1 {{'memref.alloc' op symbolic layout operands are not supported on GPU}}
  %a = memref.alloc(%n)[%s] : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  memref.dealloc %a : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return
}

// -----

func.func @host_load(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{reads or writes tensor data on the host, which lives in GPU memory after --lower-to-gpu}}
  %v = memref.load %a[%c0] : memref<4xf32>
  return %v : f32
}

// -----

func.func private @cblas_like(memref<?xf32>)
func.func @extern_call(%a: memref<?xf32>) {
  // expected-error@+1 {{calls external function 'cblas_like' with tensor buffers, which has no GPU implementation}}
  func.call @cblas_like(%a) : (memref<?xf32>) -> ()
  return
}

// -----

// A returned constant (through a cast) cannot be the resident copy: the
// caller owns and frees what it gets, so it gets a fresh device copy.
// CHECK-LABEL: func.func @returned
// CHECK: %[[G:.*]] = memref.get_global @cst2 : memref<4xf32>
// CHECK-NOT: relax_rt_cuda_constant
// CHECK: %[[DG:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: gpu.memcpy %[[DG]], %[[G]] : memref<4xf32>, memref<4xf32>
// CHECK: %[[C:.*]] = memref.cast %[[DG]] : memref<4xf32> to memref<?xf32>
// CHECK-NOT: gpu.dealloc
// CHECK: return %[[C]]
memref.global "private" constant @cst2 : memref<4xf32> = dense<2.0>
func.func @returned() -> memref<?xf32> {
  %g = memref.get_global @cst2 : memref<4xf32>
  %c = memref.cast %g : memref<4xf32> to memref<?xf32>
  return %c : memref<?xf32>
}

// -----

// A planned function's arena from the host cache (relax-lower-shapes with
// reuse-arena) comes from the device arena cache instead: same key, sizes
// and C interface; the planned buffer is a view of device memory and
// nothing is allocated or freed per call.
// The host functions' declarations go once nothing calls them.
// CHECK-NOT: @relax_rt_workspace_acquire
// CHECK-NOT: @relax_rt_workspace_release
// CHECK-LABEL: func.func private @relax_rt_cuda_workspace_acquire(!llvm.ptr, i64, i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func private @relax_rt_cuda_workspace_release(!llvm.ptr, memref<?xi8>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @planned
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[KEY:.*]] = llvm.mlir.addressof @__relax_arena_key_0 : !llvm.ptr
// CHECK: %[[ARENA:.*]] = call @relax_rt_cuda_workspace_acquire(%[[KEY]], %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64) -> memref<?xi8>
// CHECK: %[[V:.*]] = memref.view %[[ARENA]][%{{.*}}][%[[N]]] : memref<?xi8> to memref<?xf32>
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK: call @relax_rt_cuda_workspace_release(%[[KEY]], %[[ARENA]]) : (!llvm.ptr, memref<?xi8>) -> ()
// CHECK-NOT: gpu.dealloc
// CHECK: return
// CHECK-NOT: @relax_rt_workspace_
llvm.mlir.global internal @__relax_arena_key_0(0 : i8) : i8
func.func private @relax_rt_workspace_acquire(!llvm.ptr, i64, i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
func.func private @relax_rt_workspace_release(!llvm.ptr, memref<?xi8>) attributes {llvm.emit_c_interface}
func.func @planned(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cap = arith.constant 4096 : i64
  %f = arith.constant 1.0 : f32
  %key = llvm.mlir.addressof @__relax_arena_key_0 : !llvm.ptr
  %bytes = arith.muli %n, %c4 : index
  %bytes64 = arith.index_cast %bytes : index to i64
  %arena = call @relax_rt_workspace_acquire(%key, %bytes64, %cap) : (!llvm.ptr, i64, i64) -> memref<?xi8>
  %v = memref.view %arena[%c0][%n] : memref<?xi8> to memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    memref.store %f, %v[%bx] : memref<?xf32>
    gpu.terminator
  }
  call @relax_rt_workspace_release(%key, %arena) : (!llvm.ptr, memref<?xi8>) -> ()
  return
}
