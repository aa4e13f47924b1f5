//===- OpConverter.h - What the TOSA to relax patterns share ---*- C++ -*-===//
//
// Every pattern of --convert-tosa-to-relax does the same around the relax
// ops it builds: it reads the converted operands (relax tensors) and TOSA's
// constant operands (shapes, zero points), builds relax ops through their
// own shape inference (relax result types carry symbolic shapes, which
// TOSA's `?` cannot express), and replaces the TOSA op with a value checked
// against TOSA's result type, its unknown dims bound to names with
// relax.match_cast (DESIGN.md: unknown dims are bound, not refused). An op
// relax cannot build is an error at the TOSA op, never an abort in an
// inferring builder.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_CONVERSION_TOSATORELAX_OPCONVERTER_H
#define LIB_CONVERSION_TOSATORELAX_OPCONVERTER_H

#include "RelaxDialect/Conversion/TOSAToRelax/TOSAToRelax.h"
#include "RelaxDialect/Relax/IR/BuildInferred.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Support/SymShape.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace relax {
namespace tosa_to_relax {

using sym::Expr;

/// The conversion of one TOSA op, for the duration of its pattern.
class OpConverter {
public:
  OpConverter(Operation *op, ConversionPatternRewriter &rewriter,
              const TosaToRelaxTypeConverter &converter)
      : op(op), loc(op->getLoc()), rewriter(rewriter), converter(converter) {}

  // Operands.

  /// `converted` (an adaptor operand), which must be a relax tensor: a
  /// TOSA value without one (a `!tosa.shape` read as data) is an error.
  FailureOr<Value> operand(Value converted);
  FailureOr<SmallVector<Value>> operands(ValueRange converted);
  /// The contents of a `!tosa.shape` operand, which must come from
  /// tosa.const_shape: TOSA's shape arithmetic on run-time dims (tosa.dim,
  /// add_shape, ...) is not supported.
  FailureOr<SmallVector<int64_t>> constShape(Value tosaShape);
  /// Succeeds when the TOSA operand `tosaValue` is a constant whose every
  /// element is zero: the zero points (and mul's shift) of float and
  /// unquantized models.
  LogicalResult requireZero(Value tosaValue, StringRef what);
  static SmallVector<Expr> dimsOf(Value relaxValue);

  // Building relax ops.

  /// An `OpTy` typed by its own inference, verified.
  template <typename OpTy>
  FailureOr<Value> build(ValueRange operands,
                         ArrayRef<NamedAttribute> attrs = {});
  /// A permute_dims; of a dense constant (a weight in the layout TOSA
  /// wants), a new constant, permuted once now.
  FailureOr<Value> permute(Value v, ArrayRef<int64_t> axes);
  /// A reshape; of a dense constant to a static shape, a new constant.
  FailureOr<Value> reshape(Value v, ArrayRef<Expr> dims);
  /// A rank-0 relax.constant of `dtype` holding `value`.
  Value scalarConstant(Type dtype, double value);
  /// Broadcasts elementwise operands whose dims relax cannot match to the
  /// dims `max(a, b)` (see OpConverter.cpp).
  LogicalResult alignBroadcast(MutableArrayRef<Value> operands);
  /// `v` match_cast to its type with dim i replaced by `e` for each (i, e):
  /// a run-time check that dims agree where TOSA requires it (concat's
  /// other dims, matmul's batch) but relax cannot prove it.
  Value castDims(Value v, ArrayRef<std::pair<int64_t, Expr>> dims);

  NamedAttribute named(StringRef name, Attribute a) {
    return rewriter.getNamedAttr(name, a);
  }
  Attribute shapeAttr(ArrayRef<Expr> dims) {
    return ShapeExprAttr::get(rewriter.getContext(), SymShape(dims));
  }
  DenseI64ArrayAttr i64s(ArrayRef<int64_t> values) {
    return rewriter.getDenseI64ArrayAttr(values);
  }

  // The result.

  /// Replaces the TOSA op (one result) with `v`, after checking it against
  /// TOSA's result type (dtype, rank, static dims); `?` dims of `v` are
  /// bound with a match_cast: to TOSA's static size where it has one, else
  /// to a fresh variable.
  LogicalResult replace(FailureOr<Value> v);

  Operation *const op;
  const Location loc;
  ConversionPatternRewriter &rewriter;
  const TosaToRelaxTypeConverter &converter;
};

template <typename OpTy>
FailureOr<Value> OpConverter::build(ValueRange operands,
                                    ArrayRef<NamedAttribute> attrs) {
  BuildInferredError error;
  FailureOr<OpTy> built = buildInferred<OpTy>(rewriter, loc, operands, attrs,
                                              /*numResults=*/1, error);
  if (succeeded(built))
    return (*built)->getResult(0);
  if (error == BuildInferredError::Inference)
    return emitError(loc) << "cannot build " << OpTy::getOperationName()
                          << " from the converted operands";
  return emitError(loc) << "the " << OpTy::getOperationName()
                        << " built from the converted operands is invalid";
}

/// The base of the patterns: an OpConversionPattern<SourceOp> whose rewrite
/// is written against an OpConverter.
///
/// It is built without the type converter on purpose: an operand's relax
/// value carries symbolic dims (`[n, 4]`) that its TOSA type cannot express
/// (`tensor<?x4xf32>`). Given the converter, the driver would cast every
/// operand to the converted type (`[?, 4]`) before the pattern saw it and
/// lose the names; without it, the pattern gets the relax value itself.
/// The converter serves what it knows: the relax form of TOSA's result
/// type (checked by replace()) and the function's names.
template <typename SourceOp>
class TosaToRelaxPattern : public OpConversionPattern<SourceOp> {
public:
  using OpAdaptor = typename OpConversionPattern<SourceOp>::OpAdaptor;

  TosaToRelaxPattern(const TosaToRelaxTypeConverter &converter,
                     MLIRContext *context)
      : OpConversionPattern<SourceOp>(context), converter(converter) {}

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    OpConverter c(op, rewriter, converter);
    return convert(op, adaptor, c);
  }

protected:
  /// Converts `op`; a refusal is an error at `op` (and failure).
  virtual LogicalResult convert(SourceOp op, OpAdaptor adaptor,
                                OpConverter &c) const = 0;

private:
  const TosaToRelaxTypeConverter &converter;
};

} // namespace tosa_to_relax
} // namespace relax
} // namespace mlir

#endif // LIB_CONVERSION_TOSATORELAX_OPCONVERTER_H
