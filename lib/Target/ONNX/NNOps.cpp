//===- NNOps.cpp - ONNX neural network ops --------------------------------===//
//
// MatMul and Gemm, Softmax/LogSoftmax (with the 2-D coercion before opset
// 13), LayerNormalization and BatchNormalization (composed where relax's op
// does not cover the form: extra outputs, training mode), Conv (1-D as 2-D),
// MaxPool/AveragePool (1-D and 3-D through 2-D pooling, count_include_pad and
// MaxPool's Indices composed), GlobalAveragePool/GlobalMaxPool, inference
// Dropout, and compositions of relax ops: Hardmax, DepthToSpace,
// SpaceToDepth, Upsample (nearest), MeanVarianceNormalization and LRN.
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

/// The explicit pads of a convolution or pooling node: `pads`, or those
/// `auto_pad` implies for the static `spatial` dims.
static FailureOr<SmallVector<int64_t>>
convPads(NodeBinder &b, ArrayRef<Expr> spatial, ArrayRef<int64_t> kernel,
         ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  size_t n = kernel.size();
  std::string autoPad = b.attrString("auto_pad", "NOTSET");
  std::optional<SmallVector<int64_t>> pads = b.attrInts("pads");
  // The spec: pads "cannot be used simultaneously with auto_pad" (onnx's
  // shape inference would use the pads, onnxruntime the auto_pad).
  if (pads && autoPad != "NOTSET") {
    (void)b.badAttr("pads", "cannot be given with auto_pad '" + autoPad + "'");
    return failure();
  }
  if (autoPad == "NOTSET") {
    if (!pads)
      return SmallVector<int64_t>(2 * n, 0);
    if (pads->size() != 2 * n) {
      (void)b.badAttr("pads", "must have two entries per spatial dim");
      return failure();
    }
    for (int64_t p : *pads)
      if (p < 0) {
        (void)b.badAttr("pads", "must not be negative");
        return failure();
      }
    return *pads;
  }
  if (autoPad == "VALID")
    return SmallVector<int64_t>(2 * n, 0);
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER") {
    (void)b.badAttr("auto_pad", "has unsupported value '" + autoPad + "'");
    return failure();
  }
  SmallVector<int64_t> out(2 * n, 0);
  for (size_t i = 0; i < n; ++i) {
    std::optional<int64_t> d = spatial[i].getConstant();
    if (!d) {
      b.error() << "auto_pad " << autoPad << " needs static spatial dims";
      return failure();
    }
    int64_t outDim = (*d + strides[i] - 1) / strides[i];
    int64_t total = std::max<int64_t>(
        0, (outDim - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - *d);
    int64_t small = total / 2, large = total - small;
    out[i] = autoPad == "SAME_UPPER" ? small : large;
    out[i + n] = autoPad == "SAME_UPPER" ? large : small;
  }
  return out;
}

namespace {
/// What Conv and ConvTranspose read alike: the data and the weight (1 or 2
/// spatial dims), the static kernel, the strides and the dilations.
struct ConvNode {
  Value x, w;
  SmallVector<Expr> xd;
  size_t n;
  SmallVector<int64_t> kernel, strides, dilations;
};
} // namespace

