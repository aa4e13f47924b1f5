//===- StorageRoot.cpp - The buffer a relax value lives in ----------------===//
//
// Backward (getStorageRoot) and forward (getStorageAliases) walks over the
// ops that pass a buffer on without copying, and the in-place checks built
// on them. The two walks follow the same edges, so a value found from a
// root's aliases has that root, and the other way round.
//
// A relax.if result is never an alias: the lowering copies every yielded
// value that the branch did not create. call_tir, call_dps_packed and the
// fresh results of call_tir_inplace are new buffers.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/StorageRoot.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace mlir;
using namespace mlir::relax;

/// Calls nested deeper than this are not followed (recursion): the call's
/// result is then its own root.
static constexpr unsigned kMaxCallDepth = 16;

static FuncOp lookupCallee(CallOp call, SymbolTableCollection *symbols) {
  if (symbols)
    return symbols->lookupNearestSymbolFrom<FuncOp>(call, call.getCalleeAttr());
  return SymbolTable::lookupNearestSymbolFrom<FuncOp>(call,
                                                      call.getCalleeAttr());
}

/// The value the callee returns as its result #`index`, or null when the
/// callee has no body or an unexpected terminator (IR not verified yet).
static Value returnedValue(FuncOp callee, unsigned index) {
  if (callee.getBody().empty() ||
      !callee.getBody().front().mightHaveTerminator())
    return Value();
  auto ret = dyn_cast<ReturnOp>(callee.getBody().front().getTerminator());
  if (!ret || index >= ret.getNumOperands())
    return Value();
  return ret.getOperand(index);
}

/// The parameter of `callee` that `value` is, or null.
static BlockArgument parameterOf(Value value, FuncOp callee) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || callee.getBody().empty() ||
      arg.getOwner() != &callee.getBody().front())
    return BlockArgument();
  return arg;
}

/// Follows `value` back to its root. `pending` holds the tuple fields still
/// to select, the next one last; what is left when the walk stops is the
/// root's field path (reversed).
static Value resolve(Value value, SmallVectorImpl<int64_t> &pending,
                     SmallVectorImpl<Operation *> &through,
                     SymbolTableCollection *symbols, unsigned depth) {
  while (Operation *def = value.getDefiningOp()) {
    unsigned n = cast<OpResult>(value).getResultNumber();
    if (isa<ViewOp, MatchCastOp>(def)) {
      through.push_back(def);
      value = def->getOperand(0);
      continue;
    }
    if (auto inplace = dyn_cast<CallTIRInplaceOp>(def)) {
      if (n >= inplace.getInplaceIndices().size())
        break;
      Value input = inplace.getAliasedInput(n);
      if (!input)
        break; // a fresh output
      through.push_back(def);
      value = input;
      continue;
    }
    if (auto region = dyn_cast<DataflowOp>(def)) {
      if (region.getBody().empty() ||
          !region.getBody().front().mightHaveTerminator())
        break;
      auto output = dyn_cast<OutputOp>(region.getBody().front().getTerminator());
      if (!output || n >= output.getNumOperands())
        break;
      value = output.getOperand(n);
      continue;
    }
    if (auto get = dyn_cast<TupleGetItemOp>(def)) {
      through.push_back(def);
      pending.push_back(static_cast<int64_t>(get.getIndex()));
      value = get.getTuple();
      continue;
    }
    if (auto tuple = dyn_cast<TupleOp>(def)) {
      if (pending.empty() || pending.back() < 0 ||
          pending.back() >= static_cast<int64_t>(tuple.getFields().size()))
        break;
      value = tuple.getFields()[pending.pop_back_val()];
      continue;
    }
    if (auto call = dyn_cast<CallOp>(def)) {
      FuncOp callee = depth < kMaxCallDepth ? lookupCallee(call, symbols)
                                            : FuncOp();
      Value returned = callee ? returnedValue(callee, n) : Value();
      if (!returned)
        break;
      SmallVector<int64_t> inner(pending.begin(), pending.end());
      SmallVector<Operation *> innerThrough;
      Value root = resolve(returned, inner, innerThrough, symbols, depth + 1);
      if (root.getDefiningOp<ConstantOp>()) {
        through.push_back(call);
        pending.assign(inner);
        return root;
      }
      BlockArgument param = parameterOf(root, callee);
      if (!param || param.getArgNumber() >= call.getNumOperands())
        break; // a buffer the callee creates: the result is the caller's
      through.push_back(call);
      pending.assign(inner);
      value = call.getOperand(param.getArgNumber());
      continue;
    }
    break;
  }
  return value;
}

StorageRoot relax::getStorageRoot(Value value,
                                  SymbolTableCollection *symbols) {
  StorageRoot root;
  SmallVector<int64_t> pending;
  root.value = resolve(value, pending, root.through, symbols, 0);
  root.fields.assign(pending.rbegin(), pending.rend());
  return root;
}

