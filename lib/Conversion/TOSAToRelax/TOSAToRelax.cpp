//===- TOSAToRelax.cpp - --convert-tosa-to-relax ---------------------------===//
//
// The way in for TOSA, the dialect torch-mlir and TensorFlow emit for
// inference graphs. A TOSA function is a straight-line graph on tensors, so
// each func.func becomes one relax.func whose body is a relax.dataflow
// region, op by op, in order. No dialect conversion framework: every relax
// op is built through its own shape inference (relax result types are
// symbolic shapes, which TOSA's `?` cannot express), and an op relax cannot
// type is reported where it stands instead of being rolled back.
//
// The `?` dims of the arguments become named symbolic variables; from there
// relax's inference carries them (`reshape [n, 4] -> [1, n, 4]`, `matmul`,
// `conv2d`'s output-size expressions). A result dim that inference leaves
// `?` is bound to a fresh variable with relax.match_cast (DESIGN.md: unknown
// dims are bound, not refused).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TOSAToRelax/TOSAToRelax.h"

#include "RelaxDialect/Relax/IR/BuildInferred.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Support/SymShape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_CONVERTTOSATORELAX
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;
using sym::Expr;

namespace {

/// Converts the body of one func.func into a new relax.func placed before
/// it. The func.func is left alone; the pass erases it once every function
/// converted.
class FunctionConverter {
public:
  FunctionConverter(func::FuncOp func, ArrayRef<std::string> dimNames)
      : func(func), ctx(func.getContext()), b(func), dimNames(dimNames) {}

  /// The new relax.func, or failure with an error at the offending op (and
  /// nothing left behind).
  FailureOr<relax::FuncOp> run();

private:
  LogicalResult convertOp(Operation *op);
  LogicalResult convertReturn(func::ReturnOp ret, relax::FuncOp rfunc,
                              Block *body);

  // Operands.
  FailureOr<Value> get(Value tosaValue, Operation *user);
  FailureOr<SmallVector<int64_t>> getConstShape(Value shape, Operation *user);
  LogicalResult requireZero(Value v, Operation *user, StringRef what);
  static SmallVector<Expr> dimsOf(Value relaxValue);

  FailureOr<SmallVector<Value>> getAll(ValueRange tosaValues, Operation *user);
  LogicalResult alignBroadcast(Location loc, MutableArrayRef<Value> operands);
  FailureOr<Value> castDims(Location loc, Value v,
                            ArrayRef<std::pair<int64_t, Expr>> dims);

  // Results.
  LogicalResult bind(Operation *op, FailureOr<Value> v);
  std::string freshVar();

  // Building relax ops.
  template <typename OpTy>
  FailureOr<Value> build(Location loc, ValueRange operands,
                         ArrayRef<NamedAttribute> attrs = {});
  FailureOr<Value> permute(Location loc, Value v, ArrayRef<int64_t> axes);
  FailureOr<Value> reshape(Location loc, Value v, ArrayRef<Expr> dims);
  Value scalarConstant(Location loc, Type dtype, double value);
  NamedAttribute named(StringRef name, Attribute a) {
    return b.getNamedAttr(name, a);
  }
  Attribute shapeAttr(ArrayRef<Expr> dims) {
    return ShapeExprAttr::get(ctx, SymShape(dims));
  }

  // Op families.
  template <typename RelaxOp>
  LogicalResult unary(Operation *op);
  template <typename RelaxOp>
  LogicalResult binary(Operation *op);
  template <typename RelaxOp>
  LogicalResult reduce(Operation *op, uint32_t axis);
  LogicalResult convertConv2D(Operation *op, Value input, Value weight,
                              Value bias, ArrayRef<int64_t> pad,
                              ArrayRef<int64_t> stride,
                              ArrayRef<int64_t> dilation, bool depthwise);
  LogicalResult convertTransposeConv2D(tosa::TransposeConv2DOp op);
  template <typename RelaxOp>
  LogicalResult convertPool(Operation *op, Value input,
                            ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                            ArrayRef<int64_t> pad);
  LogicalResult convertReshape(tosa::ReshapeOp op);
  LogicalResult convertSlice(tosa::SliceOp op);
  LogicalResult convertCast(tosa::CastOp op);
  LogicalResult convertGather(tosa::GatherOp op);
  LogicalResult convertPad(tosa::PadOp op);

