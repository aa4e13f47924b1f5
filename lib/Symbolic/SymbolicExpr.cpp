//===- SymbolicExpr.cpp - Canonical symbolic integer expressions ----------===//
//
// The builders here are the only way to make an Expr, and each one returns
// the canonical form, so structural equality is polynomial equality. The
// context-free rewrite rules (constant folding, reducing coefficients inside
// floordiv/mod modulo a constant divisor, nesting of constant divisions,
// min/max ordering) live in floorDiv/mod/min/max below; rewrites needing
// facts live in SymbolicContext.cpp. See docs/symbolic-shapes.md for the
// normal form.
//
//===----------------------------------------------------------------------===//

#include "ExprNodes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir::relax::sym;
using namespace mlir::relax::sym::detail;

//===----------------------------------------------------------------------===//
// Ordering, hashing, node construction
//===----------------------------------------------------------------------===//

int detail::compareAtoms(const AtomNode &lhs, const AtomNode &rhs) {
  if (&lhs == &rhs)
    return 0;
  if (lhs.kind != rhs.kind)
    return lhs.kind < rhs.kind ? -1 : 1;
  if (lhs.kind == AtomKind::Var)
    return lhs.name.compare(rhs.name);
  if (lhs.operands.size() != rhs.operands.size())
    return lhs.operands.size() < rhs.operands.size() ? -1 : 1;
  for (auto [l, r] : llvm::zip(lhs.operands, rhs.operands))
    if (int c = Expr::compare(l, r))
      return c;
  return 0;
}

bool detail::equalAtoms(const AtomNode &lhs, const AtomNode &rhs) {
  return &lhs == &rhs || (lhs.hash == rhs.hash && compareAtoms(lhs, rhs) == 0);
}

int detail::compareMonomials(llvm::ArrayRef<Atom> lhs,
                             llvm::ArrayRef<Atom> rhs) {
  // Higher degree first, so `n * m + n + 1` reads like a polynomial.
  if (lhs.size() != rhs.size())
    return lhs.size() > rhs.size() ? -1 : 1;
  for (auto [l, r] : llvm::zip(lhs, rhs))
    if (int c = compareAtoms(*l, *r))
      return c;
  return 0;
}

int Expr::compare(const Expr &lhs, const Expr &rhs) {
  const PolyNode *l = lhs.getNode(), *r = rhs.getNode();
  if (l == r)
    return 0;
  if (!l || !r)
    return !l ? -1 : 1;
  size_t n = std::min(l->terms.size(), r->terms.size());
  for (size_t i = 0; i < n; ++i) {
    const Term &a = l->terms[i], &b = r->terms[i];
    if (int c = compareMonomials(a.factors, b.factors))
      return c;
    if (a.coeff != b.coeff)
      return a.coeff < b.coeff ? -1 : 1;
  }
  // A longer polynomial first: keeps constants last among min/max operands.
  if (l->terms.size() != r->terms.size())
    return l->terms.size() > r->terms.size() ? -1 : 1;
  if (l->constant != r->constant)
    return l->constant < r->constant ? -1 : 1;
  return 0;
}

static Atom makeAtom(AtomKind kind, std::string name,
                     llvm::SmallVector<Expr, 2> operands) {
  auto node = std::make_shared<AtomNode>();
  node->kind = kind;
  node->name = std::move(name);
  node->operands = std::move(operands);
  llvm::hash_code h = llvm::hash_combine(static_cast<unsigned>(kind),
                                         llvm::hash_value(node->name));
  for (const Expr &op : node->operands)
    h = llvm::hash_combine(h, hash_value(op));
  node->hash = static_cast<size_t>(h);
  return node;
}

