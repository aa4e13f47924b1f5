//===- PadTileTriluOps.cpp - ONNX Pad, Tile and Trilu ---------------------===//
//
// Pad (constant, reflect, edge and, from opset 19, wrap; pads and value
// known at import time or run-time data), Tile and Trilu.
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
#include "Importer.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

static LogicalResult importTile(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  if (b.knownConstant(1)) {
    FailureOr<SmallVector<int64_t>> repeats = b.constInts(1, "the repeats");
    if (failed(repeats))
      return failure();
    // onnx wants one repeat per dim; relax.tile, like numpy, would pad a
    // shorter list with leading ones.
    RelaxTensorType xt = NodeBinder::typeOf(*x);
    if (xt.hasRank() && static_cast<int64_t>(repeats->size()) != xt.getRank())
      return b.error() << "has " << repeats->size() << " repeats for rank "
                       << xt.getRank();
    return b.setOutput(
        0, b.create<TileOp>(*x, {b.named("repeats", b.i64Array(*repeats))}));
  }
  // Symbolic or run-time repeats r: [d0, d1] viewed as [1, d0, 1, d1],
  // broadcast to [r0, d0, r1, d1] and flattened to [r0 * d0, r1 * d1].
  FailureOr<SmallVector<Expr>> repeats =
      b.shapeInput(1, "the repeats (input #1)");
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(repeats) || failed(dims))
    return failure();
  if (repeats->size() != dims->size())
    return b.error() << "has " << repeats->size() << " repeats for rank "
                     << dims->size();
  SmallVector<Expr> spread, broadcast, out;
  for (auto [d, r] : llvm::zip(*dims, *repeats)) {
    spread.append({Expr::constant(1), d});
    broadcast.append({r, d});
    out.push_back(r * d);
  }
  FailureOr<Value> y = b.reshape(*x, spread);
  if (succeeded(y))
    y = b.create<BroadcastToOp>(*y, {b.named("shape", b.shapeAttr(broadcast))});
  return b.setOutput(0, failed(y) ? y : b.reshape(*y, out));
}

/// A scalar attribute value read from a one-element constant of any dtype.
static double scalarValue(DenseElementsAttr c) {
  Type t = c.getElementType();
  if (isa<FloatType>(t))
    return (*c.getValues<APFloat>().begin()).convertToDouble();
  APInt v = *c.getValues<APInt>().begin();
  if (t.isUnsignedInteger() || t.isInteger(1))
    return static_cast<double>(v.getZExtValue());
  return static_cast<double>(v.getSExtValue());
}

/// Trilu: relax.trilu with `k` from the optional input, known at import
/// time as a constant or a symbolic integer. A `k` that is run-time data
/// composes the mask instead: `j - i >= k` (upper) or `j - i <= k` over
/// the last two dims, and a `where` against 0.
static LogicalResult importTrilu(NodeBinder &b) {
  if (failed(b.requireInputs(1, 2)) || failed(b.requireOutputs(1)))
    return failure();
  bool upper = attrFlag(b, "upper", true);
  if (b.hasBadAttr())
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Expr k = Expr::constant(0);
  Value runtimeK;
  if (b.hasInput(1)) {
    if (std::optional<KnownInts> known = b.knownInts(1)) {
      if (known->elems.size() != 1)
        return b.error() << "k (input #1) must be a scalar";
      k = known->elems[0];
      if (std::optional<int64_t> c = k.getConstant())
        k = Expr::constant(std::clamp(*c, -kBoundLimit, kBoundLimit));
    } else {
      FailureOr<Value> v = b.input(1);
      if (failed(v))
        return failure();
      runtimeK = *v;
    }
  }
  if (!runtimeK)
    return b.setOutput(
        0, b.create<TriluOp>(*x, {b.named("upper", b.boolAttr(upper)),
                                  b.named("k", b.exprAttr(k))}));
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  if (dims->size() < 2)
    return b.error() << "needs an input of rank >= 2, got rank "
                     << dims->size();
  Type i64 = b.getBuilder().getI64Type();
  Expr n = (*dims)[dims->size() - 2], m = dims->back();
  FailureOr<Value> rows = axisIota(b, n, 0, 2), cols = axisIota(b, m, 1, 2);
  FailureOr<Value> kv = b.castTo(runtimeK, i64);
  if (failed(rows) || failed(cols) || failed(kv) ||
      failed(kv = b.reshape(*kv, {})))
    return failure();
  FailureOr<Value> diff = b.create<SubtractOp>({*cols, *rows});
  if (failed(diff))
    return failure();
  FailureOr<Value> keep = upper ? b.create<GreaterEqualOp>({*diff, *kv})
                                : b.create<LessEqualOp>({*diff, *kv});
  FailureOr<Value> zero = b.scalar(0.0, b.typeOf(*x).getDtype());
  if (failed(keep) || failed(zero))
    return failure();
  return b.setOutput(0, b.create<WhereOp>({*keep, *x, *zero}));
}

