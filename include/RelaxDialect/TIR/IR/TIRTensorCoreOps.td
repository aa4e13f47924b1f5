//===- TIRTensorCoreOps.td - tir ops of GPU tensor-core kernels -*- tablegen -*-===//
//
// The warp-level tensor-core product and the asynchronous copies that stage
// its tiles (TensorCoreMatmul.cpp). They are tir ops like those of
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
    nothing elsewhere.

    ```mlir
    tir.copy_async_wait
    ```
  }];
  let assemblyFormat = "attr-dict";
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

    In a GPU thread (inside a loop bound to a thread axis),
    `convert-tir-to-scf` makes the op one
    `nvvm.mma.sync`, with the A and B fragments read as 32-bit pairs: all
    32 lanes of the warp must execute it together with `lane` the lane's
    index in its warp, `a` and `b` must be `shared` buffers, and their
    column offsets and row lengths even. Elsewhere it is a loop nest.

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
                       Variadic<Index>:$bIndices);
  let assemblyFormat = [{
    $lane `,` $acc `[` $accIndices `]` `,` $a `[` $aIndices `]` `,`
    $b `[` $bIndices `]` attr-dict `:` qualified(type($acc)) `,`
    qualified(type($a)) `,` qualified(type($b))
  }];
  let hasVerifier = 1;
}


#endif // TIR_TENSOR_CORE_OPS_TD
