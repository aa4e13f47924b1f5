//===- OpConverter.cpp - operands, relax ops, results ---------------------===//
//
// --convert-tosa-to-relax: what every pattern shares (OpConverter.h):
// converted operands and TOSA's constant ones, relax ops built through
// their inference (constants permuted and reshaped once, at conversion),
// broadcasts made explicit, and results checked against TOSA's types with
// their unknown dims bound to fresh symbolic variables.
//
//===----------------------------------------------------------------------===//

#include "OpConverter.h"

#include "RelaxDialect/Relax/IR/BroadcastAlign.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

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

FailureOr<Value> OpConverter::permute(Value v, ArrayRef<int64_t> axes) {
  if (auto c = v.getDefiningOp<ConstantOp>()) {
    auto attr = dyn_cast<DenseElementsAttr>(c.getValue());
    if (attr && static_cast<int64_t>(axes.size()) ==
                    cast<ShapedType>(attr.getType()).getRank())
      if (DenseElementsAttr t = transposeConstant(attr, axes))
        return build<ConstantOp>({}, {named("value", t)});
  }
  return build<PermuteDimsOp>(v, {named("axes", i64s(axes))});
}

FailureOr<Value> OpConverter::reshape(Value v, ArrayRef<Expr> dims) {
  if (auto c = v.getDefiningOp<ConstantOp>()) {
    auto attr = dyn_cast<DenseElementsAttr>(c.getValue());
    std::optional<SmallVector<int64_t>> sizes =
        SymShape(dims).getStaticSizes();
    if (attr && sizes &&
        ShapedType::getNumElements(*sizes) ==
            cast<ShapedType>(attr.getType()).getNumElements())
      return build<ConstantOp>(
          {},
          {named("value",
                 attr.reshape(cast<ShapedType>(attr.getType()).clone(*sizes)))});
  }
  return build<ReshapeOp>(v, {named("shape", shapeAttr(dims))});
}

Value OpConverter::scalarConstant(Type dtype, double value) {
  auto type = RankedTensorType::get({}, dtype);
  DenseElementsAttr attr =
      isa<FloatType>(dtype)
          ? DenseElementsAttr::get(type, FloatAttr::get(dtype, value))
          : DenseElementsAttr::get(
                type, IntegerAttr::get(dtype, static_cast<int64_t>(value)));
  return ConstantOp::create(rewriter, loc, attr).getResult();
}

SmallVector<Expr> OpConverter::dimsOf(Value relaxValue) {
  auto t = cast<RelaxTensorType>(relaxValue.getType());
  return SmallVector<Expr>(t.getDims());
}

//===----------------------------------------------------------------------===//
// Operands and results
//===----------------------------------------------------------------------===//

FailureOr<Value> OpConverter::operand(Value converted) {
  if (isa<RelaxTensorType>(converted.getType()))
    return converted;
  // A value the conversion gives no relax value (a shape), read as data.
  return op->emitOpError("reads a value that has no relax equivalent ")
         << "(type " << converted.getType() << ")";
}

FailureOr<SmallVector<int64_t>> OpConverter::constShape(Value tosaShape) {
  // The const_shape is erased, but stays in place while the conversion runs.
  auto c = tosaShape.getDefiningOp<tosa::ConstShapeOp>();
  if (!c)
    return op->emitOpError("unsupported: a shape operand that is not a "
                             "tosa.const_shape");
  SmallVector<int64_t> out;
  for (const APInt &v : c.getValues().getValues<APInt>())
    out.push_back(v.getSExtValue());
  return out;
}

