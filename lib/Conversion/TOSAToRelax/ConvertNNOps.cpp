//===- ConvertNNOps.cpp - convolutions and pools --------------------------===//
//
// --convert-tosa-to-relax: tosa.conv2d, depthwise_conv2d,
// transpose_conv2d, max_pool2d and avg_pool2d (NHWC) as relax NCHW ops
// between permutes.
//
//===----------------------------------------------------------------------===//

#include "FunctionConverter.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

/// NHWC conv2d (OHWI weight) or depthwise conv2d (HWCM weight) as relax's
/// NCHW conv2d between permutes; the bias is added in NHWC, where the
/// per-channel [C] vector broadcasts as is. TOSA pads (top, bottom, left,
/// right); relax takes (top, left, bottom, right).
LogicalResult FunctionConverter::convertConv2D(
    Operation *op, Value input, Value weight, Value bias, ArrayRef<int64_t> pad,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation, bool depthwise) {
  Location loc = op->getLoc();
  FailureOr<Value> x = get(input, op), w = get(weight, op),
                   bv = get(bias, op);
  if (failed(x) || failed(w) || failed(bv))
    return failure();
  FailureOr<Value> xn = permute(loc, *x, {0, 3, 1, 2});
  if (failed(xn))
    return failure();
  FailureOr<Value> wn;
  int64_t groups = 1;
  if (!depthwise) {
    wn = permute(loc, *w, {0, 3, 1, 2});
  } else {
    // [kh, kw, c, m] -> [c, m, kh, kw] -> [c * m, 1, kh, kw]: output
    // channel c * m + j reads input channel c, which is conv2d with
    // groups = c.
    SmallVector<Expr> wd = dimsOf(*w);
    std::optional<int64_t> c = wd.size() == 4 && wd[2] ? wd[2].getConstant()
                                                        : std::nullopt;
    if (!c)
      return op->emitOpError("unsupported: a depthwise weight whose channel "
                             "count is not static");
    groups = *c;
    FailureOr<Value> t = permute(loc, *w, {2, 3, 0, 1});
    if (failed(t))
      return failure();
    wn = reshape(loc, *t, {wd[2] * wd[3], Expr::constant(1), wd[0], wd[1]});
  }
  if (failed(wn))
    return failure();
  FailureOr<Value> y = build<Conv2DOp>(
      loc, ValueRange{*xn, *wn},
      {named("strides", b.getDenseI64ArrayAttr(stride)),
       named("padding",
             b.getDenseI64ArrayAttr({pad[0], pad[2], pad[1], pad[3]})),
       named("dilation", b.getDenseI64ArrayAttr(dilation)),
       named("groups", b.getI64IntegerAttr(groups))});
  if (failed(y))
    return failure();
  FailureOr<Value> yn = permute(loc, *y, {0, 2, 3, 1});
  if (failed(yn))
    return failure();
  // A constant zero bias (what exporters write for bias=False) adds nothing.
  DenseElementsAttr biasAttr;
  if (matchPattern(bias, m_Constant(&biasAttr)) && biasAttr.isSplat() &&
      isa<FloatType>(biasAttr.getElementType()) &&
      biasAttr.getSplatValue<APFloat>().isZero())
    return bind(op, yn);
  return bind(op, build<AddOp>(loc, ValueRange{*yn, *bv}));
}

/// NHWC transpose_conv2d (OHWI weight) as relax's NCHW conv2d_transpose
/// (IOHW weight). TOSA writes input row y to output rows
/// y * stride + out_pad_top + ky; relax to y * stride - pad_top + ky, so a
/// non-positive out_pad is a relax padding, and a positive bottom/right one
/// (zero rows appended) relax's output_padding.
LogicalResult
FunctionConverter::convertTransposeConv2D(tosa::TransposeConv2DOp op) {
  if (failed(requireZero(op.getInputZp(), op, "zero point")) ||
      failed(requireZero(op.getWeightZp(), op, "zero point")))
    return failure();
  Location loc = op.getLoc();
  FailureOr<Value> x = get(op.getInput(), op), w = get(op.getWeight(), op),
                   bias = get(op.getBias(), op);
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
  FailureOr<Value> xn = permute(loc, *x, {0, 3, 1, 2});
  FailureOr<Value> wn = permute(loc, *w, {3, 0, 1, 2});
  if (failed(xn) || failed(wn))
    return failure();
  FailureOr<Value> y = build<Conv2DTransposeOp>(
      loc, ValueRange{*xn, *wn},
      {named("strides", b.getDenseI64ArrayAttr(stride)),
       named("padding", b.getDenseI64ArrayAttr(padding)),
       named("output_padding", b.getDenseI64ArrayAttr(outputPadding))});
  if (failed(y))
    return failure();
  FailureOr<Value> yn = permute(loc, *y, {0, 2, 3, 1});
  if (failed(yn))
    return failure();
  return bind(op, build<AddOp>(loc, ValueRange{*yn, *bias}));
}

template <typename RelaxOp>
LogicalResult FunctionConverter::convertPool(Operation *op, Value input,
                                             ArrayRef<int64_t> kernel,
                                             ArrayRef<int64_t> stride,
                                             ArrayRef<int64_t> pad) {
  Location loc = op->getLoc();
  FailureOr<Value> x = get(input, op);
  if (failed(x))
    return failure();
  FailureOr<Value> xn = permute(loc, *x, {0, 3, 1, 2});
  if (failed(xn))
    return failure();
  // Both TOSA and relax leave padded positions out: of max_pool2d's
  // maximum and of avg_pool2d's divisor.
  FailureOr<Value> y = build<RelaxOp>(
      loc, *xn,
      {named("pool_size", b.getDenseI64ArrayAttr(kernel)),
       named("strides", b.getDenseI64ArrayAttr(stride)),
       named("padding",
             b.getDenseI64ArrayAttr({pad[0], pad[2], pad[1], pad[3]}))});
  if (failed(y))
    return failure();
  return bind(op, permute(loc, *y, {0, 2, 3, 1}));
}

// The pools the dispatch (ConvertOps.cpp) converts.
template LogicalResult FunctionConverter::convertPool<AvgPool2DOp>(
    Operation *op, Value input, ArrayRef<int64_t> kernel,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> pad);
template LogicalResult FunctionConverter::convertPool<MaxPool2DOp>(
    Operation *op, Value input, ArrayRef<int64_t> kernel,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> pad);
