//===- CrossThreadReduction.cpp - Reduce one loop in parallel slots -------===//
//
// The schedule primitive behind the GPU default schedule of reductions
// (softmax, norms, sums, including over a symbolic axis): one reduction
// runs in a thread block. Each thread accumulates a strided slice of the
// reduction loop into its slot of a shared buffer, then a tree of halving
// thread loops combines the slots; the lowering separates the thread loops
// with barriers. Only the update's combiner needs to be known, so the
// primitive works on whatever expression the block reduces. The CPU's
// counterpart, laneReduction, gives the slots to the lanes of a vector.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;

namespace {
/// What the rewrite needs to know about a matched reduction.
struct ReductionMatch {
  unsigned reduceVar;
  Value out;
  SmallVector<Value> outIndices; // As seen outside the block.
  LoadOp accLoad;
  StoreOp accStore;
  Operation *combiner;
  TypedAttr init;
};
} // namespace

/// Whether `value` is the identity element of `combiner`.
static bool isIdentity(Operation *combiner, TypedAttr value) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    const APFloat &v = f.getValue();
    if (isa<arith::AddFOp>(combiner))
      return v.isZero();
    if (isa<arith::MulFOp>(combiner))
      return v.isExactlyValue(1.0);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
      return v.isInfinity() && v.isNegative();
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
      return v.isInfinity() && !v.isNegative();
    return false;
  }
  auto i = dyn_cast<IntegerAttr>(value);
  if (!i)
    return false;
  const APInt &v = i.getValue();
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp>(combiner))
    return v.isZero();
  if (isa<arith::MulIOp>(combiner))
    return v.isOne();
  if (isa<arith::AndIOp>(combiner))
    return v.isAllOnes();
  if (isa<arith::MaxSIOp>(combiner))
    return v.isMinSignedValue();
  if (isa<arith::MinSIOp>(combiner))
    return v.isMaxSignedValue();
  if (isa<arith::MaxUIOp>(combiner))
    return v.isZero();
  if (isa<arith::MinUIOp>(combiner))
    return v.isAllOnes();
  return false;
}

static bool isCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp,
             arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
             arith::OrIOp, arith::AndIOp, arith::XOrIOp>(op);
}

