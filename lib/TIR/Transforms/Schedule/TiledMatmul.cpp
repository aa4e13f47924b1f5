//===- TiledMatmul.cpp - Shared-memory tiling of matmul-like nests --------===//
//
// The schedule primitive behind the GPU default schedule of matmul, batched
// matmul, linear and attention scores: a loop nest computing
//   out[batch.., i, j] = sum_k f(A[.., i, .., k]) * g(B[.., k, .., j])
// becomes one thread block per T x T output tile (batch dims fused on
// blockIdx.z), whose T * T threads stage T x T tiles of A and B in shared
// memory (zero-padded at the edges of symbolic M, N, K) and accumulate
// their output element over the K tiles. Each tile of A and B is read from
// global memory once per block instead of once per output element.
//
// The accumulation keeps the serial order over k (padding adds exact
// zeros), so results match the one-thread-per-output schedule bit for bit.
//
//===----------------------------------------------------------------------===//

#include "MatmulMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;


std::optional<unsigned> schedule::blockVar(BlockOp block, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != block.getBody())
    return std::nullopt;
  return arg.getArgNumber();
}

/// Follows single-operand casts (extf, sitofp, ...) down to a load.
static LoadOp throughCasts(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto load = dyn_cast<LoadOp>(op))
      return load;
    if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
        !isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
             arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op))
      return {};
    value = op->getOperand(0);
  }
  return {};
}

