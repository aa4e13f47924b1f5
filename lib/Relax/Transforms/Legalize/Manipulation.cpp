//===- Manipulation.cpp - Legalization of the manipulation ops ------------===//
//
// Every manipulation op moves elements without computing on them: the
// prim_func is a loop nest over an output with one spatial block that loads
// the input element the output position maps to. The index maps stay
// symbolic (extents and offsets are materialised from the buffer dims or
// passed as tir_vars). Concat and split write/read one slice per operand or
// result with one loop nest each. All are `injective`.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relax;

static RelaxTensorType tensorType(Value v) {
  return cast<RelaxTensorType>(v.getType());
}

static const sym::Context &symCtx() { return defaultSymContext(); }

static Value idxConst(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

/// Normalises an axis against `rank`; -1 when out of range.
static int64_t normAxis(int64_t axis, int64_t rank) {
  if (axis < 0)
    axis += rank;
  return (axis < 0 || axis >= rank) ? -1 : axis;
}

/// Row-major unravel of the non-negative flat index `flat` over `dims`
/// (outermost first).
static SmallVector<Value> unravel(OpBuilder &b, Location l, Value flat,
                                  ArrayRef<sym::Expr> dims) {
  SmallVector<Value> out(dims.size());
  for (int64_t i = dims.size() - 1; i >= 0; --i) {
    if (dims[i].getConstant() == 1) {
      out[i] = idxConst(b, l, 0);
      continue;
    }
    if (i == 0) {
      out[i] = flat;
      break;
    }
    Value d = tir::materializeDim(b, l, dims[i]);
    out[i] = arith::RemUIOp::create(b, l, flat, d);
    flat = arith::DivUIOp::create(b, l, flat, d);
  }
  return out;
}

/// Row-major flat index of `ivs` in `dims`.
static Value ravel(OpBuilder &b, Location l, ValueRange ivs,
                   ArrayRef<sym::Expr> dims) {
  Value flat;
  for (auto [iv, dim] : llvm::zip(ivs, dims)) {
    if (dim.getConstant() == 1)
      continue; // iv is always 0
    if (!flat) {
      flat = iv;
      continue;
    }
    Value d = tir::materializeDim(b, l, dim);
    flat =
        arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, flat, d), iv);
  }
  return flat ? flat : idxConst(b, l, 0);
}

/// Loads the index at `at` from the integer buffer `indices` as an `index`
/// into an axis of `extent`: negative values count from the end (numpy).
/// The run-time contract (relax.assert_indices) has checked the value lies
/// in [-extent, extent), so the result is in range.
static Value loadIndex(OpBuilder &b, Location l, Value indices, ValueRange at,
                       const sym::Expr &extent) {
  bool isUnsigned = isUnsignedDtype(
      cast<tir::BufferType>(indices.getType()).getDtype());
  Value raw = toSignlessScalar(b, l, tir::LoadOp::create(b, l, indices, at));
  if (isUnsigned)
    return arith::IndexCastUIOp::create(b, l, b.getIndexType(), raw);
  Value i = arith::IndexCastOp::create(b, l, b.getIndexType(), raw);
  Value neg =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i, idxConst(b, l, 0));
  Value d = tir::materializeDim(b, l, extent);
  return arith::SelectOp::create(b, l, neg, arith::AddIOp::create(b, l, i, d),
                                 i);
}

/// One spatial loop nest over `out` storing `fn(ivs)` into `outBuf[ivs]`.
static void
copyNest(OpBuilder &b, Location loc, StringRef name, const SymShape &out,
         Value outBuf,
         function_ref<Value(OpBuilder &, Location, ValueRange)> fn) {
  buildSpatialCompute(b, loc, name, out,
                      [&](OpBuilder &b, Location l, ValueRange ivs) {
                        Value v = fn(b, l, ivs);
                        tir::StoreOp::create(b, l, v, outBuf, ivs);
                      });
}


