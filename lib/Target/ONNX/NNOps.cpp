//===- NNOps.cpp - ONNX neural network ops --------------------------------===//
//
// MatMul and Gemm, Softmax/LogSoftmax (with the 2-D coercion before opset
// 13), LayerNormalization and BatchNormalization (composed where relax's op
// does not cover the form: extra outputs, training mode), inference
// Dropout, Resize, Einsum, InstanceNormalization, and compositions of relax
// ops: Hardmax, DepthToSpace, SpaceToDepth, Upsample (nearest),
// MeanVarianceNormalization and LRN. Convolutions and pools are in
// ConvPoolOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
#include "Importer.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

static LogicalResult importMatMul(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> lhs = b.input(0), rhs = b.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  return b.setOutput(0, b.create<MatmulOp>({*lhs, *rhs}));
}

static LogicalResult importGemm(NodeBinder &b) {
  if (failed(b.requireInputs(2, 3)) || failed(b.requireOutputs(1)))
    return failure();
  float alpha = b.attrFloat("alpha", 1.0f), beta = b.attrFloat("beta", 1.0f);
  int64_t transA = b.attrInt("transA", 0), transB = b.attrInt("transB", 0);
  if (b.opset() < 7)
    b.acceptAttr("broadcast");
  FailureOr<Value> lhs = b.input(0), rhs = b.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  if (transA) {
    lhs = b.create<PermuteDimsOp>(*lhs, {b.named("axes", b.i64Array({1, 0}))});
    if (failed(lhs))
      return failure();
  }
  if (transB) {
    rhs = b.create<PermuteDimsOp>(*rhs, {b.named("axes", b.i64Array({1, 0}))});
    if (failed(rhs))
      return failure();
  }
  FailureOr<Value> y = b.create<MatmulOp>({*lhs, *rhs});
  if (failed(y))
    return failure();
  Type dtype = b.typeOf(*y).getDtype();
  if (alpha != 1.0f) {
    FailureOr<Value> s = b.scalar(alpha, dtype);
    if (failed(s) || failed(y = b.create<MultiplyOp>({*y, *s})))
      return failure();
  }
  if (b.hasInput(2) && beta != 0.0f) {
    FailureOr<Value> c = b.input(2);
    if (failed(c))
      return failure();
    if (beta != 1.0f) {
      FailureOr<Value> s = b.scalar(beta, dtype);
      if (failed(s) || failed(c = b.create<MultiplyOp>({*c, *s})))
        return failure();
    }
    if (failed(y = b.create<AddOp>({*y, *c})))
      return failure();
  }
  b.setOutput(0, *y);
  return success();
}

/// Applies `fn` (input, axis) along the node's `axis` attribute: from opset
/// 13 on the input itself (default axis -1), before that on the input coerced
/// to 2-D [prod(:axis), prod(axis:)] (default axis 1) and reshaped back.
static LogicalResult
importAlongAxis(NodeBinder &b,
                function_ref<FailureOr<Value>(Value, int64_t)> fn) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  int64_t axis = b.attrInt("axis", b.opset() >= 13 ? -1 : 1);
  if (b.opset() >= 13)
    return b.setOutput(0, fn(*x, axis));
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> ax = b.normalizeAxis(axis, dims->size());
  if (dims->empty())
    ax = 0;
  if (failed(ax))
    return failure();
  Expr outer = Expr::constant(1), inner = Expr::constant(1);
  for (auto [k, d] : llvm::enumerate(*dims))
    (static_cast<int64_t>(k) < *ax ? outer : inner) =
        (static_cast<int64_t>(k) < *ax ? outer : inner) * d;
  FailureOr<Value> flat = b.reshape(*x, {outer, inner});
  if (failed(flat))
    return failure();
  FailureOr<Value> y = fn(*flat, 1);
  if (failed(y) || failed(y = b.reshape(*y, *dims)))
    return failure();
  b.setOutput(0, *y);
  return success();
}

template <typename OpTy> static LogicalResult importSoftmax(NodeBinder &b) {
  return importAlongAxis(b, [&](Value x, int64_t axis) {
    return b.create<OpTy>(x, {b.named("axis", b.i64Attr(axis))});
  });
}

