// RUN: relax-opt %s --convert-tir-to-scf -split-input-file -verify-diagnostics

// In a GPU thread, nvvm.mma.sync reads its fragments from shared memory.
tir.prim_func @mma_global(%a: !tir.buffer<[16, 16], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %acc = tir.alloc : !tir.buffer<[4], f32, local>
    // expected-error@+1 {{'tir.mma_sync' op on the GPU, operand a must be a shared or local buffer and b a shared one}}
    tir.mma_sync %t, %acc[%c0], %a[%c0, %c0], %a[%c0, %c0] : !tir.buffer<[4], f32, local>, !tir.buffer<[16, 16], f16>, !tir.buffer<[16, 16], f16>
  }
  tir.return
}

// -----

// cp.async writes shared memory.
tir.prim_func @copy_global(%a: !tir.buffer<[16, 16], f16>, %b: !tir.buffer<[16, 16], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
    // expected-error@+1 {{'tir.copy_async' op on the GPU, the destination must be a shared buffer}}
    tir.copy_async %b[%t, %c0], %a[%t, %c0], %true {lanes = 8 : i64} : !tir.buffer<[16, 16], f16>, !tir.buffer<[16, 16], f16>
  }
  tir.return
}

// -----

// In a GPU thread, wgmma's descriptors address shared memory.
tir.prim_func @wgmma_global() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, global>
  %b = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %acc = tir.alloc : !tir.buffer<[64], f32, local>
    // expected-error@+1 {{'tir.wgmma' op on the GPU, operands a and b must be shared buffers}}
    tir.wgmma %t, %acc[%c0], %a[%c0, %c0, %c0], %b[%c0, %c0, %c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, global>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  }
  tir.return
}

// -----

// A TMA copy lands in shared memory, in a tile of static shape.
tir.prim_func @tma_global_dst(%a: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %map = arith.constant 0 : i64
  tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %bars = tir.alloc : !tir.buffer<[2], i64, shared>
    %tile = tir.alloc : !tir.buffer<[64, 32], f16, global>
    // expected-error@+1 {{'tir.tma_load' op on the GPU, the destination must be a shared buffer of static shape}}
    tir.tma_load %tile[], %a[%c0, %c0], %bars[%c0], %map : !tir.buffer<[64, 32], f16, global>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  }
  tir.return
}

// -----

// mbarriers live in shared memory.
tir.prim_func @mbarrier_global(%a: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %bars = tir.alloc : !tir.buffer<[2], i64, global>
    // expected-error@+1 {{'tir.mbarrier_wait' op on the GPU, mbarriers must be a shared buffer}}
    tir.mbarrier_wait %bars[%c0], %c0 : !tir.buffer<[2], i64, global>
  }
  tir.return
}

// -----

// The phase expects the bytes its copies deliver: two 64 x 32 f16 boxes
// are 8192 bytes, not 4096 (the phase would complete before the second
// box landed).
tir.prim_func @tma_expect_bytes(%a: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %map = arith.constant 0 : i64
  tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %bars = tir.alloc : !tir.buffer<[2], i64, shared>
    %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
    // expected-error@+1 {{'tir.mbarrier_arrive_expect_tx' op expects 4096 bytes, but the tir.tma_load ops that follow it on this mbarrier deliver 8192}}
    tir.mbarrier_arrive_expect_tx %bars[%c0] {bytes = 4096 : i64} : !tir.buffer<[2], i64, shared>
    tir.tma_load %tile[%c0], %a[%c0, %c0], %bars[%c0], %map : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
    tir.tma_load %tile[%c1], %a[%c0, %c32], %bars[%c0], %map : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
    // Another mbarrier's phase: not counted above.
    tir.mbarrier_arrive_expect_tx %bars[%c1] {bytes = 4096 : i64} : !tir.buffer<[2], i64, shared>
    tir.tma_load %tile[%c1], %a[%c0, %c0], %bars[%c1], %map : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  }
  tir.return
}
