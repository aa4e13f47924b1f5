//===- PlanMemory.cpp - --relax-plan-memory --------------------------------===//
//
// Static memory planning with symbolic sizes. Every buffer a relax function
// creates and does not return is given a storage slot in one arena per
// function; a slot is reused by a later buffer once every reader of its
// current buffer has run, when the symbolic engine proves the later buffer
// fits (equal size, or `<=` under the function's facts), or when it proves
// the slot may grow to the later buffer (the slot's size then becomes the
// larger one). Sizes are bytes, so buffers of different dtypes share slots.
// Slots are laid out one after another: offsets and the arena size are
// symbolic expressions. When the arena size has an upper bound under
// `sym_bounds`, the lowering allocates the arena once at that bound.
//
// Sizes must be computable where the arena is allocated, at function entry:
// a buffer whose size uses a variable bound later (match_cast,
// tensor_to_shape) takes a slot of its constant upper bound, or is left to
// its own allocation when it has none.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/MemoryPlan.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXPLANMEMORY
#define GEN_PASS_DEF_RELAXVERIFYMEMORYPLAN
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

//===----------------------------------------------------------------------===//
// BufferLiveness
//===----------------------------------------------------------------------===//

BufferLiveness::BufferLiveness(FuncOp func) {
  // The ops of a relax.if's branches run at most once each, inside the if:
  // the if stands for them (below), and nothing in them is planned.
  func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    position[op] = order.size();
    order.push_back(op);
    return isa<IfOp, WhileOp>(op) ? WalkResult::skip() : WalkResult::advance();
  });
  for (auto [at, op] : llvm::enumerate(order)) {
    if (auto ifOp = dyn_cast<IfOp>(op)) {
      // It reads its condition and every value its branches read from
      // outside; its results are buffers of its own (the lowering copies a
      // yielded value that the branch did not create).
      addUse(ifOp.getCond(), at);
      ifOp->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (!ifOp->isAncestor(operand.getParentRegion()->getParentOp()))
            addUse(operand, at);
      });
      addBuffers(op, at);
      continue;
    }
    if (isa<WhileOp>(op)) {
      // The same for a loop: its body runs inside it (any number of times),
      // reading its operands and the outer values the body uses; its
      // results are buffers of its own (the lowering copies the initial
      // values into buffers the loop owns).
      for (Value operand : op->getOperands())
        addUse(operand, at);
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (!op->isAncestor(operand.getParentRegion()->getParentOp()))
            addUse(operand, at);
      });
      addBuffers(op, at);
      continue;
    }
    if (isa<CallTIROp, CallDPSPackedOp>(op)) {
      for (Value operand : op->getOperands())
        addUse(operand, at);
      addBuffers(op, at);
      continue;
    }
    if (auto inplace = dyn_cast<CallTIRInplaceOp>(op)) {
      for (Value operand : op->getOperands())
        addUse(operand, at);
      // An updated input's buffer lives on as the result (an argument's
      // stays the caller's); only the fresh outputs are new buffers.
      for (auto [i, result] : llvm::enumerate(op->getResults())) {
        if (Value input = inplace.getAliasedInput(i)) {
          if (Value buffer = bufferOf.lookup(input))
            bufferOf[result] = buffer;
        } else if (isa<RelaxTensorType>(result.getType())) {
          addBuffer(result, at);
        }
      }
      continue;
    }
    if (isa<MatchCastOp, ViewOp>(op)) {
      // The result shares the operand's storage: its reads keep that
      // buffer alive.
      Value value = op->getOperand(0);
      addUse(value, at);
      if (Value buffer = bufferOf.lookup(value))
        bufferOf[op->getResult(0)] = buffer;
      continue;
    }
    if (auto tuple = dyn_cast<TupleOp>(op)) {
      // Building a tuple reads nothing; its readers read the fields.
      tupleFields[tuple.getResult()] = llvm::to_vector(tuple.getFields());
      continue;
    }
    if (auto get = dyn_cast<TupleGetItemOp>(op)) {
      auto it = tupleFields.find(get.getTuple());
      if (it == tupleFields.end()) {
        addUse(get.getTuple(), at);
        continue;
      }
      Value field = it->second[get.getIndex()];
      if (auto nested = tupleFields.find(field); nested != tupleFields.end())
        tupleFields[get.getResult()] = nested->second;
      else if (Value buffer = bufferOf.lookup(field))
        bufferOf[get.getResult()] = buffer;
      continue;
    }
    if (auto output = dyn_cast<OutputOp>(op)) {
      // The dataflow op's results are its output's operands under new names.
      Operation *region = output->getParentOp();
      for (auto [operand, result] :
           llvm::zip(output.getOperands(), region->getResults())) {
        if (Value buffer = bufferOf.lookup(operand))
          bufferOf[result] = buffer;
        if (auto it = tupleFields.find(operand); it != tupleFields.end())
          tupleFields[result] = it->second;
      }
      continue;
    }
    if (isa<ReturnOp>(op)) {
      for (Value operand : op->getOperands()) {
        forEachBuffer(operand, [&](Value buffer) { escaping.insert(buffer); });
        addUse(operand, at);
      }
      continue;
    }
    if (isa<DataflowOp, ConstantOp, ShapeExprOp>(op))
      continue;
    if (isa<ShapeOfOp, AssertDimsOp, AssertIndicesOp, TensorToShapeOp>(op)) {
      for (Value operand : op->getOperands())
        addUse(operand, at);
      continue;
    }
    // relax.call (the callee may return its argument) and ops this analysis
    // does not know: whatever they read may live on in their results.
    if (!isa<CallOp>(op) && op->getNumRegions() != 0)
      analyzable = false;
    // A relax.call's results are buffers of their own (the callee's, or
    // views of its arguments, which the lowering tells apart).
    if (isa<CallOp>(op))
      addBuffers(op, at);
    for (Value operand : op->getOperands()) {
      forEachBuffer(operand, [&](Value buffer) { pinned.insert(buffer); });
      addUse(operand, at);
    }
  }
  for (Value buffer : buffers)
    dying[order[lastUse[buffer]]].push_back(buffer);
}