/// A cheap order-dependent mix; polynomials are hashed on every build, so
/// the full llvm::hash_combine per term showed up in profiles.
static size_t mixHash(size_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

/// Wraps already sorted, merged, non-zero terms into an Expr.
static Expr makePoly(llvm::SmallVector<Term, 2> terms, int64_t constant) {
  auto node = std::make_shared<PolyNode>();
  size_t h = mixHash(0x5bd1e995, static_cast<uint64_t>(constant));
  for (const Term &t : terms) {
    h = mixHash(h, static_cast<uint64_t>(t.coeff));
    for (const Atom &f : t.factors)
      h = mixHash(h, f->hash);
  }
  node->hash = h;
  node->terms = std::move(terms);
  node->constant = constant;
  return Expr(std::move(node));
}

/// Sorts arbitrary terms, merges equal monomials, folds factor-less terms
/// into the constant and drops zero terms. Returns null on overflow.
static Expr normalizeTerms(llvm::SmallVector<Term, 2> terms,
                           int64_t constant) {
  auto isConstantTerm = [](const Term &t) { return t.factors.empty(); };
  for (const Term &t : terms) {
    if (!isConstantTerm(t))
      continue;
    auto c = checkedAdd(constant, t.coeff);
    if (!c)
      return Expr();
    constant = *c;
  }
  llvm::erase_if(terms, isConstantTerm);
  // Equal monomials are merged below, so a non-stable sort is enough.
  std::sort(terms.begin(), terms.end(), [](const Term &a, const Term &b) {
    return compareMonomials(a.factors, b.factors) < 0;
  });
  llvm::SmallVector<Term, 2> merged;
  merged.reserve(terms.size());
  for (Term &t : terms) {
    if (!merged.empty() &&
        compareMonomials(merged.back().factors, t.factors) == 0) {
      auto c = checkedAdd(merged.back().coeff, t.coeff);
      if (!c)
        return Expr();
      merged.back().coeff = *c;
      continue;
    }
    if (!merged.empty() && merged.back().coeff == 0)
      merged.pop_back();
    merged.push_back(std::move(t));
  }
  if (!merged.empty() && merged.back().coeff == 0)
    merged.pop_back();
  return makePoly(std::move(merged), constant);
}

Expr detail::fromAtom(Atom atom) {
  llvm::SmallVector<Term, 2> terms;
  terms.push_back(Term{{std::move(atom)}, 1});
  return makePoly(std::move(terms), 0);
}

const AtomNode *detail::getSingleAtom(const Expr &expr) {
  const PolyNode *p = expr.getNode();
  if (!p || p->constant != 0 || p->terms.size() != 1)
    return nullptr;
  const Term &t = p->terms.front();
  if (t.coeff != 1 || t.factors.size() != 1)
    return nullptr;
  return t.factors.front().get();
}

//===----------------------------------------------------------------------===//
// Expr accessors
//===----------------------------------------------------------------------===//

Expr Expr::constant(int64_t value) {
  if (!inRange(value))
    return Expr();
  return makePoly({}, value);
}

Expr Expr::var(llvm::StringRef name) {
  // Shape code names the same few dims over and over: reuse their nodes
  // (per thread, so no locking) instead of allocating and hashing each time.
  thread_local llvm::StringMap<Expr> cache;
  if (cache.size() > 4096)
    cache.clear();
  Expr &slot = cache[name];
  if (!slot)
    slot = fromAtom(makeAtom(AtomKind::Var, name.str(), {}));
  return slot;
}

std::optional<int64_t> Expr::getConstant() const {
  if (!node || !node->terms.empty())
    return std::nullopt;
  return node->constant;
}

bool Expr::isVar() const {
  const AtomNode *a = getSingleAtom(*this);
  return a && a->kind == AtomKind::Var;
}

llvm::StringRef Expr::getVarName() const {
  const AtomNode *a = getSingleAtom(*this);
  if (!a || a->kind != AtomKind::Var)
    return {};
  return a->name;
}

bool mlir::relax::sym::operator==(const Expr &lhs, const Expr &rhs) {
  const PolyNode *l = lhs.getNode(), *r = rhs.getNode();
  if (l == r)
    return true;
  if (!l || !r || l->sentinel || r->sentinel || l->hash != r->hash)
    return false;
  return Expr::compare(lhs, rhs) == 0;
}

llvm::hash_code mlir::relax::sym::hash_value(const Expr &expr) {
  if (!expr.getNode())
    return llvm::hash_value(0);
  return llvm::hash_code(expr.getNode()->hash);
}

//===----------------------------------------------------------------------===//
// Polynomial arithmetic
//===----------------------------------------------------------------------===//

/// lhs + sign * rhs by a linear merge of the two sorted term lists.
static Expr addScaled(const Expr &lhs, const Expr &rhs, int64_t sign) {
  if (!lhs || !rhs)
    return Expr();
  const PolyNode &a = *lhs.getNode(), &b = *rhs.getNode();
  auto constant = checkedAdd(a.constant, sign * b.constant);
  if (!constant)
    return Expr();
  if (b.terms.empty() && b.constant == 0)
    return lhs;
  if (a.terms.empty() && a.constant == 0 && sign == 1)
    return rhs;
  llvm::SmallVector<Term, 2> out;
  out.reserve(a.terms.size() + b.terms.size());
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    int c = i == a.terms.size()   ? 1
            : j == b.terms.size() ? -1
                                  : compareMonomials(a.terms[i].factors,
                                                     b.terms[j].factors);
    if (c < 0) {
      out.push_back(a.terms[i++]);
    } else if (c > 0) {
      out.push_back(Term{b.terms[j].factors, sign * b.terms[j].coeff});
      ++j;
    } else {
      auto coeff = checkedAdd(a.terms[i].coeff, sign * b.terms[j].coeff);
      if (!coeff)
        return Expr();
      if (*coeff != 0)
        out.push_back(Term{a.terms[i].factors, *coeff});
      ++i, ++j;
    }
  }
  return makePoly(std::move(out), *constant);
}

