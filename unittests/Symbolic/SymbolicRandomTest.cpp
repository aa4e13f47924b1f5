//===- SymbolicRandomTest.cpp - Randomised soundness checks --------------===//
//
// Generates random expression trees with fixed seeds and checks the engine
// against a plain tree evaluator written here, independent of the
// canonicaliser: canonical forms must evaluate like the original tree,
// printing must round-trip, and no query may claim a proof that some
// binding contradicts. Each test prints how many cases it tried.
//
//===----------------------------------------------------------------------===//

#include "SymbolicTestUtils.h"

#include "gtest/gtest.h"

#include <iostream>
#include <memory>
#include <random>

using namespace mlir::relax::sym;

namespace {

//===----------------------------------------------------------------------===//
// Reference AST
//===----------------------------------------------------------------------===//

enum class Op {
  Const,
  Var,
  Add,
  Sub,
  Mul,
  Neg,
  FloorDiv,
  CeilDiv,
  Mod,
  Min,
  Max
};

struct Tree;
using TreePtr = std::shared_ptr<const Tree>;
struct Tree {
  Op op;
  int64_t value = 0;
  std::string name;
  TreePtr lhs, rhs;
};

TreePtr leafConst(int64_t v) { return std::make_shared<Tree>(Tree{Op::Const, v, "", nullptr, nullptr}); }
TreePtr leafVar(std::string n) { return std::make_shared<Tree>(Tree{Op::Var, 0, std::move(n), nullptr, nullptr}); }
TreePtr node(Op op, TreePtr l, TreePtr r = nullptr) {
  return std::make_shared<Tree>(Tree{op, 0, "", std::move(l), std::move(r)});
}

using Env = llvm::StringMap<int64_t>;

/// Direct evaluation with floor semantics. nullopt: undefined (division by
/// zero) or an intermediate overflow; such bindings are skipped.
std::optional<int64_t> evalTree(const Tree &t, const Env &env) {
  if (t.op == Op::Const)
    return t.value;
  if (t.op == Op::Var)
    return env.lookup(t.name);
  auto a = evalTree(*t.lhs, env);
  if (!a)
    return std::nullopt;
  if (t.op == Op::Neg)
    return -*a;
  auto b = evalTree(*t.rhs, env);
  if (!b)
    return std::nullopt;
  __int128 x = *a, y = *b, r = 0;
  switch (t.op) {
  case Op::Add:
    r = x + y;
    break;
  case Op::Sub:
    r = x - y;
    break;
  case Op::Mul:
    r = x * y;
    break;
  case Op::FloorDiv:
  case Op::CeilDiv:
  case Op::Mod: {
    if (y == 0)
      return std::nullopt;
    // Floor quotient from the truncating one.
    __int128 q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0)))
      q -= 1;
    if (t.op == Op::FloorDiv)
      r = q;
    else if (t.op == Op::Mod)
      r = x - q * y;
    else
      r = (x % y == 0) ? x / y : q + 1;
    break;
  }
  case Op::Min:
    r = x < y ? x : y;
    break;
  case Op::Max:
    r = x > y ? x : y;
    break;
  default:
    return std::nullopt;
  }
  if (r > (__int128)INT64_MAX / 4 || r < -(__int128)INT64_MAX / 4)
    return std::nullopt;
  return static_cast<int64_t>(r);
}

Expr toExpr(const Tree &t) {
  switch (t.op) {
  case Op::Const:
    return Expr::constant(t.value);
  case Op::Var:
    return Expr::var(t.name);
  case Op::Neg:
    return -toExpr(*t.lhs);
  default:
    break;
  }
  Expr a = toExpr(*t.lhs), b = toExpr(*t.rhs);
  switch (t.op) {
  case Op::Add:
    return a + b;
  case Op::Sub:
    return a - b;
  case Op::Mul:
    return a * b;
  case Op::FloorDiv:
    return floorDiv(a, b);
  case Op::CeilDiv:
    return ceilDiv(a, b);
  case Op::Mod:
    return mod(a, b);
  case Op::Min:
    return min(a, b);
  case Op::Max:
    return max(a, b);
  default:
    return Expr();
  }
}

