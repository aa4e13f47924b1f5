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
// CHECK-DAG: %[[B:.*]] = tir.sym_var "b"
// CHECK-DAG: %[[S:.*]] = tir.sym_var "s"
// CHECK-DAG: %[[T:.*]] = tir.sym_var "t"
// CHECK: %[[GROUP:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[ROWS:.*]] = arith.muli %[[S]], %[[GROUP]] : index
// CHECK: %[[PM:.*]] = tir.alloc : !tir.buffer<[b * ((t + 127) floordiv 128) * 64], f32>
// CHECK-NEXT: %[[PL:.*]] = tir.alloc : !tir.buffer<[b * ((t + 127) floordiv 128) * 64], f32>
// CHECK-NEXT: %[[PO:.*]] = tir.alloc : !tir.buffer<[b * ((t + 127) floordiv 128) * 64, 8], f32>
// CHECK: %[[FEWKEYS:.*]] = arith.cmpi ule, %[[T]], %[[C128:.*]] : index
// CHECK: %[[MANYROWS:.*]] = arith.cmpi ugt, %[[ROWS]], %{{.*}} : index
// CHECK: %[[ONE:.*]] = arith.ori %[[MANYROWS]], %[[FEWKEYS]] : i1
// CHECK: scf.if %[[ONE]] {
// CHECK: %[[RT:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[GRID:.*]] = arith.muli %{{.*}}, %[[RT]] : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[GRID]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" name = "q_tiles" {
// CHECK: %[[BLIND:.*]] = arith.cmpi ult, %{{.*}}, %[[S]] : index
// CHECK: %[[SEEN:.*]] = arith.minui %[[T]], %{{.*}} : index
// CHECK: %[[END:.*]] = arith.select %[[BLIND]], %[[T]], %[[SEEN]] : index
// CHECK: %[[END31:.*]] = arith.addi %[[END]], %{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.divui %[[END31]], %{{.*}} : index
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
// Decode (flash decoding): when every row of a kv head fits one tile (s * 2
// <= 32) and t > 128, the keys are split into chunks of 128 over blocks:
// grid = b * hkv * ceildiv(t, 128). Block (batch, kv head, chunk) visits
// keys [128 c, min(t, 128 c + 128)) (cut by causal) and leaves its rows'
// partial max, sum and undivided accumulators in global buffers at the top
// of the program (for --relax-lift-tir-allocs), b * 2 * chunks * 32 rows
// (the rows per kv head, s * 2, are symbolic: a tile's); the combine kernel, one thread per output element,
// takes the max over the chunks, then sums l and acc weighed by exp(m_c - m).
// CHECK: } else {
// CHECK: %[[T127:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK-NEXT: %[[CHUNKS:.*]] = arith.divui %[[T127]], %{{.*}} : index
// CHECK-NEXT: %[[BH:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK-NEXT: %[[SGRID:.*]] = arith.muli %[[BH]], %[[CHUNKS]] : index
// CHECK: tir.for %[[BLK:.*]] = %{{.*}} to %[[SGRID]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" name = "kv_chunks" {
// CHECK-NEXT: %[[CHUNK:.*]] = arith.remui %[[BLK]], %[[CHUNKS]] : index
// CHECK: %[[BEGIN:.*]] = arith.muli %[[CHUNK]], %{{.*}} : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[BEGIN]], %{{.*}} : index
// CHECK: %[[CEND:.*]] = arith.minui %[[T]], %[[NEXT]] : index
// CHECK: %[[CSEEN:.*]] = arith.minui %[[CEND]], %{{.*}} : index
// CHECK: %[[VEND:.*]] = arith.select %{{.*}}, %[[CEND]], %[[CSEEN]] : index
// CHECK: %[[COUNT:.*]] = arith.subi %[[VEND]], %[[BEGIN]] : index
// CHECK: %[[ANY:.*]] = arith.cmpi ult, %[[BEGIN]], %[[VEND]] : index
// CHECK: arith.select %[[ANY]], %[[COUNT]], %{{.*}} : index
// CHECK: name = "kv_tiles"
// CHECK: %[[JT:.*]] = arith.muli
// CHECK-NEXT: arith.addi %[[BEGIN]], %[[JT]] : index
// CHECK: tir.store %{{.*}}, %[[PM]][
// CHECK: tir.store %{{.*}}, %[[PL]][
// CHECK: tir.store %{{.*}}, %[[PO]][
// CHECK-NOT: %arg3
// CHECK: thread = "blockIdx.x" name = "combine_chunks" {
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[CHUNKS]] step
// CHECK: tir.load %[[PM]][
// CHECK: arith.maximumf
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[CHUNKS]] step
// CHECK: %[[W:.*]] = math.exp
// CHECK: tir.load %[[PL]][
// CHECK: arith.mulf %{{.*}}, %[[W]] : f32
// CHECK: tir.load %[[PO]][
// CHECK: arith.mulf %{{.*}}, %[[W]] : f32
// CHECK: %[[OUT:.*]] = arith.divf
// CHECK: tir.store %[[OUT]], %arg3[
relax.func @causal(%q: !relax.tensor<[b, s, 4, 16], f32>, %k: !relax.tensor<[b, t, 2, 16], f32>,
                   %v: !relax.tensor<[b, t, 2, 8], f32>) -> !relax.tensor<[b, s, 4, 8], f32> {
  %y = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[b, s, 4, 16], f32>, !relax.tensor<[b, t, 2, 16], f32>, !relax.tensor<[b, t, 2, 8], f32>) -> !relax.tensor<[b, s, 4, 8], f32>
  relax.return %y : !relax.tensor<[b, s, 4, 8], f32>
}

