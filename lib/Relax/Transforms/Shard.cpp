//===- Shard.cpp - --relax-shard ------------------------------------------===//
//
// From a single-device relax program whose parameters carry sharding
// annotations (#relax.shard) to the program one of N tensor-parallel ranks
// runs on its slice (SPMD). The split parameters' dims are divided by N and
// the splits are propagated op by op, in program order, with the rules of
// Megatron-style tensor parallelism: column-parallel projections keep their
// output split, row-parallel ones produce partial sums that a
// relax.ccl.allreduce adds, and an op that needs a whole tensor gets a
// relax.ccl.allgather of it. Every value is either replicated or split on
// one axis into N equal contiguous blocks, rank r holding block r; that is
// also how the driver slices the weights (docs/llm.md).
//
// Types are rewritten in place: an op whose operands changed is re-inferred
// (InferTypeOpInterface), so symbolic dims flow through as they do in the
// single-device program. Rules that cannot keep a split gather it; an op
// without a rule is a located error rather than a silent wrong program.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/RelaxCollectiveOps.h"
#include "RelaxDialect/Relax/IR/RelaxShardAttr.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXSHARD
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

namespace {

/// Elementwise ops of one tensor: any split passes through unchanged.
bool isUnaryElementwise(Operation *op) {
  return isa<ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp, GeluOp,
             GeluTanhOp, SiluOp, ErfOp, SinOp, CosOp, TanOp, ReluOp, NegativeOp,
             AbsOp, FloorOp, CeilOp, RoundOp, AstypeOp, ClipOp>(op);
}

int64_t rankOf(Value value) {
  return cast<RelaxTensorType>(value.getType()).getRank();
}

/// The product of `dims` (null when one of them is `?`).
sym::Expr product(ArrayRef<sym::Expr> dims) {
  sym::Expr result = sym::Expr::constant(1);
  for (const sym::Expr &dim : dims)
    result = dim ? result * dim : sym::Expr();
  return result;
}

/// Shards one relax.func: its parameters, then its body in program order.
class FunctionSharder {
public:
  FunctionSharder(FuncOp func, int64_t numRanks, SymbolTableCollection &symbols)
      : func(func), numRanks(numRanks), ctx(func.getSymContext()),
        symbols(symbols), builder(func.getContext()) {}

  LogicalResult run();

  /// Collectives inserted (the pass's statistic).
  unsigned numCollectives = 0;

private:
  std::optional<int64_t> splitOf(Value value) const {
    auto it = splits.find(value);
    if (it == splits.end())
      return std::nullopt;
    return it->second;
  }

  /// `dim / N` when it is a constant multiple of N or provably a multiple.
  std::optional<sym::Expr> tryDivide(const sym::Expr &dim) const;
  LogicalResult shardParameters();
  LogicalResult visitBlock(Block &block);
  LogicalResult visit(Operation *op);

  /// Replaces split operand `index` of `op` by its relax.ccl.allgather.
  void gatherOperand(Operation *op, unsigned index);
  /// Gathers every split operand of `op` and re-infers it as replicated.
  LogicalResult gatherAll(Operation *op);
  /// Re-infers the result types of `op` from its (changed) operands and
  /// records `split` as the sharding of its first result.
  LogicalResult finish(Operation *op, std::optional<int64_t> split);
  /// `op` computed a partial sum in `partial`: sums it over the ranks and
  /// adds `bias` (when present) to the sum; replaces `op` by the result.
  void reducePartial(Operation *op, Value partial, Value bias);

  LogicalResult visitBroadcast(Operation *op);
  LogicalResult visitLinear(LinearOp op);
  LogicalResult visitMatmul(MatmulOp op);
  LogicalResult visitReshape(ReshapeOp op);
  LogicalResult visitAttention(AttentionOp op);
  LogicalResult visitView(ViewOp op);
  LogicalResult visitCallTIRInplace(CallTIRInplaceOp op);
  /// The check behind visitCallTIRInplace: the callee runs on the slices.
  LogicalResult checkCalleeSpatial(CallTIRInplaceOp op);