static FailureOr<ReductionMatch> matchReduction(BlockOp block, ForOp loop,
                                                Reporter report) {
  if (!isUnitLoop(loop))
    return report(loop, "loop must have lower bound 0 and step 1");
  if (block->getParentOp() != loop.getOperation())
    return report(block, "block must sit directly in the reduction loop");
  Value iv = loop.getInductionVar();
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (&op == block.getOperation())
      continue;
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op) ||
        llvm::any_of(op.getOperands(),
                     [&](Value v) { return dependsOnAny(v, {iv}); }))
      return report(&op, "the reduction loop may only hold the block and "
                         "side-effect-free ops independent of its variable");
  }

  ReductionMatch m;
  std::optional<unsigned> reduceVar;
  for (auto [i, binding] : llvm::enumerate(block.getBindings())) {
    if (block.getIterKind(i) == IterKind::reduce) {
      if (reduceVar)
        return report(block, "block must have one reduce variable");
      if (binding != iv)
        return report(block, "the reduce variable must be bound to the "
                             "loop's induction variable");
      reduceVar = i;
    } else if (dependsOnAny(binding, {iv})) {
      return report(block, "a spatial variable depends on the reduction "
                           "loop");
    }
  }
  if (!reduceVar)
    return report(block, "block has no reduce variable");
  m.reduceVar = *reduceVar;

  InitOp init = block.getInitOp();
  if (!init)
    return report(block, "block has no init");
  StoreOp initStore;
  for (Operation &op : init.getBody()->without_terminator()) {
    if (auto store = dyn_cast<StoreOp>(op)) {
      if (initStore)
        return report(init, "init must store one value");
      initStore = store;
    } else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
      return report(&op, "init may only store a constant");
    }
  }
  if (!initStore)
    return report(init, "init stores nothing");
  Attribute initValue;
  if (!matchPattern(initStore.getValue(), m_Constant(&initValue)))
    return report(initStore, "init must store a constant");
  m.init = dyn_cast<TypedAttr>(initValue);
  m.out = initStore.getBuffer();

  // The update: one store of combine(load(out[idx]), value) to out[idx].
  for (Operation &op : block.getBody()->without_terminator()) {
    if (&op == init.getOperation())
      continue;
    if (auto store = dyn_cast<StoreOp>(op)) {
      if (store.getBuffer() != m.out || m.accStore)
        return report(store, "the block must store only its one output "
                             "element");
      m.accStore = store;
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      if (load.getBuffer() != m.out)
        continue;
      if (m.accLoad)
        return report(load, "the block reads its output more than once");
      m.accLoad = load;
    } else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
      return report(&op, "unsupported op in the reduction block");
    }
  }
  if (!m.accStore || !m.accLoad)
    return report(block, "the block does not update its output");
  m.combiner = m.accStore.getValue().getDefiningOp();
  if (!m.combiner || !isCombiner(m.combiner) ||
      m.combiner->getBlock() != block.getBody() ||
      !llvm::is_contained(m.combiner->getOperands(), m.accLoad.getResult()) ||
      !m.accLoad->hasOneUse() ||
      m.combiner->getOperand(0) == m.combiner->getOperand(1))
    return report(m.accStore, "the update is not combine(output, value) "
                              "with a known combiner");
  if (!m.init || !isIdentity(m.combiner, m.init))
    return report(initStore, "the init value is not the identity of the "
                             "update");
  if (m.accLoad.getIndices() != m.accStore.getIndices() ||
      initStore.getIndices() != m.accStore.getIndices())
    return report(m.accStore, "the init, read and write of the output must "
                              "use the same indices");
  Block *body = block.getBody();
  for (Value index : m.accStore.getIndices()) {
    if (auto arg = dyn_cast<BlockArgument>(index);
        arg && arg.getOwner() == body) {
      if (block.getIterKind(arg.getArgNumber()) == IterKind::reduce)
        return report(m.accStore, "the output is indexed by the reduce "
                                  "variable");
      m.outIndices.push_back(block.getBindings()[arg.getArgNumber()]);
      continue;
    }
    if (block->isAncestor(index.getParentRegion()->getParentOp()))
      return report(m.accStore, "output indices must be iteration "
                                "variables or values defined outside the "
                                "block");
    m.outIndices.push_back(index);
  }
  return m;
}

bool tir::canCrossThreadReduce(BlockOp block, ForOp loop) {
  return succeeded(matchReduction(block, loop, Reporter{false, "cross_thread_reduction"}));
}

/// A `threadIdx.x` loop `0 to extent` whose body `build` fills.
static ForOp threadLoop(OpBuilder &b, Location loc, int64_t extent,
                        function_ref<void(OpBuilder &, Value)> build) {
  auto loop = ForOp::create(b, loc, constIndex(b, loc, 0),
                            constIndex(b, loc, extent), constIndex(b, loc, 1),
                            LoopKind::thread_binding, nullptr, "threadIdx.x");
  OpBuilder nb = OpBuilder::atBlockBegin(loop.getBody());
  build(nb, loop.getInductionVar());
  return loop;
}

/// The shared-memory tree: log2(threads) halving thread loops combine
/// partial[t] with partial[t + stride], then one thread stores partial[0].
static void buildSharedTree(OpBuilder &b, Location loc, const ReductionMatch &m,
                            Value partial, int64_t threads) {
  for (int64_t stride = threads / 2; stride >= 1; stride /= 2) {
    threadLoop(b, loc, stride, [&](OpBuilder &tb, Value t) {
      Value lhs = LoadOp::create(tb, loc, partial, ValueRange{t});
      Value other =
          arith::AddIOp::create(tb, loc, t, constIndex(tb, loc, stride));
      Value rhs = LoadOp::create(tb, loc, partial, ValueRange{other});
      Operation *combined = tb.clone(*m.combiner);
      combined->setOperands({lhs, rhs});
      StoreOp::create(tb, loc, combined->getResult(0), partial, ValueRange{t});
    });
  }
  threadLoop(b, loc, 1, [&](OpBuilder &tb, Value) {
    Value total =
        LoadOp::create(tb, loc, partial, ValueRange{constIndex(tb, loc, 0)});
    StoreOp::create(tb, loc, total, m.out, m.outIndices);
  });
}