/// Emits a single-nest legalization over result 0 with `index(ivs)` giving
/// the input indices.
static LogicalResult legalizeGather(
    Operation *op, LegalizeContext &ctx,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> index,
    ArrayRef<sym::Expr> extraExprs = {}) {
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  std::string name = ("T_" + shortOpName(op)).str();
  return ctx.replaceWithCallTIR(
      op, name, op->getOperand(0), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        copyNest(b, loc, name, resultType.getShape(), outputs[0],
                 [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
                   SmallVector<Value> idx = index(b, l, ivs);
                   return tir::LoadOp::create(b, l, inputs[0], idx);
                 });
      },
      tir::OpPattern::Injective, op->getAttrDictionary(), extraExprs);
}

/// Emits a single-nest legalization over result 0 whose element at `ivs` is
/// `value(inputs, ivs)`, reading any of the op's operands; the block is
/// named after the op.
static LogicalResult legalizeElementMap(
    Operation *op, LegalizeContext &ctx,
    function_ref<Value(OpBuilder &, Location, ValueRange inputs, ValueRange ivs)>
        value,
    ArrayRef<sym::Expr> extraExprs = {}) {
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  StringRef name = shortOpName(op);
  return ctx.replaceWithCallTIR(
      op, ("T_" + name).str(), op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        copyNest(b, loc, name, resultType.getShape(), outputs[0],
                 [&](OpBuilder &b, Location l, ValueRange ivs) {
                   return value(b, l, inputs, ivs);
                 });
      },
      tir::OpPattern::Injective, op->getAttrDictionary(), extraExprs);
}

//===----------------------------------------------------------------------===//
// reshape / flatten
//===----------------------------------------------------------------------===//

static LogicalResult legalizeReshape(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  SymShape out = cast<RelaxTensorType>(op->getResult(0).getType()).getShape();
  // Leading dims equal in both shapes map one to one (same element count).
  int64_t prefix = 0;
  while (prefix < in.getRank() && prefix < out.getRank() &&
         in.getDim(prefix) == out.getDim(prefix))
    ++prefix;
  return legalizeGather(op, ctx, [&](OpBuilder &b, Location l, ValueRange ivs) {
    SmallVector<Value> idx(ivs.begin(), ivs.begin() + prefix);
    if (in.getRank() == prefix)
      return idx;
    Value flat =
        ravel(b, l, ivs.drop_front(prefix), out.getDims().drop_front(prefix));
    llvm::append_range(idx,
                       unravel(b, l, flat, in.getDims().drop_front(prefix)));
    return idx;
  });
}

//===----------------------------------------------------------------------===//
// permute_dims / expand_dims / squeeze / broadcast_to
//===----------------------------------------------------------------------===//

static LogicalResult legalizePermuteDims(PermuteDimsOp op,
                                         LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  int64_t rank = tensorType(op->getOperand(0)).getRank();
  SmallVector<int64_t> axes;
  if (std::optional<ArrayRef<int64_t>> a = op.getAxes()) {
    for (int64_t x : *a)
      axes.push_back(normAxis(x, rank));
  } else {
    for (int64_t i = rank - 1; i >= 0; --i)
      axes.push_back(i);
  }
  return legalizeGather(op, ctx, [&](OpBuilder &, Location, ValueRange ivs) {
    SmallVector<Value> idx(rank);
    for (int64_t i = 0; i < rank; ++i)
      idx[axes[i]] = ivs[i];
    return idx;
  });
}

static LogicalResult legalizeExpandDims(ExpandDimsOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  int64_t outRank = cast<RelaxTensorType>(op->getResult(0).getType()).getRank();
  SmallVector<bool> isNew(outRank, false);
  for (int64_t a : op.getAxes())
    isNew[normAxis(a, outRank)] = true;
  return legalizeGather(op, ctx, [&](OpBuilder &, Location, ValueRange ivs) {
    SmallVector<Value> idx;
    for (int64_t i = 0; i < outRank; ++i)
      if (!isNew[i])
        idx.push_back(ivs[i]);
    return idx;
  });
}

