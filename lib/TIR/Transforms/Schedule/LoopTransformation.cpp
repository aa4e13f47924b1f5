//===- LoopTransformation.cpp - split, fuse, reorder ----------------------===//
//
// The schedule primitives that restructure a loop nest without moving
// computation between nests: split a loop in two, fuse two perfectly nested
// loops into one, swap two perfectly nested loops.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;
namespace sym = mlir::relax::sym;

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

static void setName(ForOp loop, std::optional<StringRef> base,
                    StringRef suffix) {
  if (base)
    loop.setLoopNameAttr(
        StringAttr::get(loop.getContext(), (*base + suffix).str()));
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
