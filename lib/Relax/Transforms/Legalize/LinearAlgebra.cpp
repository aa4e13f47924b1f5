//===- LinearAlgebra.cpp - Legalization of matmul, linear and einsum ------===//
//
// einsum is one loop nest over its output dims and summed labels (see
// legalizeEinsum). matmul and linear become one loop nest over the output
// dims plus an inner reduce loop over the contraction dim k, around one
// block with spatial vars for the output position and a reduce var for k. The
// block's tir.init writes the starting value (0, or the bias for linear), the
// body accumulates lhs * rhs in the output dtype. op_pattern
// `out_ewise_fusable`.
//
// matmul follows numpy: batch dims broadcast (an undecidable pair reads
// index 0 exactly when the operand's dim is 1 at run time), a 1-D lhs is
// [1, k] and a 1-D rhs [k, 1] with the added dim absent from the output. The
// k extent is the lhs's; a mismatch with the rhs is rejected by the verifier
// or the run-time shape checks.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/Einsum.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::relax;

/// Right-aligned broadcast indices of `in` into the leading `ivs` of `out`.
static SmallVector<Value> batchIndices(OpBuilder &b, Location l,
                                       ArrayRef<sym::Expr> in,
                                       ArrayRef<sym::Expr> out,
                                       ValueRange ivs) {
  // Broadcasting never gives an operand more batch dims than the result.
  return *broadcastIndices(b, l, SymShape(in), SymShape(out), ivs);
}

/// Widens an operand scalar to the accumulation dtype. Not castScalar for
/// integers: an i1 or unsigned out_dtype truncates here (castScalar compares
/// with 0, or computes on the signless width).
static Value convert(OpBuilder &b, Location l, Value v, Type to,
                     bool isUnsigned) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return castScalar(b, l, v, to);
  if (isa<FloatType>(to))
    return isUnsigned ? Value(arith::UIToFPOp::create(b, l, to, v))
                      : Value(arith::SIToFPOp::create(b, l, to, v));
  if (isa<FloatType>(from))
    return arith::FPToSIOp::create(b, l, to, v);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return isUnsigned ? Value(arith::ExtUIOp::create(b, l, to, v))
                      : Value(arith::ExtSIOp::create(b, l, to, v));
  return arith::TruncIOp::create(b, l, to, v);
}

static Value mulAdd(OpBuilder &b, Location l, Value acc, Value x, Value y) {
  if (isa<FloatType>(acc.getType()))
    return arith::AddFOp::create(b, l, acc, arith::MulFOp::create(b, l, x, y));
  return arith::AddIOp::create(b, l, acc, arith::MulIOp::create(b, l, x, y));
}

/// The loop nest [out dims..., k] around one block with a reduce var for k.
/// `init(ivs)` gives the initial output value, `body(ivs, k)` the pair of
/// scalars to multiply.
static void
buildContraction(OpBuilder &b, Location loc, StringRef name,
                 const SymShape &out, const sym::Expr &k, Value outBuf,
                 function_ref<Value(OpBuilder &, Location, ValueRange)> init,
                 function_ref<std::pair<Value, Value>(OpBuilder &, Location,
                                                      ValueRange, Value)>
                     body) {
  SmallVector<sym::Expr> extents(out.getDims());
  extents.push_back(k);
  SmallVector<tir::LoopKind> kinds =
      outerParallelKinds(out.getDims(), extents.size());
  tir::buildLoopNest(
      b, loc, extents, kinds, [&](OpBuilder &b, Location l, ValueRange ivs) {
        SmallVector<tir::IterKind> iterKinds(out.getRank(),
                                             tir::IterKind::spatial);
        iterKinds.push_back(tir::IterKind::reduce);
        tir::BlockOp::create(
            b, l, name, ivs, iterKinds,
            [&](OpBuilder &b, Location l, ValueRange vars) {
              ValueRange o = vars.drop_back();
              tir::StoreOp::create(b, l, init(b, l, o), outBuf, o);
            },
            [&](OpBuilder &b, Location l, ValueRange vars) {
              ValueRange o = vars.drop_back();
              auto [x, y] = body(b, l, o, vars.back());
              Value acc = tir::LoadOp::create(b, l, outBuf, o);
              tir::StoreOp::create(b, l, mulAdd(b, l, acc, x, y), outBuf, o);
            });
      });
}

