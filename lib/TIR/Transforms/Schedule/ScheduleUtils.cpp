//===- ScheduleUtils.cpp - Helpers shared by the schedule primitives ------===//
//
// Looking up loops and blocks by name, reading index values as symbolic
// expressions, dependence of a value on induction variables, and the
// checks and builders several primitives share.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;
namespace sym = mlir::relax::sym;

//===----------------------------------------------------------------------===//
// Lookup by name
//===----------------------------------------------------------------------===//

/// The unique `OpT` in `func` whose name (`getName`) is `name`; `what` names
/// the kind in the errors ("loop", "block").
template <typename OpT, typename GetName>
static FailureOr<OpT> findUnique(PrimFuncOp func, StringRef name,
                                 StringRef what, GetName getName) {
  SmallVector<OpT> found;
  func.walk([&](OpT op) {
    if (getName(op) == name)
      found.push_back(op);
  });
  if (found.size() == 1)
    return found.front();
  if (found.empty())
    return func.emitError("schedule: no ") << what << " named '" << name
                                           << "'";
  return func.emitError("schedule: ") << found.size() << " " << what
                                      << "s are named '" << name << "'";
}

FailureOr<ForOp> tir::getLoop(PrimFuncOp func, StringRef name) {
  return findUnique<ForOp>(func, name, "loop",
                           [](ForOp loop) { return loop.getLoopName(); });
}

FailureOr<BlockOp> tir::getBlock(PrimFuncOp func, StringRef name) {
  return findUnique<BlockOp>(func, name, "block",
                             [](BlockOp block) { return block.getBlockName(); });
}

//===----------------------------------------------------------------------===//
// Index values
//===----------------------------------------------------------------------===//

sym::Expr schedule::toSymExpr(Value value) {
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

bool schedule::sameIndexValue(Value a, Value b) {
  if (a == b)
    return true;
  sym::Expr ea = toSymExpr(a), eb = toSymExpr(b);
  sym::Context ctx;
  return ea && eb && ctx.simplify(ea - eb).getConstant() == 0;
}

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

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

LogicalResult schedule::checkUnitLoop(ForOp loop, StringRef prim) {
  if (!isUnitLoop(loop))
    return loop.emitError(prim)
           << ": loop must have lower bound 0 and step 1";
  return success();
}

ForOp schedule::createLoopLike(OpBuilder &b, Location loc, ForOp proto,
                             Value lb, Value ub, Value step) {
  auto loop = ForOp::create(b, loc, lb, ub, step, proto.getKind(), nullptr,
                            proto.getThread().value_or(""));
  if (StringAttr name = proto.getLoopNameAttr())
    loop.setLoopNameAttr(name);
  return loop;
}

ForOp tir::versionNest(ForOp root, Value cond, IRMapping &mapping) {
  OpBuilder b(root);
  auto choice = scf::IfOp::create(b, root.getLoc(), cond, /*withElse=*/true);
  b.setInsertionPoint(choice.elseBlock()->getTerminator());
  auto copy = cast<ForOp>(b.clone(*root, mapping));
  root->moveBefore(choice.thenBlock()->getTerminator());
  return copy;
}