ConstantOp StorageRoot::getConstant() const {
  return value ? value.getDefiningOp<ConstantOp>() : ConstantOp();
}

/// Whether one path is a prefix of the other.
static bool pathsOverlap(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t n = std::min(a.size(), b.size());
  return a.take_front(n) == b.take_front(n);
}

bool StorageRoot::overlaps(const StorageRoot &other) const {
  return value == other.value && pathsOverlap(fields, other.fields);
}

std::string StorageRoot::describeThrough() const {
  // Each kind of op once, in the order first met ("relax.call @f" per
  // callee).
  SmallVector<std::string> names;
  for (Operation *op : through) {
    std::string name = op->getName().getStringRef().str();
    if (auto call = dyn_cast<CallOp>(op))
      name += " @" + call.getCallee().str();
    if (!llvm::is_contained(names, name))
      names.push_back(std::move(name));
  }
  return llvm::join(names, ", ");
}

/// What an alias `fields` of a tuple becomes when the path `taken` is
/// selected from it: the remaining path, or none when `taken` leads to a
/// different field. A path that ends inside the alias selects all of it.
static std::optional<SmallVector<int64_t, 2>>
project(ArrayRef<int64_t> fields, ArrayRef<int64_t> taken) {
  if (!pathsOverlap(fields, taken))
    return std::nullopt;
  if (taken.size() >= fields.size())
    return SmallVector<int64_t, 2>();
  return SmallVector<int64_t, 2>(fields.drop_front(taken.size()));
}

SmallVector<StorageAlias>
relax::getStorageAliases(const StorageRoot &root, Operation *exclude,
                         SymbolTableCollection *symbols) {
  SmallVector<StorageAlias> aliases;
  std::set<std::pair<const void *, SmallVector<int64_t, 2>>> seen;
  auto add = [&](Value value, SmallVector<int64_t, 2> fields) {
    if (seen.insert({value.getAsOpaquePointer(), fields}).second)
      aliases.push_back({value, std::move(fields)});
  };
  add(root.value, root.fields);
  for (size_t next = 0; next < aliases.size(); ++next) {
    Value value = aliases[next].value;
    SmallVector<int64_t, 2> fields = aliases[next].fields;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      unsigned operand = use.getOperandNumber();
      if (user == exclude)
        continue;
      if (isa<ViewOp, MatchCastOp>(user)) {
        add(user->getResult(0), fields);
      } else if (auto inplace = dyn_cast<CallTIRInplaceOp>(user)) {
        for (auto [i, index] : llvm::enumerate(inplace.getInplaceIndices()))
          if (index == static_cast<int64_t>(operand))
            add(inplace.getResult(i), fields);
      } else if (auto output = dyn_cast<OutputOp>(user)) {
        Operation *region = output->getParentOp();
        if (region && operand < region->getNumResults())
          add(region->getResult(operand), fields);
      } else if (auto tuple = dyn_cast<TupleOp>(user)) {
        SmallVector<int64_t, 2> path = {static_cast<int64_t>(operand)};
        path.append(fields.begin(), fields.end());
        add(tuple.getResult(), std::move(path));
      } else if (auto get = dyn_cast<TupleGetItemOp>(user)) {
        if (auto rest = project(
                fields, {static_cast<int64_t>(get.getIndex())}))
          add(get.getResult(), std::move(*rest));
      } else if (auto call = dyn_cast<CallOp>(user)) {
        FuncOp callee = lookupCallee(call, symbols);
        if (!callee)
          continue;
        for (unsigned r = 0; r < call.getNumResults(); ++r) {
          Value returned = returnedValue(callee, r);
          if (!returned)
            continue;
          SmallVector<int64_t> pending;
          SmallVector<Operation *> ignored;
          Value inner = resolve(returned, pending, ignored, symbols, 1);
          BlockArgument param = parameterOf(inner, callee);
          if (!param || param.getArgNumber() != operand)
            continue;
          SmallVector<int64_t, 2> taken(pending.rbegin(), pending.rend());
          if (auto rest = project(fields, taken))
            add(call.getResult(r), std::move(*rest));
        }
      }
    }
  }
  return aliases;
}

/// Whether `user` may run after `op`: some block around `op` holds an
/// ancestor of `user` that comes later than `op`'s ancestor there. A use
/// in another region of an op around `op` (the other branch of a relax.if)
/// never runs after it, nor does a use in another function.
static bool mayRunAfter(Operation *user, Operation *op) {
  for (Operation *at = op; at; at = at->getParentOp()) {
    Block *block = at->getBlock();
    if (!block)
      return false;
    if (Operation *ancestor = block->findAncestorOpInBlock(*user))
      if (ancestor != at && at->isBeforeInBlock(ancestor))
        return true;
    if (isa<FuncOp>(at->getParentOp()))
      return false;
  }
  return false;
}

