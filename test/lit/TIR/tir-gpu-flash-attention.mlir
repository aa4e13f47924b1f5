// The flash-attention kernel of --tir-gpu-default-schedule
// (FlashAttention.cpp) on the programs relax.attention legalizes to: the
// legalizer's hint, the kernel's grid, shared tiles, registers and key loop,
// and the programs that keep the generic one-thread-per-row schedule.
// RUN: relax-opt --relax-legalize-ops -split-input-file %s | FileCheck %s --check-prefix=HINT
// RUN: relax-opt --relax-legalize-ops --tir-gpu-default-schedule -split-input-file %s | FileCheck %s

// Causal, 4 query heads over 2 kv heads, d = 16, dv = 8, symbolic s and t.
// Rows are (query position, head of the group) pairs: s * 2 per kv head,
// 32 per block; grid = b * hkv * ceildiv(s * 2, 32). Shared f32 tiles: Q
// and K 32 x (16 + 1), V 32 x 8, scores 32 x (32 + 1), the running max,
// sum and rescale factor of the 32 rows; two accumulators per thread
// (32 * 8 / 128), registers. The key loop ends at the last key the block's
// last row sees (a select: all keys when some row sees none); per key tile
// a thread loop stages K and V, one computes the scores, 32 threads the
// online softmax (exp), 128 the accumulation; O = acc / l is stored once.
// HINT-LABEL: tir.prim_func private @attention(
// HINT-SAME: tir.attention = {causal = true}
// CHECK-LABEL: tir.prim_func private @attention(
// CHECK-DAG: %[[S:.*]] = tir.sym_var "s"
// CHECK-DAG: %[[T:.*]] = tir.sym_var "t"
// CHECK: %[[GROUP:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[ROWS:.*]] = arith.muli %[[S]], %[[GROUP]] : index
// CHECK: %[[RT:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[GRID:.*]] = arith.muli %{{.*}}, %[[RT]] : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[GRID]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" name = "q_tiles" {
// CHECK: %[[Q:.*]] = tir.alloc : !tir.buffer<[32, 17], f32, shared>
// CHECK-NEXT: %[[K:.*]] = tir.alloc : !tir.buffer<[32, 17], f32, shared>
// CHECK-NEXT: %[[V:.*]] = tir.alloc : !tir.buffer<[32, 8], f32, shared>
// CHECK-NEXT: %[[P:.*]] = tir.alloc : !tir.buffer<[32, 33], f32, shared>
// CHECK-NEXT: %[[M:.*]] = tir.alloc : !tir.buffer<[32], f32, shared>
// CHECK-NEXT: %[[L:.*]] = tir.alloc : !tir.buffer<[32], f32, shared>
// CHECK-NEXT: %[[A:.*]] = tir.alloc : !tir.buffer<[32], f32, shared>
// CHECK-NEXT: %[[ACC:.*]] = tir.alloc : !tir.buffer<[2], f32, local>
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[C128:.*]] step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK: tir.store %{{.*}}, %[[ACC]][%{{.*}}] : !tir.buffer<[2], f32, local>
// CHECK: tir.load %arg0[
// CHECK: tir.store %{{.*}}, %[[Q]][
// CHECK: %[[BLIND:.*]] = arith.cmpi ult, %{{.*}}, %[[S]] : index
// CHECK: %[[SEEN:.*]] = arith.minui %[[T]], %{{.*}} : index
// CHECK: %[[END:.*]] = arith.select %[[BLIND]], %[[T]], %[[SEEN]] : index
// CHECK: %[[END31:.*]] = arith.addi %[[END]], %{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.divui %[[END31]], %{{.*}} : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[TILES]] step %{{.*}} name = "kv_tiles" {
// CHECK: thread = "threadIdx.x"
// CHECK: tir.load %arg1[
// CHECK: tir.store %{{.*}}, %[[K]][
// CHECK: tir.load %arg2[
// CHECK: tir.store %{{.*}}, %[[V]][
// CHECK: thread = "threadIdx.x"
// CHECK: arith.cmpi ule
// CHECK: tir.store %{{.*}}, %[[P]][
// CHECK: tir.for %[[R:.*]] = %{{.*}} to %[[C32:.*]] step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: tir.store %{{.*}}, %[[A]][%[[R]]]
// CHECK: thread = "threadIdx.x"
// CHECK: tir.load %[[A]][
// CHECK: tir.load %[[V]][
// CHECK: tir.store %{{.*}}, %[[ACC]][
// CHECK: thread = "threadIdx.x"
// CHECK: %[[Y:.*]] = arith.divf
// CHECK: tir.store %[[Y]], %arg3[
relax.func @causal(%q: !relax.tensor<[b, s, 4, 16], f32>, %k: !relax.tensor<[b, t, 2, 16], f32>,
                   %v: !relax.tensor<[b, t, 2, 8], f32>) -> !relax.tensor<[b, s, 4, 8], f32> {
  %y = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[b, s, 4, 16], f32>, !relax.tensor<[b, t, 2, 16], f32>, !relax.tensor<[b, t, 2, 8], f32>) -> !relax.tensor<[b, s, 4, 8], f32>
  relax.return %y : !relax.tensor<[b, s, 4, 8], f32>
}

// -----