  func::FuncOp func;
  MLIRContext *ctx;
  OpBuilder b;
  ArrayRef<std::string> dimNames;
  /// TOSA tensor values -> relax values.
  DenseMap<Value, Value> values;
  /// Symbolic variable names in use in this function.
  llvm::StringSet<> varNames;
  unsigned nextFresh = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

/// Builds an `OpTy` typed by its own inference and verifies it; an operand
/// combination relax rejects is an error at `loc` (inference reports why),
/// never an abort in an inferring builder.
template <typename OpTy>
FailureOr<Value> FunctionConverter::build(Location loc, ValueRange operands,
                                          ArrayRef<NamedAttribute> attrs) {
  BuildInferredError error;
  FailureOr<OpTy> op = buildInferred<OpTy>(b, loc, operands, attrs,
                                           /*numResults=*/1, error);
  if (succeeded(op))
    return (*op)->getResult(0);
  if (error == BuildInferredError::Inference)
    return emitError(loc) << "cannot build " << OpTy::getOperationName()
                          << " from the converted operands";
  return emitError(loc) << "the " << OpTy::getOperationName()
                        << " built from the converted operands is invalid";
}

/// `attr` with its dims permuted (result dim i is dim axes[i]); null for
/// element types without whole bytes.
static DenseElementsAttr transposeConstant(DenseElementsAttr attr,
                                           ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(attr.getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> newShape;
  for (int64_t a : axes)
    newShape.push_back(shape[a]);
  auto newType = RankedTensorType::get(newShape, type.getElementType());
  if (attr.isSplat())
    return attr.reshape(newType);
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return {};
  size_t bytes = bits / 8;
  int64_t rank = shape.size();
  // Strides of the source, in elements.
  SmallVector<int64_t> stride(rank, 1);
  for (int64_t i = rank - 2; i >= 0; --i)
    stride[i] = stride[i + 1] * shape[i + 1];
  ArrayRef<char> src = attr.getRawData();
  std::vector<char> dst(src.size());
  SmallVector<int64_t> idx(rank, 0);
  for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
    int64_t from = 0;
    for (int64_t i = 0; i < rank; ++i)
      from += idx[i] * stride[axes[i]];
    std::memcpy(dst.data() + n * bytes, src.data() + from * bytes, bytes);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++idx[i] < newShape[i])
        break;
      idx[i] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(newType, dst);
}

/// A permute_dims; of a dense constant (a weight in the layout TOSA wants),
/// it is done now, once, into a new constant.
FailureOr<Value> FunctionConverter::permute(Location loc, Value v,
                                            ArrayRef<int64_t> axes) {
  if (auto c = v.getDefiningOp<ConstantOp>()) {
    auto attr = dyn_cast<DenseElementsAttr>(c.getValue());
    if (attr && static_cast<int64_t>(axes.size()) ==
                    cast<ShapedType>(attr.getType()).getRank())
      if (DenseElementsAttr t = transposeConstant(attr, axes))
        return build<ConstantOp>(loc, {}, {named("value", t)});
  }
  return build<PermuteDimsOp>(
      loc, v, {named("axes", b.getDenseI64ArrayAttr(axes))});
}

/// A reshape; of a dense constant to a static shape, a new constant.
FailureOr<Value> FunctionConverter::reshape(Location loc, Value v,
                                            ArrayRef<Expr> dims) {
  if (auto c = v.getDefiningOp<ConstantOp>()) {
    auto attr = dyn_cast<DenseElementsAttr>(c.getValue());
    std::optional<SmallVector<int64_t>> sizes =
        SymShape(dims).getStaticSizes();
    if (attr && sizes &&
        ShapedType::getNumElements(*sizes) ==
            cast<ShapedType>(attr.getType()).getNumElements())
      return build<ConstantOp>(
          loc, {},
          {named("value",
                 attr.reshape(cast<ShapedType>(attr.getType()).clone(*sizes)))});
  }
  return build<ReshapeOp>(loc, v, {named("shape", shapeAttr(dims))});
}

/// A rank-0 relax.constant of `dtype` holding `value`.
Value FunctionConverter::scalarConstant(Location loc, Type dtype,
                                        double value) {
  auto type = RankedTensorType::get({}, dtype);
  DenseElementsAttr attr =
      isa<FloatType>(dtype)
          ? DenseElementsAttr::get(type, FloatAttr::get(dtype, value))
          : DenseElementsAttr::get(
                type, IntegerAttr::get(dtype, static_cast<int64_t>(value)));
  return ConstantOp::create(b, loc, attr).getResult();
}

SmallVector<Expr> FunctionConverter::dimsOf(Value relaxValue) {
  auto t = cast<RelaxTensorType>(relaxValue.getType());
  return SmallVector<Expr>(t.getDims());
}

std::string FunctionConverter::freshVar() {
  while (true) {
    std::string name = "v" + std::to_string(nextFresh++);
    if (varNames.insert(name).second)
      return name;
  }
}

//===----------------------------------------------------------------------===//
// Operands and results
//===----------------------------------------------------------------------===//

FailureOr<Value> FunctionConverter::get(Value tosaValue, Operation *user) {
  auto it = values.find(tosaValue);
  if (it != values.end())
    return it->second;
  // Constants are built where first read, so the zero-point and shift
  // operands that only the conversion reads leave no relax.constant behind.
  if (auto c = tosaValue.getDefiningOp<tosa::ConstOp>()) {
    if (failed(bind(c, build<ConstantOp>(c.getLoc(), {},
                                         {named("value", c.getValues())}))))
      return failure();
    return values.lookup(tosaValue);
  }
  // Defined by an op that has no relax value (a shape) or outside the
  // function: the op that reads it cannot convert.
  return user->emitOpError("reads a value that has no relax equivalent ")
         << "(type " << tosaValue.getType() << ")";
}

/// The contents of a `!tosa.shape` operand, which must come from
/// tosa.const_shape: TOSA's shape arithmetic on run-time dims
/// (tosa.dim, add_shape, ...) is not supported.
FailureOr<SmallVector<int64_t>>
FunctionConverter::getConstShape(Value shape, Operation *user) {
  auto c = shape.getDefiningOp<tosa::ConstShapeOp>();
  if (!c)
    return user->emitOpError("unsupported: a shape operand that is not a "
                             "tosa.const_shape");
  SmallVector<int64_t> out;
  for (const APInt &v : c.getValues().getValues<APInt>())
    out.push_back(v.getSExtValue());
  return out;
}

/// Succeeds when `v` is a constant whose every element is zero: the
/// zero points (and mul's shift) of float and unquantized models.
LogicalResult FunctionConverter::requireZero(Value v, Operation *user,
                                             StringRef what) {
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr))) {
    bool zero = true;
    if (isa<FloatType>(attr.getElementType())) {
      for (const APFloat &f : attr.getValues<APFloat>())
        zero &= f.isZero();
    } else if (attr.getElementType().isIntOrIndex()) {
      for (const APInt &i : attr.getValues<APInt>())
        zero &= i.isZero();
    } else {
      zero = false;
    }
    if (zero)
      return success();
  }
  return user->emitOpError("unsupported: a ")
         << what << " that is not the constant 0 (quantized TOSA)";
}

