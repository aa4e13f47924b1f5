//===- Schedule.cpp - Loop transformations on tir programs ----------------===//

#include "RelaxDialect/TIR/Transforms/Schedule.h"
#include "RelaxDialect/TIR/IR/TIRBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;
namespace sym = mlir::relax::sym;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

FailureOr<ForOp> tir::getLoop(PrimFuncOp func, StringRef name) {
  SmallVector<ForOp> found;
  func.walk([&](ForOp loop) {
    if (loop.getLoopName() == name)
      found.push_back(loop);
  });
  if (found.size() == 1)
    return found.front();
  if (found.empty())
    return func.emitError("schedule: no loop named '") << name << "'";
  return func.emitError("schedule: ")
         << found.size() << " loops are named '" << name << "'";
}

FailureOr<BlockOp> tir::getBlock(PrimFuncOp func, StringRef name) {
  SmallVector<BlockOp> found;
  func.walk([&](BlockOp block) {
    if (block.getBlockName() == name)
      found.push_back(block);
  });
  if (found.size() == 1)
    return found.front();
  if (found.empty())
    return func.emitError("schedule: no block named '") << name << "'";
  return func.emitError("schedule: ")
         << found.size() << " blocks are named '" << name << "'";
}

/// The symbolic expression an index value computes, when it is built only
/// from constants, tir.sym_var and integer arithmetic; else null.
static sym::Expr toSymExpr(Value value) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return sym::Expr::constant(*c);
  Operation *op = value.getDefiningOp();
  if (!op)
    return {};
  if (auto var = dyn_cast<SymVarOp>(op))
    return sym::Expr::var(var.getVarName());
  if (op->getNumOperands() != 2)
    return {};
  sym::Expr lhs = toSymExpr(op->getOperand(0));
  sym::Expr rhs = toSymExpr(op->getOperand(1));
  if (!lhs || !rhs)
    return {};
  // Index values of extents are non-negative, so signed and unsigned
  // division agree with floor division.
  return TypeSwitch<Operation *, sym::Expr>(op)
      .Case<arith::AddIOp>([&](auto) { return lhs + rhs; })
      .Case<arith::SubIOp>([&](auto) { return lhs - rhs; })
      .Case<arith::MulIOp>([&](auto) { return lhs * rhs; })
      .Case<arith::FloorDivSIOp, arith::DivUIOp, arith::DivSIOp>(
          [&](auto) { return sym::floorDiv(lhs, rhs); })
      .Case<arith::CeilDivSIOp, arith::CeilDivUIOp>(
          [&](auto) { return sym::ceilDiv(lhs, rhs); })
      .Case<arith::RemUIOp, arith::RemSIOp>(
          [&](auto) { return sym::mod(lhs, rhs); })
      .Default([](Operation *) { return sym::Expr(); });
}

/// Whether `value` is computed from `iv`.
static bool dependsOn(Value value, Value iv,
                      llvm::SmallPtrSetImpl<Operation *> &visited) {
  if (value == iv)
    return true;
  Operation *op = value.getDefiningOp();
  if (!op || !visited.insert(op).second)
    return false;
  return llvm::any_of(op->getOperands(),
                      [&](Value v) { return dependsOn(v, iv, visited); });
}
static bool dependsOn(Value value, Value iv) {
  llvm::SmallPtrSet<Operation *, 8> visited;
  return dependsOn(value, iv, visited);
}

/// Primitives that rebuild loops assume the canonical `0 to n step 1` form.
static LogicalResult checkUnitLoop(ForOp loop, StringRef prim) {
  if (getConstantIntValue(loop.getLowerBound()) != 0 ||
      getConstantIntValue(loop.getStep()) != 1)
    return loop.emitError(prim)
           << ": loop must have lower bound 0 and step 1";
  return success();
}