/// The tensor results of `op`, created at `at`, are buffers.
void BufferLiveness::addBuffers(Operation *op, unsigned at) {
  for (Value result : op->getResults())
    if (isa<RelaxTensorType>(result.getType()))
      addBuffer(result, at);
}

void BufferLiveness::addBuffer(Value result, unsigned at) {
  buffers.push_back(result);
  bufferOf[result] = result;
  lastUse[result] = at;
}

void BufferLiveness::forEachBuffer(Value value,
                                   function_ref<void(Value)> fn) const {
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto it = tupleFields.find(v); it != tupleFields.end())
      llvm::append_range(worklist, it->second);
    else if (Value buffer = bufferOf.lookup(v))
      fn(buffer);
  }
}

/// A read of `value` at `at`: of the buffer it views, or of every field of a
/// tuple.
void BufferLiveness::addUse(Value value, unsigned at) {
  forEachBuffer(value, [&](Value buffer) {
    unsigned &last = lastUse[buffer];
    last = std::max(last, at);
  });
}

ArrayRef<Value> BufferLiveness::getDying(Operation *op) const {
  auto it = dying.find(op);
  return it == dying.end() ? ArrayRef<Value>() : ArrayRef<Value>(it->second);
}

std::optional<unsigned> relax::aliasableOperand(Operation *op,
                                                unsigned result) {
  auto operands = op->getAttrOfType<DenseI64ArrayAttr>(kOutputMayAliasAttrName);
  if (!isa<CallDPSPackedOp>(op) || !operands || result >= operands.size() ||
      result >= op->getNumResults())
    return std::nullopt;
  int64_t k = operands[result];
  // Only an operand of the result's own type: the callee then sees one
  // view, at the same address with the same strides, for both.
  if (k < 0 || k >= static_cast<int64_t>(op->getNumOperands()) ||
      op->getOperand(k).getType() != op->getResult(result).getType())
    return std::nullopt;
  return static_cast<unsigned>(k);
}

Value BufferLiveness::getDyingAliasedBuffer(Operation *op,
                                            unsigned result) const {
  std::optional<unsigned> k = aliasableOperand(op, result);
  if (!k || !position.contains(op))
    return Value();
  Value buffer = bufferOf.lookup(op->getOperand(*k));
  if (!buffer || escapes(buffer) || isPinned(buffer) ||
      getLastUse(buffer) != indexOf(op))
    return Value();
  // The callee reads an operand that shares the storage (conv(t) + t) while
  // it writes the result: no.
  bool readElsewhere = false;
  for (OpOperand &other : op->getOpOperands())
    if (other.getOperandNumber() != *k)
      forEachBuffer(other.get(),
                    [&](Value b) { readElsewhere |= b == buffer; });
  return readElsewhere ? Value() : buffer;
}