static LogicalResult legalizeSqueeze(SqueezeOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  int64_t outRank = cast<RelaxTensorType>(op->getResult(0).getType()).getRank();
  SmallVector<bool> removed(in.getRank(), false);
  if (std::optional<ArrayRef<int64_t>> a = op.getAxes()) {
    for (int64_t x : *a)
      removed[normAxis(x, in.getRank())] = true;
  } else {
    for (int64_t i = 0; i < in.getRank(); ++i)
      removed[i] = in.getDim(i).getConstant() == 1;
  }
  if (in.getRank() - llvm::count(removed, true) != outRank)
    return op->emitOpError("cannot be legalized: the squeezed dims do not "
                           "match the result rank");
  return legalizeGather(op, ctx, [&](OpBuilder &b, Location l, ValueRange ivs) {
    SmallVector<Value> idx;
    unsigned next = 0;
    for (int64_t i = 0; i < in.getRank(); ++i)
      idx.push_back(removed[i] ? idxConst(b, l, 0) : Value(ivs[next++]));
    return idx;
  });
}

static LogicalResult legalizeFlatten(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  return legalizeGather(op, ctx, [&](OpBuilder &b, Location l, ValueRange ivs) {
    return unravel(b, l, ivs[0], in.getDims());
  });
}

static LogicalResult legalizeBroadcastTo(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  SymShape out = cast<RelaxTensorType>(op->getResult(0).getType()).getShape();
  int64_t offset = out.getRank() - in.getRank();
  if (offset < 0)
    return op->emitOpError("cannot be legalized: the target rank is below "
                           "the input rank");
  return legalizeGather(op, ctx, [&](OpBuilder &b, Location l, ValueRange ivs) {
    return *broadcastIndices(b, l, in, out, ivs);
  });
}

//===----------------------------------------------------------------------===//
// concat / split
//===----------------------------------------------------------------------===//

static LogicalResult legalizeConcat(ConcatOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  int64_t rank = resultType.getRank();
  int64_t axis = normAxis(static_cast<int64_t>(op.getAxis()), rank);
  if (axis < 0)
    // unreachable: type inference rejects an axis out of range.
    return op->emitOpError("cannot be legalized: axis out of range");
  SmallVector<SymShape> shapes;
  SmallVector<sym::Expr> offsets;
  sym::Expr offset = sym::Expr::constant(0);
  for (Value v : op->getOperands()) {
    shapes.push_back(tensorType(v).getShape());
    offsets.push_back(offset);
    offset = offset + tensorType(v).getDims()[axis];
  }
  std::string name = "T_concat";
  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        for (auto [i, input] : llvm::enumerate(inputs)) {
          const sym::Expr &off = offsets[i];
          buildSpatialCompute(b, loc, name + "_" + std::to_string(i), shapes[i],
                              [&](OpBuilder &b, Location l, ValueRange ivs) {
                                Value v = tir::LoadOp::create(b, l, input, ivs);
                                SmallVector<Value> idx(ivs.begin(), ivs.end());
                                if (off.getConstant() != 0)
                                  idx[axis] = arith::AddIOp::create(
                                      b, l, ivs[axis],
                                      tir::materializeDim(b, l, off));
                                tir::StoreOp::create(b, l, v, outputs[0], idx);
                              });
        }
      },
      tir::OpPattern::Injective, op->getAttrDictionary(), offsets);
}

