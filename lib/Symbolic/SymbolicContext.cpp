//===- SymbolicContext.cpp - Facts, bounds and comparison queries ---------===//
//
// Answers questions about symbolic expressions under facts about their
// variables. Interval arithmetic over the canonical form is tried first
// because it is cheap; when it cannot decide, the question is handed to
// MLIR's exact integer Presburger solver (see PresburgerEncoding below).
// Every step over-approximates the set of possible values, so an answer of
// True or False is a proof and "Unknown" is the only way to be imprecise.
//
//===----------------------------------------------------------------------===//

#include "ExprNodes.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerSpace.h"

#include <algorithm>
#include <numeric>

using namespace mlir::relax::sym;
using namespace mlir::relax::sym::detail;

//===----------------------------------------------------------------------===//
// Facts
//===----------------------------------------------------------------------===//

void Context::setBounds(llvm::StringRef var, std::optional<int64_t> lo,
                        std::optional<int64_t> hi) {
  VarFacts &f = facts[var];
  f.lo = lo && inRange(*lo) ? lo : std::nullopt;
  f.hi = hi && inRange(*hi) ? hi : std::nullopt;
}

void Context::addDivisibility(llvm::StringRef var, int64_t divisor) {
  if (divisor <= 0)
    return;
  VarFacts &f = facts[var];
  int64_t g = std::gcd(f.divisor, divisor);
  if (auto l = checkedMul(f.divisor / g, divisor))
    f.divisor = *l;
}

const Context::VarFacts *Context::lookup(llvm::StringRef var) const {
  auto it = facts.find(var);
  return it == facts.end() ? nullptr : &it->second;
}

int64_t Context::varDivisor(llvm::StringRef var) const {
  const VarFacts *f = lookup(var);
  return f ? f->divisor : 1;
}

std::optional<int64_t> Context::varLowerBound(llvm::StringRef var) const {
  const VarFacts *f = lookup(var);
  if (!f)
    return 0;
  if (!f->lo || f->divisor == 1)
    return f->lo;
  // Round up to the next multiple of the divisor.
  int64_t d = f->divisor;
  int64_t q = floorDivInt(*f->lo, d);
  if (floorModInt(*f->lo, d) != 0)
    ++q;
  if (auto r = checkedMul(q, d))
    return r;
  return f->lo;
}

std::optional<int64_t> Context::varUpperBound(llvm::StringRef var) const {
  const VarFacts *f = lookup(var);
  if (!f || !f->hi || f->divisor == 1)
    return f ? f->hi : std::nullopt;
  if (auto r = checkedMul(floorDivInt(*f->hi, f->divisor), f->divisor))
    return r;
  return f->hi;
}

//===----------------------------------------------------------------------===//
// Interval arithmetic
//===----------------------------------------------------------------------===//

