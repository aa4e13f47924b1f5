//===- Normalization.cpp - Legalization of the norm ops -------------------===//
//
// layer_norm, rms_norm, group_norm and batch_norm (inference): the mean
// first, then the mean of squared deviations (two passes, never
// E[x^2] - E[x]^2), statistics of f16 / bf16 inputs accumulated in f32,
// then one spatial block over the result (Reduction.cpp describes the
// loop nests).
//
//===----------------------------------------------------------------------===//

#include "ReductionHelpers.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::reduction_legalize;

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

/// Normalised axes in attribute order (for indexing gamma / beta / weight)
/// and sorted (for the reduction).
static LogicalResult normAxes(Operation *op, ArrayRef<int64_t> axes,
                              int64_t rank, SmallVectorImpl<int64_t> &ordered,
                              SmallVectorImpl<int64_t> &sorted) {
  for (int64_t a : axes) {
    FailureOr<int64_t> n =
        normalizeAxis(op->getLoc(), op->getName().getStringRef(), a, rank);
    if (failed(n))
      return failure();
    ordered.push_back(*n);
  }
  FailureOr<SmallVector<int64_t>> s =
      normalizeAxes(op->getLoc(), op->getName().getStringRef(), axes, rank);
  if (failed(s))
    return failure();
  sorted.assign(s->begin(), s->end());
  return success();
}

/// layer_norm (with gamma and beta) and rms_norm (with weight only).
template <typename NormOp>
static LogicalResult legalizeLayerOrRMSNorm(NormOp op, LegalizeContext &ctx,
                                            bool rms) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  SmallVector<int64_t> ordered, sorted;
  if (failed(normAxes(op, op.getAxes(), in.getRank(), ordered, sorted)))
    return failure();
  SmallVector<sym::Expr> paramDims;
  for (int64_t a : ordered)
    paramDims.push_back(in.getDim(a));
  for (unsigned p = 1; p < op->getNumOperands(); ++p)
    if (failed(checkParamShape(op,
                               rms ? "weight" : (p == 1 ? "gamma" : "beta"),
                               shapeOf(op->getOperand(p)), paramDims)))
      return failure();
  double eps = op.getEpsilon().convertToDouble();
  SymShape stat = reduceShape(in, sorted, /*keepdims=*/false);
  Type acc = accType(dtype);
  std::string name = ("T_" + shortOpName(op)).str();
  StringRef base = shortOpName(op);
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        Value count = indexToFloat(
            b, loc, tir::materializeDim(b, loc, countOf(in, sorted)), acc);
        Value epsV = createScalarConstant(b, loc, acc, eps);
        auto loadX = [&](OpBuilder &b, Location l, ValueRange i) {
          return castScalar(b, l, tir::LoadOp::create(b, l, x, i), acc);
        };
        Value mean;
        if (!rms) {
          mean = allocBuffer(b, loc, stat, acc);
          // reassoc (here and in the squares' sum): the sums may be split
          // into partial sums, which lets LLVM vectorize them; strict
          // left-to-right adds ran at one add per add latency (the norms
          // of the BERT layer took as long as its attention).
          emitSum(
              b, loc, (base + "_sum").str(), in, sorted, false, mean, acc,
              [&](OpBuilder &b, Location l, ValueRange i, ValueRange) {
                return loadX(b, l, i);
              },
              /*reassoc=*/true);
          emitDivide(b, loc, (base + "_mean").str(), stat, mean, mean, count);
        }
        Value sq = allocBuffer(b, loc, stat, acc);
        emitSum(
            b, loc, (base + "_sqsum").str(), in, sorted, false, sq, acc,
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              Value d = loadX(b, l, i);
              if (!rms)
                d = arith::SubFOp::create(b, l, d,
                                          tir::LoadOp::create(b, l, mean, o));
              return arith::MulFOp::create(b, l, d, d).getResult();
            },
            /*reassoc=*/true);
        buildSpatial(
            b, loc, base, in, [&](OpBuilder &b, Location l, ValueRange ivs) {
              SmallVector<Value> o = dropAxes(ivs, sorted);
              SmallVector<Value> p;
              for (int64_t a : ordered)
                p.push_back(ivs[a]);
              Value d = loadX(b, l, ivs);
              if (!rms)
                d = arith::SubFOp::create(b, l, d,
                                          tir::LoadOp::create(b, l, mean, o));
              Value var = arith::DivFOp::create(
                  b, l, tir::LoadOp::create(b, l, sq, o), count);
              Value scale = math::RsqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, var, epsV));
              Value r = arith::MulFOp::create(b, l, d, scale);
              r = arith::MulFOp::create(
                  b, l, r,
                  castScalar(b, l, tir::LoadOp::create(b, l, inputs[1], p),
                             acc));
              if (!rms)
                r = arith::AddFOp::create(
                    b, l, r,
                    castScalar(b, l, tir::LoadOp::create(b, l, inputs[2], p),
                               acc));
              tir::StoreOp::create(b, l, castScalar(b, l, r, dtype), y, ivs);
            });
      });
}