static LogicalResult legalizeSplit(SplitOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  int64_t rank = tensorType(op->getOperand(0)).getRank();
  int64_t axis = normAxis(static_cast<int64_t>(op.getAxis()), rank);
  if (axis < 0)
    // unreachable: type inference rejects an axis out of range.
    return op->emitOpError("cannot be legalized: axis out of range");
  SmallVector<SymShape> shapes;
  SmallVector<sym::Expr> offsets;
  sym::Expr offset = sym::Expr::constant(0);
  for (Type t : op->getResultTypes()) {
    auto tt = cast<RelaxTensorType>(t);
    shapes.push_back(tt.getShape());
    offsets.push_back(offset);
    offset = offset + tt.getDims()[axis];
  }
  std::string name = "T_split";
  return ctx.replaceWithCallTIR(
      op, name, op->getOperand(0), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        for (auto [i, output] : llvm::enumerate(outputs)) {
          const sym::Expr &off = offsets[i];
          buildSpatialCompute(
              b, loc, name + "_" + std::to_string(i), shapes[i],
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                SmallVector<Value> idx(ivs.begin(), ivs.end());
                if (off.getConstant() != 0)
                  idx[axis] = arith::AddIOp::create(
                      b, l, ivs[axis], tir::materializeDim(b, l, off));
                Value v = tir::LoadOp::create(b, l, inputs[0], idx);
                tir::StoreOp::create(b, l, v, output, ivs);
              });
        }
      },
      tir::OpPattern::Injective, op->getAttrDictionary(), offsets);
}

//===----------------------------------------------------------------------===//
// strided_slice
//===----------------------------------------------------------------------===//

static LogicalResult legalizeStridedSlice(StridedSliceOp op,
                                          LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  int64_t rank = in.getRank();
  ArrayRef<int64_t> axes = op.getAxes();
  const SymShape &begin = op.getBegin().getShape();
  SmallVector<int64_t> strides(axes.size(), 1);
  if (std::optional<ArrayRef<int64_t>> s = op.getStrides())
    strides.assign(s->begin(), s->end());
  // Per input dim: the clamped begin (as in shape inference) and the stride.
  SmallVector<sym::Expr> starts(rank, sym::Expr::constant(0));
  SmallVector<int64_t> steps(rank, 1);
  SmallVector<sym::Expr> extra;
  for (auto [i, a] : llvm::enumerate(axes)) {
    int64_t axis = normAxis(a, rank);
    if (axis < 0)
      // unreachable: type inference rejects an axis out of range.
      return op->emitOpError("cannot be legalized: axis out of range");
    const sym::Expr &dim = in.getDim(axis);
    sym::Expr bound = begin.getDim(i);
    if (!bound)
      return op->emitOpError("cannot be legalized: begin #")
             << i << " is unknown";
    if (auto c = bound.getConstant(); c && *c < 0)
      bound = dim + *c;
    int64_t s = strides[i];
    sym::Expr lo = sym::Expr::constant(s > 0 ? 0 : -1);
    sym::Expr hi = s > 0 ? dim : dim - 1;
    sym::Expr clamped =
        symCtx().simplify(sym::min(symCtx().simplify(sym::max(bound, lo)), hi));
    starts[axis] = clamped;
    steps[axis] = s;
    extra.push_back(clamped);
  }
  return legalizeGather(
      op, ctx,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d) {
          Value v = ivs[d];
          if (steps[d] != 1)
            v = arith::MulIOp::create(b, l, v, idxConst(b, l, steps[d]));
          if (starts[d].getConstant() != 0)
            v = arith::AddIOp::create(b, l, v,
                                      tir::materializeDim(b, l, starts[d]));
          idx.push_back(v);
        }
        return idx;
      },
      extra);
}

//===----------------------------------------------------------------------===//
// take / tile / repeat
//===----------------------------------------------------------------------===//