namespace {
/// An int64 extended with -inf/+inf, held in a wider scalar: finite values
/// are within [-INT64_MAX, INT64_MAX] and anything beyond saturates to the
/// infinity of the true result's sign, which only ever widens an interval.
/// (A two-field struct here was miscompiled by GCC 12.2 at -O3.)
using XInt = __int128;
constexpr XInt kPosInf = static_cast<XInt>(1) << 100;
constexpr XInt kNegInf = -kPosInf;

bool isInf(XInt x) { return x == kPosInf || x == kNegInf; }
XInt clampX(XInt x) {
  if (x > INT64_MAX)
    return kPosInf;
  if (x < -INT64_MAX)
    return kNegInf;
  return x;
}

XInt addX(XInt a, XInt b) {
  if (isInf(a))
    return a; // -inf + +inf never arises: lo+lo and hi+hi only.
  if (isInf(b))
    return b;
  return clampX(a + b);
}

XInt mulX(XInt a, XInt b) {
  if (a == 0 || b == 0)
    return 0; // 0 * inf is 0 for interval endpoints.
  if (isInf(a) || isInf(b))
    return (a > 0) == (b > 0) ? kPosInf : kNegInf;
  return clampX(a * b);
}

struct Interval {
  XInt lo = kNegInf, hi = kPosInf;
  static Interval point(int64_t v) { return {v, v}; }
};

Interval addI(const Interval &a, const Interval &b) {
  return {addX(a.lo, b.lo), addX(a.hi, b.hi)};
}

Interval mulI(const Interval &a, const Interval &b) {
  XInt c[4] = {mulX(a.lo, b.lo), mulX(a.lo, b.hi), mulX(a.hi, b.lo),
               mulX(a.hi, b.hi)};
  return {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
}

Interval negI(const Interval &a) { return {-a.hi, -a.lo}; }

/// floor(x / d) on finite values, as an XInt.
XInt floorDivX(XInt x, XInt d) {
  return floorDivInt(static_cast<int64_t>(x), static_cast<int64_t>(d));
}

/// floor(e / b) for b >= 1 everywhere in its interval.
Interval floorDivPositive(const Interval &e, const Interval &b) {
  Interval r;
  // Lower end: a negative numerator is smallest over the smallest divisor, a
  // non-negative one over the largest.
  if (isInf(e.lo))
    r.lo = kNegInf;
  else if (e.lo < 0)
    r.lo = floorDivX(e.lo, b.lo);
  else
    r.lo = isInf(b.hi) ? 0 : floorDivX(e.lo, b.hi);
  if (isInf(e.hi))
    r.hi = kPosInf;
  else if (e.hi >= 0)
    r.hi = floorDivX(e.hi, b.lo);
  else
    r.hi = isInf(b.hi) ? -1 : floorDivX(e.hi, b.hi);
  return r;
}
} // namespace

/// Interval bounds of a canonical expression under `ctx`.
static Interval intervalOf(const Context &ctx, const Expr &e);

/// gcd of everything `e` is known to be a multiple of (0 for the zero
/// polynomial).
static int64_t knownDivisor(const Context &ctx, const Expr &e) {
  const PolyNode &p = *e.getNode();
  int64_t g = p.constant < 0 ? -p.constant : p.constant;
  for (const Term &t : p.terms) {
    int64_t m = t.coeff < 0 ? -t.coeff : t.coeff;
    for (const Atom &f : t.factors) {
      if (f->kind != AtomKind::Var)
        continue;
      if (auto r = checkedMul(m, ctx.varDivisor(f->name)))
        m = *r;
    }
    g = std::gcd(g, m);
  }
  return g;
}

static Interval atomInterval(const Context &ctx, const AtomNode &a) {
  switch (a.kind) {
  case AtomKind::Var: {
    Interval r;
    if (auto lo = ctx.varLowerBound(a.name))
      r.lo = *lo;
    if (auto hi = ctx.varUpperBound(a.name))
      r.hi = *hi;
    return r;
  }
  case AtomKind::FloorDiv: {
    Interval e = intervalOf(ctx, a.operands[0]);
    Interval b = intervalOf(ctx, a.operands[1]);
    if (b.lo >= 1)
      return floorDivPositive(e, b);
    if (b.hi <= -1) // floor(e / b) == floor(-e / -b).
      return floorDivPositive(negI(e), negI(b));
    return Interval();
  }
  case AtomKind::Mod: {
    Interval e = intervalOf(ctx, a.operands[0]);
    Interval b = intervalOf(ctx, a.operands[1]);
    if (auto c = a.operands[1].getConstant()) {
      int64_t d = knownDivisor(ctx, a.operands[0]);
      if (*c != 0 && d != 0 && d % *c == 0)
        return Interval::point(0);
    }
    if (b.lo >= 1) {
      Interval r{0, isInf(b.hi) ? kPosInf : b.hi - 1};
      // A non-negative numerator smaller than every divisor is unchanged.
      if (e.lo >= 0) {
        if (e.hi < b.lo)
          return e;
        r.hi = std::min(r.hi, e.hi);
      }
      return r;
    }
    if (b.hi <= -1)
      return {isInf(b.lo) ? kNegInf : b.lo + 1, 0};
    // |e mod b| < |b| whatever the signs.
    if (!isInf(b.lo) && !isInf(b.hi)) {
      XInt m = std::max(-b.lo, b.hi);
      return {1 - m, m - 1};
    }
    return Interval();
  }
  case AtomKind::Min:
  case AtomKind::Max: {
    bool isMin = a.kind == AtomKind::Min;
    Interval r = intervalOf(ctx, a.operands[0]);
    for (const Expr &op : llvm::drop_begin(a.operands)) {
      Interval o = intervalOf(ctx, op);
      if (isMin) {
        r.lo = std::min(r.lo, o.lo);
        r.hi = std::min(r.hi, o.hi);
      } else {
        r.lo = std::max(r.lo, o.lo);
        r.hi = std::max(r.hi, o.hi);
      }
    }
    return r;
  }
  }
  llvm_unreachable("unknown atom kind");
}

static Interval monomialInterval(const Context &ctx,
                                 llvm::ArrayRef<Atom> factors) {
  Interval r = Interval::point(1);
  for (size_t i = 0; i < factors.size();) {
    Interval f = atomInterval(ctx, *factors[i]);
    // Factors are sorted, so a square is two adjacent equal atoms: x * x is
    // non-negative whatever the sign of x.
    if (i + 1 < factors.size() && equalAtoms(*factors[i], *factors[i + 1])) {
      Interval sq = mulI(f, f);
      sq.lo = std::max<XInt>(sq.lo, 0);
      r = mulI(r, sq);
      i += 2;
      continue;
    }
    r = mulI(r, f);
    ++i;
  }
  return r;
}

static Interval intervalOf(const Context &ctx, const Expr &e) {
  const PolyNode &p = *e.getNode();
  Interval r = Interval::point(p.constant);
  for (const Term &t : p.terms)
    r = addI(r, mulI(Interval::point(t.coeff),
                     monomialInterval(ctx, t.factors)));
  return r;
}

std::optional<int64_t> Context::lowerBound(const Expr &expr) const {
  if (!expr)
    return std::nullopt;
  Interval r = intervalOf(*this, expr);
  if (isInf(r.lo))
    return std::nullopt;
  return static_cast<int64_t>(r.lo);
}

std::optional<int64_t> Context::upperBound(const Expr &expr) const {
  if (!expr)
    return std::nullopt;
  Interval r = intervalOf(*this, expr);
  if (isInf(r.hi))
    return std::nullopt;
  return static_cast<int64_t>(r.hi);
}

//===----------------------------------------------------------------------===//
// Presburger encoding
//===----------------------------------------------------------------------===//

namespace mlir::relax::sym {
/// Translates facts and expressions into linear integer constraints.
///
/// Each distinct monomial becomes one integer column. Variables carry their
/// declared bounds and divisibility (`v = d * k`). `floordiv`/`mod` by a
/// positive constant get their exact defining constraints
/// (`c * q <= e <= c * q + c - 1`, `r = e - c * q`). Everything else
/// (products, symbolic divisors, min/max) is an opaque column bounded by
/// its interval and by the linear half of its definition (`min <= each
/// operand`). Dropping constraints only enlarges the set of solutions, so an
/// empty system is a proof about the real expressions.
class FactEncoder {
public:
  explicit FactEncoder(const Context &ctx) : ctx(ctx) {}