FailureOr<MatmulMatch> schedule::matchMatmul(ForOp root, BlockOp block,
                                             Reporter report) {
  MatmulMatch m;
  // A perfect nest of unit loops from root down to the block, one loop per
  // block variable, each binding exactly a loop's induction variable.
  unsigned numVars = block.getBindings().size();
  for (Operation *op = block->getParentOp(); op; op = op->getParentOp()) {
    auto loop = dyn_cast<ForOp>(op);
    if (!loop)
      return report(block, "block is not inside a loop nest");
    m.loops.insert(m.loops.begin(), loop);
    if (loop == root)
      break;
  }
  if (m.loops.front() != root || m.loops.size() != numVars)
    return report(root, "the nest needs one loop per block variable");
  for (ForOp loop : m.loops) {
    if (!isUnitLoop(loop))
      return report(loop, "loops must have lower bound 0 and step 1");
    for (Operation &op : loop.getBody()->without_terminator()) {
      bool child = isa<ForOp, BlockOp>(op);
      if (!child && (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
        return report(&op, "the nest is not perfect");
    }
    auto bound = llvm::find(block.getBindings(), loop.getInductionVar());
    if (bound == block.getBindings().end() ||
        llvm::count(block.getBindings(), loop.getInductionVar()) != 1)
      return report(loop, "each loop must drive exactly one block variable");
    m.loopVar.push_back(bound - block.getBindings().begin());
  }
  // Extents become grid sizes computed before the nest: constants, or
  // values defined outside it.
  for (ForOp loop : m.loops) {
    Value ub = loop.getUpperBound();
    Operation *def = ub.getDefiningOp();
    if (!getConstantIntValue(ub) &&
        (!def || root->isAncestor(def) ||
         !def->getBlock()->findAncestorOpInBlock(*root)))
      return report(loop, "loop bounds must be defined outside the nest");
  }

  std::optional<unsigned> kVar;
  for (unsigned v = 0; v < numVars; ++v)
    if (block.getIterKind(v) == IterKind::reduce) {
      if (kVar)
        return report(block, "block must have one reduce variable");
      kVar = v;
    }
  if (!kVar)
    return report(block, "block has no reduce variable");
  m.kVar = *kVar;

  InitOp init = block.getInitOp();
  StoreOp initStore;
  if (init)
    for (Operation &op : init.getBody()->without_terminator())
      if (auto s = dyn_cast<StoreOp>(op))
        initStore = initStore ? StoreOp() : s;
  Attribute initValue;
  if (!initStore || !matchPattern(initStore.getValue(), m_Constant(&initValue)))
    return report(block, "init must store one constant");
  m.init = dyn_cast<TypedAttr>(initValue);
  Value out = initStore.getBuffer();

  // out = out + f(A) * g(B).
  for (Operation &op : block.getBody()->without_terminator()) {
    if (&op == init.getOperation())
      continue;
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (s.getBuffer() != out || m.accStore)
        return report(s, "the block must store only its output element");
      m.accStore = s;
    } else if (op.getNumRegions() != 0 ||
               (!isMemoryEffectFree(&op) && !isa<LoadOp>(op))) {
      return report(&op, "unsupported op in the block");
    }
  }
  if (!m.accStore)
    return report(block, "the block does not update its output");
  Operation *add = m.accStore.getValue().getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add))
    return report(m.accStore, "the update is not an addition");
  Operation *mul = nullptr;
  for (Value operand : add->getOperands()) {
    if (auto load = operand.getDefiningOp<LoadOp>();
        load && load.getBuffer() == out)
      m.accLoad = load;
    else
      mul = operand.getDefiningOp();
  }
  if (!m.accLoad || !mul || !isa<arith::MulFOp, arith::MulIOp>(mul))
    return report(m.accStore, "the update is not out + a * b");
  m.loadA = throughCasts(mul->getOperand(0));
  m.loadB = throughCasts(mul->getOperand(1));
  if (!m.loadA || !m.loadB || m.loadA == m.loadB || !m.loadA->hasOneUse() ||
      !m.loadB->hasOneUse())
    return report(mul, "the product is not of two loads");
  if (!isa<FloatAttr, IntegerAttr>(m.init) ||
      !(isa<FloatAttr>(m.init) ? cast<FloatAttr>(m.init).getValue().isZero()
                               : cast<IntegerAttr>(m.init).getValue().isZero()))
    return report(initStore, "init must be zero");
  if (m.accLoad.getIndices() != m.accStore.getIndices() ||
      initStore.getIndices() != m.accStore.getIndices())
    return report(m.accStore, "the output element must be the same");

  // Roles: k indexes both A and B; i only A; j only B; the rest is batch.
  auto varsOf = [&](LoadOp load) {
    llvm::SmallSetVector<unsigned, 4> vars;
    for (Value index : load.getIndices())
      if (std::optional<unsigned> v = blockVar(block, index))
        vars.insert(*v);
    return vars;
  };
  for (LoadOp load : {m.loadA, m.loadB})
    for (Value index : load.getIndices())
      if (!blockVar(block, index) &&
          block->isAncestor(index.getParentRegion()->getParentOp()))
        return report(load, "operand indices must be block variables or "
                            "values defined outside the block");
  auto varsA = varsOf(m.loadA), varsB = varsOf(m.loadB);
  if (!varsA.contains(m.kVar) || !varsB.contains(m.kVar))
    return report(block, "both operands must be read along the reduction");
  std::optional<unsigned> iVar, jVar;
  // The innermost (last in loop order) A-only and B-only variables.
  for (unsigned v : m.loopVar) {
    if (v == m.kVar)
      continue;
    if (varsA.contains(v) && !varsB.contains(v))
      iVar = v;
    else if (varsB.contains(v) && !varsA.contains(v))
      jVar = v;
  }
  if (!iVar || !jVar)
    return report(block, "no row variable of A and column variable of B");
  m.iVar = *iVar;
  m.jVar = *jVar;
  for (unsigned v : m.loopVar)
    if (v != m.iVar && v != m.jVar && v != m.kVar)
      m.batchVars.push_back(v);
  for (Value index : m.accStore.getIndices())
    if (!blockVar(block, index) &&
        block->isAncestor(index.getParentRegion()->getParentOp()))
      return report(m.accStore, "output indices must be block variables or "
                                "values defined outside the block");
  return m;
}

bool tir::canTileMatmul(ForOp root, BlockOp block, Value *rowExtent) {
  FailureOr<MatmulMatch> m = matchMatmul(root, block, Reporter{false, "tile_matmul"});
  if (failed(m))
    return false;
  if (rowExtent)
    for (auto [loop, v] : llvm::zip(m->loops, m->loopVar))
      if (v == m->iVar)
        *rowExtent = loop.getUpperBound();
  return true;
}

