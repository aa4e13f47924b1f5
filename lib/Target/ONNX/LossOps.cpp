//===- LossOps.cpp - ONNX training losses ---------------------------------===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (log_softmax over
// the class axis, then the same loss), composed from relax ops. Relax has no
// gather_elements, so the log-probability of each target class is picked by
// a one-hot compare of the targets against the class index (oneHotMask), a
// `where` and a sum over the class axis; the class weights are picked the
// same way. `ignore_index`, `weight` and the reductions follow ONNX's
// reference implementation (onnx/backend/test/case/node/
// negativeloglikelihoodloss.py):
//   - an ignored target contributes 0 and has weight 0, whatever its value
//     (it may be negative or >= C);
//   - `mean` with a weight or an ignore_index divides the weighted sum by the
//     sum of the picked weights, otherwise it is the plain mean.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

namespace {
/// The attributes shared by both losses.
struct LossAttrs {
  std::string reduction;
  std::optional<int64_t> ignoreIndex;
};
} // namespace

static FailureOr<LossAttrs> readLossAttrs(NodeBinder &b) {
  LossAttrs attrs;
  attrs.reduction = b.attrString("reduction", "mean");
  if (b.attr("ignore_index"))
    attrs.ignoreIndex = b.attrInt("ignore_index", 0);
  if (b.hasBadAttr())
    return failure();
  if (attrs.reduction != "none" && attrs.reduction != "sum" &&
      attrs.reduction != "mean") {
    (void)b.badAttr("reduction",
                    "must be none, sum or mean, got '" + attrs.reduction + "'");
    return failure();
  }
  return attrs;
}

/// The loss of the log-probabilities `logp` [N, C, d1, ..., dk] against the
/// class indices `target` [N, d1, ..., dk] with optional class weights
/// `weight` [C] (null if absent).
static FailureOr<Value> negativeLogLikelihood(NodeBinder &b, Value logp,
                                              Value target, Value weight,
                                              const LossAttrs &attrs) {
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(logp);
  if (failed(dims))
    return failure();
  if (dims->size() < 2)
    return b.error() << "needs an input of rank >= 2 ([N, C, ...]), got rank "
                     << dims->size();
  RelaxTensorType tt = b.typeOf(target);
  if (!tt.hasRank() || tt.getRank() + 1 != static_cast<int64_t>(dims->size()))
    return b.error() << "the target must have rank " << dims->size() - 1
                     << " ([N, d1, ...]), got " << tt;
  if (!isa<IntegerType>(tt.getDtype()) || tt.getDtype().isInteger(1))
    return b.error() << "the target must be integer class indices, got " << tt;
  Type dtype = b.typeOf(logp).getDtype();
  Type i64 = b.getBuilder().getI64Type();
  FailureOr<Value> tgt = b.castTo(target, i64);
  if (failed(tgt))
    return failure();
  Expr classes = (*dims)[1];
  FailureOr<Value> mask = oneHotMask(b, *tgt, /*axis=*/1, classes);
  FailureOr<Value> zero = b.scalar(0.0, dtype);
  if (failed(mask) || failed(zero))
    return failure();
  auto pick = [&](Value v) -> FailureOr<Value> {
    FailureOr<Value> sel = b.create<WhereOp>({*mask, v, *zero});
    if (failed(sel))
      return failure();
    return b.create<SumOp>(*sel, {b.named("axes", b.i64Array({1}))});
  };
  FailureOr<Value> loss = pick(logp);
  if (failed(loss) || failed(loss = b.create<NegativeOp>(*loss)))
    return failure();

  // The per-element weight: the target's class weight, 0 where ignored.
  Value gathered;
  if (weight) {
    RelaxTensorType wt = b.typeOf(weight);
    if (!wt.hasRank() || wt.getRank() != 1)
      return b.error() << "the weight must be 1-D ([C]), got " << wt;
    SmallVector<Expr> wdims(dims->size(), Expr::constant(1));
    wdims[1] = classes;
    FailureOr<Value> w = b.reshape(weight, wdims);
    if (failed(w) || failed(w = pick(*w)))
      return failure();
    gathered = *w;
  }
  if (attrs.ignoreIndex) {
    FailureOr<Value> ii =
        b.scalar(static_cast<double>(*attrs.ignoreIndex), i64);
    if (failed(ii))
      return failure();
    FailureOr<Value> keep = b.create<NotEqualOp>({*tgt, *ii});
    if (failed(keep) || failed(loss = b.create<WhereOp>({*keep, *loss, *zero})))
      return failure();
    FailureOr<Value> w = gathered ? b.create<WhereOp>({*keep, gathered, *zero})
                                  : b.castTo(*keep, dtype);
    if (failed(w))
      return failure();
    gathered = *w;
  }
  if (weight && failed(loss = b.create<MultiplyOp>({*loss, gathered})))
    return failure();

  if (attrs.reduction == "none")
    return loss;
  if (attrs.reduction == "sum")
    return b.create<SumOp>(*loss);
  if (!gathered)
    return b.create<MeanOp>(*loss);
  FailureOr<Value> total = b.create<SumOp>(*loss);
  FailureOr<Value> norm = b.create<SumOp>(gathered);
  if (failed(total) || failed(norm))
    return failure();
  return b.create<DivideOp>({*total, *norm});
}

/// NegativeLogLikelihoodLoss (input, target[, weight]) and, with `softmax`,
/// SoftmaxCrossEntropyLoss (scores, labels[, weights]), whose log_softmax
/// over the classes is its optional second output.
template <bool softmax> static LogicalResult importLoss(NodeBinder &b) {
  if (failed(b.requireInputs(2, 3)) ||
      failed(b.requireOutputs(softmax ? 2 : 1)))
    return failure();
  FailureOr<LossAttrs> attrs = readLossAttrs(b);
  FailureOr<Value> input = b.input(0), target = b.input(1);
  if (failed(attrs) || failed(input) || failed(target))
    return failure();
  Value weight;
  if (b.hasInput(2)) {
    FailureOr<Value> w = b.input(2);
    if (failed(w))
      return failure();
    weight = *w;
  }
  if (softmax) {
    if (failed(input = b.create<LogSoftmaxOp>(*input,
                                              {b.named("axis", b.i64Attr(1))})))
      return failure();
    if (b.hasOutput(1))
      b.setOutput(1, *input);
  }
  return b.setOutput(0,
                     negativeLogLikelihood(b, *input, *target, weight, *attrs));
}

void onnx_import::addLossOps(OpHandlerTable &table) {
  table.add("NegativeLogLikelihoodLoss", importLoss<false>,
            /*sinceVersion=*/12);
  table.add("SoftmaxCrossEntropyLoss", importLoss<true>,
            /*sinceVersion=*/12);
}