/// Multiplies every coefficient by `factor`.
static Expr scale(const Expr &expr, int64_t factor) {
  if (!expr)
    return Expr();
  if (factor == 0)
    return Expr::constant(0);
  if (factor == 1)
    return expr;
  const PolyNode &p = *expr.getNode();
  auto constant = checkedMul(p.constant, factor);
  if (!constant)
    return Expr();
  llvm::SmallVector<Term, 2> terms(p.terms.begin(), p.terms.end());
  for (Term &t : terms) {
    auto c = checkedMul(t.coeff, factor);
    if (!c)
      return Expr();
    t.coeff = *c;
  }
  return makePoly(std::move(terms), *constant);
}

Expr mlir::relax::sym::operator+(const Expr &lhs, const Expr &rhs) {
  return addScaled(lhs, rhs, 1);
}
Expr mlir::relax::sym::operator-(const Expr &lhs, const Expr &rhs) {
  return addScaled(lhs, rhs, -1);
}
Expr mlir::relax::sym::operator-(const Expr &operand) {
  return scale(operand, -1);
}

Expr mlir::relax::sym::operator*(const Expr &lhs, const Expr &rhs) {
  if (!lhs || !rhs)
    return Expr();
  if (auto c = rhs.getConstant())
    return scale(lhs, *c);
  if (auto c = lhs.getConstant())
    return scale(rhs, *c);
  const PolyNode &a = *lhs.getNode(), &b = *rhs.getNode();
  llvm::SmallVector<Term, 2> terms;
  terms.reserve((a.terms.size() + 1) * (b.terms.size() + 1));
  // (A + ca) * (B + cb) = A*B + A*cb + ca*B + ca*cb.
  for (const Term &x : a.terms) {
    for (const Term &y : b.terms) {
      auto c = checkedMul(x.coeff, y.coeff);
      if (!c)
        return Expr();
      Term t;
      t.coeff = *c;
      t.factors.reserve(x.factors.size() + y.factors.size());
      std::merge(x.factors.begin(), x.factors.end(), y.factors.begin(),
                 y.factors.end(), std::back_inserter(t.factors),
                 [](const Atom &p, const Atom &q) {
                   return compareAtoms(*p, *q) < 0;
                 });
      terms.push_back(std::move(t));
    }
    if (b.constant != 0) {
      auto c = checkedMul(x.coeff, b.constant);
      if (!c)
        return Expr();
      terms.push_back(Term{x.factors, *c});
    }
  }
  if (a.constant != 0) {
    for (const Term &y : b.terms) {
      auto c = checkedMul(a.constant, y.coeff);
      if (!c)
        return Expr();
      terms.push_back(Term{y.factors, *c});
    }
  }
  auto constant = checkedMul(a.constant, b.constant);
  if (!constant)
    return Expr();
  return normalizeTerms(std::move(terms), *constant);
}

Expr mlir::relax::sym::operator+(const Expr &lhs, int64_t rhs) {
  return lhs + Expr::constant(rhs);
}
Expr mlir::relax::sym::operator-(const Expr &lhs, int64_t rhs) {
  return lhs - Expr::constant(rhs);
}
Expr mlir::relax::sym::operator*(const Expr &lhs, int64_t rhs) {
  return scale(lhs, rhs);
}
Expr mlir::relax::sym::operator*(int64_t lhs, const Expr &rhs) {
  return scale(rhs, lhs);
}

