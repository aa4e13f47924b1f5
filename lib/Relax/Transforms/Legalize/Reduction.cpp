//===- Reduction.cpp - Legalization of the reduction and norm ops ---------===//
//
// Reductions over axes (sum, mean, max, min, prod, variance), index
// reductions (argmax, argmin), softmax / log_softmax, cumsum and the
// normalisations (layer_norm, rms_norm, group_norm, batch_norm).
//
// Every reduction is a loop nest with the kept dims outside (the outermost
// one parallel) and the reduced dims inside, around one tir.block whose kept
// dims are `spatial` and reduced dims `reduce` iteration variables; the
// block's tir.init writes the identity. Programs needing statistics
// (mean, variance, softmax, norms) chain several such blocks through scratch
// buffers (tir.alloc, global) of the statistics' shape, followed by a
// spatial block over the result. Statistics of f16 / bf16 inputs are
// accumulated in f32; others in their own dtype.
//
// Numerics: softmax / log_softmax subtract the row maximum before exp;
// variance and the norms compute the mean first and then the mean of squared
// deviations (two passes), never E[x^2] - E[x]^2.
//
// A tir.init runs on the first reduce iteration, so a reduced extent that is
// 0 at run time would leave the result unwritten: when a reduced dim is not
// provably >= 1, sum / prod / max / min / mean / variance first fill their
// accumulators with the identity in a spatial block (giving numpy's 0, 1,
// -inf / +inf, nan, nan). Softmax and the norms need no such fill (their
// result is then empty); argmax / argmin of an empty extent (an error in
// numpy) leave the result unspecified.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"


using namespace mlir;
using namespace mlir::relax;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isFloat(Type t) { return isa<FloatType>(t); }

/// The dtype statistics are accumulated in.
static Type accType(Type dtype) {
  if (dtype.isF16() || dtype.isBF16())
    return Float32Type::get(dtype.getContext());
  return dtype;
}

static const SymShape &shapeOf(Value v) {
  return cast<RelaxTensorType>(v.getType()).getShape();
}
static const SymShape &shapeOf(Type t) {
  return cast<RelaxTensorType>(t).getShape();
}
static Type dtypeOf(Value v) {
  return cast<RelaxTensorType>(v.getType()).getDtype();
}


