//===- ReductionHelpers.h - Reduction legalization helpers ------*- C++ -*-===//
//
// Loop nests around reduction blocks, statistics buffers and the checks
// shared by Legalize/Reduction.cpp and Normalization.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RELAX_TRANSFORMS_LEGALIZE_REDUCTIONHELPERS_H
#define LIB_RELAX_TRANSFORMS_LEGALIZE_REDUCTIONHELPERS_H

#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace relax {
namespace reduction_legalize {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

inline bool isFloat(Type t) { return isa<FloatType>(t); }

/// The dtype statistics are accumulated in.
inline Type accType(Type dtype) {
  if (dtype.isF16() || dtype.isBF16())
    return Float32Type::get(dtype.getContext());
  return dtype;
}

inline const SymShape &shapeOf(Value v) {
  return cast<RelaxTensorType>(v.getType()).getShape();
}
inline const SymShape &shapeOf(Type t) {
  return cast<RelaxTensorType>(t).getShape();
}
inline Type dtypeOf(Value v) {
  return cast<RelaxTensorType>(v.getType()).getDtype();
}


/// The largest / smallest finite-or-infinite value of `dtype`.
inline Value extremeConstant(OpBuilder &b, Location l, Type dtype,
                             bool largest) {
  if (auto ft = dyn_cast<FloatType>(dtype))
    return arith::ConstantOp::create(
        b, l,
        b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics(),
                                           /*Negative=*/!largest)));
  unsigned w = dtype.getIntOrFloatBitWidth();
  APInt v = largest ? APInt::getSignedMaxValue(w) : APInt::getSignedMinValue(w);
  return arith::ConstantOp::create(b, l, b.getIntegerAttr(dtype, v));
}

/// A global scratch buffer of `shape` and `dtype`.
inline Value allocBuffer(OpBuilder &b, Location l, const SymShape &shape,
                         Type dtype) {
  auto type = tir::BufferType::get(b.getContext(), shape, dtype,
                                   tir::MemoryScope::global);
  return tir::AllocOp::create(b, l, type);
}

/// The element count of the dims of `shape` at `axes`.
inline sym::Expr countOf(const SymShape &shape, ArrayRef<int64_t> axes) {
  sym::Expr n = sym::Expr::constant(1);
  for (int64_t a : axes)
    n = n * shape.getDim(a);
  return n;
}

/// `values` without the positions in the sorted `axes`.
inline SmallVector<Value> dropAxes(ValueRange values, ArrayRef<int64_t> axes) {
  SmallVector<Value> out;
  for (auto [i, v] : llvm::enumerate(values))
    if (!llvm::is_contained(axes, static_cast<int64_t>(i)))
      out.push_back(v);
  return out;
}

using BlockFn = function_ref<void(OpBuilder &, Location, ValueRange spatial,
                                  ValueRange reduce)>;

/// A loop nest over `spatial` (outside, the first loop parallel) and
/// `reduce` (inside, serial) extents around one tir.block named `name` with
/// spatial and reduce iteration variables. `init` becomes the block's
/// tir.init (without reduce extents it just runs before `body`).
inline void buildBlock(OpBuilder &b, Location loc, StringRef name,
                       ArrayRef<sym::Expr> spatial, ArrayRef<sym::Expr> reduce,
                       BlockFn init, BlockFn body) {
  SmallVector<sym::Expr> extents(spatial.begin(), spatial.end());
  extents.append(reduce.begin(), reduce.end());
  SmallVector<tir::LoopKind> kinds =
      outerParallelKinds(spatial, extents.size());
  unsigned numSpatial = spatial.size();
  tir::buildLoopNest(
      b, loc, extents, kinds, [&](OpBuilder &b, Location l, ValueRange ivs) {
        SmallVector<tir::IterKind> iterKinds(numSpatial,
                                             tir::IterKind::spatial);
        iterKinds.append(reduce.size(), tir::IterKind::reduce);
        auto initFn = [&](OpBuilder &b, Location l, ValueRange vars) {
          init(b, l, vars.take_front(numSpatial), vars.drop_front(numSpatial));
        };
        auto bodyFn = [&](OpBuilder &b, Location l, ValueRange vars) {
          if (reduce.empty() && init)
            init(b, l, vars.take_front(numSpatial),
                 vars.drop_front(numSpatial));
          body(b, l, vars.take_front(numSpatial), vars.drop_front(numSpatial));
        };
        function_ref<void(OpBuilder &, Location, ValueRange)> initRef;
        if (!reduce.empty() && init)
          initRef = initFn;
        tir::BlockOp::create(b, l, name, ivs, iterKinds, initRef, bodyFn);
      });
}

