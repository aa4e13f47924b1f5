//===- Reduction.cpp - Legalization of the reduction and norm ops ---------===//
//
// Reductions over axes (sum, mean, max, min, prod, variance), index
// reductions (argmax, argmin), softmax / log_softmax and cumsum; the
// normalisations (layer_norm, rms_norm, group_norm, batch_norm) are in
// Normalization.cpp, the helpers both use in ReductionHelpers.h.
//
// Every reduction is a loop nest with the kept dims outside (the outermost
// one parallel) and the reduced dims inside, around one tir.block whose kept
// dims are `spatial` and reduced dims `reduce` iteration variables; the
// block's tir.init writes the identity. Programs needing statistics
// (mean, variance, softmax, norms) chain several such blocks through scratch
// buffers (tir.alloc, global) of the statistics' shape, followed by a
// spatial block over the result. Statistics of f16 / bf16 inputs are
// accumulated in f32; others in their own dtype.
//
// Numerics: softmax / log_softmax subtract the row maximum before exp;
// variance and the norms compute the mean first and then the mean of squared
// deviations (two passes), never E[x^2] - E[x]^2.
//
// A tir.init runs on the first reduce iteration, so a reduced extent that is
// 0 at run time would leave the result unwritten: when a reduced dim is not
// provably >= 1, sum / prod / max / min / mean / variance first fill their
// accumulators with the identity in a spatial block (giving numpy's 0, 1,
// -inf / +inf, nan, nan). Softmax and the norms need no such fill (their
// result is then empty); argmax / argmin of an empty extent (an error in
// numpy) leave the result unspecified.
//
//===----------------------------------------------------------------------===//

#include "ReductionHelpers.h"

#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"


using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::reduction_legalize;

//===----------------------------------------------------------------------===//
// sum, prod, max, min
//===----------------------------------------------------------------------===//

namespace {
enum class Combiner { Sum, Prod, Max, Min };
} // namespace

static Value combine(OpBuilder &b, Location l, Combiner c, Value acc,
                     Value v) {
  bool f = isFloat(v.getType());
  switch (c) {
  case Combiner::Sum:
    return f ? Value(arith::AddFOp::create(b, l, acc, v))
             : Value(arith::AddIOp::create(b, l, acc, v));
  case Combiner::Prod:
    return f ? Value(arith::MulFOp::create(b, l, acc, v))
             : Value(arith::MulIOp::create(b, l, acc, v));
  case Combiner::Max:
    return f ? Value(arith::MaximumFOp::create(b, l, acc, v))
             : Value(arith::MaxSIOp::create(b, l, acc, v));
  case Combiner::Min:
    return f ? Value(arith::MinimumFOp::create(b, l, acc, v))
             : Value(arith::MinSIOp::create(b, l, acc, v));
  }
  llvm_unreachable("combiner");
}

static Value identity(OpBuilder &b, Location l, Combiner c, Type dtype) {
  switch (c) {
  case Combiner::Sum:
    return createScalarConstant(b, l, dtype, 0);
  case Combiner::Prod:
    return createScalarConstant(b, l, dtype, 1);
  case Combiner::Max:
    return extremeConstant(b, l, dtype, /*largest=*/false);
  case Combiner::Min:
    return extremeConstant(b, l, dtype, /*largest=*/true);
  }
  llvm_unreachable("combiner");
}