static FailureOr<ConvNode> readConvNode(NodeBinder &b) {
  if (failed(b.requireInputs(2, 3)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0), w = b.input(1);
  if (failed(x) || failed(w))
    return failure();
  FailureOr<SmallVector<Expr>> xd = b.dimsOf(*x), wd = b.dimsOf(*w);
  if (failed(xd) || failed(wd))
    return failure();
  if (xd->size() < 3 || wd->size() != xd->size())
    return b.error() << "needs a data and a weight input of equal rank >= 3";
  // T is a float type: an integer convolution would not be what onnx means.
  if (!isa<FloatType>(b.typeOf(*x).getDtype()))
    return b.error() << "needs a floating-point input, got "
                     << b.typeOf(*x).getDtype();
  size_t n = xd->size() - 2;
  if (n > 2)
    return b.error() << "unsupported: " << n << "-D " << b.getOpType()
                     << " (1-D and 2-D only)";
  SmallVector<int64_t> kernel;
  for (size_t i = 0; i < n; ++i) {
    std::optional<int64_t> k = (*wd)[2 + i].getConstant();
    if (!k)
      return b.error() << "needs static kernel dims";
    kernel.push_back(*k);
  }
  if (std::optional<SmallVector<int64_t>> ks = b.attrInts("kernel_shape"))
    if (*ks != kernel)
      return b.badAttr("kernel_shape", "does not match the weight");
  SmallVector<int64_t> strides =
      b.attrInts("strides").value_or(SmallVector<int64_t>(n, 1));
  SmallVector<int64_t> dilations =
      b.attrInts("dilations").value_or(SmallVector<int64_t>(n, 1));
  if (strides.size() != n || dilations.size() != n)
    return b.error() << "strides/dilations need one entry per spatial dim";
  for (size_t i = 0; i < n; ++i)
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1)
      return b.error() << "kernel, strides and dilations must be positive";
  return ConvNode{*x, *w, std::move(*xd), n, kernel, strides, dilations};
}

/// A 1-D convolution as a 2-D one with a unit height: the data and the
/// weight get an axis 2, the window attributes a leading unit entry and
/// `pads` zero pads for it.
static LogicalResult unitHeight(NodeBinder &b, ConvNode &c,
                                SmallVectorImpl<int64_t> &pads) {
  if (c.n != 1)
    return success();
  FailureOr<Value> x =
      b.create<ExpandDimsOp>(c.x, {b.named("axes", b.i64Array({2}))});
  FailureOr<Value> w =
      b.create<ExpandDimsOp>(c.w, {b.named("axes", b.i64Array({2}))});
  if (failed(x) || failed(w))
    return failure();
  c.x = *x;
  c.w = *w;
  c.strides.insert(c.strides.begin(), 1);
  c.dilations.insert(c.dilations.begin(), 1);
  pads.assign({0, pads[0], 0, pads[1]});
  return success();
}

/// Ends a convolution whose 2-D result is `y`: squeezes the unit height of
/// a 1-D one, adds the optional bias (input #2) along the channels and binds
/// the output.
static LogicalResult finishConv(NodeBinder &b, const ConvNode &c,
                                FailureOr<Value> y) {
  if (failed(y))
    return failure();
  if (c.n == 1 &&
      failed(y = b.create<SqueezeOp>(*y, {b.named("axes", b.i64Array({2}))})))
    return failure();
  if (b.hasInput(2)) {
    FailureOr<Value> biasIn = b.input(2);
    if (failed(biasIn))
      return failure();
    SmallVector<int64_t> axes;
    for (size_t i = 0; i < c.n; ++i)
      axes.push_back(1 + i);
    FailureOr<Value> bias =
        b.create<ExpandDimsOp>(*biasIn, {b.named("axes", b.i64Array(axes))});
    if (failed(bias) || failed(y = b.create<AddOp>({*y, *bias})))
      return failure();
  }
  return b.setOutput(0, y);
}

static LogicalResult importConv(NodeBinder &b) {
  FailureOr<ConvNode> c = readConvNode(b);
  if (failed(c))
    return failure();
  int64_t group = b.attrInt("group", 1);
  FailureOr<SmallVector<int64_t>> pads =
      convPads(b, ArrayRef<Expr>(c->xd).drop_front(2), c->kernel, c->strides,
               c->dilations);
  if (failed(pads) || failed(unitHeight(b, *c, *pads)))
    return failure();
  return finishConv(
      b, *c,
      b.create<Conv2DOp>({c->x, c->w},
                         {b.named("strides", b.i64Array(c->strides)),
                          b.named("padding", b.i64Array(*pads)),
                          b.named("dilation", b.i64Array(c->dilations)),
                          b.named("groups", b.i64Attr(group))}));
}

