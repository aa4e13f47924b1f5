//===- ShapeContracts.cpp - Run-time checks of op shape contracts ---------===//
//
// One place for every shape contract an op leaves to run time. Inference
// rejects provable violations and accepts provable agreement; what remains
// undecided (symbolic dims) is asserted here, before the op is replaced by
// its kernel, so that a violation is a message instead of an out-of-bounds
// read. The checks are relax ops (not code in the legalizers) because the
// matmul contract must survive both legalization and library dispatch.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/ShapeContracts.h"
#include "RelaxDialect/Relax/IR/Einsum.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"

using namespace mlir;
using namespace mlir::relax;

namespace {
class ContractEmitter {
public:
  ContractEmitter(OpBuilder &builder, Operation *op)
      : builder(builder), op(op), ctx(symContextAt(op)) {}

  /// `lhs == rhs`.
  void equal(const sym::Expr &lhs, const sym::Expr &rhs, const Twine &what) {
    if (!lhs || !rhs || lhs == rhs || ctx.provablyEqual(lhs, rhs))
      return;
    emit(lhs, "eq", rhs, what);
  }
  /// `lhs <= rhs`.
  void lessEqual(const sym::Expr &lhs, const sym::Expr &rhs,
                 const Twine &what) {
    if (!lhs || !rhs || ctx.isLE(lhs, rhs) == sym::Truth::True)
      return;
    emit(lhs, "le", rhs, what);
  }
  /// `lhs == rhs or lhs == 1`: lhs broadcasts to rhs.
  void broadcasts(const sym::Expr &lhs, const sym::Expr &rhs,
                  const Twine &what) {
    if (!lhs || !rhs || lhs == rhs || ctx.provablyEqual(lhs, rhs) ||
        ctx.provablyEqual(lhs, sym::Expr::constant(1)))
      return;
    emit(lhs, "broadcast", rhs, what);
  }

  /// `in` broadcasts to `out`, right-aligned (numpy rules).
  void broadcastsTo(ArrayRef<sym::Expr> in, ArrayRef<sym::Expr> out,
                    const Twine &what) {
    if (out.size() < in.size())
      return;
    size_t offset = out.size() - in.size();
    for (size_t d = 0; d < in.size(); ++d)
      broadcasts(in[d], out[d + offset], what + " dim " + Twine(d));
  }

private:
  void emit(const sym::Expr &lhs, StringRef predicate, const sym::Expr &rhs,
            const Twine &what) {
    MLIRContext *context = op->getContext();
    AssertDimsOp::create(builder, op->getLoc(),
                         SymExprAttr::get(context, lhs),
                         builder.getStringAttr(predicate),
                         SymExprAttr::get(context, rhs),
                         builder.getStringAttr(op->getName().getStringRef()),
                         builder.getStringAttr(what));
  }

  OpBuilder &builder;
  Operation *op;
  sym::Context ctx;
};
} // namespace

static RelaxTensorType rankedType(Value v) {
  auto t = dyn_cast<RelaxTensorType>(v.getType());
  return t && t.hasRank() ? t : RelaxTensorType();
}

/// `axis` counted from the front of `rank` dims; -1 when out of range.
static int64_t normalizedAxis(int64_t axis, int64_t rank) {
  if (axis < 0)
    axis += rank;
  return axis < 0 || axis >= rank ? -1 : axis;
}

/// Index values are data: checked on the host before the kernel, against
/// one extent (SymExprAttr) or one per tuple position (ShapeExprAttr).
static void assertIndices(OpBuilder &builder, Operation *op, Value indices,
                          Attribute extent) {
  AssertIndicesOp::create(builder, op->getLoc(), indices, extent,
                          builder.getStringAttr(op->getName().getStringRef()));
}