  FuncOp func;
  int64_t numRanks;
  sym::Context ctx;
  SymbolTableCollection &symbols;
  OpBuilder builder;
  /// The split axis of every split value; a value not in it is replicated.
  DenseMap<Value, int64_t> splits;
  /// The whole (single-device) type of every split value.
  DenseMap<Value, RelaxTensorType> wholeTypes;
};

std::optional<sym::Expr>
FunctionSharder::tryDivide(const sym::Expr &dim) const {
  if (!dim)
    return std::nullopt;
  sym::Expr n = sym::Expr::constant(numRanks);
  if (std::optional<int64_t> value = dim.getConstant()) {
    if (*value % numRanks)
      return std::nullopt;
    return sym::Expr::constant(*value / numRanks);
  }
  if (ctx.simplify(sym::mod(dim, n)).getConstant() != 0)
    return std::nullopt;
  return ctx.simplify(sym::floorDiv(dim, n));
}

LogicalResult FunctionSharder::shardParameters() {
  Block &entry = func.getBody().front();
  // Symbolic split dims not proven multiples of N: (dim, parameter, axis).
  struct Pending {
    sym::Expr dim;
    unsigned param;
    int64_t axis;
  };
  SmallVector<Pending> pending;
  auto describe = [&](unsigned i) {
    std::string text = "parameter #" + std::to_string(i);
    if (auto name = func.getArgAttrOfType<StringAttr>(i, "relax.name"))
      text += " ('" + name.getValue().str() + "')";
    return text;
  };
  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    Attribute raw = func.getArgAttr(i, ShardAttr::kParamAttrName);
    if (!raw)
      continue;
    auto shard = dyn_cast<ShardAttr>(raw);
    if (!shard)
      return emitError(arg.getLoc())
             << describe(i) << ": relax.shard must be a #relax.shard "
             << "attribute, got " << raw;
    func.removeArgAttr(i, ShardAttr::kParamAttrName);
    if (shard.isReplicated())
      continue;
    int64_t axis = *shard.getSplit();
    auto type = dyn_cast<RelaxTensorType>(arg.getType());
    if (!type || !type.hasRank())
      return emitError(arg.getLoc())
             << describe(i) << ": " << shard
             << " needs a tensor of known rank, got " << arg.getType();
    if (axis >= type.getRank())
      return emitError(arg.getLoc())
             << describe(i) << ": " << shard << " is out of range for rank "
             << type.getRank();
    sym::Expr dim = type.getDims()[axis];
    SmallVector<sym::Expr> dims(type.getDims());
    if (!dim)
      return emitError(arg.getLoc())
             << describe(i) << ": cannot split the unknown dim '?' of axis "
             << axis << " (bind it to a variable with relax.match_cast)";
    if (std::optional<sym::Expr> part = tryDivide(dim)) {
      dims[axis] = *part;
    } else if (dim.getConstant()) {
      return emitError(arg.getLoc())
             << describe(i) << ": dim " << dim.str() << " of axis " << axis
             << " does not divide by " << numRanks << " ranks";
    } else {
      // Not provable: the rank gets `dim floordiv N` rows and a run-time
      // check that nothing was dropped.
      dims[axis] =
          ctx.simplify(sym::floorDiv(dim, sym::Expr::constant(numRanks)));
      pending.push_back({dim, i, axis});
    }
    wholeTypes[arg] = type;
    arg.setType(type.withShape(SymShape(dims)));
    splits[arg] = axis;
  }
  if (pending.empty())
    return success();

