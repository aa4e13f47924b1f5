//===- GemmLibraryRule.h - Generated GEMM kernel or cuBLAS ------*- C++ -*-===//
//
// The size rule of relax-dispatch-library's `library-gemms=by-size` (the
// default for target=cuda), documented in docs/gpu.md "Generated kernel or
// cuBLAS".
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_GEMMLIBRARYRULE_H
#define RELAXDIALECT_RELAX_TRANSFORMS_GEMMLIBRARYRULE_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"

namespace mlir {
namespace relax {

/// The smallest sizes at which the library takes a product: M (every row
/// of the product, batch dims included), N and K.
constexpr int64_t kLibraryMinRows = 256;
constexpr int64_t kLibraryMinCols = 1024;
constexpr int64_t kLibraryMinDepth = 1024;

/// Whether the product `op` (a relax.matmul or relax.linear) of `lhs` (its
/// rows by K) into `product` (its rows by N, before any bias) goes to the
/// library: M >= 256, N >= 1024 and K >= 1024, each proven under the
/// symbolic facts at `op` (a symbolic M such as a sequence length, 1 in
/// decode, is not), and nothing fuses with it: no bias (`hasBias`), no
/// operand from relax.dequantize, and the product's only reader is not an
/// elementwise op (a binary op with broadcasting or a one-operand op of the
/// product's shape: what relax-fuse-ops would merge into the generated
/// kernel's epilogue).
bool preferLibraryGemm(Operation *op, RelaxTensorType lhs,
                       RelaxTensorType product, bool hasBias);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_GEMMLIBRARYRULE_H
