//===- FuseAttention.cpp - --relax-fuse-attention -------------------------===//
//
// torch.onnx exports spell attention as MatMul(Q, K^T) -> scale -> Add(mask)
// -> Softmax -> MatMul(V) over BNSH tensors, which legalizes to programs
// that materialise the [b, h, s, t] scores. relax.attention legalizes to a
// streaming kernel that never does, so this pass recognises the subgraph
// and replaces it. It only matches what it can prove: every shape relation
// goes through the symbolic engine under the function's facts, and any
// doubt leaves the graph unchanged.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXFUSEATTENTION
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// The type of `v` when it is a tensor of rank `rank` with every dim known
/// and a float dtype.
static RelaxTensorType getFloatTensor(Value v, int64_t rank) {
  auto t = dyn_cast<RelaxTensorType>(v.getType());
  if (!t || !t.getShape().hasRank() || t.getShape().getRank() != rank ||
      !t.getShape().isFullyKnown() || !isa<FloatType>(t.getDtype()))
    return {};
  return t;
}

/// The value of a one-element float constant (shape [], [1], [1, 1], ...).
static std::optional<double> getScalarConstant(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  if (!cst)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!dense || dense.getNumElements() != 1 ||
      !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  APFloat value = *dense.value_begin<APFloat>();
  bool lost = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}

/// Peels `x * c`, `c * x` and `x / c` with scalar constants `c` off `v`,
/// multiplying `scale` by what they contribute. A step is peeled only when
/// `x` has the step's own type (the constant does not broadcast it) and,
/// with `singleUse`, when the step's result has no other user (the scores
/// chain: another user would keep the scores alive anyway).
static Value peelScale(Value v, double &scale, bool singleUse) {
  while (Operation *def = v.getDefiningOp()) {
    if (singleUse && !v.hasOneUse())
      break;
    Value x;
    std::optional<double> c;
    if (auto mul = dyn_cast<MultiplyOp>(def)) {
      if ((c = getScalarConstant(mul.getRhs())))
        x = mul.getLhs();
      else if ((c = getScalarConstant(mul.getLhs())))
        x = mul.getRhs();
    } else if (auto div = dyn_cast<DivideOp>(def)) {
      if ((c = getScalarConstant(div.getRhs())) && *c != 0.0) {
        x = div.getLhs();
        c = 1.0 / *c;
      }
    }
    if (!x || x.getType() != v.getType())
      break;
    scale *= *c;
    v = x;
  }
  return v;
}

/// For `reshape(broadcast_to(expand_dims(x, [2]), [b, hkv, g, t, d]),
/// [b, hkv * g, t, d])`, how torch exports repeat_kv of grouped-query
/// attention (head h of the result is head h floordiv g of x), returns x;
/// otherwise null.
static Value peelRepeatedHeads(Value v, const sym::Context &ctx) {
  auto reshape = v.getDefiningOp<ReshapeOp>();
  if (!reshape)
    return {};
  auto bcast = reshape->getOperand(0).getDefiningOp<BroadcastToOp>();
  if (!bcast)
    return {};
  auto expand = bcast.getInput().getDefiningOp<ExpandDimsOp>();
  if (!expand || expand.getAxes().size() != 1 ||
      (expand.getAxes()[0] != 2 && expand.getAxes()[0] != -3))
    return {};
  Value x = expand.getInput();
  RelaxTensorType xT = getFloatTensor(x, 4), vT = getFloatTensor(v, 4),
                  bT = getFloatTensor(bcast.getResult(), 5);
  if (!xT || !vT || !bT || xT.getDtype() != vT.getDtype())
    return {};
  const SymShape &xs = xT.getShape(), &vs = vT.getShape(),
                 &bs = bT.getShape();
  auto eq = [&](const sym::Expr &a, const sym::Expr &b) {
    return ctx.provablyEqual(a, b);
  };
  if (!eq(bs.getDim(0), xs.getDim(0)) || !eq(bs.getDim(1), xs.getDim(1)) ||
      !eq(bs.getDim(3), xs.getDim(2)) || !eq(bs.getDim(4), xs.getDim(3)) ||
      !eq(vs.getDim(0), xs.getDim(0)) ||
      !eq(vs.getDim(1), xs.getDim(1) * bs.getDim(2)) ||
      !eq(vs.getDim(2), xs.getDim(2)) || !eq(vs.getDim(3), xs.getDim(3)))
    return {};
  return x;
}

