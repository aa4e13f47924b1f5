//===- Compact.cpp - hoistPrologue, compactToLoop -------------------------===//
//
// Whole-program steps of the default CPU schedule: gather the index math
// every nest needs at the start, and shrink buffers one loop alone uses to
// per-iteration scratch.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

using namespace mlir;
using namespace mlir::tir;
namespace sym = mlir::relax::sym;

//===----------------------------------------------------------------------===//
// Prologue hoisting and buffer compaction
//===----------------------------------------------------------------------===//

void tir::hoistPrologue(PrimFuncOp func) {
  Block &entry = func.getBody().front();
  Operation *last = nullptr;
  llvm::SmallPtrSet<Operation *, 32> hoisted;
  for (Operation &op :
       llvm::make_early_inc_range(entry.without_terminator())) {
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      continue;
    bool ready = llvm::all_of(op.getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return !def || hoisted.contains(def);
    });
    if (!ready)
      continue;
    if (last)
      op.moveAfter(last);
    else
      op.moveBefore(&entry.front());
    last = &op;
    hoisted.insert(&op);
  }
}

LogicalResult tir::compactToLoop(AllocOp alloc, ForOp loop) {
  auto fail = [&](const Twine &msg) -> LogicalResult {
    return alloc.emitError("compact: ") << msg;
  };
  BufferType type = alloc.getType();
  SmallVector<Operation *> accesses;
  SmallVector<bool> dimOk(type.getRank(), true);
  for (OpOperand &use : alloc.getResult().getUses()) {
    Operation *user = use.getOwner();
    ValueRange indices;
    if (auto load = dyn_cast<LoadOp>(user))
      indices = load.getIndices();
    else if (auto store = dyn_cast<StoreOp>(user);
             store && store.getBuffer() == alloc.getResult())
      indices = store.getIndices();
    else
      return fail("the buffer has a use other than a load or store");
    if (!loop->isProperAncestor(user))
      return fail("the buffer is accessed outside the loop");
    for (auto [d, index] : llvm::enumerate(indices))
      dimOk[d] = dimOk[d] && isBoundToIv(index, loop);
    accesses.push_back(user);
  }
  auto it = llvm::find(dimOk, true);
  if (it == dimOk.end())
    return fail("no dim of the buffer is indexed by the loop's iv everywhere");
  unsigned dim = it - dimOk.begin();

  SmallVector<sym::Expr> dims(type.getDims());
  dims[dim] = sym::Expr::constant(1);
  auto local = BufferType::get(type.getContext(), relax::SymShape(dims),
                               type.getDtype(), MemoryScope::local);
  OpBuilder b(loop.getBody(), loop.getBody()->begin());
  auto replacement = AllocOp::create(b, alloc.getLoc(), local);
  Value zero = arith::ConstantIndexOp::create(b, alloc.getLoc(), 0);
  for (Operation *access : accesses) {
    if (auto load = dyn_cast<LoadOp>(access)) {
      load.getBufferMutable().assign(replacement);
      load.getIndicesMutable().slice(dim, 1).assign(zero);
    } else {
      auto store = cast<StoreOp>(access);
      store.getBufferMutable().assign(replacement);
      store.getIndicesMutable().slice(dim, 1).assign(zero);
    }
  }
  alloc.erase();
  return success();
}
