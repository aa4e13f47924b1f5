//===- ApproximateMath.cpp - --relax-approximate-math ---------------------===//
//
// libm's scalar calls keep the loops of softmax, GELU and friends from
// vectorizing; upstream's polynomial approximations are plain arithmetic.
// This pass only chooses which ops get them: the rewrites are upstream's.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/MathApprox/ApproximateMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXAPPROXIMATEMATH
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;

/// Every ApproxMathOp, in its order: its name and the op (the help text of
/// the name; the parser keeps references, so both are literals).
static constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral>
    kApproxMathOps[] = {
        {"acos", "math.acos"},   {"asin", "math.asin"},
        {"atan", "math.atan"},   {"atan2", "math.atan2"},
        {"cbrt", "math.cbrt"},   {"cos", "math.cos"},
        {"erf", "math.erf"},     {"erfc", "math.erfc"},
        {"exp", "math.exp"},     {"expm1", "math.expm1"},
        {"log", "math.log"},     {"log1p", "math.log1p"},
        {"log2", "math.log2"},   {"rsqrt", "math.rsqrt"},
        {"sin", "math.sin"},     {"tanh", "math.tanh"}};

static_assert(std::size(kApproxMathOps) ==
                  static_cast<size_t>(relax::ApproxMathOp::Tanh) + 1,
              "one entry per ApproxMathOp");

llvm::StringRef relax::approxMathOpName(relax::ApproxMathOp op) {
  return kApproxMathOps[static_cast<size_t>(op)].first;
}

void llvm::cl::parser<relax::ApproxMathOpValue>::initialize() {
  if (getNumOptions() != 0)
    return;
  for (auto [i, entry] : llvm::enumerate(kApproxMathOps))
    addLiteralOption(entry.first, static_cast<relax::ApproxMathOp>(i),
                     entry.second);
}

namespace {
/// The default set: the functions of the activations and softmax, whose
/// approximations are within a few ulp of libm on normal results. (The log
/// family's approximation mishandles subnormal inputs; sin/cos/atan/cbrt
/// have larger error on wide ranges: all stay libm unless named.)
constexpr relax::ApproxMathOp kDefaultOps[] = {
    relax::ApproxMathOp::Exp, relax::ApproxMathOp::Expm1,
    relax::ApproxMathOp::Erf, relax::ApproxMathOp::Tanh};

class ApproximateMathPass
    : public relax::impl::RelaxApproximateMathBase<ApproximateMathPass> {
public:
  using Base::Base;

  LogicalResult initialize(MLIRContext *) override {
    names.clear();
    if (ops.empty()) {
      for (relax::ApproxMathOp op : kDefaultOps)
        names.insert(relax::approxMathOpName(op));
      return success();
    }
    for (relax::ApproxMathOp op : ops)
      names.insert(relax::approxMathOpName(op));
    return success();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(
        patterns, [&](llvm::StringRef name) {
          // Upstream asks with the full op name, `math.exp`.
          name.consume_front("math.");
          return names.contains(name);
        });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }

private:
  llvm::StringSet<> names;
};
} // namespace