FailureOr<SmallVector<Value>> FunctionConverter::getAll(ValueRange tosaValues,
                                                       Operation *user) {
  SmallVector<Value> out;
  for (Value v : tosaValues) {
    FailureOr<Value> r = get(v, user);
    if (failed(r))
      return failure();
    out.push_back(*r);
  }
  return out;
}

/// Elementwise operands whose dims relax cannot match (`[a, 6]` and
/// `[b, 6]`: equal, or one of them 1, only at run time) would give a `?`
/// dim, which legalization refuses. Each such dim becomes `max(a, b)` and
/// every operand that differs is broadcast_to those dims, which checks at
/// run time that its dim is 1 or the result's (TOSA's rule).
LogicalResult
FunctionConverter::alignBroadcast(Location loc,
                                  MutableArrayRef<Value> operands) {
  int64_t rank = 0;
  for (Value v : operands)
    rank = std::max<int64_t>(rank, dimsOf(v).size());
  // Right-aligned dim i of `v` (numpy's rule; TOSA's ranks are equal).
  auto dimAt = [&](Value v, int64_t i) -> Expr {
    SmallVector<Expr> d = dimsOf(v);
    int64_t k = static_cast<int64_t>(d.size()) - rank + i;
    return k < 0 ? Expr::constant(1) : d[k];
  };
  const sym::Context &symCtx = defaultSymContext();
  Expr one = Expr::constant(1);
  SmallVector<Expr> result(rank);
  bool undecided = false;
  for (int64_t i = 0; i < rank; ++i) {
    Expr acc = one;
    for (Value v : operands) {
      Expr d = dimAt(v, i);
      if (!d)
        return success(); // Already unknown: bind() names the result dim.
      if (acc == one)
        acc = d;
      else if (d != one && !symCtx.provablyEqual(acc, d)) {
        acc = symCtx.simplify(sym::max(acc, d));
        undecided = true;
      }
    }
    result[i] = acc;
  }
  if (!undecided)
    return success();
  for (Value &v : operands) {
    bool same = static_cast<int64_t>(dimsOf(v).size()) == rank;
    for (int64_t i = 0; same && i < rank; ++i)
      same = dimAt(v, i) == result[i];
    if (same)
      continue;
    FailureOr<Value> bv =
        build<BroadcastToOp>(loc, v, {named("shape", shapeAttr(result))});
    if (failed(bv))
      return failure();
    v = *bv;
  }
  return success();
}

/// `v` match_cast to its type with dim i replaced by `e` for each (i, e):
/// a run-time check that the dims agree where TOSA requires it (concat's
/// other dims, matmul's batch) but relax cannot prove it.
FailureOr<Value>
FunctionConverter::castDims(Location loc, Value v,
                            ArrayRef<std::pair<int64_t, Expr>> dims) {
  if (dims.empty())
    return v;
  auto type = cast<RelaxTensorType>(v.getType());
  SmallVector<Expr> newDims(type.getDims());
  for (auto [i, e] : dims)
    newDims[i] = e;
  return MatchCastOp::create(b, loc, type.withShape(SymShape(newDims)), v)
      .getResult();
}

/// Records `v` as the relax value of `op`'s result. Checks it against the
/// TOSA type (rank, dtype, static dims) and binds `?` dims of the relax type
/// with a match_cast: to TOSA's static size where it has one, else to a
/// fresh variable.
LogicalResult FunctionConverter::bind(Operation *op, FailureOr<Value> fv) {
  if (failed(fv))
    return failure();
  Value v = *fv;
  Value result = op->getResult(0);
  auto tosaType = dyn_cast<RankedTensorType>(result.getType());
  auto relaxType = cast<RelaxTensorType>(v.getType());
  if (tosaType && relaxType.getDtype() != tosaType.getElementType())
    return op->emitOpError("converts to element type ")
           << relaxType.getDtype() << ", but its result has "
           << tosaType.getElementType();
  if (!relaxType.hasRank()) {
    if (!tosaType)
      return op->emitOpError("has a result of unknown rank, which the "
                             "conversion cannot name");
    SmallVector<Expr> dims;
    for (int64_t d : tosaType.getShape())
      dims.push_back(ShapedType::isDynamic(d) ? Expr::var(freshVar())
                                              : Expr::constant(d));
    v = MatchCastOp::create(b, op->getLoc(),
                            relaxType.withShape(SymShape(dims)), v)
            .getResult();
    values[result] = v;
    return success();
  }
  SmallVector<Expr> dims(relaxType.getDims());
  if (tosaType && tosaType.getRank() != relaxType.getRank())
    return op->emitOpError("converts to a result of rank ")
           << relaxType.getRank() << " (" << relaxType << "), but TOSA's has "
           << tosaType.getRank();
  bool cast = false;
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t tosaDim = tosaType ? tosaType.getDimSize(i) : ShapedType::kDynamic;
    if (!d) {
      d = ShapedType::isDynamic(tosaDim) ? Expr::var(freshVar())
                                         : Expr::constant(tosaDim);
      cast = true;
      continue;
    }
    std::optional<int64_t> c = d.getConstant();
    if (c && !ShapedType::isDynamic(tosaDim) && *c != tosaDim)
      return op->emitOpError("converts to ")
             << relaxType << ", whose dim " << i << " disagrees with "
             << result.getType();
  }
  if (cast)
    v = MatchCastOp::create(b, op->getLoc(),
                            relaxType.withShape(SymShape(dims)), v)
            .getResult();
  values[result] = v;
  return success();
}

