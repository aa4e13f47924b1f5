//===- ComputeAt.cpp - compute_inline, compute_at, reverse_compute_at -----===//
//
// The primitives that move an elementwise block's computation to where its
// result is used (compute_inline, compute_at) or to where its input is
// produced (reverse_compute_at).
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;
namespace sym = mlir::relax::sym;

namespace {
/// A spatial block of loads, pure ops and one store to a buffer at its own
/// iteration variables: what compute_inline, compute_at (which also need the
/// buffer to be a tir.alloc) and reverse_compute_at can move.
struct SimpleProducer {
  StoreOp store;
  SmallVector<Value> inputs; // buffers the block loads
  SmallVector<LoadOp> loads;
  Value buffer;   // the buffer it writes
  AllocOp alloc;  // its tir.alloc, when it is one
  ValueRange vars;
};

/// The loop nest around an elementwise block: a perfect chain of unit
/// loops, one per iteration variable.
struct UnitNest {
  SmallVector<ForOp> loops; // outermost first
  SmallVector<int> varOfLoop; // the block variable each loop drives
};
} // namespace

/// Matches a SimpleProducer or reports why not, as
/// "<primitive>: block '<name>' <reason>". `needAlloc` refuses a parameter
/// buffer: the caller reads it, so its stores must stay.
static FailureOr<SimpleProducer>
matchSimpleProducer(BlockOp block, StringRef primitive, bool needAlloc) {
  auto fail = [&](const Twine &msg) -> FailureOr<SimpleProducer> {
    return block.emitError(primitive)
           << ": block '" << block.getBlockName() << "' " << msg;
  };
  if (block.hasReduceVar())
    return fail("has a reduce iteration variable");
  StoreOp store;
  SmallVector<Value> inputs;
  SmallVector<LoadOp> loads;
  for (Operation &op : block.getBody()->without_terminator()) {
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (store)
        return fail("stores more than once");
      store = s;
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      inputs.push_back(load.getBuffer());
      loads.push_back(load);
    } else if (!isPureLeaf(op)) {
      return fail("must consist of loads, pure ops and one store");
    }
  }
  if (!store)
    return fail("stores nothing");
  Value buffer = store.getBuffer();
  auto alloc = buffer.getDefiningOp<AllocOp>();
  if (needAlloc && !alloc)
    return fail("writes a buffer that is not a tir.alloc");
  ValueRange vars = block.getIterVars();
  if (store.getIndices().size() != vars.size() ||
      !llvm::equal(store.getIndices(), vars))
    return fail("must store at its iteration variables, in order");
  if (llvm::is_contained(inputs, buffer))
    return fail("reads the buffer it writes");
  return SimpleProducer{store, inputs, loads, buffer, alloc, vars};
}

/// Checks that `nest` (outermost first, ending around `block`) is a perfect
/// chain of unit loops binding each variable of `block` to one loop's iv;
/// reports why not through `fail`. Returns the variable of each loop.
static FailureOr<SmallVector<int>>
matchUnitNest(BlockOp block, ArrayRef<ForOp> nest,
              function_ref<LogicalResult(const Twine &)> fail) {
  SmallVector<int> varOfLoop;
  for (ForOp l : nest) {
    if (!isUnitLoop(l))
      return fail("has a loop with lower bound != 0 or step != 1");
    Operation *child = &*std::prev(l.getBody()->end(), 2);
    for (Operation &op : l.getBody()->without_terminator())
      if (&op != child && !isPureLeaf(op))
        return fail("is not in a perfect loop nest");
    int var = -1;
    for (auto [i, binding] : llvm::enumerate(block.getBindings()))
      if (binding == l.getInductionVar())
        var = i;
    if (var < 0 || llvm::is_contained(varOfLoop, var))
      return fail("must bind each iteration variable to one loop's iv");
    varOfLoop.push_back(var);
  }
  if (varOfLoop.size() != block.getIterVars().size())
    return fail("must bind each iteration variable to one loop's iv");
  return varOfLoop;
}

/// Whether every value `block`'s body uses from outside the block passes
/// `available`.
static bool operandsAvailable(BlockOp block,
                              function_ref<bool(Value)> available) {
  for (Operation &op : block.getBody()->without_terminator())
    for (Value operand : op.getOperands())
      if (!block->isAncestor(operand.getParentRegion()->getParentOp()) &&
          !available(operand))
        return false;
  return true;
}

