//===- FunctionConverter.h - One func.func of TOSA to relax ---*- C++ -*-===//
//
// The state of --convert-tosa-to-relax while it converts one function,
// shared by the files that convert its parts: TOSAToRelax.cpp (the pass,
// functions and their results), FunctionConverter.cpp (operands, results,
// building relax ops), ConvertOps.cpp (the dispatch over TOSA ops and the
// elementwise and reduction families), ConvertNNOps.cpp (convolutions and
// pools) and ConvertShapeOps.cpp (reshape, slice, cast, gather, pad).
//
//===----------------------------------------------------------------------===//
#ifndef LIB_CONVERSION_TOSATORELAX_FUNCTIONCONVERTER_H
#define LIB_CONVERSION_TOSATORELAX_FUNCTIONCONVERTER_H

#include "RelaxDialect/Relax/IR/BuildInferred.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Support/SymShape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace mlir {
namespace relax {
namespace tosa_to_relax {

using sym::Expr;

/// Converts the body of one func.func into a new relax.func placed before
/// it. The func.func is left alone; the pass erases it once every function
/// converted.
class FunctionConverter {
public:
  FunctionConverter(func::FuncOp func, ArrayRef<std::string> dimNames)
      : func(func), ctx(func.getContext()), b(func), dimNames(dimNames) {}

  /// The new relax.func, or failure with an error at the offending op (and
  /// nothing left behind).
  FailureOr<relax::FuncOp> run();

private:
  LogicalResult convertOp(Operation *op);
  LogicalResult convertReturn(func::ReturnOp ret, relax::FuncOp rfunc,
                              Block *body);

  // Operands.
  FailureOr<Value> get(Value tosaValue, Operation *user);
  FailureOr<SmallVector<int64_t>> getConstShape(Value shape, Operation *user);
  LogicalResult requireZero(Value v, Operation *user, StringRef what);
  static SmallVector<Expr> dimsOf(Value relaxValue);

  FailureOr<SmallVector<Value>> getAll(ValueRange tosaValues, Operation *user);
  LogicalResult alignBroadcast(Location loc, MutableArrayRef<Value> operands);
  FailureOr<Value> castDims(Location loc, Value v,
                            ArrayRef<std::pair<int64_t, Expr>> dims);

  // Results.
  LogicalResult bind(Operation *op, FailureOr<Value> v);
  std::string freshVar();

  // Building relax ops.
  template <typename OpTy>
  FailureOr<Value> build(Location loc, ValueRange operands,
                         ArrayRef<NamedAttribute> attrs = {});
  FailureOr<Value> permute(Location loc, Value v, ArrayRef<int64_t> axes);
  FailureOr<Value> reshape(Location loc, Value v, ArrayRef<Expr> dims);
  Value scalarConstant(Location loc, Type dtype, double value);
  NamedAttribute named(StringRef name, Attribute a) {
    return b.getNamedAttr(name, a);
  }
  Attribute shapeAttr(ArrayRef<Expr> dims) {
    return ShapeExprAttr::get(ctx, SymShape(dims));
  }

  // Op families.
  template <typename RelaxOp>
  LogicalResult unary(Operation *op);
  template <typename RelaxOp>
  LogicalResult binary(Operation *op);
  template <typename RelaxOp>
  LogicalResult reduce(Operation *op, uint32_t axis);
  LogicalResult convertConv2D(Operation *op, Value input, Value weight,
                              Value bias, ArrayRef<int64_t> pad,
                              ArrayRef<int64_t> stride,
                              ArrayRef<int64_t> dilation, bool depthwise);
  LogicalResult convertTransposeConv2D(tosa::TransposeConv2DOp op);
  template <typename RelaxOp>
  LogicalResult convertPool(Operation *op, Value input,
                            ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                            ArrayRef<int64_t> pad);
  LogicalResult convertReshape(tosa::ReshapeOp op);
  LogicalResult convertSlice(tosa::SliceOp op);
  LogicalResult convertCast(tosa::CastOp op);
  LogicalResult convertGather(tosa::GatherOp op);
  LogicalResult convertPad(tosa::PadOp op);

  func::FuncOp func;
  MLIRContext *ctx;
  OpBuilder b;
  ArrayRef<std::string> dimNames;
  /// TOSA tensor values -> relax values.
  DenseMap<Value, Value> values;
  /// Symbolic variable names in use in this function.
  llvm::StringSet<> varNames;
  unsigned nextFresh = 0;
};

/// Builds an `OpTy` typed by its own inference and verifies it; an operand
/// combination relax rejects is an error at `loc` (inference reports why),
/// never an abort in an inferring builder.
template <typename OpTy>
FailureOr<Value> FunctionConverter::build(Location loc, ValueRange operands,
                                          ArrayRef<NamedAttribute> attrs) {
  BuildInferredError error;
  FailureOr<OpTy> op = buildInferred<OpTy>(b, loc, operands, attrs,
                                           /*numResults=*/1, error);
  if (succeeded(op))
    return (*op)->getResult(0);
  if (error == BuildInferredError::Inference)
    return emitError(loc) << "cannot build " << OpTy::getOperationName()
                          << " from the converted operands";
  return emitError(loc) << "the " << OpTy::getOperationName()
                        << " built from the converted operands is invalid";
}

} // namespace tosa_to_relax
} // namespace relax
} // namespace mlir

#endif // LIB_CONVERSION_TOSATORELAX_FUNCTIONCONVERTER_H