/// sum, prod, max and min.
template <typename ReduceOp>
static LogicalResult legalizeReduce(ReduceOp op, LegalizeContext &ctx,
                                    Combiner c) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/false);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  FailureOr<SmallVector<int64_t>> axes =
      reduceAxes(op, op.getAxes(), in.getRank());
  if (failed(axes))
    return failure();
  bool keepdims = op.getKeepdims();
  const SymShape &out = shapeOf(op->getResult(0).getType());
  std::string name = ("T_" + shortOpName(op)).str();
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        if (mayBeEmpty(in, *axes))
          emitFill(b, loc, (shortOpName(op) + "_empty").str(), out, y,
                   [&](OpBuilder &b, Location l) {
                     return identity(b, l, c, dtype);
                   });
        buildAxisReduction(
            b, loc, shortOpName(op), in, *axes, keepdims,
            [&](OpBuilder &b, Location l, ValueRange, ValueRange o) {
              tir::StoreOp::create(b, l, identity(b, l, c, dtype), y, o);
            },
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              Value acc = tir::LoadOp::create(b, l, y, o);
              Value v = tir::LoadOp::create(b, l, x, i);
              tir::StoreOp::create(b, l, combine(b, l, c, acc, v), y, o);
            });
      });
}

//===----------------------------------------------------------------------===//
// mean, variance
//===----------------------------------------------------------------------===//

template <typename ReduceOp>
static LogicalResult legalizeMeanOrVariance(ReduceOp op, LegalizeContext &ctx,
                                            bool variance) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  FailureOr<SmallVector<int64_t>> axes =
      reduceAxes(op, op.getAxes(), in.getRank());
  if (failed(axes))
    return failure();
  bool keepdims = op.getKeepdims();
  const SymShape &out = shapeOf(op->getResult(0).getType());
  Type acc = accType(dtype);
  std::string name = ("T_" + shortOpName(op)).str();
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        Value count = indexToFloat(
            b, loc, tir::materializeDim(b, loc, countOf(in, *axes)), acc);
        auto loadX = [&](OpBuilder &b, Location l, ValueRange i) {
          return castScalar(b, l, tir::LoadOp::create(b, l, x, i), acc);
        };
        // The mean goes straight into the result unless it needs a wider
        // accumulator or a second pass follows.
        Value mean = (acc == dtype && !variance) ? y
                                                 : allocBuffer(b, loc, out, acc);
        bool empty = mayBeEmpty(in, *axes);
        auto zero = [&](OpBuilder &b, Location l) {
          return createScalarConstant(b, l, acc, 0);
        };
        if (empty)
          emitFill(b, loc, variance ? "variance_empty" : "mean_empty", out,
                   mean, zero);
        emitSum(b, loc, variance ? "variance_sum" : "mean_sum", in, *axes,
                keepdims, mean, acc,
                [&](OpBuilder &b, Location l, ValueRange i, ValueRange) {
                  return loadX(b, l, i);
                });
        if (!variance) {
          emitDivide(b, loc, "mean_div", out, mean, y, count);
          return;
        }
        emitDivide(b, loc, "variance_mean", out, mean, mean, count);
        Value sq = acc == dtype ? y : allocBuffer(b, loc, out, acc);
        if (empty)
          emitFill(b, loc, "variance_sqempty", out, sq, zero);
        emitSum(b, loc, "variance_sqsum", in, *axes, keepdims, sq, acc,
                [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
                  Value d = arith::SubFOp::create(
                      b, l, loadX(b, l, i), tir::LoadOp::create(b, l, mean, o));
                  return arith::MulFOp::create(b, l, d, d).getResult();
                });
        emitDivide(b, loc, "variance_div", out, sq, y, count);
      });
}

//===----------------------------------------------------------------------===//
// argmax, argmin
//===----------------------------------------------------------------------===//

