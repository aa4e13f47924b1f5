//===- GPUDefaultSchedule.cpp - --tir-gpu-default-schedule ----------------===//
//
// Gives every loop nest of every prim_func a GPU thread mapping, through the
// schedule API only, so each top-level nest later becomes one kernel launch
// (docs/gpu.md):
//
//   - matmul-like nests (out += f(A) * g(B), A and B both read along the
//     reduction) get 16 x 16 shared-memory tiles (tileMatmul), or tensor
//     cores for f16 / bf16 into f32 (tensorCoreMatmul: mma.sync, or
//     wgmma with the `wgmma` option for sm_90a); with fewer
//     than 4 rows (decode) they are GEMVs and take the flat schedule below,
//     and when the row count is symbolic both versions are kept under an
//     scf.if that the host evaluates per call;
//   - a nest whose spatial loops are followed by a long reduction loop
//     (symbolic extent, or at least 64) over one reduction block that reads
//     one input along the reduction gets one thread block per output
//     element: the spatial loops are fused and bound to blockIdx.x and the
//     block's threads share the reduction (crossThreadReduction: strided
//     partial results in shared memory, then a tree), which covers softmax,
//     norms and sums over a symbolic axis;
//   - otherwise the leading loops of a nest that carry no reduction (its
//     spatial loops, perfectly nested) are fused into one loop, split by
//     the block size (with a tail guard unless the extent provably divides)
//     and bound to blockIdx.x / threadIdx.x; whatever lies inside (short
//     reductions, inner loops that are not perfectly nested) runs serially
//     in each thread;
//   - the program of an unmasked relax.attention (the `tir.attention` hint)
//     becomes the flash-attention kernel (flashAttention): a block per tile
//     of query rows, K / V streamed through shared memory, online softmax;
//   - a nest with no spatial loop that is not a block reduction (a lone
//     block) runs in one thread: it is wrapped in two loops of extent 1
//     bound to blockIdx.x and threadIdx.x.
//
// Loops inside a bound nest lose their CPU kinds (parallel, vectorized):
// inside a GPU thread they are serial loops. A prim_func that already binds
// a loop to a thread axis was scheduled by hand and is left alone, and so
// are the linalg ops the linalg route leaves in a program.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/TIR/Transforms/Passes.h"
#include "RelaxDialect/TIR/Transforms/Schedule.h"
#include "RelaxDialect/TIR/IR/OpPattern.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/bit.h"

namespace mlir {
namespace tir {
#define GEN_PASS_DEF_TIRGPUDEFAULTSCHEDULE
#include "RelaxDialect/TIR/Transforms/Passes.h.inc"
} // namespace tir
} // namespace mlir

using namespace mlir;
using namespace mlir::tir;

/// Output tile edge of matmul-like nests: 16 x 16 = 256 threads per block.
static constexpr int64_t kMatmulTile = 16;
/// Matmuls with fewer rows than this (decode: one token) are GEMVs.
static constexpr int64_t kGemvRows = 4;

static bool isUnitLoop(ForOp loop) {
  return getConstantIntValue(loop.getLowerBound()) == 0 &&
         getConstantIntValue(loop.getStep()) == 1;
}

/// The only op with regions or effects in `loop`'s body when that is a
/// tir.for and everything else is pure: the next loop of a perfect nest.
static ForOp getPerfectlyNestedChild(ForOp loop) {
  ForOp child;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto inner = dyn_cast<ForOp>(op)) {
      if (child)
        return {};
      child = inner;
      continue;
    }
    // checkPerfectNest in the schedule API wants pure ops before the loop.
    if (child || op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return {};
  }
  return child;
}

/// The leading loops of the nest rooted at `root` that can be fused and
/// bound to threads: unit loops, perfectly nested, carrying no reduction,
/// with bounds independent of the loops around them.
static SmallVector<ForOp> collectSpatialLoops(ForOp root) {
  SmallVector<ForOp> loops;
  SmallVector<Value> ivs;
  for (ForOp loop = root; loop; loop = getPerfectlyNestedChild(loop)) {
    if (!isUnitLoop(loop) || carriesReduction(loop) ||
        dependsOnAny(loop.getUpperBound(), ivs))
      break;
    loops.push_back(loop);
    ivs.push_back(loop.getInductionVar());
  }
  return loops;
}

/// Inside a GPU thread, CPU loop kinds mean nothing: make them serial.
static void makeInnerLoopsSerial(ForOp bound) {
  bound.getBody()->walk([](ForOp loop) {
    if (loop.getKind() != LoopKind::thread_binding &&
        loop.getKind() != LoopKind::unrolled)
      loop.setKind(LoopKind::serial);
  });
}

