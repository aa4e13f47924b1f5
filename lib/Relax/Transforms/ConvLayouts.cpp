//===- ConvLayouts.cpp - Plan of the fused convolutions -------------------===//
//
// Which conv2d ops the fused convolution built-in computes, the epilogue
// each absorbs and the layout of each output, decided for the whole
// function before --relax-dispatch-library makes a call. Deciding each
// output from its users at once (rather than conv by conv as the walk made
// the calls, patching the calls made earlier) lets an output that only
// fused convolutions read stay in a layout private to them: oneDNN's
// blocked one, in which its convolutions read and write without a reorder.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/ConvLayouts.h"

#include "RelaxDialect/Extern/IR/Builtins.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::relax;

Operation *mlir::relax::soleUser(Value v) {
  return v.hasOneUse() ? *v.getUsers().begin() : nullptr;
}

/// Whether `op` permutes a rank-4 tensor by `axes`.
static bool permutesBy(PermuteDimsOp op, ArrayRef<int64_t> axes) {
  auto input = dyn_cast<RelaxTensorType>(op.getInput().getType());
  std::optional<ArrayRef<int64_t>> given = op.getAxes();
  return input && input.hasRank() && input.getRank() == 4 && given &&
         llvm::equal(*given, axes);
}

bool mlir::relax::isNhwcToNchw(PermuteDimsOp op) {
  return permutesBy(op, {0, 3, 1, 2});
}

/// Whether `op` makes NHWC from NCHW (`axes = [0, 2, 3, 1]`): a fused
/// convolution whose output only such views read writes NHWC itself.
static bool isNchwToNhwc(PermuteDimsOp op) {
  return permutesBy(op, {0, 2, 3, 1});
}

/// Whether `op` is a conv2d the fused built-in can take: constant weights,
/// rank-4 tensors of one dtype, a known output shape.
static bool takesFusedConv(Conv2DOp op) {
  auto x = dyn_cast<RelaxTensorType>(op.getInput().getType());
  auto w = dyn_cast<RelaxTensorType>(op.getWeight().getType());
  auto y = dyn_cast<RelaxTensorType>(op.getResult().getType());
  return x && w && y && x.hasRank() && w.hasRank() && y.hasRank() &&
         x.getRank() == 4 && w.getRank() == 4 && y.getRank() == 4 &&
         y.getShape().isFullyKnown() && x.getDtype() == w.getDtype() &&
         y.getDtype() == x.getDtype() &&
         op.getWeight().getDefiningOp<ConstantOp>();
}

std::optional<std::array<int64_t, 9>> mlir::relax::convWindow(Conv2DOp op) {
  // (stride h, w), (pad top, left, bottom, right), (dilation h, w).
  int64_t stride[2] = {1, 1}, pad[4] = {0, 0, 0, 0}, dilation[2] = {1, 1};
  auto pairOf = [](std::optional<ArrayRef<int64_t>> v, int64_t *out) {
    if (!v)
      return true;
    if (v->size() != 1 && v->size() != 2)
      return false;
    out[0] = v->front();
    out[1] = v->back();
    return out[0] > 0 && out[1] > 0;
  };
  if (!pairOf(op.getStrides(), stride) || !pairOf(op.getDilation(), dilation))
    return std::nullopt;
  if (std::optional<ArrayRef<int64_t>> p = op.getPadding()) {
    if (p->size() == 1)
      std::fill(pad, pad + 4, (*p)[0]);
    else if (p->size() == 2)
      pad[0] = pad[2] = (*p)[0], pad[1] = pad[3] = (*p)[1];
    else if (p->size() == 4)
      std::copy(p->begin(), p->end(), pad);
    else
      return std::nullopt;
    if (llvm::any_of(pad, [](int64_t v) { return v < 0; }))
      return std::nullopt;
  }
  auto groups = static_cast<int64_t>(op.getGroups());
  if (groups <= 0)
    return std::nullopt;
  return std::array<int64_t, 9>{stride[0],   stride[1],   pad[0],
                                pad[1],      pad[2],      pad[3],
                                dilation[0], dilation[1], groups};
}

/// `b` as a rank-1 bias of `channels` values when it is [o, 1, 1] or
/// [1, o, 1, 1] (broadcasting over NCHW's channels): expand_dims of a
/// rank-1 tensor, or a dense constant.
static bool matchConvBias(Value b, const sym::Expr &channels,
                          ConvEpilogue &epilogue) {
  auto type = dyn_cast<RelaxTensorType>(b.getType());
  if (!type || !type.hasRank() || (type.getRank() != 3 && type.getRank() != 4))
    return false;
  ArrayRef<sym::Expr> dims = type.getDims();
  unsigned c = type.getRank() - 3;
  auto one = [](const sym::Expr &d) {
    auto v = d.getConstant();
    return v && *v == 1;
  };
  if (!dims[c] || dims[c] != channels || !one(dims[c + 1]) ||
      !one(dims[c + 2]) || (c == 1 && !one(dims[0])))
    return false;
  if (auto expand = b.getDefiningOp<ExpandDimsOp>()) {
    auto input = dyn_cast<RelaxTensorType>(expand.getInput().getType());
    if (input && input.hasRank() && input.getRank() == 1 &&
        input.getDtype() == type.getDtype()) {
      epilogue.bias = expand.getInput();
      return true;
    }
  }
  if (auto constant = b.getDefiningOp<ConstantOp>()) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    auto count = channels.getConstant();
    if (dense && count) {
      epilogue.biasAttr = dense.reshape(
          RankedTensorType::get({*count}, dense.getElementType()));
      return true;
    }
  }
  return false;
}