static LogicalResult legalizeMatmul(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  auto lhsType = cast<RelaxTensorType>(op->getOperand(0).getType());
  auto rhsType = cast<RelaxTensorType>(op->getOperand(1).getType());
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  if (lhsType.getRank() < 1 || rhsType.getRank() < 1)
    // unreachable: matmul type inference requires operands of rank >= 1.
    return op->emitOpError("cannot be legalized: rank-0 operand");
  Type outDtype = resultType.getDtype();
  bool isUnsigned = isUnsignedDtype(lhsType.getDtype());
  ArrayRef<sym::Expr> L = lhsType.getDims(), R = rhsType.getDims();
  int64_t lr = L.size(), rr = R.size();
  bool hasN = lr >= 2, hasM = rr >= 2;
  int64_t outRank = resultType.getRank();
  int64_t batchRank = outRank - hasN - hasM;
  if (batchRank < 0)
    // unreachable: the result type is the inferred one.
    return op->emitOpError("cannot be legalized: unexpected result rank");
  ArrayRef<sym::Expr> outDims = resultType.getDims();
  ArrayRef<sym::Expr> outBatch = outDims.take_front(batchRank);
  ArrayRef<sym::Expr> lBatch = hasN ? L.drop_back(2) : ArrayRef<sym::Expr>();
  ArrayRef<sym::Expr> rBatch = hasM ? R.drop_back(2) : ArrayRef<sym::Expr>();
  if ((int64_t)lBatch.size() > batchRank || (int64_t)rBatch.size() > batchRank)
    // unreachable: the result type is the inferred one.
    return op->emitOpError("cannot be legalized: unexpected result rank");
  sym::Expr k = L.back();
  std::string name = "T_matmul";
  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        buildContraction(
            b, loc, name, resultType.getShape(), k, outputs[0],
            [&](OpBuilder &b, Location l, ValueRange) {
              return createScalarConstant(b, l, outDtype, 0.0);
            },
            [&](OpBuilder &b, Location l, ValueRange o,
                Value kv) -> std::pair<Value, Value> {
              ValueRange batch = o.take_front(batchRank);
              SmallVector<Value> li =
                  batchIndices(b, l, lBatch, outBatch, batch);
              if (hasN)
                li.push_back(o[batchRank]);
              li.push_back(kv);
              SmallVector<Value> ri =
                  batchIndices(b, l, rBatch, outBatch, batch);
              ri.push_back(kv);
              if (hasM)
                ri.push_back(o[batchRank + hasN]);
              Value x =
                  toSignlessScalar(b, l, tir::LoadOp::create(b, l, inputs[0], li));
              Value y =
                  toSignlessScalar(b, l, tir::LoadOp::create(b, l, inputs[1], ri));
              return {convert(b, l, x, outDtype, isUnsigned),
                      convert(b, l, y, outDtype, isUnsigned)};
            });
      },
      tir::OpPattern::OutEwiseFusable, op->getAttrDictionary());
}

static LogicalResult legalizeLinear(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  auto xType = cast<RelaxTensorType>(op->getOperand(0).getType());
  auto wType = cast<RelaxTensorType>(op->getOperand(1).getType());
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  bool hasBias = op->getNumOperands() > 2;
  if (xType.getRank() < 1 || wType.getRank() != 2)
    // unreachable: linear type inference requires these ranks.
    return op->emitOpError("cannot be legalized: x must have rank >= 1 and "
                           "weight rank 2");
  Type dtype = resultType.getDtype();
  ArrayRef<sym::Expr> X = xType.getDims();
  ArrayRef<sym::Expr> outDims = resultType.getDims();
  int64_t outRank = outDims.size();
  ArrayRef<sym::Expr> xLead = X.drop_back();
  ArrayRef<sym::Expr> outLead = outDims.drop_back();
  if (xLead.size() > outLead.size())
    // unreachable: the result type is the inferred one.
    return op->emitOpError("cannot be legalized: unexpected result rank");
  SymShape biasShape;
  if (hasBias) {
    biasShape = cast<RelaxTensorType>(op->getOperand(2).getType()).getShape();
    if (biasShape.getRank() > outRank)
      // unreachable: linear type inference broadcasts the bias into the result.
      return op->emitOpError("cannot be legalized: bias rank above result");
  }
  sym::Expr k = X.back();
  std::string name = "T_linear";
  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        buildContraction(
            b, loc, name, resultType.getShape(), k, outputs[0],
            [&](OpBuilder &b, Location l, ValueRange o) -> Value {
              if (!hasBias)
                return createScalarConstant(b, l, dtype, 0.0);
              SmallVector<Value> bi =
                  batchIndices(b, l, biasShape.getDims(), outDims, o);
              return tir::LoadOp::create(b, l, inputs[2], bi);
            },
            [&](OpBuilder &b, Location l, ValueRange o,
                Value kv) -> std::pair<Value, Value> {
              SmallVector<Value> xi =
                  batchIndices(b, l, xLead, outLead, o.drop_back());
              xi.push_back(kv);
              Value x = tir::LoadOp::create(b, l, inputs[0], xi);
              Value w = tir::LoadOp::create(b, l, inputs[1],
                                            SmallVector<Value>{o.back(), kv});
              return {x, w};
            });
      },
      tir::OpPattern::OutEwiseFusable, op->getAttrDictionary());
}

