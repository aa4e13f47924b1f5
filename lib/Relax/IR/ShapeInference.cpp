//===- ShapeInference.cpp - Symbolic shape inference helpers --------------===//
//
// The rules shared by all high-level ops. See ShapeInference.h for the
// contract on dims that cannot be proven equal or different.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/IR/BroadcastAlign.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::relax;

bool mlir::relax::isCompatibleType(Type inferred, Type declared) {
  if (inferred == declared)
    return true;
  if (auto tupleA = dyn_cast<TupleType>(inferred)) {
    auto tupleB = dyn_cast<TupleType>(declared);
    return tupleB && areCompatibleReturnTypes(tupleA.getTypes(),
                                              tupleB.getTypes());
  }
  auto compatibleShapes = [](const SymShape &a, const SymShape &b) {
    if (!b.hasRank())
      return true;
    if (!a.hasRank() || a.getRank() != b.getRank())
      return false;
    for (auto [x, y] : llvm::zip(a.getDims(), b.getDims()))
      if (y && !(x && x == y))
        return false;
    return true;
  };
  if (auto a = dyn_cast<RelaxTensorType>(inferred)) {
    auto b = dyn_cast<RelaxTensorType>(declared);
    return b && a.getDtype() == b.getDtype() &&
           compatibleShapes(a.getShape(), b.getShape());
  }
  if (auto a = dyn_cast<RelaxShapeType>(inferred)) {
    auto b = dyn_cast<RelaxShapeType>(declared);
    return b && compatibleShapes(a.getShape(), b.getShape());
  }
  return isa<ObjectType>(declared);
}

bool mlir::relax::areCompatibleReturnTypes(TypeRange inferred,
                                           TypeRange declared) {
  if (inferred.size() != declared.size())
    return false;
  for (auto [a, b] : llvm::zip(inferred, declared))
    if (!isCompatibleType(a, b))
      return false;
  return true;
}

InFlightDiagnostic mlir::relax::emitInferError(std::optional<Location> loc,
                                               StringRef opName) {
  assert(loc && "callers check for a location");
  return mlir::emitError(*loc) << "'" << opName << "' op ";
}

LogicalResult mlir::relax::inferFailure(std::optional<Location> loc,
                                        StringRef opName,
                                        const Twine &message) {
  if (loc)
    emitInferError(loc, opName) << message;
  return failure();
}

const sym::Context &mlir::relax::defaultSymContext() {
  static const sym::Context context;
  return context;
}

sym::Context mlir::relax::symContextAt(Operation *op) {
  if (auto func = op->getParentOfType<FuncOp>())
    return func.getSymContext();
  return defaultSymContext();
}

FailureOr<sym::Expr> mlir::relax::unifyDims(const sym::Expr &a,
                                            const sym::Expr &b) {
  if (!a || !b)
    return sym::Expr();
  if (a == b || defaultSymContext().provablyEqual(a, b))
    return a;
  if (defaultSymContext().provablyNotEqual(a, b))
    return failure();
  return sym::Expr();
}

sym::Expr mlir::relax::simplerDim(const sym::Expr &a, const sym::Expr &b) {
  auto rank = [](const sym::Expr &e) {
    return e.getConstant() ? 0 : e.isVar() ? 1 : 2;
  };
  int ra = rank(a), rb = rank(b);
  if (ra != rb)
    return ra < rb ? a : b;
  return b.str().size() < a.str().size() ? b : a;
}

FailureOr<SymShape> mlir::relax::broadcastShapes(std::optional<Location> loc,
                                                 StringRef opName,
                                                 const SymShape &a,
                                                 const SymShape &b) {
  if (!a.hasRank() || !b.hasRank())
    return SymShape::unranked();
  int64_t rank = std::max(a.getRank(), b.getRank());
  SmallVector<sym::Expr> dims(rank);
  sym::Expr one = sym::Expr::constant(1);
  const sym::Context &ctx = defaultSymContext();
  for (int64_t i = 0; i < rank; ++i) {
    int64_t ia = a.getRank() - rank + i, ib = b.getRank() - rank + i;
    if (ia < 0) {
      dims[i] = b.getDim(ib);
      continue;
    }
    if (ib < 0) {
      dims[i] = a.getDim(ia);
      continue;
    }
    const sym::Expr &x = a.getDim(ia), &y = b.getDim(ib);
    if (!x || !y) {
      // Nothing is known about one side: the result is not either.
      dims[i] = sym::Expr();
      continue;
    }
    if (x == one) {
      dims[i] = y;
      continue;
    }
    if (y == one || x == y || ctx.provablyEqual(x, y)) {
      dims[i] = x;
      continue;
    }
    bool xNotOne = ctx.provablyNotEqual(x, one);
    bool yNotOne = ctx.provablyNotEqual(y, one);
    if (xNotOne && yNotOne && ctx.provablyNotEqual(x, y)) {
      if (loc)
        emitInferError(loc, opName)
            << "cannot broadcast dim " << x.str() << " with dim " << y.str()
            << " (shapes " << a.str() << " and " << b.str() << ")";
      return failure();
    }
    // Undecided: a side that cannot be 1 is the result (the other must equal
    // it or be 1); when both may be 1 the result is their max. Either way the
    // operands broadcast to the result, which ShapeContracts checks at run
    // time (relax.assert_dims "broadcast"), so no `?` is left.
    if (xNotOne && yNotOne)
      dims[i] = simplerDim(x, y);
    else if (xNotOne)
      dims[i] = x;
    else if (yNotOne)
      dims[i] = y;
    else
      dims[i] = sym::max(x, y);
  }
  return SymShape(dims);
}