/// Wraps `op` in `blockIdx.x` and `threadIdx.x` loops of extent 1.
static void wrapInSingleThread(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto block = ForOp::create(b, loc, zero, one, one, LoopKind::thread_binding,
                             nullptr, "blockIdx.x");
  b.setInsertionPointToStart(block.getBody());
  auto thread = ForOp::create(b, loc, zero, one, one, LoopKind::thread_binding,
                              nullptr, "threadIdx.x");
  op->moveBefore(thread.getBody()->getTerminator());
  makeInnerLoopsSerial(block);
}

/// Threads per block for a flattened extent: `maxThreads`, or the extent
/// rounded up to a warp when it is a smaller constant.
static int64_t pickBlockSize(ForOp loop, int64_t maxThreads) {
  if (std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound()))
    return std::clamp<int64_t>((*extent + 31) / 32 * 32, 32, maxThreads);
  return maxThreads;
}

/// The reduction loop right after the spatial loops of a nest and its one
/// block, when crossThreadReduction applies and pays: the loop must be
/// long (a symbolic extent, or at least 64 iterations) for threads to
/// share it.
static std::optional<std::pair<ForOp, BlockOp>>
matchBlockReduction(ForOp root, ArrayRef<ForOp> spatial) {
  ForOp loop = spatial.empty() ? root : getPerfectlyNestedChild(spatial.back());
  if (!loop)
    return std::nullopt;
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound());
  if (extent && *extent < 64)
    return std::nullopt;
  BlockOp block;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto b = dyn_cast<BlockOp>(op)) {
      if (block)
        return std::nullopt;
      block = b;
    }
  }
  if (!block || !canCrossThreadReduce(block, loop))
    return std::nullopt;
  // A matmul-like block (two inputs indexed by the reduce variable) keeps
  // one thread per output: a thread block per output would reload both
  // operands without reuse, while adjacent threads of the simple schedule
  // read adjacent columns (the GEMV case stays coalesced).
  Value reduceVar;
  for (auto [i, arg] : llvm::enumerate(block.getIterVars()))
    if (block.getIterKind(i) == IterKind::reduce)
      reduceVar = arg;
  llvm::SmallPtrSet<Value, 4> reducedInputs;
  block.walk([&](LoadOp load) {
    if (llvm::any_of(load.getIndices(),
                     [&](Value v) { return dependsOnAny(v, {reduceVar}); }))
      reducedInputs.insert(load.getBuffer());
  });
  if (reducedInputs.size() > 1)
    return std::nullopt;
  return std::make_pair(loop, block);
}

/// Threads that share one reduction: a power of two up to `maxThreads`,
/// smaller for a short constant extent.
static int64_t pickReductionThreads(ForOp loop, int64_t maxThreads) {
  int64_t threads =
      static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(maxThreads)));
  if (std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound()))
    threads = std::min<int64_t>(
        threads, std::max<int64_t>(
                     32, llvm::PowerOf2Ceil(static_cast<uint64_t>(*extent))));
  return threads;
}

/// Reductions: one thread block per output element (the spatial loops
/// fused and bound to blockIdx.x), its threads sharing the reduction loop.
static LogicalResult scheduleBlockReduction(ForOp root, ArrayRef<ForOp> spatial,
                                            ForOp loop, BlockOp block,
                                            int64_t maxThreads) {
  ForOp outer;
  if (spatial.empty()) {
    OpBuilder b(root);
    Location loc = root.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    outer = ForOp::create(b, loc, zero, one, one, LoopKind::serial, nullptr);
    root->moveBefore(outer.getBody()->getTerminator());
  } else {
    outer = spatial.front();
    for (ForOp inner : llvm::drop_begin(spatial)) {
      FailureOr<ForOp> f = fuse(outer, inner);
      if (failed(f))
        return failure();
      outer = *f;
    }
  }
  if (failed(bind(outer, "blockIdx.x")))
    return failure();
  makeInnerLoopsSerial(outer);
  return crossThreadReduction(block, loop,
                              pickReductionThreads(loop, maxThreads),
                              /*warpShuffle=*/true);
}

/// Fuses the perfectly nested `loops` (outermost first) into one loop.
static FailureOr<ForOp> fuseAll(ArrayRef<ForOp> loops) {
  ForOp fused = loops.front();
  for (ForOp inner : llvm::drop_begin(loops)) {
    FailureOr<ForOp> f = fuse(fused, inner);
    if (failed(f))
      return failure();
    fused = *f;
  }
  return fused;
}

