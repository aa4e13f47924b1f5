//===- Creation.cpp - Legalization of the creation ops --------------------===//
//
// full / zeros / ones and their *_like forms store one constant at every
// output position; arange stores start + i * step converted to the dtype.
// The prim_funcs take no inputs (the *_like input only gives the shape): the
// output buffer binds the variables, the rest travel as tir_vars. All are
// `injective` loop nests with one spatial block.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::relax;

static LogicalResult requireKnownResult(Operation *op) {
  auto tt = dyn_cast<RelaxTensorType>(op->getResult(0).getType());
  if (!tt || !tt.getShape().isFullyKnown())
    return op->emitOpError("cannot be legalized: result type ")
           << op->getResult(0).getType()
           << " has an unknown rank or dim (refine it with relax.match_cast)";
  return success();
}

static LogicalResult legalizeFill(Operation *op, LegalizeContext &ctx,
                                  double value, StringRef name) {
  if (failed(requireKnownResult(op)))
    return failure();
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  Type dtype = resultType.getDtype();
  // Only the value and dtype matter; the shape is in the buffer type.
  Builder attrs(op->getContext());
  Attribute key = attrs.getDictionaryAttr(
      {attrs.getNamedAttr("value", attrs.getF64FloatAttr(value))});
  return ctx.replaceWithCallTIR(
      op, name, ValueRange(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange, ValueRange outputs) {
        buildSpatialCompute(
            b, loc, name, resultType.getShape(),
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              Value v = fromSignlessScalar(
                  b, l, createScalarConstant(b, l, dtype, value), dtype);
              tir::StoreOp::create(b, l, v, outputs[0], ivs);
            });
      },
      tir::OpPattern::Injective, key);
}

static LogicalResult legalizeArange(ArangeOp op, LegalizeContext &ctx) {
  if (failed(requireKnownResult(op)))
    return failure();
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  Type dtype = resultType.getDtype();
  // Verified IR has both (its inference requires them); IR built without
  // the verifier may lack the attributes, or hold an unknown expression.
  SymExprAttr startAttr = op.getStartAttr(), stepAttr = op.getStepAttr();
  sym::Expr start = startAttr ? startAttr.getExpr() : sym::Expr();
  sym::Expr step = stepAttr ? stepAttr.getExpr() : sym::Expr();
  if (!start || !step)
    return op->emitOpError(
        "cannot be legalized: its start or step is missing or unknown");
  std::string name = "T_arange";
  return ctx.replaceWithCallTIR(
      op, name, ValueRange(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange, ValueRange outputs) {
        buildSpatialCompute(
            b, loc, name, resultType.getShape(),
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              Value i = ivs[0];
              if (step.getConstant() != 1)
                i = arith::MulIOp::create(b, l, i,
                                          tir::materializeDim(b, l, step));
              if (start.getConstant() != 0)
                i = arith::AddIOp::create(b, l,
                                          tir::materializeDim(b, l, start), i);
              Value i64 = arith::IndexCastOp::create(b, l, b.getI64Type(), i);
              Value v;
              unsigned width = dtype.getIntOrFloatBitWidth();
              if (isa<FloatType>(dtype))
                v = arith::SIToFPOp::create(b, l, dtype, i64);
              else if (width < 64)
                v = arith::TruncIOp::create(b, l, b.getIntegerType(width), i64);
              else
                v = i64;
              tir::StoreOp::create(b, l, fromSignlessScalar(b, l, v, dtype),
                                   outputs[0], ivs);
            });
      },
      tir::OpPattern::Injective, op->getAttrDictionary(), {start, step});
}

void relax::addCreationLegalizers(LegalizerTable &table) {
  registerLegalizer<FullOp>(table, [](FullOp op, LegalizeContext &ctx) {
    return legalizeFill(op, ctx, op.getValue().convertToDouble(), "T_full");
  });
  registerLegalizer<FullLikeOp>(table, [](FullLikeOp op, LegalizeContext &ctx) {
    return legalizeFill(op, ctx, op.getValue().convertToDouble(), "T_full");
  });
  registerLegalizer<ZerosOp>(table, [](Operation *op, LegalizeContext &ctx) {
    return legalizeFill(op, ctx, 0.0, "T_zeros");
  });
  registerLegalizer<ZerosLikeOp>(table,
                                 [](Operation *op, LegalizeContext &ctx) {
                                   return legalizeFill(op, ctx, 0.0, "T_zeros");
                                 });
  registerLegalizer<OnesOp>(table, [](Operation *op, LegalizeContext &ctx) {
    return legalizeFill(op, ctx, 1.0, "T_ones");
  });
  registerLegalizer<ArangeOp>(table, legalizeArange);
  registerLegalizer<OnesLikeOp>(table, [](Operation *op, LegalizeContext &ctx) {
    return legalizeFill(op, ctx, 1.0, "T_ones");
  });
}