/// Fully parenthesised text, to test the parser separately from printing.
std::string toText(const Tree &t) {
  switch (t.op) {
  case Op::Const:
    return t.value < 0 ? "(" + std::to_string(t.value) + ")"
                       : std::to_string(t.value);
  case Op::Var:
    return t.name;
  case Op::Neg:
    return "(-" + toText(*t.lhs) + ")";
  case Op::Min:
    return "min(" + toText(*t.lhs) + ", " + toText(*t.rhs) + ")";
  case Op::Max:
    return "max(" + toText(*t.lhs) + ", " + toText(*t.rhs) + ")";
  default:
    break;
  }
  const char *op = t.op == Op::Add        ? " + "
                   : t.op == Op::Sub      ? " - "
                   : t.op == Op::Mul      ? " * "
                   : t.op == Op::FloorDiv ? " floordiv "
                   : t.op == Op::CeilDiv  ? " ceildiv "
                                          : " mod ";
  return "(" + toText(*t.lhs) + op + toText(*t.rhs) + ")";
}

//===----------------------------------------------------------------------===//
// Generators
//===----------------------------------------------------------------------===//

class Gen {
public:
  explicit Gen(uint64_t seed) : rng(seed) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  bool chance(int percent) { return uniform(0, 99) < percent; }

  std::string varName(unsigned numVars) {
    static const char *names[] = {"a", "b", "n", "m"};
    return names[uniform(0, numVars - 1)];
  }

  /// A random tree of depth <= `depth` over the first `numVars` variables.
  TreePtr tree(unsigned depth, unsigned numVars) {
    if (depth == 0 || chance(20)) {
      if (chance(40))
        return leafConst(uniform(-6, 6));
      return leafVar(varName(numVars));
    }
    switch (uniform(0, 9)) {
    case 0:
    case 1:
      return node(Op::Add, tree(depth - 1, numVars), tree(depth - 1, numVars));
    case 2:
      return node(Op::Sub, tree(depth - 1, numVars), tree(depth - 1, numVars));
    case 3:
      // Keep one factor small so expansion stays bounded.
      return node(Op::Mul, tree(depth - 1, numVars),
                  tree(std::min(depth - 1, 1u), numVars));
    case 4:
      return node(Op::Neg, tree(depth - 1, numVars));
    case 5:
    case 6: {
      Op op = chance(50) ? Op::FloorDiv : (chance(50) ? Op::Mod : Op::CeilDiv);
      return node(op, tree(depth - 1, numVars), divisor(depth - 1, numVars));
    }
    case 7:
      return node(Op::Min, tree(depth - 1, numVars), tree(depth - 1, numVars));
    case 8:
      return node(Op::Max, tree(depth - 1, numVars), tree(depth - 1, numVars));
    default:
      return node(Op::Add, tree(depth - 1, numVars), leafConst(uniform(-9, 9)));
    }
  }

  /// Mostly constant divisors (both signs), sometimes symbolic.
  TreePtr divisor(unsigned depth, unsigned numVars) {
    if (chance(60)) {
      int64_t d = uniform(1, 8);
      return leafConst(chance(20) ? -d : d);
    }
    return tree(std::min(depth, 2u), numVars);
  }

  /// A tree equal to `t` for every binding where `t` is defined, built with
  /// value-preserving rewrites the canonicaliser has to see through.
  TreePtr equivalent(const TreePtr &t) {
    if (t->op == Op::Const || t->op == Op::Var) {
      if (chance(15)) {
        int64_t k = uniform(-5, 5);
        return node(Op::Sub, node(Op::Add, t, leafConst(k)), leafConst(k));
      }
      if (chance(10))
        return node(Op::Mul, leafConst(1), t);
      return t;
    }
    TreePtr l = equivalent(t->lhs);
    TreePtr r = t->rhs ? equivalent(t->rhs) : nullptr;
    switch (t->op) {
    case Op::Add:
    case Op::Mul:
    case Op::Min:
    case Op::Max:
      if (chance(50))
        std::swap(l, r);
      if (t->op == Op::Mul && r->op == Op::Add && chance(50))
        return node(Op::Add, node(Op::Mul, l, r->lhs),
                    node(Op::Mul, l, r->rhs));
      return node(t->op, l, r);
    case Op::Sub:
      if (chance(50))
        return node(Op::Add, l, node(Op::Neg, r));
      return node(Op::Sub, l, r);
    case Op::Neg:
      if (chance(30))
        return node(Op::Mul, leafConst(-1), l);
      return node(Op::Neg, l);
    default:
      return node(t->op, l, r);
    }
  }

  /// Equal to `t` except for one perturbed constant or a +-1 shift.
  TreePtr nearlyEqual(const TreePtr &t) {
    if (chance(50))
      return node(Op::Add, equivalent(t), leafConst(chance(50) ? 1 : -1));
    return perturbOneConstant(t);
  }

