//===- WideAccess.cpp - 128-bit loads and stores in GPU kernels -----------===//
//
// A GPU thread with one 4-byte load in flight leaves most of the memory
// bandwidth unused (docs/gpu.md, expected H200 figures): a 128-bit access
// (`tir.vector_load` / `tir.vector_store`, `LDG.E.128` / `STG.E.128`) moves
// four f32 or eight f16 at once. It needs an address aligned to 16 bytes,
// which the schedule proves instead of checking per access: every buffer a
// kernel sees starts 16-byte aligned (docs/gpu.md "Wide loads and stores":
// the lowering's allocations and arena offsets are multiples of 64 bytes,
// views start at offset 0, device memory at 256), so an access is aligned
// when its row-major element offset is a multiple of its lanes.
//
// Two uses:
//   - the split-K GEMV (warpPerOutputReduction with lanes): a lane reads
//     `lanes` consecutive elements of each input row per step; aligned when
//     the rows' length and the reduction extent are multiples of lanes
//     (planSplitKWideLoads lists what is not proven, for a run-time check);
//   - injective nests (vectorizeInjective): a thread computes `lanes`
//     consecutive outputs; the accesses whose offset is the output's (same
//     shape, same indices) become one vector access each, the others stay
//     scalar, and a chunk that runs past the end takes a scalar tail.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "RelaxDialect/Support/SymExprCodegen.h"
#include "RelaxDialect/TIR/IR/TIRVectorOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;
namespace sym = mlir::relax::sym;

/// Bytes of one wide access: 128 bits, the widest global load of a thread.
static constexpr int64_t kWideBytes = 16;

/// Bytes of an element of `dtype` when it is a whole number of bytes; 0 for
/// i1 (stored as bytes but loaded through BoolLoads' rewrite), index and
/// sub-byte types, which keep scalar accesses.
static int64_t getElementBytes(Type dtype) {
  if (!dtype.isIntOrFloat() || dtype.isInteger(1))
    return 0;
  unsigned bits = dtype.getIntOrFloatBitWidth();
  return bits % 8 == 0 ? bits / 8 : 0;
}

int64_t tir::getWideAccessLanes(ArrayRef<Type> dtypes) {
  int64_t widest = 0;
  for (Type dtype : dtypes) {
    int64_t bytes = getElementBytes(dtype);
    if (bytes == 0 || bytes > kWideBytes / 2)
      return 1;
    widest = std::max(widest, bytes);
  }
  return widest == 0 ? 1 : kWideBytes / widest;
}

/// Whether `index`, used in `block`'s body, is one of its iteration
/// variables or a value from outside the block.
static bool isIterVarOrOutside(BlockOp block, Value index) {
  if (auto arg = dyn_cast<BlockArgument>(index);
      arg && arg.getOwner() == block.getBody())
    return true;
  return !block->isAncestor(index.getParentRegion()->getParentOp());
}

SmallVector<Value> schedule::getIndicesOutside(BlockOp block,
                                               ValueRange indices,
                                               const IRMapping &outer) {
  SmallVector<Value> result;
  for (Value index : indices) {
    if (auto arg = dyn_cast<BlockArgument>(index);
        arg && arg.getOwner() == block.getBody())
      index = block.getBindings()[arg.getArgNumber()];
    result.push_back(outer.lookupOrDefault(index));
  }
  return result;
}

/// The alignment in bytes of a `lanes`-wide access of `dtype` whose element
/// offset is a multiple of `lanes`.
static int64_t getWideAlignment(Type dtype, int64_t lanes) {
  return getElementBytes(dtype) * lanes;
}

llvm::MapVector<Operation *, Value>
schedule::loadLanes(OpBuilder &b, Location loc, BlockOp block,
                    ArrayRef<LoadOp> loads, const IRMapping &outer,
                    int64_t lanes) {
  llvm::MapVector<Operation *, Value> wide;
  for (LoadOp load : loads) {
    Type dtype = load.getType();
    wide[load] = VectorLoadOp::create(
        b, loc, VectorType::get({lanes}, dtype), load.getBuffer(),
        getIndicesOutside(block, load.getIndices(), outer),
        b.getI64IntegerAttr(getWideAlignment(dtype, lanes)));
  }
  return wide;
}

