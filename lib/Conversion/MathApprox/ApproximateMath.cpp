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

namespace {
/// The default set: the functions of the activations and softmax, whose
/// approximations are within a few ulp of libm on normal results. (The log
/// family's approximation mishandles subnormal inputs; sin/cos/atan/cbrt
/// have larger error on wide ranges: all stay libm unless named.)
constexpr llvm::StringLiteral kDefaultOps[] = {"exp", "expm1", "erf", "tanh"};

/// Every op upstream's patterns approximate
/// (populateMathPolynomialApproximationPatterns, MLIR 22), the values `ops`
/// may name. `ops` stays a list of strings checked here, when the pass
/// manager initializes the pass before anything runs: MLIR 22's
/// ListOption parses elements with a parser of its own that ignores
/// `cl::values`, so an enum list option would reject every value.
constexpr llvm::StringLiteral kApproximableOps[] = {
    "acos", "asin",  "atan", "atan2", "cbrt", "cos",   "erf", "erfc",
    "exp",  "expm1", "log",  "log1p", "log2", "rsqrt", "sin", "tanh"};

class ApproximateMathPass
    : public relax::impl::RelaxApproximateMathBase<ApproximateMathPass> {
public:
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    names.clear();
    if (ops.empty()) {
      for (llvm::StringRef name : kDefaultOps)
        names.insert(name);
      return success();
    }
    for (const std::string &name : ops) {
      if (!llvm::is_contained(kApproximableOps, name))
        return emitError(UnknownLoc::get(context))
               << "relax-approximate-math: no approximation of math op '"
               << name << "' (ops takes "
               << llvm::join(ArrayRef<llvm::StringLiteral>(kApproximableOps),
                             ", ")
               << ")";
      names.insert(name);
    }
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