/// Decode GEMVs whose operands are all read along the reduction (x [m, k]
/// times weights [n, k]): a warp per output splits k over its lanes, which
/// read adjacent elements, and combines with one warp shuffle
/// (warpPerOutputReduction); one thread per output would read a weight row
/// k elements away from its neighbour's. With `wideLoads`, lanes read 4
/// f32 / 8 f16 at a time where the rows' alignment is proven; a symbolic
/// row length keeps a scalar version under `scf.if (k % 4 == 0)`. Returns
/// false (no change) when the nest does not have that shape.
static FailureOr<bool> scheduleSplitKGemv(ForOp root, BlockOp block,
                                          int64_t maxThreads, bool wideLoads) {
  SmallVector<ForOp> loops = collectSpatialLoops(root);
  if (loops.empty())
    return false;
  ForOp loop = getPerfectlyNestedChild(loops.back());
  if (!loop || block->getParentOp() != loop.getOperation() ||
      !canCrossThreadReduce(block, loop))
    return false;
  Value reduceArg;
  for (auto [i, binding] : llvm::enumerate(block.getBindings()))
    if (block.getIterKind(i) == IterKind::reduce)
      reduceArg = block.getBody()->getArgument(i);
  bool alongK = true, anyInput = false;
  block.getBody()->walk([&](LoadOp load) {
    if (load.getIndices().empty())
      return;
    bool isOutput =
        llvm::any_of(block.getBody()->getOps<StoreOp>(), [&](StoreOp store) {
          return store.getBuffer() == load.getBuffer();
        });
    if (isOutput)
      return;
    anyInput = true;
    alongK &= load.getIndices().back() == reduceArg;
  });
  if (!anyInput || !alongK)
    return false;
  std::optional<WideLoadPlan> plan;
  if (wideLoads)
    plan = planSplitKWideLoads(block, loop);
  if (plan && !plan->mustDivide.empty()) {
    OpBuilder b(root);
    Value aligned =
        emitMultiplesCheck(b, root.getLoc(), plan->mustDivide, plan->lanes);
    IRMapping mapping;
    ForOp scalar = versionNest(root, aligned, mapping);
    FailureOr<bool> done = scheduleSplitKGemv(
        scalar, cast<BlockOp>(mapping.lookup(block.getOperation())),
        maxThreads, /*wideLoads=*/false);
    if (failed(done))
      return failure();
  }
  FailureOr<ForOp> fused = fuseAll(loops);
  if (failed(fused))
    return failure();
  if (failed(warpPerOutputReduction(*fused, block, loop, maxThreads / 32,
                                    plan ? plan->lanes : 1)))
    return failure();
  return true;
}

namespace {
/// The tensor-core instructions the target has (and, for wgmma, whether
/// TMA versions of its kernels are built).
enum class TensorCores { none, mmaSync, warpgroup, warpgroupTma };
} // namespace

/// The matmul schedule of a nest with enough rows: tensor cores when the
/// dtypes allow (and the target has them: mma.sync, or wgmma on sm_90a),
/// else shared-memory tiles.
static LogicalResult scheduleMatmul(ForOp root, BlockOp block,
                                    TensorCores tensorCores) {
  if (tensorCores != TensorCores::none && canTensorCoreMatmul(root, block))
    return tensorCoreMatmul(
        root, block,
        tensorCores == TensorCores::warpgroup ||
            tensorCores == TensorCores::warpgroupTma,
        /*tma=*/tensorCores == TensorCores::warpgroupTma);
  return tileMatmul(root, block, kMatmulTile);
}