//===----------------------------------------------------------------------===//
// Op families
//===----------------------------------------------------------------------===//

template <typename RelaxOp>
LogicalResult FunctionConverter::unary(Operation *op) {
  FailureOr<Value> x = get(op->getOperand(0), op);
  if (failed(x))
    return failure();
  return bind(op, build<RelaxOp>(op->getLoc(), *x));
}

/// TOSA broadcasts size-1 dims of operands of equal rank, a special case of
/// relax's numpy broadcasting.
template <typename RelaxOp>
LogicalResult FunctionConverter::binary(Operation *op) {
  FailureOr<SmallVector<Value>> in =
      getAll(op->getOperands().take_front(2), op);
  if (failed(in) || failed(alignBroadcast(op->getLoc(), *in)))
    return failure();
  return bind(op, build<RelaxOp>(op->getLoc(), *in));
}

/// TOSA's reductions keep the reduced dim (size 1).
template <typename RelaxOp>
LogicalResult FunctionConverter::reduce(Operation *op, uint32_t axis) {
  FailureOr<Value> x = get(op->getOperand(0), op);
  if (failed(x))
    return failure();
  return bind(op, build<RelaxOp>(
                      op->getLoc(), *x,
                      {named("axes", b.getDenseI64ArrayAttr({int64_t(axis)})),
                       named("keepdims", b.getBoolAttr(true))}));
}

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

/// The target comes from a tosa.const_shape; its `-1` is the element count
/// divided by the other dims, a symbolic expression (`[n, 4] -> [1, -1, 4]`
/// is `[1, n, 4]`). relax.reshape checks the element counts.
LogicalResult FunctionConverter::convertReshape(tosa::ReshapeOp op) {
  FailureOr<Value> x = get(op.getInput1(), op);
  FailureOr<SmallVector<int64_t>> shape = getConstShape(op.getShape(), op);
  if (failed(x) || failed(shape))
    return failure();
  SmallVector<Expr> target;
  int inferred = -1;
  Expr known = Expr::constant(1);
  for (auto [i, d] : llvm::enumerate(*shape)) {
    if (d == -1) {
      if (inferred >= 0)
        // unreachable: the tosa.reshape verifier allows one -1 at most.
        return op.emitOpError("has more than one -1 in its shape");
      inferred = i;
      target.push_back(Expr());
      continue;
    }
    if (d < 0)
      // unreachable: the tosa.reshape verifier rejects dims below -1.
      return op.emitOpError("has an invalid target dim ") << d;
    target.push_back(Expr::constant(d));
    known = known * d;
  }
  if (inferred >= 0) {
    SmallVector<Expr> dims = dimsOf(*x);
    Expr total = Expr::constant(1);
    for (const Expr &d : dims) {
      if (!d)
        return op.emitOpError("cannot infer its -1 dim: the input has an "
                              "unknown dim");
      total = total * d;
    }
    if (known.getConstant() == 0)
      // unreachable: TOSA-conformant tensors have no zero dims, and the
      // tosa.reshape verifier checks the element counts; kept so that a
      // laxer verifier cannot make the floorDiv below divide by zero.
      return op.emitOpError("cannot infer its -1 dim next to a zero dim");
    target[inferred] = sym::floorDiv(total, known);
  }
  return bind(op, reshape(op.getLoc(), *x, target));
}

/// Start and size from tosa.const_shape; a size of -1 runs to the end.
LogicalResult FunctionConverter::convertSlice(tosa::SliceOp op) {
  FailureOr<Value> x = get(op.getInput1(), op);
  FailureOr<SmallVector<int64_t>> start = getConstShape(op.getStart(), op);
  FailureOr<SmallVector<int64_t>> size = getConstShape(op.getSize(), op);
  if (failed(x) || failed(start) || failed(size))
    return failure();
  SmallVector<Expr> dims = dimsOf(*x);
  if (start->size() != dims.size() || size->size() != dims.size())
    return op.emitOpError("has start/size of the wrong length");
  SmallVector<int64_t> axes;
  SmallVector<Expr> begin, end;
  for (size_t i = 0; i < dims.size(); ++i) {
    if ((*start)[i] < 0 || (*size)[i] < -1)
      return op.emitOpError("has a negative start or size in dim ") << i;
    axes.push_back(i);
    begin.push_back(Expr::constant((*start)[i]));
    if ((*size)[i] == -1) {
      if (!dims[i])
        return op.emitOpError("slices to the end of an unknown dim ") << i;
      end.push_back(dims[i]);
    } else {
      end.push_back(Expr::constant((*start)[i] + (*size)[i]));
    }
  }
  return bind(op, build<StridedSliceOp>(
                      op.getLoc(), *x,
                      {named("axes", b.getDenseI64ArrayAttr(axes)),
                       named("begin", shapeAttr(begin)),
                       named("end", shapeAttr(end))}));
}