// -----

// Not causal, scale 0.5, f16 with d = dv = 128: tensor cores (the pass's
// default; FlashAttentionTensorCore.cpp). Shared tiles in f16, rows padded
// by 8: Q 32 x 136, K and V two stages of 32 x 136 each (V in its global
// layout, keys by columns: the k-by-n B of P V). Registers (block-level
// local buffers): 32 accumulators per lane (a warp's 16 rows by 64
// columns: 8 m16n8 fragments), the 16 scores of the warp's 16 x 32 tile,
// P (16 f16: the A fragments of two 16-key steps), and m, l and the
// rescale factor of the lane's 2 rows. Q and the first K / V tile are
// staged by 16-byte tir.copy_async (zero past s and t); in the key loop
// the thread loop of tile jt starts the copies of tile jt + 1 into stage
// (jt + 1) % 2 (under jt + 1 < tiles), multiplies Q by K of stage jt % 2
// (4 tir.mma_sync per 16 of d: the warp's 32 keys), takes each fragment
// row's max over its 4 lanes (gpu.subgroup_reduce, cluster of 4), rounds
// P to f16 in registers and multiplies it, as the A operand from
// registers, by V of stage jt % 2 (2 x 8 tir.mma_sync, b_k_by_n), then
// waits for its copies. After the key loop the lanes' partial sums are
// reduced over the row's 4 lanes; O is rounded once. Every key tile is
// visited, ceildiv(t, 32).
// HINT-LABEL: tir.prim_func private @attention(
// HINT-SAME: tir.attention = {causal = false, scale = 5.000000e-01 : f64}
// CHECK-LABEL: tir.prim_func private @attention(
// CHECK: %[[T:.*]] = tir.sym_var "t"
// CHECK: scf.if
// CHECK-NOT: arith.minui
// CHECK: %[[T31:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.divui %[[T31]], %{{.*}} : index
// CHECK: %[[Q:.*]] = tir.alloc : !tir.buffer<[32, 136], f16, shared>
// CHECK-NEXT: %[[K:.*]] = tir.alloc : !tir.buffer<[2, 32, 136], f16, shared>
// CHECK-NEXT: %[[V:.*]] = tir.alloc : !tir.buffer<[2, 32, 136], f16, shared>
// CHECK-NEXT: %[[ACC:.*]] = tir.alloc : !tir.buffer<[32], f32, local>
// CHECK-NEXT: %[[S:.*]] = tir.alloc : !tir.buffer<[16], f32, local>
// CHECK-NEXT: %[[P:.*]] = tir.alloc : !tir.buffer<[16], f16, local>
// CHECK-NEXT: tir.alloc : !tir.buffer<[6], f32, local>
// CHECK-NOT: arith.extf %{{.*}} : f16 to f32
// CHECK: tir.copy_async %[[Q]][%{{.*}}, %{{.*}}], %arg0[{{.*}}], %{{.*}} {lanes = 8 : i64}
// CHECK: tir.copy_async %[[K]][%[[ZERO:.*]], %{{.*}}, %{{.*}}], %arg1[{{.*}}], %{{.*}} {lanes = 8 : i64}
// CHECK: tir.copy_async %[[V]][%[[ZERO]], %{{.*}}, %{{.*}}], %arg2[{{.*}}], %{{.*}} {lanes = 8 : i64}
// CHECK: tir.copy_async_wait
// CHECK: tir.for %[[JT:.*]] = %{{.*}} to %[[TILES]] step %{{.*}} name = "kv_tiles" {
// CHECK: %[[CUR:.*]] = arith.remui %[[JT]], %{{.*}} : index
// CHECK: %[[JT1:.*]] = arith.addi %[[JT]], %{{.*}} : index
// CHECK: %[[NEXT:.*]] = arith.remui %[[JT1]], %{{.*}} : index
// CHECK: thread = "threadIdx.x"
// CHECK: %[[MORE:.*]] = arith.cmpi ult, %[[JT1]], %[[TILES]] : index
// CHECK: scf.if %[[MORE]] {
// CHECK: tir.copy_async %[[K]][%[[NEXT]], %{{.*}}, %{{.*}}], %arg1[
// CHECK: tir.copy_async %[[V]][%[[NEXT]], %{{.*}}, %{{.*}}], %arg2[
// CHECK-COUNT-4: tir.mma_sync %{{.*}}, %[[S]][%{{.*}}], %[[Q]][%{{.*}}, %{{.*}}], %[[K]][%[[CUR]], %{{.*}}, %{{.*}}] :
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK-NOT: arith.cmpi ule
// CHECK: gpu.subgroup_reduce maximumf %{{.*}} uniform cluster(size = 4)
// CHECK: gpu.subgroup_reduce maximumf %{{.*}} uniform cluster(size = 4)
// CHECK: math.exp
// CHECK: %[[PH:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: tir.store %[[PH]], %[[P]][
// CHECK-NEXT: arith.extf %[[PH]] : f16 to f32
// CHECK-COUNT-16: tir.mma_sync %{{.*}}, %[[ACC]][%{{.*}}], %[[P]][%{{.*}}], %[[V]][%[[CUR]], %{{.*}}, %{{.*}}] b_k_by_n :
// CHECK-NOT: tir.mma_sync
// CHECK: tir.copy_async_wait
// CHECK: thread = "threadIdx.x"
// CHECK: gpu.subgroup_reduce add %{{.*}} uniform cluster(size = 4)
// CHECK: gpu.subgroup_reduce add %{{.*}} uniform cluster(size = 4)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: name = "kv_chunks"
relax.func @half(%q: !relax.tensor<[1, s, 8, 128], f16>, %k: !relax.tensor<[1, t, 8, 128], f16>,
                 %v: !relax.tensor<[1, t, 8, 128], f16>) -> !relax.tensor<[1, s, 8, 128], f16> {
  %y = relax.attention %q, %k, %v {scale = 0.5 : f64} : (!relax.tensor<[1, s, 8, 128], f16>, !relax.tensor<[1, t, 8, 128], f16>, !relax.tensor<[1, t, 8, 128], f16>) -> !relax.tensor<[1, s, 8, 128], f16>
  relax.return %y : !relax.tensor<[1, s, 8, 128], f16>
}

