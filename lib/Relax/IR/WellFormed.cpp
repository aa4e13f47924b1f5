//===- WellFormed.cpp - Symbolic variable binding rules -------------------===//
//
// A symbolic variable has one binding point: a parameter type dim that is the
// bare variable, or the first match_cast whose target dim is the bare
// variable. Every other occurrence is a use and must come after the binding
// in program order; transformations that reorder bindings (e.g. fusion) must
// keep this, and the verifier catches them when they do not.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::relax;

/// Calls `fn` on every symbolic shape carried by `type`, tuples included.
static void forEachShape(Type type,
                         llvm::function_ref<void(const SymShape &)> fn) {
  if (auto tensor = dyn_cast<RelaxTensorType>(type))
    fn(tensor.getShape());
  else if (auto shape = dyn_cast<RelaxShapeType>(type))
    fn(shape.getShape());
  else if (auto tuple = dyn_cast<TupleType>(type))
    for (Type field : tuple.getTypes())
      forEachShape(field, fn);
}

/// Binds every bare-variable dim of `type`.
static void bindVars(Type type, llvm::StringSet<> &bound) {
  forEachShape(type, [&](const SymShape &shape) {
    for (const sym::Expr &dim : shape.getDims())
      if (dim && dim.isVar())
        bound.insert(dim.getVarName());
  });
}

/// Returns the first variable used by `shape` that is not bound.
static std::optional<std::string> findUnbound(const SymShape &shape,
                                              const llvm::StringSet<> &bound) {
  for (const std::string &var : shape.getVars())
    if (!bound.contains(var))
      return var;
  return std::nullopt;
}

static std::optional<std::string> findUnbound(Type type,
                                              const llvm::StringSet<> &bound) {
  std::optional<std::string> result;
  forEachShape(type, [&](const SymShape &shape) {
    if (!result)
      result = findUnbound(shape, bound);
  });
  return result;
}

LogicalResult mlir::relax::verifyWellFormed(FuncOp func) {
  llvm::StringSet<> bound;
  for (Type type : func.getArgumentTypes())
    bindVars(type, bound);
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (std::optional<std::string> var = findUnbound(type, bound))
      return func.emitOpError("parameter #")
             << i << " uses symbolic variable '" << *var
             << "' that no parameter binds (a parameter dim that is the bare "
                "variable binds it)";

  // An op's results exist only once its regions have run: a dataflow
  // region's result type may use a variable that a match_cast inside the
  // region binds. So each op is checked after its regions (a pre-order walk
  // rejected that case); region-less ops are seen once, in program order.
  // A variable bound inside a relax.if branch is known in that branch only:
  // each branch starts from the bindings before the if. A relax.while's
  // carried types bind their bare variables inside the body (each
  // iteration) and again after the loop.
  SmallVector<llvm::StringSet<>> beforeIf;
  auto check = [&](Operation *op, const WalkStage &stage) -> WalkResult {
    if (isa<IfOp, WhileOp>(op)) {
      if (stage.isBeforeAllRegions())
        beforeIf.push_back(bound);
      else
        bound = beforeIf.back();
      if (stage.isAfterAllRegions())
        beforeIf.pop_back();
      if (isa<WhileOp>(op) && stage.isBeforeAllRegions())
        for (Type type : op->getResultTypes())
          bindVars(type, bound);
    }
    if (!stage.isAfterAllRegions())
      return WalkResult::advance();
    if (isa<MatchCastOp, TensorToShapeOp>(op))
      bindVars(op->getResult(0).getType(), bound);
    // A relax.if binds the bare variables of its result types from the
    // branch that ran.
    if (isa<IfOp, WhileOp>(op))
      for (Type type : op->getResultTypes())
        bindVars(type, bound);
    for (Value value : op->getResults()) {
      if (std::optional<std::string> var =
              findUnbound(value.getType(), bound)) {
        op->emitOpError("uses symbolic variable '")
            << *var << "' before it is bound (bind it with a parameter "
                       "type, an earlier relax.match_cast or "
                       "relax.tensor_to_shape)";
        return WalkResult::interrupt();
      }
    }
    for (NamedAttribute attr : op->getAttrs()) {
      std::optional<std::string> var;
      if (auto shape = dyn_cast<ShapeExprAttr>(attr.getValue()))
        var = findUnbound(shape.getShape(), bound);
      else if (auto expr = dyn_cast<SymExprAttr>(attr.getValue()))
        var = findUnbound(SymShape(ArrayRef<sym::Expr>(expr.getExpr())),
                          bound);
      if (var) {
        op->emitOpError("attribute '")
            << attr.getName().getValue() << "' uses symbolic variable '"
            << *var << "' before it is bound";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  };
  for (Block &block : func.getBody())
    for (Operation &op : block)
      if (op.walk(check).wasInterrupted())
        return failure();

  for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
    if (std::optional<std::string> var = findUnbound(type, bound))
      return func.emitOpError("result #")
             << i << " uses symbolic variable '" << *var
             << "' that is never bound";
  return success();
}