/// The largest / smallest finite-or-infinite value of `dtype`.
static Value extremeConstant(OpBuilder &b, Location l, Type dtype,
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
static Value allocBuffer(OpBuilder &b, Location l, const SymShape &shape,
                         Type dtype) {
  auto type = tir::BufferType::get(b.getContext(), shape, dtype,
                                   tir::MemoryScope::global);
  return tir::AllocOp::create(b, l, type);
}

/// The element count of the dims of `shape` at `axes`.
static sym::Expr countOf(const SymShape &shape, ArrayRef<int64_t> axes) {
  sym::Expr n = sym::Expr::constant(1);
  for (int64_t a : axes)
    n = n * shape.getDim(a);
  return n;
}

/// `values` without the positions in the sorted `axes`.
static SmallVector<Value> dropAxes(ValueRange values, ArrayRef<int64_t> axes) {
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
static void buildBlock(OpBuilder &b, Location loc, StringRef name,
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
static void buildAxisReduction(OpBuilder &b, Location loc, StringRef name,
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
static void buildSpatial(
    OpBuilder &b, Location loc, StringRef name, const SymShape &shape,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  buildSpatialCompute(b, loc, name, shape, body);
}

/// True when the reduced extent (the dims of `in` at `axes`) may be 0 at run
/// time: then no reduce iteration runs, so the block's tir.init never writes
/// the identity.
static bool mayBeEmpty(const SymShape &in, ArrayRef<int64_t> axes) {
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
static void emitFill(OpBuilder &b, Location loc, StringRef name,
                     const SymShape &shape, Value buf,
                     function_ref<Value(OpBuilder &, Location)> value) {
  buildSpatial(b, loc, name, shape,
               [&](OpBuilder &b, Location l, ValueRange o) {
                 tir::StoreOp::create(b, l, value(b, l), buf, o);
               });
}

/// Rejects dtypes the loop lowering or the op's arithmetic cannot handle.
static LogicalResult checkDtype(Operation *op, Type dtype, bool floatOnly) {
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
static LogicalResult checkParamShape(Operation *op, StringRef what,
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
static FailureOr<SmallVector<int64_t>>
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
static LogicalResult checkKnown(Operation *op) {
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
static FailureOr<Value> checkedInput(Operation *op, bool floatOnly) {
  if (failed(checkKnown(op)))
    return failure();
  Value input = op->getOperand(0);
  if (failed(checkDtype(op, dtypeOf(input), floatOnly)))
    return failure();
  return input;
}

/// Replaces `op` by a call of the `reduction` prim_func `name` built by
/// `body` over all its operands and results, keyed on its attributes.
static LogicalResult replaceWithReduction(Operation *op, LegalizeContext &ctx,
                                          StringRef name,
                                          PrimFuncBodyBuilder body) {
  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(), body,
      tir::OpPattern::Reduction, op->getAttrDictionary());
}

//===----------------------------------------------------------------------===//
// sum, prod, max, min
//===----------------------------------------------------------------------===//

namespace {
enum class Combiner { Sum, Prod, Max, Min };
} // namespace

static Value combine(OpBuilder &b, Location l, Combiner c, Value acc,
                     Value v) {
  bool f = isFloat(v.getType());
  switch (c) {
  case Combiner::Sum:
    return f ? Value(arith::AddFOp::create(b, l, acc, v))
             : Value(arith::AddIOp::create(b, l, acc, v));
  case Combiner::Prod:
    return f ? Value(arith::MulFOp::create(b, l, acc, v))
             : Value(arith::MulIOp::create(b, l, acc, v));
  case Combiner::Max:
    return f ? Value(arith::MaximumFOp::create(b, l, acc, v))
             : Value(arith::MaxSIOp::create(b, l, acc, v));
  case Combiner::Min:
    return f ? Value(arith::MinimumFOp::create(b, l, acc, v))
             : Value(arith::MinSIOp::create(b, l, acc, v));
  }
  llvm_unreachable("combiner");
}

static Value identity(OpBuilder &b, Location l, Combiner c, Type dtype) {
  switch (c) {
  case Combiner::Sum:
    return createScalarConstant(b, l, dtype, 0);
  case Combiner::Prod:
    return createScalarConstant(b, l, dtype, 1);
  case Combiner::Max:
    return extremeConstant(b, l, dtype, /*largest=*/false);
  case Combiner::Min:
    return extremeConstant(b, l, dtype, /*largest=*/true);
  }
  llvm_unreachable("combiner");
}

/// sum, prod, max and min.
template <typename ReduceOp>
static LogicalResult legalizeReduce(ReduceOp op, LegalizeContext &ctx,
                                    Combiner c) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/false);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  FailureOr<SmallVector<int64_t>> axes =
      reduceAxes(op, op.getAxes(), in.getRank());
  if (failed(axes))
    return failure();
  bool keepdims = op.getKeepdims();
  const SymShape &out = shapeOf(op->getResult(0).getType());
  std::string name = ("T_" + shortOpName(op)).str();
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        if (mayBeEmpty(in, *axes))
          emitFill(b, loc, (shortOpName(op) + "_empty").str(), out, y,
                   [&](OpBuilder &b, Location l) {
                     return identity(b, l, c, dtype);
                   });
        buildAxisReduction(
            b, loc, shortOpName(op), in, *axes, keepdims,
            [&](OpBuilder &b, Location l, ValueRange, ValueRange o) {
              tir::StoreOp::create(b, l, identity(b, l, c, dtype), y, o);
            },
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              Value acc = tir::LoadOp::create(b, l, y, o);
              Value v = tir::LoadOp::create(b, l, x, i);
              tir::StoreOp::create(b, l, combine(b, l, c, acc, v), y, o);
            });
      });
}

//===----------------------------------------------------------------------===//
// mean, variance
//===----------------------------------------------------------------------===//

/// Emits `stat[o] = sum over axes of f(x[i], o)` for a statistics buffer of
/// the reduced shape.
static void emitSum(OpBuilder &b, Location loc, StringRef name,
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
static void emitDivide(OpBuilder &b, Location loc, StringRef name,
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

template <typename ReduceOp>
static LogicalResult legalizeMeanOrVariance(ReduceOp op, LegalizeContext &ctx,
                                            bool variance) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  FailureOr<SmallVector<int64_t>> axes =
      reduceAxes(op, op.getAxes(), in.getRank());
  if (failed(axes))
    return failure();
  bool keepdims = op.getKeepdims();
  const SymShape &out = shapeOf(op->getResult(0).getType());
  Type acc = accType(dtype);
  std::string name = ("T_" + shortOpName(op)).str();
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        Value count = indexToFloat(
            b, loc, tir::materializeDim(b, loc, countOf(in, *axes)), acc);
        auto loadX = [&](OpBuilder &b, Location l, ValueRange i) {
          return castScalar(b, l, tir::LoadOp::create(b, l, x, i), acc);
        };
        // The mean goes straight into the result unless it needs a wider
        // accumulator or a second pass follows.
        Value mean = (acc == dtype && !variance) ? y
                                                 : allocBuffer(b, loc, out, acc);
        bool empty = mayBeEmpty(in, *axes);
        auto zero = [&](OpBuilder &b, Location l) {
          return createScalarConstant(b, l, acc, 0);
        };
        if (empty)
          emitFill(b, loc, variance ? "variance_empty" : "mean_empty", out,
                   mean, zero);
        emitSum(b, loc, variance ? "variance_sum" : "mean_sum", in, *axes,
                keepdims, mean, acc,
                [&](OpBuilder &b, Location l, ValueRange i, ValueRange) {
                  return loadX(b, l, i);
                });
        if (!variance) {
          emitDivide(b, loc, "mean_div", out, mean, y, count);
          return;
        }
        emitDivide(b, loc, "variance_mean", out, mean, mean, count);
        Value sq = acc == dtype ? y : allocBuffer(b, loc, out, acc);
        if (empty)
          emitFill(b, loc, "variance_sqempty", out, sq, zero);
        emitSum(b, loc, "variance_sqsum", in, *axes, keepdims, sq, acc,
                [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
                  Value d = arith::SubFOp::create(
                      b, l, loadX(b, l, i), tir::LoadOp::create(b, l, mean, o));
                  return arith::MulFOp::create(b, l, d, d).getResult();
                });
        emitDivide(b, loc, "variance_div", out, sq, y, count);
      });
}

//===----------------------------------------------------------------------===//
// argmax, argmin
//===----------------------------------------------------------------------===//

template <typename ArgReduceOp>
static LogicalResult legalizeArgReduce(ArgReduceOp op, LegalizeContext &ctx,
                                       bool isMax) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/false);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  SmallVector<int64_t> axes;
  if (std::optional<uint64_t> axis = op.getAxis()) {
    FailureOr<int64_t> a =
        normalizeAxis(op->getLoc(), op->getName().getStringRef(),
                      static_cast<int64_t>(*axis), in.getRank());
    if (failed(a))
      return failure();
    axes.push_back(*a);
  } else {
    for (int64_t i = 0; i < in.getRank(); ++i)
      axes.push_back(i);
  }
  bool keepdims = op.getKeepdims();
  const SymShape &out = shapeOf(op->getResult(0).getType());
  Type resultDtype = cast<RelaxTensorType>(op->getResult(0).getType())
                         .getDtype();
  std::string name = ("T_" + shortOpName(op)).str();
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        SmallVector<Value> dims;
        for (int64_t a : axes)
          dims.push_back(tir::materializeDim(b, loc, in.getDim(a)));
        Value best = allocBuffer(b, loc, out, dtype);
        buildAxisReduction(
            b, loc, shortOpName(op), in, axes, keepdims,
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              // The reduce variables are 0 here: start from that element.
              tir::StoreOp::create(b, l, tir::LoadOp::create(b, l, x, i), best,
                                   o);
              tir::StoreOp::create(b, l,
                                   createScalarConstant(b, l, resultDtype, 0),
                                   y, o);
            },
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              // Flat index over the reduced dims, row-major.
              Value flat;
              for (auto [k, a] : llvm::enumerate(axes))
                flat = k == 0 ? Value(i[a])
                              : Value(arith::AddIOp::create(
                                    b, l,
                                    arith::MulIOp::create(b, l, flat, dims[k]),
                                    i[a]));
              Value v = tir::LoadOp::create(b, l, x, i);
              Value cur = tir::LoadOp::create(b, l, best, o);
              Value better;
              if (isFloat(dtype)) {
                // Strictly better keeps the first extreme; the first NaN
                // wins over numbers, as in numpy.
                better = arith::CmpFOp::create(
                    b, l,
                    isMax ? arith::CmpFPredicate::OGT
                          : arith::CmpFPredicate::OLT,
                    v, cur);
                Value vNan = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::UNO, v, v);
                Value curNum = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::ORD, cur, cur);
                better = arith::OrIOp::create(
                    b, l, better, arith::AndIOp::create(b, l, vNan, curNum));
              } else {
                better = arith::CmpIOp::create(
                    b, l,
                    isMax ? arith::CmpIPredicate::sgt
                          : arith::CmpIPredicate::slt,
                    v, cur);
              }
              Value oldIdx = tir::LoadOp::create(b, l, y, o);
              Value newIdx = arith::IndexCastOp::create(b, l, resultDtype,
                                                        flat);
              tir::StoreOp::create(
                  b, l, arith::SelectOp::create(b, l, better, v, cur), best,
                  o);
              tir::StoreOp::create(
                  b, l, arith::SelectOp::create(b, l, better, newIdx, oldIdx),
                  y, o);
            });
      });
}

