// The structure of each schedule with one position per thread
// (wide-accesses=false); WIDE checks the 128-bit version of the injective
// and GEMV nests (docs/gpu.md "Wide loads and stores").
// RUN: relax-opt %s --tir-gpu-default-schedule="wide-accesses=false" -split-input-file | FileCheck %s
// RUN: relax-opt %s --tir-gpu-default-schedule="max-threads=128 wide-accesses=false" -split-input-file | FileCheck %s --check-prefix=T128
// RUN: relax-opt %s --tir-gpu-default-schedule="tensor-cores=false wide-accesses=false" -split-input-file | FileCheck %s --check-prefix=TILED
// RUN: relax-opt %s --tir-gpu-default-schedule -split-input-file | FileCheck %s --check-prefix=WIDE
// RUN: ! relax-opt %s --tir-gpu-default-schedule="max-threads=100" 2> %t.err
// RUN: FileCheck %s --check-prefix=BAD < %t.err

// BAD: max-threads must be a multiple of 32 in [32, 1024], got 100

// Injective over [n, 4]: both loops are fused (n * 4 elements), split by
// the block size with a tail guard (n * 4 need not divide 256) and bound.
// CHECK-LABEL: tir.prim_func @injective
// CHECK: %[[N:.*]] = tir.sym_var "n"
// CHECK: %[[TOTAL:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[C255:.*]] = arith.constant 255 : index
// CHECK: %[[SUM:.*]] = arith.addi %[[TOTAL]], %[[C255]]
// CHECK: %[[NB:.*]] = arith.divui %[[SUM]], %[[C256]]
// CHECK: tir.for %[[B:.*]] = %{{.*}} to %[[NB]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// CHECK-NEXT: tir.for %[[T:.*]] = %{{.*}} to %[[C256]] step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[B]], %[[C256]]
// CHECK-NEXT: %[[IDX:.*]] = arith.addi %[[M]], %[[T]]
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[IDX]], %[[TOTAL]]
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: %[[I:.*]] = arith.divui %[[IDX]], %{{.*}}
// CHECK-NEXT: %[[J:.*]] = arith.remui %[[IDX]], %{{.*}}
// CHECK-NEXT: tir.block "relu" (%{{.*}} = %[[I]], %{{.*}} = %[[J]]) kinds [spatial, spatial]
// With wide accesses, each thread takes a chunk of 4 positions (n * 4 is
// a multiple of 4: no tail code): one 16-byte aligned vector load of x, the
// block 4 times on its elements, the results staged in registers and
// stored with one vector store at the chunk's first position.
// WIDE-LABEL: tir.prim_func @injective
// WIDE: %[[N:.*]] = tir.sym_var "n"
// WIDE: %[[TOTAL:.*]] = arith.muli %[[N]], %{{.*}} : index
// WIDE: %[[C3:.*]] = arith.constant 3 : index
// WIDE: %[[SUM:.*]] = arith.addi %[[TOTAL]], %[[C3]]
// WIDE: %[[CHUNKS:.*]] = arith.divui %[[SUM]], %{{.*}}
// WIDE: tir.for %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// WIDE: tir.for %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// WIDE: %[[CHUNK:.*]] = arith.addi
// WIDE: arith.cmpi ult, %[[CHUNK]], %[[CHUNKS]]
// WIDE: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %{{.*}}
// WIDE-NOT: arith.cmpi ule
// WIDE: %[[STAGED:.*]] = tir.alloc : !tir.buffer<[4], f32, local>
// WIDE: %[[I:.*]] = arith.divui %[[FIRST]]
// WIDE: %[[J:.*]] = arith.remui %[[FIRST]]
// WIDE: %[[V:.*]] = tir.vector_load %{{.*}}[%[[I]], %[[J]]] {alignment = 16 : i64} : !tir.buffer<[n, 4], f32> -> vector<4xf32>
// WIDE: tir.block "relu_lanes" (%{{.*}} = %[[I]], %{{.*}} = %[[J]])
// WIDE: vector.extract %[[V]][0]
// WIDE: tir.store %{{.*}}, %[[STAGED]][%{{.*}}]
// WIDE-COUNT-2: vector.extract %[[V]]
// WIDE: tir.block "relu_lanes"
// WIDE: vector.extract %[[V]][3]
// WIDE: tir.store %{{.*}}, %[[STAGED]][%{{.*}}]
// WIDE: %[[ALL:.*]] = tir.vector_load %[[STAGED]][%{{.*}}] : !tir.buffer<[4], f32, local> -> vector<4xf32>
// WIDE: tir.vector_store %[[ALL]], %{{.*}}[%[[I]], %[[J]]] {alignment = 16 : i64} : vector<4xf32>, !tir.buffer<[n, 4], f32>
// T128-LABEL: tir.prim_func @injective
// T128: arith.constant 128 : index
// T128: kind = thread_binding thread = "threadIdx.x"
tir.prim_func @injective(%x: !tir.buffer<[n, 4], f32>, %y: !tir.buffer<[n, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.for %j = %c0 to %c4 step %c1 kind = vectorized {
      tir.block "relu" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, 4], f32>
        %r = arith.maximumf %v, %zero : f32
        tir.store %r, %y[%vi, %vj] : !tir.buffer<[n, 4], f32>
      }
    }
  }
  tir.return
}