/// Pad: relax.pad. Opset 1 reads the `paddings` attribute, opset 2 `pads`
/// and `value`; from opset 11 the pads (known at import time, constant or
/// symbolic, or run-time data bound as non-negative dims) and the constant
/// value are inputs, from opset 18 an `axes`
/// input selects the padded dims, and opset 19 adds mode `wrap`. A
/// constant value that is run-time data pads with 0 and selects the value
/// where a padded all-true mask is false.
static LogicalResult importPad(NodeBinder &b) {
  int64_t opset = b.opset();
  if (failed(b.requireInputs(opset >= 11 ? 2 : 1,
                             opset >= 18 ? 4 : (opset >= 11 ? 3 : 1))) ||
      failed(b.requireOutputs(1)))
    return failure();
  std::string mode = b.attrString("mode", "constant");
  SmallVector<Expr> pads;
  std::optional<SmallVector<int64_t>> axes;
  double value = 0;
  Value runtimeValue;
  if (opset < 11) {
    StringRef name = opset < 2 ? "paddings" : "pads";
    std::optional<SmallVector<int64_t>> p = b.attrInts(name);
    value = b.attrFloat("value", 0.0f);
    if (b.hasBadAttr())
      return failure();
    if (!p)
      return b.error() << "needs a '" << name << "' attribute";
    for (int64_t v : *p)
      pads.push_back(Expr::constant(v));
  } else {
    if (b.hasBadAttr())
      return failure();
    // Pads that are run-time data are bound as dims (so they must not be
    // negative at run time: cropping needs import-time pads).
    FailureOr<SmallVector<Expr>> p = b.shapeInput(1, "the pads (input #1)");
    if (failed(p))
      return failure();
    pads = *p;
    if (b.hasInput(2)) {
      if (DenseElementsAttr c = b.knownConstant(2)) {
        if (c.getNumElements() != 1)
          return b.error() << "constant_value (input #2) must be a scalar";
        value = scalarValue(c);
      } else {
        FailureOr<Value> v = b.input(2);
        if (failed(v))
          return failure();
        runtimeValue = *v;
      }
    }
    if (opset >= 18 && b.hasInput(3)) {
      FailureOr<SmallVector<int64_t>> a = b.constInts(3, "the axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  }
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      !(mode == "wrap" && opset >= 19))
    return b.badAttr("mode", "must be 'constant', 'reflect', 'edge'" +
                                 Twine(opset >= 19 ? " or 'wrap'" : "") +
                                 ", got '" + mode + "'");
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  RelaxTensorType xt = b.typeOf(*x);
  if (!xt.hasRank())
    return b.error() << "needs an input of known rank, got " << xt;
  int64_t rank = xt.getRank();
  FailureOr<SmallVector<int64_t>> normalized = b.normalizeAxes(axes, rank);
  if (failed(normalized))
    return failure();
  SmallVector<int64_t> axisList = *normalized;
  // A repeated axis would have its pads silently overwritten.
  for (int64_t i = 0, e = axisList.size(); i < e; ++i)
    for (int64_t j = 0; j < i; ++j)
      if (axisList[i] == axisList[j])
        return b.error() << "axes (input #3) repeat axis " << (*axes)[i]
                         << " (dim " << axisList[i] << " of rank " << rank
                         << ")";
  int64_t n = axisList.size();
  if (static_cast<int64_t>(pads.size()) != 2 * n)
    return b.error() << "has " << pads.size() << " pads for " << n
                     << " axes (expected " << 2 * n << ")";
  SmallVector<Expr> before(rank, Expr::constant(0)),
      after(rank, Expr::constant(0));
  for (int64_t i = 0; i < n; ++i) {
    before[axisList[i]] = pads[i];
    after[axisList[i]] = pads[i + n];
  }
  auto pad = [&](Value v, double fill) {
    return b.create<PadOp>(v,
                           {b.named("pad_before", b.shapeAttr(before)),
                            b.named("pad_after", b.shapeAttr(after)),
                            b.named("mode", b.getBuilder().getStringAttr(mode)),
                            b.named("value", b.f64Attr(fill))});
  };
  if (mode != "constant" || !runtimeValue)
    return b.setOutput(0, pad(*x, mode == "constant" ? value : 0.0));
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  Type i1 = b.getBuilder().getI1Type();
  FailureOr<Value> ones =
      b.create<FullOp>({}, {b.named("shape", b.shapeAttr(*dims)),
                            b.named("value", b.f64Attr(1.0)),
                            b.named("dtype", TypeAttr::get(i1))});
  FailureOr<Value> inside = failed(ones) ? ones : pad(*ones, 0.0);
  FailureOr<Value> padded = pad(*x, 0.0);
  FailureOr<Value> fill = b.castTo(runtimeValue, xt.getDtype());
  if (failed(inside) || failed(padded) || failed(fill))
    return failure();
  // A one-element 1-D value (older exporters) becomes a scalar.
  RelaxTensorType ft = b.typeOf(*fill);
  if ((!ft.hasRank() || ft.getRank() != 0) &&
      failed(fill = b.reshape(*fill, {})))
    return failure();
  return b.setOutput(0, b.create<WhereOp>({*inside, *padded, *fill}));
}

void onnx_import::addPadTileTriluOps(OpHandlerTable &table) {
  table.add("Pad", importPad);
  table.add("Tile", importTile);
  table.add("Trilu", importTrilu, /*sinceVersion=*/14);
}