/// The gpu.subgroup_reduce kind of a combiner (isCombiner's ops).
static gpu::AllReduceOperation getWarpReduceKind(Operation *combiner) {
  return TypeSwitch<Operation *, gpu::AllReduceOperation>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>(
          [](auto) { return gpu::AllReduceOperation::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>(
          [](auto) { return gpu::AllReduceOperation::MUL; })
      .Case([](arith::MaximumFOp) { return gpu::AllReduceOperation::MAXIMUMF; })
      .Case([](arith::MinimumFOp) { return gpu::AllReduceOperation::MINIMUMF; })
      .Case([](arith::MaxNumFOp) { return gpu::AllReduceOperation::MAXNUMF; })
      .Case([](arith::MinNumFOp) { return gpu::AllReduceOperation::MINNUMF; })
      .Case([](arith::MaxSIOp) { return gpu::AllReduceOperation::MAXSI; })
      .Case([](arith::MinSIOp) { return gpu::AllReduceOperation::MINSI; })
      .Case([](arith::MaxUIOp) { return gpu::AllReduceOperation::MAXUI; })
      .Case([](arith::MinUIOp) { return gpu::AllReduceOperation::MINUI; })
      .Case([](arith::AndIOp) { return gpu::AllReduceOperation::AND; })
      .Case([](arith::OrIOp) { return gpu::AllReduceOperation::OR; })
      .Default([](Operation *) { return gpu::AllReduceOperation::XOR; });
}

/// A warp of 32 lanes; shuffles move at most 32 bits per lane.
static constexpr int64_t kWarpSize = 32;

bool tir::canWarpShuffleReduce(Type dtype) {
  return dtype.isIntOrFloat() && dtype.getIntOrFloatBitWidth() <= 32;
}

/// The warp-shuffle tree, appended to the accumulating thread loop `acc`:
/// each warp reduces its lanes' partial[t] with one gpu.subgroup_reduce
/// (a shuffle-xor butterfly on NVIDIA) and lane 0 writes the warp's total
/// to warps[t / 32]; after the one barrier, the first warp reduces those
/// totals the same way and its lane 0 stores the result. With 32 threads
/// the first step already holds the result: no barrier at all. Every lane
/// reads only its own partial slot, so no barrier separates accumulation
/// from the warp step (--tir-test-gpu-as-serial splits the loop there).
static void buildWarpTree(OpBuilder &b, Location loc, const ReductionMatch &m,
                          Value partial, int64_t threads, ForOp accumulate,
                          Value initValue) {
  gpu::AllReduceOperation kind = getWarpReduceKind(m.combiner);
  Type dtype = cast<BufferType>(m.out.getType()).getDtype();
  int64_t warps = threads / kWarpSize;
  Value totals;
  OpBuilder ab(accumulate);
  if (warps > 1)
    totals = AllocOp::create(
        ab, loc,
        BufferType::get(b.getContext(),
                        relax::SymShape::fromStatic({kWarpSize}), dtype,
                        MemoryScope::shared));

  // Stores `value` to `dest[index]` in the lane where `lane` is zero.
  auto storeFromLaneZero = [&](OpBuilder &tb, Value lane, Value value,
                               Value dest, ValueRange index) {
    Value isFirst = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::eq,
                                          lane, constIndex(tb, loc, 0));
    auto guard = scf::IfOp::create(tb, loc, isFirst, /*withElse=*/false);
    OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
    StoreOp::create(gb, loc, value, dest, index);
  };

  OpBuilder tb = OpBuilder::atBlockEnd(accumulate.getBody());
  tb.setInsertionPoint(accumulate.getBody()->getTerminator());
  Value t = accumulate.getInductionVar();
  Value own = LoadOp::create(tb, loc, partial, ValueRange{t});
  Value warpTotal =
      gpu::SubgroupReduceOp::create(tb, loc, own, kind, /*uniform=*/true);
  if (warps == 1) {
    storeFromLaneZero(tb, t, warpTotal, m.out, m.outIndices);
    return;
  }
  Value warpSize = constIndex(tb, loc, kWarpSize);
  Value lane = arith::RemUIOp::create(tb, loc, t, warpSize);
  Value warp = arith::DivUIOp::create(tb, loc, t, warpSize);
  storeFromLaneZero(tb, lane, warpTotal, totals, ValueRange{warp});

  threadLoop(b, loc, kWarpSize, [&](OpBuilder &lb, Value lane) {
    Value loaded = LoadOp::create(lb, loc, totals, ValueRange{lane});
    Value used = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ult, lane,
                                       constIndex(lb, loc, warps));
    Value value = arith::SelectOp::create(lb, loc, used, loaded, initValue);
    Value total =
        gpu::SubgroupReduceOp::create(lb, loc, value, kind, /*uniform=*/true);
    storeFromLaneZero(lb, lane, total, m.out, m.outIndices);
  });
}

