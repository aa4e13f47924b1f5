//===- FuseTIR.cpp - --relax-fuse-tir -------------------------------------===//
//
// Merges the programs of each fusion group into one tir.prim_func. The
// merged program is stated in the caller's symbolic variables: each
// member's variables are replaced by the expressions its call binds them
// to, so members that name different quantities alike (every legalized
// program calls its first dim `n`) cannot clash.
//
// A group may end with a relax.call_tir_inplace (`--relax-group-ops` makes
// one only its sink). The merged call is then in place too: each updated
// input stays an input of the merged program, written through its own
// parameter, and the matching result aliases it; every other output is
// fresh.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/CallTIRBinding.h"
#include "RelaxDialect/Relax/IR/StorageRoot.h"
#include "RelaxDialect/Relax/Transforms/Fusion.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/TIR/IR/TIRBuilder.h"
#include "RelaxDialect/TIR/Transforms/Schedule.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXFUSETIR
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

namespace {
/// One call of a group (relax.call_tir or relax.call_tir_inplace) with its
/// program and the caller's view of the program's variables.
struct Member {
  Operation *call;
  tir::PrimFuncOp callee;
  llvm::StringMap<sym::Expr> binding;
  /// The results the program has a buffer parameter for, after the inputs':
  /// all of a call_tir's, the fresh ones (-1) of a call_tir_inplace's.
  SmallVector<Value> bufferResults;
  std::optional<ShapeExprAttr> tirVars;
};

/// Builds the merged program of one group and the call that replaces it.
class GroupFuser {
public:
  GroupFuser(ArrayRef<Operation *> calls, SymbolTable &symbols)
      : calls(calls.begin(), calls.end()), symbols(symbols) {}

  /// Fails, with an error on a member, when the group cannot be merged
  /// (nothing changes then).
  LogicalResult fuse();

private:
  LogicalResult analyze();
  tir::PrimFuncOp buildProgram();
  void cloneMember(OpBuilder &builder, Member &member,
                   const DenseMap<Value, Value> &buffers);
  void inlineIntermediates();
  void replaceCalls(tir::PrimFuncOp program);

  SmallVector<Operation *> calls;
  SymbolTable &symbols;
  SmallVector<Member> members;
  /// The group's values by role, in order of first appearance. `outputs`
  /// are fresh buffers.
  SmallVector<Value> inputs, outputs, intermediates;
  /// The results of an in-place last member that alias an input, with the
  /// position of that input in `inputs`.
  SmallVector<std::pair<Value, int64_t>> updated;
  /// Caller variables the merged body needs that no parameter dim binds;
  /// they become trailing `index` parameters.
  SmallVector<std::string> extraVars;
  DenseMap<Value, Value> intermediateBuffers;
};
} // namespace

static tir::BufferType toBufferType(Type type) {
  auto tensor = cast<RelaxTensorType>(type);
  return tir::BufferType::get(type.getContext(), tensor.getShape(),
                              tensor.getDtype(), tir::MemoryScope::global);
}

/// The callee of a relax.call_tir or relax.call_tir_inplace.
static FlatSymbolRefAttr getCalleeAttr(Operation *call) {
  if (auto inplace = dyn_cast<CallTIRInplaceOp>(call))
    return inplace.getCalleeAttr();
  return cast<CallTIROp>(call).getCalleeAttr();
}

static void collectVars(const sym::Expr &expr, llvm::StringSet<> &vars) {
  for (const std::string &var : SymShape(ArrayRef<sym::Expr>(expr)).getVars())
    vars.insert(var);
}

