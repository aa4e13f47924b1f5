//===- RelaxOps.h - relax dialect operations --------------------*- C++ -*-===//
#ifndef RELAXDIALECT_RELAX_IR_RELAXOPS_H
#define RELAXDIALECT_RELAX_IR_RELAXOPS_H

#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace relax {
/// Marks ops whose operands all broadcast (numpy rules) to their one result
/// (Relax_BroadcastsOperands in RelaxTensorOps.td).
template <typename ConcreteType>
class BroadcastsOperands
    : public OpTrait::TraitBase<ConcreteType, BroadcastsOperands> {};
} // namespace relax
} // namespace mlir

#define GET_OP_CLASSES
#include "RelaxDialect/Relax/IR/RelaxOps.h.inc"

namespace mlir {
namespace relax {
/// Checks that every symbolic variable used in `func` is bound before use
/// (by a parameter type or an earlier match_cast). Emits located errors.
LogicalResult verifyWellFormed(FuncOp func);

/// The activation names relax.rnn / gru / lstm accept (ONNX's spelling,
/// "Sigmoid", "Tanh", ...).
bool isRecurrentActivation(StringRef name);

/// The activations of a recurrent op when its `activations` is absent: ONNX's
/// defaults (rnn: Tanh; gru: Sigmoid, Tanh; lstm: Sigmoid, Tanh, Tanh),
/// repeated for each of the `numDirections`.
SmallVector<StringRef> defaultRecurrentActivations(StringRef opName,
                                                   unsigned numDirections);
} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_IR_RELAXOPS_H