//===----------------------------------------------------------------------===//
// softmax, log_softmax
//===----------------------------------------------------------------------===//

template <typename SoftmaxLikeOp>
static LogicalResult legalizeSoftmax(SoftmaxLikeOp op, LegalizeContext &ctx,
                                     bool isLog) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  auto axisValue = static_cast<int64_t>(op.getAxis());
  FailureOr<int64_t> axis = normalizeAxis(
      op->getLoc(), op->getName().getStringRef(), axisValue, in.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> axes{*axis};
  SymShape stat = reduceShape(in, axes, /*keepdims=*/false);
  Type acc = accType(dtype);
  std::string name = ("T_" + shortOpName(op)).str();
  StringRef base = shortOpName(op);
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        Value maxBuf = allocBuffer(b, loc, stat, acc);
        Value sumBuf = allocBuffer(b, loc, stat, acc);
        auto loadX = [&](OpBuilder &b, Location l, ValueRange i) {
          return castScalar(b, l, tir::LoadOp::create(b, l, x, i), acc);
        };
        buildAxisReduction(
            b, loc, (base + "_maxelem").str(), in, axes, false,
            [&](OpBuilder &b, Location l, ValueRange, ValueRange o) {
              tir::StoreOp::create(b, l, extremeConstant(b, l, acc, false),
                                   maxBuf, o);
            },
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              Value m = tir::LoadOp::create(b, l, maxBuf, o);
              tir::StoreOp::create(
                  b, l, arith::MaximumFOp::create(b, l, m, loadX(b, l, i)),
                  maxBuf, o);
            });
        emitSum(b, loc, (base + "_expsum").str(), in, axes, false, sumBuf, acc,
                [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
                  Value m = tir::LoadOp::create(b, l, maxBuf, o);
                  Value d = arith::SubFOp::create(b, l, loadX(b, l, i), m);
                  return math::ExpOp::create(b, l, d).getResult();
                });
        buildSpatial(
            b, loc, (base + "_norm").str(), in,
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              SmallVector<Value> o = dropAxes(ivs, axes);
              Value m = tir::LoadOp::create(b, l, maxBuf, o);
              Value s = tir::LoadOp::create(b, l, sumBuf, o);
              Value d = arith::SubFOp::create(b, l, loadX(b, l, ivs), m);
              Value r;
              if (isLog)
                r = arith::SubFOp::create(b, l, d, math::LogOp::create(b, l, s));
              else
                r = arith::DivFOp::create(b, l, math::ExpOp::create(b, l, d),
                                          s);
              tir::StoreOp::create(b, l, castScalar(b, l, r, dtype), y, ivs);
            });
      });
}