/// TOSA rounds float -> integer casts to nearest, ties to even; relax's
/// astype truncates, so a relax.round comes first.
LogicalResult FunctionConverter::convertCast(tosa::CastOp op) {
  FailureOr<Value> x = get(op.getInput(), op);
  if (failed(x))
    return failure();
  Type from = getElementTypeOrSelf(op.getInput().getType());
  Type to = getElementTypeOrSelf(op.getOutput().getType());
  Value in = *x;
  if (isa<FloatType>(from) && isa<IntegerType>(to) &&
      to.getIntOrFloatBitWidth() > 1) {
    FailureOr<Value> r = build<RoundOp>(op.getLoc(), in);
    if (failed(r))
      return failure();
    in = *r;
  }
  return bind(op, build<AstypeOp>(op.getLoc(), in,
                                  {named("dtype", TypeAttr::get(to))}));
}

/// values [n, k, c], indices [n, w] -> [n, w, c] with
/// out[i, j] = values[i, indices[i, j]]: gather_nd over one batch dim with
/// one-element index tuples.
LogicalResult FunctionConverter::convertGather(tosa::GatherOp op) {
  FailureOr<Value> v = get(op.getValues(), op);
  FailureOr<Value> idx = get(op.getIndices(), op);
  if (failed(v) || failed(idx))
    return failure();
  FailureOr<Value> idx3 = build<ExpandDimsOp>(
      op.getLoc(), *idx, {named("axes", b.getDenseI64ArrayAttr({2}))});
  if (failed(idx3))
    return failure();
  return bind(op, build<GatherNDOp>(op.getLoc(), ValueRange{*v, *idx3},
                                    {named("batch_dims",
                                           b.getI64IntegerAttr(1))}));
}

/// Padding [before0, after0, before1, ...] from tosa.const_shape; the pad
/// value must be a constant.
LogicalResult FunctionConverter::convertPad(tosa::PadOp op) {
  FailureOr<Value> x = get(op.getInput1(), op);
  FailureOr<SmallVector<int64_t>> padding = getConstShape(op.getPadding(), op);
  if (failed(x) || failed(padding))
    return failure();
  DenseElementsAttr padConst;
  if (!matchPattern(op.getPadConst(), m_Constant(&padConst)) ||
      !padConst.isSplat())
    return op.emitOpError("unsupported: a pad value that is not a constant");
  double value = isa<FloatType>(padConst.getElementType())
                     ? padConst.getSplatValue<APFloat>().convertToDouble()
                     : double(padConst.getSplatValue<APInt>().getSExtValue());
  SmallVector<Expr> before, after;
  for (size_t i = 0; i + 1 < padding->size(); i += 2) {
    before.push_back(Expr::constant((*padding)[i]));
    after.push_back(Expr::constant((*padding)[i + 1]));
  }
  return bind(op, build<PadOp>(op.getLoc(), *x,
                               {named("pad_before", shapeAttr(before)),
                                named("pad_after", shapeAttr(after)),
                                named("value", b.getF64FloatAttr(value))}));
}

/// A clamp bound as a double (TOSA holds it as an integer or float
/// attribute of the element type).
static double boundValue(Attribute a) {
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValueAsDouble();
  return double(cast<IntegerAttr>(a).getValue().getSExtValue());
}

