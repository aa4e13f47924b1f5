//===- CacheReadWrite.cpp - cache_read, cache_write -----------------------===//
//
// Reads or writes a buffer through a copy in another memory scope, with
// copy nests before (cache_read, the copy-in of cache_write) or after (the
// write-back) the outermost op around the block.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;
namespace sym = mlir::relax::sym;

//===----------------------------------------------------------------------===//
// cache_read / cache_write
//===----------------------------------------------------------------------===//

/// Fails unless every dim of `buffer` has a known extent.
static LogicalResult checkKnownDims(BlockOp block, Value buffer,
                                    StringRef prim) {
  auto type = cast<BufferType>(buffer.getType());
  for (const sym::Expr &dim : type.getDims())
    if (!dim)
      return block.emitError(prim)
             << ": a buffer of block '" << block.getBlockName()
             << "' has a dimension of unknown extent";
  return success();
}

/// The ancestor of `block` (or `block` itself) that lies in the block
/// defining `buffer`: the copies go just before / after it.
static Operation *cacheAnchor(BlockOp block, Value buffer) {
  return buffer.getParentBlock()->findAncestorOpInBlock(*block);
}

/// Emits at `b`'s insertion point a loop nest over the whole of `src`
/// (loops `<name>.d0`, ...) running block `name` that copies `src` into
/// `dst` (same shape).
static void buildCopy(OpBuilder &b, Location loc, Value src, Value dst,
                      StringRef name) {
  OpBuilder::InsertionGuard guard(b);
  auto type = cast<BufferType>(src.getType());
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  SmallVector<Value> ubs;
  for (const sym::Expr &dim : type.getDims())
    ubs.push_back(materializeDim(b, loc, dim));
  SmallVector<Value> ivs;
  for (auto [k, ub] : llvm::enumerate(ubs)) {
    auto loop =
        ForOp::create(b, loc, zero, ub, one, LoopKind::serial, nullptr);
    loop.setLoopNameAttr(b.getStringAttr((name + ".d" + Twine(k)).str()));
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  SmallVector<IterKind> kinds(ivs.size(), IterKind::spatial);
  BlockOp::create(b, loc, name, ivs, kinds, nullptr,
                  [&](OpBuilder &nb, Location l, ValueRange vars) {
                    Value v = LoadOp::create(nb, l, src, vars);
                    StoreOp::create(nb, l, v, dst, vars);
                  });
}

static Value createCache(OpBuilder &b, Location loc, Value buffer,
                         MemoryScope scope) {
  auto type = cast<BufferType>(buffer.getType());
  auto cacheType = BufferType::get(b.getContext(), type.getShape(),
                                   type.getDtype(), scope);
  return AllocOp::create(b, loc, cacheType);
}

FailureOr<Value> tir::cacheRead(BlockOp block, unsigned readIndex,
                                MemoryScope scope) {
  SmallVector<Value> reads;
  block.walk([&](LoadOp load) {
    if (!llvm::is_contained(reads, load.getBuffer()))
      reads.push_back(load.getBuffer());
  });
  if (readIndex >= reads.size())
    return block.emitError("cache_read: block '")
           << block.getBlockName() << "' reads " << reads.size()
           << " buffer(s), there is no read buffer #" << readIndex;
  return cacheRead(block, reads[readIndex], scope);
}

FailureOr<Value> tir::cacheRead(BlockOp block, Value buffer,
                                MemoryScope scope) {
  SmallVector<LoadOp> loads;
  SmallVector<Value> reads;
  block.walk([&](LoadOp load) {
    if (!llvm::is_contained(reads, load.getBuffer()))
      reads.push_back(load.getBuffer());
    if (load.getBuffer() == buffer)
      loads.push_back(load);
  });
  if (loads.empty())
    return block.emitError("cache_read: block '")
           << block.getBlockName() << "' does not read the buffer";
  unsigned index = llvm::find(reads, buffer) - reads.begin();
  if (failed(checkKnownDims(block, buffer, "cache_read")))
    return failure();
  Operation *anchor = cacheAnchor(block, buffer);
  if (!anchor)
    return block.emitError("cache_read: block '")
           << block.getBlockName() << "' is not in the scope of the buffer";
  // The copy is taken before `anchor`: a write inside it would make the
  // copy stale.
  StoreOp writer;
  anchor->walk([&](StoreOp store) {
    if (store.getBuffer() == buffer && !writer)
      writer = store;
  });
  if (writer) {
    InFlightDiagnostic diag =
        block.emitError("cache_read: the buffer read by block '")
        << block.getBlockName()
        << "' is written inside the loop nest around it";
    diag.attachNote(writer.getLoc()) << "written here";
    return diag;
  }

  OpBuilder b(anchor);
  Location loc = block.getLoc();
  Value cache = createCache(b, loc, buffer, scope);
  buildCopy(b, loc, buffer, cache,
            (block.getBlockName() + "_cache_read" + Twine(index)).str());
  for (LoadOp load : loads)
    load.getBufferMutable().assign(cache);
  return cache;
}

/// Whether `block` provably stores every element of `buffer`: one of its
/// top-level stores indexes it by exactly its iteration variables, each
/// bound to the induction variable of a distinct `0 to dim step 1` loop,
/// and only loops lie between `block` and `anchor`.
static bool writesWholeBuffer(BlockOp block, Value buffer,
                              Operation *anchor) {
  for (Operation *p = block; p != anchor;) {
    p = p->getParentOp();
    if (!isa<ForOp>(p))
      return false;
  }
  ValueRange vars = block.getIterVars();
  bool full = false;
  for (Operation &op : block.getBody()->without_terminator()) {
    auto store = dyn_cast<StoreOp>(op);
    if (store && store.getBuffer() == buffer &&
        store.getIndices().size() == vars.size() &&
        llvm::equal(store.getIndices(), vars))
      full = true;
  }
  if (!full)
    return false;
  auto type = cast<BufferType>(buffer.getType());
  SmallVector<ForOp> seen;
  sym::Context ctx;
  for (auto [binding, dim] : llvm::zip(block.getBindings(), type.getDims())) {
    auto arg = dyn_cast<BlockArgument>(binding);
    if (!arg)
      return false;
    auto loop = dyn_cast<ForOp>(arg.getOwner()->getParentOp());
    if (!loop || loop.getInductionVar() != binding ||
        llvm::is_contained(seen, loop) || !anchor->isAncestor(loop) ||
        getConstantIntValue(loop.getLowerBound()) != 0 ||
        getConstantIntValue(loop.getStep()) != 1)
      return false;
    seen.push_back(loop);
    sym::Expr ub = toSymExpr(loop.getUpperBound());
    if (!ub || ctx.simplify(ub - dim).getConstant() != 0)
      return false;
  }
  return true;
}

FailureOr<Value> tir::cacheWrite(BlockOp block, MemoryScope scope) {
  SmallVector<Value> writes;
  block.walk([&](StoreOp store) {
    if (!llvm::is_contained(writes, store.getBuffer()))
      writes.push_back(store.getBuffer());
  });
  if (writes.size() != 1)
    return block.emitError("cache_write: block '")
           << block.getBlockName() << "' writes " << writes.size()
           << " buffers, expected exactly one";
  Value buffer = writes.front();
  if (failed(checkKnownDims(block, buffer, "cache_write")))
    return failure();
  Operation *anchor = cacheAnchor(block, buffer);
  if (!anchor)
    return block.emitError("cache_write: block '")
           << block.getBlockName() << "' is not in the scope of the buffer";
  // Until the copy-back after `anchor`, the buffer is stale: nothing else
  // inside `anchor` may read or write it.
  Operation *other = nullptr;
  anchor->walk([&](Operation *op) {
    Value accessed;
    if (auto load = dyn_cast<LoadOp>(op))
      accessed = load.getBuffer();
    else if (auto store = dyn_cast<StoreOp>(op))
      accessed = store.getBuffer();
    if (accessed == buffer && !block->isAncestor(op) && !other)
      other = op;
  });
  if (other) {
    InFlightDiagnostic diag =
        block.emitError("cache_write: the buffer written by block '")
        << block.getBlockName()
        << "' is accessed by another op in the loop nest around it";
    diag.attachNote(other->getLoc()) << "accessed here";
    return diag;
  }
  // A block that reads the buffer (a reduction, an in-place update) needs
  // the old values in the copy, whatever it writes.
  bool readsBuffer = false;
  block.walk([&](LoadOp load) { readsBuffer |= load.getBuffer() == buffer; });
  bool whole = !block.hasReduceVar() && !readsBuffer &&
               writesWholeBuffer(block, buffer, anchor);

  OpBuilder b(anchor);
  Location loc = block.getLoc();
  Value cache = createCache(b, loc, buffer, scope);
  if (!whole)
    buildCopy(b, loc, buffer, cache,
              (block.getBlockName() + "_cache_in").str());
  block.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (load.getBuffer() == buffer)
        load.getBufferMutable().assign(cache);
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      if (store.getBuffer() == buffer)
        store.getBufferMutable().assign(cache);
    }
  });
  b.setInsertionPointAfter(anchor);
  buildCopy(b, loc, cache, buffer,
            (block.getBlockName() + "_cache_write_back").str());
  return cache;
}