/// The epilogue of `conv` (possibly empty), leaving out the ops an earlier
/// convolution's epilogue `claimed`: an add of two convolutions' outputs
/// is absorbed by the one that comes first.
static ConvEpilogue
matchConvEpilogue(Conv2DOp conv, const llvm::DenseSet<Operation *> &claimed) {
  ConvEpilogue epilogue;
  epilogue.last = conv;
  Value current = conv.getResult();
  auto type = cast<RelaxTensorType>(current.getType());
  const sym::Expr &channels = type.getDims()[1];
  auto next = [&]() -> Operation * {
    Operation *user = soleUser(current);
    return user && !claimed.contains(user) ? user : nullptr;
  };
  auto take = [&](Operation *op) {
    epilogue.ops.push_back(op);
    epilogue.last = op;
    current = op->getResult(0);
  };
  auto otherOperand = [](AddOp add, Value v) -> OpOperand & {
    return add->getOpOperand(add.getLhs() == v ? 1 : 0);
  };
  if (auto add = dyn_cast_or_null<AddOp>(next())) {
    if (add.getResult().getType() == type &&
        matchConvBias(otherOperand(add, current).get(), channels, epilogue))
      take(add);
  }
  if (auto add = dyn_cast_or_null<AddOp>(next())) {
    OpOperand &r = otherOperand(add, current);
    if (add.getResult().getType() == type && r.get().getType() == type &&
        r.get() != current) {
      epilogue.residual = &r;
      take(add);
    }
  }
  if (auto relu = dyn_cast_or_null<ReluOp>(next())) {
    if (relu.getResult().getType() == type) {
      epilogue.relu = true;
      take(relu);
    }
  }
  return epilogue;
}

SmallVector<FusedConvPlan> mlir::relax::planFusedConvs(Operation *root) {
  // The convolutions and their epilogues, in program order of the convs.
  SmallVector<FusedConvPlan> plans;
  llvm::DenseSet<Operation *> claimed;
  root->walk<WalkOrder::PreOrder>([&](Conv2DOp conv) {
    std::optional<std::array<int64_t, 9>> window = convWindow(conv);
    if (!takesFusedConv(conv) || !window)
      return;
    ConvEpilogue epilogue = matchConvEpilogue(conv, claimed);
    auto resultType = cast<RelaxTensorType>(conv.getResult().getType());
    ext::BuiltinSpec spec;
    spec.kind = ext::BuiltinKind::Conv2D;
    spec.target = ext::BuiltinTarget::CPU;
    spec.dtype = resultType.getDtype();
    spec.constantB = true;
    spec.convEpilogue = true;
    spec.residual = epilogue.residual != nullptr;
    if (!ext::whyUnsupported(spec).empty())
      return;
    // Without a bias the call adds zeros, one per output channel.
    if (!epilogue.bias && !epilogue.biasAttr &&
        !resultType.getDims()[1].getConstant())
      return;
    claimed.insert(epilogue.ops.begin(), epilogue.ops.end());
    FusedConvPlan plan;
    plan.conv = conv;
    plan.epilogue = std::move(epilogue);
    plan.window = *window;
    plans.push_back(std::move(plan));
  });

  // What the planned calls read: inputs (operand 0 of the conv) and the
  // residuals of their epilogues.
  llvm::DenseSet<Operation *> plannedConvs;
  llvm::DenseSet<OpOperand *> residualUses;
  for (const FusedConvPlan &plan : plans) {
    plannedConvs.insert(plan.conv);
    if (plan.epilogue.residual)
      residualUses.insert(plan.epilogue.residual);
  }
  auto readByPlannedCall = [&](OpOperand &use) {
    return (use.getOperandNumber() == 0 &&
            plannedConvs.contains(use.getOwner())) ||
           residualUses.contains(&use);
  };
  for (FusedConvPlan &plan : plans) {
    Value result = plan.epilogue.last->getResult(0);
    if (result.use_empty())
      continue;
    if (llvm::all_of(result.getUsers(), [](Operation *user) {
          auto permute = dyn_cast<PermuteDimsOp>(user);
          return permute && isNchwToNhwc(permute);
        })) {
      plan.output = ConvLayout::Nhwc;
      plan.replacesNhwcViews = true;
    } else if (llvm::all_of(result.getUses(), readByPlannedCall)) {
      // Only oneDNN's kernels (f32) have blocked layouts; an f64 chain
      // stays NHWC, which its kernels read in place.
      auto type = cast<RelaxTensorType>(result.getType());
      plan.output =
          type.getDtype().isF32() ? ConvLayout::Private : ConvLayout::Nhwc;
    }
  }

  // The calls in the order of the ops they replace: a call reads the
  // outputs of the calls made before it.
  llvm::DenseMap<Operation *, unsigned> byLast;
  for (auto [i, plan] : llvm::enumerate(plans))
    byLast[plan.epilogue.last] = i;
  SmallVector<FusedConvPlan> ordered;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto it = byLast.find(op);
    if (it != byLast.end())
      ordered.push_back(std::move(plans[it->second]));
  });
  return ordered;
}