/// Checks that `inner` is the only op with effects in `outer`'s body and
/// that `inner`'s bounds do not use `outer`'s induction variable. On success
/// moves the side-effect-free ops around `inner` (constants, index math)
/// out of the way: those independent of the induction variable above
/// `outer`, the others to the start of `inner`'s body, so the two loops
/// become directly nested.
static LogicalResult checkPerfectNest(ForOp outer, ForOp inner,
                                      StringRef prim) {
  if (inner->getParentOp() != outer)
    return inner.emitError(prim) << ": loop '"
                                 << inner.getLoopName().value_or("")
                                 << "' is not directly nested in loop '"
                                 << outer.getLoopName().value_or("") << "'";
  Value iv = outer.getInductionVar();
  for (Value bound :
       {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
    if (dependsOn(bound, iv))
      return inner.emitError(prim)
             << ": bounds of loop '" << inner.getLoopName().value_or("")
             << "' depend on the induction variable of loop '"
             << outer.getLoopName().value_or("") << "'";
  SmallVector<Operation *> hoist, sink;
  bool afterInner = false;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (&op == inner.getOperation()) {
      afterInner = true;
      continue;
    }
    bool pure = op.getNumRegions() == 0 && isMemoryEffectFree(&op);
    if (afterInner || !pure)
      return op.emitError(prim)
             << ": loops '" << outer.getLoopName().value_or("") << "' and '"
             << inner.getLoopName().value_or("")
             << "' are not perfectly nested";
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return dependsOn(v, iv); }))
      sink.push_back(&op);
    else
      hoist.push_back(&op);
  }
  for (Operation *op : hoist)
    op->moveBefore(outer);
  Block *body = inner.getBody();
  for (Operation *op : llvm::reverse(sink))
    op->moveBefore(body, body->begin());
  return success();
}

/// Moves every op of `from` but its terminator before `before`.
static void moveBody(Block *from, Operation *before) {
  before->getBlock()->getOperations().splice(
      Block::iterator(before), from->getOperations(), from->begin(),
      std::prev(from->end()));
}

/// A new loop with `proto`'s kind, thread and name.
static ForOp createLoopLike(OpBuilder &b, Location loc, ForOp proto, Value lb,
                            Value ub, Value step) {
  auto loop = ForOp::create(b, loc, lb, ub, step, proto.getKind(), nullptr,
                            proto.getThread().value_or(""));
  if (StringAttr name = proto.getLoopNameAttr())
    loop.setLoopNameAttr(name);
  return loop;
}

static void setName(ForOp loop, std::optional<StringRef> base,
                    StringRef suffix) {
  if (base)
    loop.setLoopNameAttr(
        StringAttr::get(loop.getContext(), (*base + suffix).str()));
}

static Value constIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

//===----------------------------------------------------------------------===//
// split
//===----------------------------------------------------------------------===//

