//===- TestGPUAsSerial.cpp - GPU schedules on the CPU, for tests ----------===//
//
// `--tir-test-gpu-as-serial`: thread-bound loops become serial loops and
// shared buffers global ones. The default GPU schedules keep each thread
// loop free of cross-thread dependences (a thread only reads what earlier
// thread loops, separated by barriers on the GPU, wrote), so running the
// thread loops one after the other computes what the GPU computes; E2E tests
// then check the schedules against numpy without a GPU.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tir;

namespace {
struct TestTIRGPUAsSerialPass
    : PassWrapper<TestTIRGPUAsSerialPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTIRGPUAsSerialPass)

  StringRef getArgument() const final { return "tir-test-gpu-as-serial"; }
  StringRef getDescription() const final {
    return "Run GPU-scheduled tir programs serially on the CPU (testing)";
  }

  void runOnOperation() override {
    getOperation().walk([](ForOp loop) {
      if (loop.getKind() != LoopKind::thread_binding)
        return;
      loop.setKind(LoopKind::serial);
      loop.removeThreadAttr();
    });
    getOperation().walk([](AllocOp alloc) {
      BufferType type = alloc.getType();
      if (type.getScope() != MemoryScope::shared)
        return;
      alloc.getResult().setType(
          BufferType::get(type.getContext(), type.getShape(), type.getDtype(),
                          MemoryScope::global));
    });
  }
};
} // namespace

void mlir::relax::test::registerTestTIRGPUAsSerialPass() {
  PassRegistration<TestTIRGPUAsSerialPass>();
}
