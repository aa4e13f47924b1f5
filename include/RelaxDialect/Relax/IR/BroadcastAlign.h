//===- BroadcastAlign.h - Operands aligned by the importers ---*- C++ -*-===//
//
// Shared by the ONNX and TOSA importers, which build relax elementwise ops
// from operands whose symbolic dims relax may not be able to match.
//
//===----------------------------------------------------------------------===//

#ifndef RELAXDIALECT_RELAX_IR_BROADCASTALIGN_H
#define RELAXDIALECT_RELAX_IR_BROADCASTALIGN_H

#include "RelaxDialect/Symbolic/SymbolicExpr.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::relax {

/// The shape an importer aligns elementwise operands to before building a
/// relax op (numpy broadcasting, right-aligned). Operand dims relax cannot
/// match at compile time (`[a, 6]` and `[b, 6]`: equal, or one of them 1,
/// only at run time) would give the op a `?` result dim, which legalization
/// refuses; each such dim becomes `max(a, b)` here, and the caller
/// broadcast_to's every operand whose dims differ from the result (the op
/// checks at run time that each dim is 1 or the result's). Returns
/// std::nullopt when no operand needs that: every dim is decided, or one is
/// already `?` (left to inference, which names or reports it).
std::optional<llvm::SmallVector<sym::Expr>>
undecidedBroadcastDims(
    llvm::ArrayRef<llvm::SmallVector<sym::Expr>> operandDims);

} // namespace mlir::relax

#endif // RELAXDIALECT_RELAX_IR_BROADCASTALIGN_H