Expr mlir::relax::sym::sum(llvm::ArrayRef<Expr> operands) {
  if (operands.size() == 1)
    return operands.front();
  if (operands.size() == 2)
    return operands[0] + operands[1];
  llvm::SmallVector<Term, 2> terms;
  int64_t constant = 0;
  for (const Expr &e : operands) {
    if (!e)
      return Expr();
    auto c = checkedAdd(constant, e.getNode()->constant);
    if (!c)
      return Expr();
    constant = *c;
    terms.append(e.getNode()->terms.begin(), e.getNode()->terms.end());
  }
  return normalizeTerms(std::move(terms), constant);
}

//===----------------------------------------------------------------------===//
// floordiv / mod / ceildiv
//===----------------------------------------------------------------------===//

static int64_t leadingCoeff(const Expr &e) {
  const PolyNode &p = *e.getNode();
  return p.terms.empty() ? p.constant : p.terms.front().coeff;
}

static Expr makeOpAtom(AtomKind kind, Expr lhs, Expr rhs) {
  return fromAtom(makeAtom(kind, "", {std::move(lhs), std::move(rhs)}));
}

/// The canonical representative of `coeff` modulo `divisor` (> 0) for a
/// term inside `mod`/`floordiv`: the balanced residue in
/// (-divisor / 2, divisor / 2]. Balanced rather than [0, divisor) so that
/// differences such as `(n - m + 2) floordiv 3` keep their natural form;
/// any fixed choice per residue class would make the form canonical.
static int64_t reduceCoeff(int64_t coeff, int64_t divisor) {
  int64_t r = floorModInt(coeff, divisor);
  if (r > divisor - r) // 2 * r > divisor without overflow.
    r -= divisor;
  return r;
}

/// Splits `expr` into `divisor * quotient + residual` where every term's
/// coefficient is reduced by reduceCoeff and the constant with floor
/// semantics, so residual's constant is in [0, divisor). Two expressions
/// whose coefficients differ by multiples of `divisor` get the same residual,
/// which is what makes `e mod c` and the atom of `e floordiv c` canonical.
/// Exact for every integer value of the monomials, negative included.
static bool splitByConstant(const Expr &expr, int64_t divisor,
                            Expr &quotient, Expr &residual) {
  const PolyNode &p = *expr.getNode();
  llvm::SmallVector<Term, 2> q, r;
  for (const Term &t : p.terms) {
    int64_t rem = reduceCoeff(t.coeff, divisor);
    // (coeff - rem) / divisor, computed without forming coeff - rem, which
    // can leave the int64 range when rem is negative.
    int64_t quo = floorDivInt(t.coeff, divisor) + (rem < 0 ? 1 : 0);
    if (quo != 0)
      q.push_back(Term{t.factors, quo});
    if (rem != 0)
      r.push_back(Term{t.factors, rem});
  }
  quotient = makePoly(std::move(q), floorDivInt(p.constant, divisor));
  residual = makePoly(std::move(r), floorModInt(p.constant, divisor));
  return true;
}

/// gcd of the divisor with every coefficient and the constant of `expr`.
static int64_t contentGcd(const Expr &expr, int64_t divisor) {
  const PolyNode &p = *expr.getNode();
  int64_t g = std::gcd(divisor, p.constant);
  for (const Term &t : p.terms)
    g = std::gcd(g, t.coeff);
  return g;
}

static Expr divideExact(const Expr &expr, int64_t g) {
  const PolyNode &p = *expr.getNode();
  llvm::SmallVector<Term, 2> terms(p.terms.begin(), p.terms.end());
  for (Term &t : terms)
    t.coeff /= g;
  return makePoly(std::move(terms), p.constant / g);
}

/// True if the multiset `sub` is contained in the sorted multiset `whole`;
/// the rest goes to `rest`.
static bool removeFactors(llvm::ArrayRef<Atom> whole, llvm::ArrayRef<Atom> sub,
                          llvm::SmallVectorImpl<Atom> &rest) {
  size_t j = 0;
  for (const Atom &a : whole) {
    if (j < sub.size() && equalAtoms(*a, *sub[j])) {
      ++j;
      continue;
    }
    rest.push_back(a);
  }
  return j == sub.size();
}

