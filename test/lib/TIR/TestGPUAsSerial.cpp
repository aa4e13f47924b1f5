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
// of its warp's 32 values (or of its cluster's, with `cluster_size`) and
// runs the rest of the body. A tir.mma_sync whose A operand is the lanes'
// registers (a `local` buffer) splits its loop the same way, so that every
// lane has written its fragment before any lane's product reads them. Pure
// values of the first part that the second uses (index arithmetic on the
// thread) are computed again there.
//
// A `local` buffer allocated outside the thread loops (the tensor-core
// schedules' accumulators, of tir.mma_sync or tir.wgmma) is per-thread state
// that lives across thread loops, in registers on the GPU; serialised, it needs
// one copy per thread, so it gets a leading dimension indexed by the enclosing
// threadIdx.x loop.
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
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;

/// A warp's lanes on NVIDIA GPUs.
static constexpr int64_t kWarpSize = 32;

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Whether `op` reads the other lanes of its warp: a warp reduction, or a
/// tir.mma_sync whose A operand is the lanes' fragments (registers).
static bool isWarpCollective(Operation *op) {
  if (isa<gpu::SubgroupReduceOp>(op))
    return true;
  auto mma = dyn_cast<MmaSyncOp>(op);
  return mma && cast<BufferType>(mma.getA().getType()).getScope() ==
                    MemoryScope::local;
}

/// Makes `rest` (the second part of a split thread loop) compute again the
/// values of the first part it uses: pure ops, index arithmetic on the
/// thread on the GPU (registers) that a serial run must recompute per
/// thread. Anything else crossing the split fails.
static LogicalResult rematerializeCrossing(ForOp first, ForOp rest) {
  Block *body = first.getBody();
  llvm::SetVector<Operation *> needed;
  SmallVector<Value> worklist;
  rest.walk([&](Operation *op) {
    llvm::append_range(worklist, op->getOperands());
  });
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || needed.contains(def))
      continue;
    if (!isPure(def) || def->getNumRegions() != 0)
      return def->emitOpError("is used after a warp collective op of its "
                              "thread loop, which the emulation cannot carry "
                              "(only pure values are recomputed)");
    needed.insert(def);
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(needed.begin(), needed.end());
  llvm::sort(ordered, [](Operation *x, Operation *y) {
    return x->isBeforeInBlock(y);
  });
  IRMapping map;
  map.map(first.getInductionVar(), rest.getInductionVar());
  OpBuilder b = OpBuilder::atBlockBegin(rest.getBody());
  for (Operation *op : ordered) {
    Operation *copy = b.clone(*op, map);
    for (auto [from, to] : llvm::zip(op->getResults(), copy->getResults()))
      from.replaceUsesWithIf(to, [&](OpOperand &use) {
        return rest->isProperAncestor(use.getOwner());
      });
  }
  return success();
}