  /// A linear form `sum(coeffs[i] * col_i) + constant`.
  struct Linear {
    llvm::SmallVector<int64_t, 8> coeffs;
    int64_t constant = 0;
  };

  /// Linear form of `e` over (new) columns; nullopt on coefficient overflow.
  std::optional<Linear> linearize(const Expr &e) {
    Linear out;
    out.constant = e.getNode()->constant;
    for (const Term &t : e.getNode()->terms) {
      unsigned col = columnFor(t.factors);
      if (out.coeffs.size() <= col)
        out.coeffs.resize(col + 1, 0);
      auto c = checkedAdd(out.coeffs[col], t.coeff);
      if (!c)
        return std::nullopt;
      out.coeffs[col] = *c;
    }
    return out;
  }

  /// True if the facts together with `row >= 0` (or `row == 0`) have no
  /// integer solution.
  bool isEmptyWith(const Linear &row, bool equality) const {
    using namespace mlir::presburger;
    IntegerPolyhedron poly(PresburgerSpace::getSetSpace(numCols));
    auto add = [&](const Linear &l, bool eq) {
      llvm::SmallVector<int64_t, 16> dense(numCols + 1, 0);
      for (size_t i = 0; i < l.coeffs.size(); ++i)
        dense[i] = l.coeffs[i];
      dense[numCols] = l.constant;
      if (eq)
        poly.addEquality(dense);
      else
        poly.addInequality(dense);
    };
    for (const Linear &l : inequalities)
      add(l, false);
    for (const Linear &l : equalities)
      add(l, true);
    add(row, equality);
    return poly.isIntegerEmpty();
  }

private:
  unsigned newColumn() { return numCols++; }

