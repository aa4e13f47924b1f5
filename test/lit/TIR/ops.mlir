// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// Elementwise over a symbolic extent; serial loops print no kind.
// CHECK-LABEL: tir.prim_func @add
// CHECK-SAME: (%[[A:.*]]: !tir.buffer<[n], f32>, %[[B:.*]]: !tir.buffer<[n], f32>, %[[C:.*]]: !tir.buffer<[n], f32>)
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<elementwise>}
// CHECK: %[[N:.*]] = tir.sym_var "n" : index
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK:   tir.block "add" (%[[VI:.*]] = %[[I]]) kinds [spatial] {
// CHECK:     %[[X:.*]] = tir.load %[[A]][%[[VI]]] : !tir.buffer<[n], f32>
// CHECK:     %[[Y:.*]] = tir.load %[[B]][%[[VI]]] : !tir.buffer<[n], f32>
// CHECK:     %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK:     tir.store %[[S]], %[[C]][%[[VI]]] : !tir.buffer<[n], f32>
// CHECK:   }
// CHECK: }
// CHECK: tir.return
tir.prim_func @add(%a: !tir.buffer<[n], f32>, %b: !tir.buffer<[n], f32>,
                   %c: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %x = tir.load %a[%vi] : !tir.buffer<[n], f32>
      %y = tir.load %b[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %x, %y : f32
      tir.store %s, %c[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// Reduction with an init region, every loop kind, a loop name, and
// scratch buffers whose dims are expressions of bound variables.
// CHECK-LABEL: tir.prim_func @row_sum
// CHECK-SAME: %{{.*}}: index {tir.var = "k"}, %{{.*}}: index {tir.var = "m"})
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<reduction>}
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = parallel name = "i" {
// CHECK:   tir.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = unrolled {
// CHECK:     tir.block "sum" (%[[VI:.*]] = %[[I]], %[[VK:.*]] = %[[K]]) kinds [spatial, reduce] {
// CHECK:       tir.init {
// CHECK:         tir.store %{{.*}}, %{{.*}}[%[[VI]]] : !tir.buffer<[n], f32>
// CHECK:       }
// CHECK:       tir.load %{{.*}}[%[[VI]], %[[VK]]] : !tir.buffer<[n, m * 2 + 1], f32>
// CHECK: kind = vectorized
// CHECK: kind = thread_binding thread = "threadIdx.x"
// CHECK: tir.alloc : !tir.buffer<[32], f32, shared>
// CHECK: tir.alloc : !tir.buffer<[1], f32, local>
// CHECK: tir.alloc : !tir.buffer<[k + n * 4], f16>
tir.prim_func @row_sum(%x: !tir.buffer<[n, m * 2 + 1], f32>,
                       %y: !tir.buffer<[n], f32>, %k: index {tir.var = "k"},
                       %mv: index {tir.var = "m"})
    attributes {op_pattern = #tir.op_pattern<reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %kv = tir.sym_var "k" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel name = "i" {
    tir.for %k2 = %c0 to %m step %c1 kind = unrolled {
      tir.block "sum" (%vi = %i, %vk = %k2) kinds [spatial, reduce] {
        tir.init {
          tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %v = tir.load %x[%vi, %vk] : !tir.buffer<[n, m * 2 + 1], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.for %v = %c0 to %kv step %c1 kind = vectorized {
  }
  tir.for %t = %c0 to %c1 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %sh = tir.alloc : !tir.buffer<[32], f32, shared>
    %loc = tir.alloc : !tir.buffer<[1], f32, local>
    %tmp = tir.alloc : !tir.buffer<[k + n * 4], f16>
    %e = tir.load %loc[%c0] : !tir.buffer<[1], f32, local>
    tir.store %e, %sh[%t] : !tir.buffer<[32], f32, shared>
  }
  tir.return
}

// scf.if is the conditional inside tir bodies.
// CHECK-LABEL: tir.prim_func @guarded
// CHECK: scf.if
// CHECK:   tir.store
tir.prim_func @guarded(%y: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  tir.for %i = %c0 to %c8 step %c1 {
    %n = tir.sym_var "n" : index
    %in = arith.cmpi slt, %i, %n : index
    scf.if %in {
      tir.store %one, %y[%i] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// A block without iteration variables.
// CHECK-LABEL: tir.prim_func @scalar
// CHECK: tir.block "s" () kinds [] {
tir.prim_func @scalar(%y: !tir.buffer<[], f32>) {
  %one = arith.constant 1.0 : f32
  tir.block "s" () kinds [] {
    tir.store %one, %y[] : !tir.buffer<[], f32>
  }
  tir.return
}

// One lane's share of a warp's tensor-core product; symbolic output rows.
// CHECK-LABEL: tir.prim_func @mma
// CHECK: tir.mma_sync %{{.*}}, %[[ACC:.*]][%{{.*}}], %[[A:.*]][%{{.*}}, %{{.*}}], %[[B:.*]][%{{.*}}, %{{.*}}] : !tir.buffer<[32], f32, local>, !tir.buffer<[64, 40], bf16, shared>, !tir.buffer<[64, 40], bf16, shared>
tir.prim_func @mma(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %acc = tir.alloc : !tir.buffer<[32], f32, local>
  %a = tir.alloc : !tir.buffer<[64, 40], bf16, shared>
  %b = tir.alloc : !tir.buffer<[64, 40], bf16, shared>
  tir.mma_sync %c0, %acc[%c4], %a[%c0, %c0], %b[%c0, %c0] : !tir.buffer<[32], f32, local>, !tir.buffer<[64, 40], bf16, shared>, !tir.buffer<[64, 40], bf16, shared>
  tir.return
}

// The A operand from registers (the lane's fragment, P of attention) and B
// stored k by n.
// CHECK-LABEL: tir.prim_func @mma_fragment
// CHECK: tir.mma_sync %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] b_k_by_n : !tir.buffer<[16], f32, local>, !tir.buffer<[16], f16, local>, !tir.buffer<[2, 32, 72], f16, shared>
tir.prim_func @mma_fragment(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %acc = tir.alloc : !tir.buffer<[16], f32, local>
  %p = tir.alloc : !tir.buffer<[16], f16, local>
  %v = tir.alloc : !tir.buffer<[2, 32, 72], f16, shared>
  tir.mma_sync %c0, %acc[%c0], %p[%c8], %v[%c0, %c0, %c8] b_k_by_n : !tir.buffer<[16], f32, local>, !tir.buffer<[16], f16, local>, !tir.buffer<[2, 32, 72], f16, shared>
  tir.return
}

// One thread's share of a warpgroup's 64 x 128 x 32 product on core-matrix
// tiles; the staging's wait fenced for the tensor cores' async proxy.
// CHECK-LABEL: tir.prim_func @wgmma
// CHECK: tir.wgmma %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {k = 32 : i64, n = 128 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>, !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
// CHECK-NEXT: tir.copy_async_wait async_proxy
// CHECK-NEXT: tir.copy_async_wait{{$}}
tir.prim_func @wgmma(%out: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %acc = tir.alloc : !tir.buffer<[64], f32, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
  %b = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c8], %b[%c0, %c0, %c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>, !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
  tir.copy_async_wait async_proxy
  tir.copy_async_wait
  tir.return
}

// TMA staging (sm_90): one thread's box copy of a symbolic [m, k] operand
// into stage %s of a double-buffered tile, counted on that stage's
// mbarrier; the 128-byte swizzle.
// CHECK-LABEL: tir.prim_func @tma_load
// CHECK: tir.mbarrier_init %{{.*}}[%{{.*}}] {count = 1 : i64} : !tir.buffer<[2], i64, shared>
// CHECK-NEXT: tir.mbarrier_arrive_expect_tx %{{.*}}[%{{.*}}] {bytes = 8192 : i64} : !tir.buffer<[2], i64, shared>
// CHECK-NEXT: tir.tma_load %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} {swizzle = 128 : i64} : !tir.buffer<[2, 64, 64], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
// CHECK-NEXT: tir.tma_load %{{.*}}[], %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : !tir.buffer<[64, 32], bf16, shared>, !tir.buffer<[m, k], bf16>, !tir.buffer<[2], i64, shared>
// CHECK-NEXT: tir.mbarrier_wait %{{.*}}[%{{.*}}], %{{.*}} : !tir.buffer<[2], i64, shared>
tir.prim_func @tma_load(%x: !tir.buffer<[m, k], f16>, %y: !tir.buffer<[m, k], bf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 64], f16, shared>
  %other = tir.alloc : !tir.buffer<[64, 32], bf16, shared>
  tir.mbarrier_init %bars[%c1] {count = 1 : i64} : !tir.buffer<[2], i64, shared>
  tir.mbarrier_arrive_expect_tx %bars[%c1] {bytes = 8192 : i64} : !tir.buffer<[2], i64, shared>
  tir.tma_load %tile[%c1], %x[%c0, %c0], %bars[%c1], %map {swizzle = 128 : i64} : !tir.buffer<[2, 64, 64], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.tma_load %other[], %y[%c0, %c0], %bars[%c1], %map : !tir.buffer<[64, 32], bf16, shared>, !tir.buffer<[m, k], bf16>, !tir.buffer<[2], i64, shared>
  tir.mbarrier_wait %bars[%c1], %c0 : !tir.buffer<[2], i64, shared>
  tir.return
}

// The staging of tensor-core tiles: 16-byte copies into shared memory.
// CHECK-LABEL: tir.prim_func @copy_async
// CHECK: tir.copy_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {lanes = 8 : i64} : !tir.buffer<[64, 40], f16, shared>, !tir.buffer<[m, 64], f16>
// CHECK-NEXT: tir.copy_async_wait
tir.prim_func @copy_async(%x: !tir.buffer<[m, 64], f16>) {
  %c0 = arith.constant 0 : index
  %m = tir.sym_var "m" : index
  %in = arith.cmpi ult, %c0, %m : index
  %s = tir.alloc : !tir.buffer<[64, 40], f16, shared>
  tir.copy_async %s[%c0, %c0], %x[%c0, %c0], %in {lanes = 8 : i64} : !tir.buffer<[64, 40], f16, shared>, !tir.buffer<[m, 64], f16>
  tir.copy_async_wait
  tir.return
}

// 128-bit accesses of the GPU schedules: four consecutive f32 from (n, k).
// CHECK-LABEL: tir.prim_func @vector_access
// CHECK: %[[V:.*]] = tir.vector_load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : !tir.buffer<[n, k], f32> -> vector<4xf32>
// CHECK-NEXT: tir.vector_store %[[V]], %{{.*}}[%{{.*}}] : vector<4xf32>, !tir.buffer<[n], f32>
tir.prim_func @vector_access(%w: !tir.buffer<[n, k], f32>, %o: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %v = tir.vector_load %w[%c0, %c0] {alignment = 16 : i64} : !tir.buffer<[n, k], f32> -> vector<4xf32>
  tir.vector_store %v, %o[%c0] : vector<4xf32>, !tir.buffer<[n], f32>
  tir.return
}