FailureOr<SplitResult> tir::split(ForOp loop, int64_t factor) {
  if (factor <= 0)
    return loop.emitError("split: factor must be positive, got ") << factor;
  if (failed(checkUnitLoop(loop, "split")))
    return failure();

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value extent = loop.getUpperBound();
  sym::Expr n = toSymExpr(extent);
  // The guard is only dropped when divisibility is proved; an extent the
  // engine cannot read keeps it.
  bool divisible = false;
  if (n) {
    sym::Context ctx;
    divisible = ctx.simplify(sym::mod(n, sym::Expr::constant(factor)))
                    .getConstant() == 0;
  }

  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value cf = constIndex(b, loc, factor);
  Value outerUb;
  if (std::optional<int64_t> c = getConstantIntValue(extent)) {
    outerUb = constIndex(b, loc, (*c + factor - 1) / factor);
  } else {
    // ceildiv of a non-negative extent: (n + factor - 1) / factor.
    Value sum = arith::AddIOp::create(b, loc, extent,
                                      constIndex(b, loc, factor - 1));
    outerUb = arith::DivUIOp::create(b, loc, sum, cf);
  }

  auto outer = ForOp::create(b, loc, zero, outerUb, one, LoopKind::serial,
                             nullptr);
  b.setInsertionPointToStart(outer.getBody());
  auto inner =
      ForOp::create(b, loc, zero, cf, one, LoopKind::serial, nullptr);
  b.setInsertionPointToStart(inner.getBody());
  Value scaled = arith::MulIOp::create(b, loc, outer.getInductionVar(), cf);
  Value index =
      arith::AddIOp::create(b, loc, scaled, inner.getInductionVar());
  Operation *firstMoved = loop.getBody()->without_terminator().empty()
                              ? nullptr
                              : &loop.getBody()->front();
  moveBody(loop.getBody(), inner.getBody()->getTerminator());
  loop.getInductionVar().replaceAllUsesWith(index);
  if (!divisible) {
    // Guard the innermost body: sinking the guard through loops whose body
    // is one loop plus pure ops keeps the nest perfect for later steps.
    Block *target = inner.getBody();
    Block::iterator from = firstMoved ? Block::iterator(firstMoved)
                                      : std::prev(target->end());
    while (true) {
      ForOp only;
      bool single = true;
      for (Operation &op : llvm::make_range(from, std::prev(target->end()))) {
        if (auto l = dyn_cast<ForOp>(op)) {
          single = single && !only;
          only = l;
        } else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
          single = false;
        }
      }
      if (!single || !only)
        break;
      target = only.getBody();
      from = target->begin();
    }
    SmallVector<Operation *> guarded;
    for (Operation &op : llvm::make_range(from, std::prev(target->end())))
      guarded.push_back(&op);
    b.setInsertionPoint(target->getTerminator());
    Value inBounds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           index, extent);
    auto guard = scf::IfOp::create(b, loc, inBounds, /*withElse=*/false);
    for (Operation *op : guarded)
      op->moveBefore(guard.thenBlock()->getTerminator());
  }
  setName(outer, loop.getLoopName(), ".outer");
  setName(inner, loop.getLoopName(), ".inner");
  loop.erase();
  return SplitResult{outer, inner};
}

//===----------------------------------------------------------------------===//
// fuse / reorder
//===----------------------------------------------------------------------===//

FailureOr<ForOp> tir::fuse(ForOp outer, ForOp inner) {
  if (failed(checkUnitLoop(outer, "fuse")) ||
      failed(checkUnitLoop(inner, "fuse")) ||
      failed(checkPerfectNest(outer, inner, "fuse")))
    return failure();

  OpBuilder b(outer);
  Location loc = outer.getLoc();
  Value outerExt = outer.getUpperBound(), innerExt = inner.getUpperBound();
  std::optional<int64_t> co = getConstantIntValue(outerExt);
  std::optional<int64_t> ci = getConstantIntValue(innerExt);
  Value total = co && ci ? constIndex(b, loc, *co * *ci)
                         : arith::MulIOp::create(b, loc, outerExt, innerExt)
                               .getResult();
  auto fused = ForOp::create(b, loc, constIndex(b, loc, 0), total,
                             constIndex(b, loc, 1), LoopKind::serial, nullptr);
  b.setInsertionPointToStart(fused.getBody());
  Value io = arith::DivUIOp::create(b, loc, fused.getInductionVar(), innerExt);
  Value ii = arith::RemUIOp::create(b, loc, fused.getInductionVar(), innerExt);
  moveBody(inner.getBody(), fused.getBody()->getTerminator());
  outer.getInductionVar().replaceAllUsesWith(io);
  inner.getInductionVar().replaceAllUsesWith(ii);
  if (outer.getLoopName() && inner.getLoopName())
    fused.setLoopNameAttr(b.getStringAttr(*outer.getLoopName() + "." +
                                          *inner.getLoopName() + ".fused"));
  outer.erase();
  return fused;
}

FailureOr<ForOp> tir::reorder(ForOp outer, ForOp inner) {
  if (failed(checkPerfectNest(outer, inner, "reorder")))
    return failure();

  OpBuilder b(outer);
  Location loc = outer.getLoc();
  ForOp newOuter = createLoopLike(b, loc, inner, inner.getLowerBound(),
                                  inner.getUpperBound(), inner.getStep());
  b.setInsertionPointToStart(newOuter.getBody());
  ForOp newInner = createLoopLike(b, loc, outer, outer.getLowerBound(),
                                  outer.getUpperBound(), outer.getStep());
  moveBody(inner.getBody(), newInner.getBody()->getTerminator());
  outer.getInductionVar().replaceAllUsesWith(newInner.getInductionVar());
  inner.getInductionVar().replaceAllUsesWith(newOuter.getInductionVar());
  outer.erase();
  return newOuter;
}