// Not causal, scale 0.5, f16 with d = dv = 128: tiles of 32 rows by 16 keys
// (35 KiB of shared memory), 32 accumulators per thread; every key tile,
// ceildiv(t, 16); f16 widened when staged, rounded when stored.
// HINT-LABEL: tir.prim_func private @attention(
// HINT-SAME: tir.attention = {causal = false, scale = 5.000000e-01 : f64}
// CHECK-LABEL: tir.prim_func private @attention(
// CHECK: %[[T:.*]] = tir.sym_var "t"
// CHECK: tir.alloc : !tir.buffer<[32, 129], f32, shared>
// CHECK-NEXT: tir.alloc : !tir.buffer<[16, 129], f32, shared>
// CHECK-NEXT: tir.alloc : !tir.buffer<[16, 128], f32, shared>
// CHECK-NEXT: tir.alloc : !tir.buffer<[32, 17], f32, shared>
// CHECK: tir.alloc : !tir.buffer<[32], f32, local>
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NOT: arith.minui
// CHECK: %[[T15:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.divui %[[T15]], %{{.*}} : index
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK-NOT: arith.cmpi ule
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[TILES]] step %{{.*}} name = "kv_tiles" {
// CHECK: arith.truncf %{{.*}} : f32 to f16
relax.func @half(%q: !relax.tensor<[1, s, 8, 128], f16>, %k: !relax.tensor<[1, t, 8, 128], f16>,
                 %v: !relax.tensor<[1, t, 8, 128], f16>) -> !relax.tensor<[1, s, 8, 128], f16> {
  %y = relax.attention %q, %k, %v {scale = 0.5 : f64} : (!relax.tensor<[1, s, 8, 128], f16>, !relax.tensor<[1, t, 8, 128], f16>, !relax.tensor<[1, t, 8, 128], f16>) -> !relax.tensor<[1, s, 8, 128], f16>
  relax.return %y : !relax.tensor<[1, s, 8, 128], f16>
}

// -----

// Programs that keep the one-thread-per-row schedule (no shared memory): a
// mask operand (no hint), a symbolic head dim, f64, and head dims too large
// for the smallest tiles (1024: over 48 KiB).
// The mask's program has no hint; the others have one that the schedule
// declines.
// HINT-LABEL: tir.prim_func private @attention(
// HINT-SAME: attributes {op_pattern = #tir.op_pattern<opaque>} {
// HINT-LABEL: tir.prim_func private @attention_1(
// HINT-SAME: tir.attention = {causal = false}
// CHECK-LABEL: tir.prim_func private @attention(
// CHECK-NOT: shared
// CHECK: thread = "blockIdx.x"
// CHECK-NOT: shared
// CHECK-LABEL: tir.prim_func private @attention_1(
// CHECK-NOT: shared
// CHECK: thread = "blockIdx.x"
// CHECK-NOT: shared
// CHECK-LABEL: tir.prim_func private @attention_2(
// CHECK-NOT: shared
// CHECK: thread = "blockIdx.x"
// CHECK-NOT: shared
// CHECK-LABEL: tir.prim_func private @attention_3(
// CHECK-NOT: shared
// CHECK: thread = "blockIdx.x"
// CHECK-NOT: shared
relax.func @generic(%q: !relax.tensor<[1, s, 2, 16], f32>, %k: !relax.tensor<[1, t, 2, 16], f32>,
                    %v: !relax.tensor<[1, t, 2, 16], f32>, %m: !relax.tensor<[1, 1, s, t], f32>,
                    %qd: !relax.tensor<[1, s, 2, d], f32>, %kd: !relax.tensor<[1, t, 2, d], f32>,
                    %q64: !relax.tensor<[1, s, 2, 16], f64>, %k64: !relax.tensor<[1, t, 2, 16], f64>,
                    %qb: !relax.tensor<[1, s, 1, 1024], f32>, %kb: !relax.tensor<[1, t, 1, 1024], f32>)
    -> (!relax.tensor<[1, s, 2, 16], f32>, !relax.tensor<[1, s, 2, d], f32>,
        !relax.tensor<[1, s, 2, 16], f64>, !relax.tensor<[1, s, 1, 1024], f32>) {
  %y0 = relax.attention %q, %k, %v, %m : (!relax.tensor<[1, s, 2, 16], f32>, !relax.tensor<[1, t, 2, 16], f32>, !relax.tensor<[1, t, 2, 16], f32>, !relax.tensor<[1, 1, s, t], f32>) -> !relax.tensor<[1, s, 2, 16], f32>
  %y1 = relax.attention %qd, %kd, %kd : (!relax.tensor<[1, s, 2, d], f32>, !relax.tensor<[1, t, 2, d], f32>, !relax.tensor<[1, t, 2, d], f32>) -> !relax.tensor<[1, s, 2, d], f32>
  %y2 = relax.attention %q64, %k64, %k64 : (!relax.tensor<[1, s, 2, 16], f64>, !relax.tensor<[1, t, 2, 16], f64>, !relax.tensor<[1, t, 2, 16], f64>) -> !relax.tensor<[1, s, 2, 16], f64>
  %y3 = relax.attention %qb, %kb, %kb : (!relax.tensor<[1, s, 1, 1024], f32>, !relax.tensor<[1, t, 1, 1024], f32>, !relax.tensor<[1, t, 1, 1024], f32>) -> !relax.tensor<[1, s, 1, 1024], f32>
  relax.return %y0, %y1, %y2, %y3 : !relax.tensor<[1, s, 2, 16], f32>, !relax.tensor<[1, s, 2, d], f32>, !relax.tensor<[1, s, 2, 16], f64>, !relax.tensor<[1, s, 1, 1024], f32>
}
