//===- SymbolicExpr.h - Symbolic integer shape expressions ------*- C++ -*-===//
//
// Relax tensor dimensions are integer expressions over named variables
// (`[n, 4 * m]`). This header is the engine the dialects ask about them:
// `Expr` is an immutable expression kept in a canonical polynomial normal form
// so that equal polynomials compare and print identically, and `Context`
// holds facts (bounds, divisibility) and answers comparison queries. Every
// query answers True/False only when it is proven; "Unknown" is always a
// permitted answer, a false proof never is. See docs/symbolic-shapes.md.
//
//===----------------------------------------------------------------------===//

#ifndef RELAXDIALECT_SYMBOLIC_SYMBOLICEXPR_H
#define RELAXDIALECT_SYMBOLIC_SYMBOLICEXPR_H

#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir::relax::sym {

namespace detail {
struct PolyNode;
} // namespace detail

/// An immutable symbolic integer expression in canonical form.
///
/// The value is a polynomial `sum(coeff * monomial) + constant` whose
/// monomials are sorted products of atoms (variables and canonical
/// `floordiv`/`mod`/`min`/`max` nodes). Copying is a reference-count bump.
/// A default-constructed Expr is null: it is also what an arithmetic
/// operation returns when a constant would leave the representable range
/// [-INT64_MAX, INT64_MAX]; null propagates through every operation and every
/// query on it answers "unknown".
class Expr {
public:
  Expr() = default;

  /// Builds a constant. INT64_MIN is outside the representable range (so
  /// that every value can be negated) and yields a null Expr.
  static Expr constant(int64_t value);
  /// Builds a variable; `name` must be an identifier that is not a keyword
  /// (`floordiv`, `ceildiv`, `mod`, `min`, `max`).
  static Expr var(llvm::StringRef name);

  explicit operator bool() const { return node != nullptr; }

  /// The value, if this expression is a constant.
  std::optional<int64_t> getConstant() const;
  /// True if this expression is exactly one variable.
  bool isVar() const;
  /// The variable name; empty unless isVar().
  llvm::StringRef getVarName() const;

  /// Prints the canonical text, which `parse` reads back to the same Expr.
  void print(llvm::raw_ostream &os) const;
  std::string str() const;

  /// Appends the names of all variables, sorted and without duplicates.
  /// Names already in `out` are kept and merged into that order.
  void collectVars(llvm::SmallVectorImpl<std::string> &out) const;

  /// Replaces variables by expressions; the result is canonical.
  Expr substitute(const llvm::StringMap<Expr> &map) const;

  /// Evaluates under `env`. nullopt if a variable is unbound, a divisor is
  /// zero, or an intermediate value overflows int64.
  std::optional<int64_t> evaluate(const llvm::StringMap<int64_t> &env) const;

  /// Structural equality of canonical forms (polynomial equality over atoms).
  friend bool operator==(const Expr &lhs, const Expr &rhs);
  friend bool operator!=(const Expr &lhs, const Expr &rhs) {
    return !(lhs == rhs);
  }
  friend llvm::hash_code hash_value(const Expr &expr);

  /// Total order on canonical forms (the order in which min/max operands and
  /// polynomial terms are kept). Returns <0, 0 or >0.
  static int compare(const Expr &lhs, const Expr &rhs);

  /// Internal: access to the node for the implementation files.
  const detail::PolyNode *getNode() const { return node.get(); }
  explicit Expr(std::shared_ptr<const detail::PolyNode> node)
      : node(std::move(node)) {}

private:
  std::shared_ptr<const detail::PolyNode> node;
};

bool operator==(const Expr &lhs, const Expr &rhs);
llvm::hash_code hash_value(const Expr &expr);

Expr operator+(const Expr &lhs, const Expr &rhs);
Expr operator-(const Expr &lhs, const Expr &rhs);
Expr operator*(const Expr &lhs, const Expr &rhs);
Expr operator-(const Expr &operand);
/// Convenience overloads with constants.
Expr operator+(const Expr &lhs, int64_t rhs);
Expr operator-(const Expr &lhs, int64_t rhs);
Expr operator*(const Expr &lhs, int64_t rhs);
Expr operator*(int64_t lhs, const Expr &rhs);

/// Sum of many expressions in one pass (sort once instead of a merge per
/// addition); the parser uses it for long sums.
Expr sum(llvm::ArrayRef<Expr> operands);

/// Floor division and modulo: `mod(a, b) = a - b * floorDiv(a, b)`, so the
/// result of `mod` has the sign of the divisor. A zero divisor is undefined
/// behaviour of the expression: such terms are kept unevaluated, evaluate()
/// reports them as nullopt, and rewrites may assume divisors are non-zero.
Expr floorDiv(const Expr &lhs, const Expr &rhs);
Expr ceilDiv(const Expr &lhs, const Expr &rhs);
Expr mod(const Expr &lhs, const Expr &rhs);
Expr min(const Expr &lhs, const Expr &rhs);
Expr max(const Expr &lhs, const Expr &rhs);

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Expr &expr);