/// A relax 2-D pooling `OpTy` of `in`.
template <typename OpTy>
static FailureOr<Value>
pool2d(NodeBinder &b, Value in, ArrayRef<int64_t> kernel,
       ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
       ArrayRef<int64_t> pads, bool ceilMode) {
  return b.create<OpTy>(in, {b.named("pool_size", b.i64Array(kernel)),
                             b.named("strides", b.i64Array(strides)),
                             b.named("padding", b.i64Array(pads)),
                             b.named("dilation", b.i64Array(dilations)),
                             b.named("ceil_mode", b.boolAttr(ceilMode))});
}

/// MaxPool's Indices output: the window positions are gathered as K strided
/// slices of the (-inf padded) input stacked on a new last axis, argmax picks
/// the first maximal one, and its (kh, kw) offset becomes the flat index
/// into the input, row-major (storage_order 0) or column-major (1) per (n, c)
/// plane. Needs static spatial dims.
static FailureOr<Value>
maxPoolIndices(NodeBinder &b, Value x, ArrayRef<Expr> dims,
               ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
               ArrayRef<int64_t> dilations, ArrayRef<int64_t> pads,
               RelaxTensorType pooled, int64_t storageOrder) {
  std::optional<int64_t> h = dims[2].getConstant(), w = dims[3].getConstant(),
                         oh = pooled.getDims()[2].getConstant(),
                         ow = pooled.getDims()[3].getConstant();
  if (!h || !w || !oh || !ow)
    return b.error() << "the Indices output needs static spatial dims";
  int64_t kh = kernel[0], kw = kernel[1];
  if (kh * kw > 1024)
    return b.error() << "the Indices output supports windows of at most "
                        "1024 elements";
  // Pad with -inf so that every window (ceil_mode included) is in bounds.
  int64_t needH = (*oh - 1) * strides[0] + (kh - 1) * dilations[0] + 1;
  int64_t needW = (*ow - 1) * strides[1] + (kw - 1) * dilations[1] + 1;
  int64_t padBottom = std::max<int64_t>(0, needH - *h - pads[0]);
  int64_t padRight = std::max<int64_t>(0, needW - *w - pads[1]);
  Type dtype = b.typeOf(x).getDtype();
  double lowest = -std::numeric_limits<double>::infinity();
  Value padded = x;
  auto padAxis = [&](int64_t axis, int64_t before,
                     int64_t after) -> LogicalResult {
    SmallVector<Value> parts;
    SmallVector<Expr> shape(b.typeOf(padded).getDims());
    for (int64_t amount : {before, after}) {
      if (amount == 0) {
        parts.push_back(Value());
        continue;
      }
      shape[axis] = Expr::constant(amount);
      FailureOr<Value> fill =
          b.create<FullOp>({}, {b.named("shape", b.shapeAttr(shape)),
                                b.named("value", b.f64Attr(lowest)),
                                b.named("dtype", TypeAttr::get(dtype))});
      if (failed(fill))
        return failure();
      parts.push_back(*fill);
    }
    SmallVector<Value> operands;
    if (parts[0])
      operands.push_back(parts[0]);
    operands.push_back(padded);
    if (parts[1])
      operands.push_back(parts[1]);
    if (operands.size() == 1)
      return success();
    FailureOr<Value> r =
        b.create<ConcatOp>(operands, {b.named("axis", b.i64Attr(axis))});
    if (failed(r))
      return failure();
    padded = *r;
    return success();
  };
  if (failed(padAxis(2, pads[0], padBottom)) ||
      failed(padAxis(3, pads[1], padRight)))
    return failure();
  SmallVector<Value> windows;
  for (int64_t i = 0; i < kh; ++i) {
    for (int64_t j = 0; j < kw; ++j) {
      int64_t b0 = i * dilations[0], b1 = j * dilations[1];
      FailureOr<Value> sl = b.create<StridedSliceOp>(
          padded,
          {b.named("axes", b.i64Array({2, 3})),
           b.named("begin",
                   b.shapeAttr({Expr::constant(b0), Expr::constant(b1)})),
           b.named(
               "end",
               b.shapeAttr({Expr::constant(b0 + (*oh - 1) * strides[0] + 1),
                            Expr::constant(b1 + (*ow - 1) * strides[1] + 1)})),
           b.named("strides", b.i64Array({strides[0], strides[1]}))});
      if (failed(sl) || failed(sl = b.create<ExpandDimsOp>(
                                   *sl, {b.named("axes", b.i64Array({4}))})))
        return failure();
      windows.push_back(*sl);
    }
  }
  FailureOr<Value> stacked =
      windows.size() == 1
          ? FailureOr<Value>(windows[0])
          : b.create<ConcatOp>(windows, {b.named("axis", b.i64Attr(4))});
  if (failed(stacked))
    return failure();
  FailureOr<Value> k =
      b.create<ArgmaxOp>(*stacked, {b.named("axis", b.i64Attr(4))});
  if (failed(k))
    return failure();
  Type i64 = b.getBuilder().getI64Type();
  auto cst = [&](int64_t v) { return b.scalar(static_cast<double>(v), i64); };
  // ki = k / kw, kj = k - ki * kw.
  FailureOr<Value> kwC = cst(kw);
  if (failed(kwC))
    return failure();
  FailureOr<Value> ki = b.create<DivideOp>({*k, *kwC});
  if (failed(ki))
    return failure();
  FailureOr<Value> kiw = b.create<MultiplyOp>({*ki, *kwC});
  if (failed(kiw))
    return failure();
  FailureOr<Value> kj = b.create<SubtractOp>({*k, *kiw});
  if (failed(kj))
    return failure();
  // Row/column of the window's start: arange over the output, scaled.
  auto coord = [&](Value off, int64_t out, int64_t stride, int64_t dil,
                   int64_t pad, SmallVector<Expr> shape) -> FailureOr<Value> {
    FailureOr<Value> r =
        b.arange(Expr::constant(-pad), Expr::constant(-pad + out * stride),
                 Expr::constant(stride), i64);
    if (failed(r) || failed(r = b.reshape(*r, shape)))
      return failure();
    FailureOr<Value> d = cst(dil);
    if (failed(d))
      return failure();
    FailureOr<Value> scaled = b.create<MultiplyOp>({off, *d});
    if (failed(scaled))
      return failure();
    return b.create<AddOp>({*r, *scaled});
  };
  FailureOr<Value> row = coord(*ki, *oh, strides[0], dilations[0], pads[0],
                               {Expr::constant(*oh), Expr::constant(1)});
  FailureOr<Value> col =
      coord(*kj, *ow, strides[1], dilations[1], pads[1], {Expr::constant(*ow)});
  if (failed(row) || failed(col))
    return failure();
  // Flat index within the (n, c) plane, then the plane offset.
  FailureOr<Value> major = cst(storageOrder == 0 ? *w : *h);
  if (failed(major))
    return failure();
  Value first = storageOrder == 0 ? *row : *col;
  Value second = storageOrder == 0 ? *col : *row;
  FailureOr<Value> idx = b.create<MultiplyOp>({first, *major});
  if (failed(idx) || failed(idx = b.create<AddOp>({*idx, second})))
    return failure();
  FailureOr<Value> planes =
      b.arange(Expr::constant(0), dims[0] * dims[1], Expr::constant(1), i64);
  if (failed(planes) ||
      failed(planes = b.reshape(*planes, {dims[0], dims[1], Expr::constant(1),
                                          Expr::constant(1)})))
    return failure();
  FailureOr<Value> planeSize = cst(*h * *w);
  if (failed(planeSize))
    return failure();
  FailureOr<Value> base = b.create<MultiplyOp>({*planes, *planeSize});
  if (failed(base))
    return failure();
  return b.create<AddOp>({*base, *idx});
}