/// Hardmax: 1 at the first maximum along the axis, else 0.
static LogicalResult importHardmax(NodeBinder &b) {
  return importAlongAxis(b, [&](Value x, int64_t axis) -> FailureOr<Value> {
    FailureOr<SmallVector<Expr>> dims = b.dimsOf(x);
    if (failed(dims))
      return failure();
    FailureOr<int64_t> ax = b.normalizeAxis(axis, dims->size());
    if (failed(ax))
      return failure();
    FailureOr<Value> arg =
        b.create<ArgmaxOp>(x, {b.named("axis", b.i64Attr(*ax))});
    if (failed(arg))
      return failure();
    FailureOr<Value> mask = oneHotMask(b, *arg, *ax, (*dims)[*ax]);
    if (failed(mask))
      return failure();
    return b.castTo(*mask, b.typeOf(x).getDtype());
  });
}

static LogicalResult importLayerNormalization(NodeBinder &b) {
  if (failed(b.requireInputs(2, 3)) || failed(b.requireOutputs(3)))
    return failure();
  int64_t axis = b.attrInt("axis", -1);
  float epsilon = attrFiniteFloat(b, "epsilon", 1e-5f, /*nonNegative=*/true);
  int64_t stash = b.attrInt("stash_type", 1);
  if (stash != 1)
    return b.badAttr("stash_type", "must be 1 (float)");
  FailureOr<Value> x = b.input(0), scale = b.input(1);
  if (failed(x) || failed(scale))
    return failure();
  RelaxTensorType xt = b.typeOf(*x);
  if (!xt.hasRank())
    return b.error() << "needs an input of known rank";
  int64_t rank = xt.getRank();
  FailureOr<int64_t> ax = b.normalizeAxis(axis, rank);
  if (failed(ax))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t k = *ax; k < rank; ++k)
    axes.push_back(k);
  Type dtype = xt.getDtype();
  Value bias;
  if (b.hasInput(2)) {
    FailureOr<Value> biasIn = b.input(2);
    if (failed(biasIn))
      return failure();
    bias = *biasIn;
  }
  // Scale and B broadcast to X.shape[axis:] (a missing B is zeros): then
  // relax's layer_norm takes them.
  SmallVector<Expr> normShape(xt.getDims().begin() + *ax, xt.getDims().end());
  bool normKnown = llvm::all_of(normShape, [](const Expr &d) { return bool(d); });
  if (!b.hasOutput(1) && !b.hasOutput(2) && normKnown) {
    const sym::Context &ctx = defaultSymContext();
    auto fit = [&](Value p) -> FailureOr<Value> {
      RelaxTensorType pt = b.typeOf(p);
      if (pt.hasRank() && pt.getRank() == static_cast<int64_t>(normShape.size()) &&
          llvm::all_of(llvm::zip(pt.getDims(), normShape), [&](auto pair) {
            auto [d, want] = pair;
            return d && ctx.provablyEqual(d, want);
          }))
        return p;
      return b.create<BroadcastToOp>(
          p, {b.named("shape", b.shapeAttr(normShape))});
    };
    FailureOr<Value> gamma = fit(*scale);
    if (failed(gamma))
      return failure();
    FailureOr<Value> beta =
        bias ? fit(bias)
             : b.create<ZerosOp>({}, {b.named("shape", b.shapeAttr(normShape)),
                                      b.named("dtype", TypeAttr::get(dtype))});
    if (failed(beta))
      return failure();
    return b.setOutput(
        0, b.create<LayerNormOp>({*x, *gamma, *beta},
                                 {b.named("axes", b.i64Array(axes)),
                                  b.named("epsilon", b.f64Attr(epsilon))}));
  }
  // Composed form: also yields the mean and the inverse standard deviation.
  auto reduceAttrs = SmallVector<NamedAttribute>{
      b.named("axes", b.i64Array(axes)), b.named("keepdims", b.boolAttr(true))};
  FailureOr<Value> mean = b.create<MeanOp>(*x, reduceAttrs);
  if (failed(mean))
    return failure();
  FailureOr<Value> centered = b.create<SubtractOp>({*x, *mean});
  if (failed(centered))
    return failure();
  FailureOr<Value> sq = b.create<MultiplyOp>({*centered, *centered});
  if (failed(sq))
    return failure();
  FailureOr<Value> var = b.create<MeanOp>(*sq, reduceAttrs);
  FailureOr<Value> eps = b.scalar(epsilon, dtype);
  if (failed(var) || failed(eps))
    return failure();
  FailureOr<Value> inv = b.create<AddOp>({*var, *eps});
  if (failed(inv) || failed(inv = b.create<RsqrtOp>(*inv)))
    return failure();
  FailureOr<Value> y = b.create<MultiplyOp>({*centered, *inv});
  if (failed(y) || failed(y = b.create<MultiplyOp>({*y, *scale})))
    return failure();
  if (bias && failed(y = b.create<AddOp>({*y, bias})))
    return failure();
  b.setOutput(0, *y);
  if (b.hasOutput(1))
    b.setOutput(1, *mean);
  if (b.hasOutput(2))
    b.setOutput(2, *inv);
  return success();
}

