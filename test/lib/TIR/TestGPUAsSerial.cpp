//===- TestGPUAsSerial.cpp - GPU schedules on the CPU, for tests ----------===//
//
// `--tir-test-gpu-as-serial`: thread-bound loops become serial loops and
// shared buffers global ones. The default GPU schedules keep each thread
// loop free of cross-thread dependences (a thread only reads what earlier
// thread loops, separated by barriers on the GPU, wrote), so running the
// thread loops one after the other computes what the GPU computes; E2E tests
// then check the schedules against numpy without a GPU.
//
// A warp reduction (`gpu.subgroup_reduce` directly in a thread loop, as the
// warp-shuffle reductions emit it) reads its warp's other lanes, so its
// serial meaning splits the loop there: the first loop stores each
// thread's value to a buffer, the second gives every thread the combination
// of its warp's 32 values and runs the rest of the body.
//
// A `local` buffer allocated outside the thread loops (the tensor-core
// schedules' accumulators, of tir.mma_sync or tir.wgmma) is per-thread state
// that lives across thread loops, in registers on the GPU; serialised, it needs
// one copy per thread, so it gets a leading dimension indexed by the enclosing
// threadIdx.x loop.
//
// The host's tir.tensor_map ops become `check_only`: the emulated
// tir.tma_load reads its source as the map would, so only the run-time
// check that picks a TMA kernel or its fallback stays (without a driver).
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "RelaxDialect/TIR/IR/TIRDialect.h"
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;

/// A warp's lanes on NVIDIA GPUs.
static constexpr int64_t kWarpSize = 32;

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Splits thread loop `loop` at `reduce`, which sits directly in its body;
/// returns the second loop (which may hold further warp reductions).
static FailureOr<ForOp> splitAtWarpReduce(ForOp loop,
                                          gpu::SubgroupReduceOp reduce) {
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound());
  if (!extent || *extent % kWarpSize != 0 ||
      getConstantIntValue(loop.getLowerBound()) != 0 ||
      getConstantIntValue(loop.getStep()) != 1)
    return reduce.emitOpError("warp reduction in a thread loop that is not "
                              "0 to a multiple of 32 step 1");
  if (reduce.getClusterSize())
    return reduce.emitOpError("clustered warp reductions are not emulated");
  Location loc = reduce.getLoc();
  Type type = reduce.getValue().getType();
  OpBuilder b(loop);
  Value lanes = AllocOp::create(
      b, loc,
      BufferType::get(b.getContext(), relax::SymShape::fromStatic({*extent}),
                      type, MemoryScope::global));
  b.setInsertionPointAfter(loop);
  auto rest = ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                            loop.getStep(), LoopKind::serial, nullptr);
  Operation *restEnd = rest.getBody()->getTerminator();
  Block *body = loop.getBody();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(std::next(Block::iterator(reduce)),
                            Block::iterator(body->getTerminator()))))
    op.moveBefore(restEnd);

  // Every lane of the warp sees the combination of the warp's values.
  OpBuilder rb(restEnd->getBlock(), rest.getBody()->begin());
  Value t = rest.getInductionVar();
  Value base = arith::SubIOp::create(
      rb, loc, t,
      arith::RemUIOp::create(rb, loc, t, indexConstant(rb, loc, kWarpSize)));
  vector::CombiningKind kind = gpu::convertReductionKind(reduce.getOp());
  Value total = LoadOp::create(rb, loc, lanes, ValueRange{base});
  for (int64_t lane = 1; lane < kWarpSize; ++lane) {
    Value index =
        arith::AddIOp::create(rb, loc, base, indexConstant(rb, loc, lane));
    Value value = LoadOp::create(rb, loc, lanes, ValueRange{index});
    total = vector::makeArithReduction(rb, loc, kind, total, value);
  }
  reduce.getResult().replaceAllUsesWith(total);
  loop.getInductionVar().replaceUsesWithIf(t, [&](OpOperand &use) {
    return rest->isProperAncestor(use.getOwner());
  });
  b.setInsertionPoint(reduce);
  StoreOp::create(b, loc, reduce.getValue(), lanes,
                  ValueRange{loop.getInductionVar()});
  reduce.erase();

  // The rest may use nothing else computed per thread before the split.
  WalkResult crossing = rest.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Region *region = operand.getParentRegion();
      if (region && loop->isAncestor(region->getParentOp())) {
        op->emitOpError("uses a value computed before a warp reduction in "
                        "its thread loop, which the emulation cannot carry");
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (crossing.wasInterrupted())
    return failure();
  return rest;
}

/// Splits every thread loop at its warp reductions.
static LogicalResult emulateWarpReductions(ModuleOp module) {
  SmallVector<gpu::SubgroupReduceOp> reduces;
  module.walk([&](gpu::SubgroupReduceOp op) { reduces.push_back(op); });
  for (gpu::SubgroupReduceOp reduce : reduces) {
    auto loop = dyn_cast<ForOp>(reduce->getParentOp());
    if (!loop || loop.getKind() != LoopKind::thread_binding)
      return reduce.emitOpError("warp reduction outside the body of a "
                                "thread loop");
  }
  // Program order: a split moves later reductions into the new loop.
  for (gpu::SubgroupReduceOp reduce : reduces) {
    auto loop = cast<ForOp>(reduce->getParentOp());
    FailureOr<ForOp> rest = splitAtWarpReduce(loop, reduce);
    if (failed(rest))
      return failure();
    if (loop.getKind() == LoopKind::thread_binding)
      rest->setKind(LoopKind::thread_binding);
  }
  return success();
}

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
        !isa<LoadOp, StoreOp, MmaSyncOp, WgmmaOp>(user))
      return user->emitOpError("tir-test-gpu-as-serial: a block-level local "
                               "buffer must be used by loads, stores, "
                               "mma_sync and wgmma in thread loops of one "
                               "extent");
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
    } else if (auto mma = dyn_cast<MmaSyncOp>(user)) {
      if (mma.getAcc() != buffer)
        continue;
      MmaSyncOp::create(b, mma.getLoc(), mma.getLane(), buffer,
                        withThread(thread, mma.getAccIndices()), mma.getA(),
                        mma.getAIndices(), mma.getB(), mma.getBIndices());
    } else {
      auto wgmma = cast<WgmmaOp>(user);
      if (wgmma.getAcc() != buffer)
        continue;
      WgmmaOp::create(b, wgmma.getLoc(), wgmma.getThread(), buffer,
                      withThread(thread, wgmma.getAccIndices()), wgmma.getA(),
                      wgmma.getAIndices(), wgmma.getB(), wgmma.getBIndices(),
                      wgmma.getN(), wgmma.getK());
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

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect>();
  }

  void runOnOperation() override {
    if (failed(emulateWarpReductions(getOperation())))
      return signalPassFailure();
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
    // The emulated TMA copies read their source directly, not a tensor map:
    // the host keeps only the run-time check that picks the TMA kernel.
    getOperation().walk(
        [](TensorMapOp map) { map.setCheckOnly(true); });
  }
};
} // namespace

void mlir::relax::test::registerTestTIRGPUAsSerialPass() {
  PassRegistration<TestTIRGPUAsSerialPass>();
}