/// Whether `mask` broadcasts (numpy rules, right-aligned) to `target`
/// without widening it: every mask dim is 1 or provably the target's.
static bool broadcastsTo(Value mask, const SymShape &target,
                         const sym::Context &ctx) {
  auto t = dyn_cast<RelaxTensorType>(mask.getType());
  if (!t || !t.getShape().hasRank() || !t.getShape().isFullyKnown() ||
      t.getShape().getRank() > target.getRank() ||
      !isa<FloatType>(t.getDtype()))
    return false;
  const SymShape &ms = t.getShape();
  int64_t offset = target.getRank() - ms.getRank();
  for (int64_t i = 0; i < ms.getRank(); ++i) {
    const sym::Expr &d = ms.getDim(i);
    if (d.getConstant() != std::optional<int64_t>(1) &&
        !ctx.provablyEqual(d, target.getDim(offset + i)))
      return false;
  }
  return true;
}

static Value permute(PatternRewriter &rewriter, Location loc, Value v,
                     ArrayRef<int64_t> axes) {
  return PermuteDimsOp::create(rewriter, loc, v,
                               rewriter.getDenseI64ArrayAttr(axes));
}

namespace {
/// Rooted at the value matmul `p @ v` (see the pass description).
struct FuseAttentionPattern : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp pv,
                                PatternRewriter &rewriter) const override {
    sym::Context ctx = symContextAt(pv);
    auto eq = [&](const sym::Expr &a, const sym::Expr &b) {
      return ctx.provablyEqual(a, b);
    };
    RelaxTensorType outT = getFloatTensor(pv.getResult(), 4);
    if (!outT)
      return rewriter.notifyMatchFailure(pv, "not a rank-4 float matmul");

    // Optional NaN guard: where(isnan(p), 0, p).
    Value p = pv.getLhs();
    Value guardZero;
    if (auto where = p.getDefiningOp<WhereOp>(); where && p.hasOneUse()) {
      auto isnan = where.getCond().getDefiningOp<IsNanOp>();
      std::optional<double> zero = getScalarConstant(where.getX());
      if (isnan && isnan.getInput() == where.getY() && zero && *zero == 0.0 &&
          where.getY().getType() == p.getType() &&
          llvm::all_of(where.getY().getUsers(), [&](Operation *user) {
            return user == where || user == isnan;
          })) {
        guardZero = where.getX();
        p = where.getY();
      }
    }
    auto softmax = p.getDefiningOp<SoftmaxOp>();
    if (!softmax || (!guardZero && !p.hasOneUse()))
      return rewriter.notifyMatchFailure(pv, "lhs is not a softmax used once");
    int64_t axis = softmax.getAxisAttr().getInt();
    if (axis != -1 && axis != 3)
      return rewriter.notifyMatchFailure(pv, "softmax not over the last axis");

    // Scores: [scale] (add mask) [scale] around matmul(q, kt).
    double scale = 1.0;
    Value x = peelScale(softmax.getInput(), scale, /*singleUse=*/true);
    Value mask;
    MatmulOp qk;
    if (auto add = x.getDefiningOp<AddOp>(); add && x.hasOneUse()) {
      for (auto [scores, m] : {std::pair(add.getLhs(), add.getRhs()),
                               std::pair(add.getRhs(), add.getLhs())}) {
        double s = scale;
        Value inner = peelScale(scores, s, /*singleUse=*/true);
        if (auto mm = inner.getDefiningOp<MatmulOp>();
            mm && inner.hasOneUse() && scores.getType() == x.getType()) {
          qk = mm;
          mask = m;
          scale = s;
          break;
        }
      }
    } else if (auto mm = x.getDefiningOp<MatmulOp>(); mm && x.hasOneUse()) {
      qk = mm;
    }
    if (!qk)
      return rewriter.notifyMatchFailure(pv, "no q k^T matmul under softmax");

    Value q = peelScale(qk.getLhs(), scale, /*singleUse=*/false);
    Value kt = peelScale(qk.getRhs(), scale, /*singleUse=*/false);
    Value v = pv.getRhs();
    RelaxTensorType qT = getFloatTensor(q, 4), ktT = getFloatTensor(kt, 4),
                    vT = getFloatTensor(v, 4),
                    sT = getFloatTensor(qk.getResult(), 4);
    if (!qT || !ktT || !vT || !sT)
      return rewriter.notifyMatchFailure(pv, "operands are not rank-4 floats");
    Type dtype = qT.getDtype();
    if (ktT.getDtype() != dtype || vT.getDtype() != dtype ||
        sT.getDtype() != dtype || outT.getDtype() != dtype ||
        cast<RelaxTensorType>(softmax.getType()).getDtype() != dtype)
      return rewriter.notifyMatchFailure(pv, "mixed dtypes");
    const SymShape &qs = qT.getShape(), &ks = ktT.getShape(),
                   &vs = vT.getShape(), &ss = sT.getShape();
    // q [b, h, s, d], kt [b, h, d, t], v [b, h, t, dv]: no batch or head
    // broadcasting, contracted dims provably equal.
    for (unsigned i : {0u, 1u})
      if (!eq(qs.getDim(i), ks.getDim(i)) || !eq(qs.getDim(i), vs.getDim(i)))
        return rewriter.notifyMatchFailure(pv, "batch or heads differ");
    if (!eq(qs.getDim(3), ks.getDim(2)) || !eq(ks.getDim(3), vs.getDim(2)))
      return rewriter.notifyMatchFailure(pv, "contracted dims differ");
    if (mask && !broadcastsTo(mask, ss, ctx))
      return rewriter.notifyMatchFailure(
          pv, "mask does not broadcast to the scores");

    // The replacement's type, [b, h, s, dv] spelled from q and v, must be
    // the matmul's: its users were typed against it.
    const SymShape &os = outT.getShape();
    if (!(os.getDim(0) == qs.getDim(0)) || !(os.getDim(1) == qs.getDim(1)) ||
        !(os.getDim(2) == qs.getDim(2)) || !(os.getDim(3) == vs.getDim(3)))
      return rewriter.notifyMatchFailure(pv, "result dims spelled otherwise");

    Location loc = pv.getLoc();
    Value query = permute(rewriter, loc, q, {0, 2, 1, 3});
    // Keys and values repeated over query-head groups are read once.
    Value key, value;
    auto ktPerm = kt.getDefiningOp<PermuteDimsOp>();
    Value kRep;
    if (ktPerm && ktPerm.getAxes() &&
        llvm::equal(*ktPerm.getAxes(), ArrayRef<int64_t>{0, 1, 3, 2}))
      kRep = peelRepeatedHeads(ktPerm.getInput(), ctx);
    Value vRep = peelRepeatedHeads(v, ctx);
    if (kRep && vRep &&
        eq(cast<RelaxTensorType>(kRep.getType()).getShape().getDim(1),
           cast<RelaxTensorType>(vRep.getType()).getShape().getDim(1))) {
      key = permute(rewriter, loc, kRep, {0, 2, 1, 3});
      value = permute(rewriter, loc, vRep, {0, 2, 1, 3});
    } else {
      key = permute(rewriter, loc, kt, {0, 3, 1, 2});
      value = permute(rewriter, loc, v, {0, 2, 1, 3});
    }
    SmallVector<Value> operands{query, key, value};
    if (mask)
      operands.push_back(mask);
    SmallVector<NamedAttribute> attrs{
        rewriter.getNamedAttr("scale", rewriter.getF64FloatAttr(scale))};
    Value attention = AttentionOp::create(rewriter, loc, operands, attrs);
    Value out = permute(rewriter, loc, attention, {0, 2, 1, 3});
    if (guardZero) {
      Value nan = IsNanOp::create(rewriter, loc, out);
      out = WhereOp::create(rewriter, loc, ValueRange{nan, guardZero, out});
    }
    rewriter.replaceOp(pv, out);
    return success();
  }
};

struct RelaxFuseAttentionPass
    : public relax::impl::RelaxFuseAttentionBase<RelaxFuseAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFuseAttentionPatterns(patterns);
    // Count the attention ops the rewrite adds.
    unsigned before = 0, after = 0;
    getOperation().walk([&](AttentionOp) { ++before; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation().walk([&](AttentionOp) { ++after; });
    numFused += after - before;
  }
};
} // namespace

void relax::populateFuseAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseAttentionPattern>(patterns.getContext());
}