static LogicalResult legalizeGroupNorm(GroupNormOp op, LegalizeContext &ctx) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  SmallVector<int64_t> ordered, axes;
  if (failed(normAxes(op, op.getAxes(), in.getRank(), ordered, axes)))
    return failure();
  FailureOr<int64_t> channel = normalizeAxis(
      op->getLoc(), op->getName().getStringRef(),
      static_cast<int64_t>(op.getChannelAxis()), in.getRank());
  if (failed(channel))
    return failure();
  if (llvm::is_contained(axes, *channel))
    // unreachable: the group_norm type inference rejects it.
    return op->emitOpError("cannot be legalized: axes contain the channel "
                           "axis");
  auto groups = static_cast<int64_t>(op.getNumGroups());
  if (groups <= 0)
    // unreachable: the group_norm type inference rejects it.
    return op->emitOpError("cannot be legalized: num_groups must be "
                           "positive");
  const sym::Expr &c = in.getDim(*channel);
  sym::Expr rem = defaultSymContext().simplify(sym::mod(c, sym::Expr::constant(groups)));
  if (rem.getConstant() != 0)
    return op->emitOpError("cannot be legalized: the channel dim ")
           << c.str() << " is not provably divisible by num_groups = "
           << groups << " (refine it with relax.match_cast)";
  sym::Expr perGroup = sym::floorDiv(c, sym::Expr::constant(groups));
  for (unsigned p = 1; p <= 2; ++p)
    if (failed(checkParamShape(op, p == 1 ? "gamma" : "beta",
                               shapeOf(op->getOperand(p)), {c})))
      return failure();
  double eps = op.getEpsilon().convertToDouble();
  // Statistics are [other dims..., num_groups]; each group reduces over its
  // channels and `axes`.
  SmallVector<int64_t> others;
  SmallVector<sym::Expr> statDims, reduceDims{perGroup};
  for (int64_t i = 0; i < in.getRank(); ++i) {
    if (i == *channel || llvm::is_contained(axes, i))
      continue;
    others.push_back(i);
    statDims.push_back(in.getDim(i));
  }
  statDims.push_back(sym::Expr::constant(groups));
  for (int64_t a : axes)
    reduceDims.push_back(in.getDim(a));
  SymShape stat(statDims);
  sym::Expr countExpr = perGroup * countOf(in, axes);
  Type acc = accType(dtype);
  return replaceWithReduction(
      op, ctx, "T_group_norm",
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        Value count = indexToFloat(
            b, loc, tir::materializeDim(b, loc, countExpr), acc);
        Value perGroupV = tir::materializeDim(b, loc, perGroup);
        Value epsV = createScalarConstant(b, loc, acc, eps);
        Value mean = allocBuffer(b, loc, stat, acc);
        Value sq = allocBuffer(b, loc, stat, acc);
        // Input indices from the block variables: spatial = others + group,
        // reduce = channel within the group + axes.
        auto inIndices = [&](OpBuilder &b, Location l, ValueRange sv,
                             ValueRange rv) {
          SmallVector<Value> idx;
          unsigned s = 0;
          for (int64_t i = 0; i < in.getRank(); ++i) {
            if (i == *channel) {
              Value base =
                  arith::MulIOp::create(b, l, sv.back(), perGroupV);
              idx.push_back(arith::AddIOp::create(b, l, base, rv[0]));
            } else if (llvm::is_contained(axes, i)) {
              auto pos = llvm::find(axes, i) - axes.begin();
              idx.push_back(rv[1 + pos]);
            } else {
              idx.push_back(sv[s++]);
            }
          }
          return idx;
        };
        auto loadX = [&](OpBuilder &b, Location l, ValueRange i) {
          return castScalar(b, l, tir::LoadOp::create(b, l, x, i), acc);
        };
        auto emitStat = [&](StringRef name, Value buf, bool centered) {
          buildBlock(
              b, loc, name, statDims, reduceDims,
              [&](OpBuilder &b, Location l, ValueRange sv, ValueRange) {
                tir::StoreOp::create(b, l, createScalarConstant(b, l, acc, 0),
                                     buf, sv);
              },
              [&](OpBuilder &b, Location l, ValueRange sv, ValueRange rv) {
                Value v = loadX(b, l, inIndices(b, l, sv, rv));
                if (centered) {
                  v = arith::SubFOp::create(
                      b, l, v, tir::LoadOp::create(b, l, mean, sv));
                  v = arith::MulFOp::create(b, l, v, v);
                }
                Value s = tir::LoadOp::create(b, l, buf, sv);
                tir::StoreOp::create(b, l, arith::AddFOp::create(b, l, s, v),
                                     buf, sv);
              });
        };
        emitStat("group_norm_sum", mean, false);
        emitDivide(b, loc, "group_norm_mean", stat, mean, mean, count);
        emitStat("group_norm_sqsum", sq, true);
        buildSpatial(
            b, loc, "group_norm", in,
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              SmallVector<Value> o;
              for (int64_t i : others)
                o.push_back(ivs[i]);
              Value ch = ivs[*channel];
              o.push_back(arith::DivUIOp::create(b, l, ch, perGroupV));
              Value d = arith::SubFOp::create(
                  b, l, loadX(b, l, ivs), tir::LoadOp::create(b, l, mean, o));
              Value var = arith::DivFOp::create(
                  b, l, tir::LoadOp::create(b, l, sq, o), count);
              Value scale = math::RsqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, var, epsV));
              Value g = castScalar(
                  b, l, tir::LoadOp::create(b, l, inputs[1], ValueRange{ch}),
                  acc);
              Value be = castScalar(
                  b, l, tir::LoadOp::create(b, l, inputs[2], ValueRange{ch}),
                  acc);
              Value r = arith::MulFOp::create(
                  b, l, arith::MulFOp::create(b, l, d, scale), g);
              r = arith::AddFOp::create(b, l, r, be);
              tir::StoreOp::create(b, l, castScalar(b, l, r, dtype), y, ivs);
            });
      });
}