LogicalResult GroupFuser::analyze() {
  llvm::SmallPtrSet<Operation *, 8> inGroup;
  for (Operation *call : calls)
    inGroup.insert(call);
  Operation *last = calls.back();

  // Values the in-place last member updates: they must come from outside
  // (the merged program writes their buffer) and no other member may read
  // them, or a view of them (--relax-group-ops never groups such a read
  // with the update; see readsUpdatedInput there).
  SmallVector<StorageRoot, 2> updatedInputs;
  for (Operation *call : calls) {
    auto inplace = dyn_cast<CallTIRInplaceOp>(call);
    if (!inplace)
      continue;
    if (call != last)
      return call->emitOpError("cannot be fused: a relax.call_tir_inplace "
                               "must be the last call of its group");
    for (unsigned i = 0; i < inplace.getNumResults(); ++i)
      if (Value input = inplace.getAliasedInput(i)) {
        if (inGroup.contains(input.getDefiningOp()))
          return call->emitOpError("cannot be fused: the input it updates "
                                   "in place is computed in its group");
        updatedInputs.push_back(getStorageRoot(input));
      }
  }

  for (Operation *call : calls) {
    Member &member = members.emplace_back();
    member.call = call;
    FlatSymbolRefAttr callee = getCalleeAttr(call);
    member.callee = symbols.lookup<tir::PrimFuncOp>(callee.getAttr());
    if (!member.callee || member.callee.getBody().empty())
      return call->emitOpError("cannot be fused: '")
             << callee.getValue() << "' is not a tir.prim_func with a body";
    LogicalResult bound = failure();
    if (auto inplace = dyn_cast<CallTIRInplaceOp>(call)) {
      bound = bindCallTIRVars(inplace, member.callee, member.binding);
      member.tirVars = inplace.getTirVars();
    } else {
      auto plain = cast<CallTIROp>(call);
      bound = bindCallTIRVars(plain, member.callee, member.binding);
      member.tirVars = plain.getTirVars();
    }
    if (failed(bound))
      return failure();
    for (auto &entry : member.binding)
      if (!entry.second)
        return call->emitOpError("cannot be fused: callee variable '")
               << entry.first() << "' is bound to an unknown dim";
    for (Value operand : call->getOperands()) {
      if (call != last &&
          llvm::any_of(updatedInputs, [&](const StorageRoot &updated) {
            return updated.overlaps(getStorageRoot(operand));
          }))
        return call->emitOpError("cannot be fused: it reads an input that "
                                 "the group's last call updates in place");
      if (!inGroup.contains(operand.getDefiningOp()) &&
          !llvm::is_contained(inputs, operand))
        inputs.push_back(operand);
    }
    auto inplace = dyn_cast<CallTIRInplaceOp>(call);
    for (auto [i, result] : llvm::enumerate(call->getResults())) {
      if (inplace) {
        if (Value input = inplace.getAliasedInput(i)) {
          // The input's own buffer; whoever reads the result reads it
          // from the merged call's matching result.
          updated.push_back(
              {result, llvm::find(inputs, input) - inputs.begin()});
          continue;
        }
      }
      member.bufferResults.push_back(result);
      bool usedOutside = false;
      for (Operation *user : result.getUsers()) {
        if (inGroup.contains(user))
          continue;
        usedOutside = true;
        // The merged call sits at the last member; every outside reader
        // (or the op whose region holds it) must come after it.
        Operation *reader = last->getBlock()->findAncestorOpInBlock(*user);
        if (!reader || reader->isBeforeInBlock(last))
          return call->emitOpError("cannot be fused: its result is used by ")
                 << user->getName() << " before the group's last call";
      }
      (usedOutside ? outputs : intermediates).push_back(result);
    }
  }
  for (Value value : llvm::concat<Value>(inputs, outputs, intermediates)) {
    auto tensor = dyn_cast<RelaxTensorType>(value.getType());
    if (!tensor || !tensor.getShape().isFullyKnown())
      return calls.front()->emitOpError("cannot be fused: the group passes ")
             << value.getType() << ", whose shape is not fully known";
  }

  // Variables the parameter buffers bind on entry.
  llvm::StringSet<> bound;
  for (Value value : llvm::concat<Value>(inputs, outputs))
    for (const sym::Expr &dim :
         cast<RelaxTensorType>(value.getType()).getDims())
      if (dim.isVar())
        bound.insert(dim.getVarName());
  // Variables the body needs: the restated member variables and the
  // intermediate buffers' dims.
  llvm::StringSet<> needed;
  for (Member &member : members)
    for (auto &entry : member.binding)
      collectVars(entry.second, needed);
  for (Member &member : members)
    if (member.tirVars)
      for (const sym::Expr &dim : member.tirVars->getShape().getDims())
        collectVars(dim, needed);
  for (Value value : intermediates)
    for (const sym::Expr &dim :
         cast<RelaxTensorType>(value.getType()).getDims())
      collectVars(dim, needed);
  for (auto &entry : needed)
    if (!bound.contains(entry.getKey()))
      extraVars.push_back(entry.getKey().str());
  llvm::sort(extraVars);
  return success();
}

/// `fused_<a>_<b>...` from the members' names without their `T_` prefix.
static std::string fusedName(ArrayRef<Member> members) {
  std::string name = "fused";
  for (const Member &member : members) {
    tir::PrimFuncOp callee = member.callee;
    StringRef part = callee.getSymName();
    part.consume_front("T_");
    if (name.size() + part.size() > 60) {
      name += "_etc";
      break;
    }
    name += "_" + part.str();
  }
  return name;
}

