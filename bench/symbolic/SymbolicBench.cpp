//===- SymbolicBench.cpp - Timings of the symbolic shape engine ----------===//
//
// Shape inference canonicalises every dim it builds and fusion compares
// dims pairwise, so both must stay in the microseconds even for long
// polynomials. Each benchmark uses an expression of about 100 terms.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Symbolic/SymbolicExpr.h"

#include "benchmark/benchmark.h"

#include <string>

using namespace mlir::relax::sym;

namespace {

constexpr int kTerms = 100;

/// Term i of the benchmark polynomial: a mix of linear terms, products and
/// divisions over 10 variables.
std::string termText(int i) {
  std::string x = "x" + std::to_string(i % 10);
  std::string y = "x" + std::to_string((i * 7 + 3) % 10);
  switch (i % 4) {
  case 0:
    return x + " * " + std::to_string(i + 1);
  case 1:
    return x + " * " + y;
  case 2:
    return "(" + x + " + " + std::to_string(i) + ") floordiv 8";
  default:
    return x + " * " + y + " * " + std::to_string(i % 5 + 2);
  }
}

/// The polynomial as text, terms in the given order.
std::string polyText(bool reversed) {
  std::string s;
  for (int k = 0; k < kTerms; ++k) {
    int i = reversed ? kTerms - 1 - k : k;
    if (!s.empty())
      s += " + ";
    s += termText(i);
  }
  return s;
}

/// The same polynomial built from the term list by the operators, grouped
/// differently: pairs summed first, then folded.
Expr buildGrouped(const std::vector<Expr> &terms) {
  std::vector<Expr> level = terms;
  while (level.size() > 1) {
    std::vector<Expr> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2)
      next.push_back(level[i] + level[i + 1]);
    if (level.size() % 2)
      next.push_back(level.back());
    level = std::move(next);
  }
  return level.front();
}

std::vector<Expr> parsedTerms() {
  std::vector<Expr> terms;
  for (int i = 0; i < kTerms; ++i)
    terms.push_back(parse(termText(i)));
  return terms;
}

/// Canonicalising from text: lexing, building the terms and sorting them.
void BM_ParseCanonicalize100Terms(benchmark::State &state) {
  std::string text = polyText(/*reversed=*/false);
  for (auto _ : state)
    benchmark::DoNotOptimize(parse(text));
}
BENCHMARK(BM_ParseCanonicalize100Terms)->Unit(benchmark::kMicrosecond);

/// Canonicalising from already built terms with the n-ary sum.
void BM_SumCanonicalize100Terms(benchmark::State &state) {
  std::vector<Expr> terms = parsedTerms();
  for (auto _ : state)
    benchmark::DoNotOptimize(sum(terms));
}
BENCHMARK(BM_SumCanonicalize100Terms)->Unit(benchmark::kMicrosecond);

/// Canonicalising by 99 pairwise additions (what naive callers do).
void BM_FoldAdd100Terms(benchmark::State &state) {
  std::vector<Expr> terms = parsedTerms();
  for (auto _ : state) {
    Expr acc = terms.front();
    for (size_t i = 1; i < terms.size(); ++i)
      acc = acc + terms[i];
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_FoldAdd100Terms)->Unit(benchmark::kMicrosecond);

/// Proving two differently ordered and grouped builds of the polynomial
/// equal, given both already canonical (the common case in the dialect).
void BM_ProveEqual100Terms(benchmark::State &state) {
  Expr a = parse(polyText(/*reversed=*/false));
  Expr b = buildGrouped(parsedTerms());
  Context ctx;
  if (!ctx.provablyEqual(a, b))
    state.SkipWithError("expressions not proven equal");
  for (auto _ : state)
    benchmark::DoNotOptimize(ctx.provablyEqual(a, b));
}
BENCHMARK(BM_ProveEqual100Terms)->Unit(benchmark::kMicrosecond);

/// Canonicalising both sides from text and then proving them equal.
void BM_ParseAndProveEqual100Terms(benchmark::State &state) {
  std::string ta = polyText(/*reversed=*/false);
  std::string tb = polyText(/*reversed=*/true);
  Context ctx;
  for (auto _ : state)
    benchmark::DoNotOptimize(ctx.provablyEqual(parse(ta), parse(tb)));
}
BENCHMARK(BM_ParseAndProveEqual100Terms)->Unit(benchmark::kMicrosecond);

/// A comparison interval arithmetic cannot decide, answered by Presburger.
void BM_PresburgerProof(benchmark::State &state) {
  Expr lhs = parse("(n + 31) floordiv 32 * 32");
  Expr rhs = parse("n");
  Context ctx;
  for (auto _ : state)
    benchmark::DoNotOptimize(ctx.isGE(lhs, rhs));
}
BENCHMARK(BM_PresburgerProof)->Unit(benchmark::kMicrosecond);

} // namespace