/// For a divisor that is one term `c * M`, splits `expr` into
/// `divisor * quotient + residual`, taking the terms that are multiples of
/// both M and c. Sound for any non-zero value of the divisor.
static void splitByMonomial(const Expr &expr, const Term &divisor,
                            Expr &quotient, Expr &residual) {
  const PolyNode &p = *expr.getNode();
  llvm::SmallVector<Term, 2> q, r;
  for (const Term &t : p.terms) {
    llvm::SmallVector<Atom, 2> rest;
    if (t.coeff % divisor.coeff == 0 &&
        removeFactors(t.factors, divisor.factors, rest))
      q.push_back(Term{std::move(rest), t.coeff / divisor.coeff});
    else
      r.push_back(t);
  }
  quotient = normalizeTerms(std::move(q), 0);
  residual = makePoly(std::move(r), p.constant);
}

static const Term *getSingleTerm(const Expr &e) {
  const PolyNode &p = *e.getNode();
  if (p.constant != 0 || p.terms.size() != 1)
    return nullptr;
  return &p.terms.front();
}

Expr mlir::relax::sym::floorDiv(const Expr &lhs, const Expr &rhs) {
  if (!lhs || !rhs)
    return Expr();
  if (auto cb = rhs.getConstant()) {
    int64_t c = *cb;
    if (c == 0)
      return makeOpAtom(AtomKind::FloorDiv, lhs, rhs);
    if (auto ca = lhs.getConstant())
      return Expr::constant(floorDivInt(*ca, c));
    if (c == 1)
      return lhs;
    if (c < 0) // floor(a / c) == floor(-a / -c).
      return floorDiv(-lhs, Expr::constant(-c));
    // floor((c * Q + R) / c) == Q + floor(R / c) for integer Q.
    Expr quotient, residual;
    splitByConstant(lhs, c, quotient, residual);
    if (auto r = residual.getConstant()) // 0 <= r < c.
      return quotient;
    // floor(g * R / (g * c)) == floor(R / c).
    if (int64_t g = contentGcd(residual, c); g > 1) {
      residual = divideExact(residual, g);
      c /= g;
    }
    // floor((floor(x / a) + k) / c) == floor((x + k * a) / (a * c)), a > 0.
    const PolyNode &rp = *residual.getNode();
    if (rp.terms.size() == 1 && rp.terms[0].coeff == 1 &&
        rp.terms[0].factors.size() == 1) {
      const AtomNode &inner = *rp.terms[0].factors[0];
      if (inner.kind == AtomKind::FloorDiv) {
        auto a = inner.operands[1].getConstant();
        if (a && *a > 0) {
          auto k = checkedMul(rp.constant, *a);
          auto ac = checkedMul(*a, c);
          if (k && ac)
            return quotient +
                   floorDiv(inner.operands[0] + *k, Expr::constant(*ac));
        }
      }
    }
    return quotient +
           makeOpAtom(AtomKind::FloorDiv, residual, Expr::constant(c));
  }
  // Symbolic divisor; rewrites below assume it is non-zero.
  if (lhs.getConstant() == 0)
    return Expr::constant(0);
  if (lhs == rhs)
    return Expr::constant(1);
  if (leadingCoeff(rhs) < 0)
    return floorDiv(-lhs, -rhs);
  if (const Term *d = getSingleTerm(rhs)) {
    Expr quotient, residual;
    splitByMonomial(lhs, *d, quotient, residual);
    if (residual.getConstant() == 0)
      return quotient;
    if (quotient.getConstant() != 0)
      return quotient + floorDiv(residual, rhs);
  }
  return makeOpAtom(AtomKind::FloorDiv, lhs, rhs);
}