Value schedule::ceilDiv(OpBuilder &b, Location loc, Value n, int64_t d) {
  if (std::optional<int64_t> c = getConstantIntValue(n))
    return constIndex(b, loc, (*c + d - 1) / d);
  return arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, n, constIndex(b, loc, d - 1)),
      constIndex(b, loc, d));
}

/// A `threadIdx.x` loop of `threads` iterations; `build` gets the builder
/// and the (ty, tx) position of the thread in the tile.
static void
tileThreads(OpBuilder &b, Location loc, int64_t tile,
            function_ref<void(OpBuilder &, Value, Value, Value)> build) {
  auto loop = ForOp::create(b, loc, constIndex(b, loc, 0), constIndex(b, loc, tile * tile),
                            constIndex(b, loc, 1), LoopKind::thread_binding, nullptr,
                            "threadIdx.x");
  OpBuilder tb = OpBuilder::atBlockBegin(loop.getBody());
  Value t = loop.getInductionVar();
  Value ty = arith::DivUIOp::create(tb, loc, t, constIndex(tb, loc, tile));
  Value tx = arith::RemUIOp::create(tb, loc, t, constIndex(tb, loc, tile));
  build(tb, t, ty, tx);
}

SmallVector<Value> schedule::mapBlockIndices(BlockOp block, ValueRange indices,
                                             ArrayRef<Value> vars) {
  SmallVector<Value> mapped;
  for (Value index : indices) {
    std::optional<unsigned> v = blockVar(block, index);
    mapped.push_back(v ? vars[*v] : index);
  }
  return mapped;
}