//===----------------------------------------------------------------------===//
// compute_inline
//===----------------------------------------------------------------------===//

LogicalResult tir::computeInline(BlockOp block) {
  auto fail = [&](const Twine &msg) -> LogicalResult {
    return block.emitError("compute_inline: block '")
           << block.getBlockName() << "' " << msg;
  };
  FailureOr<SimpleProducer> producer =
      matchSimpleProducer(block, "compute_inline", /*needAlloc=*/true);
  if (failed(producer))
    return failure();
  StoreOp store = producer->store;
  SmallVector<Value> inputs = producer->inputs;
  Value buffer = producer->buffer;
  AllocOp alloc = producer->alloc;
  ValueRange vars = producer->vars;

  // Inlining moves the reads to the consumers: nothing may write the
  // buffer or the inputs in between. A write to an input inside an earlier
  // top-level op of the program (the nest that computed it) is finished
  // before the producer runs, and so before every consumer.
  auto func = block->getParentOfType<PrimFuncOp>();
  Block &entry = func.getBody().front();
  Operation *producerTop = entry.findAncestorOpInBlock(*block);
  auto writtenBefore = [&](Operation *op) {
    Operation *top = entry.findAncestorOpInBlock(*op);
    return top && top != producerTop && top->isBeforeInBlock(producerTop);
  };
  SmallVector<LoadOp> consumers;
  LogicalResult ok = success();
  func.walk([&](Operation *op) {
    // Accesses other than tir.load / tir.store (vector accesses of the GPU
    // schedules, async copies) would keep reading or writing the buffer
    // after its producer is gone.
    if (!isa<LoadOp, StoreOp, AllocOp>(op) &&
        llvm::is_contained(op->getOperands(), buffer)) {
      ok = fail("has its buffer accessed by '" +
                op->getName().getStringRef() + "', which cannot be inlined");
    } else if (auto s = dyn_cast<StoreOp>(op)) {
      if (s != store && s.getBuffer() == buffer)
        ok = fail("writes a buffer that another op also writes");
      else if (llvm::is_contained(inputs, s.getBuffer()) && !writtenBefore(s))
        ok = fail("reads a buffer that is written elsewhere");
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      if (load.getBuffer() == buffer)
        consumers.push_back(load);
    }
    return failed(ok) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (failed(ok))
    return failure();
  DominanceInfo dom(func);
  for (LoadOp load : consumers)
    if (!operandsAvailable(block, [&](Value v) {
          return dom.properlyDominates(v, load);
        }))
      return fail("uses a value that is not available at its consumer");

  for (LoadOp load : consumers) {
    OpBuilder b(load);
    IRMapping mapping;
    mapping.map(vars, load.getIndices());
    for (Operation &op : block.getBody()->without_terminator())
      if (&op != store.getOperation())
        b.clone(op, mapping);
    load.replaceAllUsesWith(mapping.lookupOrDefault(store.getValue()));
    load.erase();
  }
  // Remove the producer with the loops and guards that only held it.
  Operation *top = block;
  while (isa<ForOp, scf::IfOp>(top->getParentOp()) &&
         top->getParentOp()->getNumRegions() >= 1) {
    Operation *parent = top->getParentOp();
    if (auto guard = dyn_cast<scf::IfOp>(parent))
      if (guard.getNumResults() != 0 || !guard.getElseRegion().empty())
        break;
    bool onlyTop = llvm::all_of(
        top->getBlock()->without_terminator(), [&](Operation &op) {
          return &op == top ||
                 (op.getNumRegions() == 0 && isMemoryEffectFree(&op));
        });
    if (!onlyTop)
      break;
    top = parent;
  }
  top->erase();
  if (alloc->use_empty())
    alloc->erase();
  return success();
}
//===----------------------------------------------------------------------===//
// compute_at
//===----------------------------------------------------------------------===//

FailureOr<BlockOp> tir::computeAt(BlockOp block, ForOp loop) {
  auto fail = [&](const Twine &msg) -> FailureOr<BlockOp> {
    return block.emitError("compute_at: block '")
           << block.getBlockName() << "' " << msg;
  };
  FailureOr<SimpleProducer> producer =
      matchSimpleProducer(block, "compute_at", /*needAlloc=*/true);
  if (failed(producer))
    return failure();
  StoreOp store = producer->store;
  SmallVector<Value> inputs = producer->inputs;
  Value buffer = producer->buffer;
  AllocOp alloc = producer->alloc;
  ValueRange vars = producer->vars;

  // The producer nest: a perfect chain of unit loops, one per variable.
  Block *home = alloc->getBlock();
  Operation *top = home->findAncestorOpInBlock(*block);
  if (!top || top == block.getOperation())
    return fail("is not in a loop nest in the block of its buffer");
  SmallVector<ForOp> nest; // outermost first
  for (Operation *p = block->getParentOp(); p; p = p->getParentOp()) {
    auto l = dyn_cast<ForOp>(p);
    if (!l)
      return fail("must be directly in a nest of tir.for loops");
    nest.insert(nest.begin(), l);
    if (p == top)
      break;
  }
  FailureOr<SmallVector<int>> nestVars = matchUnitNest(block, nest, fail);
  if (failed(nestVars))
    return failure();
  SmallVector<int> varOfLoop = std::move(*nestVars);

  Operation *target = home->findAncestorOpInBlock(*loop);
  if (!target || !top->isBeforeInBlock(target))
    return fail("is not followed by loop '" +
                loop.getLoopName().value_or("").str() +
                "' in the block of its buffer");

  // Consumers: every load of the buffer must be inside `loop`; a dim is
  // fixed when all loads index it with a variable bound to the iv of `loop`
  // or of a loop around it, the same one.
  auto func = block->getParentOfType<PrimFuncOp>();
  SmallVector<Value> fixed(vars.size());
  SmallVector<bool> full(vars.size(), false);
  Operation *bad = nullptr;
  std::string why;
  func.walk([&](Operation *op) {
    if (bad)
      return;
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (s != store && s.getBuffer() == buffer) {
        bad = op;
        why = "writes a buffer that another op also writes";
      } else if (llvm::is_contained(inputs, s.getBuffer())) {
        bad = op;
        why = "reads a buffer that is written elsewhere";
      }
      return;
    }
    auto load = dyn_cast<LoadOp>(op);
    if (!load || load.getBuffer() != buffer)
      return;
    if (!loop->isProperAncestor(load)) {
      bad = op;
      why = "has a consumer outside loop '" +
            loop.getLoopName().value_or("").str() + "'";
      return;
    }
    for (auto [d, index] : llvm::enumerate(load.getIndices())) {
      Value at;
      if (auto arg = dyn_cast<BlockArgument>(index))
        if (auto consumer = dyn_cast<BlockOp>(arg.getOwner()->getParentOp()))
          if (arg.getOwner() == consumer.getBody()) {
            Value binding = consumer.getBindings()[arg.getArgNumber()];
            for (Operation *p = loop; p; p = p->getParentOp())
              if (auto l = dyn_cast<ForOp>(p))
                if (l.getInductionVar() == binding)
                  at = binding;
          }
      if (!at || (fixed[d] && fixed[d] != at))
        full[d] = true;
      else
        fixed[d] = at;
    }
  });
  if (bad) {
    InFlightDiagnostic diag = block.emitError("compute_at: block '")
                              << block.getBlockName() << "' " << why;
    diag.attachNote(bad->getLoc()) << "see this op";
    return diag;
  }
  bool anyFixed = false;
  for (auto [f, isFull] : llvm::zip(fixed, full))
    anyFixed |= f && !isFull;
  if (!anyFixed)
    return fail("has no buffer dim that its consumers index by loop '" +
                loop.getLoopName().value_or("").str() +
                "' or a loop around it");

  // Values the nest uses from outside it must be available in `loop`.
  DominanceInfo dom(func);
  Operation *firstInLoop = &loop.getBody()->front();
  auto available = [&](Value v) {
    return top->isAncestor(v.getParentRegion()->getParentOp())
               ? false
               : dom.dominates(v, firstInLoop);
  };
  for (auto [k, l] : llvm::enumerate(nest)) {
    int var = varOfLoop[k];
    if (fixed[var] && !full[var]) {
      // The fixed iv must run over exactly the producer's range, or the
      // producer would write elements it never wrote before.
      auto fl = cast<ForOp>(
          cast<BlockArgument>(fixed[var]).getOwner()->getParentOp());
      if (!isUnitLoop(fl) || !sameIndexValue(fl.getUpperBound(),
                                             l.getUpperBound()))
        return fail("has a loop whose range differs from that of loop '" +
                    fl.getLoopName().value_or("").str() + "'");
      continue;
    }
    if (!available(l.getUpperBound()))
      return fail("has a loop bound that is not available in loop '" +
                  loop.getLoopName().value_or("").str() + "'");
  }
  if (!operandsAvailable(block, available))
    return fail("uses a value that is not available in loop '" +
                loop.getLoopName().value_or("").str() + "'");

  OpBuilder b(loop.getContext());
  b.setInsertionPointToStart(loop.getBody());
  IRMapping mapping;
  for (auto [k, l] : llvm::enumerate(nest)) {
    int var = varOfLoop[k];
    if (fixed[var] && !full[var]) {
      mapping.map(l.getInductionVar(), fixed[var]);
      continue;
    }
    ForOp copy = createLoopLike(b, l.getLoc(), l, l.getLowerBound(),
                                l.getUpperBound(), l.getStep());
    mapping.map(l.getInductionVar(), copy.getInductionVar());
    b.setInsertionPoint(copy.getBody()->getTerminator());
  }
  auto moved = cast<BlockOp>(b.clone(*block, mapping));
  top->erase();
  return moved;
}

//===----------------------------------------------------------------------===//
// reverse_compute_at
//===----------------------------------------------------------------------===//


FailureOr<BlockOp> tir::reverseComputeAt(BlockOp block, ForOp loop) {
  auto fail = [&](const Twine &msg) -> FailureOr<BlockOp> {
    return block.emitError("reverse_compute_at: block '")
           << block.getBlockName() << "' " << msg;
  };
  // The consumer's output may be a parameter: it stays where it is.
  FailureOr<SimpleProducer> consumer =
      matchSimpleProducer(block, "reverse_compute_at", /*needAlloc=*/false);
  if (failed(consumer))
    return failure();
  SmallVector<Value> inputs = consumer->inputs;
  SmallVector<LoadOp> loads = consumer->loads;
  Value output = consumer->buffer;
  ValueRange vars = consumer->vars;

  // The consumer nest: a perfect chain of unit loops, one per variable.
  SmallVector<ForOp> nest; // outermost first
  for (Operation *p = block->getParentOp(); isa<ForOp>(p);
       p = p->getParentOp())
    nest.insert(nest.begin(), cast<ForOp>(p));
  if (nest.empty())
    return fail("is not in a loop nest");
  Operation *top = nest.front();
  FailureOr<SmallVector<int>> nestVars = matchUnitNest(block, nest, fail);
  if (failed(nestVars))
    return failure();
  SmallVector<int> varOfLoop = std::move(*nestVars);

  Operation *target = top->getBlock()->findAncestorOpInBlock(*loop);
  if (!target || !target->isBeforeInBlock(top))
    return fail("does not follow loop '" +
                loop.getLoopName().value_or("").str() + "' in its block");
  if (!isUnitLoop(loop))
    return fail("needs loop '" + loop.getLoopName().value_or("").str() +
                "' to have lower bound 0 and step 1");

  // The one input produced inside `loop`.
  Value produced;
  for (Value in : inputs) {
    bool written = false;
    loop.walk([&](StoreOp s) { written |= s.getBuffer() == in; });
    if (!written)
      continue;
    if (produced && produced != in)
      return fail("reads more than one buffer written in loop '" +
                  loop.getLoopName().value_or("").str() + "'");
    produced = in;
  }
  if (!produced)
    return fail("reads no buffer written in loop '" +
                loop.getLoopName().value_or("").str() + "'");

  // Every store to it from `target` on must be in `loop`, indexing a common
  // dim by `loop`'s iv; nothing from `target` on may touch the output or
  // write the other inputs.
  auto rank = cast<BufferType>(produced.getType()).getRank();
  SmallVector<bool> dimOk(rank, true);
  Operation *bad = nullptr;
  std::string why;
  auto scan = [&](Operation *op) {
    if (bad || block->isAncestor(op))
      return;
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (s.getBuffer() == produced) {
        if (!loop->isProperAncestor(op)) {
          bad = op;
          why = "reads a buffer written outside loop '" +
                loop.getLoopName().value_or("").str() + "' after it starts";
          return;
        }
        for (auto [d, index] : llvm::enumerate(s.getIndices())) {
          dimOk[d] = dimOk[d] && isBoundToIv(index, loop);
          // A loop around `loop` that also indexes the buffer would make
          // the moved consumer read elements written in later iterations
          // of that loop (and recompute every time): not the simple case.
          for (auto around = loop->getParentOfType<ForOp>(); around;
               around = around->getParentOfType<ForOp>())
            if (isBoundToIv(index, around)) {
              bad = op;
              why = "reads a buffer that loop '" +
                    around.getLoopName().value_or("").str() +
                    "' around loop '" + loop.getLoopName().value_or("").str() +
                    "' also indexes";
              return;
            }
        }
      } else if (s.getBuffer() == output ||
                 llvm::is_contained(inputs, s.getBuffer())) {
        bad = op;
        why = "has an input or output written before it runs";
      }
    } else if (auto l = dyn_cast<LoadOp>(op)) {
      if (l.getBuffer() == output) {
        bad = op;
        why = "writes a buffer read before it runs";
      }
    }
  };
  for (Operation *op = target; op != top; op = op->getNextNode())
    op->walk(scan);
  if (bad) {
    InFlightDiagnostic diag = block.emitError("reverse_compute_at: block '")
                              << block.getBlockName() << "' " << why;
    diag.attachNote(bad->getLoc()) << "see this op";
    return diag;
  }
  // The consumer variable that indexes that dim in every load.
  int fixedVar = -1;
  for (int64_t d = 0; d < rank && fixedVar < 0; ++d) {
    if (!dimOk[d])
      continue;
    int var = -1;
    bool same = true;
    for (LoadOp load : loads) {
      if (load.getBuffer() != produced)
        continue;
      auto it = llvm::find(vars, load.getIndices()[d]);
      int v = it == vars.end() ? -2 : int(it - vars.begin());
      if (v < 0 || (var >= 0 && var != v))
        same = false;
      var = v;
    }
    if (same && var >= 0)
      fixedVar = var;
  }
  if (fixedVar < 0)
    return fail("has no variable that indexes the buffer as loop '" +
                loop.getLoopName().value_or("").str() + "' writes it");
  ForOp fixedLoop = nest[llvm::find(varOfLoop, fixedVar) - varOfLoop.begin()];
  if (!sameIndexValue(fixedLoop.getUpperBound(), loop.getUpperBound()))
    return fail("has a loop whose range differs from that of loop '" +
                loop.getLoopName().value_or("").str() + "'");

  // Values the nest uses from outside it must be available at the end of
  // `loop`'s body.
  auto func = block->getParentOfType<PrimFuncOp>();
  DominanceInfo dom(func);
  Operation *end = loop.getBody()->getTerminator();
  auto available = [&](Value v) {
    return !top->isAncestor(v.getParentRegion()->getParentOp()) &&
           dom.properlyDominates(v, end);
  };
  for (ForOp l : nest)
    if (l != fixedLoop && !available(l.getUpperBound()))
      return fail("has a loop bound that is not available in loop '" +
                  loop.getLoopName().value_or("").str() + "'");
  if (!operandsAvailable(block, available))
    return fail("uses a value that is not available in loop '" +
                loop.getLoopName().value_or("").str() + "'");

  OpBuilder b(end);
  IRMapping mapping;
  for (ForOp l : nest) {
    if (l == fixedLoop) {
      mapping.map(l.getInductionVar(), loop.getInductionVar());
      continue;
    }
    // The bounds were checked to be 0 and 1; their defining constants may
    // sit in the nest that is erased below.
    Value zero = arith::ConstantIndexOp::create(b, l.getLoc(), 0);
    Value one = arith::ConstantIndexOp::create(b, l.getLoc(), 1);
    ForOp copy =
        createLoopLike(b, l.getLoc(), l, zero, l.getUpperBound(), one);
    mapping.map(l.getInductionVar(), copy.getInductionVar());
    b.setInsertionPoint(copy.getBody()->getTerminator());
  }
  auto moved = cast<BlockOp>(b.clone(*block, mapping));
  top->erase();
  return moved;
}