void relax::emitShapeContractChecks(OpBuilder &builder, Operation *op) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(op);
  ContractEmitter check(builder, op);
  if (isa<ReshapeOp>(op)) {
    // The result's element count must be the input's; a mismatch reads past
    // the input or leaves part of the output unwritten.
    RelaxTensorType in = rankedType(op->getOperand(0));
    RelaxTensorType out = rankedType(op->getResult(0));
    if (in && out)
      check.equal(out.getShape().getNumElements(),
                  in.getShape().getNumElements(), "element count");
    return;
  }
  if (isa<BroadcastToOp>(op)) {
    RelaxTensorType in = rankedType(op->getOperand(0));
    RelaxTensorType out = rankedType(op->getResult(0));
    if (in && out)
      check.broadcastsTo(in.getDims(), out.getDims(), "input");
    return;
  }
  if (op->hasTrait<BroadcastsOperands>()) {
    // Inference keeps one dim where it cannot decide how two relate (see
    // broadcastShapes): every operand must broadcast to it.
    RelaxTensorType out = rankedType(op->getResult(0));
    if (!out)
      return;
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (RelaxTensorType in = rankedType(operand))
        check.broadcastsTo(in.getDims(), out.getDims(),
                           "operand #" + Twine(i));
    return;
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    // Dims off the axis that inference could not prove equal: the result
    // keeps one of them (simplerDim), the others must match it.
    RelaxTensorType out = rankedType(op->getResult(0));
    if (!out)
      return;
    int64_t axis =
        normalizedAxis(static_cast<int64_t>(concat.getAxis()), out.getRank());
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      RelaxTensorType in = rankedType(operand);
      if (!in || in.getRank() != out.getRank())
        continue;
      for (int64_t d = 0; d < in.getRank(); ++d)
        if (d != axis)
          check.equal(in.getDims()[d], out.getDims()[d],
                      "input #" + Twine(i) + " dim " + Twine(d));
    }
    return;
  }
  if (isa<MatmulOp>(op)) {
    RelaxTensorType lhs = rankedType(op->getOperand(0));
    RelaxTensorType rhs = rankedType(op->getOperand(1));
    RelaxTensorType out = rankedType(op->getResult(0));
    if (!lhs || !rhs || lhs.getRank() == 0 || rhs.getRank() == 0)
      return;
    sym::Expr kl = lhs.getDims().back();
    sym::Expr kr = rhs.getDims()[rhs.getRank() == 1 ? 0 : rhs.getRank() - 2];
    check.equal(kl, kr, "contraction dim");
    // Batch dims (all but the last two of a rank >= 2 operand) broadcast to
    // the result's leading dims.
    if (!out)
      return;
    int64_t matrixDims = (lhs.getRank() >= 2) + (rhs.getRank() >= 2);
    ArrayRef<sym::Expr> outBatch =
        out.getDims().drop_back(std::min(matrixDims, out.getRank()));
    if (lhs.getRank() > 2)
      check.broadcastsTo(lhs.getDims().drop_back(2), outBatch, "lhs batch");
    if (rhs.getRank() > 2)
      check.broadcastsTo(rhs.getDims().drop_back(2), outBatch, "rhs batch");
    return;
  }
  if (isa<LinearOp>(op)) {
    // x [..., k] times weight [out, k]^T, plus a bias broadcast to the
    // result.
    RelaxTensorType x = rankedType(op->getOperand(0));
    RelaxTensorType w = rankedType(op->getOperand(1));
    RelaxTensorType out = rankedType(op->getResult(0));
    if (x && w && x.getRank() >= 1 && w.getRank() == 2)
      check.equal(x.getDims().back(), w.getDims()[1], "contraction dim");
    if (op->getNumOperands() > 2 && out)
      if (RelaxTensorType bias = rankedType(op->getOperand(2)))
        check.broadcastsTo(bias.getDims(), out.getDims(), "bias");
    return;
  }
  if (auto dequantize = dyn_cast<DequantizeOp>(op)) {
    // The kernel reads scales (and zeros) at [j, l / G] for every element
    // [j, l] of the row: their groups must cover it exactly.
    RelaxTensorType q = rankedType(dequantize.getQ());
    RelaxTensorType scales = rankedType(dequantize.getScales());
    RelaxTensorType out = rankedType(op->getResult(0));
    if (!q || !scales || !out || q.getRank() != 2 || scales.getRank() != 2)
      return;
    check.equal(scales.getDims()[0], out.getDims()[0], "scales dim 0");
    // (No std::optional here: GCC 12 reports its engaged flag as maybe
    // uninitialized through the inlined Twine below.)
    int64_t group = dequantize.getGroupSize().value_or(0);
    sym::Expr g = scales.getDims()[1];
    check.equal(group && g ? g * sym::Expr::constant(group) : g,
                group ? out.getDims()[1] : sym::Expr::constant(1),
                group ? "scales dim 1 * group_size" : "scales dim 1");
    if (Value z = dequantize.getZeros())
      if (RelaxTensorType zeros = rankedType(z); zeros && zeros.getRank() == 2)
        for (int64_t d = 0; d < 2; ++d)
          check.equal(zeros.getDims()[d], scales.getDims()[d],
                      "zeros dim " + Twine(d));
    return;
  }
  if (auto split = dyn_cast<SplitOp>(op)) {
    // Symbolic split indices must be ordered and within the axis: the
    // pieces are differences of them and must not be negative.
    ShapeExprAttr indices = split.getIndicesAttr();
    RelaxTensorType in = rankedType(op->getOperand(0));
    if (!indices || !indices.getShape().hasRank() || !in)
      return;
    auto axis = static_cast<int64_t>(split.getAxis());
    if (axis < 0)
      axis += in.getRank();
    if (axis < 0 || axis >= in.getRank())
      return;
    sym::Expr prev = sym::Expr::constant(0);
    for (auto [i, index] : llvm::enumerate(indices.getShape().getDims())) {
      check.lessEqual(prev, index, "split index #" + Twine(i));
      prev = index;
    }
    check.lessEqual(prev, in.getDims()[axis],
                    "last split index vs dim " + Twine(axis));
    return;
  }
  if (isa<RNNOp, GRUOp, LSTMOp>(op)) {
    // The kernel loops over xw's seq, batch and directions and r's hidden
    // size H and indexes every operand with them: each dim that inference
    // could not relate (xw's 9 against r's 3 * h) must agree.
    bool isLSTM = isa<LSTMOp>(op);
    int64_t gates = isLSTM ? 4 : isa<GRUOp>(op) ? 3 : 1;
    SmallVector<RelaxTensorType> t;
    for (Value v : op->getOperands()) {
      t.push_back(rankedType(v));
      if (!t.back())
        return;
    }
    RelaxTensorType xw = t[0], r = t[1];
    if (xw.getRank() != 4 || r.getRank() != 3)
      return;
    sym::Expr batch = xw.getDims()[1], dirs = xw.getDims()[2],
              hidden = r.getDims()[2];
    sym::Expr gh = hidden ? hidden * gates : sym::Expr();
    check.equal(xw.getDims()[3], gh, "xw dim 3 vs gates * r dim 2");
    check.equal(r.getDims()[0], dirs, "r dim 0 vs xw dim 2 (directions)");
    check.equal(r.getDims()[1], gh, "r dim 1 vs gates * r dim 2");
    // (operand, its dims in order: directions, batch or gates, hidden...)
    auto expect = [&](unsigned i, ArrayRef<sym::Expr> dims, StringRef what) {
      if (t[i].getRank() != static_cast<int64_t>(dims.size()))
        return;
      for (auto [d, e] : llvm::enumerate(dims))
        check.equal(t[i].getDims()[d], e,
                    what + " dim " + Twine(d));
    };
    expect(2, {dirs, gh}, "rb");
    expect(3, {dirs, batch, hidden}, "initial_h");
    if (isLSTM) {
      expect(4, {dirs, batch, hidden}, "initial_c");
      expect(5, {dirs, hidden ? hidden * 3 : sym::Expr()}, "peepholes");
    }
    expect(op->getNumOperands() - 1, {batch}, "sequence_lens");
    return;
  }
  if (isa<Conv2DTransposeOp>(op)) {
    // The kernel reads weight[ic, ...] for every input channel ic.
    RelaxTensorType in = rankedType(op->getOperand(0));
    RelaxTensorType weight = rankedType(op->getOperand(1));
    if (in && weight && in.getRank() == 4 && weight.getRank() == 4)
      check.equal(in.getDims()[1], weight.getDims()[0],
                  "input channels vs weight dim 0");
    return;
  }
  if (auto einsum = dyn_cast<EinsumOp>(op)) {
    // Every occurrence of a label spans the extent the kernel loops over
    // (its first occurrence); ellipsis dims broadcast into the output.
    SmallVector<RelaxTensorType> types;
    SmallVector<std::optional<int64_t>> ranks;
    for (Value v : op->getOperands()) {
      types.push_back(rankedType(v));
      if (!types.back())
        return;
      ranks.push_back(types.back().getRank());
    }
    RelaxTensorType out = rankedType(op->getResult(0));
    std::string error;
    FailureOr<EinsumSpec> spec =
        parseEinsum(einsum.getEquation(), ranks, error);
    if (failed(spec) || !out)
      return;
    SmallVector<sym::Expr> first(spec->numLabels());
    for (auto [i, labels] : llvm::enumerate(spec->operands))
      for (auto [axis, label] : llvm::enumerate(labels)) {
        const sym::Expr &dim = types[i].getDims()[axis];
        std::string what = ("operand #" + Twine(i) + " dim " + Twine(axis) +
                            " (" + spec->describe(label) + ")")
                               .str();
        if (spec->isBatch(label)) {
          auto pos = llvm::find(spec->output, label) - spec->output.begin();
          check.broadcasts(dim, out.getDims()[pos], what);
        } else if (!first[label]) {
          first[label] = dim;
        } else {
          check.equal(dim, first[label], what);
        }
      }
    return;
  }
  if (auto take = dyn_cast<TakeOp>(op)) {
    // Index values are data: checked on the host before the kernel.
    RelaxTensorType in = rankedType(op->getOperand(0));
    if (!in)
      return;
    sym::Expr extent = in.getShape().getNumElements();
    if (std::optional<uint64_t> axisAttr = take.getAxis()) {
      int64_t axis =
          normalizedAxis(static_cast<int64_t>(*axisAttr), in.getRank());
      if (axis < 0)
        return;
      extent = in.getDims()[axis];
    }
    if (extent)
      assertIndices(builder, op, op->getOperand(1),
                    SymExprAttr::get(op->getContext(), extent));
    return;
  }
  if (auto gather = dyn_cast<GatherElementsOp>(op)) {
    // The other dims of indices must fit in the data's; the values must fit
    // the axis.
    RelaxTensorType data = rankedType(op->getOperand(0));
    RelaxTensorType indices = rankedType(op->getOperand(1));
    if (!data || !indices || data.getRank() != indices.getRank())
      return;
    int64_t axis = normalizedAxis(gather.getAxis(), data.getRank());
    if (axis < 0)
      return;
    for (int64_t d = 0; d < data.getRank(); ++d)
      if (d != axis)
        check.lessEqual(indices.getDims()[d], data.getDims()[d],
                        "indices dim " + Twine(d) + " vs data dim");
    if (sym::Expr extent = data.getDims()[axis])
      assertIndices(builder, op, op->getOperand(1),
                    SymExprAttr::get(op->getContext(), extent));
    return;
  }
  if (isa<GatherNDOp, ScatterNDOp>(op)) {
    // Shared dims must agree (gather_nd's batch, scatter_nd's updates
    // shape); each tuple position is checked against its own data dim.
    RelaxTensorType data = rankedType(op->getOperand(0));
    RelaxTensorType indices = rankedType(op->getOperand(1));
    if (!data || !indices || indices.getRank() == 0)
      return;
    std::optional<int64_t> q = indices.getDims().back().getConstant();
    auto gatherND = dyn_cast<GatherNDOp>(op);
    int64_t b = gatherND ? gatherND.getBatchDims() : 0;
    if (!q || b < 0 || b + *q > data.getRank())
      return;
    for (int64_t d = 0; d < b; ++d)
      check.equal(indices.getDims()[d], data.getDims()[d],
                  "batch dim " + Twine(d));
    if (!gatherND) {
      RelaxTensorType updates = rankedType(op->getOperand(2));
      SmallVector<sym::Expr> expected(indices.getDims().drop_back());
      llvm::append_range(expected, data.getDims().drop_front(*q));
      if (!updates || updates.getRank() != (int64_t)expected.size())
        return;
      for (auto [d, pair] :
           llvm::enumerate(llvm::zip(updates.getDims(), expected)))
        check.equal(std::get<0>(pair), std::get<1>(pair),
                    "updates dim " + Twine(d));
    }
    ArrayRef<sym::Expr> extents = data.getDims().slice(b, *q);
    if (llvm::all_of(extents, [](const sym::Expr &e) { return bool(e); }))
      assertIndices(builder, op, op->getOperand(1),
                    ShapeExprAttr::get(op->getContext(), SymShape(extents)));
    return;
  }
  if (isa<Resize2DOp>(op)) {
    // Sizes such as `w - 1` must not be negative, and every output element
    // reads the input (nearest or interpolated): an output with elements
    // needs an input with elements.
    RelaxTensorType in = rankedType(op->getOperand(0));
    RelaxTensorType out = rankedType(op->getResult(0));
    if (!in || !out)
      return;
    sym::Expr zero = sym::Expr::constant(0), one = sym::Expr::constant(1);
    sym::Expr outElements = one;
    for (int64_t d = 0; d < out.getRank(); ++d) {
      check.lessEqual(zero, out.getDims()[d],
                      "result dim " + Twine(d) + " (not negative)");
      outElements = out.getDims()[d] ? outElements * out.getDims()[d]
                                     : sym::Expr();
      if (!outElements)
        break;
    }
    if (outElements)
      for (int64_t d = 0; d < in.getRank(); ++d)
        check.lessEqual(sym::min(one, outElements), in.getDims()[d],
                        "input dim " + Twine(d) +
                            " (not empty when the result has elements)");
    return;
  }
  if (auto pad = dyn_cast<PadOp>(op)) {
    // A result dim must not be negative (cropping by more than the dim);
    // the non-constant modes read the input at every output position, so a
    // padded dim must have an element.
    RelaxTensorType in = rankedType(op->getOperand(0));
    RelaxTensorType out = rankedType(op->getResult(0));
    if (!in || !out)
      return;
    bool constantMode = pad.getMode() == "constant";
    const SymShape &before = pad.getPadBefore().getShape();
    const SymShape &after = pad.getPadAfter().getShape();
    sym::Expr zero = sym::Expr::constant(0);
    for (int64_t d = 0; d < in.getRank(); ++d) {
      check.lessEqual(zero, out.getDims()[d],
                      "result dim " + Twine(d) + " (not negative)");
      if (!constantMode && (before.getDim(d) != zero || after.getDim(d) != zero))
        check.lessEqual(sym::Expr::constant(1), in.getDims()[d],
                        "padded dim " + Twine(d) + " (not empty)");
    }
    return;
  }
}