//===----------------------------------------------------------------------===//
// cumsum
//===----------------------------------------------------------------------===//

static LogicalResult legalizeCumsum(CumsumOp op, LegalizeContext &ctx) {
  if (failed(checkKnown(op)))
    return failure();
  Value input = op->getOperand(0);
  const SymShape &in = shapeOf(input);
  Type inDtype = dtypeOf(input);
  Type dtype =
      cast<RelaxTensorType>(op->getResult(0).getType()).getDtype();
  if (isUnsignedDtype(inDtype))
    return op->emitOpError("cannot be legalized: ")
           << inDtype
           << " arithmetic is not supported by the loop lowering yet";
  if (failed(checkDtype(op, dtype, /*floatOnly=*/false)))
    return failure();
  std::optional<int64_t> axis;
  if (std::optional<uint64_t> a = op.getAxis()) {
    FailureOr<int64_t> n =
        normalizeAxis(op->getLoc(), op->getName().getStringRef(),
                      static_cast<int64_t>(*a), in.getRank());
    if (failed(n))
      return failure();
    axis = *n;
  }
  return ctx.replaceWithCallTIR(
      op, "T_cumsum", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        // y[pos] = x[pos] + (first ? 0 : y[prev]).
        auto step = [&](OpBuilder &b, Location l, ValueRange inIdx,
                        ValueRange outIdx, Value isFirst,
                        ValueRange prevIdx) {
          Value v = castScalar(b, l, tir::LoadOp::create(b, l, x, inIdx),
                               dtype);
          auto ifOp = scf::IfOp::create(
              b, l, isFirst,
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(b, l,
                                     createScalarConstant(b, l, dtype, 0));
              },
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(
                    b, l, tir::LoadOp::create(b, l, y, prevIdx).getResult());
              });
          Value s = isFloat(dtype)
                        ? Value(arith::AddFOp::create(b, l, ifOp.getResult(0),
                                                      v))
                        : Value(arith::AddIOp::create(b, l, ifOp.getResult(0),
                                                      v));
          tir::StoreOp::create(b, l, s, y, outIdx);
        };
        if (axis) {
          // A spatial block per line along the axis; the scan inside is
          // serial.
          SmallVector<sym::Expr> spatial;
          for (int64_t i = 0; i < in.getRank(); ++i)
            if (i != *axis)
              spatial.push_back(in.getDim(i));
          buildBlock(
              b, loc, "cumsum", spatial, {}, nullptr,
              [&](OpBuilder &b, Location l, ValueRange sv, ValueRange) {
                Value zero = arith::ConstantIndexOp::create(b, l, 0);
                Value one = arith::ConstantIndexOp::create(b, l, 1);
                Value ext = tir::materializeDim(b, l, in.getDim(*axis));
                tir::ForOp::create(
                    b, l, zero, ext, one, tir::LoopKind::serial,
                    [&](OpBuilder &b, Location l, Value k) {
                      SmallVector<Value> idx, prev;
                      Value isFirst = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::eq, k, zero);
                      Value km1 = arith::MaxSIOp::create(
                          b, l, arith::SubIOp::create(b, l, k, one), zero);
                      unsigned s = 0;
                      for (int64_t i = 0; i < in.getRank(); ++i) {
                        idx.push_back(i == *axis ? k : sv[s]);
                        prev.push_back(i == *axis ? km1 : sv[s]);
                        if (i != *axis)
                          ++s;
                      }
                      step(b, l, idx, idx, isFirst, prev);
                    });
              });
          return;
        }
        // Flattened: one serial scan over every element, row-major.
        buildBlock(
            b, loc, "cumsum", {}, {}, nullptr,
            [&](OpBuilder &b, Location l, ValueRange, ValueRange) {
              SmallVector<Value> dims;
              for (const sym::Expr &d : in.getDims())
                dims.push_back(tir::materializeDim(b, l, d));
              tir::buildLoopNest(
                  b, l, ValueRange(dims), {},
                  [&](OpBuilder &b, Location l, ValueRange ivs) {
                    Value zero = arith::ConstantIndexOp::create(b, l, 0);
                    Value one = arith::ConstantIndexOp::create(b, l, 1);
                    Value flat = zero;
                    for (unsigned k = 0; k < ivs.size(); ++k)
                      flat = k == 0 ? ivs[0]
                                    : Value(arith::AddIOp::create(
                                          b, l,
                                          arith::MulIOp::create(b, l, flat,
                                                                dims[k]),
                                          ivs[k]));
                    Value isFirst = arith::CmpIOp::create(
                        b, l, arith::CmpIPredicate::eq, flat, zero);
                    Value prev = arith::MaxSIOp::create(
                        b, l, arith::SubIOp::create(b, l, flat, one), zero);
                    step(b, l, ivs, ValueRange{flat}, isFirst,
                         ValueRange{prev});
                  });
            });
      },
      tir::OpPattern::Opaque, op->getAttrDictionary());
}

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