tir::PrimFuncOp GroupFuser::buildProgram() {
  MLIRContext *ctx = calls.front()->getContext();
  OpBuilder builder(ctx);
  SmallVector<Type> params;
  for (Value value : llvm::concat<Value>(inputs, outputs))
    params.push_back(toBufferType(value.getType()));
  params.append(extraVars.size(), builder.getIndexType());

  DenseMap<Value, Value> buffers;
  Location loc = calls.back()->getLoc();
  builder.setInsertionPoint(members.back().callee);
  auto func = tir::buildPrimFunc(
      builder, loc, fusedName(members), params,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        for (auto [value, arg] :
             llvm::zip(llvm::concat<Value>(inputs, outputs), args))
          buffers[value] = arg;
        for (Value value : intermediates)
          buffers[value] =
              tir::AllocOp::create(b, loc, toBufferType(value.getType()));
        for (auto [value, input] : updated)
          buffers[value] = args[input];
        for (Member &member : members)
          cloneMember(b, member, buffers);
      });
  size_t firstExtra = params.size() - extraVars.size();
  for (auto [i, var] : llvm::enumerate(extraVars))
    func.setArgAttr(firstExtra + i, "tir.var", builder.getStringAttr(var));
  func.setPrivate();
  for (Value value : intermediates)
    intermediateBuffers[value] = buffers[value];

  OpPattern pattern = OpPattern::Elementwise;
  for (Member &member : members)
    pattern = std::max(pattern, tir::getOpPattern(member.callee));
  tir::setOpPattern(func, pattern);
  return func;
}