LogicalResult OpConverter::requireZero(Value tosaValue, StringRef what) {
  DenseElementsAttr attr;
  if (matchPattern(tosaValue, m_Constant(&attr))) {
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
  return op->emitOpError("unsupported: a ")
         << what << " that is not the constant 0 (quantized TOSA)";
}

FailureOr<SmallVector<Value>> OpConverter::operands(ValueRange converted) {
  SmallVector<Value> out;
  for (Value v : converted) {
    FailureOr<Value> r = operand(v);
    if (failed(r))
      return failure();
    out.push_back(*r);
  }
  return out;
}

/// Elementwise operands whose dims relax cannot decide are broadcast to
/// the max of them (undecidedBroadcastDims); broadcast_to checks at run
/// time that each dim is 1 or the result's (TOSA's rule).
LogicalResult OpConverter::alignBroadcast(MutableArrayRef<Value> operands) {
  SmallVector<SmallVector<Expr>> dims;
  for (Value v : operands)
    dims.push_back(dimsOf(v));
  std::optional<SmallVector<Expr>> result = undecidedBroadcastDims(dims);
  if (!result)
    return success();
  for (auto [v, d] : llvm::zip(operands, dims)) {
    if (d == *result)
      continue;
    FailureOr<Value> bv =
        build<BroadcastToOp>(v, {named("shape", shapeAttr(*result))});
    if (failed(bv))
      return failure();
    v = *bv;
  }
  return success();
}

Value OpConverter::castDims(Value v, ArrayRef<std::pair<int64_t, Expr>> dims) {
  if (dims.empty())
    return v;
  auto type = cast<RelaxTensorType>(v.getType());
  SmallVector<Expr> newDims(type.getDims());
  for (auto [i, e] : dims)
    newDims[i] = e;
  return MatchCastOp::create(rewriter, loc, type.withShape(SymShape(newDims)),
                             v)
      .getResult();
}

LogicalResult OpConverter::replace(FailureOr<Value> converted) {
  if (failed(converted))
    return failure();
  Value v = *converted;
  Value result = op->getResult(0);
  auto relaxType = cast<RelaxTensorType>(v.getType());
  Type tosaDtype = getElementTypeOrSelf(result.getType());
  if (isa<TensorType>(result.getType()) && relaxType.getDtype() != tosaDtype)
    return op->emitOpError("converts to element type ")
           << relaxType.getDtype() << ", but its result has " << tosaDtype;
  if (!relaxType.hasRank())
    // unreachable: every relax value of the conversion is ranked: the
    // function pattern refuses unranked arguments, constants are ranked,
    // and the relax ops the patterns build infer ranked results from
    // ranked operands (only relax.squeeze without axes and relax.einsum
    // with `...` do not, and no pattern builds them).
    return op->emitOpError("internal error: converts to a value of unknown "
                           "rank");
  // TOSA's type in relax: `?` where TOSA does not know a dim; null for an
  // unranked tensor.
  auto tosaType =
      dyn_cast_or_null<RelaxTensorType>(converter.convertType(result.getType()));
  if (tosaType && !tosaType.hasRank())
    tosaType = nullptr;
  if (tosaType && tosaType.getRank() != relaxType.getRank())
    return op->emitOpError("converts to a result of rank ")
           << relaxType.getRank() << " (" << relaxType << "), but TOSA's has "
           << tosaType.getRank();
  SmallVector<Expr> dims(relaxType.getDims());
  bool cast = false;
  for (auto [i, d] : llvm::enumerate(dims)) {
    Expr tosaDim = tosaType ? tosaType.getDims()[i] : Expr();
    if (!d) {
      d = tosaDim ? tosaDim
                  : Expr::var(converter.freshVar(
                        op->getParentOfType<relax::FuncOp>()));
      cast = true;
      continue;
    }
    std::optional<int64_t> c = d.getConstant();
    if (c && tosaDim && tosaDim.getConstant() != *c)
      return op->emitOpError("converts to ")
             << relaxType << ", whose dim " << i << " disagrees with "
             << result.getType();
  }
  if (cast)
    v = MatchCastOp::create(rewriter, loc, relaxType.withShape(SymShape(dims)),
                            v)
            .getResult();
  rewriter.replaceOp(op, v);
  return success();
}