sym::Expr relax::tensorBytes(RelaxTensorType type) {
  if (!type.hasRank() || !type.getShape().isFullyKnown())
    return sym::Expr();
  unsigned bits = type.getDtype().getIntOrFloatBitWidth();
  sym::Expr bytes = sym::Expr::constant((bits + 7) / 8);
  for (const sym::Expr &dim : type.getDims())
    bytes = bytes * dim;
  return bytes;
}

sym::Expr relax::alignArenaSize(const sym::Expr &bytes) {
  return sym::ceilDiv(bytes, sym::Expr::constant(kArenaAlignment)) *
         kArenaAlignment;
}

//===----------------------------------------------------------------------===//
// The planner
//===----------------------------------------------------------------------===//

namespace {
struct Slot {
  sym::Expr size;
  bool free = false;
};

/// Plans one function; returns false when there is nothing to plan.
class FunctionPlanner {
public:
  FunctionPlanner(FuncOp func, bool inPlace)
      : func(func), liveness(func), inPlace(inPlace) {}
  void run();

private:
  /// The size the slot of `buffer` must have, or null when it cannot be
  /// planned.
  sym::Expr plannedSize(Value buffer);
  unsigned chooseSlot(const sym::Expr &size);

  FuncOp func;
  BufferLiveness liveness;
  /// Whether results may be written over dying operands.
  bool inPlace;
  sym::Context ctx;
  llvm::StringSet<> entryVars;
  SmallVector<Slot> slots;
};
} // namespace

sym::Expr FunctionPlanner::plannedSize(Value buffer) {
  if (liveness.escapes(buffer) || liveness.isPinned(buffer))
    return sym::Expr();
  sym::Expr bytes = tensorBytes(cast<RelaxTensorType>(buffer.getType()));
  if (!bytes)
    return bytes;
  SmallVector<std::string> vars;
  bytes.collectVars(vars);
  if (llvm::all_of(vars, [&](const std::string &v) {
        return entryVars.contains(v);
      }))
    return bytes;
  if (std::optional<int64_t> bound = ctx.upperBound(bytes))
    return sym::Expr::constant(*bound);
  return sym::Expr();
}

/// A free slot that holds `size`, preferring one of provably equal size,
/// then one provably at least as large (the smallest, among constant
/// sizes), then one provably no larger, which grows; a new slot when no
/// comparison is proven.
unsigned FunctionPlanner::chooseSlot(const sym::Expr &size) {
  std::optional<unsigned> equal, fits, grows;
  for (auto [i, slot] : llvm::enumerate(slots)) {
    if (!slot.free)
      continue;
    if (ctx.provablyEqual(size, slot.size)) {
      equal = i;
      break;
    }
    auto smaller = [&](std::optional<unsigned> other, bool largest) {
      if (!other)
        return true;
      std::optional<int64_t> a = slot.size.getConstant();
      std::optional<int64_t> b = slots[*other].size.getConstant();
      return a && b && (largest ? *a > *b : *a < *b);
    };
    if (ctx.isLE(size, slot.size) == sym::Truth::True) {
      if (smaller(fits, /*largest=*/false))
        fits = i;
    } else if (ctx.isLE(slot.size, size) == sym::Truth::True) {
      if (smaller(grows, /*largest=*/true))
        grows = i;
    }
  }
  if (std::optional<unsigned> chosen = equal ? equal : fits ? fits : grows) {
    Slot &slot = slots[*chosen];
    if (!equal && !fits)
      slot.size = size;
    slot.free = false;
    return *chosen;
  }
  slots.push_back({size, false});
  return slots.size() - 1;
}