/// Splits thread loop `loop` before `collective`, which sits directly in
/// its body: `collective` and what follows it move to a second loop over
/// the same threads, which is returned. A warp reduction becomes, there,
/// the combination of its cluster's values, which the first loop stored
/// per thread.
static FailureOr<ForOp> splitAtWarpCollective(ForOp loop,
                                              Operation *collective) {
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound());
  if (!extent || *extent % kWarpSize != 0 ||
      getConstantIntValue(loop.getLowerBound()) != 0 ||
      getConstantIntValue(loop.getStep()) != 1)
    return collective->emitOpError("warp collective op in a thread loop that "
                                   "is not 0 to a multiple of 32 step 1");
  auto reduce = dyn_cast<gpu::SubgroupReduceOp>(collective);
  if (reduce && reduce.getClusterStride() != 1)
    return reduce.emitOpError("strided warp reduction clusters are not "
                              "emulated");
  Location loc = collective->getLoc();
  OpBuilder b(loop);
  Value lanes;
  if (reduce) {
    lanes = AllocOp::create(
        b, loc,
        BufferType::get(b.getContext(), relax::SymShape::fromStatic({*extent}),
                        reduce.getValue().getType(), MemoryScope::global));
    OpBuilder sb(reduce);
    StoreOp::create(sb, loc, reduce.getValue(), lanes,
                    ValueRange{loop.getInductionVar()});
  }
  b.setInsertionPointAfter(loop);
  StringAttr thread = loop.getThreadAttr();
  auto rest = ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                            loop.getStep(), loop.getKind(), nullptr,
                            thread ? thread.getValue() : StringRef());
  Operation *restEnd = rest.getBody()->getTerminator();
  Block *body = loop.getBody();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(Block::iterator(collective),
                            Block::iterator(body->getTerminator()))))
    op.moveBefore(restEnd);

  if (reduce) {
    // Every lane of a cluster (the warp by default) sees the combination
    // of its values.
    int64_t cluster = reduce.getClusterSize().value_or(kWarpSize);
    OpBuilder rb(reduce);
    Value t = rest.getInductionVar();
    Value base = arith::SubIOp::create(
        rb, loc, t,
        arith::RemUIOp::create(rb, loc, t, indexConstant(rb, loc, cluster)));
    vector::CombiningKind kind = gpu::convertReductionKind(reduce.getOp());
    Value total = LoadOp::create(rb, loc, lanes, ValueRange{base});
    for (int64_t lane = 1; lane < cluster; ++lane) {
      Value index =
          arith::AddIOp::create(rb, loc, base, indexConstant(rb, loc, lane));
      Value value = LoadOp::create(rb, loc, lanes, ValueRange{index});
      total = vector::makeArithReduction(rb, loc, kind, total, value);
    }
    reduce.getResult().replaceAllUsesWith(total);
    reduce.erase();
  }
  loop.getInductionVar().replaceUsesWithIf(
      rest.getInductionVar(),
      [&](OpOperand &use) { return rest->isProperAncestor(use.getOwner()); });
  if (failed(rematerializeCrossing(loop, rest)))
    return failure();
  return rest;
}

/// Splits every thread loop at its warp collective ops.
static LogicalResult emulateWarpCollectives(ModuleOp module) {
  SmallVector<Operation *> collectives;
  module.walk([&](Operation *op) {
    if (isWarpCollective(op))
      collectives.push_back(op);
  });
  for (Operation *op : collectives) {
    auto loop = dyn_cast<ForOp>(op->getParentOp());
    if (isa<gpu::SubgroupReduceOp>(op) &&
        (!loop || loop.getKind() != LoopKind::thread_binding))
      return op->emitOpError("warp reduction outside the body of a "
                             "thread loop");
  }
  // Program order: a split moves later collectives into the new loop. An
  // mma_sync of register fragments outside a thread loop's body (not on a
  // GPU) reads what is already there.
  for (Operation *op : collectives) {
    auto loop = dyn_cast<ForOp>(op->getParentOp());
    if (!loop || loop.getKind() != LoopKind::thread_binding)
      continue;
    if (failed(splitAtWarpCollective(loop, op)))
      return failure();
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
      // The accumulators, or the A fragments (registers).
      auto indices = [&](Value operand, ValueRange of) {
        return operand == buffer ? withThread(thread, of)
                                 : SmallVector<Value>(of);
      };
      MmaSyncOp::create(b, mma.getLoc(), mma.getLane(), mma.getAcc(),
                        indices(mma.getAcc(), mma.getAccIndices()), mma.getA(),
                        indices(mma.getA(), mma.getAIndices()), mma.getB(),
                        mma.getBIndices(), mma.getBKByN());
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
    if (failed(emulateWarpCollectives(getOperation())))
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
  }
};
} // namespace

void mlir::relax::test::registerTestTIRGPUAsSerialPass() {
  PassRegistration<TestTIRGPUAsSerialPass>();
}
