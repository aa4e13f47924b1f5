//===- BuildInferred.h - Build a relax op typed by its inference -*- C++ -*-===//
//
// Frontends (the ONNX importer, --convert-tosa-to-relax) build relax ops from
// operands they do not control. The inferring builders assert on operand
// combinations the op rejects; buildInferred asks the op's inference first,
// so that a rejected combination is an error the frontend can locate.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_BUILDINFERRED_H
#define RELAXDIALECT_RELAX_IR_BUILDINFERRED_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"

#include <type_traits>

namespace mlir::relax {

/// Why buildInferred failed.
enum class BuildInferredError {
  /// The attributes do not convert to the op's properties, or inference
  /// rejects the operands (it has emitted its diagnostic at `loc`), or it
  /// infers other than `numResults` results.
  Inference,
  /// The op was built but does not verify; it has been erased.
  Verification,
};

/// Builds an `OpTy` over `operands` with `attrs` (defaults filled in as the
/// op would hold them), typed by its own inference, and verifies it. On
/// failure nothing is left in the IR and `error` says at which step. With
/// a rewriter (a DialectConversion pattern's), the op that does not verify
/// is erased through it, so that the rewriter forgets it too.
template <typename OpTy, typename BuilderT>
FailureOr<OpTy> buildInferred(BuilderT &builder, Location loc,
                              ValueRange operands,
                              ArrayRef<NamedAttribute> attrs,
                              unsigned numResults, BuildInferredError &error) {
  MLIRContext *ctx = builder.getContext();
  typename OpTy::Properties props;
  DictionaryAttr dict = builder.getDictionaryAttr(attrs);
  SmallVector<Type> types;
  LogicalResult converted = OpTy::setPropertiesFromAttr(
      props, dict, [] { return InFlightDiagnostic(); });
  if (succeeded(converted))
    OpTy::populateDefaultProperties(
        OperationName(OpTy::getOperationName(), ctx), props);
  if (failed(converted) ||
      failed(OpTy::inferReturnTypes(ctx, loc, operands, dict,
                                    OpaqueProperties(&props), RegionRange(),
                                    types)) ||
      types.size() != numResults) {
    error = BuildInferredError::Inference;
    return failure();
  }
  auto op = OpTy::create(builder, loc, types, operands, props);
  if (failed(verify(op))) {
    if constexpr (std::is_base_of_v<RewriterBase, BuilderT>)
      builder.eraseOp(op);
    else
      op->erase();
    error = BuildInferredError::Verification;
    return failure();
  }
  return op;
}

} // namespace mlir::relax

#endif // RELAXDIALECT_RELAX_IR_BUILDINFERRED_H