using AxisFn = function_ref<void(OpBuilder &, Location, ValueRange inIdx,
                                 ValueRange outIdx)>;

/// A reduction of a tensor of shape `in` over the sorted `axes`: the block's
/// spatial variables are the kept dims, its reduce variables the reduced
/// ones. Callbacks get the input indices and the indices into the reduced
/// shape (reduced dims dropped, or 0 with `keepdims`). In `init` the reduce
/// variables, hence the reduced input indices, are 0.
inline void buildAxisReduction(OpBuilder &b, Location loc, StringRef name,
                               const SymShape &in, ArrayRef<int64_t> axes,
                               bool keepdims, AxisFn init, AxisFn body) {
  SmallVector<sym::Expr> spatial, reduce;
  for (int64_t i = 0; i < in.getRank(); ++i)
    (llvm::is_contained(axes, i) ? reduce : spatial).push_back(in.getDim(i));
  auto indices = [&](OpBuilder &b, Location l, ValueRange sv, ValueRange rv,
                     SmallVectorImpl<Value> &inIdx,
                     SmallVectorImpl<Value> &outIdx) {
    unsigned s = 0, r = 0;
    Value zero;
    for (int64_t i = 0; i < in.getRank(); ++i) {
      if (llvm::is_contained(axes, i)) {
        inIdx.push_back(rv[r++]);
        if (keepdims) {
          if (!zero)
            zero = arith::ConstantIndexOp::create(b, l, 0);
          outIdx.push_back(zero);
        }
      } else {
        inIdx.push_back(sv[s]);
        outIdx.push_back(sv[s]);
        ++s;
      }
    }
  };
  auto initFn = [&](OpBuilder &b, Location l, ValueRange sv, ValueRange rv) {
    SmallVector<Value> inIdx, outIdx;
    indices(b, l, sv, rv, inIdx, outIdx);
    init(b, l, inIdx, outIdx);
  };
  auto bodyFn = [&](OpBuilder &b, Location l, ValueRange sv, ValueRange rv) {
    SmallVector<Value> inIdx, outIdx;
    indices(b, l, sv, rv, inIdx, outIdx);
    body(b, l, inIdx, outIdx);
  };
  BlockFn initRef;
  if (init)
    initRef = initFn;
  buildBlock(b, loc, name, spatial, reduce, initRef, bodyFn);
}

/// One spatial block over `shape`.
inline void buildSpatial(
    OpBuilder &b, Location loc, StringRef name, const SymShape &shape,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  buildSpatialCompute(b, loc, name, shape, body);
}

/// True when the reduced extent (the dims of `in` at `axes`) may be 0 at run
/// time: then no reduce iteration runs, so the block's tir.init never writes
/// the identity.
inline bool mayBeEmpty(const SymShape &in, ArrayRef<int64_t> axes) {
  for (int64_t a : axes) {
    std::optional<int64_t> lb = defaultSymContext().lowerBound(in.getDim(a));
    if (!lb || *lb < 1)
      return true;
  }
  return false;
}

/// Fills `buf` (of `shape`) with `value` in one spatial block: the result of
/// a reduction over an empty extent (numpy: 0 for sum, 1 for prod, nan for
/// mean / variance through 0 / 0).
inline void emitFill(OpBuilder &b, Location loc, StringRef name,
                     const SymShape &shape, Value buf,
                     function_ref<Value(OpBuilder &, Location)> value) {
  buildSpatial(b, loc, name, shape,
               [&](OpBuilder &b, Location l, ValueRange o) {
                 tir::StoreOp::create(b, l, value(b, l), buf, o);
               });
}

/// Rejects dtypes the loop lowering or the op's arithmetic cannot handle.
inline LogicalResult checkDtype(Operation *op, Type dtype, bool floatOnly) {
  if (floatOnly && !isFloat(dtype))
    return op->emitOpError("cannot be legalized: requires a floating-point "
                           "dtype, got ")
           << dtype;
  if (isUnsignedDtype(dtype))
    return op->emitOpError("cannot be legalized: ")
           << dtype << " arithmetic is not supported by the loop lowering yet";
  if (dtype.isInteger(1))
    return op->emitOpError("cannot be legalized: arithmetic on i1 is not "
                           "supported; cast to an integer dtype first");
  return success();
}

