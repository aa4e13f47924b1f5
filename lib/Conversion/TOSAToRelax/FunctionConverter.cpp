//===- FunctionConverter.cpp - operands and results -----------------------===//
//
// --convert-tosa-to-relax: TOSA values to relax values (constants, shapes
// given by tosa.const_shape, broadcasts aligned), results bound to fresh
// symbolic variables where TOSA leaves a dim unknown, and the builders of
// relax ops the families share.
//
//===----------------------------------------------------------------------===//

#include "FunctionConverter.h"

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