LogicalResult FunctionConverter::convertOp(Operation *op) {
  Location loc = op->getLoc();
  return TypeSwitch<Operation *, LogicalResult>(op)
      // Constants and shapes.
      // Constants are built at their first use (get), shapes read by the
      // ops that take them.
      .Case<tosa::ConstOp, tosa::ConstShapeOp>(
          [&](Operation *) { return success(); })
      // Other shape ops (tosa.dim, add_shape, ...) compute from run-time
      // dims; getConstShape reports their users.
      .Case<tosa::DimOp, tosa::AddShapeOp, tosa::SubShapeOp, tosa::MulShapeOp,
            tosa::DivCeilShapeOp, tosa::DivFloorShapeOp, tosa::ModShapeOp,
            tosa::MaxShapeOp, tosa::MinShapeOp, tosa::ConcatShapeOp,
            tosa::SliceShapeOp, tosa::Exp2ShapeOp, tosa::Log2CeilShapeOp,
            tosa::Log2FloorShapeOp>([&](Operation *) { return success(); })
      .Case([&](tosa::IdentityOp) {
        FailureOr<Value> x = get(op->getOperand(0), op);
        if (failed(x))
          return failure();
        values[op->getResult(0)] = *x;
        return success();
      })
      // Elementwise binary.
      .Case([&](tosa::AddOp) { return binary<AddOp>(op); })
      .Case([&](tosa::SubOp) { return binary<SubtractOp>(op); })
      .Case([&](tosa::MulOp m) {
        if (failed(requireZero(m.getShift(), op, "shift")))
          return failure();
        return binary<MultiplyOp>(op);
      })
      .Case([&](tosa::PowOp) { return binary<PowerOp>(op); })
      .Case([&](tosa::IntDivOp) { return binary<DivideOp>(op); })
      .Case([&](tosa::MaximumOp) { return binary<MaximumOp>(op); })
      .Case([&](tosa::MinimumOp) { return binary<MinimumOp>(op); })
      .Case([&](tosa::EqualOp) { return binary<EqualOp>(op); })
      .Case([&](tosa::GreaterOp) { return binary<GreaterOp>(op); })
      .Case([&](tosa::GreaterEqualOp) { return binary<GreaterEqualOp>(op); })
      .Case([&](tosa::LogicalAndOp) { return binary<LogicalAndOp>(op); })
      .Case([&](tosa::LogicalOrOp) { return binary<LogicalOrOp>(op); })
      .Case([&](tosa::SelectOp) {
        FailureOr<SmallVector<Value>> in = getAll(op->getOperands(), op);
        if (failed(in) || failed(alignBroadcast(loc, *in)))
          return failure();
        return bind(op, build<WhereOp>(loc, *in));
      })
      // Elementwise unary.
      .Case([&](tosa::ExpOp) { return unary<ExpOp>(op); })
      .Case([&](tosa::LogOp) { return unary<LogOp>(op); })
      .Case([&](tosa::TanhOp) { return unary<TanhOp>(op); })
      .Case([&](tosa::SigmoidOp) { return unary<SigmoidOp>(op); })
      .Case([&](tosa::ErfOp) { return unary<ErfOp>(op); })
      .Case([&](tosa::SinOp) { return unary<SinOp>(op); })
      .Case([&](tosa::CosOp) { return unary<CosOp>(op); })
      .Case([&](tosa::FloorOp) { return unary<FloorOp>(op); })
      .Case([&](tosa::CeilOp) { return unary<CeilOp>(op); })
      .Case([&](tosa::AbsOp) { return unary<AbsOp>(op); })
      .Case([&](tosa::RsqrtOp) { return unary<RsqrtOp>(op); })
      .Case([&](tosa::LogicalNotOp) { return unary<LogicalNotOp>(op); })
      .Case([&](tosa::NegateOp n) {
        if (failed(requireZero(n.getInput1Zp(), op, "input zero point")) ||
            failed(requireZero(n.getOutputZp(), op, "output zero point")))
          return failure();
        return unary<NegativeOp>(op);
      })
      .Case([&](tosa::ReciprocalOp r) {
        FailureOr<Value> x = get(r.getInput1(), op);
        if (failed(x))
          return failure();
        Type dtype = cast<RelaxTensorType>(x->getType()).getDtype();
        if (!isa<FloatType>(dtype))
          return op->emitOpError("unsupported: reciprocal of integers"),
                 failure();
        Value one = scalarConstant(loc, dtype, 1.0);
        return bind(op, build<DivideOp>(loc, ValueRange{one, *x}));
      })
      .Case([&](tosa::ClampOp c) {
        FailureOr<Value> x = get(c.getInput(), op);
        if (failed(x))
          return failure();
        return bind(
            op, build<ClipOp>(loc, *x,
                              {named("min", b.getF64FloatAttr(
                                                boundValue(c.getMinVal()))),
                               named("max", b.getF64FloatAttr(boundValue(
                                                c.getMaxVal())))}));
      })
      .Case([&](tosa::CastOp c) { return convertCast(c); })
      // Reductions (the reduced dim stays, as 1).
      .Case([&](tosa::ReduceSumOp r) { return reduce<SumOp>(op, r.getAxis()); })
      .Case([&](tosa::ReduceMaxOp r) { return reduce<MaxOp>(op, r.getAxis()); })
      .Case([&](tosa::ReduceMinOp r) { return reduce<MinOp>(op, r.getAxis()); })
      .Case([&](tosa::ReduceProductOp r) {
        return reduce<ProdOp>(op, r.getAxis());
      })
      .Case([&](tosa::ArgMaxOp a) {
        FailureOr<Value> x = get(a.getInput(), op);
        if (failed(x))
          return failure();
        FailureOr<Value> r = build<ArgmaxOp>(
            loc, *x,
            {named("axis", b.getI64IntegerAttr(a.getAxis())),
             named("keepdims", b.getBoolAttr(false))});
        if (failed(r))
          return failure();
        Type to = getElementTypeOrSelf(a.getOutput().getType());
        if (cast<RelaxTensorType>(r->getType()).getDtype() != to)
          r = build<AstypeOp>(loc, *r, {named("dtype", TypeAttr::get(to))});
        return bind(op, r);
      })
      // Contractions, convolutions, pools.
      .Case([&](tosa::MatMulOp m) {
        if (failed(requireZero(m.getAZp(), op, "zero point")) ||
            failed(requireZero(m.getBZp(), op, "zero point")))
          return failure();
        FailureOr<Value> x = get(m.getA(), op), y = get(m.getB(), op);
        if (failed(x) || failed(y))
          return failure();
        // TOSA's batch dims are equal (no broadcasting); relax would give
        // `?` for two variables, so b takes a's (checked at run time).
        Expr na = dimsOf(*x)[0], nb = dimsOf(*y)[0];
        if (na && nb && nb != Expr::constant(1) &&
            !defaultSymContext().provablyEqual(na, nb))
          y = castDims(loc, *y, {{0, na}});
        SmallVector<NamedAttribute> attrs;
        Type out = getElementTypeOrSelf(m.getOutput().getType());
        if (out != getElementTypeOrSelf(m.getA().getType()))
          attrs.push_back(named("out_dtype", TypeAttr::get(out)));
        return bind(op, build<MatmulOp>(loc, ValueRange{*x, *y}, attrs));
      })
      .Case([&](tosa::Conv2DOp c) {
        if (failed(requireZero(c.getInputZp(), op, "zero point")) ||
            failed(requireZero(c.getWeightZp(), op, "zero point")))
          return failure();
        return convertConv2D(op, c.getInput(), c.getWeight(), c.getBias(),
                             c.getPad(), c.getStride(), c.getDilation(),
                             /*depthwise=*/false);
      })
      .Case([&](tosa::DepthwiseConv2DOp c) {
        if (failed(requireZero(c.getInputZp(), op, "zero point")) ||
            failed(requireZero(c.getWeightZp(), op, "zero point")))
          return failure();
        return convertConv2D(op, c.getInput(), c.getWeight(), c.getBias(),
                             c.getPad(), c.getStride(), c.getDilation(),
                             /*depthwise=*/true);
      })
      .Case([&](tosa::TransposeConv2DOp c) {
        return convertTransposeConv2D(c);
      })
      .Case([&](tosa::AvgPool2dOp p) {
        if (failed(requireZero(p.getInputZp(), op, "zero point")) ||
            failed(requireZero(p.getOutputZp(), op, "zero point")))
          return failure();
        return convertPool<AvgPool2DOp>(op, p.getInput(), p.getKernel(),
                                        p.getStride(), p.getPad());
      })
      .Case([&](tosa::MaxPool2dOp p) {
        return convertPool<MaxPool2DOp>(op, p.getInput(), p.getKernel(),
                                        p.getStride(), p.getPad());
      })
      // Data movement.
      .Case([&](tosa::ReshapeOp r) { return convertReshape(r); })
      .Case([&](tosa::TransposeOp t) {
        FailureOr<Value> x = get(t.getInput1(), op);
        if (failed(x))
          return failure();
        SmallVector<int64_t> axes(t.getPerms().begin(), t.getPerms().end());
        return bind(op, permute(loc, *x, axes));
      })
      .Case([&](tosa::ConcatOp c) {
        FailureOr<SmallVector<Value>> in = getAll(c.getInput1(), op);
        if (failed(in))
          return failure();
        // The other dims must agree: where relax cannot prove it, each
        // operand is cast to the first one's dims (checked at run time).
        SmallVector<Expr> first = dimsOf((*in)[0]);
        const sym::Context &symCtx = defaultSymContext();
        for (Value &v : MutableArrayRef<Value>(*in).drop_front()) {
          SmallVector<Expr> d = dimsOf(v);
          SmallVector<std::pair<int64_t, Expr>> casts;
          for (size_t i = 0; i < d.size() && i < first.size(); ++i)
            if (int64_t(i) != int64_t(c.getAxis()) && first[i] && d[i] &&
                !symCtx.provablyEqual(first[i], d[i]))
              casts.push_back({i, first[i]});
          FailureOr<Value> r = castDims(loc, v, casts);
          if (failed(r))
            return failure();
          v = *r;
        }
        return bind(op, build<ConcatOp>(
                            loc, *in,
                            {named("axis", b.getI64IntegerAttr(c.getAxis()))}));
      })
      .Case([&](tosa::SliceOp s) { return convertSlice(s); })
      .Case([&](tosa::ReverseOp r) {
        // A stride -1 slice from d - 1 down past 0 (the end -d - 1 is
        // clamped to -1, "before the first element").
        FailureOr<Value> x = get(r.getInput1(), op);
        if (failed(x))
          return failure();
        int64_t axis = r.getAxis();
        Expr d = dimsOf(*x)[axis];
        if (!d)
          return op->emitOpError("reverses an unknown dim ") << axis,
                 failure();
        return bind(op, build<StridedSliceOp>(
                            loc, *x,
                            {named("axes", b.getDenseI64ArrayAttr({axis})),
                             named("begin", shapeAttr({d - 1})),
                             named("end", shapeAttr({-d - 1})),
                             named("strides", b.getDenseI64ArrayAttr({-1}))}));
      })
      .Case([&](tosa::TileOp t) {
        FailureOr<Value> x = get(t.getInput1(), op);
        FailureOr<SmallVector<int64_t>> m =
            getConstShape(t.getMultiples(), op);
        if (failed(x) || failed(m))
          return failure();
        return bind(op, build<TileOp>(loc, *x,
                                      {named("repeats",
                                             b.getDenseI64ArrayAttr(*m))}));
      })
      .Case([&](tosa::PadOp p) { return convertPad(p); })
      .Case([&](tosa::GatherOp g) { return convertGather(g); })
      .Default([&](Operation *) {
        return op->emitOpError("has no conversion to relax "
                               "(--convert-tosa-to-relax)");
      });
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

LogicalResult FunctionConverter::convertReturn(func::ReturnOp ret,
                                               relax::FuncOp rfunc,
                                               Block *body) {
  SmallVector<Value> results;
  for (Value v : ret.getOperands()) {
    FailureOr<Value> r = get(v, ret);
    if (failed(r))
      return failure();
    results.push_back(*r);
  }
  if (results.empty())
    return ret.emitOpError("returns nothing: a relax function has results");
  // The graph is pure: its ops go into one relax.dataflow region, the form
  // fusion works on.
  Location loc = ret.getLoc();
  TypeRange resultTypes = ValueRange(results).getTypes();
  b.setInsertionPointToEnd(body);
  auto dataflow = DataflowOp::create(b, loc, resultTypes);
  Block *dfBody = new Block();
  dataflow.getBody().push_back(dfBody);
  dfBody->getOperations().splice(dfBody->end(), body->getOperations(),
                                 body->begin(), Block::iterator(dataflow));
  b.setInsertionPointToEnd(dfBody);
  OutputOp::create(b, loc, results);
  b.setInsertionPointToEnd(body);
  ReturnOp::create(b, loc, dataflow.getResults());
  rfunc.setFunctionType(
      b.getFunctionType(body->getArgumentTypes(), resultTypes));
  return success();
}

FailureOr<relax::FuncOp> FunctionConverter::run() {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("has control flow (more than one block); only "
                            "straight-line TOSA functions convert"),
           failure();
  FunctionType type = func.getFunctionType();
  SmallVector<Type> argTypes;
  size_t nextName = 0;
  for (auto [i, t] : llvm::enumerate(type.getInputs())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt)
      return func.emitOpError("argument ")
             << i << " has type " << t
             << "; only ranked tensors convert to relax",
             failure();
    SmallVector<Expr> dims;
    for (auto [j, d] : llvm::enumerate(rt.getShape())) {
      if (!ShapedType::isDynamic(d)) {
        dims.push_back(Expr::constant(d));
        continue;
      }
      std::string name = nextName < dimNames.size()
                             ? dimNames[nextName++]
                             : "arg" + std::to_string(i) + "_d" +
                                   std::to_string(j);
      // The symbolic parser must read the name back.
      if (name.empty() || !(std::isalpha(name[0]) || name[0] == '_') ||
          !llvm::all_of(name, [](char c) {
            return std::isalnum(c) || c == '_';
          }))
        return func.emitOpError("dim name '")
               << name << "' is not an identifier",
               failure();
      varNames.insert(name);
      dims.push_back(Expr::var(name));
    }
    // A dtype relax does not have (i4, i48, complex) is an error here.
    auto relaxType = RelaxTensorType::getChecked(
        [&] {
          return func.emitOpError("argument ") << i << " of type " << t
                                               << ": ";
        },
        SymShape(dims), rt.getElementType());
    if (!relaxType)
      return failure();
    argTypes.push_back(relaxType);
  }
  auto rfunc = relax::FuncOp::create(b, func.getLoc(), func.getSymName(),
                                     b.getFunctionType(argTypes, {}));
  if (auto vis = func.getSymVisibilityAttr())
    rfunc.setSymVisibilityAttr(vis);
  Block *body = rfunc.addEntryBlock();
  Block &tosaBody = func.getBody().front();
  for (auto [tosaArg, arg] :
       llvm::zip(tosaBody.getArguments(), body->getArguments()))
    values[tosaArg] = arg;
  b.setInsertionPointToEnd(body);
  for (Operation &op : tosaBody) {
    LogicalResult converted =
        isa<func::ReturnOp>(op)
            ? convertReturn(cast<func::ReturnOp>(op), rfunc, body)
            : convertOp(&op);
    if (failed(converted)) {
      rfunc.erase();
      return failure();
    }
  }
  return rfunc;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertTOSAToRelax
    : relax::impl::ConvertTOSAToRelaxBase<ConvertTOSAToRelax> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Functions with a body that holds TOSA ops; declarations and other
    // functions stay as they are.
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal())
        continue;
      bool hasTosa = f.walk([](Operation *op) {
                        return isa<tosa::TosaDialect>(op->getDialect())
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      }).wasInterrupted();
      if (hasTosa)
        funcs.push_back(f);
    }
    SmallVector<relax::FuncOp> converted;
    bool ok = true;
    for (func::FuncOp f : funcs) {
      FunctionConverter conv(f, dimNames);
      FailureOr<relax::FuncOp> r = conv.run();
      if (failed(r)) {
        ok = false;
        continue;
      }
      converted.push_back(*r);
    }
    if (!ok) {
      // All or nothing: the module stays as it was.
      for (relax::FuncOp r : converted)
        r.erase();
      return signalPassFailure();
    }
    for (func::FuncOp f : funcs)
      f.erase();
    // The op-by-op translation leaves layout round trips (NHWC -> NCHW ->
    // NHWC between two convolutions), no-op reshapes and weights no longer
    // read: relax's own folders and canonicalization patterns remove them.
    RewritePatternSet patterns(&getContext());
    for (RegisteredOperationName op :
         getContext().getRegisteredOperations())
      if (op.getDialectNamespace() ==
          RelaxDialect::getDialectNamespace())
        op.getCanonicalizationPatterns(patterns, &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Constants stay where they were built, inside the dataflow region, as
    // the ONNX importer leaves them.
    GreedyRewriteConfig config;
    config.enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    for (relax::FuncOp f : converted)
      (void)applyPatternsGreedily(f, frozen, config);
  }
};
} // namespace