template <typename OpTy> static LogicalResult importPool(NodeBinder &b) {
  constexpr bool isMax = std::is_same_v<OpTy, MaxPool2DOp>;
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(isMax ? 2 : 1)))
    return failure();
  std::optional<SmallVector<int64_t>> kernel = b.attrInts("kernel_shape");
  if (!kernel)
    return b.error() << "needs a 'kernel_shape' attribute";
  size_t n = kernel->size();
  if (n < 1 || n > 3)
    return b.error() << "supports 1-D, 2-D and 3-D pooling only";
  SmallVector<int64_t> strides =
      b.attrInts("strides").value_or(SmallVector<int64_t>(n, 1));
  SmallVector<int64_t> dilations =
      b.attrInts("dilations").value_or(SmallVector<int64_t>(n, 1));
  bool ceilMode = b.opset() >= 10 && attrFlag(b, "ceil_mode", false);
  bool includePad = false;
  int64_t storageOrder = 0;
  if (isMax) {
    storageOrder = b.attrInt("storage_order", 0);
    if (storageOrder != 0 && storageOrder != 1)
      return b.badAttr("storage_order", "must be 0 or 1");
  } else {
    includePad = attrFlag(b, "count_include_pad", false);
  }
  if (strides.size() != n || dilations.size() != n)
    return b.error() << "strides/dilations need one entry per spatial dim";
  for (size_t i = 0; i < n; ++i)
    if ((*kernel)[i] < 1 || strides[i] < 1 || dilations[i] < 1)
      return b.error() << "kernel, strides and dilations must be positive";
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> xd = b.dimsOf(*x);
  if (failed(xd))
    return failure();
  if (xd->size() != n + 2)
    return b.error() << "input rank does not match the kernel";
  FailureOr<SmallVector<int64_t>> pads = convPads(
      b, ArrayRef<Expr>(*xd).drop_front(2), *kernel, strides, dilations);
  // onnxruntime's rule for explicit pads: a window that lies entirely in
  // the padding has no input element to pool.
  if (succeeded(pads) && b.attr("pads"))
    for (size_t i = 0; i < n; ++i)
      if ((*pads)[i] >= (*kernel)[i] || (*pads)[i + n] >= (*kernel)[i])
        return b.badAttr("pads",
                         "must be smaller than the kernel, got " +
                             Twine(std::max((*pads)[i], (*pads)[i + n])) +
                             " for a kernel of " + Twine((*kernel)[i]));
  if (failed(pads))
    return failure();
  // Pooling is lowered for floats only: other dtypes pool exactly in f32.
  Type dtype = b.typeOf(*x).getDtype();
  // AveragePool's T is a float type (MaxPool also takes 8-bit integers).
  if (!isMax && !isa<FloatType>(dtype))
    return b.error() << "needs a floating-point input, got " << dtype;
  FailureOr<Value> in = isa<FloatType>(dtype)
                            ? FailureOr<Value>(*x)
                            : b.castTo(*x, b.getBuilder().getF32Type());
  if (failed(in))
    return failure();
  const SmallVector<int64_t> &k = *kernel, &p = *pads;
  FailureOr<Value> y = failure();
  if (n == 2) {
    y = pool2d<OpTy>(b, *in, k, strides, dilations, p, ceilMode);
  } else if (n == 1) {
    // 1-D as 2-D with a unit height.
    FailureOr<Value> a =
        b.create<ExpandDimsOp>(*in, {b.named("axes", b.i64Array({2}))});
    if (failed(a))
      return failure();
    y = pool2d<OpTy>(b, *a, {1, k[0]}, {1, strides[0]}, {1, dilations[0]},
                     {0, p[0], 0, p[1]}, ceilMode);
    if (succeeded(y))
      y = b.create<SqueezeOp>(*y, {b.named("axes", b.i64Array({2}))});
  } else {
    // 3-D: max and (padding-excluding) average pooling are separable over a
    // box window, so pool (h, w) on [n, c * d, h, w], then d on
    // [n, c, d, oh * ow].
    const SmallVector<Expr> &d = *xd;
    FailureOr<Value> a = b.reshape(*in, {d[0], d[1] * d[2], d[3], d[4]});
    if (failed(a))
      return failure();
    FailureOr<Value> hw = pool2d<OpTy>(
        b, *a, {k[1], k[2]}, {strides[1], strides[2]},
        {dilations[1], dilations[2]}, {p[1], p[2], p[4], p[5]}, ceilMode);
    if (failed(hw))
      return failure();
    Expr oh = b.typeOf(*hw).getDims()[2], ow = b.typeOf(*hw).getDims()[3];
    if (!oh || !ow)
      return b.error() << "cannot infer the pooled size";
    FailureOr<Value> folded = b.reshape(*hw, {d[0], d[1], d[2], oh * ow});
    if (failed(folded))
      return failure();
    FailureOr<Value> dd =
        pool2d<OpTy>(b, *folded, {k[0], 1}, {strides[0], 1}, {dilations[0], 1},
                     {p[0], 0, p[3], 0}, ceilMode);
    if (failed(dd))
      return failure();
    Expr od = b.typeOf(*dd).getDims()[2];
    if (!od)
      return b.error() << "cannot infer the pooled size";
    y = b.reshape(*dd, {d[0], d[1], od, oh, ow});
  }
  if (failed(y))
    return failure();
  if (includePad) {
    // avg with padding counted = avg without * valid / padded window size,
    // a constant per output position (static spatial dims only).
    RelaxTensorType yt = b.typeOf(*y);
    SmallVector<int64_t> outShape;
    SmallVector<SmallVector<double>> ratios(n);
    for (size_t i = 0; i < n; ++i) {
      std::optional<int64_t> o = yt.getDims()[2 + i].getConstant(),
                             dim = (*xd)[2 + i].getConstant();
      if (!o || !dim)
        return b.error() << "count_include_pad needs static spatial dims";
      if (*o > (int64_t(1) << 20) || k[i] > (int64_t(1) << 20))
        return b.error() << "count_include_pad: window or output too large";
      outShape.push_back(*o);
      for (int64_t j = 0; j < *o; ++j) {
        int64_t valid = 0, padded = 0;
        for (int64_t t = 0; t < k[i]; ++t) {
          int64_t pos = j * strides[i] - p[i] + t * dilations[i];
          valid += pos >= 0 && pos < *dim;
          padded += pos >= -p[i] && pos < *dim + p[i + n];
        }
        ratios[i].push_back(padded ? double(valid) / padded : 0.0);
      }
    }
    SmallVector<float> values;
    int64_t total = 1;
    for (int64_t o : outShape) {
      total *= o;
      if (total > (int64_t(1) << 24))
        return b.error() << "count_include_pad: output too large";
    }
    for (int64_t flat = 0; flat < total; ++flat) {
      double r = 1;
      for (int64_t i = n - 1, rest = flat; i >= 0; --i) {
        r *= ratios[i][rest % outShape[i]];
        rest /= outShape[i];
      }
      values.push_back(static_cast<float>(r));
    }
    Value scale = b.constant(
        DenseElementsAttr::get(
            RankedTensorType::get(outShape, b.getBuilder().getF32Type()),
            ArrayRef<float>(values)),
        "pool_scale");
    FailureOr<Value> sc = b.castTo(scale, yt.getDtype());
    if (failed(sc) || failed(y = b.create<MultiplyOp>({*y, *sc})))
      return failure();
  }
  if (b.hasOutput(1)) {
    if (n != 2)
      return b.error() << "the Indices output needs 2-D pooling";
    FailureOr<Value> idx = maxPoolIndices(b, *in, *xd, k, strides, dilations, p,
                                          b.typeOf(*y), storageOrder);
    if (failed(idx))
      return failure();
    b.setOutput(1, *idx);
  }
  if (b.typeOf(*y).getDtype() != dtype && failed(y = b.castTo(*y, dtype)))
    return failure();
  b.setOutput(0, *y);
  return success();
}