/// Normalised axes in attribute order (for indexing gamma / beta / weight)
/// and sorted (for the reduction).
static LogicalResult normAxes(Operation *op, ArrayRef<int64_t> axes,
                              int64_t rank, SmallVectorImpl<int64_t> &ordered,
                              SmallVectorImpl<int64_t> &sorted) {
  for (int64_t a : axes) {
    FailureOr<int64_t> n =
        normalizeAxis(op->getLoc(), op->getName().getStringRef(), a, rank);
    if (failed(n))
      return failure();
    ordered.push_back(*n);
  }
  FailureOr<SmallVector<int64_t>> s =
      normalizeAxes(op->getLoc(), op->getName().getStringRef(), axes, rank);
  if (failed(s))
    return failure();
  sorted.assign(s->begin(), s->end());
  return success();
}

/// layer_norm (with gamma and beta) and rms_norm (with weight only).
template <typename NormOp>
static LogicalResult legalizeLayerOrRMSNorm(NormOp op, LegalizeContext &ctx,
                                            bool rms) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  SmallVector<int64_t> ordered, sorted;
  if (failed(normAxes(op, op.getAxes(), in.getRank(), ordered, sorted)))
    return failure();
  SmallVector<sym::Expr> paramDims;
  for (int64_t a : ordered)
    paramDims.push_back(in.getDim(a));
  for (unsigned p = 1; p < op->getNumOperands(); ++p)
    if (failed(checkParamShape(op,
                               rms ? "weight" : (p == 1 ? "gamma" : "beta"),
                               shapeOf(op->getOperand(p)), paramDims)))
      return failure();
  double eps = op.getEpsilon().convertToDouble();
  SymShape stat = reduceShape(in, sorted, /*keepdims=*/false);
  Type acc = accType(dtype);
  std::string name = ("T_" + shortOpName(op)).str();
  StringRef base = shortOpName(op);
  return replaceWithReduction(
      op, ctx, name,
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        Value count = indexToFloat(
            b, loc, tir::materializeDim(b, loc, countOf(in, sorted)), acc);
        Value epsV = createScalarConstant(b, loc, acc, eps);
        auto loadX = [&](OpBuilder &b, Location l, ValueRange i) {
          return castScalar(b, l, tir::LoadOp::create(b, l, x, i), acc);
        };
        Value mean;
        if (!rms) {
          mean = allocBuffer(b, loc, stat, acc);
          // reassoc (here and in the squares' sum): the sums may be split
          // into partial sums, which lets LLVM vectorize them; strict
          // left-to-right adds ran at one add per add latency (the norms
          // of the BERT layer took as long as its attention).
          emitSum(
              b, loc, (base + "_sum").str(), in, sorted, false, mean, acc,
              [&](OpBuilder &b, Location l, ValueRange i, ValueRange) {
                return loadX(b, l, i);
              },
              /*reassoc=*/true);
          emitDivide(b, loc, (base + "_mean").str(), stat, mean, mean, count);
        }
        Value sq = allocBuffer(b, loc, stat, acc);
        emitSum(
            b, loc, (base + "_sqsum").str(), in, sorted, false, sq, acc,
            [&](OpBuilder &b, Location l, ValueRange i, ValueRange o) {
              Value d = loadX(b, l, i);
              if (!rms)
                d = arith::SubFOp::create(b, l, d,
                                          tir::LoadOp::create(b, l, mean, o));
              return arith::MulFOp::create(b, l, d, d).getResult();
            },
            /*reassoc=*/true);
        buildSpatial(
            b, loc, base, in, [&](OpBuilder &b, Location l, ValueRange ivs) {
              SmallVector<Value> o = dropAxes(ivs, sorted);
              SmallVector<Value> p;
              for (int64_t a : ordered)
                p.push_back(ivs[a]);
              Value d = loadX(b, l, ivs);
              if (!rms)
                d = arith::SubFOp::create(b, l, d,
                                          tir::LoadOp::create(b, l, mean, o));
              Value var = arith::DivFOp::create(
                  b, l, tir::LoadOp::create(b, l, sq, o), count);
              Value scale = math::RsqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, var, epsV));
              Value r = arith::MulFOp::create(b, l, d, scale);
              r = arith::MulFOp::create(
                  b, l, r,
                  castScalar(b, l, tir::LoadOp::create(b, l, inputs[1], p),
                             acc));
              if (!rms)
                r = arith::AddFOp::create(
                    b, l, r,
                    castScalar(b, l, tir::LoadOp::create(b, l, inputs[2], p),
                               acc));
              tir::StoreOp::create(b, l, castScalar(b, l, r, dtype), y, ivs);
            });
      });
}

