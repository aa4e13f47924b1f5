//===- SymShape.h - Symbolic shapes shared by relax and tir -----*- C++ -*-===//
//
// A shape is either of unknown rank (`*`) or a list of dims, each a canonical
// symbolic expression or an anonymous unknown (`?`, a null sym::Expr). Both
// `!relax.tensor` and `!tir.buffer` carry one, and both use the same textual
// syntax, so the printer and the AsmParser-based parser live here.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_SUPPORT_SYMSHAPE_H
#define RELAXDIALECT_SUPPORT_SYMSHAPE_H

#include "RelaxDialect/Symbolic/SymbolicExpr.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir {
namespace relax {

/// A symbolic shape: unknown rank, or a list of (possibly unknown) dims.
class SymShape {
public:
  /// A shape of unknown rank, printed `*`.
  SymShape() = default;
  /// A shape of known rank; a null dim stands for an anonymous unknown (`?`).
  explicit SymShape(ArrayRef<sym::Expr> dims)
      : ranked(true), dims(dims.begin(), dims.end()) {}
  static SymShape unranked() { return SymShape(); }
  static SymShape fromStatic(ArrayRef<int64_t> sizes);

  bool hasRank() const { return ranked; }
  int64_t getRank() const { return dims.size(); }
  ArrayRef<sym::Expr> getDims() const { return dims; }
  const sym::Expr &getDim(unsigned i) const { return dims[i]; }

  /// True when every dim is an integer constant.
  bool isStatic() const;
  /// The constant sizes, or nullopt unless isStatic().
  std::optional<SmallVector<int64_t>> getStaticSizes() const;
  /// True when the rank is known and no dim is `?`.
  bool isFullyKnown() const;
  /// The product of the dims; null unless isFullyKnown().
  sym::Expr getNumElements() const;
  /// Sorted, unique names of the variables used by the dims.
  SmallVector<std::string> getVars() const;
  /// Substitutes variables in every dim.
  SymShape substitute(const llvm::StringMap<sym::Expr> &map) const;

  friend bool operator==(const SymShape &a, const SymShape &b) {
    return a.ranked == b.ranked && a.dims == b.dims;
  }
  friend bool operator!=(const SymShape &a, const SymShape &b) {
    return !(a == b);
  }
  friend llvm::hash_code hash_value(const SymShape &s);

  /// Prints `[n, 4 * m, ?]` or `*`.
  void print(llvm::raw_ostream &os) const;
  std::string str() const;

private:
  bool ranked = false;
  SmallVector<sym::Expr, 4> dims;
};

/// Prints a single dim (`?` for an unknown one).
void printSymDim(llvm::raw_ostream &os, const sym::Expr &dim);

/// Parses one symbolic expression from MLIR's token stream, e.g.
/// `n * 4 + (k + 31) floordiv 32` or `min(n, 128)`. Errors are located by the
/// parser. `allowUnknown` accepts `?` (returned as a null expression).
ParseResult parseSymExpr(AsmParser &parser, sym::Expr &result,
                         bool allowUnknown = false);

/// Parses `[d0, d1, ...]` or `*`.
ParseResult parseSymShape(AsmParser &parser, SymShape &result);
void printSymShape(AsmPrinter &printer, const SymShape &shape);

} // namespace relax
} // namespace mlir

namespace mlir {
/// Lets SymShape be a parameter of ODS-defined types and attributes.
template <>
struct FieldParser<relax::SymShape> {
  static FailureOr<relax::SymShape> parse(AsmParser &parser) {
    relax::SymShape shape;
    if (relax::parseSymShape(parser, shape))
      return failure();
    return shape;
  }
};
template <>
struct FieldParser<relax::sym::Expr> {
  static FailureOr<relax::sym::Expr> parse(AsmParser &parser) {
    relax::sym::Expr expr;
    if (relax::parseSymExpr(parser, expr))
      return failure();
    return expr;
  }
};
inline AsmPrinter &operator<<(AsmPrinter &printer,
                              const relax::SymShape &shape) {
  relax::printSymShape(printer, shape);
  return printer;
}
} // namespace mlir

#endif // RELAXDIALECT_SUPPORT_SYMSHAPE_H