static LogicalResult legalizeTake(TakeOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  RelaxTensorType idxType = tensorType(op->getOperand(1));
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  int64_t idxRank = idxType.getRank();
  std::optional<int64_t> axis;
  if (std::optional<uint64_t> a = op.getAxis()) {
    axis = normAxis(static_cast<int64_t>(*a), in.getRank());
    if (*axis < 0)
      // unreachable: type inference rejects an axis out of range.
      return op->emitOpError("cannot be legalized: axis out of range");
  }
  sym::Expr extent = axis ? in.getDim(*axis) : in.getNumElements();
  std::string name = "T_take";
  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        copyNest(b, loc, name, resultType.getShape(), outputs[0],
                 [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
                   int64_t first = axis ? *axis : 0;
                   Value i = loadIndex(b, l, inputs[1],
                                       ivs.slice(first, idxRank), extent);
                   SmallVector<Value> idx;
                   if (axis) {
                     idx.append(ivs.begin(), ivs.begin() + *axis);
                     idx.push_back(i);
                     idx.append(ivs.begin() + *axis + idxRank, ivs.end());
                   } else {
                     idx = unravel(b, l, i, in.getDims());
                   }
                   return tir::LoadOp::create(b, l, inputs[0], idx);
                 });
      },
      tir::OpPattern::Injective, op->getAttrDictionary(), {extent});
}

static LogicalResult legalizeTile(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  int64_t outRank = cast<RelaxTensorType>(op->getResult(0).getType()).getRank();
  int64_t offset = outRank - in.getRank();
  return legalizeGather(op, ctx, [&](OpBuilder &b, Location l, ValueRange ivs) {
    SmallVector<Value> idx;
    for (int64_t i = 0; i < in.getRank(); ++i) {
      const sym::Expr &d = in.getDim(i);
      if (d.getConstant() == 1)
        idx.push_back(idxConst(b, l, 0));
      else
        idx.push_back(arith::RemUIOp::create(b, l, ivs[offset + i],
                                             tir::materializeDim(b, l, d)));
    }
    return idx;
  });
}

static LogicalResult legalizeRepeat(RepeatOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  int64_t repeats = static_cast<int64_t>(op.getRepeats());
  std::optional<int64_t> axis;
  if (std::optional<uint64_t> a = op.getAxis()) {
    axis = normAxis(static_cast<int64_t>(*a), in.getRank());
    if (*axis < 0)
      // unreachable: type inference rejects an axis out of range.
      return op->emitOpError("cannot be legalized: axis out of range");
  }
  return legalizeGather(op, ctx, [&](OpBuilder &b, Location l, ValueRange ivs) {
    Value r = idxConst(b, l, repeats);
    if (axis) {
      SmallVector<Value> idx(ivs.begin(), ivs.end());
      idx[*axis] = arith::DivUIOp::create(b, l, ivs[*axis], r);
      return idx;
    }
    Value flat = arith::DivUIOp::create(b, l, ivs[0], r);
    return unravel(b, l, flat, in.getDims());
  });
}

//===----------------------------------------------------------------------===//
// trilu / pad
//===----------------------------------------------------------------------===//

/// Keeps x[..., i, j] where j - i >= k (upper) or <= k (lower), else 0.
static LogicalResult legalizeTrilu(TriluOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  RelaxTensorType type = op.getType();
  int64_t rank = type.getRank();
  sym::Expr k = op.getKAttr() ? op.getKAttr().getExpr() : sym::Expr::constant(0);
  bool upper = op.getUpper();
  Type dtype = type.getDtype();
  return legalizeElementMap(
      op, ctx,
      [&](OpBuilder &b, Location l, ValueRange inputs, ValueRange ivs) {
        Value diff = arith::SubIOp::create(b, l, ivs[rank - 1], ivs[rank - 2]);
        Value keep = arith::CmpIOp::create(
            b, l, upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
            diff, tir::materializeDim(b, l, k));
        Value v =
            toSignlessScalar(b, l, tir::LoadOp::create(b, l, inputs[0], ivs));
        Value zero = createScalarConstant(b, l, dtype, 0);
        return fromSignlessScalar(
            b, l, arith::SelectOp::create(b, l, keep, v, zero), dtype);
      },
      {k});
}

