//===- TestGPUAsSerial.cpp - GPU schedules on the CPU, for tests ----------===//
//
// `--tir-test-gpu-as-serial`: thread-bound loops become serial loops and
// shared buffers global ones. The default GPU schedules keep each thread
// loop free of cross-thread dependences (a thread only reads what earlier
// thread loops, separated by barriers on the GPU, wrote), so running the
// thread loops one after the other computes what the GPU computes; E2E tests
// then check the schedules against numpy without a GPU.
//
// A `local` buffer allocated outside the thread loops (the tensor-core
// schedule's accumulators) is per-thread state that lives across thread
// loops, in registers on the GPU; serialised, it needs one copy per thread,
// so it gets a leading dimension indexed by the enclosing threadIdx.x loop.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "RelaxDialect/TIR/IR/TIRDialect.h"
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tir;

/// The threadIdx.x loop around `op`, if any.
static ForOp getThreadLoop(Operation *op) {
  for (auto loop = op->getParentOfType<ForOp>(); loop;
       loop = loop->getParentOfType<ForOp>())
    if (loop.getKind() == LoopKind::thread_binding &&
        loop.getThread() == "threadIdx.x")
      return loop;
  return {};
}

/// `indices` with the thread loop's induction variable in front.
static SmallVector<Value> withThread(ForOp thread, ValueRange indices) {
  SmallVector<Value> result{thread.getInductionVar()};
  llvm::append_range(result, indices);
  return result;
}

/// Gives a block-level `local` buffer one copy per thread (see the file
/// comment). Fails when a user is not inside a threadIdx.x loop of one
/// constant extent.
static LogicalResult expandPerThread(AllocOp alloc) {
  int64_t threads = 0;
  for (Operation *user : alloc->getUsers()) {
    ForOp loop = getThreadLoop(user);
    std::optional<int64_t> extent =
        loop ? getConstantIntValue(loop.getUpperBound()) : std::nullopt;
    if (!extent || (threads && *extent != threads) ||
        !isa<LoadOp, StoreOp, MmaSyncOp>(user))
      return user->emitOpError("tir-test-gpu-as-serial: a block-level local "
                               "buffer must be used by loads, stores and "
                               "mma_sync in thread loops of one extent");
    threads = *extent;
  }
  BufferType type = alloc.getType();
  SmallVector<int64_t> shape{threads};
  llvm::append_range(shape, *type.getShape().getStaticSizes());
  Value buffer = alloc.getResult();
  buffer.setType(BufferType::get(type.getContext(),
                                 relax::SymShape::fromStatic(shape),
                                 type.getDtype(), MemoryScope::local));
  llvm::SetVector<Operation *> users(alloc->user_begin(), alloc->user_end());
  for (Operation *user : users) {
    ForOp thread = getThreadLoop(user);
    OpBuilder b(user);
    if (auto load = dyn_cast<LoadOp>(user)) {
      load.getResult().replaceAllUsesWith(LoadOp::create(
          b, load.getLoc(), buffer, withThread(thread, load.getIndices())));
    } else if (auto store = dyn_cast<StoreOp>(user)) {
      StoreOp::create(b, store.getLoc(), store.getValue(), buffer,
                      withThread(thread, store.getIndices()));
    } else {
      auto mma = cast<MmaSyncOp>(user);
      if (mma.getAcc() != buffer)
        continue;
      MmaSyncOp::create(b, mma.getLoc(), mma.getLane(), buffer,
                        withThread(thread, mma.getAccIndices()), mma.getA(),
                        mma.getAIndices(), mma.getB(), mma.getBIndices());
    }
    user->erase();
  }
  return success();
}

namespace {
struct TestTIRGPUAsSerialPass
    : PassWrapper<TestTIRGPUAsSerialPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTIRGPUAsSerialPass)

  StringRef getArgument() const final { return "tir-test-gpu-as-serial"; }
  StringRef getDescription() const final {
    return "Run GPU-scheduled tir programs serially on the CPU (testing)";
  }

  void runOnOperation() override {
    SmallVector<AllocOp> perThread;
    getOperation().walk([&](AllocOp alloc) {
      if (alloc.getType().getScope() == MemoryScope::local &&
          alloc.getType().getShape().isStatic() && !getThreadLoop(alloc) &&
          alloc->getParentOfType<ForOp>())
        perThread.push_back(alloc);
    });
    for (AllocOp alloc : perThread)
      if (failed(expandPerThread(alloc)))
        return signalPassFailure();
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