  static Linear column(unsigned col, int64_t coeff, int64_t constant) {
    Linear l;
    l.coeffs.resize(col + 1, 0);
    l.coeffs[col] = coeff;
    l.constant = constant;
    return l;
  }

  /// a - b, or nullopt on overflow.
  static std::optional<Linear> subtract(const Linear &a, const Linear &b) {
    Linear r;
    r.coeffs.resize(std::max(a.coeffs.size(), b.coeffs.size()), 0);
    for (size_t i = 0; i < r.coeffs.size(); ++i) {
      int64_t x = i < a.coeffs.size() ? a.coeffs[i] : 0;
      int64_t y = i < b.coeffs.size() ? b.coeffs[i] : 0;
      auto d = checkedSub(x, y);
      if (!d)
        return std::nullopt;
      r.coeffs[i] = *d;
    }
    auto c = checkedSub(a.constant, b.constant);
    if (!c)
      return std::nullopt;
    r.constant = *c;
    return r;
  }

  void addGE(const std::optional<Linear> &a, const std::optional<Linear> &b) {
    if (!a || !b)
      return;
    if (auto d = subtract(*a, *b))
      inequalities.push_back(std::move(*d));
  }

  void addIntervalBounds(unsigned col, const Interval &iv) {
    if (!isInf(iv.lo))
      inequalities.push_back(column(col, 1, -static_cast<int64_t>(iv.lo)));
    if (!isInf(iv.hi))
      inequalities.push_back(column(col, -1, static_cast<int64_t>(iv.hi)));
  }

  unsigned columnFor(llvm::ArrayRef<Atom> factors) {
    for (auto &[key, col] : monomialColumns)
      if (compareMonomials(key, factors) == 0)
        return col;
    unsigned col = newColumn();
    monomialColumns.emplace_back(
        llvm::SmallVector<Atom, 2>(factors.begin(), factors.end()), col);
    addIntervalBounds(col, monomialInterval(ctx, factors));
    if (factors.size() == 1)
      defineAtom(col, *factors.front());
    return col;
  }

  /// Adds the linear constraints that the value of atom `a` in column `col`
  /// is known to satisfy.
  void defineAtom(unsigned col, const AtomNode &a) {
    std::optional<Linear> self = column(col, 1, 0);
    switch (a.kind) {
    case AtomKind::Var: {
      int64_t d = ctx.varDivisor(a.name);
      if (d > 1) { // v - d * k == 0.
        unsigned k = newColumn();
        Linear eq = column(k, -d, 0);
        eq.coeffs[col] = 1;
        equalities.push_back(std::move(eq));
      }
      return;
    }
    case AtomKind::FloorDiv:
    case AtomKind::Mod: {
      const Expr &num = a.operands[0], &den = a.operands[1];
      std::optional<int64_t> c = den.getConstant();
      if (c && *c > 0) {
        std::optional<Linear> e = linearize(num);
        if (!e)
          return;
        if (a.kind == AtomKind::FloorDiv) {
          // e - c * q >= 0 and c * q + c - 1 - e >= 0.
          std::optional<Linear> cq = column(col, *c, 0);
          addGE(e, cq);
          addGE(column(col, *c, *c - 1), e);
          return;
        }
        // r == e - c * q where q is the canonical floordiv, encoded (and
        // shared with any use of it in the query) by linearize.
        Expr q = floorDiv(num, den);
        std::optional<Linear> ql = q ? linearize(q * *c) : std::nullopt;
        if (!ql)
          return;
        if (auto eMinusCq = subtract(*e, *ql))
          if (auto eq = subtract(*self, *eMinusCq))
            equalities.push_back(std::move(*eq));
        return;
      }
      // Symbolic divisor: only the parts of the definition that are linear.
      Interval b = intervalOf(ctx, den), n = intervalOf(ctx, num);
      if (b.lo < 1 || n.lo < 0)
        return;
      std::optional<Linear> e = linearize(num);
      if (a.kind == AtomKind::FloorDiv) {
        addGE(e, self); // 0 <= q <= e when e >= 0 and b >= 1.
        return;
      }
      addGE(e, self); // 0 <= r <= e and r <= b - 1.
      std::optional<Linear> bl = linearize(den);
      if (bl) {
        bl->constant -= 1;
        addGE(bl, self);
      }
      return;
    }
    case AtomKind::Min:
    case AtomKind::Max:
      for (const Expr &op : a.operands) {
        std::optional<Linear> o = linearize(op);
        if (a.kind == AtomKind::Min)
          addGE(o, self);
        else
          addGE(self, o);
      }
      return;
    }
  }