/// The input index that output index `iv` reads along a padded dim of
/// extent `dim` whose first `before` output positions are padding (a
/// negative `before` crops). Constant mode uses the raw position and tests
/// its range; the others map every position into [0, dim) (dim >= 1 is a
/// run-time contract).
static Value padSourceIndex(OpBuilder &b, Location l, StringRef mode, Value iv,
                            const sym::Expr &before, const sym::Expr &dim) {
  Value src = before.getConstant() == 0
                  ? iv
                  : Value(arith::SubIOp::create(
                        b, l, iv, tir::materializeDim(b, l, before)));
  if (mode == "constant")
    return src;
  Value zero = idxConst(b, l, 0), one = idxConst(b, l, 1);
  Value d = tir::materializeDim(b, l, dim);
  // Floor modulo into [0, p) for p >= 1.
  auto wrap = [&](Value x, Value p) -> Value {
    Value r = arith::RemSIOp::create(b, l, x, p);
    Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, r, zero);
    return arith::SelectOp::create(b, l, neg, arith::AddIOp::create(b, l, r, p),
                                   r);
  };
  Value last = arith::SubIOp::create(b, l, d, one);
  if (mode == "edge")
    return arith::MaxSIOp::create(b, l, arith::MinSIOp::create(b, l, src, last),
                                  zero);
  if (mode == "wrap")
    return wrap(src, d);
  // reflect: period 2 (d - 1), folded back at d - 1 (a dim of 1 reads 0).
  Value period = arith::MaxSIOp::create(
      b, l, arith::AddIOp::create(b, l, last, last), one);
  Value m = wrap(src, period);
  Value mirrored = arith::SubIOp::create(b, l, period, m);
  Value inside = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, m, d);
  return arith::SelectOp::create(b, l, inside, m, mirrored);
}

static LogicalResult legalizePad(PadOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  RelaxTensorType type = op.getType();
  const SymShape &in = tensorType(op.getInput()).getShape();
  const SymShape &before = op.getPadBefore().getShape();
  const SymShape &after = op.getPadAfter().getShape();
  SmallVector<sym::Expr> pads(before.getDims());
  llvm::append_range(pads, after.getDims());
  // Dims without padding read the input at the output index.
  SmallVector<bool> unpadded;
  for (int64_t d = 0; d < in.getRank(); ++d)
    unpadded.push_back(before.getDim(d).getConstant() == 0 &&
                       after.getDim(d).getConstant() == 0);
  StringRef mode = op.getMode();
  double value = op.getValue().convertToDouble();
  Type dtype = type.getDtype();
  return legalizeElementMap(
      op, ctx,
      [&](OpBuilder &b, Location l, ValueRange inputs, ValueRange ivs) -> Value {
              SmallVector<Value> src;
              for (auto [d, iv] : llvm::enumerate(ivs))
                src.push_back(unpadded[d] ? iv
                                          : padSourceIndex(b, l, mode, iv,
                                                           before.getDim(d),
                                                           in.getDim(d)));
              if (mode != "constant")
                return tir::LoadOp::create(b, l, inputs[0], src);
              // Load only inside the input: a padded empty dim has no
              // element to clamp to.
              Value inside;
              for (auto [d, i] : llvm::enumerate(src)) {
                Value lo = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::sge, i, idxConst(b, l, 0));
                Value hi = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::slt, i,
                    tir::materializeDim(b, l, in.getDim(d)));
                Value both = arith::AndIOp::create(b, l, lo, hi);
                inside = inside ? arith::AndIOp::create(b, l, inside, both)
                                      .getResult()
                                : both;
              }
              Type elementType =
                  cast<tir::BufferType>(inputs[0].getType()).getDtype();
              if (!inside) // rank 0
                return tir::LoadOp::create(b, l, inputs[0], src);
              auto ifOp = scf::IfOp::create(
                  b, l, inside,
                  [&](OpBuilder &b, Location l) {
                    scf::YieldOp::create(
                        b, l,
                        tir::LoadOp::create(b, l, inputs[0], src).getResult());
                  },
                  [&](OpBuilder &b, Location l) {
                    scf::YieldOp::create(
                        b, l,
                        fromSignlessScalar(
                            b, l, createScalarConstant(b, l, dtype, value),
                            elementType));
                  });
              return ifOp.getResult(0);
      },
      pads);
}