/// Clones the body of `member`'s program at the builder's insertion point,
/// reading and writing the group's buffers, with its variables restated in
/// the caller's.
void GroupFuser::cloneMember(OpBuilder &builder, Member &member,
                             const DenseMap<Value, Value> &buffers) {
  Operation *call = member.call;
  Block &entry = member.callee.getBody().front();
  Location loc = call->getLoc();
  IRMapping mapping;
  SmallVector<Value> callBuffers(call->getOperands());
  llvm::append_range(callBuffers, member.bufferResults);
  for (auto [arg, value] :
       llvm::zip(entry.getArguments().take_front(callBuffers.size()),
                 callBuffers))
    mapping.map(arg, buffers.lookup(value));
  if (member.tirVars)
    for (auto [arg, dim] :
         llvm::zip(entry.getArguments().drop_front(callBuffers.size()),
                   member.tirVars->getShape().getDims()))
      mapping.map(arg, tir::materializeDim(builder, loc, dim));

  // The member's variables, restated once before its first op so that the
  // values dominate every use in its loop nests.
  llvm::StringMap<Value> restated;
  member.callee.walk([&](tir::SymVarOp symVar) {
    Value &value = restated[symVar.getVarName()];
    if (!value)
      value = tir::materializeDim(builder, loc,
                                  member.binding.lookup(symVar.getVarName()));
  });

  SmallVector<Operation *> cloned;
  for (Operation &op : entry.without_terminator())
    cloned.push_back(builder.clone(op, mapping));
  auto restate = [&](tir::SymVarOp symVar) {
    symVar.getResult().replaceAllUsesWith(restated.lookup(symVar.getVarName()));
    symVar.erase();
  };
  auto restateType = [&](Value value) {
    auto buffer = dyn_cast<tir::BufferType>(value.getType());
    if (buffer)
      value.setType(tir::BufferType::get(
          buffer.getContext(), buffer.getShape().substitute(member.binding),
          buffer.getDtype(), buffer.getScope()));
  };
  for (Operation *root : cloned) {
    SmallVector<tir::SymVarOp> symVars;
    root->walk([&](Operation *op) {
      if (auto symVar = dyn_cast<tir::SymVarOp>(op)) {
        symVars.push_back(symVar);
        return;
      }
      for (Value result : op->getResults())
        restateType(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            restateType(arg);
    });
    for (tir::SymVarOp symVar : symVars)
      restate(symVar);
  }
}

/// True when every read of `buffer` sits in a block and indexes it with all
/// of that block's iteration variables, so inlining its producer computes
/// each element once per read instead of once per reuse (a matmul operand
/// is read once per output column: that producer keeps its buffer).
static bool isReadOncePerElement(Value buffer) {
  for (Operation *user : buffer.getUsers()) {
    auto load = dyn_cast<tir::LoadOp>(user);
    if (!load)
      continue;
    auto block = load->getParentOfType<tir::BlockOp>();
    if (!block)
      return false;
    for (Value iv : block.getIterVars())
      if (!llvm::is_contained(load.getIndices(), iv))
        return false;
  }
  return true;
}

void GroupFuser::inlineIntermediates() {
  // Values a decode computes, or an injective member from decoded values
  // only (a transpose of a dequantized weight), in member order.
  DenseSet<Value> decoded;
  for (Value value : intermediates) {
    Value buffer = intermediateBuffers.lookup(value);
    SmallVector<tir::StoreOp> stores;
    for (Operation *user : buffer.getUsers())
      if (auto store = dyn_cast<tir::StoreOp>(user))
        if (store.getBuffer() == buffer)
          stores.push_back(store);
    // A decode (dequantize) is inlined even where its elements are read
    // many times: recomputing them is cheaper than storing them.
    bool decode = false;
    if (auto call = value.getDefiningOp<CallTIROp>()) {
      auto callee =
          symbols.lookup<tir::PrimFuncOp>(call.getCalleeAttr().getValue());
      decode = tir::isDecode(callee) ||
               (tir::getOpPattern(callee) <= OpPattern::Injective &&
                !call.getInputs().empty() &&
                llvm::all_of(call.getInputs(),
                             [&](Value v) { return decoded.contains(v); }));
    }
    if (decode)
      decoded.insert(value);
    if (stores.size() != 1 || (!decode && !isReadOncePerElement(buffer)))
      continue;
    auto producer = stores.front()->getParentOfType<tir::BlockOp>();
    if (!producer)
      continue;
    // computeInline checks the remaining preconditions and explains a
    // refusal; here a refusal only means the buffer stays.
    ScopedDiagnosticHandler quiet(buffer.getContext(),
                                  [](Diagnostic &) { return success(); });
    // On success every read and the store are gone, and so is the buffer.
    if (succeeded(tir::computeInline(producer)))
      intermediateBuffers[value] = Value();
  }
}

void GroupFuser::replaceCalls(tir::PrimFuncOp program) {
  Operation *last = calls.back();
  OpBuilder builder(last);
  // The updated inputs' results first (in place), then the fresh outputs,
  // in the order of the program's output parameters.
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  SmallVector<int64_t> inplaceIndices;
  for (auto [value, input] : updated) {
    results.push_back(value);
    inplaceIndices.push_back(input);
  }
  for (Value value : outputs) {
    results.push_back(value);
    inplaceIndices.push_back(-1);
  }
  for (Value value : results)
    resultTypes.push_back(value.getType());
  ShapeExprAttr tirVars;
  if (!extraVars.empty()) {
    SmallVector<sym::Expr> vars;
    for (const std::string &var : extraVars)
      vars.push_back(sym::Expr::var(var));
    tirVars = ShapeExprAttr::get(builder.getContext(), SymShape(vars));
  }
  Operation *fused;
  if (updated.empty())
    fused = CallTIROp::create(builder, last->getLoc(), resultTypes,
                              program.getSymName(), inputs, tirVars);
  else
    fused = CallTIRInplaceOp::create(builder, last->getLoc(), resultTypes,
                                     program.getSymName(), inputs,
                                     inplaceIndices, tirVars);
  for (auto [value, result] : llvm::zip(results, fused->getResults()))
    value.replaceAllUsesWith(result);
  for (Operation *call : llvm::reverse(calls))
    call->erase();
}

LogicalResult GroupFuser::fuse() {
  if (failed(analyze()))
    return failure();
  tir::PrimFuncOp program = buildProgram();
  // Registers the name, renaming the program on a clash.
  symbols.insert(program);
  // Every member's prologue first, then the nests in order.
  tir::hoistPrologue(program);
  inlineIntermediates();
  replaceCalls(program);
  return success();
}

namespace {
struct RelaxFuseTIRPass
    : public relax::impl::RelaxFuseTIRBase<RelaxFuseTIRPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::SetVector<StringAttr> callees;
    bool failedAny = false;
    forEachFusionBlock(module, [&](Block &body) {
      // Groups in order of their first call; calls in block order.
      llvm::MapVector<int64_t, SmallVector<Operation *>> groups;
      for (Operation &op : body)
        if (isa<CallTIROp, CallTIRInplaceOp>(op))
          if (auto id = op.getAttrOfType<IntegerAttr>(kFusionGroupAttrName))
            groups[id.getInt()].push_back(&op);
      for (auto &[id, calls] : groups) {
        for (Operation *call : calls)
          callees.insert(getCalleeAttr(call).getAttr());
        if (calls.size() < 2) {
          calls.front()->removeAttr(kFusionGroupAttrName);
          continue;
        }
        if (failed(GroupFuser(calls, symbols).fuse()))
          failedAny = true;
      }
    });
    if (failedAny)
      return signalPassFailure();
    for (StringAttr name : callees) {
      Operation *callee = symbols.lookup(name);
      if (callee && SymbolTable::symbolKnownUseEmpty(callee, module))
        symbols.erase(callee);
    }
  }
};
} // namespace