  // The variables of an undivided dim must be bound by a parameter of the
  // per-rank program, else the check (and the dim) would name an unbound
  // variable.
  llvm::StringSet<> bound;
  for (Type type : entry.getArgumentTypes())
    if (auto tensor = dyn_cast<RelaxTensorType>(type);
        tensor && tensor.hasRank())
      for (const sym::Expr &dim : tensor.getDims())
        if (dim && dim.isVar())
          bound.insert(dim.getVarName());
  builder.setInsertionPointToStart(&entry);
  MLIRContext *context = func.getContext();
  for (const Pending &p : pending) {
    SmallVector<std::string> vars;
    p.dim.collectVars(vars);
    for (const std::string &var : vars)
      if (!bound.contains(var))
        return emitError(entry.getArgument(p.param).getLoc())
               << describe(p.param) << ": cannot split dim " << p.dim.str()
               << " of axis " << p.axis << " by " << numRanks << ": '" << var
               << "' is bound by no other parameter (write "
               << "the dim as a multiple, e.g. " << numRanks << " * " << var
               << ")";
    std::string what = describe(p.param) + " axis " + std::to_string(p.axis) +
                       " divisible by " + std::to_string(numRanks) + " ranks";
    AssertDimsOp::create(
        builder, entry.getArgument(p.param).getLoc(),
        SymExprAttr::get(context,
                         sym::mod(p.dim, sym::Expr::constant(numRanks))),
        builder.getStringAttr("eq"),
        SymExprAttr::get(context, sym::Expr::constant(0)),
        builder.getStringAttr("relax-shard"), builder.getStringAttr(what));
  }
  return success();
}

void FunctionSharder::gatherOperand(Operation *op, unsigned index) {
  Value value = op->getOperand(index);
  builder.setInsertionPoint(op);
  auto gather = AllGatherOp::create(builder, op->getLoc(), value,
                                    builder.getI64IntegerAttr(*splitOf(value)),
                                    builder.getI64IntegerAttr(numRanks));
  op->setOperand(index, gather);
  ++numCollectives;
}

LogicalResult FunctionSharder::gatherAll(Operation *op) {
  // One gather per value, however many operands read it (concat %x, %x).
  DenseMap<Value, Value> gathered;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    if (Value whole = gathered.lookup(value)) {
      operand.set(whole);
    } else if (splitOf(value)) {
      gatherOperand(op, operand.getOperandNumber());
      gathered[value] = operand.get();
    }
  }
  return finish(op, std::nullopt);
}

LogicalResult FunctionSharder::finish(Operation *op,
                                      std::optional<int64_t> split) {
  if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
    SmallVector<Type> types;
    if (failed(infer.inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), types)))
      return failure();
    for (auto [result, type] : llvm::zip(op->getResults(), types)) {
      if (split)
        wholeTypes[result] = cast<RelaxTensorType>(result.getType());
      result.setType(type);
    }
  }
  if (split)
    splits[op->getResult(0)] = *split;
  return success();
}

void FunctionSharder::reducePartial(Operation *op, Value partial, Value bias) {
  Value sum = AllReduceOp::create(builder, op->getLoc(), partial,
                                  builder.getStringAttr("sum"),
                                  builder.getI64IntegerAttr(numRanks));
  ++numCollectives;
  if (bias)
    sum = AddOp::create(builder, op->getLoc(), sum, bias);
  op->getResult(0).replaceAllUsesWith(sum);
  op->erase();
}

// Broadcasting ops (numpy rules, right-aligned): the split operands must
// split the same result axis, and a replicated operand may only reach that
// axis with a dim of 1 (the rotary tables [1, s, 1, d] against the heads).
LogicalResult FunctionSharder::visitBroadcast(Operation *op) {
  auto resultType = dyn_cast<RelaxTensorType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasRank())
    return gatherAll(op);
  int64_t rank = resultType.getRank();
  std::optional<int64_t> axis;
  bool keeps = true;
  for (Value operand : op->getOperands())
    if (std::optional<int64_t> split = splitOf(operand)) {
      int64_t at = *split + rank - rankOf(operand);
      keeps &= !axis || *axis == at;
      axis = at;
    }
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RelaxTensorType>(operand.getType());
    if (splitOf(operand) || !type)
      continue;
    int64_t at = *axis - (rank - (type.hasRank() ? type.getRank() : rank));
    keeps &= type.hasRank() &&
             (at < 0 || type.getDims()[at] == sym::Expr::constant(1));
  }
  return keeps ? finish(op, axis) : gatherAll(op);
}