template <typename ArgReduceOp>
static LogicalResult legalizeArgReduce(ArgReduceOp op, LegalizeContext &ctx,
                                       bool isMax) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/false);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  SmallVector<int64_t> axes;
  if (std::optional<uint64_t> axis = op.getAxis()) {
    FailureOr<int64_t> a =
        normalizeAxis(op->getLoc(), op->getName().getStringRef(),
                      static_cast<int64_t>(*axis), in.getRank());
    if (failed(a))
      return failure();
    axes.push_back(*a);
  } else {
    for (int64_t i = 0; i < in.getRank(); ++i)
      axes.push_back(i);
  }
  bool keepdims = op.getKeepdims();
  const SymShape &out = shapeOf(op->getResult(0).getType());
  Type resultDtype = cast<RelaxTensorType>(op->getResult(0).getType())
                         .getDtype();
  std::string name = ("T_" + shortOpName(op)).str();
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        SmallVector<Value> dims;
        for (int64_t a : axes)
          dims.push_back(tir::materializeDim(b, loc, in.getDim(a)));
        Value best = allocBuffer(b, loc, out, dtype);
        buildAxisReduction(
            b, loc, shortOpName(op), in, axes, keepdims,
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              // The reduce variables are 0 here: start from that element.
              tir::StoreOp::create(b, l, tir::LoadOp::create(b, l, x, i), best,
                                   o);
              tir::StoreOp::create(b, l,
                                   createScalarConstant(b, l, resultDtype, 0),
                                   y, o);
            },
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              // Flat index over the reduced dims, row-major.
              Value flat;
              for (auto [k, a] : llvm::enumerate(axes))
                flat = k == 0 ? Value(i[a])
                              : Value(arith::AddIOp::create(
                                    b, l,
                                    arith::MulIOp::create(b, l, flat, dims[k]),
                                    i[a]));
              Value v = tir::LoadOp::create(b, l, x, i);
              Value cur = tir::LoadOp::create(b, l, best, o);
              Value better;
              if (isFloat(dtype)) {
                // Strictly better keeps the first extreme; the first NaN
                // wins over numbers, as in numpy.
                better = arith::CmpFOp::create(
                    b, l,
                    isMax ? arith::CmpFPredicate::OGT
                          : arith::CmpFPredicate::OLT,
                    v, cur);
                Value vNan = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::UNO, v, v);
                Value curNum = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::ORD, cur, cur);
                better = arith::OrIOp::create(
                    b, l, better, arith::AndIOp::create(b, l, vNan, curNum));
              } else {
                better = arith::CmpIOp::create(
                    b, l,
                    isMax ? arith::CmpIPredicate::sgt
                          : arith::CmpIPredicate::slt,
                    v, cur);
              }
              Value oldIdx = tir::LoadOp::create(b, l, y, o);
              Value newIdx = arith::IndexCastOp::create(b, l, resultDtype,
                                                        flat);
              tir::StoreOp::create(
                  b, l, arith::SelectOp::create(b, l, better, v, cur), best,
                  o);
              tir::StoreOp::create(
                  b, l, arith::SelectOp::create(b, l, better, newIdx, oldIdx),
                  y, o);
            });
      });
}

//===----------------------------------------------------------------------===//
// softmax, log_softmax
//===----------------------------------------------------------------------===//

template <typename SoftmaxLikeOp>
static LogicalResult legalizeSoftmax(SoftmaxLikeOp op, LegalizeContext &ctx,
                                     bool isLog) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  auto axisValue = static_cast<int64_t>(op.getAxis());
  FailureOr<int64_t> axis = normalizeAxis(
      op->getLoc(), op->getName().getStringRef(), axisValue, in.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> axes{*axis};
  SymShape stat = reduceShape(in, axes, /*keepdims=*/false);
  Type acc = accType(dtype);
  std::string name = ("T_" + shortOpName(op)).str();
  StringRef base = shortOpName(op);
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        Value maxBuf = allocBuffer(b, loc, stat, acc);
        Value sumBuf = allocBuffer(b, loc, stat, acc);
        auto loadX = [&](OpBuilder &b, Location l, ValueRange i) {
          return castScalar(b, l, tir::LoadOp::create(b, l, x, i), acc);
        };
        buildAxisReduction(
            b, loc, (base + "_maxelem").str(), in, axes, false,
            [&](OpBuilder &b, Location l, ValueRange, ValueRange o) {
              tir::StoreOp::create(b, l, extremeConstant(b, l, acc, false),
                                   maxBuf, o);
            },
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              Value m = tir::LoadOp::create(b, l, maxBuf, o);
              tir::StoreOp::create(
                  b, l, arith::MaximumFOp::create(b, l, m, loadX(b, l, i)),
                  maxBuf, o);
            });
        emitSum(b, loc, (base + "_expsum").str(), in, axes, false, sumBuf, acc,
                [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
                  Value m = tir::LoadOp::create(b, l, maxBuf, o);
                  Value d = arith::SubFOp::create(b, l, loadX(b, l, i), m);
                  return math::ExpOp::create(b, l, d).getResult();
                });
        buildSpatial(
            b, loc, (base + "_norm").str(), in,
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              SmallVector<Value> o = dropAxes(ivs, axes);
              Value m = tir::LoadOp::create(b, l, maxBuf, o);
              Value s = tir::LoadOp::create(b, l, sumBuf, o);
              Value d = arith::SubFOp::create(b, l, loadX(b, l, ivs), m);
              Value r;
              if (isLog)
                r = arith::SubFOp::create(b, l, d, math::LogOp::create(b, l, s));
              else
                r = arith::DivFOp::create(b, l, math::ExpOp::create(b, l, d),
                                          s);
              tir::StoreOp::create(b, l, castScalar(b, l, r, dtype), y, ivs);
            });
      });
}