void schedule::extractLanes(const IRMapping &cloned,
                            const llvm::MapVector<Operation *, Value> &wide,
                            int64_t lane) {
  for (auto [original, vector] : wide) {
    auto load = cast<LoadOp>(cloned.lookup(original));
    OpBuilder b(load);
    Value element = vector::ExtractOp::create(b, load.getLoc(), vector,
                                              ArrayRef<int64_t>{lane});
    load.getResult().replaceAllUsesWith(element);
    load.erase();
  }
}

//===----------------------------------------------------------------------===//
// Split-K GEMV
//===----------------------------------------------------------------------===//

std::optional<WideLoadPlan> tir::planSplitKWideLoads(BlockOp block,
                                                     ForOp loop) {
  Value reduceArg;
  for (auto [i, arg] : llvm::enumerate(block.getIterVars()))
    if (block.getIterKind(i) == IterKind::reduce)
      reduceArg = arg;
  if (!reduceArg)
    return std::nullopt;
  llvm::SmallPtrSet<Value, 2> outputs;
  block.walk([&](StoreOp store) { outputs.insert(store.getBuffer()); });

  WideLoadPlan plan;
  SmallVector<Type> dtypes;
  bool ok = true;
  block.walk([&](LoadOp load) {
    if (outputs.contains(load.getBuffer()))
      return;
    ValueRange indices = load.getIndices();
    ok &= load->getParentOp() == block.getOperation() && !indices.empty() &&
          indices.back() == reduceArg &&
          llvm::all_of(indices.drop_back(), [&](Value index) {
            return index != reduceArg && isIterVarOrOutside(block, index);
          });
    plan.loads.push_back(load);
    dtypes.push_back(load.getType());
  });
  if (!ok || plan.loads.empty())
    return std::nullopt;
  plan.lanes = getWideAccessLanes(dtypes);
  if (plan.lanes < 2)
    return std::nullopt;

  // Chunks of `lanes` from a multiple of lanes stay inside the extent when
  // it is a multiple; the rows of an input start aligned when their length
  // is one.
  SmallVector<sym::Expr> lengths{toSymExpr(loop.getUpperBound())};
  for (LoadOp load : plan.loads) {
    auto type = cast<BufferType>(load.getBuffer().getType());
    if (type.getRank() > 1)
      lengths.push_back(type.getDims().back());
  }
  sym::Context ctx;
  for (const sym::Expr &length : lengths) {
    if (!length)
      return std::nullopt;
    std::optional<int64_t> rest =
        ctx.simplify(sym::mod(length, sym::Expr::constant(plan.lanes)))
            .getConstant();
    if (rest == 0)
      continue;
    if (rest)
      return std::nullopt;
    if (!llvm::is_contained(plan.mustDivide, length))
      plan.mustDivide.push_back(length);
  }
  return plan;
}

Value tir::emitMultiplesCheck(OpBuilder &b, Location loc,
                              ArrayRef<sym::Expr> values, int64_t lanes) {
  Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (const sym::Expr &value : values) {
    // Every variable is read with tir.sym_var: emission cannot fail.
    Value v = relax::emitSymExpr(b, loc, value, [&](StringRef name) {
      return SymVarOp::create(b, loc, name).getResult();
    });
    Value rest = arith::RemUIOp::create(b, loc, v, constIndex(b, loc, lanes));
    Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rest,
                                       constIndex(b, loc, 0));
    all = arith::AndIOp::create(b, loc, all, zero);
  }
  return all;
}

//===----------------------------------------------------------------------===//
// Injective nests
//===----------------------------------------------------------------------===//

