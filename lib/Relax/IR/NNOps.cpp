//===- NNOps.cpp - shape inference of the nn ops --------------------------===//
//
// Normalisations check their parameter shapes against the normalised dims;
// convolution and pooling build their output sizes as symbolic floordiv /
// ceildiv expressions; attention checks the BSNH operand shapes and the
// grouped-query head ratio. Provably wrong shapes are errors naming both
// expressions; undecidable ones are accepted (see each op's description).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relax;

namespace {
/// Shared state of one inference call: the location and op name used by
/// every error.
struct NNInfer {
  std::optional<Location> loc;
  StringRef opName;

  LogicalResult fail(const Twine &message) const {
    return inferFailure(loc, opName, message);
  }

  LogicalResult requireFloat(RelaxTensorType type, StringRef what) const {
    if (isa<FloatType>(type.getDtype()))
      return success();
    return fail(Twine(what) + " requires a floating-point dtype");
  }

  LogicalResult requireSameDtype(RelaxTensorType a, RelaxTensorType b,
                                 StringRef whatA, StringRef whatB) const {
    if (a.getDtype() == b.getDtype())
      return success();
    std::string message;
    llvm::raw_string_ostream os(message);
    os << whatA << " dtype " << a.getDtype() << " differs from " << whatB
       << " dtype " << b.getDtype();
    return fail(message);
  }

  /// A parameter (gamma, weight, ...) must have exactly `expected` as its
  /// shape: rank and dims, the dims compared symbolically. Undecidable dims
  /// are accepted; a parameter of unknown rank is accepted.
  LogicalResult checkParamShape(RelaxTensorType param, StringRef what,
                                ArrayRef<sym::Expr> expected) const {
    const SymShape &shape = param.getShape();
    if (!shape.hasRank())
      return success();
    SymShape want(expected);
    if (shape.getRank() != want.getRank())
      return fail(Twine(what) + " shape " + shape.str() + " must be " +
                  want.str());
    for (int64_t i = 0, e = shape.getRank(); i < e; ++i)
      if (failed(unifyDims(shape.getDim(i), want.getDim(i))))
        return fail(Twine(what) + " shape " + shape.str() + " must be " +
                    want.str() + ": dim " + Twine(i) + " is " +
                    shape.getDim(i).str() + ", expected " +
                    want.getDim(i).str());
    return success();
  }

  /// The four dims of an NCHW-style operand; unknown rank gives four `?`.
  FailureOr<SmallVector<sym::Expr, 4>> dims4(RelaxTensorType type,
                                             StringRef what) const {
    if (!type.hasRank())
      return SmallVector<sym::Expr, 4>(4);
    if (type.getRank() != 4) {
      (void)fail(Twine(what) + " must have rank 4, got " +
                 Twine(type.getRank()));
      return failure();
    }
    return SmallVector<sym::Expr, 4>(type.getDims());
  }

  /// strides / dilation / pool sizes: 1 value (both dims) or 2, all >=
  /// `min` (1; 0 for output_padding, whose default is then 0).
  FailureOr<std::array<int64_t, 2>> pair(std::optional<ArrayRef<int64_t>> attr,
                                         StringRef what,
                                         int64_t min = 1) const {
    if (!attr)
      return std::array<int64_t, 2>{min, min};
    std::array<int64_t, 2> result;
    if (attr->size() == 1)
      result = {(*attr)[0], (*attr)[0]};
    else if (attr->size() == 2)
      result = {(*attr)[0], (*attr)[1]};
    else
      return (void)fail(Twine(what) + " must have 1 or 2 values, got " +
                        Twine(attr->size())),
             failure();
    if (result[0] < min || result[1] < min)
      return (void)fail(Twine(what) + (min == 1 ? " must be positive"
                                                : " must be non-negative")),
             failure();
    return result;
  }