static LogicalResult importBatchNormalization(NodeBinder &b) {
  float epsilon = attrFiniteFloat(b, "epsilon", 1e-5f, /*nonNegative=*/true);
  float momentum = b.attrFloat("momentum", 0.9f);
  if (b.opset() < 7)
    b.acceptAttr("is_test");
  if (b.opset() < 9)
    b.acceptAttr("spatial");
  bool training = b.opset() >= 14 && attrFlag(b, "training_mode", false);
  if (failed(b.requireInputs(5, 5)) ||
      failed(b.requireOutputs(training ? 3 : 1)))
    return failure();
  SmallVector<Value> operands;
  for (unsigned i = 0; i < 5; ++i) {
    FailureOr<Value> v = b.input(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  // Training mode normalises with the batch statistics and also returns the
  // updated running statistics.
  Value curMean, curVar;
  if (training) {
    RelaxTensorType xt = b.typeOf(operands[0]);
    if (!xt.hasRank() || xt.getRank() < 2)
      return b.error() << "needs an input of rank >= 2";
    SmallVector<int64_t> axes{0};
    for (int64_t k = 2; k < xt.getRank(); ++k)
      axes.push_back(k);
    SmallVector<NamedAttribute> attrs{b.named("axes", b.i64Array(axes))};
    FailureOr<Value> m = b.create<MeanOp>(operands[0], attrs);
    FailureOr<Value> v = b.create<VarianceOp>(operands[0], attrs);
    if (failed(m) || failed(v))
      return failure();
    curMean = *m;
    curVar = *v;
  }
  SmallVector<Value> bnOperands(operands);
  if (training) {
    bnOperands[3] = curMean;
    bnOperands[4] = curVar;
  }
  FailureOr<Value> y = b.create<BatchNormOp>(
      bnOperands,
      {b.named("axis", b.i64Attr(1)), b.named("epsilon", b.f64Attr(epsilon))});
  if (failed(y))
    return failure();
  b.setOutput(0, *y);
  if (!training)
    return success();
  Type dtype = b.typeOf(curMean).getDtype();
  FailureOr<Value> mom = b.scalar(momentum, dtype),
                   rest = b.scalar(1.0 - momentum, dtype);
  if (failed(mom) || failed(rest))
    return failure();
  for (unsigned k = 1; k < b.numOutputs(); ++k) {
    if (!b.hasOutput(k))
      continue;
    Value running = operands[k == 1 ? 3 : 4], cur = k == 1 ? curMean : curVar;
    FailureOr<Value> oldPart = b.create<MultiplyOp>({running, *mom});
    FailureOr<Value> newPart = b.create<MultiplyOp>({cur, *rest});
    if (failed(oldPart) || failed(newPart))
      return failure();
    FailureOr<Value> r = b.create<AddOp>({*oldPart, *newPart});
    if (failed(r))
      return failure();
    b.setOutput(k, *r);
  }
  return success();
}

/// Input 0 and its dims, of rank at least `minRank` and at most `maxRank`.
static FailureOr<std::pair<Value, SmallVector<Expr>>>
dataWithDims(NodeBinder &b, int64_t minRank, int64_t maxRank) {
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  int64_t rank = dims->size();
  if (rank < minRank || rank > maxRank)
    return b.error() << "needs an input of rank " << minRank
                     << (minRank == maxRank ? "" : " or more") << ", got "
                     << rank;
  return std::make_pair(*x, std::move(*dims));
}

/// Input 0 of a node of one input and one output and its dims, of rank at
/// least `minRank` and at most `maxRank`.
static FailureOr<std::pair<Value, SmallVector<Expr>>>
soleInputWithDims(NodeBinder &b, int64_t minRank, int64_t maxRank) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  return dataWithDims(b, minRank, maxRank);
}

/// reshape(x, `split`), permute_dims by `perm`, reshape to `out`.
static FailureOr<Value> shuffle(NodeBinder &b, Value x, ArrayRef<Expr> split,
                                ArrayRef<int64_t> perm, ArrayRef<Expr> out) {
  FailureOr<Value> y = b.reshape(x, split);
  if (failed(y) || failed(y = b.create<PermuteDimsOp>(
                              *y, {b.named("axes", b.i64Array(perm))})))
    return failure();
  return b.reshape(*y, out);
}

namespace {
/// The NCHW input of DepthToSpace/SpaceToDepth and the block size.
struct BlockShuffle {
  Value x;
  Expr n, c, h, w, blk;
  int64_t bs;
};
} // namespace

/// Reads the input (rank 4) and the required positive `blocksize`.
static FailureOr<BlockShuffle> readBlockShuffle(NodeBinder &b) {
  if (!b.attr("blocksize"))
    return b.error() << "attribute 'blocksize' is required";
  int64_t bs = b.attrInt("blocksize", 1);
  if (b.hasBadAttr())
    return failure();
  if (bs < 1)
    return b.error() << "blocksize must be positive, got " << bs;
  auto in = soleInputWithDims(b, 4, 4);
  if (failed(in))
    return failure();
  SmallVector<Expr> &d = in->second;
  return BlockShuffle{in->first,          d[0], d[1], d[2], d[3],
                      Expr::constant(bs), bs};
}

static LogicalResult importDepthToSpace(NodeBinder &b) {
  std::string mode = b.opset() >= 11 ? b.attrString("mode", "DCR") : "DCR";
  if (b.hasBadAttr())
    return failure();
  if (mode != "DCR" && mode != "CRD")
    return b.badAttr("mode", "must be DCR or CRD, got '" + mode + "'");
  FailureOr<BlockShuffle> s = readBlockShuffle(b);
  if (failed(s))
    return failure();
  if (std::optional<int64_t> c = s->c.getConstant(); c && *c % (s->bs * s->bs))
    return b.error() << "the channels (" << *c
                     << ") are not a multiple of blocksize^2";
  Expr n = s->n, h = s->h, w = s->w, blk = s->blk;
  Expr depth = sym::floorDiv(s->c, blk * blk);
  SmallVector<Expr> out{n, depth, h * blk, w * blk};
  // DCR: the channel is (block row, block column, depth); CRD: (depth, block
  // row, block column).
  if (mode == "DCR")
    return b.setOutput(0, shuffle(b, s->x, {n, blk, blk, depth, h, w},
                                  {0, 3, 4, 1, 5, 2}, out));
  return b.setOutput(
      0, shuffle(b, s->x, {n, depth, blk, blk, h, w}, {0, 1, 4, 2, 5, 3}, out));
}

static LogicalResult importSpaceToDepth(NodeBinder &b) {
  FailureOr<BlockShuffle> s = readBlockShuffle(b);
  if (failed(s))
    return failure();
  for (const Expr &d : {s->h, s->w})
    if (std::optional<int64_t> cd = d.getConstant(); cd && *cd % s->bs)
      return b.error() << "the spatial dim " << *cd
                       << " is not a multiple of blocksize";
  Expr blk = s->blk;
  Expr oh = sym::floorDiv(s->h, blk), ow = sym::floorDiv(s->w, blk);
  return b.setOutput(0, shuffle(b, s->x, {s->n, s->c, oh, blk, ow, blk},
                                {0, 3, 5, 1, 2, 4},
                                {s->n, s->c * blk * blk, oh, ow}));
}

/// Upsample (opsets 7 to 9; the scales are an attribute before opset 9 and
/// an input from then on): nearest-neighbour with integer scales, each axis
/// repeated `scale` times.
static LogicalResult importUpsample(NodeBinder &b) {
  bool scalesInput = b.opset() >= 9;
  if (failed(b.requireInputs(scalesInput ? 2 : 1, scalesInput ? 2 : 1)) ||
      failed(b.requireOutputs(1)))
    return failure();
  std::string mode = b.attrString("mode", "nearest");
  SmallVector<double> scales;
  if (!scalesInput) {
    const onnx::AttributeProto *a = b.attr("scales");
    if (!a || a->type() != onnx::AttributeProto::FLOATS)
      return b.error() << "attribute 'scales' (floats) is required";
    scales.assign(a->floats().begin(), a->floats().end());
  }
  if (b.hasBadAttr())
    return failure();
  if (mode != "nearest")
    return b.error() << "unsupported: mode '" << mode
                     << "' (only nearest is supported)";
  if (scalesInput) {
    DenseElementsAttr c = b.knownConstant(1);
    if (!c || !isa<FloatType>(c.getElementType()))
      return b.runtimeValueError()
             << "the scales (input #1) must be known floats at import time";
    for (const APFloat &f : c.getValues<APFloat>())
      scales.push_back(f.convertToDouble());
  }
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  RelaxTensorType t = b.typeOf(*x);
  if (!t.hasRank() || t.getRank() != static_cast<int64_t>(scales.size()))
    return b.error() << "needs one scale per input dim, got " << scales.size()
                     << " for " << t;
  Value y = *x;
  for (auto [axis, s] : llvm::enumerate(scales)) {
    if (!(s >= 1.0 && s <= 1024.0) || s != std::floor(s))
      return b.error() << "unsupported: scale " << s << " of axis " << axis
                       << " (only integer scales >= 1 are supported)";
    if (s == 1.0)
      continue;
    FailureOr<Value> r = b.create<RepeatOp>(
        y, {b.named("repeats", b.i64Attr(static_cast<int64_t>(s))),
            b.named("axis", b.i64Attr(static_cast<int64_t>(axis)))});
    if (failed(r))
      return failure();
    y = *r;
  }
  b.setOutput(0, y);
  return success();
}

/// MeanVarianceNormalization as ONNX's function body defines it:
/// (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9) over `axes`.
static LogicalResult importMeanVarianceNormalization(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  SmallVector<int64_t> axes =
      b.attrInts("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  if (b.hasBadAttr())
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  auto mean = [&](Value v) {
    return b.create<MeanOp>(v, {b.named("axes", b.i64Array(axes)),
                                b.named("keepdims", b.boolAttr(true))});
  };
  FailureOr<Value> sq = b.create<MultiplyOp>({*x, *x});
  FailureOr<Value> m = mean(*x);
  if (failed(sq) || failed(m))
    return failure();
  FailureOr<Value> m2 = mean(*sq);
  FailureOr<Value> msq = b.create<MultiplyOp>({*m, *m});
  FailureOr<Value> eps = b.scalar(1e-9, b.typeOf(*x).getDtype());
  if (failed(m2) || failed(msq) || failed(eps))
    return failure();
  FailureOr<Value> sd = b.create<SubtractOp>({*m2, *msq});
  if (failed(sd) || failed(sd = b.create<SqrtOp>(*sd)) ||
      failed(sd = b.create<AddOp>({*sd, *eps})))
    return failure();
  FailureOr<Value> d = b.create<SubtractOp>({*x, *m});
  if (failed(d))
    return failure();
  return b.setOutput(0, b.create<DivideOp>({*d, *sd}));
}

/// LRN: x / (bias + alpha / size * sum of x^2 over a window of `size`
/// channels)^beta. The window sum adds `size` channel slices of x^2 padded
/// with zero channels (floor((size-1)/2) before, the rest after).
static LogicalResult importLRN(NodeBinder &b) {
  float alpha = b.attrFloat("alpha", 1e-4f), beta = b.attrFloat("beta", 0.75f),
        bias = b.attrFloat("bias", 1.0f);
  if (!b.attr("size"))
    return b.error() << "attribute 'size' is required";
  int64_t size = b.attrInt("size", 1);
  if (b.hasBadAttr())
    return failure();
  if (size < 1 || size > 1024)
    return b.error() << "size must be in [1, 1024], got " << size;
  auto in = soleInputWithDims(b, 3, std::numeric_limits<int64_t>::max());
  if (failed(in))
    return failure();
  Value x = in->first;
  const SmallVector<Expr> &dims = in->second;
  Type dtype = b.typeOf(x).getDtype();
  if (!isa<FloatType>(dtype))
    return b.error() << "needs a floating-point input, got " << dtype;
  FailureOr<Value> sq = b.create<MultiplyOp>({x, x});
  if (failed(sq))
    return failure();
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  SmallVector<Value> parts;
  auto zeros = [&](int64_t channels) -> LogicalResult {
    if (channels == 0)
      return success();
    SmallVector<Expr> shape(dims);
    shape[1] = Expr::constant(channels);
    FailureOr<Value> z =
        b.create<ZerosOp>({}, {b.named("shape", b.shapeAttr(shape)),
                               b.named("dtype", TypeAttr::get(dtype))});
    if (failed(z))
      return failure();
    parts.push_back(*z);
    return success();
  };
  if (failed(zeros(before)))
    return failure();
  parts.push_back(*sq);
  if (failed(zeros(after)))
    return failure();
  FailureOr<Value> padded =
      parts.size() == 1
          ? FailureOr<Value>(*sq)
          : b.create<ConcatOp>(parts, {b.named("axis", b.i64Attr(1))});
  if (failed(padded))
    return failure();
  Expr c = dims[1];
  FailureOr<Value> sum;
  for (int64_t k = 0; k < size; ++k) {
    FailureOr<Value> s = b.create<StridedSliceOp>(
        *padded, {b.named("axes", b.i64Array({1})),
                  b.named("begin", b.shapeAttr({Expr::constant(k)})),
                  b.named("end", b.shapeAttr({c + k}))});
    if (failed(s) || (k > 0 && failed(s = b.create<AddOp>({*sum, *s}))))
      return failure();
    sum = s;
  }
  FailureOr<Value> scale = b.scalar(alpha / size, dtype),
                   bs = b.scalar(bias, dtype), be = b.scalar(beta, dtype);
  if (failed(scale) || failed(bs) || failed(be))
    return failure();
  FailureOr<Value> den = b.create<MultiplyOp>({*sum, *scale});
  if (failed(den) || failed(den = b.create<AddOp>({*den, *bs})) ||
      failed(den = b.create<PowerOp>({*den, *be})))
    return failure();
  return b.setOutput(0, b.create<DivideOp>({x, *den}));
}

static LogicalResult importDropout(NodeBinder &b) {
  if (failed(b.requireInputs(1, 3)) || failed(b.requireOutputs(2)))
    return failure();
  b.acceptAttr("seed");
  // ratio is in [0, 1) (an attribute before opset 12, input #1 since);
  // inference ignores it, but onnxruntime refuses any other value.
  std::optional<double> ratio;
  if (b.opset() < 12) {
    if (b.attr("ratio"))
      ratio = b.attrFloat("ratio", 0.5f);
  } else if (b.hasInput(1)) {
    DenseElementsAttr r = b.knownConstant(1);
    if (r && r.getNumElements() == 1 && isa<FloatType>(r.getElementType()))
      ratio = (*r.getValues<APFloat>().begin()).convertToDouble();
  }
  if (ratio && !(*ratio >= 0 && *ratio < 1)) {
    std::string v = formatFloat(*ratio);
    if (b.opset() < 12)
      return b.badAttr("ratio", "must be in [0, 1), got " + v);
    return b.error() << "ratio (input #1) must be in [0, 1), got " << v;
  }
  if (b.opset() < 7)
    b.acceptAttr("is_test");
  if (b.hasInput(2)) {
    DenseElementsAttr training = b.knownConstant(2);
    if (!training || training.getNumElements() != 1)
      return b.runtimeValueError() << "training_mode (input #2) must be known";
    if ((*training.getValues<APInt>().begin()).getBoolValue())
      return b.error() << "unsupported: training mode (random masks)";
  }
  // Inference: the identity, and an all-true mask.
  Slot *s = b.inputSlot(0);
  if (!s)
    return failure();
  b.setOutputSlot(0, *s);
  if (b.hasOutput(1)) {
    FailureOr<Value> x = b.input(0);
    if (failed(x))
      return failure();
    FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
    if (failed(dims))
      return failure();
    FailureOr<Value> mask = b.create<OnesOp>(
        {}, {b.named("shape", b.shapeAttr(*dims)),
             b.named("dtype", TypeAttr::get(b.getBuilder().getI1Type()))});
    if (failed(mask))
      return failure();
    b.setOutput(1, *mask);
  }
  return success();
}

/// floor(in * scale) as a symbolic dim: exact for a static `in`, and for a
/// symbolic one `(in * num) floordiv den` with the smallest denominator (up
/// to 1000) that represents the float scale; nullopt if none does.
static std::optional<Expr> scaledDim(const Expr &in, double scale) {
  if (std::optional<int64_t> c = in.getConstant())
    return Expr::constant(static_cast<int64_t>(std::floor(*c * scale)));
  for (int64_t den = 1; den <= 1000; ++den) {
    double num = std::round(scale * den);
    if (num < 1 || std::fabs(num - scale * den) > 1e-6 * den)
      continue;
    Expr scaled = in * static_cast<int64_t>(num);
    return den == 1 ? scaled : sym::floorDiv(scaled, Expr::constant(den));
  }
  return std::nullopt;
}

/// Resize (opsets 10 to 19) as relax.resize2d over the last two dims of an
/// NCHW input (N and C not resized). Opset 10 has only the scales input and
/// maps coordinates asymmetrically, rounding down. With `scales` the output
/// size is floor(in * scale) and the scales go to the op too (ONNX maps
/// coordinates with the given scale); with `sizes` (known at import, or
/// bound at run time) the size is those values. The roi input only matters
/// to tf_crop_and_resize, which is unsupported.
static LogicalResult importResize(NodeBinder &b) {
  int64_t opset = b.opset();
  if (failed(b.requireInputs(opset < 11 ? 2 : 1, opset < 11 ? 2 : 4)) ||
      failed(b.requireOutputs(1)))
    return failure();
  std::string mode = b.attrString("mode", "nearest");
  std::string ctm = "asymmetric", nearestMode = "floor";
  int64_t exclude = 0, antialias = 0;
  std::string policy = "stretch";
  std::optional<SmallVector<int64_t>> axesAttr;
  if (opset >= 11) {
    ctm = b.attrString("coordinate_transformation_mode", "half_pixel");
    nearestMode = b.attrString("nearest_mode", "round_prefer_floor");
    exclude = b.attrInt("exclude_outside", 0);
    // Only cubic and tf_crop_and_resize read these.
    b.acceptAttr("cubic_coeff_a");
    b.acceptAttr("extrapolation_value");
  }
  if (opset >= 18) {
    antialias = b.attrInt("antialias", 0);
    axesAttr = b.attrInts("axes");
    policy = b.attrString("keep_aspect_ratio_policy", "stretch");
  }
  if (b.hasBadAttr())
    return failure();
  if (mode == "cubic")
    return b.error() << "unsupported: mode 'cubic' (nearest and linear only)";
  if (mode != "nearest" && mode != "linear")
    return b.badAttr("mode", "must be nearest, linear or cubic, got '" + mode +
                                 "'");
  if (ctm != "half_pixel" && ctm != "pytorch_half_pixel" &&
      ctm != "asymmetric" && ctm != "align_corners")
    return b.error() << "unsupported: coordinate_transformation_mode '" << ctm
                     << "'";
  if (nearestMode != "round_prefer_floor" && nearestMode != "round_prefer_ceil" &&
      nearestMode != "floor" && nearestMode != "ceil")
    return b.badAttr("nearest_mode", "has unsupported value '" + nearestMode +
                                         "'");
  if (exclude != 0)
    return b.error() << "unsupported: exclude_outside = " << exclude;
  if (antialias != 0)
    return b.error() << "unsupported: antialias = " << antialias;
  if (policy != "stretch")
    return b.error() << "unsupported: keep_aspect_ratio_policy '" << policy
                     << "' (stretch only)";
  auto data = dataWithDims(b, 0, std::numeric_limits<int64_t>::max());
  if (failed(data))
    return failure();
  Value x = data->first;
  SmallVector<Expr> &xd = data->second;
  int64_t rank = xd.size();
  if (rank != 4)
    return b.error() << "unsupported: Resize of a rank-" << rank
                     << " input (NCHW only)";
  // The axes the scales or sizes refer to.
  FailureOr<SmallVector<int64_t>> normalized =
      b.normalizeAxes(axesAttr, rank);
  if (failed(normalized) ||
      (axesAttr && failed(checkDistinctAxes(b, "axes", *axesAttr, rank))))
    return failure();
  SmallVector<int64_t> axes = *normalized;
  unsigned scalesIdx = opset < 11 ? 1 : 2;
  SmallVector<double> scales;
  if (b.hasInput(scalesIdx)) {
    DenseElementsAttr c = b.knownConstant(scalesIdx);
    if (!c || !isa<FloatType>(c.getElementType()))
      return b.runtimeValueError()
             << "the scales (input #" << scalesIdx
             << ") must be floats known at import time";
    for (const APFloat &f : c.getValues<APFloat>())
      scales.push_back(f.convertToDouble());
  }
  SmallVector<Expr> sizes;
  if (opset >= 11 && b.hasInput(3)) {
    FailureOr<SmallVector<Expr>> s = b.shapeInput(3, "the sizes (input #3)");
    if (failed(s))
      return failure();
    sizes = std::move(*s);
  }
  if (scales.empty() == sizes.empty())
    return b.error() << "needs exactly one of scales and sizes";
  size_t given = scales.empty() ? sizes.size() : scales.size();
  if (given != axes.size())
    return b.error() << "needs one scale or size per axis, got " << given
                     << " for " << axes.size() << " axes";
  SmallVector<double> fullScales(rank, 1.0);
  SmallVector<Expr> out(xd);
  for (auto [k, ax] : llvm::enumerate(axes)) {
    if (!scales.empty())
      fullScales[ax] = scales[k];
    else
      out[ax] = sizes[k];
  }
  const sym::Context &ctx = defaultSymContext();
  for (int64_t ax = 0; ax < 2; ++ax)
    if (fullScales[ax] != 1.0 || !ctx.provablyEqual(out[ax], xd[ax]))
      return b.error() << "unsupported: resizing dim " << ax
                       << " (only the last two dims of NCHW)";
  SmallVector<NamedAttribute> attrs{
      b.named("method", b.getBuilder().getStringAttr(mode)),
      b.named("coordinate_transformation_mode",
              b.getBuilder().getStringAttr(ctm)),
      b.named("nearest_mode", b.getBuilder().getStringAttr(nearestMode))};
  if (!scales.empty()) {
    for (int64_t ax = 2; ax < 4; ++ax) {
      if (!(fullScales[ax] > 0))
        return b.error() << "scales must be positive, got " << fullScales[ax];
      std::optional<Expr> d = scaledDim(xd[ax], fullScales[ax]);
      if (!d)
        return b.error() << "unsupported: scale " << fullScales[ax]
                         << " of the symbolic dim " << xd[ax].str()
                         << " is not a fraction with a denominator <= 1000";
      out[ax] = *d;
    }
    attrs.push_back(b.named(
        "scales", b.getBuilder().getDenseF64ArrayAttr(
                      {fullScales[2], fullScales[3]})));
  }
  attrs.push_back(b.named("size", b.shapeAttr({out[2], out[3]})));
  return b.setOutput(0, b.create<Resize2DOp>(x, attrs));
}

static LogicalResult importEinsum(NodeBinder &b) {
  if (b.numInputs() < 1 || failed(b.requireInputs(1, b.numInputs())) ||
      failed(b.requireOutputs(1)))
    return failure();
  if (!b.attr("equation"))
    return b.error() << "attribute 'equation' is required";
  std::string equation = b.attrString("equation", "");
  if (b.hasBadAttr())
    return failure();
  FailureOr<SmallVector<Value>> operands = b.allInputs();
  if (failed(operands))
    return failure();
  return b.setOutput(
      0, b.create<EinsumOp>(*operands,
                            {b.named("equation", b.getBuilder().getStringAttr(
                                                     equation))}));
}

/// InstanceNormalization: group_norm with one group per channel over the
/// spatial axes. num_groups is an attribute, so C comes from the scale's
/// static shape; an input whose C is symbolic is match_cast to it.
static LogicalResult importInstanceNormalization(NodeBinder &b) {
  if (failed(b.requireInputs(3, 3)) || failed(b.requireOutputs(1)))
    return failure();
  float epsilon = attrFiniteFloat(b, "epsilon", 1e-5f, /*nonNegative=*/true);
  if (b.opset() < 6)
    b.acceptAttr("consumed_inputs");
  if (b.hasBadAttr())
    return failure();
  auto data = dataWithDims(b, 3, std::numeric_limits<int64_t>::max());
  FailureOr<Value> scale = b.input(1), bias = b.input(2);
  if (failed(data) || failed(scale) || failed(bias))
    return failure();
  Value in = data->first;
  SmallVector<Expr> &xd = data->second;
  int64_t rank = xd.size();
  std::optional<int64_t> c = b.vectorLength(*scale);
  if (!c)
    c = xd[1].getConstant();
  if (!c || *c < 1)
    return b.error() << "unsupported: a channel count that is not static "
                        "(input "
                     << b.typeOf(in) << ", scale " << b.typeOf(*scale) << ")";
  if (!xd[1].getConstant()) {
    SmallVector<Expr> dims(xd);
    dims[1] = Expr::constant(*c);
    auto cast = MatchCastOp::create(b.getBuilder(), b.getLoc(),
                                    b.typeOf(in).withShape(SymShape(dims)), in);
    in = cast.getResult();
  }
  SmallVector<int64_t> axes;
  for (int64_t k = 2; k < rank; ++k)
    axes.push_back(k);
  return b.setOutput(
      0, b.create<GroupNormOp>({in, *scale, *bias},
                               {b.named("num_groups", b.i64Attr(*c)),
                                b.named("channel_axis", b.i64Attr(1)),
                                b.named("axes", b.i64Array(axes)),
                                b.named("epsilon", b.f64Attr(epsilon))}));
}

void onnx_import::addNNOps(OpHandlerTable &table) {
  table.add("BatchNormalization", importBatchNormalization);
  table.add("Dropout", importDropout);
  table.add("Gemm", importGemm);
  table.add("DepthToSpace", importDepthToSpace);
  table.add("Einsum", importEinsum);
  table.add("Hardmax", importHardmax);
  table.add("InstanceNormalization", importInstanceNormalization);
  table.add("LayerNormalization", importLayerNormalization);
  table.add("LogSoftmax", importSoftmax<LogSoftmaxOp>);
  table.add("LRN", importLRN);
  table.add("MatMul", importMatMul);
  table.add("MeanVarianceNormalization", importMeanVarianceNormalization);
  table.add("Resize", importResize, /*sinceVersion=*/10);
  table.add("Softmax", importSoftmax<SoftmaxOp>);
  table.add("SpaceToDepth", importSpaceToDepth);
  table.add("Upsample", importUpsample, /*sinceVersion=*/7);
}
