//===- TIRTensorCoreOps.td - tir ops of GPU tensor-core kernels -*- tablegen -*-===//
//
// The warp-level (mma.sync) and warpgroup-level (wgmma, sm_90a) tensor-core
// products and the asynchronous copies that stage their tiles
// (TensorCoreMatmul.cpp). They are tir ops like those of
// TIROps.td; they sit in their own file so that only the code that builds
// or lowers them includes their declarations (TIRTensorCoreOps.h).
//
//===----------------------------------------------------------------------===//
#ifndef TIR_TENSOR_CORE_OPS_TD
#define TIR_TENSOR_CORE_OPS_TD

include "RelaxDialect/TIR/IR/TIRBase.td"
include "RelaxDialect/TIR/IR/TIRTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

def TIR_CopyAsyncOp : TIR_Op<"copy_async", [AttrSizedOperandSegments]> {
  let summary = "Starts a copy of consecutive elements into shared memory";
  let description = [{
    `dst[..., d + l] = in_bounds ? src[..., s + l] : 0` for `l < lanes`
    along the last dim of both buffers, done by the time the thread passes
    its next `tir.copy_async_wait`. On the GPU it is one `cp.async` of
    `lanes * element bytes` (4, 8 or 16 bytes; 16 bypasses L1) that fills
    zeros when out of bounds without reading `src`: the element offsets of
    both ends must be multiples of `lanes` (aligned), `dst` must be
    `shared`. Elsewhere it is a copy loop.

    ```mlir
    tir.copy_async %sa[%r, %c], %a[%i, %k], %in {lanes = 8 : i64}
        : !tir.buffer<[64, 40], f16, shared>, !tir.buffer<[m, 4096], f16>
    ```
  }];
  let arguments = (ins Arg<TIR_BufferType, "", [MemWrite]>:$dst,
                       Variadic<Index>:$dstIndices,
                       Arg<TIR_BufferType, "", [MemRead]>:$src,
                       Variadic<Index>:$srcIndices,
                       I1:$inBounds,
                       I64Attr:$lanes);
  let assemblyFormat = [{
    $dst `[` $dstIndices `]` `,` $src `[` $srcIndices `]` `,` $inBounds
    attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def TIR_CopyAsyncWaitOp : TIR_Op<"copy_async_wait"> {
  let summary = "Waits for the thread's tir.copy_async copies";
  let description = [{
    After it, what this thread's earlier `tir.copy_async` ops wrote is in
    place (for other threads, after the barrier that follows the thread
    loop). `cp.async.commit_group` + `cp.async.wait_group 0` on the GPU,
    nothing elsewhere. With `async_proxy`, also `fence.proxy.async` (sm_90
    and later): the thread's shared-memory writes, by `tir.copy_async` or
    plain stores, become visible to the tensor cores' asynchronous reads
    (`tir.wgmma`) once a barrier has followed.

    ```mlir
    tir.copy_async_wait
    tir.copy_async_wait async_proxy
    ```
  }];
  let arguments = (ins UnitAttr:$asyncProxy);
  let assemblyFormat = "(`async_proxy` $asyncProxy^)? attr-dict";
}

def TIR_MmaSyncOp : TIR_Op<"mma_sync", [AttrSizedOperandSegments]> {
  let summary = "One lane's share of a warp's 16x8x16 tensor-core product";
  let description = [{
    The warp-level `mma.sync.m16n8k16` of sm_80 and later (f16 or bf16
    inputs, f32 accumulation), written as what each lane computes so that
    a serial run of the thread loops (the CPU emulation of GPU schedules)
    gives the GPU's result.

    With `g = lane / 4` and `q = lane % 4`, for `i` in `0..3`:

    ```
    acc[..., c + i] += sum_{k < 16} f32(a[r0 + g + 8 * (i / 2), k0 + k])
                                  * f32(b[n0 + 2 * q + i % 2, k0 + k])
    ```

    where `acc[..., c]` is the accumulator element the `acc` indices name
    (its last index is the first of four consecutive elements), `a[r0, k0]`
    the corner of a 16 x 16 tile of A (rows by k) and `b[n0, k0]` that of an
    8 x 16 tile of B stored n by k (the "col" operand of the instruction,
    k contiguous). `a` and `b` may have leading dims (stages of a
    multi-buffered tile), which their leading indices fix. The four elements are the lane's accumulator fragment of
    the 16 x 8 output tile: rows `g` and `g + 8`, columns `2q` and `2q + 1`.
    The order of the sum over k is not specified (the GPU's adders differ
    from a serial sum within f32 rounding).

    With `b_k_by_n`, `b` is stored k by n instead (row-major B, as the V
    tile of attention is laid out in memory): `b[k0 + k, n0 + n]` with
    `b[k0, n0]` the corner.

    A `local` `a` is the A operand in registers: each lane holds its A
    fragment, 8 consecutive elements from the index `a`'s indices name,
    in the PTX ISA's order (pairs `j = 0..3` of
    `A[g + 8 * (j % 2)][2q + 8 * (j / 2) + e]`, e = 0, 1), and the warp's A is
    the union of its lanes' fragments. That is the layout of two adjacent
    accumulator fragments (16 x 8 tiles n and n + 1) rounded to f16 /
    bf16, so a product's result feeds the next product without a trip
    through shared memory. Off the GPU a lane reads the other lanes'
    fragments, so `a` must then carry the leading per-thread dim that
    `--tir-test-gpu-as-serial` gives block-level `local` buffers: lane
    `l`'s fragment is at first index `thread - lane + l`.

    In a GPU thread (inside a loop bound to a thread axis),
    `convert-tir-to-scf` makes the op one
    `nvvm.mma.sync`, with the A and B fragments read as 32-bit pairs (a
    k-by-n B as two 16-bit loads per pair): all
    32 lanes of the warp must execute it together with `lane` the lane's
    index in its warp, `a` must be a `shared` or `local` buffer and `b` a
    `shared` one, and their column offsets and row lengths even. Elsewhere
    it is a loop nest.

    ```mlir
    tir.mma_sync %lane, %acc[%c], %sa[%r, %k], %sb[%n, %k]
        : !tir.buffer<[32], f32, local>, !tir.buffer<[64, 40], f16, shared>,
          !tir.buffer<[64, 40], f16, shared>
    ```
  }];
  let arguments = (ins Index:$lane,
                       Arg<TIR_BufferType, "", [MemRead, MemWrite]>:$acc,
                       Variadic<Index>:$accIndices,
                       Arg<TIR_BufferType, "", [MemRead]>:$a,
                       Variadic<Index>:$aIndices,
                       Arg<TIR_BufferType, "", [MemRead]>:$b,
                       Variadic<Index>:$bIndices,
                       UnitAttr:$bKByN);
  let assemblyFormat = [{
    $lane `,` $acc `[` $accIndices `]` `,` $a `[` $aIndices `]` `,`
    $b `[` $bIndices `]` (`b_k_by_n` $bKByN^)? attr-dict `:`
    qualified(type($acc)) `,` qualified(type($a)) `,` qualified(type($b))
  }];
  let hasVerifier = 1;
}

def TIR_WgmmaOp : TIR_Op<"wgmma", [AttrSizedOperandSegments]> {
  let summary = "One thread's share of a warpgroup's 64xNxK tensor-core product";
  let description = [{
    The warpgroup-level `wgmma.mma_async.m64nNk16` of sm_90a (f16 or bf16
    operands read from shared memory through matrix descriptors, f32
    accumulators in registers), `k / 16` of them chained, written as what
    each of the warpgroup's 128 threads computes, so that a serial run of
    the thread loops (the CPU emulation of GPU schedules) gives the GPU's
    result.

    The operands are tiles in the layout the descriptors of the
    non-swizzled ("interleave") mode address: buffers whose last four dims
    are `[K / 8, R / 8, 8, 8]` (core-matrix column along k, core-matrix row
    along the M or N rows, row in the core matrix, k in the core matrix),
    i.e. 8 x 8 core matrices of 128 contiguous bytes. `A(r, k)` below is
    `a[lead.., kc + k / 8, rc + r / 8, r % 8, k % 8]` where `[lead.., kc,
    rc]` are the `a` indices (one per dim but the last two), and `B(n, k)`
    likewise from `b`, stored n by k (K-major, the instruction's default).

    With `w = thread / 32` (the warp), `g = (thread % 32) / 4`,
    `q = thread % 4`, for `j < n / 8` and `i < 4`:

    ```
    acc[..., c + 4 j + i] += sum_{k' < k} f32(A(16 w + g + 8 (i / 2), k'))
                                        * f32(B(8 j + 2 q + i % 2, k'))
    ```

    where `acc[..., c]` is the accumulator element the `acc` indices name
    (the thread's `n / 2` accumulators are consecutive from there): the
    accumulator fragment of the PTX ISA's m64nNk16 layout. The order of the
    sum over k is not specified.

    In a GPU thread, `convert-tir-to-scf` makes it `wgmma.fence`, `k / 16`
    `wgmma.mma_async` whose descriptors encode the tiles' shared-memory
    addresses and core-matrix strides, `wgmma.commit_group` and
    `wgmma.wait_group 0`, after a `fence.proxy.async` that makes the
    threads' earlier shared-memory writes visible to the tensor cores. All
    128 threads of the warpgroup must execute it together with `thread`
    their index in the warpgroup; `a` and `b` must be `shared` buffers of a
    static shape. Elsewhere it is a loop nest that reads the tiles through
    the same descriptor fields.

    ```mlir
    tir.wgmma %t, %acc[%c0], %sa[%s, %c0, %c0], %sb[%s, %c0, %c0]
        {n = 128 : i64, k = 32 : i64}
        : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>,
          !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
    ```
  }];
  let arguments = (ins Index:$thread,
                       Arg<TIR_BufferType, "", [MemRead, MemWrite]>:$acc,
                       Variadic<Index>:$accIndices,
                       Arg<TIR_BufferType, "", [MemRead]>:$a,
                       Variadic<Index>:$aIndices,
                       Arg<TIR_BufferType, "", [MemRead]>:$b,
                       Variadic<Index>:$bIndices,
                       I64Attr:$n, I64Attr:$k);
  let assemblyFormat = [{
    $thread `,` $acc `[` $accIndices `]` `,` $a `[` $aIndices `]` `,`
    $b `[` $bIndices `]` attr-dict `:` qualified(type($acc)) `,`
    qualified(type($a)) `,` qualified(type($b))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA loads and mbarriers (sm_90)
//===----------------------------------------------------------------------===//

def TIR_MbarrierInitOp : TIR_Op<"mbarrier_init"> {
  let summary = "Initialises an mbarrier of shared memory";
  let description = [{
    Sets the mbarrier `barriers[index]` (a 64-bit word of shared memory) to
    phase 0, expecting `count` arrivals per phase and no transaction bytes.
    One thread runs it, before the barrier that precedes any other use
    (`mbarrier.init.shared.b64` on the GPU, nothing elsewhere: off the GPU
    every `tir.tma_load` is done when it returns).

    ```mlir
    tir.mbarrier_init %bars[%c0] {count = 1 : i64} : !tir.buffer<[2], i64, shared>
    ```
  }];
  let arguments = (ins Arg<TIR_BufferType, "", [MemWrite]>:$barriers,
                       Index:$index, I64Attr:$count);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def TIR_MbarrierArriveExpectTxOp : TIR_Op<"mbarrier_arrive_expect_tx"> {
  let summary = "Arrives on an mbarrier, announcing the bytes still to come";
  let description = [{
    Adds `bytes` to the transaction count the current phase of
    `barriers[index]` waits for, then arrives on it (release semantics).
    The thread that issues a phase's `tir.tma_load` ops runs it with the
    sum of their boxes' bytes (a box always delivers all its bytes, zeros
    included where it leaves the tensor); the phase completes when every
    expected arrival has happened and those bytes have landed.
    `mbarrier.arrive.expect_tx.shared.b64` on the GPU, nothing elsewhere.

    ```mlir
    tir.mbarrier_arrive_expect_tx %bars[%s] {bytes = 8192 : i64}
        : !tir.buffer<[2], i64, shared>
    ```
  }];
  let arguments = (ins Arg<TIR_BufferType, "", [MemRead, MemWrite]>:$barriers,
                       Index:$index, I64Attr:$bytes);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def TIR_MbarrierWaitOp : TIR_Op<"mbarrier_wait"> {
  let summary = "Waits until an mbarrier's phase of the given parity completes";
  let description = [{
    Returns once the phase of `barriers[index]` whose parity is `phase` (0
    or 1: phases alternate) has completed; what the `tir.tma_load` ops
    counted on that phase wrote is then visible to the thread (acquire
    semantics). A double-buffered pipeline gives each stage its own mbarrier
    and flips that stage's parity each time it reuses it. On the GPU a loop
    of `mbarrier.try_wait.parity.shared.b64`, nothing elsewhere.

    ```mlir
    tir.mbarrier_wait %bars[%s], %parity : !tir.buffer<[2], i64, shared>
    ```
  }];
  // A write as well as a read: the wait orders the thread's later accesses
  // after the copies (and a read-only op without results would be dead).
  let arguments = (ins Arg<TIR_BufferType, "", [MemRead, MemWrite]>:$barriers,
                       Index:$index, Index:$phase);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $phase attr-dict `:`
    qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def TIR_TmaLoadOp : TIR_Op<"tma_load", [AttrSizedOperandSegments]> {
  let summary = "Starts a TMA copy of a box of a global tensor into shared memory";
  let description = [{
    Copies the box whose corner is `src[srcIndices]` (one index per dim of
    `src`, a global buffer) and whose extent is the trailing `rank(src)`
    dims of `dst` (static, 1 to 256 each) into `dst[dstIndices, ...]` (the
    leading indices pick e.g. the stage); elements of the box outside `src`
    are written as zero. The box is laid out row-major (the last dim
    contiguous) and, with `swizzle` = 32, 64 or 128, each 16-byte chunk of
    it moves within its `swizzle`-byte row: byte offset `o` of the box lands
    at `o ^ (((o >> 7) & (swizzle / 16 - 1)) << 4)`, the layout of the PTX
    ISA's swizzle modes (the last dim of the box, in bytes, must then not
    exceed `swizzle`, and on the GPU the tile must sit on a `8 * swizzle`
    byte boundary).

    On the GPU, one thread issues it as one `cp.async.bulk.tensor`
    (`UTMALDG`) through `tensor_map`, the 64-bit generic address of a tensor
    map the host encoded for `src` with this box and swizzle
    (relax_rt_cuda_tensor_map_encode); the copy's bytes are counted on the
    mbarrier `barriers[barrierIndex]`, and the data may be read once that
    mbarrier's phase completed (`tir.mbarrier_arrive_expect_tx`,
    `tir.mbarrier_wait`). Elsewhere (the CPU emulation of GPU schedules) it
    is loops that read the box exactly as the tensor map describes it,
    zeros and swizzle included, and `tensor_map` is not used.

    ```mlir
    tir.tma_load %sa[%s], %a[%i, %k], %bars[%s], %map {swizzle = 0 : i64}
        : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>,
          !tir.buffer<[2], i64, shared>
    ```
  }];
  let arguments = (ins Arg<TIR_BufferType, "", [MemWrite]>:$dst,
                       Variadic<Index>:$dstIndices,
                       Arg<TIR_BufferType, "", [MemRead]>:$src,
                       Variadic<Index>:$srcIndices,
                       Arg<TIR_BufferType, "", [MemRead, MemWrite]>:$barriers,
                       Index:$barrierIndex,
                       I64:$tensorMap,
                       DefaultValuedAttr<I64Attr, "0">:$swizzle);
  let assemblyFormat = [{
    $dst `[` $dstIndices `]` `,` $src `[` $srcIndices `]` `,`
    $barriers `[` $barrierIndex `]` `,` $tensorMap attr-dict `:`
    qualified(type($dst)) `,` qualified(type($src)) `,`
    qualified(type($barriers))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The box: the trailing rank(src) dims of dst, outermost first.
    ::llvm::SmallVector<int64_t> getBox();
    /// The bytes one copy delivers (what its mbarrier phase expects).
    int64_t getBoxBytes();
  }];
}

#endif // TIR_TENSOR_CORE_OPS_TD