Value schedule::guardedLoad(OpBuilder &b, Location loc, BlockOp block,
                            LoadOp load, ArrayRef<Value> vars,
                            Value inBounds) {
  Type type = load.getType();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, inBounds,
                                /*withElse=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  SmallVector<Value> indices = mapBlockIndices(block, load.getIndices(), vars);
  scf::YieldOp::create(
      tb, loc, LoadOp::create(tb, loc, load.getBuffer(), indices).getResult());
  OpBuilder eb = ifOp.getElseBodyBuilder();
  Value zero = arith::ConstantOp::create(eb, loc, eb.getZeroAttr(type));
  scf::YieldOp::create(eb, loc, zero);
  return ifOp.getResult(0);
}

MatmulGrid schedule::buildMatmulGrid(OpBuilder &b, Location loc,
                                     MatmulMatch &m, int64_t tileM,
                                     int64_t tileN, int64_t tileK,
                                     function_ref<void()> beforeLoops) {
  MatmulGrid g;
  unsigned numVars = m.loops.size();
  g.extent.resize(numVars);
  for (auto [loop, v] : llvm::zip(m.loops, m.loopVar)) {
    std::optional<int64_t> c = getConstantIntValue(loop.getUpperBound());
    g.extent[v] = c ? constIndex(b, loc, *c) : loop.getUpperBound();
  }
  // Fused batch dims on z, row tiles on y, column tiles on x.
  Value batch = constIndex(b, loc, 1);
  for (unsigned v : m.batchVars)
    batch = getConstantIntValue(batch) == 1
                ? g.extent[v]
                : arith::MulIOp::create(b, loc, batch, g.extent[v]).getResult();
  Value rowTiles = ceilDiv(b, loc, g.extent[m.iVar], tileM);
  Value colTiles = ceilDiv(b, loc, g.extent[m.jVar], tileN);
  g.kTiles = ceilDiv(b, loc, g.extent[m.kVar], tileK);
  if (beforeLoops)
    beforeLoops();
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  g.zLoop = ForOp::create(b, loc, zero, batch, one, LoopKind::thread_binding,
                          nullptr, "blockIdx.z");
  b.setInsertionPointToStart(g.zLoop.getBody());
  auto yLoop = ForOp::create(b, loc, zero, rowTiles, one,
                             LoopKind::thread_binding, nullptr, "blockIdx.y");
  b.setInsertionPointToStart(yLoop.getBody());
  auto xLoop = ForOp::create(b, loc, zero, colTiles, one,
                             LoopKind::thread_binding, nullptr, "blockIdx.x");
  b.setInsertionPointToStart(xLoop.getBody());
  // Batch variables of the block from z, row-major in loop order.
  g.base.resize(numVars);
  Value rest = g.zLoop.getInductionVar();
  for (unsigned v : llvm::reverse(m.batchVars)) {
    g.base[v] = arith::RemUIOp::create(b, loc, rest, g.extent[v]);
    rest = arith::DivUIOp::create(b, loc, rest, g.extent[v]);
  }
  g.rowBase = arith::MulIOp::create(b, loc, yLoop.getInductionVar(),
                                    constIndex(b, loc, tileM));
  g.colBase = arith::MulIOp::create(b, loc, xLoop.getInductionVar(),
                                    constIndex(b, loc, tileN));
  return g;
}

LogicalResult tir::tileMatmul(ForOp root, BlockOp block, int64_t tile) {
  // The GPU default schedule, the only caller, passes its constant
  // kMatmulTile (16); no input chooses the tile.
  assert(tile >= 4 && tile <= 32 && llvm::isPowerOf2_64(tile) &&
         "tile_matmul: tile must be a power of two in [4, 32]");
  FailureOr<MatmulMatch> matched = matchMatmul(root, block, Reporter{true, "tile_matmul"});
  if (failed(matched))
    return failure();
  MatmulMatch &m = *matched;
  OpBuilder b(root);
  Location loc = root.getLoc();
  Value tileValue, initValue;
  MatmulGrid grid = buildMatmulGrid(b, loc, m, tile, tile, tile, [&] {
    tileValue = constIndex(b, loc, tile);
    initValue = arith::ConstantOp::create(b, loc, m.init);
  });
  ArrayRef<Value> extent = grid.extent, base = grid.base;
  Value rowBase = grid.rowBase, colBase = grid.colBase;
  Value kTiles = grid.kTiles;
  auto typeOf = [](LoadOp l) {
    return cast<BufferType>(l.getBuffer().getType());
  };
  auto sharedOf = [&](Type dtype, ArrayRef<int64_t> shape) {
    return BufferType::get(b.getContext(), relax::SymShape::fromStatic(shape),
                           dtype, MemoryScope::shared);
  };
  Type outType = m.accLoad.getType();

  Value tileA = AllocOp::create(
      b, loc, sharedOf(typeOf(m.loadA).getDtype(), {tile, tile}));
  Value tileB = AllocOp::create(
      b, loc, sharedOf(typeOf(m.loadB).getDtype(), {tile, tile}));
  Value acc = AllocOp::create(b, loc, sharedOf(outType, {tile * tile}));

  tileThreads(b, loc, tile, [&](OpBuilder &tb, Value t, Value, Value) {
    StoreOp::create(tb, loc, initValue, acc, ValueRange{t});
  });

  auto kLoop = ForOp::create(b, loc, constIndex(b, loc, 0), kTiles, constIndex(b, loc, 1),
                             LoopKind::serial, nullptr);
  {
    OpBuilder kb = OpBuilder::atBlockBegin(kLoop.getBody());
    Value kBase =
        arith::MulIOp::create(kb, loc, kLoop.getInductionVar(), tileValue);
    auto lt = [&](OpBuilder &ob, Value a, Value n) {
      return arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::ult, a, n)
          .getResult();
    };
    // Stage: A[row, k] -> tileA[ty, tx], B[k, col] -> tileB[ty, tx].
    tileThreads(kb, loc, tile, [&](OpBuilder &tb, Value, Value ty, Value tx) {
      SmallVector<Value> vars(base);
      Value row = arith::AddIOp::create(tb, loc, rowBase, ty);
      Value kA = arith::AddIOp::create(tb, loc, kBase, tx);
      vars[m.iVar] = row;
      vars[m.kVar] = kA;
      vars[m.jVar] = colBase;
      Value inA = arith::AndIOp::create(tb, loc, lt(tb, row, extent[m.iVar]),
                                        lt(tb, kA, extent[m.kVar]));
      Value a = guardedLoad(tb, loc, block, m.loadA, vars, inA);
      StoreOp::create(tb, loc, a, tileA, ValueRange{ty, tx});
      Value kB = arith::AddIOp::create(tb, loc, kBase, ty);
      Value col = arith::AddIOp::create(tb, loc, colBase, tx);
      vars[m.iVar] = rowBase;
      vars[m.kVar] = kB;
      vars[m.jVar] = col;
      Value inB = arith::AndIOp::create(tb, loc, lt(tb, kB, extent[m.kVar]),
                                        lt(tb, col, extent[m.jVar]));
      Value bv = guardedLoad(tb, loc, block, m.loadB, vars, inB);
      StoreOp::create(tb, loc, bv, tileB, ValueRange{ty, tx});
    });
    // Multiply the tiles: the original block per kk, reading the tiles.
    tileThreads(kb, loc, tile, [&](OpBuilder &tb, Value t, Value ty, Value tx) {
      auto inner = ForOp::create(tb, loc, constIndex(tb, loc, 0), tileValue,
                                 constIndex(tb, loc, 1), LoopKind::serial, nullptr);
      OpBuilder ib = OpBuilder::atBlockBegin(inner.getBody());
      Value kk = inner.getInductionVar();
      SmallVector<Value> bindings(block.getBindings());
      for (unsigned v : m.batchVars)
        bindings[v] = base[v];
      bindings[m.iVar] = arith::AddIOp::create(ib, loc, rowBase, ty);
      bindings[m.jVar] = arith::AddIOp::create(ib, loc, colBase, tx);
      bindings[m.kVar] = arith::AddIOp::create(ib, loc, kBase, kk);
      IRMapping mapping;
      auto copy = cast<BlockOp>(ib.clone(*block, mapping));
      copy->setOperands(bindings);
      copy.setBlockNameAttr(ib.getStringAttr(block.getBlockName() + "_tile"));
      if (InitOp init = copy.getInitOp())
        init->erase();
      auto replaceLoad = [&](LoadOp original, Value buffer,
                             ValueRange indices) {
        auto load = cast<LoadOp>(mapping.lookup(original.getOperation()));
        OpBuilder lb(load);
        load.getResult().replaceAllUsesWith(
            LoadOp::create(lb, loc, buffer, indices));
        load.erase();
      };
      replaceLoad(m.loadA, tileA, {ty, kk});
      replaceLoad(m.loadB, tileB, {kk, tx});
      replaceLoad(m.accLoad, acc, {t});
      auto store = cast<StoreOp>(mapping.lookup(m.accStore.getOperation()));
      OpBuilder sb(store);
      StoreOp::create(sb, loc, store.getValue(), acc, ValueRange{t});
      store.erase();
    });
  }

  // Write the tile back where it lies inside the output.
  b.setInsertionPointAfter(kLoop);
  tileThreads(b, loc, tile, [&](OpBuilder &tb, Value t, Value ty, Value tx) {
    SmallVector<Value> vars(base);
    Value row = arith::AddIOp::create(tb, loc, rowBase, ty);
    Value col = arith::AddIOp::create(tb, loc, colBase, tx);
    vars[m.iVar] = row;
    vars[m.jVar] = col;
    Value inBounds = arith::AndIOp::create(
        tb, loc,
        arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::ult, row,
                              extent[m.iVar]),
        arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::ult, col,
                              extent[m.jVar]));
    auto guard = scf::IfOp::create(tb, loc, inBounds, /*withElse=*/false);
    OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
    Value v = LoadOp::create(gb, loc, acc, ValueRange{t});
    StoreOp::create(gb, loc, v, m.accStore.getBuffer(),
                    mapBlockIndices(block, m.accStore.getIndices(), vars));
  });
  root.erase();
  return success();
}
