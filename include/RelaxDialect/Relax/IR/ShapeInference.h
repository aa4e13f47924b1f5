//===- ShapeInference.h - Symbolic shape inference helpers ------*- C++ -*-===//
//
// The shared rules every high-level op's inferReturnTypes is built from:
// broadcasting, dim agreement and the compatibility of a declared result type
// with the inferred one. Dims that must agree are compared with the symbolic
// engine: provably different is an error naming both expressions, not
// provable either way yields an unknown dim (`?`), never a silent assumption.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_SHAPEINFERENCE_H
#define RELAXDIALECT_RELAX_IR_SHAPEINFERENCE_H

#include "RelaxDialect/Relax/IR/RelaxDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/TypeRange.h"

namespace mlir {
namespace relax {

/// A declared result type is compatible with the inferred one when the dtypes
/// match and, where the declared rank is known, the ranks match and every
/// declared dim is `?` or canonically equal to the inferred dim. A declared
/// `*` accepts any inferred shape.
bool isCompatibleType(Type inferred, Type declared);
bool areCompatibleReturnTypes(TypeRange inferred, TypeRange declared);

/// The join of two types a value may have (the branches of a relax.if):
/// tensors of one dtype join dim by dim, a dim provably equal in both
/// kept and any other dim `?`, different ranks giving unknown rank; tuples
/// join field by field; other types only with themselves. Null when the two
/// cannot be joined (different kinds, dtypes or tuple sizes).
Type joinTypes(Type a, Type b, const sym::Context &ctx);

/// Why a value of type `actual` cannot be given type `declared` (a relax.if
/// result): different kinds, dtypes, ranks or tuple sizes, or a declared
/// dim provably different from the actual one. std::nullopt when it can;
/// dims not provably equal are then checked at run time.
std::optional<std::string> explainNotHeldBy(Type actual, Type declared,
                                            const sym::Context &ctx);

/// Emits an error at `loc` (when present) prefixed by the op name.
InFlightDiagnostic emitInferError(std::optional<Location> loc,
                                  StringRef opName);
/// Returns failure after emitting `message` at `loc`.
LogicalResult inferFailure(std::optional<Location> loc, StringRef opName,
                           const Twine &message);

/// The context used when no function facts are at hand: variables >= 0.
const sym::Context &defaultSymContext();

/// The facts in force at `op`: the `sym_bounds` of its enclosing relax.func
/// (FuncOp::getSymContext), or the default context outside any function.
/// Verifiers and rewrites that have an op use this; inferReturnTypes has
/// only a location and uses the default context.
sym::Context symContextAt(Operation *op);

/// Result of merging two dims that must be equal: the common dim, a null
/// (unknown) dim when equality cannot be decided, or failure when they are
/// provably different.
FailureOr<sym::Expr> unifyDims(const sym::Expr &a, const sym::Expr &b);

/// Of two dims that must be equal, the one to keep in a result type: a
/// constant, else a bare variable, else the shorter expression (`h` rather
/// than `(h floordiv 2) * 2`); the other is checked against it at run time.
sym::Expr simplerDim(const sym::Expr &a, const sym::Expr &b);

/// numpy broadcasting of two shapes (right-aligned). Unknown rank on either
/// side gives unknown rank. Dims whose relation cannot be decided give a
/// known result dim (the side that cannot be 1, else the max of both) whose
/// broadcast contract is checked at run time (see ShapeContracts); only a
/// `?` operand dim gives a `?` result dim.
FailureOr<SymShape> broadcastShapes(std::optional<Location> loc,
                                    StringRef opName, const SymShape &a,
                                    const SymShape &b);

/// Normalises a possibly negative axis against `rank`; fails with an error.
FailureOr<int64_t> normalizeAxis(std::optional<Location> loc,
                                 StringRef opName, int64_t axis, int64_t rank);

/// Common inference entry points used by the op definitions.
LogicalResult inferUnaryElementwise(std::optional<Location> loc,
                                    StringRef opName, Type input,
                                    SmallVectorImpl<Type> &results);
LogicalResult inferBinaryBroadcast(std::optional<Location> loc,
                                   StringRef opName, Type lhs, Type rhs,
                                   bool boolResult,
                                   SmallVectorImpl<Type> &results);

/// Reduction axes: normalises possibly negative `axes` against `rank`,
/// rejects out-of-range and repeated axes (naming both spellings), and
/// returns them sorted ascending.
FailureOr<SmallVector<int64_t>> normalizeAxes(std::optional<Location> loc,
                                              StringRef opName,
                                              ArrayRef<int64_t> axes,
                                              int64_t rank);

/// The shape left after reducing `shape` over the sorted, normalised `axes`:
/// reduced dims are dropped, or set to 1 with `keepdims`. Unknown rank stays
/// unknown rank.
SymShape reduceShape(const SymShape &shape, ArrayRef<int64_t> axes,
                     bool keepdims);

/// Two dims that must be equal: like unifyDims, but a provable difference is
/// reported as "<what> mismatch: <a> vs <b>".
FailureOr<sym::Expr> unifyDimsOrError(std::optional<Location> loc,
                                      StringRef opName, const Twine &what,
                                      const sym::Expr &a, const sym::Expr &b);

/// Checks that `from` broadcasts to `to` (numpy rules, right-aligned, `to`
/// unchanged): each dim of `from` is 1, equal to the target dim, or not
/// provably different from it. `what` names `from` in the error. Unknown rank
/// on either side is accepted.
LogicalResult checkBroadcastableTo(std::optional<Location> loc,
                                   StringRef opName, StringRef what,
                                   const SymShape &from, const SymShape &to);

/// Dtype families an elementwise op may accept: Float (f16, bf16, f32, f64),
/// Numeric (every relax dtype but i1), Integer (the integer dtypes but i1),
/// Bool (i1) or Any.
enum class DtypeClass { Any, Numeric, Float, Integer, Bool };
/// Fails with "<op> requires a ... dtype, got '<dtype>'" unless `dtype` is
/// in `cls`.
LogicalResult checkDtypeClass(std::optional<Location> loc, StringRef opName,
                              Type dtype, DtypeClass cls);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_IR_SHAPEINFERENCE_H
