//===- SymbolicExprTest.cpp - Canonical form and rewrite rules -----------===//
//
// One targeted test per context-free rule of the canonicaliser, plus the
// printing, substitution and evaluation contracts the dialect relies on.
//
//===----------------------------------------------------------------------===//

#include "SymbolicTestUtils.h"

#include "llvm/ADT/DenseSet.h"

#include "gtest/gtest.h"

using namespace mlir::relax::sym;

namespace {

Expr v(llvm::StringRef name) { return Expr::var(name); }
Expr c(int64_t value) { return Expr::constant(value); }

TEST(SymbolicExpr, ConstantFolding) {
  Expr e = (c(3) + c(4)) * c(2) - c(1);
  ASSERT_TRUE(e.getConstant());
  EXPECT_EQ(*e.getConstant(), 13);
  EXPECT_EQ(e.str(), "13");
}

TEST(SymbolicExpr, VariableAccessors) {
  Expr n = v("n");
  EXPECT_TRUE(n.isVar());
  EXPECT_EQ(n.getVarName(), "n");
  EXPECT_FALSE(n.getConstant());
  EXPECT_FALSE((n + 1).isVar());
  EXPECT_FALSE((n * 2).isVar());
  EXPECT_EQ((n * 2).getVarName(), "");
}

TEST(SymbolicExpr, NullPropagates) {
  Expr null;
  EXPECT_FALSE(null);
  EXPECT_FALSE(null + v("n"));
  EXPECT_FALSE(floorDiv(v("n"), null));
  EXPECT_FALSE(min(null, c(1)));
  EXPECT_EQ(null.str(), "<<null>>");
  EXPECT_FALSE(null.evaluate({}));
}

TEST(SymbolicExpr, AdditionIsCanonical) {
  EXPECT_EQ(v("n") + v("m"), v("m") + v("n"));
  EXPECT_EQ((v("n") + v("m")).str(), "m + n");
  EXPECT_EQ((c(1) + v("n")).str(), "n + 1");
}

TEST(SymbolicExpr, LikeTermsMerge) {
  EXPECT_EQ((v("n") + v("n") * 3).str(), "n * 4");
  EXPECT_EQ((v("n") * 2 + v("m") + v("n") * 2).str(), "m + n * 4");
}

TEST(SymbolicExpr, CancellationGivesZero) {
  Expr e = v("n") * 3 + v("m") - v("m") - v("n") * 3;
  ASSERT_TRUE(e.getConstant());
  EXPECT_EQ(*e.getConstant(), 0);
}

TEST(SymbolicExpr, NegativeCoefficientsPrintAsSubtraction) {
  EXPECT_EQ((v("n") - 1).str(), "n - 1");
  EXPECT_EQ((v("m") - v("n") * 2).str(), "m - n * 2");
  EXPECT_EQ((-v("n")).str(), "-n");
  EXPECT_EQ((c(1) - v("n")).str(), "-n + 1");
  EXPECT_EQ(c(-5).str(), "-5");
}

TEST(SymbolicExpr, MultiplicationDistributes) {
  Expr e = (v("n") + 1) * (v("m") + 2);
  EXPECT_EQ(e.str(), "m * n + m + n * 2 + 2");
}

TEST(SymbolicExpr, EqualPolynomialsShareOneForm) {
  Expr a = v("a"), b = v("b");
  Expr lhs = (a + b) * (a - b);
  Expr rhs = a * a - b * b;
  EXPECT_EQ(lhs, rhs);
  EXPECT_EQ(lhs.str(), rhs.str());
  EXPECT_EQ(lhs.str(), "a * a - b * b");
}

TEST(SymbolicExpr, HigherDegreeTermsFirst) {
  Expr n = v("n");
  EXPECT_EQ((c(1) + n + n * n * 2).str(), "n * n * 2 + n + 1");
}

TEST(SymbolicExpr, MultiplyByZeroAndOne) {
  EXPECT_EQ(v("n") * 0, c(0));
  EXPECT_EQ(v("n") * 1, v("n"));
  EXPECT_EQ(c(0) * (v("n") + v("m")), c(0));
}

TEST(SymbolicExpr, FloorDivByOne) {
  EXPECT_EQ(floorDiv(v("n") + v("m"), c(1)), v("n") + v("m"));
}

TEST(SymbolicExpr, FloorDivOfExactMultiple) {
  EXPECT_EQ(floorDiv(v("n") * 4, c(4)), v("n"));
  EXPECT_EQ(floorDiv(v("n") * 12 + 8, c(4)), v("n") * 3 + 2);
}

TEST(SymbolicExpr, FloorDivPullsOutMultiples) {
  Expr e = floorDiv(v("n") * 8 + v("m"), c(4));
  EXPECT_EQ(e.str(), "n * 2 + m floordiv 4");
}

TEST(SymbolicExpr, FloorDivReducesConstant) {
  EXPECT_EQ(floorDiv(v("n") + 35, c(32)).str(), "(n + 3) floordiv 32 + 1");
  EXPECT_EQ(floorDiv(v("n") - 1, c(4)).str(), "(n + 3) floordiv 4 - 1");
}

TEST(SymbolicExpr, FloorDivDividesCommonFactor) {
  EXPECT_EQ(floorDiv(v("n") * 2 + 2, c(4)).str(), "(n + 1) floordiv 2");
  EXPECT_EQ(floorDiv(v("n") * 6, c(4)), floorDiv(v("n") * 3, c(2)));
}

TEST(SymbolicExpr, FloorDivNestedConstants) {
  EXPECT_EQ(floorDiv(floorDiv(v("n"), c(4)), c(8)).str(), "n floordiv 32");
  EXPECT_EQ(floorDiv(floorDiv(v("n"), c(4)) + 1, c(2)).str(),
            "(n + 4) floordiv 8");
}

TEST(SymbolicExpr, FloorDivNegativeDivisor) {
  EXPECT_EQ(floorDiv(v("n"), c(-4)), floorDiv(-v("n"), c(4)));
  EXPECT_EQ(floorDiv(v("n"), c(-1)), -v("n"));
  EXPECT_EQ(floorDiv(v("n"), c(-4)).str(), "-n floordiv 4");
}

TEST(SymbolicExpr, FloorDivTrivialSymbolic) {
  EXPECT_EQ(floorDiv(c(0), v("n")), c(0));
  EXPECT_EQ(floorDiv(v("n") + 1, v("n") + 1), c(1));
}

TEST(SymbolicExpr, FloorDivBySymbolicMonomial) {
  Expr e = floorDiv(v("n") * v("m") + v("k"), v("m"));
  EXPECT_EQ(e.str(), "n + k floordiv m");
  EXPECT_EQ(floorDiv(v("n") * v("m") * 6, v("m") * 3), v("n") * 2);
}

TEST(SymbolicExpr, FloorDivSymbolicNegativeDivisor) {
  EXPECT_EQ(floorDiv(v("n"), -v("m")), floorDiv(-v("n"), v("m")));
}

TEST(SymbolicExpr, DivisionByZeroStaysUndefined) {
  Expr e = floorDiv(v("n"), c(0));
  EXPECT_EQ(e.str(), "n floordiv 0");
  EXPECT_FALSE(e.evaluate({{"n", 3}}));
  EXPECT_FALSE(mod(c(3), c(0)).evaluate({}));
  EXPECT_FALSE(floorDiv(v("n"), v("m")).evaluate({{"n", 3}, {"m", 0}}));
}

TEST(SymbolicExpr, ConstantFloorSemantics) {
  EXPECT_EQ(*floorDiv(c(-7), c(2)).getConstant(), -4);
  EXPECT_EQ(*floorDiv(c(7), c(-2)).getConstant(), -4);
  EXPECT_EQ(*floorDiv(c(-7), c(-2)).getConstant(), 3);
  EXPECT_EQ(*mod(c(-7), c(2)).getConstant(), 1);
  EXPECT_EQ(*mod(c(7), c(-2)).getConstant(), -1);
  EXPECT_EQ(*mod(c(-7), c(-2)).getConstant(), -1);
  EXPECT_EQ(*ceilDiv(c(7), c(2)).getConstant(), 4);
  EXPECT_EQ(*ceilDiv(c(-7), c(2)).getConstant(), -3);
}

TEST(SymbolicExpr, ModByOne) {
  EXPECT_EQ(mod(v("n"), c(1)), c(0));
  EXPECT_EQ(mod(v("n"), c(-1)), c(0));
}

TEST(SymbolicExpr, ModDropsMultiples) {
  EXPECT_EQ(mod(v("n") * 8 + v("m"), c(4)).str(), "m mod 4");
  EXPECT_EQ(mod(v("n") * 4 + 6, c(4)), c(2));
  EXPECT_EQ(mod(v("n") + 9, c(4)).str(), "(n + 1) mod 4");
}

TEST(SymbolicExpr, ModReducesCoefficients) {
  // Every coefficient inside `mod c` is reduced modulo c, so expressions
  // equal modulo c print alike.
  Expr m = v("m");
  EXPECT_EQ(mod(m * 9, c(2)).str(), "m mod 2");
  EXPECT_EQ(mod(m * 9 + 4, c(2)), mod(m, c(2)));
  EXPECT_EQ(mod(m * 2 + 3, c(2)), c(1)); // 2 * m is even for every m.
  EXPECT_EQ(mod(-m, c(2)), mod(m, c(2)));
  EXPECT_EQ(mod(m * 7 + v("n") * 10, c(4)), mod(v("n") * 2 - m, c(4)));
  // Balanced residues: a small negative coefficient stays as written.
  EXPECT_EQ(mod(v("n") - m + 2, c(3)).str(), "(-m + n + 2) mod 3");
  EXPECT_EQ(mod(m * 5, c(3)).str(), "-m mod 3"); // (-m) mod 3
  // Products of variables are monomials like any other.
  EXPECT_EQ(mod(m * v("n") * 13 + 1, c(4)), mod(m * v("n") + 1, c(4)));
}

TEST(SymbolicExpr, FloorDivSplitsOffCoefficientMultiples) {
  Expr m = v("m");
  EXPECT_EQ(floorDiv(m * 9 + 4, c(2)), m * 4 + 2 + floorDiv(m, c(2)));
  EXPECT_EQ(floorDiv(m * 9 + 4, c(2)).str(), "m * 4 + m floordiv 2 + 2");
  EXPECT_EQ(floorDiv(m * 2 + 3, c(2)), m + 1);
  // floor(-m / 2) == -m + floor(m / 2) for every integer m, negatives too.
  EXPECT_EQ(floorDiv(-m, c(2)), floorDiv(m, c(2)) - m);
  EXPECT_EQ(floorDiv(m * 3, c(4)).str(), "m + -m floordiv 4");
  EXPECT_EQ(ceilDiv(m * 9, c(2)), m * 4 + ceilDiv(m, c(2)));
  for (int64_t x = -9; x <= 9; ++x) {
    llvm::StringMap<int64_t> env{{"m", x}};
    int64_t num = 9 * x + 4, rem = ((num % 2) + 2) % 2;
    EXPECT_EQ(*floorDiv(m * 9 + 4, c(2)).evaluate(env), (num - rem) / 2) << x;
    EXPECT_EQ(*mod(m * 9 + 4, c(2)).evaluate(env), rem) << x;
  }
}

TEST(SymbolicExpr, ModOfSelf) {
  EXPECT_EQ(mod(v("n"), v("n")), c(0));
  EXPECT_EQ(mod(c(0), v("n")), c(0));
  EXPECT_EQ(mod(v("n") * v("m") + v("m") * 2, v("m")), c(0));
}

TEST(SymbolicExpr, ModDividesCommonFactor) {
  EXPECT_EQ(mod(v("n") * 2, c(4)).str(), "n mod 2 * 2");
}

TEST(SymbolicExpr, ModNested) {
  EXPECT_EQ(mod(mod(v("n"), c(8)), c(4)), mod(v("n"), c(4)));
  EXPECT_EQ(mod(mod(v("n"), c(8)) + 1, c(4)), mod(v("n") + 1, c(4)));
}

TEST(SymbolicExpr, ModNegativeDivisorEvaluates) {
  // a mod -4 lies in (-4, 0] and a - (a mod -4) is a multiple of 4.
  Expr e = mod(v("n"), c(-4));
  for (int64_t n = -9; n <= 9; ++n) {
    int64_t r = *e.evaluate({{"n", n}});
    EXPECT_LE(r, 0) << n;
    EXPECT_GT(r, -4) << n;
    EXPECT_EQ((n - r) % 4, 0) << n;
  }
}

TEST(SymbolicExpr, CeilDivByConstant) {
  EXPECT_EQ(ceilDiv(v("k"), c(32)), floorDiv(v("k") + 31, c(32)));
  EXPECT_EQ(ceilDiv(v("k"), c(32)).str(), "(k + 31) floordiv 32");
  EXPECT_EQ(ceilDiv(v("k") * 4, c(4)), v("k"));
}

TEST(SymbolicExpr, CeilDivSymbolicEvaluates) {
  Expr e = ceilDiv(v("n"), v("m"));
  EXPECT_EQ(*e.evaluate({{"n", 7}, {"m", 2}}), 4);
  EXPECT_EQ(*e.evaluate({{"n", -7}, {"m", 2}}), -3);
  EXPECT_EQ(*e.evaluate({{"n", 8}, {"m", 2}}), 4);
  EXPECT_EQ(*e.evaluate({{"n", 7}, {"m", -2}}), -3);
}

TEST(SymbolicExpr, MinMaxOfIdenticalArgs) {
  EXPECT_EQ(min(v("n"), v("n")), v("n"));
  EXPECT_EQ(max(v("n") + 1, v("n") + 1), v("n") + 1);
}

TEST(SymbolicExpr, MinMaxCommutative) {
  EXPECT_EQ(min(v("n"), v("m")), min(v("m"), v("n")));
  EXPECT_EQ(max(v("n"), v("m")), max(v("m"), v("n")));
  EXPECT_EQ(min(v("n"), v("m")).str(), "min(m, n)");
}

TEST(SymbolicExpr, MinMaxConstantsFold) {
  EXPECT_EQ(min(c(3), c(5)), c(3));
  EXPECT_EQ(max(c(3), c(5)), c(5));
  EXPECT_EQ(min(min(v("n"), c(4)), c(8)), min(v("n"), c(4)));
  EXPECT_EQ(max(max(v("n"), c(4)), c(8)), max(v("n"), c(8)));
}

TEST(SymbolicExpr, MinMaxOfConstantOffsets) {
  EXPECT_EQ(min(v("n"), v("n") + 1), v("n"));
  EXPECT_EQ(max(v("n"), v("n") + 1), v("n") + 1);
  EXPECT_EQ(min(v("n") - 3, v("n") + 2), v("n") - 3);
}

TEST(SymbolicExpr, MinMaxFlattenAssociative) {
  Expr a = v("a"), b = v("b"), cc = v("c");
  EXPECT_EQ(min(min(a, b), cc), min(a, min(cc, b)));
  EXPECT_EQ(min(min(a, b), cc).str(), "min(a, min(b, c))");
  EXPECT_NE(min(min(a, b), cc), max(max(a, b), cc));
}

TEST(SymbolicExpr, HashAgreesWithEquality) {
  Expr a = (v("n") + 1) * v("m");
  Expr b = v("m") * v("n") + v("m");
  EXPECT_EQ(a, b);
  EXPECT_EQ(hash_value(a), hash_value(b));
  llvm::DenseSet<Expr> set;
  set.insert(a);
  EXPECT_TRUE(set.contains(b));
  EXPECT_FALSE(set.contains(a + 1));
  EXPECT_EQ(std::hash<Expr>()(a), std::hash<Expr>()(b));
}

TEST(SymbolicExpr, CollectVarsSortedUnique) {
  Expr e = floorDiv(v("z") + v("a"), v("m")) * v("a") + min(v("b"), v("z"));
  llvm::SmallVector<std::string> vars;
  e.collectVars(vars);
  ASSERT_EQ(vars.size(), 4u);
  EXPECT_EQ(vars[0], "a");
  EXPECT_EQ(vars[1], "b");
  EXPECT_EQ(vars[2], "m");
  EXPECT_EQ(vars[3], "z");
}

TEST(SymbolicExpr, SubstituteRecanonicalises) {
  llvm::StringMap<Expr> map;
  map["n"] = v("m") * 2;
  EXPECT_EQ(((v("n") + v("m")) * 2).substitute(map).str(), "m * 6");
  llvm::StringMap<Expr> map2;
  map2["n"] = v("k") * 4;
  EXPECT_EQ(floorDiv(v("n"), c(4)).substitute(map2), v("k"));
  EXPECT_EQ(min(v("n"), c(8)).substitute(map2), min(v("k") * 4, c(8)));
  llvm::StringMap<Expr> map3;
  map3["n"] = c(5);
  EXPECT_EQ(mod(v("n") * v("m"), c(3)).substitute(map3),
            mod(v("m") * 5, c(3)));
  EXPECT_EQ(max(v("n"), c(3)).substitute(map3), c(5));
}

TEST(SymbolicExpr, EvaluateBasics) {
  Expr e = v("n") * 4 + floorDiv(v("k") + 31, c(32)) - min(v("n"), c(3));
  EXPECT_EQ(*e.evaluate({{"n", 5}, {"k", 33}}), 20 + 2 - 3);
  EXPECT_FALSE(e.evaluate({{"n", 5}}));
}

TEST(SymbolicExpr, EvaluateDetectsOverflow) {
  Expr e = v("n") * v("n");
  EXPECT_FALSE(e.evaluate({{"n", int64_t(1) << 40}}));
  EXPECT_EQ(*e.evaluate({{"n", 3000000000}}), 9000000000000000000);
  EXPECT_FALSE(v("n").evaluate({{"n", INT64_MIN}}));
}

TEST(SymbolicExpr, ConstantOverflowYieldsNull) {
  EXPECT_FALSE(c(INT64_MIN));
  EXPECT_FALSE(c(INT64_MAX) + c(1));
  EXPECT_FALSE(v("n") * INT64_MAX * 2);
  EXPECT_FALSE(c(INT64_MAX / 2) * c(3));
  EXPECT_TRUE(-c(INT64_MAX));
  EXPECT_FALSE(-c(INT64_MAX) - c(1));
}

TEST(SymbolicExpr, PrintMinimalParentheses) {
  Expr n = v("n"), m = v("m");
  EXPECT_EQ(floorDiv(n + 1, m).str(), "(n + 1) floordiv m");
  EXPECT_EQ(floorDiv(n, m + 1).str(), "n floordiv (m + 1)");
  EXPECT_EQ(floorDiv(n, min(m, c(4))).str(), "n floordiv min(m, 4)");
  EXPECT_EQ((n * floorDiv(m, c(4))).str(), "n * (m floordiv 4)");
  EXPECT_EQ((floorDiv(m, c(4)) * 3).str(), "m floordiv 4 * 3");
  EXPECT_EQ(floorDiv(mod(n, m), c(3)).str(), "n mod m floordiv 3");
  EXPECT_EQ(mod(n, floorDiv(m, c(3))).str(), "n mod (m floordiv 3)");
}

TEST(SymbolicExpr, PrintLeadingNegativeDivision) {
  EXPECT_EQ((-floorDiv(v("n"), c(4))).str(), "-(n floordiv 4)");
  EXPECT_EQ((c(1) - floorDiv(v("n"), c(4)) * 2).str(),
            "-(n floordiv 4 * 2) + 1");
}

TEST(SymbolicExpr, SumMatchesRepeatedAddition) {
  llvm::SmallVector<Expr> parts;
  Expr acc = c(0);
  for (int i = 0; i < 20; ++i) {
    Expr t = v("x" + std::to_string(i % 7)) * (i + 1) + (i - 3);
    parts.push_back(t);
    acc = acc + t;
  }
  EXPECT_EQ(sum(parts), acc);
}

TEST(SymbolicExpr, CompareIsATotalOrder) {
  llvm::SmallVector<Expr> es = {c(1), v("a"), v("b"), v("a") * v("b"),
                                floorDiv(v("a"), c(2)), mod(v("a"), c(2)),
                                min(v("a"), v("b")), max(v("a"), v("b"))};
  for (const Expr &x : es)
    for (const Expr &y : es) {
      int xy = Expr::compare(x, y), yx = Expr::compare(y, x);
      EXPECT_EQ(xy == 0, x == y);
      EXPECT_EQ(xy < 0, yx > 0);
    }
}

} // namespace