/// Schedules one top-level nest; failures come from the schedule API
/// (which reports them) and should not happen on a nest this code picked.
static LogicalResult scheduleNest(ForOp root, int64_t maxThreads,
                                  bool reductionKind, TensorCores tensorCores,
                                  bool wideAccesses, bool tileMatmuls = true) {
  // Matmul-like nests: shared-memory tiles, unless M is small (the decode
  // case, GEMV): then one thread per output reads the weight coalesced and
  // no tile row idles. A symbolic M decides at run time: both versions,
  // under scf.if (M < kGemvRows), each lowering to its own kernel.
  SmallVector<BlockOp> blocks;
  root.walk([&](BlockOp block) { blocks.push_back(block); });
  Value rows;
  bool gemv = !tileMatmuls;
  if (tileMatmuls && blocks.size() == 1 &&
      canTileMatmul(root, blocks.front(), &rows)) {
    gemv = true;
    if (std::optional<int64_t> m = getConstantIntValue(rows)) {
      if (*m >= kGemvRows)
        return scheduleMatmul(root, blocks.front(), tensorCores);
    } else {
      OpBuilder b(root);
      Location loc = root.getLoc();
      Value small = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, rows,
          arith::ConstantIndexOp::create(b, loc, kGemvRows));
      IRMapping mapping;
      ForOp tiled = versionNest(root, small, mapping);
      if (failed(scheduleMatmul(
              tiled,
              cast<BlockOp>(mapping.lookup(blocks.front().getOperation())),
              tensorCores)))
        return failure();
      return scheduleNest(root, maxThreads, reductionKind, tensorCores,
                          wideAccesses, /*tileMatmuls=*/false);
    }
  }
  if (gemv && blocks.size() == 1) {
    FailureOr<bool> splitK =
        scheduleSplitKGemv(root, blocks.front(), maxThreads, wideAccesses);
    if (failed(splitK) || *splitK)
      return splitK;
  }
  SmallVector<ForOp> loops = collectSpatialLoops(root);
  if (reductionKind) {
    if (auto reduction = matchBlockReduction(root, loops))
      return scheduleBlockReduction(root, loops, reduction->first,
                                    reduction->second, maxThreads);
  }
  if (loops.empty()) {
    wrapInSingleThread(root);
    return success();
  }
  // Injective nests: 128-bit accesses where a thread's positions are
  // consecutive (vectorizeInjective), else one position per thread.
  FailureOr<ForOp> fused =
      wideAccesses && blocks.size() == 1 &&
              getInjectiveLanes(loops, blocks.front()) > 1
          ? vectorizeInjective(loops, blocks.front())
          : fuseAll(loops);
  if (failed(fused))
    return failure();
  FailureOr<SplitResult> parts =
      split(*fused, pickBlockSize(*fused, maxThreads));
  if (failed(parts) || failed(bind(parts->outer, "blockIdx.x")) ||
      failed(bind(parts->inner, "threadIdx.x")))
    return failure();
  makeInnerLoopsSerial(parts->outer);
  return success();
}

static bool hasThreadBinding(PrimFuncOp func) {
  return func
      .walk([](ForOp loop) {
        return loop.getKind() == LoopKind::thread_binding
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct TIRGPUDefaultSchedule
    : tir::impl::TIRGPUDefaultScheduleBase<TIRGPUDefaultSchedule> {
  using Base::Base;

  void runOnOperation() override {
    if (maxThreads <= 0 || maxThreads > 1024 || maxThreads % 32 != 0) {
      getOperation().emitError("tir-gpu-default-schedule: max-threads must "
                               "be a multiple of 32 in [32, 1024], got ")
          << static_cast<int64_t>(maxThreads);
      return signalPassFailure();
    }
    for (PrimFuncOp func : getOperation().getOps<PrimFuncOp>()) {
      if (func.getBody().empty() || hasThreadBinding(func))
        continue;
      // relax.attention: the flash-attention kernel when it applies.
      FailureOr<bool> attention = flashAttention(func, tensorCores);
      if (failed(attention))
        return signalPassFailure();
      if (*attention)
        continue;
      SmallVector<Operation *> work;
      for (Operation &op : func.getBody().front().without_terminator()) {
        // Structured ops of the linalg route (convert-tir-to-linalg) reach
        // the GPU through their own lowering (relax-map-parallel-loops-to-gpu).
        if (isa<AllocOp, DestinationStyleOpInterface>(op) ||
            (op.getNumRegions() == 0 && isMemoryEffectFree(&op)))
          continue;
        work.push_back(&op);
      }
      // Matmul-like programs (out_ewise_fusable) keep one thread per output
      // (see matchBlockReduction).
      bool reductionKind = getOpPattern(func) != OpPattern::OutEwiseFusable;
      TensorCores cores = !tensorCores ? TensorCores::none
                          : !wgmma     ? TensorCores::mmaSync
                          : tma        ? TensorCores::warpgroupTma
                                       : TensorCores::warpgroup;
      for (Operation *op : work) {
        if (auto loop = dyn_cast<ForOp>(op)) {
          if (failed(scheduleNest(loop, maxThreads, reductionKind, cores,
                                  wideAccesses)))
            return signalPassFailure();
          continue;
        }
        wrapInSingleThread(op);
      }
    }
  }
};
} // namespace