//===----------------------------------------------------------------------===//
// gather_elements / gather_nd / scatter_nd
//===----------------------------------------------------------------------===//

// Index values were checked against their axes by relax.assert_indices in
// front of the call (ShapeContracts.cpp), so every load below is in bounds.

static LogicalResult legalizeGatherElements(GatherElementsOp op,
                                            LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  const SymShape &data = tensorType(op.getData()).getShape();
  int64_t axis = normAxis(op.getAxis(), data.getRank());
  if (axis < 0)
    // unreachable: type inference rejects an axis out of range.
    return op.emitOpError("cannot be legalized: axis out of range");
  return legalizeElementMap(
      op, ctx,
      [&](OpBuilder &b, Location l, ValueRange inputs, ValueRange ivs) -> Value {
        SmallVector<Value> idx(ivs);
        idx[axis] = loadIndex(b, l, inputs[1], ivs, data.getDim(axis));
        return tir::LoadOp::create(b, l, inputs[0], idx);
      });
}

/// The data indices of index tuple `tuple` (indices' leading positions):
/// one loaded, normalised index per tuple position j, into data dim
/// `first + j`.
static SmallVector<Value> loadIndexTuple(OpBuilder &b, Location l,
                                         Value indices, ValueRange tuple,
                                         const SymShape &data, int64_t first,
                                         int64_t length) {
  SmallVector<Value> idx;
  for (int64_t j = 0; j < length; ++j) {
    SmallVector<Value> at(tuple);
    at.push_back(idxConst(b, l, j));
    idx.push_back(loadIndex(b, l, indices, at, data.getDim(first + j)));
  }
  return idx;
}

static LogicalResult legalizeGatherND(GatherNDOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  const SymShape &data = tensorType(op.getData()).getShape();
  RelaxTensorType indices = tensorType(op.getIndices());
  int64_t tupleRank = indices.getRank() - 1;
  int64_t q = *indices.getDims().back().getConstant();
  int64_t batch = op.getBatchDims();
  return legalizeElementMap(
      op, ctx,
      [&](OpBuilder &b, Location l, ValueRange inputs, ValueRange ivs) -> Value {
        SmallVector<Value> idx(ivs.take_front(batch));
        llvm::append_range(idx,
                           loadIndexTuple(b, l, inputs[1],
                                          ivs.take_front(tupleRank), data,
                                          batch, q));
        llvm::append_range(idx, ivs.drop_front(tupleRank));
        return tir::LoadOp::create(b, l, inputs[0], idx);
      });
}

/// Combines the current value `old` with the update `u` (scalars as arith
/// sees them, see toSignlessScalar) for a scatter reduction.
static Value scatterCombine(OpBuilder &b, Location l, StringRef reduction,
                            Value old, Value u, Type dtype) {
  bool isFloatType = isa<FloatType>(dtype);
  bool isBool = dtype.isInteger(1);
  bool isUnsigned = isUnsignedDtype(dtype);
  if (reduction == "add")
    return isFloatType ? Value(arith::AddFOp::create(b, l, old, u))
           : isBool    ? Value(arith::OrIOp::create(b, l, old, u))
                       : Value(arith::AddIOp::create(b, l, old, u));
  if (reduction == "mul")
    return isFloatType ? Value(arith::MulFOp::create(b, l, old, u))
           : isBool    ? Value(arith::AndIOp::create(b, l, old, u))
                       : Value(arith::MulIOp::create(b, l, old, u));
  if (reduction == "max")
    return isFloatType  ? Value(arith::MaximumFOp::create(b, l, old, u))
           : isBool     ? Value(arith::OrIOp::create(b, l, old, u))
           : isUnsigned ? Value(arith::MaxUIOp::create(b, l, old, u))
                        : Value(arith::MaxSIOp::create(b, l, old, u));
  if (reduction == "min")
    return isFloatType  ? Value(arith::MinimumFOp::create(b, l, old, u))
           : isBool     ? Value(arith::AndIOp::create(b, l, old, u))
           : isUnsigned ? Value(arith::MinUIOp::create(b, l, old, u))
                        : Value(arith::MinSIOp::create(b, l, old, u));
  return u;
}