/// Whether `buffer[indices]` (in `block`) addresses the element at the
/// nest's flattened position: a global buffer with the loops' extents as
/// its shape, indexed by the iteration variables bound to the loops, in
/// order. Such an access runs over consecutive elements when the fused
/// loop does.
static bool isFlatAccess(BlockOp block, ArrayRef<ForOp> loops, Value buffer,
                         ValueRange indices) {
  auto type = cast<BufferType>(buffer.getType());
  if (type.getScope() != MemoryScope::global ||
      type.getRank() != static_cast<int64_t>(loops.size()))
    return false;
  sym::Context ctx;
  for (auto [d, index] : llvm::enumerate(indices)) {
    ForOp loop = loops[d];
    auto arg = dyn_cast<BlockArgument>(index);
    if (!arg || arg.getOwner() != block.getBody() ||
        block.getBindings()[arg.getArgNumber()] != loop.getInductionVar())
      return false;
    sym::Expr extent = toSymExpr(loop.getUpperBound());
    sym::Expr dim = type.getDims()[d];
    if (!extent || !dim || !ctx.provablyEqual(extent, dim))
      return false;
  }
  return true;
}

namespace {
/// The accesses of an injective block that become vector accesses.
struct FlatAccesses {
  StoreOp store;
  SmallVector<LoadOp> loads;
  int64_t lanes = 1;
};
} // namespace

/// The block's one store and the loads that share its flat position, when
/// the block is a plain injective computation (no reduction, no regions,
/// one store at a flat position, the stored buffer read nowhere else).
static std::optional<FlatAccesses> matchFlatAccesses(ArrayRef<ForOp> loops,
                                                     BlockOp block) {
  if (loops.empty())
    return std::nullopt;
  ForOp innermost = loops.back();
  if (block->getParentOp() != innermost.getOperation() || block.hasReduceVar())
    return std::nullopt;
  for (Operation &op : innermost.getBody()->without_terminator())
    if (&op != block.getOperation() && !isPureLeaf(op))
      return std::nullopt;
  FlatAccesses flat;
  SmallVector<LoadOp> loads;
  for (Operation &op : block.getBody()->without_terminator()) {
    if (auto store = dyn_cast<StoreOp>(op)) {
      if (flat.store)
        return std::nullopt;
      flat.store = store;
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      loads.push_back(load);
    } else if (!isPureLeaf(op)) {
      return std::nullopt;
    }
  }
  if (!flat.store || !isFlatAccess(block, loops, flat.store.getBuffer(),
                                   flat.store.getIndices()))
    return std::nullopt;
  SmallVector<Type> dtypes{flat.store.getValue().getType()};
  for (LoadOp load : loads) {
    bool isFlat =
        isFlatAccess(block, loops, load.getBuffer(), load.getIndices());
    if (load.getBuffer() == flat.store.getBuffer() &&
        (!isFlat || load.getIndices() != flat.store.getIndices()))
      return std::nullopt;
    if (isFlat) {
      flat.loads.push_back(load);
      dtypes.push_back(load.getType());
    }
  }
  flat.lanes = getWideAccessLanes(dtypes);
  return flat;
}

int64_t tir::getInjectiveLanes(ArrayRef<ForOp> loops, BlockOp block) {
  std::optional<FlatAccesses> flat = matchFlatAccesses(loops, block);
  return flat ? flat->lanes : 1;
}