/// GlobalAveragePool (`mean`) and GlobalMaxPool (`max`) over the spatial
/// axes.
template <typename OpTy> static LogicalResult importGlobalPool(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  RelaxTensorType t = b.typeOf(*x);
  if (!t.hasRank() || t.getRank() < 3)
    return b.error() << "needs an input of rank >= 3";
  SmallVector<int64_t> axes;
  for (int64_t k = 2; k < t.getRank(); ++k)
    axes.push_back(k);
  return b.setOutput(
      0, b.create<OpTy>(*x, {b.named("axes", b.i64Array(axes)),
                             b.named("keepdims", b.boolAttr(true))}));
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

/// Splits a total padding between the two ends as ONNX's ConvTranspose
/// does: SAME_UPPER puts the smaller half first, NOTSET and SAME_LOWER
/// last.
static std::pair<int64_t, int64_t> splitPadding(int64_t total, bool upper) {
  int64_t small = total / 2, large = total - small;
  return upper ? std::make_pair(small, large) : std::make_pair(large, small);
}

/// ConvTranspose: 2-D as relax.conv2d_transpose, 1-D through a unit height.
/// `output_shape` and `auto_pad` become explicit pads (ONNX's
/// total_padding = stride * (in - 1) + output_padding + (k - 1) * d + 1 -
/// out); an output larger than the unpadded one (a negative total) is
/// extra output padding at the end, zero-padded after the op where it
/// exceeds what conv2d_transpose's `output_padding` allows.
static LogicalResult importConvTranspose(NodeBinder &b) {
  FailureOr<ConvNode> c = readConvNode(b);
  if (failed(c))
    return failure();
  size_t n = c->n;
  ArrayRef<int64_t> kernel = c->kernel, strides = c->strides,
                    dilations = c->dilations;
  SmallVector<int64_t> outPad =
      b.attrInts("output_padding").value_or(SmallVector<int64_t>(n, 0));
  std::optional<SmallVector<int64_t>> outShape = b.attrInts("output_shape");
  std::optional<SmallVector<int64_t>> padsAttr = b.attrInts("pads");
  std::string autoPad = b.attrString("auto_pad", "NOTSET");
  int64_t group = b.attrInt("group", 1);
  if (b.hasBadAttr())
    return failure();
  if (outPad.size() != n ||
      llvm::any_of(outPad, [](int64_t p) { return p < 0; }))
    return b.badAttr("output_padding",
                     "needs one entry >= 0 per spatial dim");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return b.badAttr("auto_pad", "has unsupported value '" + autoPad + "'");
  if (padsAttr && autoPad != "NOTSET")
    return b.badAttr("pads", "cannot be given with auto_pad '" + autoPad + "'");
  bool upper = autoPad == "SAME_UPPER";
  SmallVector<int64_t> pads(2 * n, 0), extra(n, 0);
  // Explicit pads for a total padding; a negative total is extra output.
  auto distribute = [&](size_t i, int64_t total) {
    if (total < 0) {
      extra[i] = -total;
      total = 0;
    }
    std::tie(pads[i], pads[i + n]) = splitPadding(total, upper);
  };
  if (outShape) {
    if (outShape->size() != n && outShape->size() != n + 2)
      return b.badAttr("output_shape", "must have one entry per spatial dim");
    ArrayRef<int64_t> out = ArrayRef<int64_t>(*outShape).take_back(n);
    for (size_t i = 0; i < n; ++i) {
      std::optional<int64_t> in = c->xd[2 + i].getConstant();
      if (!in)
        return b.error()
               << "unsupported: output_shape with a symbolic spatial dim "
               << c->xd[2 + i].str();
      distribute(i, strides[i] * (*in - 1) + outPad[i] +
                        (kernel[i] - 1) * dilations[i] + 1 - out[i]);
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    // The output is in * stride: the total does not depend on `in`.
    for (size_t i = 0; i < n; ++i)
      distribute(i, outPad[i] + (kernel[i] - 1) * dilations[i] + 1 -
                        strides[i]);
  } else if (autoPad == "NOTSET" && padsAttr) {
    if (padsAttr->size() != 2 * n)
      return b.badAttr("pads", "must have two entries per spatial dim");
    if (llvm::any_of(*padsAttr, [](int64_t p) { return p < 0; }))
      return b.badAttr("pads", "must not be negative");
    pads = *padsAttr;
  }
  // Extra output rows go into output_padding while it stays below the
  // stride or the dilation, the rest is zero padding after the op.
  SmallVector<Expr> padAfter(4, Expr::constant(0));
  bool needPad = false;
  for (size_t i = 0; i < n; ++i) {
    int64_t room = std::max(strides[i], dilations[i]) - 1 - outPad[i];
    int64_t into = std::clamp<int64_t>(extra[i], 0, std::max<int64_t>(room, 0));
    outPad[i] += into;
    padAfter[4 - n + i] = Expr::constant(extra[i] - into);
    needPad |= extra[i] > into;
  }
  if (failed(unitHeight(b, *c, pads)))
    return failure();
  if (n == 1)
    outPad.insert(outPad.begin(), 0);
  FailureOr<Value> y = b.create<Conv2DTransposeOp>(
      {c->x, c->w}, {b.named("strides", b.i64Array(c->strides)),
                     b.named("padding", b.i64Array(pads)),
                     b.named("output_padding", b.i64Array(outPad)),
                     b.named("dilation", b.i64Array(c->dilations)),
                     b.named("groups", b.i64Attr(group))});
  if (succeeded(y) && needPad)
    y = b.create<PadOp>(
        *y, {b.named("pad_before",
                     b.shapeAttr(SmallVector<Expr>(4, Expr::constant(0)))),
             b.named("pad_after", b.shapeAttr(padAfter))});
  return finishConv(b, *c, y);
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
  table.add("AveragePool", importPool<AvgPool2DOp>);
  table.add("BatchNormalization", importBatchNormalization);
  table.add("Conv", importConv);
  table.add("ConvTranspose", importConvTranspose);
  table.add("Dropout", importDropout);
  table.add("Gemm", importGemm);
  table.add("DepthToSpace", importDepthToSpace);
  table.add("GlobalAveragePool", importGlobalPool<MeanOp>);
  table.add("GlobalMaxPool", importGlobalPool<MaxOp>);
  table.add("Einsum", importEinsum);
  table.add("Hardmax", importHardmax);
  table.add("InstanceNormalization", importInstanceNormalization);
  table.add("LayerNormalization", importLayerNormalization);
  table.add("LogSoftmax", importSoftmax<LogSoftmaxOp>);
  table.add("LRN", importLRN);
  table.add("MatMul", importMatMul);
  table.add("MaxPool", importPool<MaxPool2DOp>);
  table.add("MeanVarianceNormalization", importMeanVarianceNormalization);
  table.add("Resize", importResize, /*sinceVersion=*/10);
  table.add("Softmax", importSoftmax<SoftmaxOp>);
  table.add("SpaceToDepth", importSpaceToDepth);
  table.add("Upsample", importUpsample, /*sinceVersion=*/7);
}