//===----------------------------------------------------------------------===//
// cumsum
//===----------------------------------------------------------------------===//

static LogicalResult legalizeCumsum(CumsumOp op, LegalizeContext &ctx) {
  if (failed(checkKnown(op)))
    return failure();
  Value input = op->getOperand(0);
  const SymShape &in = shapeOf(input);
  Type inDtype = dtypeOf(input);
  Type dtype =
      cast<RelaxTensorType>(op->getResult(0).getType()).getDtype();
  if (isUnsignedDtype(inDtype))
    return op->emitOpError("cannot be legalized: ")
           << inDtype
           << " arithmetic is not supported by the loop lowering yet";
  if (failed(checkDtype(op, dtype, /*floatOnly=*/false)))
    return failure();
  std::optional<int64_t> axis;
  if (std::optional<uint64_t> a = op.getAxis()) {
    FailureOr<int64_t> n =
        normalizeAxis(op->getLoc(), op->getName().getStringRef(),
                      static_cast<int64_t>(*a), in.getRank());
    if (failed(n))
      return failure();
    axis = *n;
  }
  return ctx.replaceWithCallTIR(
      op, "T_cumsum", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        // y[pos] = x[pos] + (first ? 0 : y[prev]).
        auto step = [&](OpBuilder &b, Location l, ValueRange inIdx,
                        ValueRange outIdx, Value isFirst,
                        ValueRange prevIdx) {
          Value v = castScalar(b, l, tir::LoadOp::create(b, l, x, inIdx),
                               dtype);
          auto ifOp = scf::IfOp::create(
              b, l, isFirst,
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(b, l,
                                     createScalarConstant(b, l, dtype, 0));
              },
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(
                    b, l, tir::LoadOp::create(b, l, y, prevIdx).getResult());
              });
          Value s = isFloat(dtype)
                        ? Value(arith::AddFOp::create(b, l, ifOp.getResult(0),
                                                      v))
                        : Value(arith::AddIOp::create(b, l, ifOp.getResult(0),
                                                      v));
          tir::StoreOp::create(b, l, s, y, outIdx);
        };
        if (axis) {
          // A spatial block per line along the axis; the scan inside is
          // serial.
          SmallVector<sym::Expr> spatial;
          for (int64_t i = 0; i < in.getRank(); ++i)
            if (i != *axis)
              spatial.push_back(in.getDim(i));
          buildBlock(
              b, loc, "cumsum", spatial, {}, nullptr,
              [&](OpBuilder &b, Location l, ValueRange sv, ValueRange) {
                Value zero = arith::ConstantIndexOp::create(b, l, 0);
                Value one = arith::ConstantIndexOp::create(b, l, 1);
                Value ext = tir::materializeDim(b, l, in.getDim(*axis));
                tir::ForOp::create(
                    b, l, zero, ext, one, tir::LoopKind::serial,
                    [&](OpBuilder &b, Location l, Value k) {
                      SmallVector<Value> idx, prev;
                      Value isFirst = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::eq, k, zero);
                      Value km1 = arith::MaxSIOp::create(
                          b, l, arith::SubIOp::create(b, l, k, one), zero);
                      unsigned s = 0;
                      for (int64_t i = 0; i < in.getRank(); ++i) {
                        idx.push_back(i == *axis ? k : sv[s]);
                        prev.push_back(i == *axis ? km1 : sv[s]);
                        if (i != *axis)
                          ++s;
                      }
                      step(b, l, idx, idx, isFirst, prev);
                    });
              });
          return;
        }
        // Flattened: one serial scan over every element, row-major.
        buildBlock(
            b, loc, "cumsum", {}, {}, nullptr,
            [&](OpBuilder &b, Location l, ValueRange, ValueRange) {
              SmallVector<Value> dims;
              for (const sym::Expr &d : in.getDims())
                dims.push_back(tir::materializeDim(b, l, d));
              tir::buildLoopNest(
                  b, l, ValueRange(dims), {},
                  [&](OpBuilder &b, Location l, ValueRange ivs) {
                    Value zero = arith::ConstantIndexOp::create(b, l, 0);
                    Value one = arith::ConstantIndexOp::create(b, l, 1);
                    Value flat = zero;
                    for (unsigned k = 0; k < ivs.size(); ++k)
                      flat = k == 0 ? ivs[0]
                                    : Value(arith::AddIOp::create(
                                          b, l,
                                          arith::MulIOp::create(b, l, flat,
                                                                dims[k]),
                                          ivs[k]));
                    Value isFirst = arith::CmpIOp::create(
                        b, l, arith::CmpIPredicate::eq, flat, zero);
                    Value prev = arith::MaxSIOp::create(
                        b, l, arith::SubIOp::create(b, l, flat, one), zero);
                    step(b, l, ivs, ValueRange{flat}, isFirst,
                         ValueRange{prev});
                  });
            });
      },
      tir::OpPattern::Opaque, op->getAttrDictionary());
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void relax::addReductionLegalizers(LegalizerTable &table) {
  auto reduce = [](Combiner c) {
    return [c](auto op, LegalizeContext &ctx) {
      return legalizeReduce(op, ctx, c);
    };
  };
  registerLegalizer<SumOp>(table, reduce(Combiner::Sum));
  registerLegalizer<ProdOp>(table, reduce(Combiner::Prod));
  registerLegalizer<MaxOp>(table, reduce(Combiner::Max));
  registerLegalizer<MinOp>(table, reduce(Combiner::Min));
  registerLegalizer<MeanOp>(table, [](MeanOp op, LegalizeContext &ctx) {
    return legalizeMeanOrVariance(op, ctx, /*variance=*/false);
  });
  registerLegalizer<VarianceOp>(table, [](VarianceOp op, LegalizeContext &ctx) {
    return legalizeMeanOrVariance(op, ctx, /*variance=*/true);
  });
  registerLegalizer<ArgmaxOp>(table, [](ArgmaxOp op, LegalizeContext &ctx) {
    return legalizeArgReduce(op, ctx, /*isMax=*/true);
  });
  registerLegalizer<ArgminOp>(table, [](ArgminOp op, LegalizeContext &ctx) {
    return legalizeArgReduce(op, ctx, /*isMax=*/false);
  });
  registerLegalizer<SoftmaxOp>(table, [](SoftmaxOp op, LegalizeContext &ctx) {
    return legalizeSoftmax(op, ctx, /*isLog=*/false);
  });
  registerLegalizer<LogSoftmaxOp>(
      table, [](LogSoftmaxOp op, LegalizeContext &ctx) {
        return legalizeSoftmax(op, ctx, /*isLog=*/true);
      });
  registerLegalizer<CumsumOp>(table, legalizeCumsum);
}