// nn.Linear's y = x W^T + b with W [out, in]: W split on axis 0 is
// column-parallel (the output features split), on axis 1 row-parallel
// (each rank's product is a partial sum over its input features).
LogicalResult FunctionSharder::visitLinear(LinearOp op) {
  Value x = op.getX(), weight = op.getWeight(), bias = op.getBias();
  std::optional<int64_t> xSplit = splitOf(x), wSplit = splitOf(weight);
  std::optional<int64_t> bSplit = bias ? splitOf(bias) : std::nullopt;
  // An input of unknown rank has no last axis to split: the whole product.
  if (!cast<RelaxTensorType>(x.getType()).hasRank())
    return gatherAll(op);
  int64_t last = rankOf(x) - 1;
  if (wSplit == 0) {
    if (bias && !bSplit)
      return op.emitOpError("is column-parallel (weight split on axis 0) but "
                            "its bias is replicated: annotate the bias "
                            "#relax.shard<split = 0> too");
    if (xSplit)
      gatherOperand(op, 0);
    return finish(op, last);
  }
  if (wSplit == 1) {
    if (xSplit != last)
      return op.emitOpError("is row-parallel (weight split on axis 1) but "
                            "its input is ")
             << (xSplit ? "split on axis " + std::to_string(*xSplit)
                        : std::string("replicated"))
             << ", not on its last axis " << last
             << " (split the weight of the projection before it on axis 0)";
    if (bSplit)
      return op.emitOpError("is row-parallel (weight split on axis 1) but its "
                            "bias is split: the bias is added once, after "
                            "the allreduce, and must be replicated");
    builder.setInsertionPoint(op);
    auto partial = LinearOp::create(builder, op.getLoc(), x, weight, Value());
    reducePartial(op, partial, bias);
    return success();
  }
  // A replicated weight: a split over the features needs the whole input.
  if (bSplit)
    gatherOperand(op, 2);
  if (xSplit == last) {
    gatherOperand(op, 0);
    xSplit = std::nullopt;
  }
  return finish(op, xSplit);
}

// matmul [.., m, k] x [.., k, n] of equal ranks: rhs split on n is
// column-parallel, rhs split on k against lhs split on k row-parallel, lhs
// split on m keeps its rows.
LogicalResult FunctionSharder::visitMatmul(MatmulOp op) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  int64_t rank = rankOf(lhs);
  if (rank < 2 || rankOf(rhs) != rank)
    return gatherAll(op);
  std::optional<int64_t> lSplit = splitOf(lhs), rSplit = splitOf(rhs);
  if (rSplit == rank - 2) {
    if (lSplit != rank - 1)
      return op.emitOpError("has its rhs split on the contracted axis ")
             << rank - 2 << " but its lhs is not split on axis " << rank - 1;
    builder.setInsertionPoint(op);
    auto partial =
        MatmulOp::create(builder, op.getLoc(), lhs, rhs, op.getOutDtypeAttr());
    reducePartial(op, partial, Value());
    return success();
  }
  if (rSplit == rank - 1 && !lSplit)
    return finish(op, rank - 1);
  if (lSplit == rank - 2 && !rSplit)
    return finish(op, rank - 2);
  return gatherAll(op);
}

// A reshape keeps the split when the split axis starts at the same element
// offset in the input and the output (equal products of the dims before it)
// and the output dim there divides by N: the N contiguous blocks are then
// the same elements on both sides ([1, s, h * d] <-> [1, s, h, d]).
LogicalResult FunctionSharder::visitReshape(ReshapeOp op) {
  int64_t axis = *splitOf(op.getInput());
  auto input = cast<RelaxTensorType>(op.getInput().getType());
  SmallVector<sym::Expr> target(op.getShape().getShape().getDims());
  sym::Expr before = product(input.getDims().take_front(axis));
  for (int64_t j = 0, e = target.size(); j < e && before; ++j) {
    if (!target[j] || target[j] == sym::Expr::constant(1))
      continue;
    if (!ctx.provablyEqual(product(ArrayRef(target).take_front(j)), before))
      continue;
    std::optional<sym::Expr> part = tryDivide(target[j]);
    if (!part)
      break;
    target[j] = *part;
    op.setShapeAttr(ShapeExprAttr::get(op.getContext(), SymShape(target)));
    return finish(op, j);
  }
  return gatherAll(op);
}