// -----

// Row sums over a symbolic axis k: a block reduction. One thread block per
// row (blockIdx.x over m, no split), 256 threads accumulate a strided slice
// of k into their slots of a shared buffer (guarded: k need not divide
// 256), then each warp reduces its slots with a warp shuffle (lane 0 writes
// the warp's total), and one 32-thread loop reduces the 8 totals the same
// way; lane 0 stores the row's sum. No halving tree.
// CHECK-LABEL: tir.prim_func @row_sum
// CHECK: %[[M:.*]] = tir.sym_var "m"
// CHECK: %[[K:.*]] = tir.sym_var "k"
// CHECK: tir.for %[[ROW:.*]] = %{{.*}} to %[[M]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// CHECK-NEXT: %[[P:.*]] = tir.alloc : !tir.buffer<[256], f32, shared>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[W:.*]] = tir.alloc : !tir.buffer<[32], f32, shared>
// CHECK: tir.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NEXT: tir.store %[[ZERO]], %[[P]][%[[T]]]
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[R:.*]] = arith.addi %{{.*}}, %[[T]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[R]], %[[K]]
// CHECK: scf.if %[[IN]] {
// CHECK-NEXT: tir.block "sum_cross_thread" (%{{.*}} = %[[ROW]], %{{.*}} = %[[R]]) kinds [spatial, reduce] {
// CHECK-NOT: tir.init
// CHECK: tir.load %[[P]][%[[T]]]
// CHECK: tir.store %{{.*}}, %[[P]][%[[T]]]
// CHECK: %[[OWN:.*]] = tir.load %[[P]][%[[T]]]
// CHECK-NEXT: %[[WS:.*]] = gpu.subgroup_reduce add %[[OWN]] uniform : (f32) -> f32
// CHECK: tir.store %[[WS]], %[[W]][%{{.*}}]
// CHECK: tir.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NEXT: tir.load %[[W]][%[[L]]]
// CHECK: %[[TOTAL:.*]] = gpu.subgroup_reduce add %{{.*}} uniform : (f32) -> f32
// CHECK: tir.store %[[TOTAL]], %{{.*}}[%[[ROW]]] : !tir.buffer<[m], f32>
// CHECK-NOT: thread_binding
// CHECK: tir.return
tir.prim_func @row_sum(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 kind = parallel {
    tir.for %r = %c0 to %k step %c1 kind = parallel {
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

// A reduction to a scalar over a symbolic n: one thread block (an extent-1
// blockIdx.x loop) whose 256 threads share it. A small constant extent gets
// a warp-sized block (2 -> 32) in a second nest.
// CHECK-LABEL: tir.prim_func @scalar_then_small
// CHECK: tir.sym_var "n"
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[C1]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// CHECK-NEXT: tir.alloc : !tir.buffer<[256], f32, shared>
// CHECK: tir.block "total_cross_thread" {{.*}} kinds [reduce]
// CHECK: tir.store %{{.*}}, %{{.*}}[] : !tir.buffer<[], f32>
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: kind = thread_binding thread = "blockIdx.x"
// CHECK-NEXT: tir.for %{{.*}} = %{{.*}} to %[[C32]] step %{{.*}} kind = thread_binding thread = "threadIdx.x"
// CHECK: tir.block "scale"
tir.prim_func @scalar_then_small(%x: !tir.buffer<[n], f32>, %s: !tir.buffer<[], f32>, %y: !tir.buffer<[2], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tir.sym_var "n" : index
  tir.for %r = %c0 to %n step %c1 {
    tir.block "total" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %s[] : !tir.buffer<[], f32>
      }
      %a = tir.load %s[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[n], f32>
      %t = arith.addf %a, %b : f32
      tir.store %t, %s[] : !tir.buffer<[], f32>
    }
  }
  tir.for %i = %c0 to %c2 step %c1 {
    tir.block "scale" (%vi = %i) kinds [spatial] {
      %a = tir.load %s[] : !tir.buffer<[], f32>
      tir.store %a, %y[%vi] : !tir.buffer<[2], f32>
    }
  }
  tir.return
}

// -----

// A prim_func that binds a loop already was scheduled by hand: unchanged.
// CHECK-LABEL: tir.prim_func @hand_scheduled
// CHECK: tir.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NOT: blockIdx
tir.prim_func @hand_scheduled(%x: !tir.buffer<[64], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tir.for %i = %c0 to %c64 step %c1 kind = thread_binding thread = "threadIdx.x" {
    tir.block "fill" (%vi = %i) kinds [spatial] {
      %z = arith.constant 0.0 : f32
      tir.store %z, %x[%vi] : !tir.buffer<[64], f32>
    }
  }
  tir.return
}

// -----

// Matmul-like (two inputs read along k): one thread per output element,
// the reduction serial in each thread (adjacent threads read adjacent
// columns of b, which keeps GEMV coalesced).
// CHECK-LABEL: tir.prim_func @gemv
// CHECK: kind = thread_binding thread = "blockIdx.x"
// CHECK: kind = thread_binding thread = "threadIdx.x"
// CHECK-NOT: shared
// CHECK: tir.block "mm" ({{.*}}) kinds [spatial, reduce]
// CHECK: tir.init
tir.prim_func @gemv(%a: !tir.buffer<[k], f32>, %b: !tir.buffer<[k, n], f32>, %c: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %k = tir.sym_var "k" : index
  tir.for %j = %c0 to %n step %c1 {
    tir.for %r = %c0 to %k step %c1 {
      tir.block "mm" (%vj = %j, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %c[%vj] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %c[%vj] : !tir.buffer<[n], f32>
        %x = tir.load %a[%vr] : !tir.buffer<[k], f32>
        %y = tir.load %b[%vr, %vj] : !tir.buffer<[k, n], f32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        tir.store %s, %c[%vj] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// -----

// A short constant reduction (8 < 64) stays serial per thread; a max over
// a symbolic axis with a non-identity init (0.0 for max) cannot be split
// across threads and stays serial too.
// CHECK-LABEL: tir.prim_func @not_block_reductions
// CHECK-NOT: shared
// CHECK: tir.block "short"
// CHECK: tir.block "relu_max"
// CHECK: tir.return
tir.prim_func @not_block_reductions(%x: !tir.buffer<[m, 8], f32>, %y: !tir.buffer<[m], f32>, %u: !tir.buffer<[m, k], f32>, %v: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 {
    tir.for %r = %c0 to %c8 step %c1 {
      tir.block "short" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %acc = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %e = tir.load %x[%vi, %vr] : !tir.buffer<[m, 8], f32>
        %s = arith.addf %acc, %e : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.for %i = %c0 to %m step %c1 {
    tir.for %r = %c0 to %k step %c1 {
      tir.block "relu_max" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %v[%vi] : !tir.buffer<[m], f32>
        }
        %acc = tir.load %v[%vi] : !tir.buffer<[m], f32>
        %e = tir.load %u[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.maximumf %acc, %e : f32
        tir.store %s, %v[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

// A reduction to a scalar that threads cannot share (its init, 0.0, is not
// the identity of max) runs in one thread: extent-1 blockIdx.x and
// threadIdx.x loops around the serial loop.
// CHECK-LABEL: tir.prim_func @single_thread
// CHECK: tir.sym_var "n"
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[C1]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// CHECK-NEXT: tir.for %{{.*}} = %{{.*}} to %[[C1]] step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NEXT: tir.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: tir.block "relu_max" {{.*}} kinds [reduce]
tir.prim_func @single_thread(%x: !tir.buffer<[n], f32>, %s: !tir.buffer<[], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %r = %c0 to %n step %c1 {
    tir.block "relu_max" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %s[] : !tir.buffer<[], f32>
      }
      %a = tir.load %s[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[n], f32>
      %t = arith.maximumf %a, %b : f32
      tir.store %t, %s[] : !tir.buffer<[], f32>
    }
  }
  tir.return
}

// -----

// A batched matmul [b, m, k] x [k, n] with symbolic sizes. m is only known
// at run time, so both schedules are kept under scf.if (m < 4): the GEMV
// one (decode: one thread per output) and, with tensor-cores=false, 16 x 16
// output tiles. Grid z = b, y = ceildiv(m, 16), x = ceildiv(n, 16); shared tiles of
// A and B and a shared accumulator per thread; per K tile the 256 threads
// stage A and B (zero outside m, k and k, n), then run the original block
// over the tile; finally the in-bounds elements are stored.
// By default the f16 product accumulated in f32 runs on tensor cores
// instead: 64 x 64 tiles (grid y = ceildiv(m, 64), x = ceildiv(n, 64)), two
// stages of 64 x 40 shared tiles of A and of B (n by k), 32 accumulators per
// lane in a local buffer; the first K step is staged, then per step one
// thread loop stages the next one (here element by element: k is symbolic)
// and runs 2 x 2 x 4 = 16 mma_sync per warp on the current stage; the
// epilogue stores the in-bounds elements.
// CHECK-LABEL: tir.prim_func @bmm
// CHECK-DAG: %[[B:.*]] = tir.sym_var "b"
// CHECK: scf.if %{{.*}} {
// CHECK: thread = "threadIdx.x"
// CHECK: } else {
// CHECK: %[[ROWS:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[COLS:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[KT:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: tir.for %[[Z:.*]] = %{{.*}} to %[[B]] step %{{.*}} kind = thread_binding thread = "blockIdx.z" {
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[ROWS]] step %{{.*}} kind = thread_binding thread = "blockIdx.y" {
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[COLS]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// CHECK: %[[SA:.*]] = tir.alloc : !tir.buffer<[2, 64, 40], f16, shared>
// CHECK: %[[SB:.*]] = tir.alloc : !tir.buffer<[2, 64, 40], f16, shared>
// CHECK: %[[ACC:.*]] = tir.alloc : !tir.buffer<[32], f32, local>
// CHECK: tir.for %{{.*}} = %{{.*}} to %c128 step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-COUNT-32: tir.store %{{.*}}, %[[ACC]][%{{.*}}] : !tir.buffer<[32], f32, local>
// CHECK: kind = unrolled
// CHECK: tir.load %{{.*}} : !tir.buffer<[b, m, k], f16>
// CHECK: tir.store %{{.*}}, %[[SA]]
// CHECK: kind = unrolled
// CHECK: tir.load %{{.*}} : !tir.buffer<[k, n], f16>
// CHECK: tir.store %{{.*}}, %[[SB]]
// CHECK: tir.copy_async_wait
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[KT]] step %{{.*}} {
// CHECK: tir.for %{{.*}} = %{{.*}} to %c128{{.*}} step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK: scf.if %{{.*}} {
// CHECK: tir.store %{{.*}}, %[[SA]]
// CHECK: tir.store %{{.*}}, %[[SB]]
// CHECK-COUNT-16: tir.mma_sync %{{.*}}, %[[ACC]][%{{.*}}], %[[SA]][%{{.*}}, %{{.*}}, %{{.*}}], %[[SB]][%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK-NEXT: tir.copy_async_wait
// CHECK: thread = "threadIdx.x"
// CHECK: scf.if
// CHECK: %[[V:.*]] = tir.load %[[ACC]]
// CHECK: tir.store %[[V]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tir.buffer<[b, m, n], f32>
// TILED-LABEL: tir.prim_func @bmm
// TILED-DAG: %[[B:.*]] = tir.sym_var "b"
// TILED-DAG: %[[M:.*]] = tir.sym_var "m"
// TILED-DAG: %[[N:.*]] = tir.sym_var "n"
// TILED-DAG: %[[K:.*]] = tir.sym_var "k"
// TILED: %[[SMALL:.*]] = arith.cmpi ult, %[[M]], %{{.*}} : index
// TILED: scf.if %[[SMALL]] {
// TILED: kind = thread_binding thread = "blockIdx.x"
// TILED-NEXT: kind = thread_binding thread = "threadIdx.x"
// TILED: tir.block "mm" ({{.*}}) kinds [spatial, spatial, spatial, reduce]
// TILED: } else {
// TILED: %[[ROWS:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// TILED: %[[COLS:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// TILED: %[[KT:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// TILED: tir.for %[[Z:.*]] = %{{.*}} to %[[B]] step %{{.*}} kind = thread_binding thread = "blockIdx.z" {
// TILED: tir.for %[[BY:.*]] = %{{.*}} to %[[ROWS]] step %{{.*}} kind = thread_binding thread = "blockIdx.y" {
// TILED: tir.for %[[BX:.*]] = %{{.*}} to %[[COLS]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// TILED: %[[PB:.*]] = arith.remui %[[Z]], %[[B]]
// TILED: %[[TA:.*]] = tir.alloc : !tir.buffer<[16, 16], f16, shared>
// TILED: %[[TB:.*]] = tir.alloc : !tir.buffer<[16, 16], f16, shared>
// TILED: %[[ACC:.*]] = tir.alloc : !tir.buffer<[256], f32, shared>
// TILED: kind = thread_binding thread = "threadIdx.x"
// TILED: tir.store %{{.*}}, %[[ACC]]
// TILED: tir.for %{{.*}} = %{{.*}} to %[[KT]] step %{{.*}} {
// TILED: kind = thread_binding thread = "threadIdx.x"
// TILED: scf.if %{{.*}} -> (f16) {
// TILED: tir.load %{{.*}}[%[[PB]], %{{.*}}, %{{.*}}] : !tir.buffer<[b, m, k], f16>
// TILED: tir.store %{{.*}}, %[[TA]]
// TILED: scf.if %{{.*}} -> (f16) {
// TILED: tir.load %{{.*}} : !tir.buffer<[k, n], f16>
// TILED: tir.store %{{.*}}, %[[TB]]
// TILED: kind = thread_binding thread = "threadIdx.x"
// TILED: tir.block "mm_tile"
// TILED-NOT: tir.init
// TILED: tir.load %[[ACC]]
// TILED: tir.load %[[TA]]
// TILED: tir.load %[[TB]]
// TILED: arith.extf
// TILED: tir.store %{{.*}}, %[[ACC]]
// TILED: kind = thread_binding thread = "threadIdx.x"
// TILED: scf.if
// TILED: %[[V:.*]] = tir.load %[[ACC]]
// TILED: tir.store %[[V]], %{{.*}}[%[[PB]], %{{.*}}, %{{.*}}] : !tir.buffer<[b, m, n], f32>
tir.prim_func @bmm(%x: !tir.buffer<[b, m, k], f16>, %w: !tir.buffer<[k, n], f16>, %y: !tir.buffer<[b, m, n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tir.sym_var "b" : index
  %m = tir.sym_var "m" : index
  %n = tir.sym_var "n" : index
  %k = tir.sym_var "k" : index
  tir.for %p = %c0 to %b step %c1 {
    tir.for %i = %c0 to %m step %c1 {
      tir.for %j = %c0 to %n step %c1 {
        tir.for %r = %c0 to %k step %c1 {
          tir.block "mm" (%vp = %p, %vi = %i, %vj = %j, %vr = %r) kinds [spatial, spatial, spatial, reduce] {
            tir.init {
              %z = arith.constant 0.0 : f32
              tir.store %z, %y[%vp, %vi, %vj] : !tir.buffer<[b, m, n], f32>
            }
            %acc = tir.load %y[%vp, %vi, %vj] : !tir.buffer<[b, m, n], f32>
            %a = tir.load %x[%vp, %vi, %vr] : !tir.buffer<[b, m, k], f16>
            %e = tir.load %w[%vr, %vj] : !tir.buffer<[k, n], f16>
            %a32 = arith.extf %a : f16 to f32
            %e32 = arith.extf %e : f16 to f32
            %p2 = arith.mulf %a32, %e32 : f32
            %s = arith.addf %acc, %p2 : f32
            tir.store %s, %y[%vp, %vi, %vj] : !tir.buffer<[b, m, n], f32>
          }
        }
      }
    }
  }
  tir.return
}

// -----

// A bf16 linear with k = 64 (a multiple of 8) and a bf16 output: both
// operands are read along k, so each K step is staged with 16-byte
// cp.async copies (tir.copy_async, 2 per thread per operand, zero-filled
// outside m and n); the f32 accumulators are rounded to bf16 when stored.
// CHECK-LABEL: tir.prim_func @linear_bf16
// CHECK: tir.alloc : !tir.buffer<[2, 64, 40], bf16, shared>
// CHECK: kind = unrolled
// CHECK: tir.copy_async %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {lanes = 8 : i64} : !tir.buffer<[2, 64, 40], bf16, shared>, !tir.buffer<[m, 64], bf16>
// CHECK: tir.copy_async %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {lanes = 8 : i64} : !tir.buffer<[2, 64, 40], bf16, shared>, !tir.buffer<[n, 64], bf16>
// CHECK: tir.mma_sync
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: tir.store %{{.*}} : !tir.buffer<[m, n], bf16>
tir.prim_func @linear_bf16(%x: !tir.buffer<[m, 64], bf16>, %w: !tir.buffer<[n, 64], bf16>, %y: !tir.buffer<[m, n], bf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = tir.sym_var "m" : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %m step %c1 {
    tir.for %j = %c0 to %n step %c1 {
      tir.for %r = %c0 to %c64 step %c1 {
        tir.block "linear" (%vi = %i, %vj = %j, %vr = %r) kinds [spatial, spatial, reduce] {
          tir.init {
            %z = arith.constant 0.0 : bf16
            tir.store %z, %y[%vi, %vj] : !tir.buffer<[m, n], bf16>
          }
          %acc = tir.load %y[%vi, %vj] : !tir.buffer<[m, n], bf16>
          %a = tir.load %x[%vi, %vr] : !tir.buffer<[m, 64], bf16>
          %e = tir.load %w[%vj, %vr] : !tir.buffer<[n, 64], bf16>
          %p = arith.mulf %a, %e : bf16
          %s = arith.addf %acc, %p : bf16
          tir.store %s, %y[%vi, %vj] : !tir.buffer<[m, n], bf16>
        }
      }
    }
  }
  tir.return
}
