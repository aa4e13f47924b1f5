//===- ApproximateMath.h - Vectorizable f32 math functions ------*- C++ -*-===//
//
// Replaces f32 transcendental math ops by polynomial approximations, so
// that the loops around them vectorize on the CPU.
//
// Its `ops` option is a list of an enum. MLIR 22's ListOption parses each
// element with a parser of its own (`elementParser`), separate from the one
// `cl::values` fills, so values given that way are never seen. The element
// type is therefore ApproxMathOpValue, whose llvm::cl::parser knows every
// name itself: an unknown name is rejected when the pipeline is parsed.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_MATHAPPROX_APPROXIMATEMATH_H
#define RELAXDIALECT_CONVERSION_MATHAPPROX_APPROXIMATEMATH_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"

namespace mlir {
namespace relax {

/// The math ops upstream's polynomial approximations cover
/// (populateMathPolynomialApproximationPatterns, MLIR 22).
enum class ApproxMathOp {
  Acos, Asin, Atan, Atan2, Cbrt, Cos, Erf, Erfc,
  Exp, Expm1, Log, Log1p, Log2, Rsqrt, Sin, Tanh
};

/// The name of `op` without the dialect prefix ("exp" for math.exp).
llvm::StringRef approxMathOpName(ApproxMathOp op);

/// An element of relax-approximate-math's `ops`: an ApproxMathOp with a
/// command-line parser of its own (below).
struct ApproxMathOpValue {
  ApproxMathOp op = ApproxMathOp::Exp;
  operator ApproxMathOp() const { return op; }
};

} // namespace relax
} // namespace mlir

namespace llvm {
namespace cl {
/// The parser of one element of `ops`: the enum's generic parser with every
/// name added when it is initialized, which ListOption does for the parser
/// it parses elements with.
template <>
class parser<mlir::relax::ApproxMathOpValue>
    : public parser<mlir::relax::ApproxMathOp> {
public:
  using parser_data_type = mlir::relax::ApproxMathOpValue;
  parser(Option &o) : parser<mlir::relax::ApproxMathOp>(o) {}
  void initialize();
  bool parse(Option &o, StringRef argName, StringRef arg,
             mlir::relax::ApproxMathOpValue &value) {
    return parser<mlir::relax::ApproxMathOp>::parse(o, argName, arg,
                                                    value.op);
  }
};
} // namespace cl
} // namespace llvm

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_RELAXAPPROXIMATEMATH
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_MATHAPPROX_APPROXIMATEMATH_H