FailureOr<ForOp> tir::vectorizeInjective(ArrayRef<ForOp> loops,
                                         BlockOp block) {
  std::optional<FlatAccesses> flat = matchFlatAccesses(loops, block);
  if (!flat || flat->lanes < 2)
    // unreachable: only the default schedule calls it, where
    // getInjectiveLanes found lanes (no tool exposes the primitive alone).
    return block.emitError("vectorize_injective: the block is not one "
                           "store of element-aligned 8 to 64-bit values at "
                           "the nest's position");
  int64_t lanes = flat->lanes;
  ForOp fused = loops.front();
  for (ForOp inner : loops.drop_front(1)) {
    FailureOr<ForOp> f = fuse(fused, inner);
    if (failed(f))
      return failure();
    fused = *f;
  }

  OpBuilder b(fused);
  Location loc = fused.getLoc();
  Value total = fused.getUpperBound();
  sym::Expr totalExpr = toSymExpr(total);
  sym::Context ctx;
  bool divisible =
      totalExpr &&
      ctx.simplify(sym::mod(totalExpr, sym::Expr::constant(lanes)))
              .getConstant() == 0;
  Value chunks;
  if (std::optional<int64_t> c = getConstantIntValue(total))
    chunks = constIndex(b, loc, llvm::divideCeil(*c, lanes));
  else
    chunks = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, total, constIndex(b, loc, lanes - 1)),
        constIndex(b, loc, lanes));
  ForOp chunkLoop = createLoopLike(b, loc, fused, constIndex(b, loc, 0),
                                   chunks, constIndex(b, loc, 1));
  b.setInsertionPointToStart(chunkLoop.getBody());
  Value first = arith::MulIOp::create(b, loc, chunkLoop.getInductionVar(),
                                      constIndex(b, loc, lanes));

  // The fused body computes the block's bindings from the loop's variable;
  // `at(v)` clones it for position first + v.
  Value iv = fused.getInductionVar();
  SmallVector<Operation *> prologue;
  for (Operation &op : fused.getBody()->without_terminator())
    if (&op != block.getOperation())
      prologue.push_back(&op);
  auto at = [&](OpBuilder &ob, int64_t lane) {
    IRMapping mapping;
    mapping.map(iv, lane == 0 ? first
                              : arith::AddIOp::create(
                                    ob, loc, first, constIndex(ob, loc, lane))
                                    .getResult());
    for (Operation *op : prologue)
      ob.clone(*op, mapping);
    return mapping;
  };

  // Full chunks: one vector load per flat input, `lanes` copies of the
  // block (flat loads read from the vectors, the store goes to a
  // per-thread buffer) and one vector store.
  scf::IfOp full;
  if (!divisible) {
    Value end = arith::AddIOp::create(b, loc, first, constIndex(b, loc, lanes));
    Value fits =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, total);
    full = scf::IfOp::create(b, loc, fits, /*withElse=*/true);
    b.setInsertionPoint(full.thenBlock()->getTerminator());
  }
  Type dtype = flat->store.getValue().getType();
  Value staged = AllocOp::create(
      b, loc,
      BufferType::get(b.getContext(), relax::SymShape::fromStatic({lanes}),
                      dtype, MemoryScope::local));
  IRMapping atFirst = at(b, 0);
  llvm::MapVector<Operation *, Value> wide =
      loadLanes(b, loc, block, flat->loads, atFirst, lanes);
  for (int64_t lane = 0; lane < lanes; ++lane) {
    IRMapping mapping = lane == 0 ? atFirst : at(b, lane);
    auto copy = cast<BlockOp>(b.clone(*block, mapping));
    copy.setBlockNameAttr(b.getStringAttr(block.getBlockName() + "_lanes"));
    extractLanes(mapping, wide, lane);
    auto store = cast<StoreOp>(mapping.lookup(flat->store.getOperation()));
    OpBuilder sb(store);
    StoreOp::create(sb, loc, store.getValue(), staged,
                    ValueRange{constIndex(sb, loc, lane)});
    store.erase();
  }
  Value values = VectorLoadOp::create(b, loc, VectorType::get({lanes}, dtype),
                                      staged, ValueRange{constIndex(b, loc, 0)},
                                      IntegerAttr());
  VectorStoreOp::create(
      b, loc, values, flat->store.getBuffer(),
      getIndicesOutside(block, flat->store.getIndices(), atFirst),
      b.getI64IntegerAttr(getWideAlignment(dtype, lanes)));

  // The chunk that runs past the end: the original body per element.
  if (full) {
    b.setInsertionPoint(full.elseBlock()->getTerminator());
    auto tail = ForOp::create(b, loc, constIndex(b, loc, 0),
                              constIndex(b, loc, lanes),
                              constIndex(b, loc, 1), LoopKind::serial, nullptr);
    b.setInsertionPointToStart(tail.getBody());
    Value index = arith::AddIOp::create(b, loc, first, tail.getInductionVar());
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, total);
    auto guard = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
    for (Operation *op : prologue)
      op->moveBefore(guard.thenBlock()->getTerminator());
    block->moveBefore(guard.thenBlock()->getTerminator());
    iv.replaceAllUsesWith(index);
  }
  fused.erase();
  return chunkLoop;
}