static LogicalResult legalizeBatchNorm(BatchNormOp op, LegalizeContext &ctx) {
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
  static const char *names[] = {"", "gamma", "beta", "moving_mean",
                                "moving_var"};
  for (unsigned p = 1; p <= 4; ++p)
    if (failed(checkParamShape(op, names[p], shapeOf(op->getOperand(p)),
                               {in.getDim(*axis)})))
      return failure();
  double eps = op.getEpsilon().convertToDouble();
  Type acc = accType(dtype);
  return ctx.replaceWithCallTIR(
      op, "T_batch_norm", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value epsV = createScalarConstant(b, loc, acc, eps);
        buildSpatial(
            b, loc, "batch_norm", in,
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              ValueRange c = ivs.slice(*axis, 1);
              auto load = [&](unsigned p, ValueRange idx) {
                return castScalar(
                    b, l, tir::LoadOp::create(b, l, inputs[p], idx), acc);
              };
              Value d = arith::SubFOp::create(b, l, load(0, ivs), load(3, c));
              Value scale = math::RsqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, load(4, c), epsV));
              Value r = arith::MulFOp::create(
                  b, l, arith::MulFOp::create(b, l, d, scale), load(1, c));
              r = arith::AddFOp::create(b, l, r, load(2, c));
              tir::StoreOp::create(b, l, castScalar(b, l, r, dtype),
                                   outputs[0], ivs);
            });
      },
      tir::OpPattern::Broadcast, op->getAttrDictionary());
}

void relax::addNormalizationLegalizers(LegalizerTable &table) {
  registerLegalizer<LayerNormOp>(
      table, [](LayerNormOp op, LegalizeContext &ctx) {
        return legalizeLayerOrRMSNorm(op, ctx, /*rms=*/false);
      });
  registerLegalizer<RMSNormOp>(table, [](RMSNormOp op, LegalizeContext &ctx) {
    return legalizeLayerOrRMSNorm(op, ctx, /*rms=*/true);
  });
  registerLegalizer<GroupNormOp>(table, legalizeGroupNorm);
  registerLegalizer<BatchNormOp>(table, legalizeBatchNorm);
}