  std::mt19937_64 rng;

private:
  TreePtr perturbOneConstant(const TreePtr &t) {
    if (t->op == Op::Const)
      return leafConst(t->value + (chance(50) ? 1 : -1));
    if (t->op == Op::Var)
      return node(Op::Add, t, leafConst(1));
    if (t->rhs && chance(50))
      return node(t->op, t->lhs, perturbOneConstant(t->rhs));
    return node(t->op, perturbOneConstant(t->lhs), t->rhs);
  }
};

const char *kVars[] = {"a", "b", "n", "m"};

Env randomEnv(Gen &g, int64_t lo, int64_t hi) {
  Env env;
  for (const char *v : kVars)
    env[v] = g.uniform(lo, hi);
  return env;
}

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

TEST(SymbolicRandom, CanonicalFormEvaluatesLikeTree) {
  Gen g(0x5eed0001);
  unsigned exprs = 0, bindings = 0;
  for (int i = 0; i < 12000; ++i) {
    unsigned numVars = g.uniform(1, 4);
    TreePtr t = g.tree(g.uniform(1, 5), numVars);
    Expr e = toExpr(*t);
    ASSERT_TRUE(e) << toText(*t);
    ++exprs;
    for (int k = 0; k < 10; ++k) {
      Env env = randomEnv(g, -7, 7);
      std::optional<int64_t> ref = evalTree(*t, env);
      if (!ref)
        continue;
      ++bindings;
      std::optional<int64_t> got = e.evaluate(env);
      ASSERT_TRUE(got) << toText(*t) << " -> " << e.str();
      ASSERT_EQ(*got, *ref) << toText(*t) << " -> " << e.str() << " at a="
                            << env["a"] << " b=" << env["b"]
                            << " n=" << env["n"] << " m=" << env["m"];
    }
  }
  std::cout << "[ random ] " << exprs << " expressions, " << bindings
            << " defined bindings checked\n";
  EXPECT_GE(exprs, 10000u);
}

TEST(SymbolicRandom, PrintParseRoundTrip) {
  Gen g(0x5eed0002);
  unsigned cases = 0;
  for (int i = 0; i < 10000; ++i) {
    TreePtr t = g.tree(g.uniform(1, 5), g.uniform(1, 4));
    Expr e = toExpr(*t);
    std::string err;
    unsigned col = 0;
    Expr fromTree = parse(toText(*t), &err, &col);
    ASSERT_TRUE(fromTree) << toText(*t) << ": " << err << " at " << col;
    ASSERT_EQ(fromTree, e) << toText(*t);
    std::string printed = e.str();
    Expr again = parse(printed, &err, &col);
    ASSERT_TRUE(again) << toText(*t) << " printed as " << printed << ": "
                       << err << " at " << col;
    ASSERT_EQ(again, e) << printed << " reparsed as " << again.str();
    ASSERT_EQ(again.str(), printed);
    ++cases;
  }
  std::cout << "[ random ] " << cases << " print/parse round trips\n";
}

/// Samples bindings that respect the facts `ctx` was built with.
struct RandomFacts {
  Context ctx;
  struct Range {
    int64_t lo, hi, div;
  };
  llvm::StringMap<Range> ranges;

  explicit RandomFacts(Gen &g, bool declare) {
    for (const char *v : kVars) {
      Range r{0, 12, 1};
      if (declare && g.chance(70)) {
        r.lo = g.uniform(-6, 6);
        r.hi = r.lo + g.uniform(0, 14);
        bool noLo = g.chance(15), noHi = g.chance(20);
        if (g.chance(25)) {
          r.div = g.uniform(2, 4);
          r.hi = std::max(r.hi, r.lo + r.div); // Keep a multiple inside.
        }
        ctx.setBounds(v, noLo ? std::nullopt : std::optional<int64_t>(r.lo),
                      noHi ? std::nullopt : std::optional<int64_t>(r.hi));
        if (r.div > 1)
          ctx.addDivisibility(v, r.div);
        // Unbounded sides are sampled a little beyond the declared range.
        if (noLo)
          r.lo -= 8;
        if (noHi)
          r.hi += 8;
      }
      ranges[v] = r;
    }
  }

  Env sample(Gen &g) {
    Env env;
    for (auto &entry : ranges) {
      const Range &r = entry.second;
      int64_t x;
      do {
        x = g.uniform(r.lo, r.hi);
      } while (x % r.div != 0);
      env[entry.first()] = x;
    }
    return env;
  }
};

