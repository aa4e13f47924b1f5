//===- VerifyWellFormed.cpp - --relax-verify-well-formed ------------------===//

#include "RelaxDialect/Relax/Transforms/Passes.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXVERIFYWELLFORMED
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

namespace {
struct RelaxVerifyWellFormedPass
    : public relax::impl::RelaxVerifyWellFormedBase<RelaxVerifyWellFormedPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](FuncOp func) {
      if (failed(verifyWellFormed(func)))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