/// einsum: one nest over the output dims then the summed labels (extents
/// from each label's first occurrence; the run-time contracts check the
/// others) around one block that multiplies one load per operand.
static LogicalResult legalizeEinsum(EinsumOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SmallVector<RelaxTensorType> types;
  SmallVector<std::optional<int64_t>> ranks;
  for (Value v : op.getInputs()) {
    types.push_back(cast<RelaxTensorType>(v.getType()));
    ranks.push_back(types.back().getRank());
  }
  std::string error;
  FailureOr<EinsumSpec> spec = parseEinsum(op.getEquation(), ranks, error);
  if (failed(spec))
    // unreachable: einsum type inference parses the same equation.
    return op.emitOpError("cannot be legalized: equation '")
           << op.getEquation() << "': " << error;
  auto resultType = cast<RelaxTensorType>(op.getResult().getType());
  Type dtype = resultType.getDtype();
  unsigned outRank = resultType.getRank();
  // Block variable of each label: output position, then the summed labels.
  SmallVector<unsigned> var(spec->numLabels());
  SmallVector<sym::Expr> extents(resultType.getDims());
  for (auto [i, label] : llvm::enumerate(spec->output))
    var[label] = i;
  for (auto [k, label] : llvm::enumerate(spec->reduced)) {
    var[label] = outRank + k;
    for (auto [i, labels] : llvm::enumerate(spec->operands)) {
      auto it = llvm::find(labels, label);
      if (it != labels.end()) {
        extents.push_back(types[i].getDims()[it - labels.begin()]);
        break;
      }
    }
  }
  // The kind annotate-op-pattern derives: a product of several operands
  // read along the summed labels is a contraction.
  unsigned reducedOperands = llvm::count_if(spec->operands, [&](auto &labels) {
    return llvm::any_of(labels, [&](unsigned label) {
      return llvm::is_contained(spec->reduced, label);
    });
  });
  tir::OpPattern pattern = spec->reduced.empty() ? tir::OpPattern::Injective
                           : reducedOperands >= 2 && op.getInputs().size() >= 2
                               ? tir::OpPattern::OutEwiseFusable
                               : tir::OpPattern::Reduction;
  bool isFloat = isa<FloatType>(dtype);
  return ctx.replaceWithCallTIR(
      op, "T_einsum", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value out = outputs[0];
        auto product = [&](OpBuilder &b, Location l, ValueRange vars) {
          Value acc;
          for (auto [i, labels] : llvm::enumerate(spec->operands)) {
            SmallVector<Value> idx;
            for (auto [axis, label] : llvm::enumerate(labels)) {
              Value v = vars[var[label]];
              if (spec->isBatch(label))
                v = broadcastIndex(b, l, types[i].getDims()[axis],
                                   resultType.getDims()[var[label]], v);
              idx.push_back(v);
            }
            Value x = toSignlessScalar(
                b, l, tir::LoadOp::create(b, l, inputs[i], idx));
            acc = !acc      ? x
                  : isFloat ? Value(arith::MulFOp::create(b, l, acc, x))
                            : Value(arith::MulIOp::create(b, l, acc, x));
          }
          return acc;
        };
        SmallVector<tir::IterKind> iterKinds(outRank, tir::IterKind::spatial);
        iterKinds.append(spec->reduced.size(), tir::IterKind::reduce);
        tir::buildLoopNest(
            b, loc, extents,
            outerParallelKinds(resultType.getDims(), extents.size()),
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              if (spec->reduced.empty()) {
                tir::BlockOp::create(
                    b, l, "einsum", ivs, iterKinds, nullptr,
                    [&](OpBuilder &b, Location l, ValueRange vars) {
                      tir::StoreOp::create(
                          b, l,
                          fromSignlessScalar(b, l, product(b, l, vars), dtype),
                          out, vars);
                    });
                return;
              }
              tir::BlockOp::create(
                  b, l, "einsum", ivs, iterKinds,
                  [&](OpBuilder &b, Location l, ValueRange vars) {
                    Value zero = createScalarConstant(b, l, dtype, 0.0);
                    tir::StoreOp::create(b, l,
                                         fromSignlessScalar(b, l, zero, dtype),
                                         out, vars.take_front(outRank));
                  },
                  [&](OpBuilder &b, Location l, ValueRange vars) {
                    ValueRange o = vars.take_front(outRank);
                    Value cur = toSignlessScalar(
                        b, l, tir::LoadOp::create(b, l, out, o));
                    Value p = product(b, l, vars);
                    Value sum =
                        isFloat ? Value(arith::AddFOp::create(b, l, cur, p))
                                : Value(arith::AddIOp::create(b, l, cur, p));
                    tir::StoreOp::create(
                        b, l, fromSignlessScalar(b, l, sum, dtype), out, o);
                  });
            });
      },
      pattern, op->getAttrDictionary());
}

void relax::addLinearAlgebraLegalizers(LegalizerTable &table) {
  registerLegalizer<EinsumOp>(table, legalizeEinsum);
  registerLegalizer<MatmulOp>(table, legalizeMatmul);
  registerLegalizer<LinearOp>(table, legalizeLinear);
}
