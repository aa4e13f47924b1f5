//===- ConvPrivateLayout.h - Tensors private to the convolutions -*- C++
//-*-===//
//
// A fused convolution call may write its output in a layout that only the
// fused convolution built-ins understand (oneDNN's blocked layout, chosen
// by the runtime from the CPU; the tensor's type stays NHWC). Two
// discardable attributes state that contract on relax.call_dps_packed and
// the function verifier checks it, so that no other op ever reads such a
// tensor as if it were NHWC.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_CONVPRIVATELAYOUT_H
#define RELAXDIALECT_RELAX_IR_CONVPRIVATELAYOUT_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"

namespace mlir {
namespace relax {

/// Unit attribute of a relax.call_dps_packed whose one result is in the
/// conv-private layout.
constexpr llvm::StringLiteral kConvPrivateResultAttr =
    "relax.conv_private_result";

/// array<i64> attribute of a relax.call_dps_packed: the operands it reads
/// in the conv-private layout.
constexpr llvm::StringLiteral kConvPrivateOperandsAttr =
    "relax.conv_private_operands";

/// Checks that every use of a conv-private result is an operand its user
/// declares in kConvPrivateOperandsAttr, and that every operand declared so
/// is such a result.
LogicalResult verifyConvPrivateLayouts(FuncOp func);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_IR_CONVPRIVATELAYOUT_H