/// Ops through which a use only renames the storage (followed by
/// getStorageAliases) without reading it.
static bool onlyRenames(Operation *user) {
  return isa<ViewOp, MatchCastOp, OutputOp, TupleOp, TupleGetItemOp>(user);
}

LogicalResult relax::verifyInPlaceStorage(CallTIRInplaceOp op,
                                          SymbolTableCollection &symbols) {
  ArrayRef<int64_t> indices = op.getInplaceIndices();
  for (auto [i, index] : llvm::enumerate(indices)) {
    if (index < 0 || index >= static_cast<int64_t>(op.getInputs().size()))
      continue; // the verifier's error
    Value input = op.getInputs()[index];
    if (input.getDefiningOp<ConstantOp>())
      return op.emitOpError("input #")
             << index << " is a relax.constant: constants cannot be updated "
                         "in place";
    StorageRoot root = getStorageRoot(input, &symbols);
    if (ConstantOp constant = root.getConstant()) {
      InFlightDiagnostic diag =
          op.emitOpError("input #")
          << index << " is updated in place, but its storage is a "
                      "relax.constant (through "
          << root.describeThrough()
          << "): constants cannot be updated in place";
      diag.attachNote(constant.getLoc()) << "the relax.constant";
      return diag;
    }
    // The root and every value sharing its storage: none may be read after
    // the call, or it would see the new contents.
    for (const StorageAlias &alias :
         getStorageAliases(root, op.getOperation(), &symbols)) {
      for (OpOperand &use : alias.value.getUses()) {
        Operation *user = use.getOwner();
        if (user == op.getOperation() || onlyRenames(user) ||
            !mayRunAfter(user, op.getOperation()))
          continue;
        InFlightDiagnostic diag = op.emitOpError("updates input #") << index;
        if (alias.value == input)
          diag << " in place, but the old value is used after the call "
                  "(use the call's result #"
               << i << ")";
        else
          diag << " in place, but a value sharing its storage (a view, "
                  "cast, tuple field or call result of it, or what it "
                  "views) is used after the call";
        diag.attachNote(user->getLoc()) << "later use here";
        return diag;
      }
    }
  }
  return success();
}

/// An op in `func` (or in a function it calls) that updates its parameter
/// #`index` in place, or null.
static Operation *
findInPlaceUpdate(FuncOp func, unsigned index, SymbolTableCollection &symbols,
                  llvm::DenseSet<std::pair<Operation *, unsigned>> &visited) {
  if (func.getBody().empty() || index >= func.getNumArguments() ||
      !visited.insert({func.getOperation(), index}).second)
    return nullptr;
  Value param = func.getBody().front().getArgument(index);
  Operation *found = nullptr;
  func.walk([&](Operation *op) {
    if (auto inplace = dyn_cast<CallTIRInplaceOp>(op)) {
      for (unsigned i = 0; i < inplace.getNumResults(); ++i)
        if (i < inplace.getInplaceIndices().size())
          if (Value input = inplace.getAliasedInput(i))
            if (getStorageRoot(input, &symbols).value == param) {
              found = op;
              return WalkResult::interrupt();
            }
    } else if (auto call = dyn_cast<CallOp>(op)) {
      FuncOp callee = lookupCallee(call, &symbols);
      if (!callee)
        return WalkResult::advance();
      for (auto [k, operand] : llvm::enumerate(call.getOperands()))
        if (getStorageRoot(operand, &symbols).value == param)
          if (Operation *update =
                  findInPlaceUpdate(callee, k, symbols, visited)) {
            found = update;
            return WalkResult::interrupt();
          }
    }
    return WalkResult::advance();
  });
  return found;
}

LogicalResult relax::verifyInPlaceStorage(CallOp op,
                                          SymbolTableCollection &symbols) {
  FuncOp callee = lookupCallee(op, &symbols);
  if (!callee)
    return success(); // the verifier's error
  for (auto [k, operand] : llvm::enumerate(op.getOperands())) {
    StorageRoot root = getStorageRoot(operand, &symbols);
    ConstantOp constant = root.getConstant();
    if (!constant)
      continue;
    llvm::DenseSet<std::pair<Operation *, unsigned>> visited;
    Operation *update = findInPlaceUpdate(callee, k, symbols, visited);
    if (!update)
      continue;
    InFlightDiagnostic diag =
        op.emitOpError("operand #")
        << k << " shares the storage of a relax.constant"
        << (root.through.empty() ? std::string()
                                 : " (through " + root.describeThrough() + ")")
        << ", but '" << op.getCallee() << "' updates parameter #" << k
        << " in place: constants cannot be updated in place";
    diag.attachNote(constant.getLoc()) << "the relax.constant";
    diag.attachNote(update->getLoc()) << "the update in place";
    return diag;
  }
  return success();
}