void FunctionPlanner::run() {
  func->removeAttr(kMemoryPlanAttrName);
  for (Operation *op : liveness.getOrder())
    op->removeAttr(kArenaOffsetsAttrName);
  if (!liveness.isAnalyzable())
    return;
  ctx = func.getSymContext();
  for (Type t : func.getArgumentTypes())
    if (auto tensor = dyn_cast<RelaxTensorType>(t); tensor && tensor.hasRank())
      for (const sym::Expr &dim : tensor.getDims())
        if (dim && dim.isVar())
          entryVars.insert(dim.getVarName());

  MLIRContext *context = func.getContext();
  llvm::DenseMap<Value, unsigned> slotOf;
  // Buffers whose slot a result of their last reader took (in place).
  llvm::DenseSet<Value> handedOver;
  sym::Expr unplanned = sym::Expr::constant(0);
  int64_t intermediates = 0;
  for (Operation *op : liveness.getOrder()) {
    if (isa<CallTIROp, CallDPSPackedOp, CallTIRInplaceOp>(op)) {
      for (auto [i, result] : llvm::enumerate(op->getResults())) {
        // Only the buffers the op creates (not an input updated in place).
        if (liveness.getBuffer(result) != result || liveness.escapes(result))
          continue;
        ++intermediates;
        sym::Expr bytes = tensorBytes(cast<RelaxTensorType>(result.getType()));
        if (bytes)
          unplanned = unplanned + bytes;
        sym::Expr size = plannedSize(result);
        if (!size)
          continue;
        // Written over an operand that dies here, in that operand's slot and
        // within its bytes (what the checker proves again).
        Value dying =
            inPlace ? liveness.getDyingAliasedBuffer(op, i) : Value();
        auto slot = dying ? slotOf.find(dying) : slotOf.end();
        sym::Expr own =
            slot != slotOf.end()
                ? tensorBytes(cast<RelaxTensorType>(dying.getType()))
                : sym::Expr();
        if (own && bytes && !handedOver.contains(dying) &&
            ctx.isLE(bytes, own) == sym::Truth::True &&
            ctx.isLE(size, slots[slot->second].size) == sym::Truth::True) {
          handedOver.insert(dying);
          slotOf[result] = slot->second;
          continue;
        }
        slotOf[result] = chooseSlot(size);
      }
    }
    // After the op's outputs took their slots: an output never shares
    // storage with an input of the same op, but for one written over it.
    for (Value buffer : liveness.getDying(op))
      if (auto it = slotOf.find(buffer);
          it != slotOf.end() && !handedOver.contains(buffer))
        slots[it->second].free = true;
  }
  if (slots.empty())
    return;

  SmallVector<sym::Expr> offsets;
  sym::Expr arena = sym::Expr::constant(0);
  for (Slot &slot : slots) {
    offsets.push_back(arena);
    arena = arena + alignArenaSize(ctx.simplify(slot.size));
  }
  arena = ctx.simplify(arena);
  for (Operation *op : liveness.getOrder()) {
    if (!isa<CallTIROp, CallDPSPackedOp, CallTIRInplaceOp>(op))
      continue;
    SmallVector<Attribute> attrs;
    bool any = false;
    for (Value result : op->getResults()) {
      auto it = slotOf.find(result);
      if (it == slotOf.end()) {
        attrs.push_back(UnitAttr::get(context));
        continue;
      }
      attrs.push_back(SymExprAttr::get(context, offsets[it->second]));
      any = true;
    }
    if (any)
      op->setAttr(kArenaOffsetsAttrName, ArrayAttr::get(context, attrs));
  }
  Builder b(context);
  SmallVector<NamedAttribute> plan{
      b.getNamedAttr("arena", SymExprAttr::get(context, arena)),
      b.getNamedAttr("storages", b.getI64IntegerAttr(slots.size())),
      b.getNamedAttr("planned", b.getI64IntegerAttr(slotOf.size())),
      b.getNamedAttr("intermediates", b.getI64IntegerAttr(intermediates)),
      b.getNamedAttr("unplanned",
                     SymExprAttr::get(context, ctx.simplify(unplanned)))};
  if (!handedOver.empty())
    plan.push_back(
        b.getNamedAttr("in_place", b.getI64IntegerAttr(handedOver.size())));
  if (std::optional<int64_t> bound = ctx.upperBound(arena))
    plan.push_back(b.getNamedAttr("bound", b.getI64IntegerAttr(*bound)));
  func->setAttr(kMemoryPlanAttrName, b.getDictionaryAttr(plan));
}

//===----------------------------------------------------------------------===//
// The checker
//===----------------------------------------------------------------------===//