Expr mlir::relax::sym::mod(const Expr &lhs, const Expr &rhs) {
  if (!lhs || !rhs)
    return Expr();
  if (auto cb = rhs.getConstant()) {
    int64_t c = *cb;
    if (c == 0)
      return makeOpAtom(AtomKind::Mod, lhs, rhs);
    if (auto ca = lhs.getConstant())
      return Expr::constant(floorModInt(*ca, c));
    if (c == 1 || c == -1)
      return Expr::constant(0);
    if (c < 0) // a mod c == -((-a) mod (-c)).
      return -mod(-lhs, Expr::constant(-c));
    // (c * Q + R) mod c == R mod c.
    Expr quotient, residual;
    splitByConstant(lhs, c, quotient, residual);
    if (residual.getConstant())
      return residual;
    // (g * R) mod (g * c) == g * (R mod c).
    if (int64_t g = contentGcd(residual, c); g > 1)
      return mod(divideExact(residual, g), Expr::constant(c / g)) * g;
    // ((x mod a) + k) mod c == (x + k) mod c when c divides a.
    const PolyNode &rp = *residual.getNode();
    if (rp.terms.size() == 1 && rp.terms[0].coeff == 1 &&
        rp.terms[0].factors.size() == 1) {
      const AtomNode &inner = *rp.terms[0].factors[0];
      if (inner.kind == AtomKind::Mod) {
        auto a = inner.operands[1].getConstant();
        if (a && *a > 0 && *a % c == 0)
          return mod(inner.operands[0] + rp.constant, rhs);
      }
    }
    return makeOpAtom(AtomKind::Mod, residual, rhs);
  }
  if (lhs.getConstant() == 0 || lhs == rhs || lhs == -rhs)
    return Expr::constant(0);
  if (leadingCoeff(rhs) < 0)
    return -mod(-lhs, -rhs);
  if (const Term *d = getSingleTerm(rhs)) {
    Expr quotient, residual;
    splitByMonomial(lhs, *d, quotient, residual);
    if (residual.getConstant() == 0)
      return Expr::constant(0);
    if (quotient.getConstant() != 0)
      return mod(residual, rhs);
  }
  return makeOpAtom(AtomKind::Mod, lhs, rhs);
}

Expr mlir::relax::sym::ceilDiv(const Expr &lhs, const Expr &rhs) {
  if (!lhs || !rhs)
    return Expr();
  if (auto cb = rhs.getConstant()) {
    int64_t c = *cb;
    // ceil(a / c) == floor((a + c - 1) / c) for c > 0; flip signs for c < 0.
    if (c > 0)
      return floorDiv(lhs + (c - 1), rhs);
    if (c < 0)
      return floorDiv(-lhs + (-c - 1), Expr::constant(-c));
  }
  // ceil(a / b) == -floor(-a / b) for any non-zero b.
  return -floorDiv(-lhs, rhs);
}

//===----------------------------------------------------------------------===//
// min / max
//===----------------------------------------------------------------------===//

/// Builds an n-ary min (isMin) or max. Operands of the same kind are
/// flattened; constants fold; of two operands differing by a constant only
/// the dominating one stays; the rest are sorted so the node is canonical.
static Expr buildMinMax(bool isMin, llvm::ArrayRef<Expr> inputs) {
  AtomKind kind = isMin ? AtomKind::Min : AtomKind::Max;
  llvm::SmallVector<Expr, 4> ops;
  for (const Expr &e : inputs) {
    if (!e)
      return Expr();
    const AtomNode *a = getSingleAtom(e);
    if (a && a->kind == kind)
      ops.append(a->operands.begin(), a->operands.end());
    else
      ops.push_back(e);
  }
  // Drop every operand dominated by another one that differs by a constant.
  llvm::SmallVector<bool, 4> dead(ops.size(), false);
  for (size_t i = 0; i < ops.size(); ++i) {
    for (size_t j = i + 1; j < ops.size() && !dead[i]; ++j) {
      if (dead[j])
        continue;
      std::optional<int64_t> d = (ops[i] - ops[j]).getConstant();
      if (!d)
        continue;
      bool keepI = isMin ? *d <= 0 : *d >= 0;
      dead[keepI ? j : i] = true;
    }
  }
  llvm::SmallVector<Expr, 2> live;
  for (size_t i = 0; i < ops.size(); ++i)
    if (!dead[i])
      live.push_back(ops[i]);
  if (live.size() == 1)
    return live.front();
  llvm::sort(live, [](const Expr &a, const Expr &b) {
    return Expr::compare(a, b) < 0;
  });
  return fromAtom(makeAtom(kind, "", std::move(live)));
}