FailureOr<int64_t> mlir::relax::normalizeAxis(std::optional<Location> loc,
                                              StringRef opName, int64_t axis,
                                              int64_t rank) {
  if (axis < -rank || axis >= rank) {
    if (loc)
      emitInferError(loc, opName)
          << "axis " << axis << " is out of range for rank " << rank;
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

LogicalResult mlir::relax::inferUnaryElementwise(
    std::optional<Location>, StringRef, Type input,
    SmallVectorImpl<Type> &results) {
  results.push_back(input);
  return success();
}

LogicalResult mlir::relax::inferBinaryBroadcast(
    std::optional<Location> loc, StringRef opName, Type lhs, Type rhs,
    bool boolResult, SmallVectorImpl<Type> &results) {
  auto a = cast<RelaxTensorType>(lhs), b = cast<RelaxTensorType>(rhs);
  if (a.getDtype() != b.getDtype())
    return inferFailure(loc, opName,
                        "operand dtypes differ (use relax.astype)");
  FailureOr<SymShape> shape =
      broadcastShapes(loc, opName, a.getShape(), b.getShape());
  if (failed(shape))
    return failure();
  Type dtype = boolResult ? IntegerType::get(lhs.getContext(), 1)
                          : a.getDtype();
  results.push_back(RelaxTensorType::get(*shape, dtype));
  return success();
}

FailureOr<SmallVector<int64_t>>
mlir::relax::normalizeAxes(std::optional<Location> loc, StringRef opName,
                           ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  // Original spelling of each normalised axis, to name both in the error.
  llvm::SmallDenseMap<int64_t, int64_t> seen;
  for (int64_t axis : axes) {
    FailureOr<int64_t> norm = normalizeAxis(loc, opName, axis, rank);
    if (failed(norm))
      return failure();
    auto [it, inserted] = seen.try_emplace(*norm, axis);
    if (!inserted) {
      if (loc)
        emitInferError(loc, opName)
            << "axis " << axis << " repeats axis " << it->second
            << " (both are dim " << *norm << " of rank " << rank << ")";
      return failure();
    }
    result.push_back(*norm);
  }
  llvm::sort(result);
  return result;
}

SymShape mlir::relax::reduceShape(const SymShape &shape, ArrayRef<int64_t> axes,
                                  bool keepdims) {
  if (!shape.hasRank())
    return SymShape::unranked();
  SmallVector<sym::Expr> dims;
  for (int64_t i = 0, e = shape.getRank(); i < e; ++i) {
    if (!llvm::is_contained(axes, i))
      dims.push_back(shape.getDim(i));
    else if (keepdims)
      dims.push_back(sym::Expr::constant(1));
  }
  return SymShape(dims);
}

FailureOr<sym::Expr> mlir::relax::unifyDimsOrError(std::optional<Location> loc,
                                                   StringRef opName,
                                                   const Twine &what,
                                                   const sym::Expr &a,
                                                   const sym::Expr &b) {
  FailureOr<sym::Expr> dim = unifyDims(a, b);
  if (failed(dim) && loc)
    emitInferError(loc, opName)
        << what << " mismatch: " << a.str() << " vs " << b.str();
  return dim;
}

std::optional<SmallVector<sym::Expr>> mlir::relax::undecidedBroadcastDims(
    ArrayRef<SmallVector<sym::Expr>> operandDims) {
  size_t rank = 0;
  for (const SmallVector<sym::Expr> &dims : operandDims)
    rank = std::max(rank, dims.size());
  const sym::Context &ctx = defaultSymContext();
  sym::Expr one = sym::Expr::constant(1);
  SmallVector<sym::Expr> result(rank);
  bool undecided = false;
  for (size_t i = 0; i < rank; ++i) {
    sym::Expr acc = one;
    for (const SmallVector<sym::Expr> &dims : operandDims) {
      // Right-aligned: an operand of lower rank has 1 here.
      size_t lead = rank - dims.size();
      sym::Expr d = i < lead ? one : dims[i - lead];
      if (!d)
        return std::nullopt;
      if (acc == one)
        acc = d;
      else if (d != one && !ctx.provablyEqual(acc, d)) {
        acc = ctx.simplify(sym::max(acc, d));
        undecided = true;
      }
    }
    result[i] = acc;
  }
  if (!undecided)
    return std::nullopt;
  return result;
}

LogicalResult mlir::relax::checkBroadcastableTo(std::optional<Location> loc,
                                                StringRef opName,
                                                StringRef what,
                                                const SymShape &from,
                                                const SymShape &to) {
  if (!from.hasRank() || !to.hasRank())
    return success();
  if (from.getRank() > to.getRank())
    return inferFailure(loc, opName,
                        Twine(what) + " of rank " + Twine(from.getRank()) +
                            " cannot broadcast to rank " + Twine(to.getRank()) +
                            " shape " + to.str());
  sym::Expr one = sym::Expr::constant(1);
  int64_t offset = to.getRank() - from.getRank();
  for (int64_t i = 0, e = from.getRank(); i < e; ++i) {
    const sym::Expr &x = from.getDim(i), &y = to.getDim(i + offset);
    if (!x || !y || x == one || x == y)
      continue;
    const sym::Context &ctx = defaultSymContext();
    if (ctx.provablyNotEqual(x, y) && ctx.provablyNotEqual(x, one))
      return inferFailure(loc, opName,
                          Twine(what) + " dim " + Twine(i) + " (" + x.str() +
                              ") cannot broadcast to " + y.str() + " (shape " +
                              from.str() + " to " + to.str() + ")");
  }
  return success();
}

LogicalResult mlir::relax::checkDtypeClass(std::optional<Location> loc,
                                           StringRef opName, Type dtype,
                                           DtypeClass cls) {
  bool isBool = dtype.isInteger(1);
  const char *wanted = nullptr;
  switch (cls) {
  case DtypeClass::Any:
    return success();
  case DtypeClass::Numeric:
    if (!isBool)
      return success();
    wanted = "a numeric (non-i1)";
    break;
  case DtypeClass::Float:
    if (isa<FloatType>(dtype))
      return success();
    wanted = "a floating-point";
    break;
  case DtypeClass::Integer:
    if (isa<IntegerType>(dtype) && !isBool)
      return success();
    wanted = "an integer (non-i1)";
    break;
  case DtypeClass::Bool:
    if (isBool)
      return success();
    wanted = "an i1";
    break;
  }
  if (loc)
    emitInferError(loc, opName)
        << "requires " << wanted << " dtype, got " << dtype;
  return failure();
}

Type mlir::relax::joinTypes(Type a, Type b, const sym::Context &ctx) {
  if (a == b)
    return a;
  if (auto ta = dyn_cast<TupleType>(a)) {
    auto tb = dyn_cast<TupleType>(b);
    if (!tb || ta.size() != tb.size())
      return {};
    SmallVector<Type> fields;
    for (auto [fa, fb] : llvm::zip(ta.getTypes(), tb.getTypes())) {
      Type joined = joinTypes(fa, fb, ctx);
      if (!joined)
        return {};
      fields.push_back(joined);
    }
    return TupleType::get(a.getContext(), fields);
  }
  auto ta = dyn_cast<RelaxTensorType>(a);
  auto tb = dyn_cast<RelaxTensorType>(b);
  if (!ta || !tb || ta.getDtype() != tb.getDtype())
    return {};
  if (!ta.hasRank() || !tb.hasRank() || ta.getRank() != tb.getRank())
    return ta.withShape(SymShape::unranked());
  SmallVector<sym::Expr> dims;
  for (auto [da, db] : llvm::zip(ta.getDims(), tb.getDims()))
    dims.push_back(da && db && ctx.provablyEqual(da, db) ? da : sym::Expr());
  return ta.withShape(SymShape(dims));
}

std::optional<std::string>
mlir::relax::explainNotHeldBy(Type actual, Type declared,
                              const sym::Context &ctx) {
  if (actual == declared)
    return std::nullopt;
  if (auto td = dyn_cast<TupleType>(declared)) {
    auto ta = dyn_cast<TupleType>(actual);
    if (!ta)
      return std::string("a tuple is declared");
    if (ta.size() != td.size())
      return "tuples of " + std::to_string(ta.size()) + " and " +
             std::to_string(td.size()) + " fields";
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(ta.getTypes(), td.getTypes())))
      if (std::optional<std::string> why =
              explainNotHeldBy(std::get<0>(pair), std::get<1>(pair), ctx))
        return "field " + std::to_string(i) + ": " + *why;
    return std::nullopt;
  }
  auto ta = dyn_cast<RelaxTensorType>(actual);
  auto td = dyn_cast<RelaxTensorType>(declared);
  if (!ta || !td)
    return std::string("different kinds of value");
  if (ta.getDtype() != td.getDtype())
    return std::string("different dtypes");
  if (!td.hasRank())
    return std::nullopt;
  if (!ta.hasRank())
    return std::string("the value's rank is unknown (match_cast it first)");
  if (ta.getRank() != td.getRank())
    return "rank " + std::to_string(ta.getRank()) + " is not rank " +
           std::to_string(td.getRank());
  for (auto [d, pair] :
       llvm::enumerate(llvm::zip(ta.getDims(), td.getDims()))) {
    auto [da, dd] = pair;
    if (da && dd && ctx.provablyNotEqual(da, dd))
      return "dim " + std::to_string(d) + " is " + da.str() +
             ", provably not " + dd.str();
  }
  return std::nullopt;
}
