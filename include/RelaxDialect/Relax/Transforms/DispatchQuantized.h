//===- DispatchQuantized.h - Library calls for quantized products -*- C++
//-*-===//
//
// The part of --relax-dispatch-library that sends products with
// relax.dequantize'd weights to the quantized-linear built-ins
// (docs/quantization.md), in a file of its own.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_DISPATCHQUANTIZED_H
#define RELAXDIALECT_RELAX_TRANSFORMS_DISPATCHQUANTIZED_H

#include "RelaxDialect/Extern/IR/Builtins.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace relax {

/// `x * W^T` where W = relax.dequantize(q, scales[, zeros]) or
/// relax.dequantize_tiles(tiles) (the tiles as the weight operand): a
/// relax.linear
/// of the dequantized weight (with or without a bias) or a relax.matmul of
/// its transpose. On the CPU, `op` becomes one relax.call_dps_packed of the
/// quantized-linear built-in (declared in `module`) on q and the scales as
/// they are stored, so the f32 weight never exists; the dequantize (and
/// the transpose) are erased when nothing else reads them. Returns whether
/// `op` was replaced; fails only when the declaration cannot be made.
/// `activations` picks the `_a8` built-ins.
FailureOr<bool> dispatchQuantizedProduct(RewriterBase &rewriter,
                                         ModuleOp module, Operation *op,
                                         ext::BuiltinTarget target,
                                         ext::QuantActivations activations);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_DISPATCHQUANTIZED_H