/// Copies data to the output, then applies the updates in one serial loop
/// nest (a block without iteration variables: one thread on the GPU), so
/// that duplicate indices combine in row-major order and the last `none`
/// update wins, as in onnxruntime.
static LogicalResult legalizeScatterND(ScatterNDOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  RelaxTensorType type = op.getType();
  const SymShape &data = type.getShape();
  const SymShape &updates = tensorType(op.getUpdates()).getShape();
  RelaxTensorType indices = tensorType(op.getIndices());
  int64_t tupleRank = indices.getRank() - 1;
  int64_t q = *indices.getDims().back().getConstant();
  StringRef reduction = op.getReduction();
  Type dtype = type.getDtype();
  return ctx.replaceWithCallTIR(
      op, "T_scatter_nd", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value out = outputs[0];
        copyNest(b, loc, "scatter_nd_copy", data, out,
                 [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
                   return tir::LoadOp::create(b, l, inputs[0], ivs);
                 });
        tir::BlockOp::create(
            b, loc, "scatter_nd", ValueRange(), {}, nullptr,
            [&](OpBuilder &b, Location l, ValueRange) {
              tir::buildLoopNest(
                  b, l, updates.getDims(), {},
                  [&](OpBuilder &b, Location l, ValueRange ivs) {
                    SmallVector<Value> idx =
                        loadIndexTuple(b, l, inputs[1],
                                       ivs.take_front(tupleRank), data, 0, q);
                    llvm::append_range(idx, ivs.drop_front(tupleRank));
                    Value u = toSignlessScalar(
                        b, l, tir::LoadOp::create(b, l, inputs[2], ivs));
                    if (reduction != "none")
                      u = scatterCombine(
                          b, l, reduction,
                          toSignlessScalar(
                              b, l, tir::LoadOp::create(b, l, out, idx)),
                          u, dtype);
                    tir::StoreOp::create(
                        b, l,
                        fromSignlessScalar(
                            b, l, u,
                            cast<tir::BufferType>(out.getType()).getDtype()),
                        out, idx);
                  });
            });
      },
      tir::OpPattern::Opaque, op->getAttrDictionary());
}

void relax::addManipulationLegalizers(LegalizerTable &table) {
  registerLegalizer<ReshapeOp>(table, legalizeReshape);
  registerLegalizer<PermuteDimsOp>(table, legalizePermuteDims);
  registerLegalizer<ExpandDimsOp>(table, legalizeExpandDims);
  registerLegalizer<SqueezeOp>(table, legalizeSqueeze);
  registerLegalizer<FlattenOp>(table, legalizeFlatten);
  registerLegalizer<BroadcastToOp>(table, legalizeBroadcastTo);
  registerLegalizer<ConcatOp>(table, legalizeConcat);
  registerLegalizer<SplitOp>(table, legalizeSplit);
  registerLegalizer<StridedSliceOp>(table, legalizeStridedSlice);
  registerLegalizer<TakeOp>(table, legalizeTake);
  registerLegalizer<TileOp>(table, legalizeTile);
  registerLegalizer<RepeatOp>(table, legalizeRepeat);
  registerLegalizer<TriluOp>(table, legalizeTrilu);
  registerLegalizer<PadOp>(table, legalizePad);
  registerLegalizer<GatherElementsOp>(table, legalizeGatherElements);
  registerLegalizer<GatherNDOp>(table, legalizeGatherND);
  registerLegalizer<ScatterNDOp>(table, legalizeScatterND);
}