/// Proves that no two buffers live at the same time overlap in the arena and
/// that each lies within it: for every pair whose live ranges meet, one ends
/// at or before the other begins, under the function's facts.
static LogicalResult verifyPlan(FuncOp func) {
  auto plan = func->getAttrOfType<DictionaryAttr>(kMemoryPlanAttrName);
  if (!plan)
    return success();
  auto arenaAttr = plan.getAs<SymExprAttr>("arena");
  if (!arenaAttr)
    return func.emitOpError("memory plan has no arena size");
  sym::Expr arena = arenaAttr.getExpr();
  sym::Context ctx = func.getSymContext();
  BufferLiveness liveness(func);
  struct Placed {
    Value buffer;
    sym::Expr begin, end;
    unsigned from, to;
    /// The buffer this one may be written over (getDyingAliasedBuffer).
    Value over;
  };
  SmallVector<Placed> placed;
  for (Operation *op : liveness.getOrder()) {
    auto offsets = op->getAttrOfType<ArrayAttr>(kArenaOffsetsAttrName);
    if (!offsets)
      continue;
    if (offsets.size() != op->getNumResults())
      return op->emitOpError("has ")
             << offsets.size() << " arena offsets for " << op->getNumResults()
             << " results";
    for (auto [i, attr, result] : llvm::enumerate(offsets, op->getResults())) {
      auto offset = dyn_cast<SymExprAttr>(attr);
      if (!offset)
        continue;
      if (liveness.getBuffer(result) != result)
        return op->emitOpError("places a result that is not a buffer it "
                               "creates (an input updated in place) in the "
                               "arena");
      if (liveness.escapes(result) || liveness.isPinned(result))
        return op->emitOpError("places a buffer that outlives the call or is "
                               "aliased in the arena");
      sym::Expr bytes = tensorBytes(cast<RelaxTensorType>(result.getType()));
      sym::Expr begin = offset.getExpr(), end = begin + bytes;
      if (ctx.isLE(sym::Expr::constant(0), begin) != sym::Truth::True ||
          ctx.isLE(end, arena) != sym::Truth::True)
        return op->emitOpError("arena slot [")
               << begin.str() << ", " << end.str()
               << ") is not provably within the arena of " << arena.str()
               << " bytes";
      if (ctx.isEQ(sym::mod(begin, sym::Expr::constant(kArenaAlignment)),
                   sym::Expr::constant(0)) != sym::Truth::True)
        return op->emitOpError("arena offset ")
               << begin.str() << " is not provably " << kArenaAlignment
               << "-byte aligned";
      placed.push_back({result, begin, end, liveness.indexOf(op),
                        liveness.getLastUse(result),
                        liveness.getDyingAliasedBuffer(op, i)});
    }
  }
  // `out` written over `dead` by dead's last reader, at dead's offset and
  // within its bytes: the one overlap allowed.
  auto writtenOver = [&](const Placed &out, const Placed &dead) {
    return out.over == dead.buffer && dead.to == out.from &&
           ctx.isEQ(out.begin, dead.begin) == sym::Truth::True &&
           ctx.isLE(out.end, dead.end) == sym::Truth::True;
  };
  for (auto [i, a] : llvm::enumerate(placed)) {
    for (const Placed &b : ArrayRef(placed).drop_front(i + 1)) {
      bool disjointInTime = a.to < b.from || b.to < a.from;
      if (disjointInTime || writtenOver(a, b) || writtenOver(b, a))
        continue;
      if (ctx.isLE(a.end, b.begin) == sym::Truth::True ||
          ctx.isLE(b.end, a.begin) == sym::Truth::True)
        continue;
      InFlightDiagnostic diag = b.buffer.getDefiningOp()->emitOpError()
                                << "arena slot [" << b.begin.str() << ", "
                                << b.end.str()
                                << ") may overlap a live buffer's slot ["
                                << a.begin.str() << ", " << a.end.str() << ")";
      diag.attachNote(a.buffer.getLoc()) << "that buffer is created here";
      return diag;
    }
  }
  return success();
}

namespace {
struct RelaxPlanMemoryPass
    : public relax::impl::RelaxPlanMemoryBase<RelaxPlanMemoryPass> {
  using RelaxPlanMemoryBase::RelaxPlanMemoryBase;
  void runOnOperation() override {
    for (FuncOp func : getOperation().getOps<FuncOp>()) {
      FunctionPlanner(func, inPlace).run();
      if (verify && failed(verifyPlan(func)))
        return signalPassFailure();
    }
  }
};

struct RelaxVerifyMemoryPlanPass
    : public relax::impl::RelaxVerifyMemoryPlanBase<
          RelaxVerifyMemoryPlanPass> {
  void runOnOperation() override {
    for (FuncOp func : getOperation().getOps<FuncOp>())
      if (failed(verifyPlan(func)))
        return signalPassFailure();
  }
};
} // namespace