// -----

// Static lengths decide when the program is scheduled. A decode step (s = 1,
// 8 query heads over 2: 4 rows per kv head) over 1000 keys: only the split
// kernels, no scf.if; partial buffers of 2 * 2 * 8 chunks * 4 rows; grid
// 2 * 2 * 8; the output (f16) is written by the combine kernel only.
// HINT-LABEL: tir.prim_func private @attention(
// HINT-SAME: tir.attention = {causal = true}
// HINT-LABEL: tir.prim_func private @attention_2(
// HINT-SAME: tir.attention = {causal = false}
// CHECK-LABEL: tir.prim_func private @attention(
// CHECK-NOT: scf.if
// CHECK-NOT: q_tiles
// CHECK: tir.alloc : !tir.buffer<[128], f32>
// CHECK-NEXT: tir.alloc : !tir.buffer<[128], f32>
// CHECK-NEXT: tir.alloc : !tir.buffer<[128, 64], f32>
// CHECK: %[[BH:.*]] = arith.muli %c2, %c2{{.*}} : index
// CHECK-NEXT: %[[GRID:.*]] = arith.muli %[[BH]], %c8{{.*}} : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[GRID]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" name = "kv_chunks" {
// CHECK-NOT: %arg3
// CHECK: name = "combine_chunks"
// CHECK: arith.truncf %{{.*}} : f32 to f16
// Prefill lengths (s = 40: 80 rows per kv head) or at most one chunk of keys
// (t = 128): the one kernel only.
// CHECK-LABEL: tir.prim_func private @attention_1(
// CHECK-NOT: scf.if
// CHECK: name = "q_tiles"
// CHECK-NOT: kv_chunks
// CHECK-LABEL: tir.prim_func private @attention_2(
// CHECK-NOT: scf.if
// CHECK: name = "q_tiles"
// CHECK-NOT: kv_chunks
relax.func @decode(%q: !relax.tensor<[2, 1, 8, 64], f16>, %k: !relax.tensor<[2, 1000, 2, 64], f16>,
                   %v: !relax.tensor<[2, 1000, 2, 64], f16>, %qp: !relax.tensor<[2, 40, 8, 64], f16>,
                   %k128: !relax.tensor<[2, 128, 2, 64], f16>)
    -> (!relax.tensor<[2, 1, 8, 64], f16>, !relax.tensor<[2, 40, 8, 64], f16>, !relax.tensor<[2, 1, 8, 64], f16>) {
  %y0 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[2, 1, 8, 64], f16>, !relax.tensor<[2, 1000, 2, 64], f16>, !relax.tensor<[2, 1000, 2, 64], f16>) -> !relax.tensor<[2, 1, 8, 64], f16>
  %y1 = relax.attention %qp, %k, %v {causal = true} : (!relax.tensor<[2, 40, 8, 64], f16>, !relax.tensor<[2, 1000, 2, 64], f16>, !relax.tensor<[2, 1000, 2, 64], f16>) -> !relax.tensor<[2, 40, 8, 64], f16>
  %y2 = relax.attention %q, %k128, %k128 : (!relax.tensor<[2, 1, 8, 64], f16>, !relax.tensor<[2, 128, 2, 64], f16>, !relax.tensor<[2, 128, 2, 64], f16>) -> !relax.tensor<[2, 1, 8, 64], f16>
  relax.return %y0, %y1, %y2 : !relax.tensor<[2, 1, 8, 64], f16>, !relax.tensor<[2, 40, 8, 64], f16>, !relax.tensor<[2, 1, 8, 64], f16>
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