/// Parses the textual syntax used inside types, e.g.
/// `n * 4 + (k + 31) floordiv 32`, `min(n, 128)`, `x mod 8`, `ceildiv`.
/// `*`, `floordiv`, `ceildiv` and `mod` share one precedence level and
/// associate to the left; unary minus binds tighter; `+`/`-` are lowest.
/// On error returns a null Expr and, when given, sets `*errorMessage` and
/// `*errorColumn` (0-based offset into `text`).
Expr parse(llvm::StringRef text, std::string *errorMessage = nullptr,
           unsigned *errorColumn = nullptr);

/// Three-valued answer of a query: True/False only when proven.
enum class Truth { False, True, Unknown };

/// Facts about variables and the queries that use them.
///
/// Every variable is assumed >= 0 unless setBounds says otherwise. Queries
/// first try interval arithmetic over the canonical form and fall back to an
/// exact integer emptiness check (MLIR's Presburger library) in which
/// non-linear monomials are opaque bounded unknowns. If the facts themselves
/// are contradictory, answers are vacuously proven and carry no meaning.
class Context {
public:
  /// Declares `lo <= var <= hi`; nullopt means unbounded on that side, so
  /// `setBounds(v, std::nullopt, std::nullopt)` lets `v` be negative.
  /// Replaces earlier bounds of `var`.
  void setBounds(llvm::StringRef var, std::optional<int64_t> lo,
                 std::optional<int64_t> hi);
  /// Declares `var mod divisor == 0` (divisor > 0; others are ignored).
  /// Several declarations combine (their least common multiple).
  void addDivisibility(llvm::StringRef var, int64_t divisor);

  /// Declared bounds of a variable, with the default lower bound 0 and
  /// tightened to the declared divisibility.
  std::optional<int64_t> varLowerBound(llvm::StringRef var) const;
  std::optional<int64_t> varUpperBound(llvm::StringRef var) const;
  /// The declared divisor of a variable (1 when none).
  int64_t varDivisor(llvm::StringRef var) const;

  /// Bounds by interval arithmetic; nullopt means none could be shown.
  std::optional<int64_t> lowerBound(const Expr &expr) const;
  std::optional<int64_t> upperBound(const Expr &expr) const;

  Truth isLT(const Expr &lhs, const Expr &rhs) const;
  Truth isLE(const Expr &lhs, const Expr &rhs) const;
  Truth isEQ(const Expr &lhs, const Expr &rhs) const;
  Truth isNE(const Expr &lhs, const Expr &rhs) const;
  Truth isGT(const Expr &lhs, const Expr &rhs) const { return isLT(rhs, lhs); }
  Truth isGE(const Expr &lhs, const Expr &rhs) const { return isLE(rhs, lhs); }

  bool provablyEqual(const Expr &lhs, const Expr &rhs) const {
    return isEQ(lhs, rhs) == Truth::True;
  }
  bool provablyNotEqual(const Expr &lhs, const Expr &rhs) const {
    return isEQ(lhs, rhs) == Truth::False;
  }

  /// Rewrites that need facts: drops min/max operands that are provably
  /// dominated, folds `x mod c -> x` and `x floordiv c -> 0` when
  /// `0 <= x < c` (and their shifted forms), and `mod` of a provable
  /// multiple to 0. The result is canonical and equal under the facts.
  Expr simplify(const Expr &expr) const;

private:
  struct VarFacts {
    std::optional<int64_t> lo = 0;
    std::optional<int64_t> hi;
    int64_t divisor = 1;
  };
  const VarFacts *lookup(llvm::StringRef var) const;
  /// Decides `expr >= 0` (True), `expr < 0` (False) or neither.
  Truth isNonNegative(const Expr &expr) const;

  llvm::StringMap<VarFacts> facts;
  friend class FactEncoder;
};

} // namespace mlir::relax::sym

namespace llvm {
/// Lets Expr be a DenseMap/DenseSet key. The empty and tombstone keys are
/// distinct sentinel nodes that are never produced by the builders.
template <>
struct DenseMapInfo<mlir::relax::sym::Expr> {
  static mlir::relax::sym::Expr getEmptyKey();
  static mlir::relax::sym::Expr getTombstoneKey();
  static unsigned getHashValue(const mlir::relax::sym::Expr &expr);
  static bool isEqual(const mlir::relax::sym::Expr &lhs,
                      const mlir::relax::sym::Expr &rhs);
};
} // namespace llvm

template <>
struct std::hash<mlir::relax::sym::Expr> {
  size_t operator()(const mlir::relax::sym::Expr &expr) const {
    return static_cast<size_t>(hash_value(expr));
  }
};

#endif // RELAXDIALECT_SYMBOLIC_SYMBOLICEXPR_H