  /// padding as (top, left, bottom, right) from 1, 2 or 4 values, >= 0.
  FailureOr<std::array<int64_t, 4>>
  padding(std::optional<ArrayRef<int64_t>> attr) const {
    if (!attr)
      return std::array<int64_t, 4>{0, 0, 0, 0};
    std::array<int64_t, 4> p;
    ArrayRef<int64_t> v = *attr;
    if (v.size() == 1)
      p = {v[0], v[0], v[0], v[0]};
    else if (v.size() == 2)
      p = {v[0], v[1], v[0], v[1]};
    else if (v.size() == 4)
      p = {v[0], v[1], v[2], v[3]};
    else
      return (void)fail("padding must have 1, 2 or 4 values, got " +
                        Twine(v.size())),
             failure();
    if (llvm::any_of(p, [](int64_t x) { return x < 0; }))
      return (void)fail("padding must be non-negative"), failure();
    return p;
  }

  /// Output size of a sliding window:
  ///   (in + pad - dilation * (kernel - 1) - 1) {floor,ceil}div stride + 1.
  /// `?` when the input or kernel size is unknown; an error when the result
  /// is provably below 1 (window larger than the padded input).
  FailureOr<sym::Expr> window(const sym::Expr &in, int64_t pad,
                              const sym::Expr &kernel, int64_t dilation,
                              int64_t stride, bool ceilMode,
                              StringRef what) const {
    if (!in || !kernel)
      return sym::Expr();
    sym::Expr extent = in + pad - dilation * (kernel - 1) - 1;
    sym::Expr strideExpr = sym::Expr::constant(stride);
    sym::Expr out = (ceilMode ? sym::ceilDiv(extent, strideExpr)
                              : sym::floorDiv(extent, strideExpr)) +
                    1;
    if (!out)
      return sym::Expr();
    if (defaultSymContext().isLT(out, sym::Expr::constant(1)) ==
        sym::Truth::True)
      return (void)fail(Twine("output ") + what + " " + out.str() +
                        " is not positive (input " + in.str() + ", kernel " +
                        kernel.str() + ")"),
             failure();
    return out;
  }

  /// Output size of a transposed window:
  ///   (in - 1) * stride + dilation * (kernel - 1) + outPad + 1 - pad.
  /// `?` when the input or kernel size is unknown; an error when the result
  /// is provably below 1.
  FailureOr<sym::Expr> transposedWindow(const sym::Expr &in, int64_t pad,
                                        const sym::Expr &kernel,
                                        int64_t dilation, int64_t stride,
                                        int64_t outPad, StringRef what) const {
    if (!in || !kernel)
      return sym::Expr();
    sym::Expr out =
        (in - 1) * stride + dilation * (kernel - 1) + (outPad + 1 - pad);
    if (!out)
      return sym::Expr();
    if (defaultSymContext().isLT(out, sym::Expr::constant(1)) ==
        sym::Truth::True)
      return (void)fail(Twine("output ") + what + " " + out.str() +
                        " is not positive (input " + in.str() + ", kernel " +
                        kernel.str() + ")"),
             failure();
    return out;
  }

  /// Fails unless `dim mod divisor` may be 0 (provably non-zero is an
  /// error naming `what`).
  LogicalResult checkDivisible(const sym::Expr &dim, int64_t divisor,
                               const Twine &what) const {
    if (!dim)
      return success();
    sym::Expr rem = sym::mod(dim, sym::Expr::constant(divisor));
    if (rem && defaultSymContext().isEQ(rem, sym::Expr::constant(0)) ==
                   sym::Truth::False)
      return fail(what + " " + dim.str() + " are not divisible by groups " +
                  Twine(divisor));
    return success();
  }
};
} // namespace

/// The dims of `input` selected by the sorted, normalised `axes`.
static SmallVector<sym::Expr> selectDims(RelaxTensorType input,
                                         ArrayRef<int64_t> axes) {
  SmallVector<sym::Expr> dims;
  for (int64_t axis : axes)
    dims.push_back(input.getShape().getDim(axis));
  return dims;
}

