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

static LogicalResult legalizePermuteDims(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  int64_t rank = tensorType(op->getOperand(0)).getRank();
  SmallVector<int64_t> axes;
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("axes")) {
    for (int64_t x : a.asArrayRef())
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

static LogicalResult legalizeExpandDims(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  int64_t outRank = cast<RelaxTensorType>(op->getResult(0).getType()).getRank();
  SmallVector<bool> isNew(outRank, false);
  for (int64_t a : op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef())
    isNew[normAxis(a, outRank)] = true;
  return legalizeGather(op, ctx, [&](OpBuilder &, Location, ValueRange ivs) {
    SmallVector<Value> idx;
    for (int64_t i = 0; i < outRank; ++i)
      if (!isNew[i])
        idx.push_back(ivs[i]);
    return idx;
  });
}

static LogicalResult legalizeSqueeze(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  int64_t outRank = cast<RelaxTensorType>(op->getResult(0).getType()).getRank();
  SmallVector<bool> removed(in.getRank(), false);
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("axes")) {
    for (int64_t x : a.asArrayRef())
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

static LogicalResult legalizeConcat(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  int64_t rank = resultType.getRank();
  int64_t axis = normAxis(
      op->getAttrOfType<IntegerAttr>("axis").getValue().getSExtValue(), rank);
  if (axis < 0)
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

static LogicalResult legalizeSplit(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  int64_t rank = tensorType(op->getOperand(0)).getRank();
  int64_t axis = normAxis(
      op->getAttrOfType<IntegerAttr>("axis").getValue().getSExtValue(), rank);
  if (axis < 0)
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

static LogicalResult legalizeStridedSlice(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  int64_t rank = in.getRank();
  ArrayRef<int64_t> axes =
      op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
  const SymShape &begin = op->getAttrOfType<ShapeExprAttr>("begin").getShape();
  SmallVector<int64_t> strides(axes.size(), 1);
  if (auto s = op->getAttrOfType<DenseI64ArrayAttr>("strides"))
    strides.assign(s.asArrayRef().begin(), s.asArrayRef().end());
  // Per input dim: the clamped begin (as in shape inference) and the stride.
  SmallVector<sym::Expr> starts(rank, sym::Expr::constant(0));
  SmallVector<int64_t> steps(rank, 1);
  SmallVector<sym::Expr> extra;
  for (auto [i, a] : llvm::enumerate(axes)) {
    int64_t axis = normAxis(a, rank);
    if (axis < 0)
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

static LogicalResult legalizeTake(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  RelaxTensorType idxType = tensorType(op->getOperand(1));
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  bool unsignedIdx = isUnsignedDtype(idxType.getDtype());
  int64_t idxRank = idxType.getRank();
  std::optional<int64_t> axis;
  if (auto a = op->getAttrOfType<IntegerAttr>("axis")) {
    axis = normAxis(a.getValue().getSExtValue(), in.getRank());
    if (*axis < 0)
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
                   Value raw = toSignlessScalar(
                       b, l,
                       tir::LoadOp::create(b, l, inputs[1],
                                           ivs.slice(first, idxRank)));
                   Value i = unsignedIdx ? Value(arith::IndexCastUIOp::create(
                                               b, l, b.getIndexType(), raw))
                                         : Value(arith::IndexCastOp::create(
                                               b, l, b.getIndexType(), raw));
                   // Negative indices count from the end (numpy).
                   Value d = tir::materializeDim(b, l, extent);
                   if (!unsignedIdx) {
                     Value neg = arith::CmpIOp::create(
                         b, l, arith::CmpIPredicate::slt, i, idxConst(b, l, 0));
                     i = arith::SelectOp::create(
                         b, l, neg, arith::AddIOp::create(b, l, i, d), i);
                   }
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

static LogicalResult legalizeRepeat(Operation *op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  SymShape in = tensorType(op->getOperand(0)).getShape();
  int64_t repeats =
      op->getAttrOfType<IntegerAttr>("repeats").getValue().getSExtValue();
  std::optional<int64_t> axis;
  if (auto a = op->getAttrOfType<IntegerAttr>("axis")) {
    axis = normAxis(a.getValue().getSExtValue(), in.getRank());
    if (*axis < 0)
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
}
