//===- SymbolicParserTest.cpp - Text syntax and error reporting ----------===//
//
// The syntax is what appears inside Relax types, so it must round-trip and
// its errors must point at the offending column for diagnostics.
//
//===----------------------------------------------------------------------===//

#include "SymbolicTestUtils.h"

#include "gtest/gtest.h"

using namespace mlir::relax::sym;

namespace {

Expr v(llvm::StringRef name) { return Expr::var(name); }
Expr c(int64_t value) { return Expr::constant(value); }

/// Parses `text` expecting failure; returns the column and checks the
/// message mentions `fragment`.
unsigned parseError(llvm::StringRef text, llvm::StringRef fragment) {
  std::string message;
  unsigned column = ~0u;
  Expr e = parse(text, &message, &column);
  EXPECT_FALSE(e) << "parsed: " << e.str();
  EXPECT_NE(message.find(fragment.str()), std::string::npos)
      << "message: " << message;
  return column;
}

TEST(SymbolicParser, ParsesTypeSyntax) {
  Expr e = parse("n * 4 + (k + 31) floordiv 32");
  ASSERT_TRUE(e);
  EXPECT_EQ(e, v("n") * 4 + floorDiv(v("k") + 31, c(32)));
  EXPECT_EQ(e.str(), "n * 4 + (k + 31) floordiv 32");
}

TEST(SymbolicParser, ParsesMinMax) {
  EXPECT_EQ(parse("min(n, 128)"), min(v("n"), c(128)));
  EXPECT_EQ(parse("max(a, b, c)"), max(v("a"), max(v("b"), v("c"))));
  EXPECT_EQ(parse("min(n - 1, max(m, 2))"),
            min(v("n") - 1, max(v("m"), c(2))));
}

TEST(SymbolicParser, ParsesUnaryMinus) {
  EXPECT_EQ(parse("-n + 3"), c(3) - v("n"));
  EXPECT_EQ(parse("- - n"), v("n"));
  EXPECT_EQ(parse("-9223372036854775807"), c(-INT64_MAX));
  EXPECT_EQ(parse("-n floordiv 4"), floorDiv(-v("n"), c(4)));
}

TEST(SymbolicParser, ParsesModAndCeilDiv) {
  EXPECT_EQ(parse("x mod 8"), mod(v("x"), c(8)));
  EXPECT_EQ(parse("n ceildiv 4"), ceilDiv(v("n"), c(4)));
  EXPECT_EQ(parse("n ceildiv m"), ceilDiv(v("n"), v("m")));
}

TEST(SymbolicParser, Precedence) {
  EXPECT_EQ(parse("2 + 3 * 4"), c(14));
  EXPECT_EQ(parse("10 - 3 - 2"), c(5));
  EXPECT_EQ(parse("7 floordiv 2 * 2"), c(6));
  EXPECT_EQ(parse("2 * 7 floordiv 4"), c(3));
  EXPECT_EQ(parse("n floordiv 2 * 2"), floorDiv(v("n"), c(2)) * 2);
  EXPECT_EQ(parse("-2 * 3"), c(-6));
}

TEST(SymbolicParser, IdentifiersAndWhitespace) {
  EXPECT_EQ(parse("  _n1 +\tbatch_size "), v("_n1") + v("batch_size"));
  EXPECT_EQ(parse("n*4"), v("n") * 4);
  EXPECT_EQ(parse("modulus mod minimum"), mod(v("modulus"), v("minimum")));
}

TEST(SymbolicParser, ErrorExpectedExpression) {
  EXPECT_EQ(parseError("n + * m", "expected expression"), 4u);
}

TEST(SymbolicParser, ErrorEndOfInput) {
  EXPECT_EQ(parseError("n +", "end of input"), 3u);
  EXPECT_EQ(parseError("", "end of input"), 0u);
}

TEST(SymbolicParser, ErrorUnbalancedParenthesis) {
  EXPECT_EQ(parseError("(n + 1", "expected ')'"), 6u);
  EXPECT_EQ(parseError("n + 1)", "unexpected ')'"), 5u);
}

TEST(SymbolicParser, ErrorTrailingTokens) {
  EXPECT_EQ(parseError("n m", "unexpected 'm'"), 2u);
}

TEST(SymbolicParser, ErrorInvalidCharacter) {
  EXPECT_EQ(parseError("n $ 1", "invalid character '$'"), 2u);
}

TEST(SymbolicParser, ErrorIntegerOutOfRange) {
  EXPECT_EQ(parseError("n + 99999999999999999999", "out of range"), 4u);
  EXPECT_EQ(parseError("9223372036854775807 + 1", "overflow"), 20u);
}

TEST(SymbolicParser, ErrorMinMaxArity) {
  EXPECT_EQ(parseError("min(n)", "at least two"), 5u);
  EXPECT_EQ(parseError("max n", "expected '('"), 4u);
}

TEST(SymbolicParser, ErrorUnknownFunction) {
  EXPECT_EQ(parseError("f(n)", "only min and max"), 1u);
}

TEST(SymbolicParser, ErrorKeywordAsOperand) {
  EXPECT_EQ(parseError("mod", "expected expression, got 'mod'"), 0u);
  EXPECT_EQ(parseError("n floordiv floordiv 2", "got 'floordiv'"), 11u);
}

TEST(SymbolicParser, NoErrorOutputsNeeded) {
  EXPECT_FALSE(parse("n +"));
  EXPECT_TRUE(parse("n + 1"));
}

TEST(SymbolicParser, RoundTripExamples) {
  const char *texts[] = {
      "n * 4 + (k + 31) floordiv 32",
      "min(n, 128)",
      "n - 1",
      "x mod 8",
      "n ceildiv 4",
      "-(n floordiv 4) + m * n",
      "(n * m + 3) mod (k + 1)",
      "max(n floordiv 2, m mod 3) * 2 - 7",
      "n floordiv (m * 2) - n mod (m - 1)",
      "a * a * a - b * (c floordiv 3) * 5",
      "min(a, min(b, max(c, d - 1)))",
      "-n floordiv m",
      "(0 - n) mod 7 * 3",
      "n ceildiv m * 2",
      "-9223372036854775807 + n",
      "n floordiv 0",
  };
  for (const char *text : texts) {
    std::string err;
    Expr e = parse(text, &err);
    ASSERT_TRUE(e) << text << ": " << err;
    std::string printed = e.str();
    Expr again = parse(printed, &err);
    ASSERT_TRUE(again) << printed << ": " << err;
    EXPECT_EQ(e, again) << text << " printed as " << printed;
    EXPECT_EQ(again.str(), printed);
  }
}

} // namespace