/// Moves the pure ops of `loop`'s body other than `block` before it (a
/// matched reduction loop's: they do not use its variable).
static void hoistPureOps(BlockOp block, ForOp loop) {
  for (Operation &op :
       llvm::make_early_inc_range(loop.getBody()->without_terminator()))
    if (&op != block.getOperation())
      op.moveBefore(loop);
}

/// A copy of the matched reduction `block` without its init, at `b`, for
/// iteration `iteration` of its reduce variable, that reads and writes
/// partial[slot] instead of its output element; named with `suffix`.
/// `mapping` (values of the block's context the caller cloned) receives
/// the copy's ops.
static void cloneUpdate(OpBuilder &b, Location loc, BlockOp block,
                        ReductionMatch &m, IRMapping &mapping, Value iteration,
                        Value partial, Value slot, StringRef suffix) {
  auto copy = cast<BlockOp>(b.clone(*block, mapping));
  copy->setOperand(m.reduceVar, iteration);
  copy.setBlockNameAttr(b.getStringAttr(block.getBlockName() + suffix));
  copy.getInitOp()->erase();
  auto load = cast<LoadOp>(mapping.lookup(m.accLoad.getOperation()));
  auto store = cast<StoreOp>(mapping.lookup(m.accStore.getOperation()));
  OpBuilder rb(load);
  load.getResult().replaceAllUsesWith(
      LoadOp::create(rb, loc, partial, ValueRange{slot}));
  load.erase();
  rb.setInsertionPoint(store);
  StoreOp::create(rb, loc, store.getValue(), partial, ValueRange{slot});
  store.erase();
}

/// The strided part of a block reduction, in thread `slot`'s loop body:
/// partial[slot] = init, then iterations start, start + stride, ... (`steps`
/// of them, guarded by the loop's extent) of the original block, reading
/// and writing partial[slot]. `outer` maps values of the block's context
/// that the caller cloned. With `lanes` > 1 a step covers iterations
/// lanes * (start + stride j) + 0 .. lanes - 1: one tir.vector_load per
/// load of `wideLoads`, then `lanes` copies of the block reading its
/// elements (the caller guarantees the extent is a multiple of `lanes`).
static void accumulateStrided(OpBuilder &tb, Location loc, BlockOp block,
                              ReductionMatch &m, Value partial, Value slot,
                              Value start, Value steps, Value stride,
                              Value initValue, const IRMapping &outer,
                              ArrayRef<LoadOp> wideLoads = {},
                              int64_t lanes = 1) {
  auto loop = cast<ForOp>(block->getParentOp());
  Value extent = outer.lookupOrDefault(loop.getUpperBound());
  StoreOp::create(tb, loc, initValue, partial, ValueRange{slot});
  auto strided =
      ForOp::create(tb, loc, constIndex(tb, loc, 0), steps,
                    constIndex(tb, loc, 1), LoopKind::serial, nullptr);
  OpBuilder sb = OpBuilder::atBlockBegin(strided.getBody());
  Value r = arith::AddIOp::create(
      sb, loc,
      arith::MulIOp::create(sb, loc, strided.getInductionVar(), stride), start);
  if (lanes > 1)
    r = arith::MulIOp::create(sb, loc, r, constIndex(sb, loc, lanes));
  Value inRange =
      arith::CmpIOp::create(sb, loc, arith::CmpIPredicate::ult, r, extent);
  auto guard = scf::IfOp::create(sb, loc, inRange, /*withElse=*/false);
  OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
  llvm::MapVector<Operation *, Value> wide;
  if (lanes > 1) {
    IRMapping first = outer;
    first.map(loop.getInductionVar(), r);
    wide = loadLanes(gb, loc, block, wideLoads, first, lanes);
  }
  for (int64_t lane = 0; lane < lanes; ++lane) {
    Value iteration =
        lane == 0 ? r
                  : arith::AddIOp::create(gb, loc, r, constIndex(gb, loc, lane))
                        .getResult();
    IRMapping mapping = outer;
    cloneUpdate(gb, loc, block, m, mapping, iteration, partial, slot,
                "_cross_thread");
    extractLanes(mapping, wide, lane);
  }
}