// Heads are independent: q, k and v split on the heads axis (BSNH) keep it,
// each rank holding the query heads of its own kv heads (grouped-query
// attention with both head counts divided by N).
LogicalResult FunctionSharder::visitAttention(AttentionOp op) {
  bool heads = splitOf(op.getQuery()) == 2 && splitOf(op.getKey()) == 2 &&
               splitOf(op.getValue()) == 2;
  if (Value mask = op.getMask()) {
    // The mask broadcasts to [b, hq, s, skv]: it may not vary by head.
    auto type = cast<RelaxTensorType>(mask.getType());
    int64_t at = 1 - (4 - (type.hasRank() ? type.getRank() : 4));
    heads &= !splitOf(mask) && type.hasRank() &&
             (at < 0 || type.getDims()[at] == sym::Expr::constant(1));
  }
  return heads ? finish(op, 2) : gatherAll(op);
}

// A view that keeps the dims from the split axis on (it reinterprets the
// rows before it: the valid rows of a cache) is the same view of each
// rank's block. Any other view is an error, not a gather: a view shares its
// input's storage (a cache updated in place), which a gathered copy would
// not.
LogicalResult FunctionSharder::visitView(ViewOp op) {
  int64_t axis = *splitOf(op.getInput());
  auto input = cast<RelaxTensorType>(op.getInput().getType());
  auto whole = wholeTypes.lookup(op.getInput());
  auto result = cast<RelaxTensorType>(op.getType());
  bool keeps = whole && result.hasRank() && result.getRank() == input.getRank();
  for (int64_t i = axis; keeps && i < input.getRank(); ++i)
    keeps = ctx.provablyEqual(result.getDims()[i], whole.getDims()[i]);
  if (!keeps)
    return op.emitOpError("cannot keep the split of axis ")
           << axis << " of its input: the view must keep the dims from that "
           << "axis on";
  SmallVector<sym::Expr> dims(result.getDims());
  dims[axis] = input.getDims()[axis];
  wholeTypes[op.getResult()] = result;
  op.getResult().setType(result.withShape(SymShape(dims)));
  splits[op.getResult()] = axis;
  return success();
}

