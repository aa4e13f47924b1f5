//===- ReductionOps.cpp - ONNX reductions and scans -----------------------===//
//
// ReduceMean/Sum/Max/Min/Prod and the composed ReduceSumSquare/LogSum/
// LogSumExp/L1/L2 (axes an attribute, from opset 18 an input; ReduceSum
// from 13), ArgMax/ArgMin (select_last_index through a reversed axis), and
// CumSum (exclusive and reverse forms composed around relax.cumsum).
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
#include "Importer.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

/// `x` with axis `axis` (of size `dim`) reversed.
static FailureOr<Value> reverseAxis(NodeBinder &b, Value x, int64_t axis,
                                    Expr dim) {
  return b.create<StridedSliceOp>(
      x, {b.named("axes", b.i64Array({axis})),
          b.named("begin", b.shapeAttr({dim - 1})),
          b.named("end", b.shapeAttr({Expr::constant(-kBoundLimit)})),
          b.named("strides", b.i64Array({-1}))});
}

/// Reduces `x` (the node's input 0, possibly transformed) by `OpTy` with the
/// node's axes/keepdims/noop_with_empty_axes.
template <typename OpTy>
static FailureOr<Value> reduceWith(NodeBinder &b, Value x) {
  bool axesInput =
      b.opset() >= 18 || (b.getOpType() == "ReduceSum" && b.opset() >= 13);
  if (failed(b.requireInputs(1, axesInput ? 2 : 1)) ||
      failed(b.requireOutputs(1)))
    return failure();
  bool keepdims = attrFlag(b, "keepdims", true);
  bool noop = axesInput && attrFlag(b, "noop_with_empty_axes", false);
  std::optional<SmallVector<int64_t>> axes;
  if (axesInput) {
    if (b.hasInput(1)) {
      FailureOr<SmallVector<int64_t>> a = b.constInts(1, "the axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  } else {
    axes = b.attrInts("axes");
  }
  if (axes && axes->empty())
    axes.reset();
  if (!axes && noop)
    return x;
  SmallVector<NamedAttribute> attrs{b.named("keepdims", b.boolAttr(keepdims))};
  if (axes)
    attrs.push_back(b.named("axes", b.i64Array(*axes)));
  return b.create<OpTy>(x, attrs);
}

template <typename OpTy> static LogicalResult importReduce(NodeBinder &b) {
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  return b.setOutput(0, reduceWith<OpTy>(b, *x));
}

static LogicalResult importReduceSumSquare(NodeBinder &b) {
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> sq = b.create<MultiplyOp>({*x, *x});
  if (failed(sq))
    return failure();
  return b.setOutput(0, reduceWith<SumOp>(b, *sq));
}

static LogicalResult importReduceLogSum(NodeBinder &b) {
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = reduceWith<SumOp>(b, *x);
  if (failed(y) || failed(y = b.create<LogOp>(*y)))
    return failure();
  b.setOutput(0, *y);
  return success();
}

static LogicalResult importReduceLogSumExp(NodeBinder &b) {
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> e = b.create<ExpOp>(*x);
  if (failed(e))
    return failure();
  FailureOr<Value> y = reduceWith<SumOp>(b, *e);
  if (failed(y) || failed(y = b.create<LogOp>(*y)))
    return failure();
  b.setOutput(0, *y);
  return success();
}

/// ReduceL1 (sum of |x|) and ReduceL2 (square root of the sum of squares).
template <bool isL2> static LogicalResult importReduceNorm(NodeBinder &b) {
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> terms =
      isL2 ? b.create<MultiplyOp>({*x, *x}) : b.create<AbsOp>(*x);
  if (failed(terms))
    return failure();
  FailureOr<Value> y = reduceWith<SumOp>(b, *terms);
  if (isL2 && succeeded(y))
    y = b.create<SqrtOp>(*y);
  return b.setOutput(0, y);
}

template <typename OpTy> static LogicalResult importArgReduce(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t axis = b.attrInt("axis", 0);
  bool keepdims = attrFlag(b, "keepdims", true);
  bool last = b.opset() >= 12 && attrFlag(b, "select_last_index", false);
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> ax = b.normalizeAxis(axis, dims->size());
  if (failed(ax))
    return failure();
  Value in = *x;
  if (last) {
    // The last maximal index: argmax of the reversed axis, mirrored back.
    FailureOr<Value> rev = reverseAxis(b, in, *ax, (*dims)[*ax]);
    if (failed(rev))
      return failure();
    in = *rev;
  }
  FailureOr<Value> y =
      b.create<OpTy>(in, {b.named("axis", b.i64Attr(*ax)),
                          b.named("keepdims", b.boolAttr(keepdims))});
  if (failed(y))
    return failure();
  if (last) {
    FailureOr<Value> top =
        b.symScalar((*dims)[*ax] - 1, b.getBuilder().getI64Type());
    if (failed(top) || failed(y = b.create<SubtractOp>({*top, *y})))
      return failure();
  }
  b.setOutput(0, *y);
  return success();
}

static LogicalResult importCumSum(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  bool exclusive = attrFlag(b, "exclusive", false);
  bool reverse = attrFlag(b, "reverse", false);
  FailureOr<SmallVector<int64_t>> axisV = b.constInts(1, "the axis");
  if (failed(axisV))
    return failure();
  if (axisV->size() != 1)
    return b.error() << "the axis must be one value";
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> ax = b.normalizeAxis((*axisV)[0], dims->size());
  if (failed(ax))
    return failure();
  // reverse: flip the axis before and after.
  auto flip = [&](Value v) { return reverseAxis(b, v, *ax, (*dims)[*ax]); };

  FailureOr<Value> in = reverse ? flip(*x) : FailureOr<Value>(*x);
  if (failed(in))
    return failure();
  FailureOr<Value> y =
      b.create<CumsumOp>(*in, {b.named("axis", b.i64Attr(*ax))});
  if (failed(y))
    return failure();
  if (exclusive && failed(y = b.create<SubtractOp>({*y, *in})))
    return failure();
  if (reverse && failed(y = flip(*y)))
    return failure();
  b.setOutput(0, *y);
  return success();
}

void onnx_import::addReductionOps(OpHandlerTable &table) {
  table.add("ArgMax", importArgReduce<ArgmaxOp>);
  table.add("ArgMin", importArgReduce<ArgminOp>);
  table.add("CumSum", importCumSum);
  table.add("ReduceL1", importReduceNorm</*isL2=*/false>);
  table.add("ReduceL2", importReduceNorm</*isL2=*/true>);
  table.add("ReduceLogSum", importReduceLogSum);
  table.add("ReduceLogSumExp", importReduceLogSumExp);
  table.add("ReduceMax", importReduce<MaxOp>);
  table.add("ReduceMean", importReduce<MeanOp>);
  table.add("ReduceMin", importReduce<MinOp>);
  table.add("ReduceProd", importReduce<ProdOp>);
  table.add("ReduceSum", importReduce<SumOp>);
  table.add("ReduceSumSquare", importReduceSumSquare);
}
