//===- ConvPrivateLayout.cpp - Tensors private to the convolutions --------===//
//
// The function-level check of the conv-private contract
// (ConvPrivateLayout.h): a tensor whose bytes only the fused convolution
// built-ins understand must reach no other reader, whatever pass or hand
// wrote the IR.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/ConvPrivateLayout.h"

using namespace mlir;
using namespace mlir::relax;

/// Checks the attributes `op` carries; emits the first error.
static LogicalResult verifyOp(Operation *op) {
  bool writes = op->hasAttr(kConvPrivateResultAttr);
  Attribute declared = op->getAttr(kConvPrivateOperandsAttr);
  if (!writes && !declared)
    return success();
  if (!isa<CallDPSPackedOp>(op))
    return op->emitOpError("carries '")
           << (writes ? kConvPrivateResultAttr : kConvPrivateOperandsAttr)
           << "', which only a relax.call_dps_packed may carry";
  if (writes && op->getNumResults() != 1)
    return op->emitOpError("carries '")
           << kConvPrivateResultAttr << "' but has " << op->getNumResults()
           << " results, expected 1";
  if (declared) {
    auto operands = dyn_cast<DenseI64ArrayAttr>(declared);
    if (!operands)
      return op->emitOpError("'")
             << kConvPrivateOperandsAttr << "' must be an array<i64>";
    for (int64_t i : operands.asArrayRef()) {
      if (i < 0 || i >= static_cast<int64_t>(op->getNumOperands()))
        return op->emitOpError("'")
               << kConvPrivateOperandsAttr << "' names operand #" << i << " of "
               << op->getNumOperands();
      Operation *def = op->getOperand(i).getDefiningOp();
      if (!def || !def->hasAttr(kConvPrivateResultAttr))
        return op->emitOpError("reads operand #")
               << i << " in the conv-private layout, but it is not the "
               << "result of a call carrying '" << kConvPrivateResultAttr
               << "'";
    }
  }
  if (!writes)
    return success();
  for (OpOperand &use : op->getResult(0).getUses()) {
    auto operands = use.getOwner()->getAttrOfType<DenseI64ArrayAttr>(
        kConvPrivateOperandsAttr);
    int64_t number = use.getOperandNumber();
    if (!operands || !llvm::is_contained(operands.asArrayRef(), number)) {
      InFlightDiagnostic diag =
          use.getOwner()->emitOpError("reads operand #")
          << number << " as a plain tensor, but its bytes are in a layout "
          << "private to the fused convolutions (declare it in '"
          << kConvPrivateOperandsAttr << "' on a call that reads that layout)";
      diag.attachNote(op->getLoc()) << "written here";
      return diag;
    }
  }
  return success();
}

LogicalResult mlir::relax::verifyConvPrivateLayouts(FuncOp func) {
  WalkResult result = func.walk([](Operation *op) {
    return failed(verifyOp(op)) ? WalkResult::interrupt()
                                : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
