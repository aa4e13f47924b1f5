//===- ConvertNNOps.cpp - convolutions and pools --------------------------===//
//
// --convert-tosa-to-relax: tosa.matmul, and tosa.conv2d, depthwise_conv2d,
// transpose_conv2d, max_pool2d and avg_pool2d (NHWC) as relax NCHW ops
// between permutes.
//
//===----------------------------------------------------------------------===//

#include "OpConverter.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

/// NHWC conv2d (OHWI weight) or depthwise conv2d (HWCM weight) as relax's
/// NCHW conv2d between permutes; the bias is added in NHWC, where the
/// per-channel [C] vector broadcasts as is. TOSA pads (top, bottom, left,
/// right); relax takes (top, left, bottom, right). `tosaBias` is TOSA's
/// operand, `bias` its relax value.
static LogicalResult convertConv2D(OpConverter &c, Value input, Value weight,
                                   Value bias, Value tosaBias,
                                   ArrayRef<int64_t> pad,
                                   ArrayRef<int64_t> stride,
                                   ArrayRef<int64_t> dilation, bool depthwise) {
  FailureOr<Value> x = c.operand(input), w = c.operand(weight),
                   bv = c.operand(bias);
  if (failed(x) || failed(w) || failed(bv))
    return failure();
  FailureOr<Value> xn = c.permute(*x, {0, 3, 1, 2});
  if (failed(xn))
    return failure();
  FailureOr<Value> wn;
  int64_t groups = 1;
  if (!depthwise) {
    wn = c.permute(*w, {0, 3, 1, 2});
  } else {
    // [kh, kw, c, m] -> [c, m, kh, kw] -> [c * m, 1, kh, kw]: output
    // channel c * m + j reads input channel c, which is conv2d with
    // groups = c.
    SmallVector<Expr> wd = OpConverter::dimsOf(*w);
    std::optional<int64_t> channels =
        wd.size() == 4 && wd[2] ? wd[2].getConstant() : std::nullopt;
    if (!channels)
      return c.op->emitOpError("unsupported: a depthwise weight whose "
                               "channel count is not static");
    groups = *channels;
    FailureOr<Value> t = c.permute(*w, {2, 3, 0, 1});
    if (failed(t))
      return failure();
    wn = c.reshape(*t, {wd[2] * wd[3], Expr::constant(1), wd[0], wd[1]});
  }
  if (failed(wn))
    return failure();
  FailureOr<Value> y = c.build<Conv2DOp>(
      ValueRange{*xn, *wn},
      {c.named("strides", c.i64s(stride)),
       c.named("padding", c.i64s({pad[0], pad[2], pad[1], pad[3]})),
       c.named("dilation", c.i64s(dilation)),
       c.named("groups", c.rewriter.getI64IntegerAttr(groups))});
  if (failed(y))
    return failure();
  FailureOr<Value> yn = c.permute(*y, {0, 2, 3, 1});
  if (failed(yn))
    return failure();
  // A constant zero bias (what exporters write for bias=False) adds nothing.
  DenseElementsAttr biasAttr;
  if (matchPattern(tosaBias, m_Constant(&biasAttr)) && biasAttr.isSplat() &&
      isa<FloatType>(biasAttr.getElementType()) &&
      biasAttr.getSplatValue<APFloat>().isZero())
    return c.replace(yn);
  return c.replace(c.build<AddOp>(ValueRange{*yn, *bv}));
}

namespace {
/// TOSA's batch dims are equal (no broadcasting); relax would give `?` for
/// two variables, so b takes a's (checked at run time).
struct MatMulPattern : TosaToRelaxPattern<tosa::MatMulOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::MatMulOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    if (failed(c.requireZero(op.getAZp(), "zero point")) ||
        failed(c.requireZero(op.getBZp(), "zero point")))
      return failure();
    FailureOr<Value> x = c.operand(adaptor.getA()),
                     y = c.operand(adaptor.getB());
    if (failed(x) || failed(y))
      return failure();
    Expr na = OpConverter::dimsOf(*x)[0], nb = OpConverter::dimsOf(*y)[0];
    if (na && nb && nb != Expr::constant(1) &&
        !defaultSymContext().provablyEqual(na, nb))
      y = c.castDims(*y, {{0, na}});
    SmallVector<NamedAttribute> attrs;
    Type out = getElementTypeOrSelf(op.getOutput().getType());
    if (out != getElementTypeOrSelf(op.getA().getType()))
      attrs.push_back(c.named("out_dtype", TypeAttr::get(out)));
    return c.replace(c.build<MatmulOp>(ValueRange{*x, *y}, attrs));
  }
};

/// conv2d and depthwise_conv2d with zero points of 0.
template <typename TosaOp, bool Depthwise>
struct Conv2DPattern : TosaToRelaxPattern<TosaOp> {
  using TosaToRelaxPattern<TosaOp>::TosaToRelaxPattern;
  using OpAdaptor = typename TosaToRelaxPattern<TosaOp>::OpAdaptor;

