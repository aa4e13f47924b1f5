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