  const Context &ctx;
  unsigned numCols = 0;
  std::vector<std::pair<llvm::SmallVector<Atom, 2>, unsigned>>
      monomialColumns;
  std::vector<Linear> inequalities, equalities;
};
} // namespace mlir::relax::sym

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

Truth Context::isNonNegative(const Expr &expr) const {
  if (!expr)
    return Truth::Unknown;
  Interval iv = intervalOf(*this, expr);
  if (iv.lo >= 0)
    return Truth::True;
  if (iv.hi < 0)
    return Truth::False;
  FactEncoder enc(*this);
  std::optional<FactEncoder::Linear> l = enc.linearize(expr);
  if (!l || l->constant == INT64_MIN)
    return Truth::Unknown;
  // expr <= -1, i.e. -expr - 1 >= 0, infeasible => expr >= 0.
  FactEncoder::Linear neg = *l;
  for (int64_t &c : neg.coeffs)
    c = -c;
  neg.constant = -l->constant - 1;
  if (inRange(l->constant) && enc.isEmptyWith(neg, false))
    return Truth::True;
  if (enc.isEmptyWith(*l, false))
    return Truth::False;
  return Truth::Unknown;
}

Truth Context::isLE(const Expr &lhs, const Expr &rhs) const {
  return isNonNegative(rhs - lhs);
}

Truth Context::isLT(const Expr &lhs, const Expr &rhs) const {
  return isNonNegative(rhs - lhs - 1);
}

Truth Context::isEQ(const Expr &lhs, const Expr &rhs) const {
  Expr d = lhs - rhs;
  if (!d)
    return Truth::Unknown;
  if (auto c = d.getConstant())
    return *c == 0 ? Truth::True : Truth::False;
  Interval iv = intervalOf(*this, d);
  if (iv.lo > 0 || iv.hi < 0)
    return Truth::False;
  if (iv.lo == 0 && iv.hi == 0)
    return Truth::True;
  // d's non-constant part is a multiple of g; if g does not divide the
  // constant, d cannot be 0.
  int64_t g = knownDivisor(*this, d - d.getNode()->constant);
  if (g > 1 && d.getNode()->constant % g != 0)
    return Truth::False;
  FactEncoder enc(*this);
  std::optional<FactEncoder::Linear> l = enc.linearize(d);
  if (!l || !inRange(l->constant - 1) || !inRange(l->constant + 1))
    return Truth::Unknown;
  if (enc.isEmptyWith(*l, /*equality=*/true))
    return Truth::False;
  FactEncoder::Linear pos = *l, neg = *l;
  pos.constant -= 1; // d - 1 >= 0
  for (int64_t &c : neg.coeffs)
    c = -c;
  neg.constant = -l->constant - 1; // -d - 1 >= 0
  if (enc.isEmptyWith(pos, false) && enc.isEmptyWith(neg, false))
    return Truth::True;
  return Truth::Unknown;
}

Truth Context::isNE(const Expr &lhs, const Expr &rhs) const {
  switch (isEQ(lhs, rhs)) {
  case Truth::True:
    return Truth::False;
  case Truth::False:
    return Truth::True;
  case Truth::Unknown:
    return Truth::Unknown;
  }
  llvm_unreachable("bad truth");
}

//===----------------------------------------------------------------------===//
// Context-dependent simplification
//===----------------------------------------------------------------------===//

/// If `num` is known to lie in [k * c, k * c + c) for c > 0, that k.
static std::optional<int64_t> constantQuotient(const Context &ctx,
                                               const Expr &num, int64_t c) {
  auto lo = ctx.lowerBound(num), hi = ctx.upperBound(num);
  if (!lo || !hi)
    return std::nullopt;
  int64_t k = floorDivInt(*lo, c);
  if (floorDivInt(*hi, c) != k)
    return std::nullopt;
  return k;
}

/// `shift` such that every term of `num + c * shift` has its coefficient in
/// [0, c) (`nonNegative`) or in (-c, 0]. The canonical form keeps balanced
/// coefficients inside `mod c`/`floordiv c`; these two other members of the
/// same residue class are what a range fold may need, e.g. `(-n + 3) mod 2`
/// with 0 <= n <= 1 is stored as `(n + 1) mod 2`.
static Expr coefficientShift(const Expr &num, int64_t c, bool nonNegative) {
  Expr shift = Expr::constant(0);
  for (const Term &t : num.getNode()->terms) {
    // coeff + c * k lands in [0, c) for k = -floor(coeff / c); one more -1
    // moves a non-zero residue into (-c, 0].
    int64_t k = -floorDivInt(t.coeff, c);
    if (!nonNegative && floorModInt(t.coeff, c) != 0)
      k -= 1;
    if (k == 0)
      continue;
    Expr monomial = Expr::constant(k);
    for (const Atom &f : t.factors)
      monomial = monomial * fromAtom(f);
    shift = shift + monomial;
  }
  return shift;
}

static Expr simplifyAtom(const Context &ctx, const Atom &atom) {
  const AtomNode &a = *atom;
  if (a.kind == AtomKind::Var)
    return fromAtom(atom);
  llvm::SmallVector<Expr, 2> ops;
  for (const Expr &op : a.operands)
    ops.push_back(ctx.simplify(op));
  switch (a.kind) {
  case AtomKind::FloorDiv:
  case AtomKind::Mod: {
    bool isDiv = a.kind == AtomKind::FloorDiv;
    const Expr &num = ops[0], &den = ops[1];
    if (auto c = den.getConstant(); c && *c > 0 && num) {
      // floor(num / c) == floor(shifted / c) - shift and
      // num mod c == shifted mod c, for shifted = num + c * shift.
      for (Expr shift : {Expr::constant(0), coefficientShift(num, *c, true),
                         coefficientShift(num, *c, false)}) {
        Expr shifted = num + shift * *c;
        if (!shifted)
          continue;
        auto k = constantQuotient(ctx, shifted, *c);
        if (!k)
          continue;
        // Null only on overflow; then another representative may still do.
        if (Expr folded = isDiv ? Expr::constant(*k) - shift
                                : shifted - Expr::constant(*k) * *c)
          return folded;
      }
    } else if (ctx.isLE(Expr::constant(0), num) == Truth::True &&
               ctx.isLT(num, den) == Truth::True) {
      return isDiv ? Expr::constant(0) : num;
    }
    Expr rebuilt = isDiv ? floorDiv(num, den) : mod(num, den);
    if (!isDiv && rebuilt && !rebuilt.getConstant() &&
        ctx.isEQ(rebuilt, Expr::constant(0)) == Truth::True)
      return Expr::constant(0);
    return rebuilt;
  }
  case AtomKind::Min:
  case AtomKind::Max: {
    bool isMin = a.kind == AtomKind::Min;
    // Drop every operand some other live operand provably dominates.
    llvm::SmallVector<bool, 4> dead(ops.size(), false);
    for (size_t i = 0; i < ops.size(); ++i) {
      for (size_t j = 0; j < ops.size() && !dead[i]; ++j) {
        if (i == j || dead[j])
          continue;
        // j dominates i: for min, ops[j] <= ops[i].
        Truth t = isMin ? ctx.isLE(ops[j], ops[i]) : ctx.isLE(ops[i], ops[j]);
        if (t == Truth::True)
          dead[i] = true;
      }
    }
    Expr acc;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (dead[i])
        continue;
      acc = !acc ? ops[i] : (isMin ? min(acc, ops[i]) : max(acc, ops[i]));
    }
    return acc;
  }
  case AtomKind::Var:
    break;
  }
  llvm_unreachable("handled above");
}

Expr Context::simplify(const Expr &expr) const {
  if (!expr)
    return expr;
  const PolyNode &p = *expr.getNode();
  if (p.terms.empty())
    return expr;
  llvm::SmallVector<Expr, 8> parts;
  parts.push_back(Expr::constant(p.constant));
  for (const Term &t : p.terms) {
    Expr product = Expr::constant(t.coeff);
    for (const Atom &f : t.factors)
      product = product * simplifyAtom(*this, f);
    parts.push_back(product);
  }
  return sum(parts);
}
