//===- TIRToGPU.cpp - Thread-bound tir loops -> gpu.launch ----------------===//
//
// convert-tir-to-scf turns tir loops bound to blockIdx / threadIdx into
// scf.parallel ops with a gpu mapping. This pass builds one gpu.launch per
// outermost block-mapped loop, the way tir programs mean it (and the way
// upstream's convert-parallel-loops-to-gpu does not handle: several thread
// loops in sequence inside one block, with shared memory between them):
// the flag is convert-tir-to-gpu after its folder, since these loops are
// the tir thread bindings on their way down.
//
//   - block-mapped loops (directly nested, one per axis) give the grid; their
//     upper bounds are computed on the host before the launch;
//   - every thread-mapped loop inside must have a constant extent; the block
//     size of an axis is the largest of them, and a loop with a smaller
//     extent runs under `if (threadIdx < extent)`;
//   - a `gpu.barrier` follows every thread loop that other code follows in
//     the kernel, so threads see each other's shared-memory writes;
//   - `memref.alloc` in the workgroup address space (tir `shared` buffers)
//     becomes a workgroup attribution of the launch;
//   - warp reductions (`gpu.subgroup_reduce`, from the warp-shuffle block
//     reductions) become `gpu.shuffle xor` butterflies over 32 lanes, which
//     the NVVM lowering turns into `shfl.sync.bfly`.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TIRToGPU/TIRToGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_CONVERTTIRTOGPU
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// The processor a one-dimensional scf.parallel is mapped to, if any.
static std::optional<gpu::Processor> getProcessor(scf::ParallelOp loop) {
  auto mapping = loop->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName());
  if (!mapping || mapping.size() != 1)
    return std::nullopt;
  auto dim = dyn_cast<gpu::ParallelLoopDimMappingAttr>(mapping[0]);
  if (!dim || dim.getProcessor() == gpu::Processor::Sequential)
    return std::nullopt;
  return dim.getProcessor();
}

static bool isBlockProcessor(gpu::Processor p) {
  return p == gpu::Processor::BlockX || p == gpu::Processor::BlockY ||
         p == gpu::Processor::BlockZ;
}

/// 0, 1, 2 for x, y, z.
static unsigned getAxis(gpu::Processor p) {
  switch (p) {
  case gpu::Processor::BlockX:
  case gpu::Processor::ThreadX:
    return 0;
  case gpu::Processor::BlockY:
  case gpu::Processor::ThreadY:
    return 1;
  default:
    return 2;
  }
}

static LogicalResult checkUnitLoop(scf::ParallelOp loop) {
  if (loop.getNumLoops() != 1 ||
      getConstantIntValue(loop.getLowerBound()[0]) != 0 ||
      getConstantIntValue(loop.getStep()[0]) != 1)
    return loop.emitOpError("GPU-mapped loop must be one-dimensional with "
                            "lower bound 0 and step 1");
  if (loop.getNumResults() != 0)
    return loop.emitOpError("GPU-mapped loop must not reduce values");
  return success();
}

/// The block-mapped loop directly nested in `loop` (only pure ops beside
/// it), which then adds another grid axis.
static scf::ParallelOp getNestedBlockLoop(scf::ParallelOp loop) {
  scf::ParallelOp nested;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto inner = dyn_cast<scf::ParallelOp>(op);
    if (inner && getProcessor(inner) &&
        isBlockProcessor(*getProcessor(inner))) {
      if (nested)
        return {};
      nested = inner;
    } else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
      return {};
    }
  }
  return nested;
}

/// Replaces `loop` by its body with the induction variable set to `iv`.
static void inlineLoop(scf::ParallelOp loop, Value iv) {
  Block *body = loop.getBody();
  body->getTerminator()->erase();
  Block *parent = loop->getBlock();
  parent->getOperations().splice(Block::iterator(loop), body->getOperations());
  loop.getInductionVars()[0].replaceAllUsesWith(iv);
  loop.erase();
}

/// Whether a barrier must follow `op` inside the kernel: some op with
/// effects comes after it in its block or in an enclosing block up to the
/// launch.
static bool isFollowedInKernel(Operation *op, gpu::LaunchOp launch) {
  for (Operation *cur = op; cur && cur != launch.getOperation();
       cur = cur->getParentOp()) {
    for (Operation *next = cur->getNextNode(); next;
         next = next->getNextNode()) {
      if (next->hasTrait<OpTrait::IsTerminator>())
        break;
      if (next->getNumRegions() != 0 || !isMemoryEffectFree(next))
        return true;
    }
  }
  return false;
}