  LogicalResult convert(TosaOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    if (failed(c.requireZero(op.getInputZp(), "zero point")) ||
        failed(c.requireZero(op.getWeightZp(), "zero point")))
      return failure();
    return convertConv2D(c, adaptor.getInput(), adaptor.getWeight(),
                         adaptor.getBias(), op.getBias(), op.getPad(),
                         op.getStride(), op.getDilation(), Depthwise);
  }
};

/// NHWC transpose_conv2d (OHWI weight) as relax's NCHW conv2d_transpose
/// (IOHW weight). TOSA writes input row y to output rows
/// y * stride + out_pad_top + ky; relax to y * stride - pad_top + ky, so a
/// non-positive out_pad is a relax padding, and a positive bottom/right one
/// (zero rows appended) relax's output_padding.
struct TransposeConv2DPattern : TosaToRelaxPattern<tosa::TransposeConv2DOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::TransposeConv2DOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    if (failed(c.requireZero(op.getInputZp(), "zero point")) ||
        failed(c.requireZero(op.getWeightZp(), "zero point")))
      return failure();
    FailureOr<Value> x = c.operand(adaptor.getInput()),
                     w = c.operand(adaptor.getWeight()),
                     bias = c.operand(adaptor.getBias());
    if (failed(x) || failed(w) || failed(bias))
      return failure();
    ArrayRef<int64_t> outPad = op.getOutPad(); // top, bottom, left, right
    ArrayRef<int64_t> stride = op.getStride();
    if (outPad[0] > 0 || outPad[2] > 0)
      return op.emitOpError("unsupported: a positive top or left out_pad");
    if (outPad[1] >= stride[0] || outPad[3] >= stride[1])
      return op.emitOpError("unsupported: a bottom or right out_pad of at "
                            "least the stride");
    SmallVector<int64_t> padding = {-outPad[0], -outPad[2],
                                    std::max<int64_t>(-outPad[1], 0),
                                    std::max<int64_t>(-outPad[3], 0)};
    SmallVector<int64_t> outputPadding = {std::max<int64_t>(outPad[1], 0),
                                          std::max<int64_t>(outPad[3], 0)};
    FailureOr<Value> xn = c.permute(*x, {0, 3, 1, 2});
    FailureOr<Value> wn = c.permute(*w, {3, 0, 1, 2});
    if (failed(xn) || failed(wn))
      return failure();
    FailureOr<Value> y = c.build<Conv2DTransposeOp>(
        ValueRange{*xn, *wn},
        {c.named("strides", c.i64s(stride)),
         c.named("padding", c.i64s(padding)),
         c.named("output_padding", c.i64s(outputPadding))});
    if (failed(y))
      return failure();
    FailureOr<Value> yn = c.permute(*y, {0, 2, 3, 1});
    if (failed(yn))
      return failure();
    return c.replace(c.build<AddOp>(ValueRange{*yn, *bias}));
  }
};

/// avg_pool2d and max_pool2d. Both TOSA and relax leave padded positions
/// out: of max_pool2d's maximum and of avg_pool2d's divisor.
template <typename TosaOp, typename RelaxOp>
struct Pool2DPattern : TosaToRelaxPattern<TosaOp> {
  using TosaToRelaxPattern<TosaOp>::TosaToRelaxPattern;
  using OpAdaptor = typename TosaToRelaxPattern<TosaOp>::OpAdaptor;

  LogicalResult convert(TosaOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    if constexpr (std::is_same_v<TosaOp, tosa::AvgPool2dOp>) {
      if (failed(c.requireZero(op.getInputZp(), "zero point")) ||
          failed(c.requireZero(op.getOutputZp(), "zero point")))
        return failure();
    }
    FailureOr<Value> x = c.operand(adaptor.getInput());
    if (failed(x))
      return failure();
    FailureOr<Value> xn = c.permute(*x, {0, 3, 1, 2});
    if (failed(xn))
      return failure();
    ArrayRef<int64_t> pad = op.getPad();
    FailureOr<Value> y = c.build<RelaxOp>(
        *xn, {c.named("pool_size", c.i64s(op.getKernel())),
              c.named("strides", c.i64s(op.getStride())),
              c.named("padding", c.i64s({pad[0], pad[2], pad[1], pad[3]}))});
    if (failed(y))
      return failure();
    return c.replace(c.permute(*y, {0, 2, 3, 1}));
  }
};
} // namespace

void mlir::relax::populateTosaToRelaxNNPatterns(
    TosaToRelaxTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MatMulPattern, Conv2DPattern<tosa::Conv2DOp, false>,
               Conv2DPattern<tosa::DepthwiseConv2DOp, true>,
               TransposeConv2DPattern,
               Pool2DPattern<tosa::AvgPool2dOp, AvgPool2DOp>,
               Pool2DPattern<tosa::MaxPool2dOp, MaxPool2DOp>>(
      converter, patterns.getContext());
}