static LogicalResult legalizeGroupNorm(GroupNormOp op, LegalizeContext &ctx) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  SmallVector<int64_t> ordered, axes;
  if (failed(normAxes(op, op.getAxes(), in.getRank(), ordered, axes)))
    return failure();
  FailureOr<int64_t> channel = normalizeAxis(
      op->getLoc(), op->getName().getStringRef(),
      static_cast<int64_t>(op.getChannelAxis()), in.getRank());
  if (failed(channel))
    return failure();
  if (llvm::is_contained(axes, *channel))
    // unreachable: the group_norm type inference rejects it.
    return op->emitOpError("cannot be legalized: axes contain the channel "
                           "axis");
  auto groups = static_cast<int64_t>(op.getNumGroups());
  if (groups <= 0)
    // unreachable: the group_norm type inference rejects it.
    return op->emitOpError("cannot be legalized: num_groups must be "
                           "positive");
  const sym::Expr &c = in.getDim(*channel);
  sym::Expr rem = defaultSymContext().simplify(sym::mod(c, sym::Expr::constant(groups)));
  if (rem.getConstant() != 0)
    return op->emitOpError("cannot be legalized: the channel dim ")
           << c.str() << " is not provably divisible by num_groups = "
           << groups << " (refine it with relax.match_cast)";
  sym::Expr perGroup = sym::floorDiv(c, sym::Expr::constant(groups));
  for (unsigned p = 1; p <= 2; ++p)
    if (failed(checkParamShape(op, p == 1 ? "gamma" : "beta",
                               shapeOf(op->getOperand(p)), {c})))
      return failure();
  double eps = op.getEpsilon().convertToDouble();
  // Statistics are [other dims..., num_groups]; each group reduces over its
  // channels and `axes`.
  SmallVector<int64_t> others;
  SmallVector<sym::Expr> statDims, reduceDims{perGroup};
  for (int64_t i = 0; i < in.getRank(); ++i) {
    if (i == *channel || llvm::is_contained(axes, i))
      continue;
    others.push_back(i);
    statDims.push_back(in.getDim(i));
  }
  statDims.push_back(sym::Expr::constant(groups));
  for (int64_t a : axes)
    reduceDims.push_back(in.getDim(a));
  SymShape stat(statDims);
  sym::Expr countExpr = perGroup * countOf(in, axes);
  Type acc = accType(dtype);
  return replaceWithReduction(
      op, ctx, "T_group_norm",
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value x = inputs[0], y = outputs[0];
        Value count = indexToFloat(
            b, loc, tir::materializeDim(b, loc, countExpr), acc);
        Value perGroupV = tir::materializeDim(b, loc, perGroup);
        Value epsV = createScalarConstant(b, loc, acc, eps);
        Value mean = allocBuffer(b, loc, stat, acc);
        Value sq = allocBuffer(b, loc, stat, acc);
        // Input indices from the block variables: spatial = others + group,
        // reduce = channel within the group + axes.
        auto inIndices = [&](OpBuilder &b, Location l, ValueRange sv,
                             ValueRange rv) {
          SmallVector<Value> idx;
          unsigned s = 0;
          for (int64_t i = 0; i < in.getRank(); ++i) {
            if (i == *channel) {
              Value base =
                  arith::MulIOp::create(b, l, sv.back(), perGroupV);
              idx.push_back(arith::AddIOp::create(b, l, base, rv[0]));
            } else if (llvm::is_contained(axes, i)) {
              auto pos = llvm::find(axes, i) - axes.begin();
              idx.push_back(rv[1 + pos]);
            } else {
              idx.push_back(sv[s++]);
            }
          }
          return idx;
        };
        auto loadX = [&](OpBuilder &b, Location l, ValueRange i) {
          return castScalar(b, l, tir::LoadOp::create(b, l, x, i), acc);
        };
        auto emitStat = [&](StringRef name, Value buf, bool centered) {
          buildBlock(
              b, loc, name, statDims, reduceDims,
              [&](OpBuilder &b, Location l, ValueRange sv, ValueRange) {
                tir::StoreOp::create(b, l, createScalarConstant(b, l, acc, 0),
                                     buf, sv);
              },
              [&](OpBuilder &b, Location l, ValueRange sv, ValueRange rv) {
                Value v = loadX(b, l, inIndices(b, l, sv, rv));
                if (centered) {
                  v = arith::SubFOp::create(
                      b, l, v, tir::LoadOp::create(b, l, mean, sv));
                  v = arith::MulFOp::create(b, l, v, v);
                }
                Value s = tir::LoadOp::create(b, l, buf, sv);
                tir::StoreOp::create(b, l, arith::AddFOp::create(b, l, s, v),
                                     buf, sv);
              });
        };
        emitStat("group_norm_sum", mean, false);
        emitDivide(b, loc, "group_norm_mean", stat, mean, mean, count);
        emitStat("group_norm_sqsum", sq, true);
        buildSpatial(
            b, loc, "group_norm", in,
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              SmallVector<Value> o;
              for (int64_t i : others)
                o.push_back(ivs[i]);
              Value ch = ivs[*channel];
              o.push_back(arith::DivUIOp::create(b, l, ch, perGroupV));
              Value d = arith::SubFOp::create(
                  b, l, loadX(b, l, ivs), tir::LoadOp::create(b, l, mean, o));
              Value var = arith::DivFOp::create(
                  b, l, tir::LoadOp::create(b, l, sq, o), count);
              Value scale = math::RsqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, var, epsV));
              Value g = castScalar(
                  b, l, tir::LoadOp::create(b, l, inputs[1], ValueRange{ch}),
                  acc);
              Value be = castScalar(
                  b, l, tir::LoadOp::create(b, l, inputs[2], ValueRange{ch}),
                  acc);
              Value r = arith::MulFOp::create(
                  b, l, arith::MulFOp::create(b, l, d, scale), g);
              r = arith::AddFOp::create(b, l, r, be);
              tir::StoreOp::create(b, l, castScalar(b, l, r, dtype), y, ivs);
            });
      });
}