/// Requires `param` (a norm's gamma / beta / weight) to have exactly the
/// dims `expected`, provably: the loops index it with the data's variables.
inline LogicalResult checkParamShape(Operation *op, StringRef what,
                                     const SymShape &param,
                                     ArrayRef<sym::Expr> expected) {
  bool ok = param.getRank() == static_cast<int64_t>(expected.size());
  for (unsigned i = 0; ok && i < expected.size(); ++i)
    ok = param.getDim(i) == expected[i] ||
         defaultSymContext().provablyEqual(param.getDim(i), expected[i]);
  if (ok)
    return success();
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(expected, os,
                        [&](const sym::Expr &e) { printSymDim(os, e); });
  os << "]";
  return op->emitOpError("cannot be legalized: ")
         << what << " has shape " << param.str()
         << " which is not provably " << s
         << " (refine it with relax.match_cast)";
}

/// The sorted reduction axes of a reduce op (all axes when absent).
inline FailureOr<SmallVector<int64_t>>
reduceAxes(Operation *op, std::optional<ArrayRef<int64_t>> axes,
           int64_t rank) {
  if (!axes) {
    SmallVector<int64_t> all;
    for (int64_t i = 0; i < rank; ++i)
      all.push_back(i);
    return all;
  }
  return normalizeAxes(op->getLoc(), op->getName().getStringRef(), *axes,
                       rank);
}

/// Input shape checks common to every legalizer here.
inline LogicalResult checkKnown(Operation *op) {
  for (Type t : op->getOperandTypes()) {
    auto tensor = dyn_cast<RelaxTensorType>(t);
    if (!tensor || !tensor.getShape().isFullyKnown())
      return op->emitOpError("cannot be legalized: operand has type ")
             << t << "; every dim must be known (refine it with "
             << "relax.match_cast)";
  }
  return success();
}

/// Operand 0, once every operand shape is known (checkKnown) and its dtype
/// is one the lowering handles (checkDtype): the start of most legalizers
/// here.
inline FailureOr<Value> checkedInput(Operation *op, bool floatOnly) {
  if (failed(checkKnown(op)))
    return failure();
  Value input = op->getOperand(0);
  if (failed(checkDtype(op, dtypeOf(input), floatOnly)))
    return failure();
  return input;
}

/// Replaces `op` by a call of the `reduction` prim_func `name` built by
/// `body` over all its operands and results, keyed on its attributes.
inline LogicalResult replaceWithReduction(Operation *op, LegalizeContext &ctx,
                                          StringRef name,
                                          PrimFuncBodyBuilder body) {
  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(), body,
      tir::OpPattern::Reduction, op->getAttrDictionary());
}

/// Emits `stat[o] = sum over axes of f(x[i], o)` for a statistics buffer of
/// the reduced shape.
inline void emitSum(OpBuilder &b, Location loc, StringRef name,
                    const SymShape &in, ArrayRef<int64_t> axes, bool keepdims,
                    Value stat, Type acc,
                    function_ref<Value(OpBuilder &, Location, ValueRange inIdx,
                                       ValueRange outIdx)>
                        term,
                    bool reassoc = false) {
  buildAxisReduction(
      b, loc, name, in, axes, keepdims,
      [&](OpBuilder &b, Location l, ValueRange, ValueRange o) {
        tir::StoreOp::create(b, l, createScalarConstant(b, l, acc, 0), stat,
                             o);
      },
      [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
        Value s = tir::LoadOp::create(b, l, stat, o);
        Value t = term(b, l, i, o);
        tir::StoreOp::create(
            b, l,
            arith::AddFOp::create(b, l, s, t,
                                  reassoc ? arith::FastMathFlags::reassoc
                                          : arith::FastMathFlags::none),
            stat, o);
      });
}

/// Emits `dst[o] = cast(src[o] / count)` over `shape`.
inline void emitDivide(OpBuilder &b, Location loc, StringRef name,
                       const SymShape &shape, Value src, Value dst,
                       Value count) {
  buildSpatial(b, loc, name, shape,
               [&](OpBuilder &b, Location l, ValueRange o) {
                 Value s = tir::LoadOp::create(b, l, src, o);
                 Value q = arith::DivFOp::create(b, l, s, count);
                 Type to = cast<tir::BufferType>(dst.getType()).getDtype();
                 tir::StoreOp::create(b, l, castScalar(b, l, q, to), dst, o);
               });
}

} // namespace reduction_legalize
} // namespace relax
} // namespace mlir

#endif // LIB_RELAX_TRANSFORMS_LEGALIZE_REDUCTIONHELPERS_H
