//===- TIRVectorOps.td - tir vector loads and stores -------*- tablegen -*-===//
//
// Accesses of several consecutive elements at once: the 128-bit global
// loads and stores of the GPU schedules (WideAccess.cpp). They are tir ops
// like those of TIROps.td; they sit in their own file so that only the
// code that builds or lowers them includes their declarations
// (TIRVectorOps.h).
//
//===----------------------------------------------------------------------===//
#ifndef TIR_VECTOR_OPS_TD
#define TIR_VECTOR_OPS_TD

include "RelaxDialect/TIR/IR/TIRBase.td"
include "RelaxDialect/TIR/IR/TIRTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TIR_VectorLoadOp : TIR_Op<"vector_load"> {
  let summary = "Reads consecutive buffer elements as one vector";
  let description = [{
    Reads the `N` elements that follow the addressed one in row-major order
    (`buf[i, j]`, `buf[i, j + 1]`, ..., continuing into the next rows: every
    buffer is dense) as a `vector<N x dtype>`. `alignment` (bytes, a power
    of two) is what the schedule proved about the address: on the GPU a
    16-byte aligned read of 16 bytes is one 128-bit load (`ld.global.v4.f32`,
    `LDG.E.128`). The op does not check it: a misaligned address is
    undefined behaviour, as for `vector.load`.

    ```mlir
    %v = tir.vector_load %w[%n, %k] {alignment = 16 : i64}
        : !tir.buffer<[n, k], f32> -> vector<4xf32>
    ```
  }];
  let arguments = (ins Arg<TIR_BufferType, "", [MemRead]>:$buffer,
                       Variadic<Index>:$indices,
                       OptionalAttr<I64Attr>:$alignment);
  let results = (outs VectorOfRankAndType<[1], [AnyType]>:$result);
  let assemblyFormat = [{
    $buffer `[` $indices `]` attr-dict `:` qualified(type($buffer)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TIR_VectorStoreOp : TIR_Op<"vector_store"> {
  let summary = "Writes a vector to consecutive buffer elements";
  let description = [{
    The store twin of `tir.vector_load`: the `N` lanes of `value` go to the
    addressed element and the `N - 1` that follow it in row-major order.

    ```mlir
    tir.vector_store %v, %out[%i] {alignment = 16 : i64}
        : vector<4xf32>, !tir.buffer<[n], f32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [AnyType]>:$value,
                       Arg<TIR_BufferType, "", [MemWrite]>:$buffer,
                       Variadic<Index>:$indices,
                       OptionalAttr<I64Attr>:$alignment);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` attr-dict `:` type($value) `,`
    qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

#endif // TIR_VECTOR_OPS_TD