LogicalResult tir::crossThreadReduction(BlockOp block, ForOp loop,
                                        int64_t threads, bool warpShuffle) {
  if (threads < 32 || threads > 1024 || !llvm::isPowerOf2_64(threads))
    return loop.emitError("cross_thread_reduction: threads must be a power "
                          "of two in [32, 1024], got ")
           << threads;
  FailureOr<ReductionMatch> matched =
      matchReduction(block, loop, Reporter{true, "cross_thread_reduction"});
  if (failed(matched))
    return failure();
  ReductionMatch &m = *matched;

  hoistPureOps(block, loop);

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value extent = loop.getUpperBound();
  Type dtype = cast<BufferType>(m.out.getType()).getDtype();
  auto partialType =
      BufferType::get(b.getContext(), relax::SymShape::fromStatic({threads}),
                      dtype, MemoryScope::shared);
  Value partial = AllocOp::create(b, loc, partialType);
  Value threadsValue = constIndex(b, loc, threads);
  Value steps;
  if (std::optional<int64_t> c = getConstantIntValue(extent))
    steps = constIndex(b, loc, (*c + threads - 1) / threads);
  else
    steps = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, extent, constIndex(b, loc, threads - 1)),
        threadsValue);
  Value initValue = arith::ConstantOp::create(b, loc, m.init);

  // Each thread: partial[t] = init, then iterations t, t + T, ... of the
  // original loop, each the original block reading and writing partial[t].
  ForOp accumulate = threadLoop(b, loc, threads, [&](OpBuilder &tb, Value t) {
    IRMapping outer;
    accumulateStrided(tb, loc, block, m, partial, t, t, steps, threadsValue,
                      initValue, outer);
  });

  if (warpShuffle && canWarpShuffleReduce(dtype))
    buildWarpTree(b, loc, m, partial, threads, accumulate, initValue);
  else
    buildSharedTree(b, loc, m, partial, threads);
  loop.erase();
  return success();
}

/// A serial loop `lb to ub step 1` whose body `build` fills.
static ForOp serialLoop(OpBuilder &b, Location loc, Value lb, Value ub,
                        function_ref<void(OpBuilder &, Value)> build) {
  auto loop = ForOp::create(b, loc, lb, ub, constIndex(b, loc, 1),
                            LoopKind::serial, nullptr);
  OpBuilder nb = OpBuilder::atBlockBegin(loop.getBody());
  build(nb, loop.getInductionVar());
  return loop;
}