//===----------------------------------------------------------------------===//
// Loop kinds
//===----------------------------------------------------------------------===//

/// The first block inside `loop` that binds a reduce iteration variable (its
/// index in `var`) to a value computed from `loop`'s induction variable: the
/// iterations then accumulate into the same element.
static BlockOp findCarriedReduction(ForOp loop, unsigned &var) {
  Value iv = loop.getInductionVar();
  BlockOp offending;
  loop.walk([&](BlockOp block) {
    for (auto [i, binding] : llvm::enumerate(block.getBindings()))
      if (block.getIterKind(i) == IterKind::reduce && dependsOn(binding, iv)) {
        offending = block;
        var = i;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return offending;
}

bool tir::carriesReduction(ForOp loop) {
  unsigned var = 0;
  return static_cast<bool>(findCarriedReduction(loop, var));
}

/// Fails with a diagnostic when `loop` carries a reduction.
static LogicalResult checkNoReduction(ForOp loop, StringRef prim) {
  unsigned var = 0;
  BlockOp offending = findCarriedReduction(loop, var);
  if (!offending)
    return success();
  InFlightDiagnostic diag =
      loop.emitError(prim) << ": loop '" << loop.getLoopName().value_or("")
                           << "' carries reduce iteration variable #" << var
                           << " of block '" << offending.getBlockName()
                           << "'";
  diag.attachNote(offending.getLoc()) << "reduction block here";
  return diag;
}

static void setKind(ForOp loop, LoopKind kind, StringRef thread = {}) {
  loop.setKind(kind);
  if (thread.empty())
    loop.removeThreadAttr();
  else
    loop.setThreadAttr(StringAttr::get(loop.getContext(), thread));
}

LogicalResult tir::parallel(ForOp loop) {
  if (failed(checkNoReduction(loop, "parallel")))
    return failure();
  setKind(loop, LoopKind::parallel);
  return success();
}

LogicalResult tir::vectorize(ForOp loop) {
  if (failed(checkNoReduction(loop, "vectorize")))
    return failure();
  setKind(loop, LoopKind::vectorized);
  return success();
}

LogicalResult tir::unroll(ForOp loop) {
  setKind(loop, LoopKind::unrolled);
  return success();
}

LogicalResult tir::bind(ForOp loop, StringRef thread) {
  if (!llvm::is_contained({"blockIdx.x", "blockIdx.y", "blockIdx.z",
                           "threadIdx.x", "threadIdx.y", "threadIdx.z"},
                          thread))
    return loop.emitError("bind: unknown thread axis '")
           << thread << "' (expected blockIdx.x/y/z or threadIdx.x/y/z)";
  // Two nested loops on one axis would both read the same hardware index.
  for (auto parent = loop->getParentOfType<ForOp>(); parent;
       parent = parent->getParentOfType<ForOp>())
    if (parent.getKind() == LoopKind::thread_binding &&
        parent.getThread() == thread)
      return loop.emitError("bind: an enclosing loop is already bound to '")
             << thread << "'";
  if (failed(checkNoReduction(loop, "bind")))
    return failure();
  setKind(loop, LoopKind::thread_binding, thread);
  return success();
}

//===----------------------------------------------------------------------===//
// decompose_reduction
//===----------------------------------------------------------------------===//

namespace {
/// Re-materialises values of the reduction nest inside the new init nest:
/// mapped induction variables, values defined above the nest as they are,
/// and side-effect-free ops cloned on demand.
struct Remapper {
  Operation *anchor; // The loop the init nest goes before.
  IRMapping mapping;

  Value remap(OpBuilder &b, Value value) {
    if (Value mapped = mapping.lookupOrNull(value))
      return mapped;
    if (value.getParentRegion()->isAncestor(anchor->getParentRegion()))
      return value;
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      return {};
    for (Value operand : op->getOperands())
      if (!remap(b, operand))
        return {};
    b.clone(*op, mapping);
    return mapping.lookup(value);
  }
};
} // namespace

FailureOr<BlockOp> tir::decomposeReduction(BlockOp block, ForOp loop) {
  if (!loop->isProperAncestor(block))
    return block.emitError("decompose_reduction: block '")
           << block.getBlockName() << "' is not inside loop '"
           << loop.getLoopName().value_or("") << "'";
  InitOp init = block.getInitOp();
  if (!init)
    return block.emitError("decompose_reduction: block '")
           << block.getBlockName() << "' has no tir.init";

  // Reduce variables must be driven by loops at or below `loop` only, or
  // the init would run again inside an enclosing reduction loop.
  SmallVector<Value> reduceBindings, spatialBindings;
  SmallVector<Value> spatialVars;
  for (auto [i, binding] : llvm::enumerate(block.getBindings())) {
    if (block.getIterKind(i) == IterKind::reduce)
      reduceBindings.push_back(binding);
    else {
      spatialBindings.push_back(binding);
      spatialVars.push_back(block.getIterVars()[i]);
    }
  }
  for (auto outer = loop->getParentOfType<ForOp>(); outer;
       outer = outer->getParentOfType<ForOp>())
    for (Value r : reduceBindings)
      if (dependsOn(r, outer.getInductionVar()))
        return loop.emitError("decompose_reduction: a reduce variable of "
                              "block '")
               << block.getBlockName() << "' is driven by loop '"
               << outer.getLoopName().value_or("")
               << "' outside loop '" << loop.getLoopName().value_or("")
               << "'";
  // The init must not read the reduce variables it is hoisted away from.
  for (auto [i, var] : llvm::enumerate(block.getIterVars()))
    if (block.getIterKind(i) == IterKind::reduce)
      for (Operation *user : var.getUsers())
        if (init->isAncestor(user))
          return init.emitError("decompose_reduction: the init of block '")
                 << block.getBlockName() << "' uses a reduce variable";

  // The ops between `loop` and `block`, outermost first.
  SmallVector<Operation *> chain;
  for (Operation *p = block->getParentOp(); p != loop; p = p->getParentOp())
    chain.push_back(p);
  chain.push_back(loop);
  std::reverse(chain.begin(), chain.end());

  // Classify first so that failures leave the IR untouched.
  SmallVector<bool> keep;
  for (Operation *op : chain) {
    if (auto l = dyn_cast<ForOp>(op)) {
      Value iv = l.getInductionVar();
      bool spatial = llvm::any_of(spatialBindings,
                                  [&](Value v) { return dependsOn(v, iv); });
      bool reduce = llvm::any_of(reduceBindings,
                                 [&](Value v) { return dependsOn(v, iv); });
      if (spatial && reduce)
        return l.emitError("decompose_reduction: loop '")
               << l.getLoopName().value_or("")
               << "' drives both spatial and reduce variables of block '"
               << block.getBlockName() << "'";
      keep.push_back(spatial);
      continue;
    }
    if (auto guard = dyn_cast<scf::IfOp>(op)) {
      if (guard.getNumResults() != 0 || !guard.getThenRegion().isAncestor(
                                            block->getParentRegion()))
        return guard.emitError("decompose_reduction: unsupported scf.if "
                               "around block '")
               << block.getBlockName() << "'";
      keep.push_back(true);
      continue;
    }
    return op->emitError("decompose_reduction: unsupported op around block '")
           << block.getBlockName() << "'";
  }

  OpBuilder b(loop);
  Location loc = block.getLoc();
  Remapper remapper{loop, {}};
  SmallVector<Operation *> created; // Top-level ops, erased on failure.
  auto fail = [&](Operation *at, const Twine &what) -> FailureOr<BlockOp> {
    for (Operation *op : llvm::reverse(created))
      op->erase();
    return at->emitError("decompose_reduction: ")
           << what << " depends on a loop the init nest drops";
  };
  auto track = [&](Operation *op) {
    if (op->getBlock() == loop->getBlock())
      created.push_back(op);
  };
  // Remaps `v`, recording the ops it clones at the top level (right before
  // `loop`, the insertion point there).
  auto remapAt = [&](Value v) {
    bool topLevel = b.getInsertionBlock() == loop->getBlock();
    Operation *first = loop->getPrevNode();
    Value r = remapper.remap(b, v);
    if (topLevel)
      for (Operation *op = first ? first->getNextNode()
                                 : &loop->getBlock()->front();
           op != loop.getOperation(); op = op->getNextNode())
        created.push_back(op);
    return r;
  };

  for (auto [op, kept] : llvm::zip(chain, keep)) {
    if (!kept)
      continue;
    if (auto l = dyn_cast<ForOp>(op)) {
      Value lb = remapAt(l.getLowerBound()), ub = remapAt(l.getUpperBound()),
            step = remapAt(l.getStep());
      if (!lb || !ub || !step)
        return fail(l, "a bound of loop '" +
                           l.getLoopName().value_or("").str() + "'");
      ForOp copy = createLoopLike(b, l.getLoc(), l, lb, ub, step);
      if (l.getLoopName())
        copy.setLoopNameAttr(
            b.getStringAttr(*l.getLoopName() + "_init"));
      track(copy);
      remapper.mapping.map(l.getInductionVar(), copy.getInductionVar());
      b.setInsertionPoint(copy.getBody()->getTerminator());
      continue;
    }
    auto guard = cast<scf::IfOp>(op);
    Value cond = remapAt(guard.getCondition());
    if (!cond)
      return fail(guard, "the scf.if condition");
    auto copy = scf::IfOp::create(b, guard.getLoc(), cond, false);
    track(copy);
    b.setInsertionPoint(copy.thenBlock()->getTerminator());
  }

  SmallVector<Value> bindings;
  for (Value v : spatialBindings) {
    Value r = remapAt(v);
    if (!r)
      return fail(block, "a spatial binding");
    bindings.push_back(r);
  }
  // Values the init body reads from the reduction nest (not the block).
  for (Operation &op : init.getBody()->without_terminator())
    for (Value operand : op.getOperands())
      if (!block->isAncestor(operand.getParentRegion()->getParentOp()) &&
          !remapAt(operand))
        return fail(init, "a value the init reads");

  SmallVector<IterKind> kinds(bindings.size(), IterKind::spatial);
  auto initBlock = BlockOp::create(
      b, loc, (block.getBlockName() + "_init").str(), bindings, kinds,
      nullptr, [&](OpBuilder &nb, Location, ValueRange vars) {
        for (auto [oldVar, newVar] : llvm::zip(spatialVars, vars))
          remapper.mapping.map(oldVar, newVar);
        for (Operation &op : init.getBody()->without_terminator())
          nb.clone(op, remapper.mapping);
      });
  track(initBlock);
  init.erase();
  return initBlock;
}

namespace {
/// A spatial block of loads, pure ops and one store to a tir.alloc buffer at
/// its own iteration variables: what compute_inline and compute_at can move.
struct SimpleProducer {
  StoreOp store;
  SmallVector<Value> inputs; // buffers the block loads
  Value buffer;              // the buffer it writes
  AllocOp alloc;
  ValueRange vars;
};
} // namespace

/// Matches a SimpleProducer or reports why not, as
/// "<primitive>: block '<name>' <reason>".
static FailureOr<SimpleProducer> matchSimpleProducer(BlockOp block,
                                                     StringRef primitive) {
  auto fail = [&](const Twine &msg) -> FailureOr<SimpleProducer> {
    return block.emitError(primitive)
           << ": block '" << block.getBlockName() << "' " << msg;
  };
  if (block.hasReduceVar())
    return fail("has a reduce iteration variable");
  StoreOp store;
  SmallVector<Value> inputs;
  for (Operation &op : block.getBody()->without_terminator()) {
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (store)
        return fail("stores more than once");
      store = s;
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      inputs.push_back(load.getBuffer());
    } else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
      return fail("must consist of loads, pure ops and one store");
    }
  }
  if (!store)
    return fail("stores nothing");
  Value buffer = store.getBuffer();
  auto alloc = buffer.getDefiningOp<AllocOp>();
  // A parameter buffer is read by the caller, so its stores must stay.
  if (!alloc)
    return fail("writes a buffer that is not a tir.alloc");
  ValueRange vars = block.getIterVars();
  if (store.getIndices().size() != vars.size() ||
      !llvm::equal(store.getIndices(), vars))
    return fail("must store at its iteration variables, in order");
  if (llvm::is_contained(inputs, buffer))
    return fail("reads the buffer it writes");
  return SimpleProducer{store, inputs, buffer, alloc, vars};
}

//===----------------------------------------------------------------------===//
// compute_inline
//===----------------------------------------------------------------------===//

LogicalResult tir::computeInline(BlockOp block) {
  auto fail = [&](const Twine &msg) -> LogicalResult {
    return block.emitError("compute_inline: block '")
           << block.getBlockName() << "' " << msg;
  };
  FailureOr<SimpleProducer> producer = matchSimpleProducer(block, "compute_inline");
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
    if (auto s = dyn_cast<StoreOp>(op)) {
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
    for (Operation &op : block.getBody()->without_terminator())
      for (Value operand : op.getOperands())
        if (!block->isAncestor(operand.getParentRegion()->getParentOp()) &&
            !dom.properlyDominates(operand, load))
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

//===----------------------------------------------------------------------===//
// compute_at
//===----------------------------------------------------------------------===//

FailureOr<BlockOp> tir::computeAt(BlockOp block, ForOp loop) {
  auto fail = [&](const Twine &msg) -> FailureOr<BlockOp> {
    return block.emitError("compute_at: block '")
           << block.getBlockName() << "' " << msg;
  };
  FailureOr<SimpleProducer> producer = matchSimpleProducer(block, "compute_at");
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
  SmallVector<int> varOfLoop;
  for (ForOp l : nest) {
    if (getConstantIntValue(l.getLowerBound()) != 0 ||
        getConstantIntValue(l.getStep()) != 1)
      return fail("has a loop with lower bound != 0 or step != 1");
    Operation *child = &*std::prev(l.getBody()->end(), 2);
    for (Operation &op : l.getBody()->without_terminator())
      if (&op != child && (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
        return fail("is not in a perfect loop nest");
    int var = -1;
    for (auto [i, binding] : llvm::enumerate(block.getBindings()))
      if (binding == l.getInductionVar())
        var = i;
    if (var < 0 || llvm::is_contained(varOfLoop, var))
      return fail("must bind each iteration variable to one loop's iv");
    varOfLoop.push_back(var);
  }
  if (varOfLoop.size() != vars.size())
    return fail("must bind each iteration variable to one loop's iv");

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
  sym::Context ctx;
  for (auto [k, l] : llvm::enumerate(nest)) {
    int var = varOfLoop[k];
    if (fixed[var] && !full[var]) {
      // The fixed iv must run over exactly the producer's range, or the
      // producer would write elements it never wrote before.
      auto fl = cast<ForOp>(
          cast<BlockArgument>(fixed[var]).getOwner()->getParentOp());
      sym::Expr a = toSymExpr(fl.getUpperBound());
      sym::Expr c = toSymExpr(l.getUpperBound());
      bool same = fl.getUpperBound() == l.getUpperBound() ||
                  (a && c && ctx.simplify(a - c).getConstant() == 0);
      if (getConstantIntValue(fl.getLowerBound()) != 0 ||
          getConstantIntValue(fl.getStep()) != 1 || !same)
        return fail("has a loop whose range differs from that of loop '" +
                    fl.getLoopName().value_or("").str() + "'");
      continue;
    }
    if (!available(l.getUpperBound()))
      return fail("has a loop bound that is not available in loop '" +
                  loop.getLoopName().value_or("").str() + "'");
  }
  for (Operation &op : block.getBody()->without_terminator())
    for (Value operand : op.getOperands())
      if (!block->isAncestor(operand.getParentRegion()->getParentOp()) &&
          !available(operand))
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

/// The index of `index` as a variable of its block, bound directly to the
/// iv of `loop`; else false.
bool tir::dependsOnAny(Value value, ArrayRef<Value> ivs) {
  SmallVector<Value> worklist = {value};
  llvm::SmallPtrSet<Operation *, 16> visited;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (llvm::is_contained(ivs, v))
      return true;
    Operation *op = v.getDefiningOp();
    if (!op || !visited.insert(op).second)
      continue;
    llvm::append_range(worklist, op->getOperands());
  }
  return false;
}

bool tir::isBoundToIv(Value index, ForOp loop) {
  if (index == loop.getInductionVar())
    return true;
  auto arg = dyn_cast<BlockArgument>(index);
  if (!arg)
    return false;
  auto owner = dyn_cast<BlockOp>(arg.getOwner()->getParentOp());
  if (!owner || arg.getOwner() != owner.getBody())
    return false;
  return owner.getBindings()[arg.getArgNumber()] == loop.getInductionVar();
}

FailureOr<BlockOp> tir::reverseComputeAt(BlockOp block, ForOp loop) {
  auto fail = [&](const Twine &msg) -> FailureOr<BlockOp> {
    return block.emitError("reverse_compute_at: block '")
           << block.getBlockName() << "' " << msg;
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
    } else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
      return fail("must consist of loads, pure ops and one store");
    }
  }
  if (!store)
    return fail("stores nothing");
  Value output = store.getBuffer();
  ValueRange vars = block.getIterVars();
  if (store.getIndices().size() != vars.size() ||
      !llvm::equal(store.getIndices(), vars))
    return fail("must store at its iteration variables, in order");
  if (llvm::is_contained(inputs, output))
    return fail("reads the buffer it writes");

  // The consumer nest: a perfect chain of unit loops, one per variable.
  SmallVector<ForOp> nest; // outermost first
  for (Operation *p = block->getParentOp(); isa<ForOp>(p);
       p = p->getParentOp())
    nest.insert(nest.begin(), cast<ForOp>(p));
  if (nest.empty())
    return fail("is not in a loop nest");
  Operation *top = nest.front();
  SmallVector<int> varOfLoop;
  for (ForOp l : nest) {
    if (getConstantIntValue(l.getLowerBound()) != 0 ||
        getConstantIntValue(l.getStep()) != 1)
      return fail("has a loop with lower bound != 0 or step != 1");
    Operation *child = &*std::prev(l.getBody()->end(), 2);
    for (Operation &op : l.getBody()->without_terminator())
      if (&op != child &&
          (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
        return fail("is not in a perfect loop nest");
    int var = -1;
    for (auto [i, binding] : llvm::enumerate(block.getBindings()))
      if (binding == l.getInductionVar())
        var = i;
    if (var < 0 || llvm::is_contained(varOfLoop, var))
      return fail("must bind each iteration variable to one loop's iv");
    varOfLoop.push_back(var);
  }
  if (varOfLoop.size() != vars.size())
    return fail("must bind each iteration variable to one loop's iv");

  Operation *target = top->getBlock()->findAncestorOpInBlock(*loop);
  if (!target || !target->isBeforeInBlock(top))
    return fail("does not follow loop '" +
                loop.getLoopName().value_or("").str() + "' in its block");
  if (getConstantIntValue(loop.getLowerBound()) != 0 ||
      getConstantIntValue(loop.getStep()) != 1)
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
  sym::Context ctx;
  ForOp fixedLoop = nest[llvm::find(varOfLoop, fixedVar) - varOfLoop.begin()];
  sym::Expr a = toSymExpr(fixedLoop.getUpperBound());
  sym::Expr c = toSymExpr(loop.getUpperBound());
  if (fixedLoop.getUpperBound() != loop.getUpperBound() &&
      !(a && c && ctx.simplify(a - c).getConstant() == 0))
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
  for (Operation &op : block.getBody()->without_terminator())
    for (Value operand : op.getOperands())
      if (!block->isAncestor(operand.getParentRegion()->getParentOp()) &&
          !available(operand))
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