/// layer_norm and rms_norm: each parameter has the normalised dims' shape.
static LogicalResult inferAffineNorm(const NNInfer &infer, Type inputType,
                                     ArrayRef<Value> params,
                                     ArrayRef<StringRef> names,
                                     ArrayRef<int64_t> axes,
                                     SmallVectorImpl<Type> &results) {
  auto input = cast<RelaxTensorType>(inputType);
  if (failed(infer.requireFloat(input, "input")))
    return failure();
  for (auto [param, name] : llvm::zip(params, names))
    if (failed(infer.requireSameDtype(cast<RelaxTensorType>(param.getType()),
                                      input, name, "input")))
      return failure();
  if (input.hasRank()) {
    FailureOr<SmallVector<int64_t>> normalized =
        normalizeAxes(infer.loc, infer.opName, axes, input.getRank());
    if (failed(normalized))
      return failure();
    SmallVector<sym::Expr> expected = selectDims(input, *normalized);
    for (auto [param, name] : llvm::zip(params, names))
      if (failed(infer.checkParamShape(cast<RelaxTensorType>(param.getType()),
                                       name, expected)))
        return failure();
  }
  results.push_back(input);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  Value params[] = {adaptor.getGamma(), adaptor.getBeta()};
  StringRef names[] = {"gamma", "beta"};
  return inferAffineNorm(infer, adaptor.getInput().getType(), params, names,
                         adaptor.getAxes(), results);
}

LogicalResult RMSNormOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  Value params[] = {adaptor.getWeight()};
  StringRef names[] = {"weight"};
  return inferAffineNorm(infer, adaptor.getInput().getType(), params, names,
                         adaptor.getAxes(), results);
}

LogicalResult GroupNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  auto gamma = cast<RelaxTensorType>(adaptor.getGamma().getType());
  auto beta = cast<RelaxTensorType>(adaptor.getBeta().getType());
  int64_t groups = adaptor.getNumGroups();
  if (groups < 1)
    return infer.fail("num_groups must be positive, got " + Twine(groups));
  if (failed(infer.requireFloat(input, "input")) ||
      failed(infer.requireSameDtype(gamma, input, "gamma", "input")) ||
      failed(infer.requireSameDtype(beta, input, "beta", "input")))
    return failure();
  if (!input.hasRank()) {
    results.push_back(input);
    return success();
  }
  int64_t rank = input.getRank();
  FailureOr<int64_t> channelAxis =
      normalizeAxis(loc, getOperationName(), adaptor.getChannelAxis(), rank);
  if (failed(channelAxis))
    return failure();
  FailureOr<SmallVector<int64_t>> axes =
      normalizeAxes(loc, getOperationName(), adaptor.getAxes(), rank);
  if (failed(axes))
    return failure();
  if (llvm::is_contained(*axes, *channelAxis))
    return infer.fail("axes must not contain the channel axis " +
                      Twine(*channelAxis));
  sym::Expr channels = input.getShape().getDim(*channelAxis);
  if (channels) {
    sym::Expr rem = sym::mod(channels, sym::Expr::constant(groups));
    if (rem && defaultSymContext().isEQ(rem, sym::Expr::constant(0)) ==
                   sym::Truth::False)
      return infer.fail("channels " + channels.str() +
                        " are not divisible by num_groups " + Twine(groups) +
                        " (remainder " + rem.str() + ")");
  }
  if (failed(infer.checkParamShape(gamma, "gamma", channels)) ||
      failed(infer.checkParamShape(beta, "beta", channels)))
    return failure();
  results.push_back(input);
  return success();
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  if (failed(infer.requireFloat(input, "input")))
    return failure();
  std::pair<Value, StringRef> params[] = {
      {adaptor.getGamma(), "gamma"},
      {adaptor.getBeta(), "beta"},
      {adaptor.getMovingMean(), "moving_mean"},
      {adaptor.getMovingVar(), "moving_var"}};
  for (auto [value, name] : params)
    if (failed(infer.requireSameDtype(cast<RelaxTensorType>(value.getType()),
                                      input, name, "input")))
      return failure();
  if (input.hasRank()) {
    FailureOr<int64_t> axis = normalizeAxis(loc, getOperationName(),
                                            adaptor.getAxis(), input.getRank());
    if (failed(axis))
      return failure();
    sym::Expr channels = input.getShape().getDim(*axis);
    for (auto [value, name] : params)
      if (failed(infer.checkParamShape(cast<RelaxTensorType>(value.getType()),
                                       name, channels)))
        return failure();
  }
  results.push_back(input);
  return success();
}

/// The operands and window attributes conv2d and conv2d_transpose share:
/// the NCHW input and weight dims (same dtype), strides and dilation.
struct ConvOperands {
  SmallVector<sym::Expr, 4> x, w;
  std::array<int64_t, 2> strides, dilation;
};

