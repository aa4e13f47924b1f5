//===- ExprNodes.h - Internal node layout of symbolic expressions -*- C++ -*-=//
//
// Private to lib/Symbolic: the polynomial/atom node structures behind
// sym::Expr, and the checked-arithmetic helpers every file shares. Kept out
// of the public header so that users cannot build non-canonical nodes.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_LIB_SYMBOLIC_EXPRNODES_H
#define RELAX_LIB_SYMBOLIC_EXPRNODES_H

#include "RelaxDialect/Symbolic/SymbolicExpr.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir::relax::sym::detail {

enum class AtomKind : uint8_t { Var, FloorDiv, Mod, Min, Max };

/// A non-polynomial building block: a variable, or an operator node whose
/// operands are canonical expressions. floordiv/mod have two operands,
/// min/max two or more (sorted, unique: they are associative/commutative).
struct AtomNode {
  AtomKind kind;
  std::string name;
  llvm::SmallVector<Expr, 2> operands;
  size_t hash = 0;
};
using Atom = std::shared_ptr<const AtomNode>;

/// coeff * (product of factors). Factors are sorted by compareAtoms and may
/// repeat (x * x). coeff is never zero.
struct Term {
  llvm::SmallVector<Atom, 2> factors;
  int64_t coeff;
};

/// sum(terms) + constant, terms sorted by compareMonomials with pairwise
/// distinct monomials. `sentinel` marks DenseMapInfo's special keys.
struct PolyNode {
  llvm::SmallVector<Term, 2> terms;
  int64_t constant = 0;
  size_t hash = 0;
  bool sentinel = false;
};

int compareAtoms(const AtomNode &lhs, const AtomNode &rhs);
/// Orders monomials: higher degree first, then factors lexicographically.
int compareMonomials(llvm::ArrayRef<Atom> lhs, llvm::ArrayRef<Atom> rhs);
bool equalAtoms(const AtomNode &lhs, const AtomNode &rhs);

/// Builds the canonical Expr of a single atom with coefficient 1.
Expr fromAtom(Atom atom);
/// If `expr` is `1 * atom` exactly, that atom.
const AtomNode *getSingleAtom(const Expr &expr);

/// Checked int64 arithmetic. The representable range is symmetric,
/// [-INT64_MAX, INT64_MAX], so negation never overflows; INT64_MIN counts
/// as overflow.
inline bool inRange(int64_t v) { return v != INT64_MIN; }
inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r) || !inRange(r))
    return std::nullopt;
  return r;
}
inline std::optional<int64_t> checkedSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r) || !inRange(r))
    return std::nullopt;
  return r;
}
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) || !inRange(r))
    return std::nullopt;
  return r;
}
/// Floor division/modulo; b != 0 and the operands in range, so the quotient
/// cannot overflow.
inline int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
inline int64_t floorModInt(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

} // namespace mlir::relax::sym::detail

#endif // RELAX_LIB_SYMBOLIC_EXPRNODES_H