TEST(SymbolicRandom, ProvablyEqualIsSound) {
  Gen g(0x5eed0003);
  unsigned pairs = 0, provedEq = 0, provedNe = 0, engineeredEq = 0;
  for (int i = 0; i < 6000; ++i) {
    RandomFacts facts(g, /*declare=*/g.chance(50));
    unsigned numVars = g.uniform(1, 4);
    TreePtr a = g.tree(g.uniform(1, 4), numVars);
    int kind = g.uniform(0, 2);
    TreePtr b = kind == 0   ? g.tree(g.uniform(1, 4), numVars)
                : kind == 1 ? g.equivalent(a)
                            : g.nearlyEqual(a);
    Expr ea = toExpr(*a), eb = toExpr(*b);
    ++pairs;
    bool eq = facts.ctx.provablyEqual(ea, eb);
    bool ne = facts.ctx.provablyNotEqual(ea, eb);
    ASSERT_FALSE(eq && ne) << ea.str() << " vs " << eb.str();
    provedEq += eq;
    provedNe += ne;
    if (kind == 1)
      engineeredEq += ea == eb;
    for (int k = 0; k < 12; ++k) {
      Env env = facts.sample(g);
      auto va = evalTree(*a, env), vb = evalTree(*b, env);
      if (!va || !vb)
        continue;
      if (eq) {
        ASSERT_EQ(*va, *vb) << ea.str() << " vs " << eb.str();
      }
      if (ne) {
        ASSERT_NE(*va, *vb) << ea.str() << " vs " << eb.str();
      }
    }
  }
  std::cout << "[ random ] " << pairs << " pairs: " << provedEq
            << " proved equal, " << provedNe << " proved unequal, "
            << engineeredEq << " engineered-equal pairs identical in "
            << "canonical form\n";
  EXPECT_GT(provedEq, 0u);
  EXPECT_GT(provedNe, 0u);
}

TEST(SymbolicRandom, ComparisonsBoundsAndSimplifyAreSound) {
  Gen g(0x5eed0004);
  unsigned queries = 0, decided = 0, checks = 0;
  for (int i = 0; i < 5000; ++i) {
    RandomFacts facts(g, /*declare=*/true);
    unsigned numVars = g.uniform(1, 4);
    TreePtr a = g.tree(g.uniform(1, 3), numVars);
    TreePtr b = g.chance(30) ? g.nearlyEqual(a) : g.tree(g.uniform(0, 3), numVars);
    Expr ea = toExpr(*a), eb = toExpr(*b);
    const Context &ctx = facts.ctx;
    Truth lt = ctx.isLT(ea, eb), le = ctx.isLE(ea, eb), eq = ctx.isEQ(ea, eb);
    std::optional<int64_t> lo = ctx.lowerBound(ea), hi = ctx.upperBound(ea);
    Expr simplified = ctx.simplify(ea);
    ASSERT_TRUE(simplified) << ea.str();
    queries += 3;
    decided += (lt != Truth::Unknown) + (le != Truth::Unknown) +
               (eq != Truth::Unknown);
    for (int k = 0; k < 12; ++k) {
      Env env = facts.sample(g);
      auto va = evalTree(*a, env), vb = evalTree(*b, env);
      if (!va || !vb)
        continue;
      ++checks;
      std::string why = ea.str() + " vs " + eb.str();
      if (lt != Truth::Unknown) {
        ASSERT_EQ(lt == Truth::True, *va < *vb) << "isLT " << why;
      }
      if (le != Truth::Unknown) {
        ASSERT_EQ(le == Truth::True, *va <= *vb) << "isLE " << why;
      }
      if (eq != Truth::Unknown) {
        ASSERT_EQ(eq == Truth::True, *va == *vb) << "isEQ " << why;
      }
      if (lo) {
        ASSERT_LE(*lo, *va) << "lowerBound " << ea.str();
      }
      if (hi) {
        ASSERT_GE(*hi, *va) << "upperBound " << ea.str();
      }
      auto vs = simplified.evaluate(env);
      ASSERT_TRUE(vs) << ea.str() << " simplified to " << simplified.str();
      ASSERT_EQ(*vs, *va) << ea.str() << " simplified to " << simplified.str();
    }
  }
  std::cout << "[ random ] " << queries << " comparison queries (" << decided
            << " decided), " << checks << " bindings checked\n";
  EXPECT_GT(decided, 0u);
}


