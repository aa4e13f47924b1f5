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

// The A operand from the lanes' registers (a local buffer: the lane's 8
// fragment elements from index 8, in pairs) and B stored k by n (each pair
// two loads down k, rows 2q + 8 j and + 1 of column g): on the GPU the pairs
// are built from scalar loads (bf16 pairs as i32), in the same nvvm.mma.sync.
// GPU-LABEL: func.func @mma_registers
// GPU: %[[P:.*]] = memref.alloca() : memref<16xbf16>
// GPU: %[[V:.*]] = memref.alloc() : memref<2x32x72xbf16, #gpu.address_space<workgroup>>
// GPU-COUNT-2: memref.load %[[P]][%{{.*}}] : memref<16xbf16>
// GPU: vector.from_elements %{{.*}}, %{{.*}} : vector<2xbf16>
// GPU-COUNT-2: memref.load %[[P]][%{{.*}}] : memref<16xbf16>
// GPU: vector.from_elements %{{.*}}, %{{.*}} : vector<2xbf16>
// GPU-COUNT-2: memref.load %[[P]][%{{.*}}] : memref<16xbf16>
// GPU: vector.from_elements %{{.*}}, %{{.*}} : vector<2xbf16>
// GPU-COUNT-2: memref.load %[[P]][%{{.*}}] : memref<16xbf16>
// GPU: vector.from_elements %{{.*}}, %{{.*}} : vector<2xbf16>
// GPU-COUNT-2: memref.load %[[V]][%c1, %{{.*}}, %{{.*}}] : memref<2x32x72xbf16, #gpu.address_space<workgroup>>
// GPU: vector.from_elements %{{.*}}, %{{.*}} : vector<2xbf16>
// GPU-COUNT-2: memref.load %[[V]][%c1, %{{.*}}, %{{.*}}] : memref<2x32x72xbf16, #gpu.address_space<workgroup>>
// GPU: vector.from_elements %{{.*}}, %{{.*}} : vector<2xbf16>
// GPU: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>{{.*}}} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
tir.prim_func @mma_registers(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    %acc = tir.alloc : !tir.buffer<[4], f32, local>
    %p = tir.alloc : !tir.buffer<[16], bf16, local>
    %v = tir.alloc : !tir.buffer<[2, 32, 72], bf16, shared>
    tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
      tir.mma_sync %t, %acc[%c0], %p[%c8], %v[%c1, %c0, %c8] b_k_by_n : !tir.buffer<[4], f32, local>, !tir.buffer<[16], bf16, local>, !tir.buffer<[2, 32, 72], bf16, shared>
    }
  }
  tir.return
}

// -----

// Off the GPU the register operand is read across lanes: it carries the
// emulation's per-thread dim, so element (g + 8 h, k) of A is lane
// 4 g + (k % 8) / 2's element 2 (h + 2 (k / 8)) + k % 2, at thread
// t - lane + that lane; B k by n is b[k0 + k][n0 + n].
// CHECK-LABEL: func.func @mma_registers_serial
// CHECK: %[[P:.*]] = memref.alloca() : memref<32x16xf16>
// CHECK: scf.for
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[G:.*]] = arith.divui %[[T]], %{{.*}} : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[H:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK: %[[K8:.*]] = arith.remui %[[K]], %{{.*}} : index
// CHECK: %[[KQ:.*]] = arith.divui %[[K8]], %{{.*}} : index
// CHECK: %[[G4:.*]] = arith.muli %[[G]], %{{.*}} : index
// CHECK: %[[HOLDER:.*]] = arith.addi %[[G4]], %[[KQ]] : index
// CHECK: %[[BASE:.*]] = arith.subi %[[T]], %[[T]] : index
// CHECK: %[[THREAD:.*]] = arith.addi %[[BASE]], %[[HOLDER]] : index
// CHECK: %[[K2:.*]] = arith.remui %[[K]], %{{.*}} : index
// CHECK: %[[KH:.*]] = arith.divui %[[K]], %{{.*}} : index
// CHECK: %[[KH2:.*]] = arith.muli %[[KH]], %{{.*}} : index
// CHECK: %[[J:.*]] = arith.addi %[[H]], %[[KH2]] : index
// CHECK: %[[J2:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK: %[[E:.*]] = arith.addi %[[J2]], %[[K2]] : index
// CHECK: %[[E0:.*]] = arith.addi %{{.*}}, %[[E]] : index
// CHECK: memref.load %[[P]][%[[THREAD]], %[[E0]]] : memref<32x16xf16>
// CHECK: %[[KROW:.*]] = arith.addi %{{.*}}, %[[K]] : index
// CHECK: memref.load %{{.*}}[%[[KROW]], %{{.*}}] : memref<32x72xf16, #gpu.address_space<workgroup>>
tir.prim_func @mma_registers_serial(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = tir.sym_var "m" : index
  tir.for %blk = %c0 to %m step %c1 {
    %acc = tir.alloc : !tir.buffer<[32, 4], f32, local>
    %p = tir.alloc : !tir.buffer<[32, 16], f16, local>
    %v = tir.alloc : !tir.buffer<[32, 72], f16, shared>
    tir.for %t = %c0 to %c32 step %c1 {
      tir.mma_sync %t, %acc[%t, %c0], %p[%t, %c0], %v[%c0, %c0] b_k_by_n : !tir.buffer<[32, 4], f32, local>, !tir.buffer<[32, 16], f16, local>, !tir.buffer<[32, 72], f16, shared>
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