// The callee must be generic in the split dim and touch it only through a
// spatial iteration variable that indexes the split axis of the split
// buffers: then each rank's call on its blocks is the whole call's work on
// those blocks (the KV-cache append of a Llama layer, per head).
LogicalResult FunctionSharder::checkCalleeSpatial(CallTIRInplaceOp op) {
  // The op's verifier (verifyTIRCallee) checked that the callee is a
  // tir.prim_func whose buffers bind the inputs' dims.
  auto callee =
      symbols.lookupNearestSymbolFrom<tir::PrimFuncOp>(op, op.getCalleeAttr());
  assert(callee && "call_tir_inplace verified without a prim_func callee");
  Block &body = callee.getBody().front();
  // Buffer argument -> split axis; the split dim's variable.
  DenseMap<Value, int64_t> splitBuffers;
  std::string var;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    std::optional<int64_t> axis = splitOf(input);
    if (!axis)
      continue;
    auto buffer = cast<tir::BufferType>(body.getArgument(i).getType());
    sym::Expr dim = buffer.getDims()[*axis];
    if (!dim || !dim.isVar() || (!var.empty() && dim.getVarName() != var))
      return op.emitOpError("input #")
             << i << " is split on axis " << *axis << " but @" << op.getCallee()
             << " does not take that axis as one symbolic "
             << "dim shared by the split buffers (it has "
             << (dim ? dim.str() : "?") << ")";
    var = dim.getVarName().str();
    splitBuffers[body.getArgument(i)] = *axis;
  }
  // A buffer that is not split must not depend on the split dim.
  for (BlockArgument arg : body.getArguments()) {
    auto buffer = dyn_cast<tir::BufferType>(arg.getType());
    if (!buffer || splitBuffers.count(arg))
      continue;
    for (const sym::Expr &dim : buffer.getDims()) {
      SmallVector<std::string> vars;
      if (dim)
        dim.collectVars(vars);
      if (llvm::is_contained(vars, var))
        return op.emitOpError("input #")
               << arg.getArgNumber() << " is replicated but its buffer in @"
               << op.getCallee() << " depends on the split dim '" << var << "'";
    }
  }
  // Every access of a split axis is by a spatial iteration variable bound
  // to a loop's induction variable, and such a variable indexes nothing
  // else.
  DenseSet<Value> axisVars;
  WalkResult walk = callee.walk([&](Operation *access) {
    Value buffer;
    OperandRange indices = access->getOperands();
    if (auto load = dyn_cast<tir::LoadOp>(access)) {
      buffer = load.getBuffer();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<tir::StoreOp>(access)) {
      buffer = store.getBuffer();
      indices = store.getIndices();
    } else {
      return WalkResult::advance();
    }
    auto it = splitBuffers.find(buffer);
    if (it == splitBuffers.end())
      return WalkResult::advance();
    auto iterVar = dyn_cast<BlockArgument>(indices[it->second]);
    auto block = iterVar
                     ? dyn_cast<tir::BlockOp>(iterVar.getOwner()->getParentOp())
                     : tir::BlockOp();
    if (!block ||
        block.getIterKind(iterVar.getArgNumber()) != tir::IterKind::spatial ||
        !isa_and_nonnull<tir::ForOp>(block.getBindings()[iterVar.getArgNumber()]
                                         .getParentBlock()
                                         ->getParentOp()) ||
        !isa<BlockArgument>(block.getBindings()[iterVar.getArgNumber()]))
      return WalkResult::interrupt();
    axisVars.insert(iterVar);
    return WalkResult::advance();
  });
  bool spatial = !walk.wasInterrupted();
  for (Value iterVar : axisVars)
    for (OpOperand &use : iterVar.getUses()) {
      Operation *user = use.getOwner();
      Value buffer = isa<tir::LoadOp>(user)    ? user->getOperand(0)
                     : isa<tir::StoreOp>(user) ? user->getOperand(1)
                                               : Value();
      auto it = splitBuffers.find(buffer);
      unsigned first = isa<tir::LoadOp>(user) ? 1 : 2;
      spatial &= it != splitBuffers.end() &&
                 use.getOperandNumber() == first + it->second;
    }
  if (!spatial)
    return op.emitOpError("has split inputs but @")
           << op.getCallee() << " does not index their split axis only by a "
           << "spatial loop variable of its own: its work on one block may "
           << "need the others";
  return success();
}

LogicalResult FunctionSharder::visitCallTIRInplace(CallTIRInplaceOp op) {
  for (auto [i, index] : llvm::enumerate(op.getInplaceIndices()))
    if (index < 0)
      return op.emitOpError("has split inputs and a fresh output #")
             << i << ": relax-shard only shards results updated in place";
  if (failed(checkCalleeSpatial(op)))
    return failure();
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    Value input = op.getAliasedInput(i);
    if (std::optional<int64_t> axis = splitOf(input)) {
      wholeTypes[result] = cast<RelaxTensorType>(result.getType());
      splits[result] = *axis;
    }
    result.setType(input.getType());
  }
  return success();
}

