//===- relax-consumer-opt.cpp - A downstream opt tool over relax-mlir -----===//
//
// What another MLIR compiler does to embed the relax dialects: register them
// and the project's passes next to its own, and work on relax IR through the
// installed C++ API. Its one pass, consumer-annotate-kernels, marks every
// relax.call_tir with the symbolic element count of its first result.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

namespace {
/// A pass of the downstream compiler that reads the relax types: the shape
/// of a call's result is a symbolic expression the consumer can use.
struct AnnotateKernelsPass
    : PassWrapper<AnnotateKernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AnnotateKernelsPass)

  StringRef getArgument() const final { return "consumer-annotate-kernels"; }
  StringRef getDescription() const final {
    return "Mark each relax.call_tir with its first result's element count";
  }

  void runOnOperation() final {
    getOperation().walk([](relax::CallTIROp call) {
      if (call->getNumResults() == 0)
        return;
      auto type =
          dyn_cast<relax::RelaxTensorType>(call->getResult(0).getType());
      if (!type || !type.getShape().isFullyKnown())
        return;
      std::string count;
      llvm::raw_string_ostream os(count);
      relax::printSymDim(os, type.getShape().getNumElements());
      call->setAttr("consumer.elements",
                    StringAttr::get(call.getContext(), count));
    });
  }
};
} // namespace

int main(int argc, char **argv) {
  relax::registerRelaxProjectPasses();
  PassRegistration<AnnotateKernelsPass>();

  DialectRegistry registry;
  relax::registerRelaxProjectDialects(registry);
  // The upstream dialects that tir bodies use.
  registry.insert<arith::ArithDialect, func::FuncDialect, math::MathDialect,
                  scf::SCFDialect>();
  return asMainReturnCode(
      MlirOptMain(argc, argv, "relax-mlir consumer driver\n", registry));
}
