//===- ConvPoolOps.cpp - ONNX convolutions and pools ----------------------===//
//
// Conv and ConvTranspose (1-D through 2-D, groups, auto_pad, bias) and
// MaxPool/AveragePool (1-D and 3-D through 2-D pooling, count_include_pad
// and MaxPool's Indices composed), GlobalAveragePool/GlobalMaxPool.
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
#include "Importer.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

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

void onnx_import::addConvPoolOps(OpHandlerTable &table) {
  table.add("AveragePool", importPool<AvgPool2DOp>);
  table.add("Conv", importConv);
  table.add("ConvTranspose", importConvTranspose);
  table.add("GlobalAveragePool", importGlobalPool<MeanOp>);
  table.add("GlobalMaxPool", importGlobalPool<MaxOp>);
  table.add("MaxPool", importPool<MaxPool2DOp>);
}
