//===- SymbolicContextTest.cpp - Bounds, comparisons and simplify --------===//
//
// Queries must never claim a proof they do not have. These tests pin down
// what interval arithmetic decides, what needs the Presburger fallback, and
// what must stay Unknown.
//
//===----------------------------------------------------------------------===//

#include "SymbolicTestUtils.h"

#include "gtest/gtest.h"

using namespace mlir::relax::sym;

namespace {

Expr v(llvm::StringRef name) { return Expr::var(name); }
Expr c(int64_t value) { return Expr::constant(value); }
Expr p(llvm::StringRef text) {
  std::string err;
  Expr e = parse(text, &err);
  EXPECT_TRUE(e) << text.str() << ": " << err;
  return e;
}

TEST(SymbolicContext, VariablesDefaultToNonNegative) {
  Context ctx;
  EXPECT_EQ(ctx.lowerBound(v("n")), 0);
  EXPECT_EQ(ctx.upperBound(v("n")), std::nullopt);
  EXPECT_EQ(ctx.upperBound(-v("n")), 0);
  EXPECT_EQ(ctx.isLE(c(0), v("n")), Truth::True);
}

TEST(SymbolicContext, DeclaredBounds) {
  Context ctx;
  ctx.setBounds("n", 1, 10);
  EXPECT_EQ(ctx.lowerBound(v("n") * 2 + 3), 5);
  EXPECT_EQ(ctx.upperBound(v("n") * 2 + 3), 23);
  EXPECT_EQ(ctx.lowerBound(c(3) - v("n")), -7);
  EXPECT_EQ(ctx.upperBound(c(3) - v("n")), 2);
}

TEST(SymbolicContext, UnboundedVariables) {
  Context ctx;
  ctx.setBounds("x", std::nullopt, std::nullopt);
  EXPECT_EQ(ctx.lowerBound(v("x")), std::nullopt);
  EXPECT_EQ(ctx.isLE(c(0), v("x")), Truth::Unknown);
  EXPECT_EQ(ctx.isLE(c(0), v("x") * v("x")), Truth::True);
}

TEST(SymbolicContext, BoundsOfDivisionAndModulo) {
  Context ctx;
  ctx.setBounds("n", 0, 100);
  EXPECT_EQ(ctx.lowerBound(floorDiv(v("n"), c(4))), 0);
  EXPECT_EQ(ctx.upperBound(floorDiv(v("n"), c(4))), 25);
  EXPECT_EQ(ctx.upperBound(mod(v("n"), c(4))), 3);
  EXPECT_EQ(ctx.upperBound(mod(v("m"), c(4))), 3);
  EXPECT_EQ(ctx.lowerBound(mod(v("m"), c(4))), 0);
  ctx.setBounds("d", 2, 5);
  EXPECT_EQ(ctx.upperBound(floorDiv(v("n"), v("d"))), 50);
  EXPECT_EQ(ctx.lowerBound(floorDiv(v("n"), v("d"))), 0);
  EXPECT_EQ(ctx.upperBound(mod(v("n"), v("d"))), 4);
}

TEST(SymbolicContext, BoundsOfNegativeDivision) {
  Context ctx;
  ctx.setBounds("x", -10, 10);
  EXPECT_EQ(ctx.lowerBound(floorDiv(v("x"), c(4))), -3);
  EXPECT_EQ(ctx.upperBound(floorDiv(v("x"), c(4))), 2);
  EXPECT_EQ(ctx.lowerBound(mod(v("x"), c(-4))), -3);
  EXPECT_EQ(ctx.upperBound(mod(v("x"), c(-4))), 0);
}

TEST(SymbolicContext, BoundsOfMinMax) {
  Context ctx;
  ctx.setBounds("n", 10, 20);
  EXPECT_EQ(ctx.upperBound(min(v("n"), v("m"))), 20);
  EXPECT_EQ(ctx.lowerBound(min(v("n"), v("m"))), 0);
  EXPECT_EQ(ctx.lowerBound(max(v("n"), v("m"))), 10);
  EXPECT_EQ(ctx.upperBound(max(v("n"), v("m"))), std::nullopt);
}

TEST(SymbolicContext, BoundsOfProducts) {
  Context ctx;
  ctx.setBounds("n", 2, 3);
  ctx.setBounds("m", -5, 4);
  EXPECT_EQ(ctx.lowerBound(v("n") * v("m")), -15);
  EXPECT_EQ(ctx.upperBound(v("n") * v("m")), 12);
}

TEST(SymbolicContext, DivisibilityTightensBounds) {
  Context ctx;
  ctx.setBounds("n", 1, 30);
  ctx.addDivisibility("n", 8);
  EXPECT_EQ(ctx.lowerBound(v("n")), 8);
  EXPECT_EQ(ctx.upperBound(v("n")), 24);
  EXPECT_EQ(ctx.upperBound(mod(v("n"), c(4))), 0);
}

TEST(SymbolicContext, DivisibilityCombines) {
  Context ctx;
  ctx.addDivisibility("n", 4);
  ctx.addDivisibility("n", 6);
  EXPECT_EQ(ctx.varDivisor("n"), 12);
  ctx.addDivisibility("n", 0); // Ignored.
  EXPECT_EQ(ctx.varDivisor("n"), 12);
}

TEST(SymbolicContext, OverflowingBoundsBecomeUnknown) {
  Context ctx;
  ctx.setBounds("n", 0, INT64_MAX);
  EXPECT_EQ(ctx.upperBound(v("n") * 4), std::nullopt);
  EXPECT_EQ(ctx.lowerBound(v("n") * 4), 0);
  EXPECT_EQ(ctx.upperBound(v("n") + 1), std::nullopt);
}

TEST(SymbolicContext, CompareWithoutFacts) {
  Context ctx;
  EXPECT_EQ(ctx.isLE(v("n"), v("n") + 1), Truth::True);
  EXPECT_EQ(ctx.isLT(v("n"), v("n") + 1), Truth::True);
  EXPECT_EQ(ctx.isLT(v("n") + 1, v("n")), Truth::False);
  EXPECT_EQ(ctx.isLE(v("n"), v("m")), Truth::Unknown);
  EXPECT_EQ(ctx.isLE(v("n"), v("n") * 2), Truth::True);
  EXPECT_EQ(ctx.isEQ(v("n"), v("m")), Truth::Unknown);
}

TEST(SymbolicContext, CompareWithBounds) {
  Context ctx;
  ctx.setBounds("k", std::nullopt, 4096);
  EXPECT_EQ(ctx.isLE(v("k") + 1, c(4097)), Truth::True);
  EXPECT_EQ(ctx.isLE(v("k"), c(4000)), Truth::Unknown);
  EXPECT_EQ(ctx.isGT(v("k"), c(4096)), Truth::False);
  EXPECT_EQ(ctx.isLT(c(5000), v("k")), Truth::False);
}

TEST(SymbolicContext, CompareHelpers) {
  Context ctx;
  ctx.setBounds("n", 5, 10);
  EXPECT_EQ(ctx.isGE(v("n"), c(5)), Truth::True);
  EXPECT_EQ(ctx.isGT(v("n"), c(5)), Truth::Unknown);
  EXPECT_EQ(ctx.isNE(v("n"), c(4)), Truth::True);
  EXPECT_EQ(ctx.isNE(v("n"), v("n")), Truth::False);
  EXPECT_EQ(ctx.isNE(v("n"), c(7)), Truth::Unknown);
  EXPECT_TRUE(ctx.provablyNotEqual(v("n"), c(11)));
  EXPECT_FALSE(ctx.provablyEqual(v("n"), c(7)));
}

TEST(SymbolicContext, PresburgerFloorDivTimesDivisor) {
  Context ctx;
  Expr q = floorDiv(v("n"), c(4)) * 4;
  // Interval arithmetic alone cannot bound n - 4 * (n floordiv 4) below.
  EXPECT_EQ(ctx.lowerBound(v("n") - q), std::nullopt);
  EXPECT_EQ(ctx.isLE(q, v("n")), Truth::True);
  EXPECT_EQ(ctx.isLT(v("n"), q + 4), Truth::True);
  EXPECT_EQ(ctx.isLT(q, v("n")), Truth::Unknown);
}

TEST(SymbolicContext, PresburgerCeilRoundUp) {
  Context ctx;
  EXPECT_EQ(ctx.isGE(p("(n + 31) floordiv 32 * 32"), v("n")), Truth::True);
  EXPECT_EQ(ctx.isLT(p("(n + 31) floordiv 32 * 32"), v("n")), Truth::False);
  EXPECT_EQ(ctx.isLE(p("n ceildiv 32 * 32"), v("n") + 31), Truth::True);
}

TEST(SymbolicContext, PresburgerModIdentity) {
  Context ctx;
  ctx.setBounds("n", std::nullopt, std::nullopt);
  EXPECT_NE(p("n mod 4"), p("n - n floordiv 4 * 4"));
  EXPECT_TRUE(ctx.provablyEqual(p("n mod 4"), p("n - n floordiv 4 * 4")));
  EXPECT_FALSE(ctx.provablyEqual(p("n mod 4"), p("n - n floordiv 2 * 2")));
}

TEST(SymbolicContext, PresburgerTwoVariables) {
  Context ctx;
  ctx.setBounds("i", 0, 15);
  ctx.setBounds("j", 0, 3);
  // i floordiv 4 * 4 + j <= i + 3 needs the division's defining constraint.
  EXPECT_EQ(ctx.isLE(p("i floordiv 4 * 4 + j"), p("i + 3")), Truth::True);
  EXPECT_EQ(ctx.isLT(p("i mod 4 * 4 + j"), c(16)), Truth::True);
}

TEST(SymbolicContext, PresburgerMinMax) {
  Context ctx;
  EXPECT_EQ(ctx.isLE(min(v("n"), v("m")), v("n")), Truth::True);
  EXPECT_EQ(ctx.isLE(min(v("n"), v("m")), v("m") + v("k")), Truth::True);
  EXPECT_EQ(ctx.isGE(max(v("n"), v("m")) + 1, v("m")), Truth::True);
  EXPECT_EQ(ctx.isLE(min(v("n"), v("m")), v("k")), Truth::Unknown);
}

TEST(SymbolicContext, PresburgerOpaqueProducts) {
  Context ctx;
  ctx.setBounds("n", 1, std::nullopt);
  Expr nm = v("n") * v("m");
  EXPECT_EQ(ctx.isLE(nm, nm + v("m")), Truth::True);
  EXPECT_EQ(ctx.isLE(floorDiv(nm, c(2)) * 2, nm), Truth::True);
  EXPECT_EQ(ctx.isLE(nm, v("m")), Truth::Unknown);
}

TEST(SymbolicContext, DivisibilityProvesEquality) {
  Context ctx;
  EXPECT_EQ(ctx.isEQ(floorDiv(v("n"), c(4)) * 4, v("n")), Truth::Unknown);
  ctx.addDivisibility("n", 8);
  EXPECT_EQ(ctx.isEQ(floorDiv(v("n"), c(4)) * 4, v("n")), Truth::True);
  EXPECT_EQ(ctx.isEQ(mod(v("n"), c(4)), c(0)), Truth::True);
}

TEST(SymbolicContext, DivisibilityProvesDisequality) {
  Context ctx;
  ctx.addDivisibility("n", 2);
  EXPECT_EQ(ctx.isEQ(v("n"), v("m") * 2 + 1), Truth::False);
  EXPECT_EQ(ctx.isEQ(v("n") * 3, v("m") * 6 + 3), Truth::False);
  EXPECT_EQ(ctx.isEQ(v("n"), v("m") * 2), Truth::Unknown);
}

TEST(SymbolicContext, ParityWithoutFacts) {
  Context ctx;
  // 2n == 2m + 1 has no integer solution: the equality is refuted.
  EXPECT_EQ(ctx.isEQ(v("n") * 2, v("m") * 2 + 1), Truth::False);
  EXPECT_EQ(ctx.isEQ(v("n") * 2 + v("k") * 4, v("m") * 6 + 3),
            Truth::False);
}

TEST(SymbolicContext, NullQueriesAreUnknown) {
  Context ctx;
  EXPECT_EQ(ctx.isLE(Expr(), v("n")), Truth::Unknown);
  EXPECT_EQ(ctx.isEQ(v("n"), Expr()), Truth::Unknown);
  EXPECT_EQ(ctx.lowerBound(Expr()), std::nullopt);
  EXPECT_FALSE(ctx.simplify(Expr()));
}

TEST(SymbolicContext, SimplifyOrderedMinMax) {
  Context ctx;
  ctx.setBounds("n", 0, 100);
  EXPECT_EQ(ctx.simplify(min(v("n"), c(128))), v("n"));
  EXPECT_EQ(ctx.simplify(max(v("n"), c(128))), c(128));
  EXPECT_EQ(ctx.simplify(min(v("n"), c(50))), min(v("n"), c(50)));
  EXPECT_EQ(ctx.simplify(max(v("n") * 2, v("n"))), v("n") * 2);
  EXPECT_EQ(ctx.simplify(min(v("n"), v("m"))), min(v("n"), v("m")));
}

TEST(SymbolicContext, SimplifySmallNumerators) {
  Context ctx;
  ctx.setBounds("n", 0, 7);
  EXPECT_EQ(ctx.simplify(mod(v("n"), c(8))), v("n"));
  EXPECT_EQ(ctx.simplify(floorDiv(v("n"), c(8))), c(0));
  EXPECT_EQ(ctx.simplify(mod(v("n"), c(4))), mod(v("n"), c(4)));
  EXPECT_EQ(ctx.simplify(v("m") + mod(v("n"), c(8)) * 2), v("m") + v("n") * 2);
}

TEST(SymbolicContext, SimplifyShiftedRange) {
  Context ctx;
  ctx.setBounds("n", 8, 15);
  EXPECT_EQ(ctx.simplify(floorDiv(v("n"), c(8))), c(1));
  EXPECT_EQ(ctx.simplify(mod(v("n"), c(8))), v("n") - 8);
}

TEST(SymbolicContext, SimplifyOtherResidueRepresentatives) {
  // The canonical form keeps balanced coefficients inside `mod c`; range
  // folds also try the all-non-negative and all-non-positive members of the
  // residue class.
  Context ctx;
  ctx.setBounds("n", 0, 1);
  EXPECT_EQ(mod(v("n") * 3, c(5)).str(), "-n * 2 mod 5");
  EXPECT_EQ(ctx.simplify(mod(v("n") * 3, c(5))), v("n") * 3);
  EXPECT_EQ(ctx.simplify(floorDiv(v("n") * 3, c(5))), c(0));
  // (1 - n) mod 2 is stored as (n + 1) mod 2.
  EXPECT_EQ(ctx.simplify(mod(c(1) - v("n"), c(2))), c(1) - v("n"));
  EXPECT_EQ(ctx.simplify(floorDiv(c(1) - v("n"), c(2))), c(0));
  // (9 - 3 * m) floordiv 4 is stored as (m + 1) floordiv 4 - m + 2.
  ctx.setBounds("m", 2, 3);
  EXPECT_EQ(ctx.simplify(floorDiv(c(9) - v("m") * 3, c(4))), c(0));
}

TEST(SymbolicContext, SimplifySymbolicDivisor) {
  Context ctx;
  ctx.setBounds("n", 0, 3);
  ctx.setBounds("m", 4, 10);
  EXPECT_EQ(ctx.simplify(mod(v("n"), v("m"))), v("n"));
  EXPECT_EQ(ctx.simplify(floorDiv(v("n"), v("m"))), c(0));
  EXPECT_EQ(ctx.simplify(mod(v("m"), v("n") + 1)), mod(v("m"), v("n") + 1));
}

TEST(SymbolicContext, SimplifyWithDivisibility) {
  Context ctx;
  ctx.addDivisibility("n", 8);
  EXPECT_EQ(ctx.simplify(mod(v("n"), c(4))), c(0));
  EXPECT_EQ(ctx.simplify(v("k") + mod(v("n") + v("m") * 4, c(4))), v("k"));
}

TEST(SymbolicContext, SimplifyNested) {
  Context ctx;
  ctx.setBounds("n", 0, 7);
  // (n mod 8) mod 16 -> n once the inner mod is gone.
  EXPECT_EQ(ctx.simplify(mod(mod(v("n"), c(8)), c(16))), v("n"));
  EXPECT_EQ(ctx.simplify(min(mod(v("n"), c(8)), c(9))), v("n"));
}

} // namespace