/// A random atom for the coefficient-shift test: a variable, a product of
/// two variables, or a nested floordiv/mod/min node, so that the reduction
/// inside `mod c`/`floordiv c` is exercised on every kind of monomial.
TreePtr shiftTestAtom(Gen &g) {
  switch (g.uniform(0, 5)) {
  case 0:
  case 1:
    return leafVar(g.varName(4));
  case 2:
  case 3:
    return node(Op::Mul, leafVar(g.varName(4)), leafVar(g.varName(4)));
  case 4:
    return node(g.chance(50) ? Op::FloorDiv : Op::Mod,
                node(Op::Add, leafVar(g.varName(4)),
                     leafConst(g.uniform(-3, 3))),
                leafConst(g.uniform(2, 6)));
  default:
    return node(Op::Min, leafVar(g.varName(4)), leafVar(g.varName(4)));
  }
}

TEST(SymbolicRandom, CoefficientsReducedModuloConstantDivisor) {
  // e = (sum(coeff_i * M_i) + k) op c and e' the same with every coefficient
  // and the constant moved by a multiple of c. For mod, e == e'; for
  // floordiv and ceildiv, e == e' - sum(shift_i * M_i) - shift_k. Both must
  // canonicalise to the same text and evaluate like the trees.
  Gen g(0x5eed0005);
  unsigned pairs = 0, bindings = 0;
  for (int i = 0; i < 8000; ++i) {
    int64_t c = g.uniform(1, 9);
    if (g.chance(15))
      c = -c;
    int op = g.uniform(0, 5); // 0-2 mod, 3-4 floordiv, 5 ceildiv.
    Op divOp = op <= 2 ? Op::Mod : op <= 4 ? Op::FloorDiv : Op::CeilDiv;
    unsigned numTerms = g.uniform(1, 4);
    int64_t k = g.uniform(-12, 12), kShift = g.uniform(-3, 3);
    TreePtr sum = leafConst(k), shiftedSum = leafConst(k + c * kShift);
    TreePtr compensation = leafConst(kShift);
    for (unsigned t = 0; t < numTerms; ++t) {
      TreePtr atom = shiftTestAtom(g);
      int64_t coeff = g.uniform(-12, 12), shift = g.uniform(-4, 4);
      sum = node(Op::Add, sum, node(Op::Mul, leafConst(coeff), atom));
      shiftedSum = node(Op::Add, shiftedSum,
                        node(Op::Mul, leafConst(coeff + c * shift), atom));
      compensation = node(Op::Add, compensation,
                          node(Op::Mul, leafConst(shift), atom));
    }
    TreePtr a = node(divOp, sum, leafConst(c));
    TreePtr b = node(divOp, shiftedSum, leafConst(c));
    if (divOp != Op::Mod)
      b = node(Op::Sub, b, compensation);
    // Sometimes inside a larger expression, as shapes use them.
    if (g.chance(30)) {
      TreePtr factor = shiftTestAtom(g);
      int64_t offset = g.uniform(-5, 5);
      a = node(Op::Add, node(Op::Mul, a, factor), leafConst(offset));
      b = node(Op::Add, node(Op::Mul, b, factor), leafConst(offset));
    }
    Expr ea = toExpr(*a), eb = toExpr(*b);
    ASSERT_TRUE(ea && eb) << toText(*a) << " / " << toText(*b);
    ASSERT_EQ(ea.str(), eb.str()) << toText(*a) << " vs " << toText(*b);
    ASSERT_EQ(ea, eb) << toText(*a) << " vs " << toText(*b);
    ++pairs;
    for (int j = 0; j < 8; ++j) {
      Env env = randomEnv(g, -20, 20);
      auto va = evalTree(*a, env), vb = evalTree(*b, env);
      if (!va || !vb)
        continue;
      ++bindings;
      ASSERT_EQ(*va, *vb) << "generator bug: " << toText(*a) << " vs "
                          << toText(*b);
      auto got = ea.evaluate(env);
      ASSERT_TRUE(got) << toText(*a) << " -> " << ea.str();
      ASSERT_EQ(*got, *va) << toText(*a) << " -> " << ea.str() << " at a="
                           << env["a"] << " b=" << env["b"]
                           << " n=" << env["n"] << " m=" << env["m"];
    }
  }
  std::cout << "[ random ] " << pairs
            << " mod/floordiv pairs with coefficients shifted by multiples "
               "of the divisor identical in canonical form, "
            << bindings << " bindings checked\n";
  EXPECT_GE(pairs, 8000u);
}

} // namespace