template <typename Adaptor>
static FailureOr<ConvOperands> readConvOperands(const NNInfer &infer,
                                                Adaptor adaptor) {
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  auto weight = cast<RelaxTensorType>(adaptor.getWeight().getType());
  if (failed(infer.requireSameDtype(weight, input, "weight", "input")))
    return failure();
  FailureOr<SmallVector<sym::Expr, 4>> x = infer.dims4(input, "input");
  if (failed(x))
    return failure();
  FailureOr<SmallVector<sym::Expr, 4>> w = infer.dims4(weight, "weight");
  if (failed(w))
    return failure();
  auto strides = infer.pair(adaptor.getStrides(), "strides");
  if (failed(strides))
    return failure();
  auto dilation = infer.pair(adaptor.getDilation(), "dilation");
  if (failed(dilation))
    return failure();
  return ConvOperands{*x, *w, *strides, *dilation};
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  FailureOr<ConvOperands> conv = readConvOperands(infer, adaptor);
  if (failed(conv))
    return failure();
  auto &[x, w, strides, dilation] = *conv;
  auto pad = infer.padding(adaptor.getPadding());
  if (failed(pad))
    return failure();
  int64_t groups = adaptor.getGroups();
  if (groups < 1)
    return infer.fail("groups must be positive, got " + Twine(groups));

  const sym::Expr &c = x[1], &o = w[0], &cg = w[1];
  if (c && cg) {
    sym::Expr expected = cg * groups;
    if (failed(unifyDims(c, expected)))
      return infer.fail(
          "input channels " + c.str() +
          " must equal weight in-channels * groups = " + expected.str());
  }
  if (failed(infer.checkDivisible(o, groups, "weight out-channels")))
    return failure();
  FailureOr<sym::Expr> oh =
      infer.window(x[2], (*pad)[0] + (*pad)[2], w[2], dilation[0], strides[0],
                   /*ceilMode=*/false, "height");
  if (failed(oh))
    return failure();
  FailureOr<sym::Expr> ow =
      infer.window(x[3], (*pad)[1] + (*pad)[3], w[3], dilation[1], strides[1],
                   /*ceilMode=*/false, "width");
  if (failed(ow))
    return failure();
  sym::Expr dims[] = {x[0], o, *oh, *ow};
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

LogicalResult
Conv2DTransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  FailureOr<ConvOperands> conv = readConvOperands(infer, adaptor);
  if (failed(conv))
    return failure();
  auto &[x, w, strides, dilation] = *conv;
  auto outPad = infer.pair(adaptor.getOutputPadding(), "output_padding",
                           /*min=*/0);
  if (failed(outPad))
    return failure();
  auto pad = infer.padding(adaptor.getPadding());
  if (failed(pad))
    return failure();
  int64_t groups = adaptor.getGroups();
  if (groups < 1)
    return infer.fail("groups must be positive, got " + Twine(groups));
  for (int i = 0; i < 2; ++i)
    if ((*outPad)[i] >= strides[i] && (*outPad)[i] >= dilation[i])
      return infer.fail("output_padding " + Twine((*outPad)[i]) +
                        " must be smaller than the stride " +
                        Twine(strides[i]) + " or the dilation " +
                        Twine(dilation[i]));

  // x [n, c, h, w], weight [c, o / groups, kh, kw].
  const sym::Expr &c = x[1], &wc = w[0], &opg = w[1];
  if (c && wc && failed(unifyDims(c, wc)))
    return infer.fail("input channels " + c.str() +
                      " must equal weight dim 0 = " + wc.str());
  if (failed(infer.checkDivisible(c ? c : wc, groups, "input channels")))
    return failure();
  FailureOr<sym::Expr> oh =
      infer.transposedWindow(x[2], (*pad)[0] + (*pad)[2], w[2], dilation[0],
                             strides[0], (*outPad)[0], "height");
  if (failed(oh))
    return failure();
  FailureOr<sym::Expr> ow =
      infer.transposedWindow(x[3], (*pad)[1] + (*pad)[3], w[3], dilation[1],
                             strides[1], (*outPad)[1], "width");
  if (failed(ow))
    return failure();
  sym::Expr o = opg ? opg * groups : sym::Expr();
  sym::Expr dims[] = {x[0], o, *oh, *ow};
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

LogicalResult Resize2DOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  FailureOr<SmallVector<sym::Expr, 4>> x = infer.dims4(input, "input");
  if (failed(x))
    return failure();
  auto oneOf = [&](StringRef what, StringRef value,
                   ArrayRef<StringRef> allowed) -> LogicalResult {
    if (llvm::is_contained(allowed, value))
      return success();
    return infer.fail(Twine(what) + " '" + value + "' is not one of " +
                      llvm::join(allowed, ", "));
  };
  StringRef method = adaptor.getMethod();
  if (failed(oneOf("method", method, {"nearest", "linear"})) ||
      failed(oneOf("coordinate_transformation_mode",
                   adaptor.getCoordinateTransformationMode(),
                   {"half_pixel", "pytorch_half_pixel", "asymmetric",
                    "align_corners"})) ||
      failed(
          oneOf("nearest_mode", adaptor.getNearestMode(),
                {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"})))
    return failure();
  if (method == "linear" && failed(infer.requireFloat(input, "linear resize")))
    return failure();
  if (std::optional<ArrayRef<double>> scales = adaptor.getScales()) {
    if (scales->size() != 2)
      return infer.fail("scales must have 2 values, got " +
                        Twine(scales->size()));
    if (llvm::any_of(*scales, [](double s) { return !(s > 0); }))
      return infer.fail("scales must be positive");
  }
  const SymShape &size = adaptor.getSize().getShape();
  if (!size.hasRank() || size.getRank() != 2)
    return infer.fail("size must have 2 dims, got " + size.str());
  for (int i = 0; i < 2; ++i) {
    const sym::Expr &d = size.getDim(i);
    if (!d)
      return infer.fail("size dim " + Twine(i) + " must not be '?'");
    if (defaultSymContext().isLT(d, sym::Expr::constant(0)) == sym::Truth::True)
      return infer.fail("size dim " + Twine(i) + " = " + d.str() +
                        " is negative");
  }
  sym::Expr dims[] = {(*x)[0], (*x)[1], size.getDim(0), size.getDim(1)};
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

/// max_pool2d / avg_pool2d: window arithmetic on h and w, n and c kept.
template <typename PoolOp>
static LogicalResult inferPool2D(std::optional<Location> loc,
                                 typename PoolOp::Adaptor adaptor,
                                 SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, PoolOp::getOperationName()};
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  FailureOr<SmallVector<sym::Expr, 4>> x = infer.dims4(input, "input");
  if (failed(x))
    return failure();
  auto size = infer.pair(adaptor.getPoolSize(), "pool_size");
  if (failed(size))
    return failure();
  auto strides = infer.pair(adaptor.getStrides(), "strides");
  if (failed(strides))
    return failure();
  auto dilation = infer.pair(adaptor.getDilation(), "dilation");
  if (failed(dilation))
    return failure();
  auto pad = infer.padding(adaptor.getPadding());
  if (failed(pad))
    return failure();
  bool ceilMode = adaptor.getCeilMode();
  FailureOr<sym::Expr> oh = infer.window(
      (*x)[2], (*pad)[0] + (*pad)[2], sym::Expr::constant((*size)[0]),
      (*dilation)[0], (*strides)[0], ceilMode, "height");
  if (failed(oh))
    return failure();
  FailureOr<sym::Expr> ow = infer.window(
      (*x)[3], (*pad)[1] + (*pad)[3], sym::Expr::constant((*size)[1]),
      (*dilation)[1], (*strides)[1], ceilMode, "width");
  if (failed(ow))
    return failure();
  sym::Expr dims[] = {(*x)[0], (*x)[1], *oh, *ow};
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

LogicalResult MaxPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  return inferPool2D<MaxPool2DOp>(loc, adaptor, results);
}

LogicalResult AvgPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  return inferPool2D<AvgPool2DOp>(loc, adaptor, results);
}

LogicalResult AdaptiveAvgPool2DOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  FailureOr<SmallVector<sym::Expr, 4>> x = infer.dims4(input, "input");
  if (failed(x))
    return failure();
  SmallVector<sym::Expr, 4> dims = *x;
  if (std::optional<ArrayRef<int64_t>> outSize = adaptor.getOutputSize()) {
    auto size = infer.pair(outSize, "output_size");
    if (failed(size))
      return failure();
    dims[2] = sym::Expr::constant((*size)[0]);
    dims[3] = sym::Expr::constant((*size)[1]);
  }
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

LogicalResult
GlobalAvgPool2DOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  FailureOr<SmallVector<sym::Expr, 4>> x = infer.dims4(input, "input");
  if (failed(x))
    return failure();
  sym::Expr one = sym::Expr::constant(1);
  sym::Expr dims[] = {(*x)[0], (*x)[1], one, one};
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, getOperationName()};
  auto qType = cast<RelaxTensorType>(adaptor.getQuery().getType());
  auto kType = cast<RelaxTensorType>(adaptor.getKey().getType());
  auto vType = cast<RelaxTensorType>(adaptor.getValue().getType());
  if (failed(infer.requireFloat(qType, "query")) ||
      failed(infer.requireSameDtype(kType, qType, "key", "query")) ||
      failed(infer.requireSameDtype(vType, qType, "value", "query")))
    return failure();
  FailureOr<SmallVector<sym::Expr, 4>> q = infer.dims4(qType, "query");
  if (failed(q))
    return failure();
  FailureOr<SmallVector<sym::Expr, 4>> k = infer.dims4(kType, "key");
  if (failed(k))
    return failure();
  FailureOr<SmallVector<sym::Expr, 4>> v = infer.dims4(vType, "value");
  if (failed(v))
    return failure();
  // q [b, s, hq, d], k [b, skv, hkv, d], v [b, skv, hkv, dv].
  StringRef name = getOperationName();
  FailureOr<sym::Expr> batchQK =
      unifyDimsOrError(loc, name, "query/key batch", (*q)[0], (*k)[0]);
  if (failed(batchQK))
    return failure();
  FailureOr<sym::Expr> batchQV =
      unifyDimsOrError(loc, name, "query/value batch", (*q)[0], (*v)[0]);
  if (failed(batchQV))
    return failure();
  if (failed(
          unifyDimsOrError(loc, name, "key/value batch", (*k)[0], (*v)[0])) ||
      failed(unifyDimsOrError(loc, name, "query/key head dim", (*q)[3],
                              (*k)[3])) ||
      failed(unifyDimsOrError(loc, name, "key/value sequence length", (*k)[1],
                              (*v)[1])) ||
      failed(unifyDimsOrError(loc, name, "key/value head count", (*k)[2],
                              (*v)[2])))
    return failure();
  const sym::Expr &hq = (*q)[2], &hkv = (*k)[2];
  if (hq && hkv) {
    sym::Expr rem = sym::mod(hq, hkv);
    if (rem && defaultSymContext().isEQ(rem, sym::Expr::constant(0)) ==
                   sym::Truth::False)
      return infer.fail("query heads " + hq.str() +
                        " are not a multiple of key/value heads " + hkv.str());
  }
  // The batch is known only when both kv operands provably agree with q.
  sym::Expr batch = *batchQK && *batchQV ? *batchQK : sym::Expr();
  if (Value mask = adaptor.getMask()) {
    sym::Expr target[] = {batch ? batch : (*q)[0], hq, (*q)[1], (*k)[1]};
    if (failed(checkBroadcastableTo(
            loc, name, "mask", cast<RelaxTensorType>(mask.getType()).getShape(),
            SymShape(target))))
      return failure();
  }
  sym::Expr dims[] = {batch, (*q)[1], hq, (*v)[3]};
  results.push_back(qType.withShape(SymShape(dims)));
  return success();
}

//===----------------------------------------------------------------------===//
// Recurrences (rnn, gru, lstm)
//===----------------------------------------------------------------------===//

bool mlir::relax::isRecurrentActivation(StringRef name) {
  return llvm::is_contained(
      {"Sigmoid", "Tanh", "Relu", "HardSigmoid", "LeakyRelu", "Affine",
       "ScaledTanh", "Elu", "Softsign", "Softplus", "ThresholdedRelu"},
      name);
}

/// Activations per direction: f (rnn); f, g (gru); f, g, h (lstm).
static unsigned activationsPerDirection(StringRef opName) {
  if (opName.ends_with("lstm"))
    return 3;
  if (opName.ends_with("gru"))
    return 2;
  return 1;
}

SmallVector<StringRef>
mlir::relax::defaultRecurrentActivations(StringRef opName,
                                         unsigned numDirections) {
  SmallVector<StringRef> one;
  if (opName.ends_with("lstm"))
    one = {"Sigmoid", "Tanh", "Tanh"};
  else if (opName.ends_with("gru"))
    one = {"Sigmoid", "Tanh"};
  else
    one = {"Tanh"};
  SmallVector<StringRef> all;
  for (unsigned d = 0; d < numDirections; ++d)
    all.append(one);
  return all;
}

namespace {
/// The operands and attributes every recurrent op shares.
struct RecurrentOperands {
  Type xw, r, rb, h0, c0, p, lens;
  StringRef direction;
  std::optional<ArrayAttr> activations;
  std::optional<ArrayRef<double>> alpha, beta;
  unsigned gates;
  bool hasCell;
};
} // namespace

/// The dims of a rank-`rank` operand; unknown rank gives `rank` `?` dims.
static FailureOr<SmallVector<sym::Expr, 4>>
recurrentDims(const NNInfer &infer, RelaxTensorType type, int64_t rank,
              StringRef what) {
  if (!type.hasRank())
    return SmallVector<sym::Expr, 4>(rank);
  if (type.getRank() != rank) {
    (void)infer.fail(Twine(what) + " must have rank " + Twine(rank) +
                     ", got " + type.getShape().str());
    return failure();
  }
  return SmallVector<sym::Expr, 4>(type.getDims());
}

static LogicalResult inferRecurrent(std::optional<Location> loc,
                                    StringRef name,
                                    const RecurrentOperands &ops,
                                    SmallVectorImpl<Type> &results) {
  NNInfer infer{loc, name};
  int64_t numDirections;
  if (ops.direction == "forward" || ops.direction == "reverse")
    numDirections = 1;
  else if (ops.direction == "bidirectional")
    numDirections = 2;
  else
    return infer.fail("direction must be \"forward\", \"reverse\" or "
                      "\"bidirectional\", got \"" +
                      ops.direction + "\"");
  unsigned numActivations =
      activationsPerDirection(name) * static_cast<unsigned>(numDirections);
  if (ops.activations) {
    if (ops.activations->size() != numActivations)
      return infer.fail("expects " + Twine(numActivations) +
                        " activations for direction \"" + ops.direction +
                        "\", got " + Twine(ops.activations->size()));
    for (Attribute a : *ops.activations) {
      auto s = dyn_cast<StringAttr>(a);
      if (!s || !isRecurrentActivation(s.getValue()))
        return infer.fail("unsupported activation " +
                          (s ? "'" + s.getValue().str() + "'"
                             : std::string("(not a string)")));
    }
  }
  for (auto [what, values] :
       {std::pair<StringRef, std::optional<ArrayRef<double>>>{
            "activation_alpha", ops.alpha},
        {"activation_beta", ops.beta}})
    if (values && values->size() != numActivations)
      return infer.fail(Twine(what) + " must have one value per activation (" +
                        Twine(numActivations) + "), got " +
                        Twine(values->size()));

  auto xwType = cast<RelaxTensorType>(ops.xw);
  if (failed(infer.requireFloat(xwType, "xw")))
    return failure();
  auto param = [&](Type t, StringRef what) -> LogicalResult {
    return infer.requireSameDtype(cast<RelaxTensorType>(t), xwType, what, "xw");
  };
  if (failed(param(ops.r, "r")) || failed(param(ops.rb, "rb")) ||
      failed(param(ops.h0, "initial_h")) ||
      (ops.hasCell && (failed(param(ops.c0, "initial_c")) ||
                       failed(param(ops.p, "peepholes")))))
    return failure();
  auto lensType = cast<RelaxTensorType>(ops.lens);
  if (!isa<IntegerType>(lensType.getDtype()))
    return infer.fail("sequence_lens requires an integer dtype");

  auto xw = recurrentDims(infer, xwType, 4, "xw");
  auto r = recurrentDims(infer, cast<RelaxTensorType>(ops.r), 3, "r");
  auto rb = recurrentDims(infer, cast<RelaxTensorType>(ops.rb), 2, "rb");
  auto h0 = recurrentDims(infer, cast<RelaxTensorType>(ops.h0), 3, "initial_h");
  auto lens = recurrentDims(infer, lensType, 1, "sequence_lens");
  if (failed(xw) || failed(r) || failed(rb) || failed(h0) || failed(lens))
    return failure();
  sym::Expr d = sym::Expr::constant(numDirections);
  sym::Expr hidden = (*r)[2];
  sym::Expr gh = hidden ? hidden * static_cast<int64_t>(ops.gates)
                        : sym::Expr();
  sym::Expr seq = (*xw)[0];
  // Unify every mention of a dim, keeping the first known one.
  auto same = [&](sym::Expr &dim, const sym::Expr &other,
                  const Twine &what) -> LogicalResult {
    FailureOr<sym::Expr> u = unifyDimsOrError(loc, name, what, dim, other);
    if (failed(u))
      return failure();
    if (!dim)
      dim = other;
    return success();
  };
  sym::Expr batch = (*xw)[1];
  if (failed(same(d, (*xw)[2], "xw directions (dim 2)")) ||
      failed(same(gh, (*xw)[3], "xw gates (dim 3, gates * hidden_size)")) ||
      failed(same(d, (*r)[0], "r directions (dim 0)")) ||
      failed(same(gh, (*r)[1], "r gates (dim 1, gates * hidden_size)")) ||
      failed(same(d, (*rb)[0], "rb directions (dim 0)")) ||
      failed(same(gh, (*rb)[1], "rb gates (dim 1)")) ||
      failed(same(d, (*h0)[0], "initial_h directions (dim 0)")) ||
      failed(same(batch, (*h0)[1], "initial_h batch (dim 1)")) ||
      failed(same(hidden, (*h0)[2], "initial_h hidden_size (dim 2)")) ||
      failed(same(batch, (*lens)[0], "sequence_lens batch (dim 0)")))
    return failure();
  if (ops.hasCell) {
    auto c0 =
        recurrentDims(infer, cast<RelaxTensorType>(ops.c0), 3, "initial_c");
    auto p = recurrentDims(infer, cast<RelaxTensorType>(ops.p), 2, "peepholes");
    if (failed(c0) || failed(p))
      return failure();
    sym::Expr h3 = hidden ? hidden * 3 : sym::Expr();
    if (failed(same(d, (*c0)[0], "initial_c directions (dim 0)")) ||
        failed(same(batch, (*c0)[1], "initial_c batch (dim 1)")) ||
        failed(same(hidden, (*c0)[2], "initial_c hidden_size (dim 2)")) ||
        failed(same(d, (*p)[0], "peepholes directions (dim 0)")) ||
        failed(same(h3, (*p)[1], "peepholes size (dim 1, 3 * hidden_size)")))
      return failure();
  }
  sym::Expr yDims[] = {seq, d, batch, hidden};
  sym::Expr hDims[] = {d, batch, hidden};
  results.push_back(xwType.withShape(SymShape(yDims)));
  results.push_back(xwType.withShape(SymShape(hDims)));
  if (ops.hasCell)
    results.push_back(xwType.withShape(SymShape(hDims)));
  return success();
}

/// The operands and attributes the three recurrences share; the LSTM adds
/// its cell state `c0` and peepholes `p`.
template <typename AdaptorT>
static RecurrentOperands recurrentOperands(AdaptorT adaptor, Type c0, Type p,
                                           unsigned gates) {
  return {adaptor.getXw().getType(),
          adaptor.getR().getType(),
          adaptor.getRb().getType(),
          adaptor.getInitialH().getType(),
          c0,
          p,
          adaptor.getSequenceLens().getType(),
          adaptor.getDirection(),
          adaptor.getActivations(),
          adaptor.getActivationAlpha(),
          adaptor.getActivationBeta(),
          gates,
          /*hasCell=*/static_cast<bool>(c0)};
}

LogicalResult RNNOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  return inferRecurrent(loc, getOperationName(),
                        recurrentOperands(adaptor, Type(), Type(), 1), results);
}

LogicalResult GRUOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  return inferRecurrent(loc, getOperationName(),
                        recurrentOperands(adaptor, Type(), Type(), 3), results);
}

LogicalResult LSTMOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  return inferRecurrent(
      loc, getOperationName(),
      recurrentOperands(adaptor, adaptor.getInitialC().getType(),
                        adaptor.getPeepholes().getType(), 4),
      results);
}