static LogicalResult legalizeBatchNorm(BatchNormOp op, LegalizeContext &ctx) {
  FailureOr<Value> input = checkedInput(op, /*floatOnly=*/true);
  if (failed(input))
    return failure();
  const SymShape &in = shapeOf(*input);
  Type dtype = dtypeOf(*input);
  auto axisValue = static_cast<int64_t>(op.getAxis());
  FailureOr<int64_t> axis = normalizeAxis(
      op->getLoc(), op->getName().getStringRef(), axisValue, in.getRank());
  if (failed(axis))
    return failure();
  static const char *names[] = {"", "gamma", "beta", "moving_mean",
                                "moving_var"};
  for (unsigned p = 1; p <= 4; ++p)
    if (failed(checkParamShape(op, names[p], shapeOf(op->getOperand(p)),
                               {in.getDim(*axis)})))
      return failure();
  double eps = op.getEpsilon().convertToDouble();
  Type acc = accType(dtype);
  return ctx.replaceWithCallTIR(
      op, "T_batch_norm", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        Value epsV = createScalarConstant(b, loc, acc, eps);
        buildSpatial(
            b, loc, "batch_norm", in,
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              ValueRange c = ivs.slice(*axis, 1);
              auto load = [&](unsigned p, ValueRange idx) {
                return castScalar(
                    b, l, tir::LoadOp::create(b, l, inputs[p], idx), acc);
              };
              Value d = arith::SubFOp::create(b, l, load(0, ivs), load(3, c));
              Value scale = math::RsqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, load(4, c), epsV));
              Value r = arith::MulFOp::create(
                  b, l, arith::MulFOp::create(b, l, d, scale), load(1, c));
              r = arith::AddFOp::create(b, l, r, load(2, c));
              tir::StoreOp::create(b, l, castScalar(b, l, r, dtype),
                                   outputs[0], ivs);
            });
      },
      tir::OpPattern::Broadcast, op->getAttrDictionary());
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void relax::addReductionLegalizers(LegalizerTable &table) {
  auto reduce = [](Combiner c) {
    return [c](auto op, LegalizeContext &ctx) {
      return legalizeReduce(op, ctx, c);
    };
  };
  registerLegalizer<SumOp>(table, reduce(Combiner::Sum));
  registerLegalizer<ProdOp>(table, reduce(Combiner::Prod));
  registerLegalizer<MaxOp>(table, reduce(Combiner::Max));
  registerLegalizer<MinOp>(table, reduce(Combiner::Min));
  registerLegalizer<MeanOp>(table, [](MeanOp op, LegalizeContext &ctx) {
    return legalizeMeanOrVariance(op, ctx, /*variance=*/false);
  });
  registerLegalizer<VarianceOp>(table, [](VarianceOp op, LegalizeContext &ctx) {
    return legalizeMeanOrVariance(op, ctx, /*variance=*/true);
  });
  registerLegalizer<ArgmaxOp>(table, [](ArgmaxOp op, LegalizeContext &ctx) {
    return legalizeArgReduce(op, ctx, /*isMax=*/true);
  });
  registerLegalizer<ArgminOp>(table, [](ArgminOp op, LegalizeContext &ctx) {
    return legalizeArgReduce(op, ctx, /*isMax=*/false);
  });
  registerLegalizer<SoftmaxOp>(table, [](SoftmaxOp op, LegalizeContext &ctx) {
    return legalizeSoftmax(op, ctx, /*isLog=*/false);
  });
  registerLegalizer<LogSoftmaxOp>(
      table, [](LogSoftmaxOp op, LegalizeContext &ctx) {
        return legalizeSoftmax(op, ctx, /*isLog=*/true);
      });
  registerLegalizer<CumsumOp>(table, legalizeCumsum);
  registerLegalizer<LayerNormOp>(
      table, [](LayerNormOp op, LegalizeContext &ctx) {
        return legalizeLayerOrRMSNorm(op, ctx, /*rms=*/false);
      });
  registerLegalizer<RMSNormOp>(table, [](RMSNormOp op, LegalizeContext &ctx) {
    return legalizeLayerOrRMSNorm(op, ctx, /*rms=*/true);
  });
  registerLegalizer<GroupNormOp>(table, legalizeGroupNorm);
  registerLegalizer<BatchNormOp>(table, legalizeBatchNorm);
}