/// Whether every load of `block` that the reduce variable indexes reads
/// consecutive elements along it: the variable is the last index and no
/// other index uses it. Lanes of such a block read one vector a step.
static bool readsAlongReduction(BlockOp block, unsigned reduceVar) {
  Value var = block.getBody()->getArgument(reduceVar);
  WalkResult walk = block.getBody()->walk([&](LoadOp load) {
    ValueRange indices = load.getIndices();
    for (auto [i, index] : llvm::enumerate(indices)) {
      bool last = i + 1 == indices.size();
      if ((last && index != var && dependsOnAny(index, {var})) ||
          (!last && dependsOnAny(index, {var})))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

bool tir::canLaneReduce(BlockOp block, ForOp loop) {
  FailureOr<ReductionMatch> m =
      matchReduction(block, loop, Reporter{false, "lane_reduction"});
  return succeeded(m) && readsAlongReduction(block, m->reduceVar);
}

LogicalResult tir::laneReduction(BlockOp block, ForOp loop, int64_t lanes) {
  Reporter report{true, "lane_reduction"};
  if (lanes < 2 || lanes > 64 || !llvm::isPowerOf2_64(lanes))
    return loop.emitError("lane_reduction: lanes must be a power of two in "
                          "[2, 64], got ")
           << lanes;
  FailureOr<ReductionMatch> matched = matchReduction(block, loop, report);
  if (failed(matched))
    return failure();
  ReductionMatch &m = *matched;
  if (!readsAlongReduction(block, m.reduceVar))
    return report(block, "a load reads across the reduce variable, not "
                         "along it");
  hoistPureOps(block, loop);

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type dtype = cast<BufferType>(m.out.getType()).getDtype();
  Value partial = AllocOp::create(
      b, loc,
      BufferType::get(b.getContext(), relax::SymShape::fromStatic({lanes}),
                      dtype, MemoryScope::local));
  Value initValue = arith::ConstantOp::create(b, loc, m.init);
  Value zero = constIndex(b, loc, 0), lanesValue = constIndex(b, loc, lanes);
  // One copy of the update at iteration `k`, reading and writing
  // partial[slot] instead of the output.
  auto update = [&](OpBuilder &ub, Value k, Value slot) {
    IRMapping mapping;
    cloneUpdate(ub, loc, block, m, mapping, k, partial, slot, "_lanes");
  };

  serialLoop(b, loc, zero, lanesValue, [&](OpBuilder &lb, Value l) {
    StoreOp::create(lb, loc, initValue, partial, ValueRange{l});
  });
  Value extent = loop.getUpperBound();
  Value steps = arith::DivUIOp::create(b, loc, extent, lanesValue);
  serialLoop(b, loc, zero, steps, [&](OpBuilder &sb, Value j) {
    Value base = arith::MulIOp::create(sb, loc, j, lanesValue);
    serialLoop(sb, loc, zero, lanesValue, [&](OpBuilder &lb, Value l) {
      update(lb, arith::AddIOp::create(lb, loc, base, l), l);
    });
  });
  Value done = arith::MulIOp::create(b, loc, steps, lanesValue);
  serialLoop(b, loc, done, extent,
             [&](OpBuilder &tb, Value k) { update(tb, k, zero); });
  serialLoop(b, loc, constIndex(b, loc, 1), lanesValue,
             [&](OpBuilder &lb, Value l) {
               Value acc = LoadOp::create(lb, loc, partial, ValueRange{zero});
               Value lane = LoadOp::create(lb, loc, partial, ValueRange{l});
               Operation *combined = lb.clone(*m.combiner);
               combined->setOperands({acc, lane});
               StoreOp::create(lb, loc, combined->getResult(0), partial,
                               ValueRange{zero});
             });
  StoreOp::create(b, loc,
                  LoadOp::create(b, loc, partial, ValueRange{zero}).getResult(),
                  m.out, m.outIndices);
  loop.erase();
  return success();
}

LogicalResult tir::warpPerOutputReduction(ForOp outer, BlockOp block,
                                          ForOp loop, int64_t warps,
                                          int64_t lanes) {
  Reporter report{true, "warp_per_output_reduction"};
  if (warps < 1 || warps > 32 || !llvm::isPowerOf2_64(warps))
    return outer.emitError("warp_per_output_reduction: warps must be a power "
                           "of two in [1, 32], got ")
           << warps;
  if (!isUnitLoop(outer))
    return report(outer, "outer loop must have lower bound 0 and step 1");
  if (loop->getParentOp() != outer.getOperation())
    return report(loop, "the reduction loop must sit directly in the outer "
                        "loop");
  for (Operation &op : outer.getBody()->without_terminator())
    if (&op != loop.getOperation() &&
        (op.getNumRegions() != 0 || !isMemoryEffectFree(&op) ||
         loop->isBeforeInBlock(&op)))
      return report(&op, "the outer loop may only hold side-effect-free ops "
                         "before the reduction loop");
  FailureOr<ReductionMatch> matched = matchReduction(block, loop, report);
  if (failed(matched))
    return failure();
  ReductionMatch &m = *matched;
  Type dtype = cast<BufferType>(m.out.getType()).getDtype();
  if (!canWarpShuffleReduce(dtype))
    return report(block, "the output type does not fit a warp shuffle");
  SmallVector<LoadOp> wideLoads;
  if (lanes > 1) {
    std::optional<WideLoadPlan> plan = planSplitKWideLoads(block, loop);
    if (!plan || plan->lanes != lanes)
      return report(block, "the inputs cannot be read " + Twine(lanes) +
                               " elements at a time");
    wideLoads = plan->loads;
  }
  hoistPureOps(block, loop);

  OpBuilder b(outer);
  Location loc = outer.getLoc();
  int64_t threads = warps * kWarpSize;
  Value outputs = outer.getUpperBound();
  Value blocks = arith::DivUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, outputs, constIndex(b, loc, warps - 1)),
      constIndex(b, loc, warps));
  auto blockLoop = ForOp::create(
      b, loc, constIndex(b, loc, 0), blocks, constIndex(b, loc, 1),
      LoopKind::thread_binding, nullptr, "blockIdx.x");
  b.setInsertionPointToStart(blockLoop.getBody());
  Value partial = AllocOp::create(
      b, loc,
      BufferType::get(b.getContext(), relax::SymShape::fromStatic({threads}),
                      dtype, MemoryScope::shared));
  Value initValue = arith::ConstantOp::create(b, loc, m.init);
  Value extent = loop.getUpperBound();
  int64_t perStep = kWarpSize * std::max<int64_t>(lanes, 1);
  Value steps = arith::DivUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, extent, constIndex(b, loc, perStep - 1)),
      constIndex(b, loc, perStep));

  // Warp w of the block computes output b * warps + w (clamped to the last
  // one, whose value the out-of-range warps then compute but do not
  // store); its lanes share the reduction loop. The output's index is
  // computed again after the warp reduction, which needs nothing of the
  // accumulation (that is what --tir-test-gpu-as-serial can split).
  auto outputOf = [&](OpBuilder &tb, Value t, IRMapping &mapping) {
    Value warp = arith::DivUIOp::create(tb, loc, t, constIndex(tb, loc, 32));
    Value raw = arith::AddIOp::create(
        tb, loc,
        arith::MulIOp::create(tb, loc, blockLoop.getInductionVar(),
                              constIndex(tb, loc, warps)),
        warp);
    Value valid =
        arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::ult, raw, outputs);
    Value last =
        arith::SubIOp::create(tb, loc, outputs, constIndex(tb, loc, 1));
    Value index = arith::SelectOp::create(tb, loc, valid, raw, last);
    mapping.map(outer.getInductionVar(), index);
    for (Operation &op : outer.getBody()->without_terminator())
      if (&op != loop.getOperation())
        tb.clone(op, mapping);
    return valid;
  };
  threadLoop(b, loc, threads, [&](OpBuilder &tb, Value t) {
    Value lane = arith::RemUIOp::create(tb, loc, t, constIndex(tb, loc, 32));
    IRMapping before;
    outputOf(tb, t, before);
    accumulateStrided(tb, loc, block, m, partial, t, lane, steps,
                      constIndex(tb, loc, kWarpSize), initValue, before,
                      wideLoads, lanes);
    Value own = LoadOp::create(tb, loc, partial, ValueRange{t});
    Value total = gpu::SubgroupReduceOp::create(
        tb, loc, own, getWarpReduceKind(m.combiner), /*uniform=*/true);
    IRMapping after;
    Value valid = outputOf(tb, t, after);
    Value isFirst = arith::CmpIOp::create(
        tb, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(tb, loc, t, constIndex(tb, loc, 32)),
        constIndex(tb, loc, 0));
    auto guard = scf::IfOp::create(
        tb, loc, arith::AndIOp::create(tb, loc, isFirst, valid),
        /*withElse=*/false);
    OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
    SmallVector<Value> indices;
    for (Value index : m.outIndices)
      indices.push_back(after.lookupOrDefault(index));
    StoreOp::create(gb, loc, total, m.out, indices);
  });
  outer.erase();
  return success();
}
