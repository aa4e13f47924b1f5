// RUN: relax-opt %s --relax-check-stack-allocs -split-input-file -verify-diagnostics
// RUN: ! relax-opt %s --relax-check-stack-allocs=max-stack-bytes=1000 -split-input-file 2>&1 | FileCheck %s --check-prefix=SMALL

// Stack allocations whose size is bounded within the budget (64 KiB by
// default) pass: static shapes, and dynamic sizes with a constant upper
// bound (affine.min, a loop's bounded iv).
// SMALL: error: stack allocation of up to 4096 bytes exceeds the stack budget of 1000 bytes (max-stack-bytes)
// SMALL: error: stack allocation of up to 2048 bytes exceeds the stack budget of 1000 bytes (max-stack-bytes)
func.func @bounded(%n: index) {
  %a = memref.alloca() : memref<1024xf32>
  %m = affine.min affine_map<(d0) -> (d0, 512)>(%n)
  %b = memref.alloca(%m) : memref<?xf32>
  return
}

// -----

// SMALL: error: stack allocation of unbounded size (dynamic dim 1 has no constant upper bound)
func.func @unbounded(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-error@+1 {{stack allocation of unbounded size (dynamic dim 1 has no constant upper bound); scratch of a symbolic size belongs on the heap}}
  %s = memref.alloca(%n) : memref<4x?xf32>
  return
}

// -----

// SMALL: error: stack allocation of up to 67108864 bytes exceeds the stack budget of 1000 bytes
func.func @too_large() {
  // expected-error@+1 {{stack allocation of up to 67108864 bytes exceeds the stack budget of 65536 bytes (max-stack-bytes)}}
  %s = memref.alloca() : memref<4096x4096xf32>
  return
}

// -----

// Heap memory and GPU private memory are not checked.
func.func @heap_and_gpu(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %h = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %h : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %p = memref.alloca(%n) : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @huge() {
  // expected-error@+1 {{stack allocation too large to count}}
  %a = memref.alloca() : memref<4611686018427387904x4xf32>
  return
}
