//===- Passes.td - tir transformations ---------------------*- tablegen -*-===//
//
// Production tir passes. The test-only passes (tir-test-schedule,
// tir-test-gpu-as-serial) live in test/lib/TIR.
//
//===----------------------------------------------------------------------===//
#ifndef TIR_TRANSFORMS_PASSES_TD
#define TIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TIRCPUDefaultSchedule : Pass<"tir-cpu-default-schedule", "ModuleOp"> {
  let summary = "Default CPU schedule: run consumers inside their producer's "
                "loop and keep their intermediates per iteration";
  let description = [{
    For every `tir.prim_func` (a fused program holds several loop nests in
    sequence):
    - moves the pure top-level ops (constants, `tir.sym_var`, index math) to
      the start, so every nest's bounds are available everywhere;
    - for each top-level `tir.alloc` written by one nest and read by one
      block outside it (a matmul and its epilogue), moves that block's nest
      to the end of the producing nest's outermost loop
      (`reverse_compute_at`), so the consumer runs on each row right after
      the row is computed, in the same parallel loop;
    - then shrinks every top-level buffer that one loop alone accesses,
      indexing one dim by the loop's iv, to a per-iteration `local` buffer
      with that dim of extent 1 (`compact`). `local` says per iteration,
      not where: `--convert-tir-to-scf` puts such scratch on the stack only
      when its size is provably bounded within its `max-stack-bytes`, on
      the heap (once per thread) otherwise;
    - a reduction whose reduce loop sits right inside a serial loop over the
      output's last dim (a matmul's `i, j, k`) gets its init moved out
      (`decompose_reduction`) and the two loops swapped (`i, k, j`), so the
      innermost loop walks contiguous memory and vectorises.
    Each step is tried and skipped when its preconditions do not hold; the
    program's results never change.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TIRGPUDefaultSchedule : Pass<"tir-gpu-default-schedule", "ModuleOp"> {
  let summary = "Bind every loop nest of every prim_func to GPU threads";
  let description = [{
    The schedule `--lower-to-gpu` applies when nothing was tuned. Every
    top-level loop nest of a `tir.prim_func` becomes one kernel:

    - matmul-like nests: 16 x 16 shared-memory tiles (`tileMatmul`), or,
      for f16 / bf16 operands accumulated in f32 with `tensor-cores`,
      64 x 64 tiles on tensor cores (`tensorCoreMatmul`, `tir.mma_sync`),
      or with `wgmma` (sm_90a) 128 x 128 tiles of two warpgroups
      (`tir.wgmma`);
      below 4 rows (decode) a GEMV: a warp per output splitting the
      reduction when every input is read along it (128-bit loads when the
      row length is a multiple of 4 f32 / 8 f16; a symbolic one is checked
      by an `scf.if` around a vector and a scalar version), else one
      thread per output; a symbolic row count keeps both under `scf.if`;
    - long reductions (symbolic or >= 64 iterations, one input read along
      them, identity init): one thread block per output element sharing the
      reduction (`crossThreadReduction`), warps combining with shuffles
      (`gpu.subgroup_reduce`) and across warps through one shared buffer;
    - everything else: the leading perfectly nested loops that carry no
      reduction are fused, split by the block size (a tail guard keeps
      symbolic extents that do not divide correct) and bound to
      `blockIdx.x` / `threadIdx.x`; what lies inside runs serially in each
      thread. A nest with no such loop runs in one thread. An injective
      nest that stores one element at its position (a global buffer of the
      loops' extents) first gives each thread 4 f32 / 8 f16 consecutive
      positions, with 128-bit loads and stores for the accesses at that
      position and a scalar tail for a last partial chunk
      (`vectorizeInjective`);
    - the program of an unmasked `relax.attention` (marked `tir.attention`
      by the legalizer; f32 / f16 / bf16, constant head dims): replaced by
      the flash-attention kernel (`flashAttention`): a block per tile of
      query rows of one key/value head, K / V tiles streamed through shared
      memory, online softmax, the output in registers, written once; with
      `tensor-cores`, Q K^T and P V of f16 / bf16 heads (dims multiples
      of 16 up to 128) on `tir.mma_sync`. A decode step over more than 128
      keys (every query row of a kv head in one tile) splits the keys over
      blocks and merges the chunks in a second kernel (flash decoding);
      symbolic lengths keep both versions under an `scf.if`.

    Loops inside a bound nest become serial. Prim_funcs that already bind a
    loop to a thread axis are left as they are.

    ```mlir
    // for i in 0..n, j in 0..4 (spatial) becomes
    tir.for %b = %c0 to %nb step %c1 kind = thread_binding thread = "blockIdx.x" {
      tir.for %t = %c0 to %c256 step %c1 kind = thread_binding thread = "threadIdx.x" {
        // scf.if (b * 256 + t < n * 4) { i, j = divmod(b * 256 + t, 4); ... }
    ```
  }];
  let options = [
    Option<"maxThreads", "max-threads", "int64_t", /*default=*/"256",
           "Threads per block (a multiple of 32, at most 1024)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Schedule f16/bf16 matmuls with f32 accumulation, and the "
           "products of f16/bf16 flash attention, on tensor cores "
           "(mma.sync m16n8k16: sm_80 and later)">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "With tensor-cores, Hopper's warpgroup MMA instead of mma.sync "
           "(wgmma.mma_async m64n128k16, 128 x 128 tiles of two "
           "warpgroups: sm_90a only)">,
    Option<"tma", "tma", "bool", /*default=*/"true",
           "With wgmma, also a version of each matmul kernel whose operands "
           "read along k are loaded by TMA, which the host runs when their "
           "tensor maps can be made (false: only the threads' staging, for "
           "tests and A/B runs)">,
    Option<"wideAccesses", "wide-accesses", "bool", /*default=*/"true",
           "128-bit loads and stores (4 f32 / 8 f16 per access) in the "
           "split-K GEMV and injective kernels where the alignment is "
           "proven or checked">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // TIR_TRANSFORMS_PASSES_TD