Expr mlir::relax::sym::min(const Expr &lhs, const Expr &rhs) {
  return buildMinMax(/*isMin=*/true, {lhs, rhs});
}
Expr mlir::relax::sym::max(const Expr &lhs, const Expr &rhs) {
  return buildMinMax(/*isMin=*/false, {lhs, rhs});
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static void printExpr(llvm::raw_ostream &os, const Expr &e);

static bool isDivLike(const AtomNode &a) {
  return a.kind == AtomKind::FloorDiv || a.kind == AtomKind::Mod;
}

/// A primary needs no parentheses in any operand position.
static bool isPrimary(const Expr &e) {
  if (auto c = e.getConstant())
    return *c >= 0;
  const AtomNode *a = getSingleAtom(e);
  return a && !isDivLike(*a);
}

static void printAtom(llvm::raw_ostream &os, const AtomNode &a) {
  switch (a.kind) {
  case AtomKind::Var:
    os << a.name;
    return;
  case AtomKind::FloorDiv:
  case AtomKind::Mod: {
    // The left operand binds left-associatively at the same level, so it
    // only needs parentheses when it is a sum.
    const PolyNode &l = *a.operands[0].getNode();
    bool parenL = l.terms.size() + (l.constant != 0) > 1;
    if (parenL)
      os << '(';
    printExpr(os, a.operands[0]);
    os << (parenL ? ") " : " ")
       << (a.kind == AtomKind::FloorDiv ? "floordiv " : "mod ");
    bool parenR = !isPrimary(a.operands[1]);
    if (parenR)
      os << '(';
    printExpr(os, a.operands[1]);
    if (parenR)
      os << ')';
    return;
  }
  case AtomKind::Min:
  case AtomKind::Max: {
    // n-ary nodes print as right-nested binary calls.
    const char *name = a.kind == AtomKind::Min ? "min(" : "max(";
    size_t n = a.operands.size();
    for (size_t i = 0; i + 1 < n; ++i) {
      os << name;
      printExpr(os, a.operands[i]);
      os << ", ";
    }
    printExpr(os, a.operands[n - 1]);
    for (size_t i = 0; i + 1 < n; ++i)
      os << ')';
    return;
  }
  }
}

/// Prints `|coeff| * monomial` as `f1 * f2 * |coeff|`.
static void printTermMagnitude(llvm::raw_ostream &os, const Term &t) {
  bool first = true;
  for (const Atom &f : t.factors) {
    // `a * x floordiv 4` would parse as `(a * x) floordiv 4`.
    bool paren = !first && isDivLike(*f);
    if (!first)
      os << " * ";
    if (paren)
      os << '(';
    printAtom(os, *f);
    if (paren)
      os << ')';
    first = false;
  }
  int64_t mag = t.coeff < 0 ? -t.coeff : t.coeff;
  if (mag != 1)
    os << " * " << mag;
}

static void printExpr(llvm::raw_ostream &os, const Expr &e) {
  if (!e) {
    os << "<<null>>";
    return;
  }
  const PolyNode &p = *e.getNode();
  bool first = true;
  for (const Term &t : p.terms) {
    if (first) {
      if (t.coeff < 0) {
        // `-x floordiv 4` would parse as `(-x) floordiv 4`.
        bool paren = isDivLike(*t.factors.front());
        os << (paren ? "-(" : "-");
        printTermMagnitude(os, t);
        if (paren)
          os << ')';
      } else {
        printTermMagnitude(os, t);
      }
    } else {
      os << (t.coeff < 0 ? " - " : " + ");
      printTermMagnitude(os, t);
    }
    first = false;
  }
  if (first)
    os << p.constant;
  else if (p.constant > 0)
    os << " + " << p.constant;
  else if (p.constant < 0)
    os << " - " << -p.constant;
}

void Expr::print(llvm::raw_ostream &os) const { printExpr(os, *this); }

std::string Expr::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

llvm::raw_ostream &mlir::relax::sym::operator<<(llvm::raw_ostream &os,
                                                const Expr &expr) {
  expr.print(os);
  return os;
}

//===----------------------------------------------------------------------===//
// Traversals: variables, substitution, evaluation
//===----------------------------------------------------------------------===//

static void collectVarsImpl(const Expr &e,
                            llvm::SmallVectorImpl<std::string> &out) {
  if (!e)
    return;
  for (const Term &t : e.getNode()->terms) {
    for (const Atom &f : t.factors) {
      if (f->kind == AtomKind::Var)
        out.push_back(f->name);
      for (const Expr &op : f->operands)
        collectVarsImpl(op, out);
    }
  }
}

void Expr::collectVars(llvm::SmallVectorImpl<std::string> &out) const {
  collectVarsImpl(*this, out);
  llvm::sort(out);
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

static Expr substituteAtom(const AtomNode &a, const llvm::StringMap<Expr> &map,
                           const Atom &self) {
  if (a.kind == AtomKind::Var) {
    auto it = map.find(a.name);
    return it != map.end() ? it->second : fromAtom(self);
  }
  llvm::SmallVector<Expr, 2> ops;
  for (const Expr &op : a.operands)
    ops.push_back(op.substitute(map));
  switch (a.kind) {
  case AtomKind::FloorDiv:
    return floorDiv(ops[0], ops[1]);
  case AtomKind::Mod:
    return mod(ops[0], ops[1]);
  case AtomKind::Min:
    return buildMinMax(/*isMin=*/true, ops);
  case AtomKind::Max:
    return buildMinMax(/*isMin=*/false, ops);
  case AtomKind::Var:
    break;
  }
  llvm_unreachable("handled above");
}

Expr Expr::substitute(const llvm::StringMap<Expr> &map) const {
  if (!node || map.empty())
    return *this;
  llvm::SmallVector<Expr, 8> parts;
  parts.push_back(Expr::constant(node->constant));
  for (const Term &t : node->terms) {
    Expr product = Expr::constant(t.coeff);
    for (const Atom &f : t.factors)
      product = product * substituteAtom(*f, map, f);
    parts.push_back(product);
  }
  return sum(parts);
}

static std::optional<int64_t> evalAtom(const AtomNode &a,
                                       const llvm::StringMap<int64_t> &env) {
  if (a.kind == AtomKind::Var) {
    auto it = env.find(a.name);
    if (it == env.end() || !inRange(it->second))
      return std::nullopt;
    return it->second;
  }
  std::optional<int64_t> acc = a.operands.front().evaluate(env);
  for (const Expr &op : llvm::drop_begin(a.operands)) {
    std::optional<int64_t> rhs = op.evaluate(env);
    if (!acc || !rhs)
      return std::nullopt;
    switch (a.kind) {
    case AtomKind::FloorDiv:
    case AtomKind::Mod:
      if (*rhs == 0)
        return std::nullopt;
      acc = a.kind == AtomKind::FloorDiv ? floorDivInt(*acc, *rhs)
                                         : floorModInt(*acc, *rhs);
      break;
    case AtomKind::Min:
      acc = std::min(*acc, *rhs);
      break;
    case AtomKind::Max:
      acc = std::max(*acc, *rhs);
      break;
    case AtomKind::Var:
      llvm_unreachable("handled above");
    }
  }
  return acc;
}

std::optional<int64_t>
Expr::evaluate(const llvm::StringMap<int64_t> &env) const {
  if (!node)
    return std::nullopt;
  int64_t acc = node->constant;
  for (const Term &t : node->terms) {
    int64_t prod = t.coeff;
    for (const Atom &f : t.factors) {
      auto v = evalAtom(*f, env);
      if (!v)
        return std::nullopt;
      auto p = checkedMul(prod, *v);
      if (!p)
        return std::nullopt;
      prod = *p;
    }
    auto s = checkedAdd(acc, prod);
    if (!s)
      return std::nullopt;
    acc = *s;
  }
  return acc;
}

//===----------------------------------------------------------------------===//
// DenseMapInfo
//===----------------------------------------------------------------------===//

static Expr makeSentinel(size_t hash) {
  auto node = std::make_shared<PolyNode>();
  node->sentinel = true;
  node->hash = hash;
  return Expr(std::move(node));
}

Expr llvm::DenseMapInfo<Expr>::getEmptyKey() {
  static const Expr key = makeSentinel(~size_t(0));
  return key;
}
Expr llvm::DenseMapInfo<Expr>::getTombstoneKey() {
  static const Expr key = makeSentinel(~size_t(0) - 1);
  return key;
}
unsigned llvm::DenseMapInfo<Expr>::getHashValue(const Expr &expr) {
  return static_cast<unsigned>(hash_value(expr));
}
bool llvm::DenseMapInfo<Expr>::isEqual(const Expr &lhs, const Expr &rhs) {
  return lhs == rhs;
}
