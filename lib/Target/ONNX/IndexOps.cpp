//===- IndexOps.cpp - ONNX gather and scatter ops -------------------------===//
//
// The index ops: GatherElements, GatherND, ScatterND and ScatterElements
// (as ScatterND, also for the deprecated Scatter).
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
#include "Importer.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

/// `OpTy` (a gather) of the data and indices inputs, its integer attribute
/// `name` set to `value`.
template <typename OpTy>
static LogicalResult importGatherOf(NodeBinder &b, StringRef name,
                                    int64_t value) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)) ||
      b.hasBadAttr())
    return failure();
  FailureOr<Value> data = b.input(0), indices = b.input(1);
  if (failed(data) || failed(indices))
    return failure();
  return b.setOutput(0, b.create<OpTy>({*data, *indices},
                                       {b.named(name, b.i64Attr(value))}));
}

static LogicalResult importGatherElements(NodeBinder &b) {
  return importGatherOf<GatherElementsOp>(b, "axis", b.attrInt("axis", 0));
}

/// GatherND; `batch_dims` from opset 12.
static LogicalResult importGatherND(NodeBinder &b) {
  int64_t batchDims = b.opset() >= 12 ? b.attrInt("batch_dims", 0) : 0;
  if (batchDims < 0)
    return b.badAttr("batch_dims", "must not be negative");
  return importGatherOf<GatherNDOp>(b, "batch_dims", batchDims);
}

/// The `reduction` attribute of ScatterND and ScatterElements: from opset
/// 16 `none`, `add` or `mul`, from opset 18 also `max` and `min`.
static FailureOr<std::string> scatterReduction(NodeBinder &b) {
  if (b.opset() < 16)
    return std::string("none");
  std::string r = b.attrString("reduction", "none");
  if (b.hasBadAttr())
    return failure();
  if (r == "none" || r == "add" || r == "mul" ||
      (b.opset() >= 18 && (r == "max" || r == "min")))
    return r;
  (void)b.badAttr("reduction",
                  "must be 'none', 'add', 'mul'" +
                      Twine(b.opset() >= 18 ? ", 'max' or 'min'" : "") +
                      ", got '" + r + "'");
  return failure();
}

static LogicalResult importScatterND(NodeBinder &b) {
  if (failed(b.requireInputs(3, 3)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<std::string> reduction = scatterReduction(b);
  if (failed(reduction))
    return failure();
  FailureOr<Value> data = b.input(0), indices = b.input(1),
                   updates = b.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  return b.setOutput(
      0, b.create<ScatterNDOp>(
             {*data, *indices, *updates},
             {b.named("reduction", b.getBuilder().getStringAttr(*reduction))}));
}

/// ScatterElements (and Scatter, its opset 9 name) as relax.scatter_nd:
/// every element of `indices` becomes a full index tuple, its own value at
/// `axis` and its position elsewhere (`arange`s broadcast to the indices'
/// shape), so updates (the indices' shape) scatter one element per tuple.
static LogicalResult importScatterElements(NodeBinder &b) {
  if (failed(b.requireInputs(3, 3)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t axis = b.attrInt("axis", 0);
  FailureOr<std::string> reduction = scatterReduction(b);
  if (failed(reduction) || b.hasBadAttr())
    return failure();
  FailureOr<Value> data = b.input(0), indices = b.input(1),
                   updates = b.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*indices);
  if (failed(dims))
    return failure();
  int64_t rank = dims->size();
  RelaxTensorType dt = b.typeOf(*data);
  if (dt.hasRank() && dt.getRank() != rank)
    return b.error() << "indices must have the data's rank " << dt.getRank()
                     << ", got rank " << rank;
  FailureOr<int64_t> ax = b.normalizeAxis(axis, rank);
  if (failed(ax))
    return failure();
  Type i64 = b.getBuilder().getI64Type();
  SmallVector<Expr> tupleDims(*dims);
  tupleDims.push_back(Expr::constant(1));
  SmallVector<Value> parts;
  for (int64_t j = 0; j < rank; ++j) {
    FailureOr<Value> part;
    if (j == *ax) {
      part = b.castTo(*indices, i64);
      if (succeeded(part))
        part = b.create<ExpandDimsOp>(*part,
                                      {b.named("axes", b.i64Array({rank}))});
    } else {
      part = axisIota(b, (*dims)[j], j, rank + 1);
      if (succeeded(part))
        part = b.create<BroadcastToOp>(
            *part, {b.named("shape", b.shapeAttr(tupleDims))});
    }
    if (failed(part))
      return failure();
    parts.push_back(*part);
  }
  FailureOr<Value> tuples =
      parts.size() == 1
          ? FailureOr<Value>(parts[0])
          : b.create<ConcatOp>(parts, {b.named("axis", b.i64Attr(rank))});
  if (failed(tuples))
    return failure();
  return b.setOutput(
      0, b.create<ScatterNDOp>(
             {*data, *tuples, *updates},
             {b.named("reduction", b.getBuilder().getStringAttr(*reduction))}));
}

void onnx_import::addIndexOps(OpHandlerTable &table) {
  table.add("GatherElements", importGatherElements, /*sinceVersion=*/11);
  table.add("GatherND", importGatherND, /*sinceVersion=*/11);
  table.add("Scatter", importScatterElements, /*sinceVersion=*/9);
  table.add("ScatterElements", importScatterElements, /*sinceVersion=*/11);
  table.add("ScatterND", importScatterND, /*sinceVersion=*/11);
}