/// Builds the launch for the outermost block-mapped loop `root`.
static LogicalResult convertBlockLoop(scf::ParallelOp root,
                                      DominanceInfo &dom) {
  // Grid.
  SmallVector<scf::ParallelOp> blockLoops;
  for (scf::ParallelOp loop = root; loop; loop = getNestedBlockLoop(loop))
    blockLoops.push_back(loop);
  OpBuilder b(root);
  Location loc = root.getLoc();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  std::array<Value, 3> grid = {one, one, one};
  std::array<bool, 3> gridSet = {false, false, false};
  for (scf::ParallelOp loop : blockLoops) {
    if (failed(checkUnitLoop(loop)))
      return failure();
    unsigned axis = getAxis(*getProcessor(loop));
    if (gridSet[axis])
      return loop.emitOpError("two loops are mapped to the same block axis");
    Value ub = loop.getUpperBound()[0];
    if (!dom.properlyDominates(ub, root))
      return loop.emitOpError(
          "block-mapped loop extent depends on an enclosing block loop");
    grid[axis] = ub;
    gridSet[axis] = true;
  }

  // Block: the largest constant extent of the thread loops per axis.
  SmallVector<scf::ParallelOp> threadLoops;
  std::array<int64_t, 3> blockSize = {1, 1, 1};
  WalkResult walk = root.walk([&](scf::ParallelOp loop) {
    std::optional<gpu::Processor> p = getProcessor(loop);
    if (!p) {
      loop.emitOpError("unmapped parallel loop inside a GPU kernel");
      return WalkResult::interrupt();
    }
    if (isBlockProcessor(*p)) {
      if (!llvm::is_contained(blockLoops, loop)) {
        loop.emitOpError("block-mapped loop nested below other code in a "
                         "kernel");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    if (failed(checkUnitLoop(loop)))
      return WalkResult::interrupt();
    std::optional<int64_t> extent =
        getConstantIntValue(loop.getUpperBound()[0]);
    if (!extent || *extent <= 0 || *extent > 1024) {
      loop.emitOpError("thread-mapped loop needs a constant extent in "
                       "[1, 1024]");
      return WalkResult::interrupt();
    }
    unsigned axis = getAxis(*p);
    blockSize[axis] = std::max(blockSize[axis], *extent);
    threadLoops.push_back(loop);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (blockSize[0] * blockSize[1] * blockSize[2] > 1024)
    return root.emitOpError("more than 1024 threads per block");

  std::array<Value, 3> block;
  for (unsigned i = 0; i < 3; ++i)
    block[i] = arith::ConstantIndexOp::create(b, loc, blockSize[i]);
  auto launch = gpu::LaunchOp::create(b, loc, grid[0], grid[1], grid[2],
                                      block[0], block[1], block[2]);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(b, loc);
  root->moveBefore(terminator);

  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  std::array<Value, 3> bids = {blockIds.x, blockIds.y, blockIds.z};
  std::array<Value, 3> tids = {threadIds.x, threadIds.y, threadIds.z};
  for (scf::ParallelOp loop : blockLoops)
    inlineLoop(loop, bids[getAxis(*getProcessor(loop))]);

  // Shared buffers: workgroup attributions (static sizes only). First, so
  // that their deallocations do not count as code after a thread loop.
  SmallVector<memref::AllocOp> sharedAllocs;
  launch.walk([&](memref::AllocOp alloc) {
    if (isa_and_nonnull<gpu::AddressSpaceAttr>(
            alloc.getType().getMemorySpace()))
      sharedAllocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : sharedAllocs) {
    if (!alloc.getType().hasStaticShape())
      return alloc.emitOpError("shared buffer needs a static shape on GPU");
    BlockArgument attribution =
        launch.addWorkgroupAttribution(alloc.getType(), alloc.getLoc());
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.getResult().replaceAllUsesWith(attribution);
    alloc.erase();
  }

  for (scf::ParallelOp loop : threadLoops) {
    unsigned axis = getAxis(*getProcessor(loop));
    Value tid = tids[axis];
    b.setInsertionPointAfter(loop);
    if (isFollowedInKernel(loop, launch))
      gpu::BarrierOp::create(b, loop.getLoc());
    int64_t extent = *getConstantIntValue(loop.getUpperBound()[0]);
    if (extent < blockSize[axis]) {
      b.setInsertionPoint(loop);
      Value limit = arith::ConstantIndexOp::create(b, loop.getLoc(), extent);
      Value inRange = arith::CmpIOp::create(
          b, loop.getLoc(), arith::CmpIPredicate::ult, tid, limit);
      auto guard = scf::IfOp::create(b, loop.getLoc(), inRange,
                                     /*withElseRegion=*/false);
      loop->moveBefore(guard.thenBlock()->getTerminator());
    }
    inlineLoop(loop, tid);
  }

  return success();
}

namespace {
struct ConvertTIRToGPU : relax::impl::ConvertTIRToGPUBase<ConvertTIRToGPU> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      SmallVector<scf::ParallelOp> roots;
      func.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
        std::optional<gpu::Processor> p = getProcessor(loop);
        if (p && isBlockProcessor(*p)) {
          roots.push_back(loop);
          return WalkResult::skip();
        }
        return WalkResult::advance();
      });
      DominanceInfo dom(func);
      for (scf::ParallelOp root : roots)
        if (failed(convertBlockLoop(root, dom)))
          return signalPassFailure();
      // Anything still mapped lies outside every block loop.
      WalkResult stray = func.walk([&](scf::ParallelOp loop) {
        if (getProcessor(loop) && !loop->getParentOfType<gpu::LaunchOp>()) {
          loop.emitOpError("thread-mapped loop outside a block-mapped loop");
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (stray.wasInterrupted())
        return signalPassFailure();
    }
    // NVIDIA warps: 32 lanes, shuffles of 32 bits (narrower values are
    // widened, which is exact). Clustered reductions (the 4 lanes of a row
    // of an mma.sync fragment) take upstream's other pattern set.
    SmallVector<Operation *> reduces;
    module.walk([&](gpu::SubgroupReduceOp op) { reduces.push_back(op); });
    RewritePatternSet patterns(&getContext());
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, 32, 32);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(patterns, 32, 32);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    if (!reduces.empty() &&
        failed(applyOpPatternsGreedily(reduces, std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace

void relax::registerConvertBoundLoopsToGPUAlias() {
  PassPipelineRegistration<>(
      "convert-bound-loops-to-gpu",
      "Deprecated: the former name of --convert-tir-to-gpu, which it runs",
      [](OpPassManager &pm) { pm.addPass(createConvertTIRToGPU()); });
}