LogicalResult FunctionSharder::visit(Operation *op) {
  if (auto dataflow = dyn_cast<DataflowOp>(op))
    return visitBlock(dataflow.getBody().front());
  if (auto output = dyn_cast<OutputOp>(op)) {
    for (auto [result, value] :
         llvm::zip(output->getParentOp()->getResults(), output.getOperands())) {
      result.setType(value.getType());
      if (std::optional<int64_t> axis = splitOf(value)) {
        splits[result] = *axis;
        wholeTypes[result] = wholeTypes.lookup(value);
      }
    }
    return success();
  }
  if (isa<ReturnOp>(op))
    return success();
  std::optional<unsigned> splitOperand;
  for (OpOperand &operand : op->getOpOperands())
    if (!splitOperand && splitOf(operand.get()))
      splitOperand = operand.getOperandNumber();
  // Replicated operands: the op is unchanged.
  if (!splitOperand)
    return success();
  int64_t axis = *splitOf(op->getOperand(*splitOperand));

  if (isUnaryElementwise(op))
    return finish(op, axis);
  if (op->hasTrait<BroadcastsOperands>())
    return visitBroadcast(op);
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<LinearOp>([&](auto op) { return visitLinear(op); })
      .Case<MatmulOp>([&](auto op) { return visitMatmul(op); })
      .Case<ReshapeOp>([&](auto op) { return visitReshape(op); })
      .Case<AttentionOp>([&](auto op) { return visitAttention(op); })
      .Case<ViewOp>([&](auto op) { return visitView(op); })
      .Case<CallTIRInplaceOp>([&](auto op) { return visitCallTIRInplace(op); })
      .Case<StridedSliceOp>([&](StridedSliceOp slice) {
        for (int64_t sliced : slice.getAxes())
          if ((sliced < 0 ? sliced + rankOf(slice.getInput()) : sliced) == axis)
            return gatherAll(op);
        return finish(op, axis);
      })
      .Case<ConcatOp>([&](ConcatOp concat) {
        int64_t along = int64_t(concat.getAxis());
        if (along < 0)
          along += rankOf(concat.getInputs()[0]);
        bool keeps = along != axis &&
                     llvm::all_of(concat.getInputs(),
                                  [&](Value v) { return splitOf(v) == axis; });
        return keeps ? finish(op, axis) : gatherAll(op);
      })
      .Case<RMSNormOp>([&](RMSNormOp norm) {
        if (*splitOperand != 0 || splitOf(norm.getWeight()))
          return gatherAll(op);
        for (int64_t normalized : norm.getAxes())
          if ((normalized < 0 ? normalized + rankOf(norm.getInput())
                              : normalized) == axis)
            return gatherAll(op);
        return finish(op, axis);
      })
      .Case<TakeOp>([&](TakeOp take) {
        std::optional<uint64_t> along = take.getAxis();
        auto indices = cast<RelaxTensorType>(take.getIndices().getType());
        if (*splitOperand != 0 || splitOf(take.getIndices()) || !along ||
            int64_t(*along) == axis || !indices.hasRank())
          return gatherAll(op);
        int64_t at = axis < int64_t(*along)
                         ? axis
                         : axis + rankOf(take.getIndices()) - 1;
        return finish(op, at);
      })
      .Default([&](Operation *op) {
        return op->emitOpError("cannot be sharded: operand #")
               << *splitOperand << " is split on axis " << axis
               << " and relax-shard has no rule for this op (keep its "
               << "inputs replicated)";
      });
}

LogicalResult FunctionSharder::visitBlock(Block &block) {
  // Rules may replace the op they visit: step with an early-inc range.
  for (Operation &op : llvm::make_early_inc_range(block))
    if (failed(visit(&op)))
      return failure();
  return success();
}

LogicalResult FunctionSharder::run() {
  if (func.getBody().empty())
    return success();
  if (failed(shardParameters()) || failed(visitBlock(func.getBody().front())))
    return failure();
  Block &entry = func.getBody().front();
  func.setFunctionType(
      FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                        entry.getTerminator()->getOperandTypes()));
  return success();
}

struct Shard : public relax::impl::RelaxShardBase<Shard> {
  using Base::Base;

  void runOnOperation() override {
    if (numRanks < 1) {
      getOperation().emitError("relax-shard: num-ranks must be at least 1, "
                               "got ")
          << int64_t(numRanks) << " (--relax-shard=\"num-ranks=N\")";
      return signalPassFailure();
    }
    SymbolTableCollection symbols;
    for (auto func : getOperation().getOps<FuncOp>()) {
      FunctionSharder sharder(func, numRanks, symbols);
      LogicalResult result = sharder.run();
      numCollectives += sharder.numCollectives;
      if (failed(result))
        return signalPassFailure();
    }
  }
};
} // namespace
