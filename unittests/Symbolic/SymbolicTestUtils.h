//===- SymbolicTestUtils.h - Shared helpers of the symbolic tests -*- C++ -*-=//
//
// Lets GoogleTest print Expr and Truth values in failure messages instead
// of raw bytes.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_UNITTESTS_SYMBOLIC_SYMBOLICTESTUTILS_H
#define RELAX_UNITTESTS_SYMBOLIC_SYMBOLICTESTUTILS_H

#include "RelaxDialect/Symbolic/SymbolicExpr.h"

#include <ostream>

namespace mlir::relax::sym {
inline void PrintTo(const Expr &expr, std::ostream *os) { *os << expr.str(); }
inline void PrintTo(Truth truth, std::ostream *os) {
  *os << (truth == Truth::True    ? "True"
          : truth == Truth::False ? "False"
                                  : "Unknown");
}
} // namespace mlir::relax::sym

#endif // RELAX_UNITTESTS_SYMBOLIC_SYMBOLICTESTUTILS_H
