//===- TIRToLinalg.cpp - Affine tir block nests -> linalg -----------------===//
//
// A tir block nest is already a structured op in all but name: its loops
// are the iteration space, its block says which loops reduce, its loads and
// stores are the operands with their index maps. This pass checks that a
// nest says nothing more than that (affine indices, extents that are buffer
// dims, no other side effects) and rewrites it as linalg on memrefs; every
// other nest is left to convert-tir-to-scf. Each nest is analysed fully
// before anything is built, so a nest is either converted whole or left
// untouched.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TIRToLinalg/TIRToLinalg.h"
#include "RelaxDialect/Conversion/TIRToSCF/TIRToSCF.h"
#include "RelaxDialect/Symbolic/SymbolicExpr.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_CONVERTTIRTOLINALG
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// The symbolic value of a loop bound built from `tir.sym_var`, constants
/// and the arithmetic that legalization emits for symbolic dims (see
/// emitSymExpr); null when it is anything else.
static sym::Expr getSymExpr(Value value) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return sym::Expr::constant(*c);
  Operation *op = value.getDefiningOp();
  if (!op)
    return sym::Expr();
  if (auto var = dyn_cast<tir::SymVarOp>(op))
    return sym::Expr::var(var.getVarName());
  auto binary = [&](auto fn) -> sym::Expr {
    sym::Expr lhs = getSymExpr(op->getOperand(0));
    sym::Expr rhs = getSymExpr(op->getOperand(1));
    return lhs && rhs ? fn(lhs, rhs) : sym::Expr();
  };
  if (isa<arith::AddIOp>(op))
    return binary([](auto a, auto b) { return a + b; });
  if (isa<arith::SubIOp>(op))
    return binary([](auto a, auto b) { return a - b; });
  if (isa<arith::MulIOp>(op))
    return binary([](auto a, auto b) { return a * b; });
  if (isa<arith::FloorDivSIOp>(op))
    return binary([](auto a, auto b) { return sym::floorDiv(a, b); });
  if (isa<arith::CeilDivSIOp>(op))
    return binary([](auto a, auto b) { return sym::ceilDiv(a, b); });
  if (isa<arith::MinSIOp>(op))
    return binary([](auto a, auto b) { return sym::min(a, b); });
  if (isa<arith::MaxSIOp>(op))
    return binary([](auto a, auto b) { return sym::max(a, b); });
  return sym::Expr();
}

namespace {
/// One buffer access of a block: a load (an input, or an output's
/// accumulator) or a store (an output).
struct Access {
  Operation *op;
  Value buffer;
  AffineMap map;
};

/// Everything needed to rewrite one block nest, gathered before any IR
/// changes.
struct Nest {
  tir::BlockOp block;
  /// Outermost first; loop i is dim i of the linalg op.
  SmallVector<tir::ForOp> loops;
  SmallVector<sym::Expr> extents;
  SmallVector<utils::IteratorType> iterators;
  /// Each iteration variable's binding as an expression of the loops.
  SmallVector<AffineExpr> bindings;
  /// Distinct (buffer, map) inputs, and the output stores, in body order.
  SmallVector<Access> inputs;
  SmallVector<tir::StoreOp> stores;
  SmallVector<AffineMap> outputMaps;
  /// Every load of the body: its operand number among inputs ++ outputs.
  DenseMap<Operation *, unsigned> loadOperand;
  /// The init, split off over the parallel loops.
  SmallVector<Access> initInputs;
  SmallVector<tir::StoreOp> initStores;
  DenseMap<Operation *, unsigned> initLoadOperand;
};
} // namespace

/// Whether `v` is defined inside `nest` (in a loop body or the block).
static bool isInside(Value v, Operation *outermost) {
  Region *region = v.getParentRegion();
  return outermost->isProperAncestor(region->getParentOp()) ||
         region->getParentOp() == outermost;
}

/// The loops of the nest around `block`, outermost first: the chain of
/// tir.for ops whose bodies hold nothing but the next loop (or the block)
/// and pure, region-free ops (the constants and bound arithmetic that
/// legalization puts between loops).
static SmallVector<tir::ForOp> getPerfectNest(tir::BlockOp block) {
  SmallVector<tir::ForOp> loops;
  Operation *child = block;
  while (auto loop = dyn_cast<tir::ForOp>(child->getParentOp())) {
    bool perfect = true;
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (&op == child)
        continue;
      if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
        perfect = false;
        break;
      }
    }
    if (!perfect)
      break;
    loops.insert(loops.begin(), loop);
    child = loop;
  }
  return loops;
}

namespace {
/// Analyses one nest; on success fills a Nest.
class NestAnalysis {
public:
  NestAnalysis(tir::BlockOp block) : block(block) {}

  /// Fills `nest`, or fails with the reason in `why`.
  LogicalResult run(Nest &nest);
  /// Why the nest stays tir.
  std::string why;
  LogicalResult reject(const Twine &reason) {
    why = reason.str();
    return failure();
  }

private:
  tir::BlockOp block;
  Nest *nest = nullptr;
  MLIRContext *ctx() { return block.getContext(); }

  std::optional<AffineExpr> getAffine(Value v);
  std::optional<AffineMap> getMap(ValueRange indices);
  LogicalResult checkExtents(Value buffer, AffineMap map);
  /// Whether `v` (a value a stored value depends on) reads a reduction
  /// loop or a reduce variable, stopping at loads of the block.
  bool readsReduction(Value v, DenseSet<Value> &seen);
};
} // namespace

std::optional<AffineExpr> NestAnalysis::getAffine(Value v) {
  for (auto [i, loop] : llvm::enumerate(nest->loops))
    if (v == loop.getInductionVar())
      return getAffineDimExpr(i, ctx());
  for (auto [i, arg] : llvm::enumerate(block.getIterVars()))
    if (v == arg)
      return nest->bindings[i];
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return getAffineConstantExpr(*c, ctx());
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumOperands() != 2)
    return std::nullopt;
  std::optional<AffineExpr> lhs = getAffine(op->getOperand(0));
  std::optional<AffineExpr> rhs = getAffine(op->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  std::optional<AffineExpr> result;
  if (isa<arith::AddIOp>(op))
    result = *lhs + *rhs;
  else if (isa<arith::SubIOp>(op))
    result = *lhs - *rhs;
  else if (isa<arith::MulIOp>(op) &&
           (isa<AffineConstantExpr>(*lhs) || isa<AffineConstantExpr>(*rhs)))
    result = *lhs * *rhs;
  else if (isa<arith::FloorDivSIOp>(op) && isa<AffineConstantExpr>(*rhs) &&
           cast<AffineConstantExpr>(*rhs).getValue() > 0)
    result = lhs->floorDiv(*rhs);
  if (!result || !result->isPureAffine())
    return std::nullopt;
  return result;
}

std::optional<AffineMap> NestAnalysis::getMap(ValueRange indices) {
  SmallVector<AffineExpr> results;
  for (Value index : indices) {
    std::optional<AffineExpr> expr = getAffine(index);
    if (!expr)
      return std::nullopt;
    results.push_back(*expr);
  }
  return AffineMap::get(nest->loops.size(), 0, results, ctx());
}

/// linalg derives each loop's range from a buffer dim that the loop indexes
/// directly: every such dim must be the loop's extent.
LogicalResult NestAnalysis::checkExtents(Value buffer, AffineMap map) {
  auto type = cast<tir::BufferType>(buffer.getType());
  for (auto [p, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      continue;
    if (type.getDims()[p] != nest->extents[dim.getPosition()])
      return reject(
          "a loop's extent is not the size of a buffer dim it indexes");
  }
  return success();
}

bool NestAnalysis::readsReduction(Value v, DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return false;
  for (auto [i, loop] : llvm::enumerate(nest->loops))
    if (v == loop.getInductionVar())
      return nest->iterators[i] == utils::IteratorType::reduction;
  for (auto [i, arg] : llvm::enumerate(block.getIterVars()))
    if (v == arg)
      return block.getIterKind(i) == tir::IterKind::reduce;
  Operation *op = v.getDefiningOp();
  if (!op || isa<tir::LoadOp>(op) ||
      !isInside(v, nest->loops.empty() ? block.getOperation()
                                       : nest->loops.front()))
    return false;
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return readsReduction(operand, seen);
  });
}

LogicalResult NestAnalysis::run(Nest &result) {
  nest = &result;
  nest->block = block;
  nest->loops = getPerfectNest(block);
  for (tir::ForOp loop : nest->loops) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (lb != 0 || step != 1)
      return reject("a loop does not start at 0 with step 1");
    // A schedule's GPU binding is not an iteration space linalg can hold.
    if (loop.getKind() == tir::LoopKind::thread_binding)
      return reject("a loop is bound to a GPU thread axis");
    sym::Expr extent = getSymExpr(loop.getUpperBound());
    if (!extent)
      return reject("a loop extent is not a symbolic expression of the "
                    "program's variables");
    nest->extents.push_back(extent);
  }
  unsigned numLoops = nest->loops.size();

  // Iteration variables: affine in the loops; reduce ones bare loops, so
  // that the init runs exactly where tir runs it (all of them at 0).
  nest->iterators.assign(numLoops, utils::IteratorType::parallel);
  SmallVector<int> loopKind(numLoops, -1);
  for (auto [i, binding] : llvm::enumerate(block.getBindings())) {
    nest->bindings.push_back(AffineExpr());
    std::optional<AffineExpr> expr = getAffine(binding);
    if (!expr)
      return reject("an iteration variable is not affine in the loops");
    nest->bindings[i] = *expr;
    bool reduce = block.getIterKind(i) == tir::IterKind::reduce;
    if (reduce && !isa<AffineDimExpr>(*expr))
      return reject("a reduce iteration variable is not a bare loop");
    for (unsigned d = 0; d < numLoops; ++d) {
      if (!expr->isFunctionOfDim(d))
        continue;
      if (loopKind[d] != -1 && loopKind[d] != int(reduce))
        return reject(
            "a loop feeds both spatial and reduce iteration variables");
      loopKind[d] = reduce;
      if (reduce)
        nest->iterators[d] = utils::IteratorType::reduction;
    }
  }
  // A loop no iteration variable uses would repeat the block.
  if (llvm::is_contained(loopKind, -1))
    return reject("a loop feeds no iteration variable");

  // The body: loads, stores and pure, region-free ops.
  tir::InitOp init = block.getInitOp();
  SmallVector<tir::LoadOp> loads;
  for (Operation &op : block.getBody()->without_terminator()) {
    if (&op == init.getOperation())
      continue;
    if (auto load = dyn_cast<tir::LoadOp>(op))
      loads.push_back(load);
    else if (auto store = dyn_cast<tir::StoreOp>(op))
      nest->stores.push_back(store);
    else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return reject("the body holds an op with regions or side effects");
  }
  if (nest->stores.empty())
    return reject("the block stores nothing");
  // Outputs: each buffer stored once, at a permutation of exactly the
  // parallel loops.
  for (tir::StoreOp store : nest->stores) {
    std::optional<AffineMap> map = getMap(store.getIndices());
    if (!map || !map->isProjectedPermutation(/*allowZeroInResults=*/false))
      return reject("a store index is not a permutation of loops");
    for (unsigned d = 0; d < numLoops; ++d)
      if (map->isFunctionOfDim(d) !=
          (nest->iterators[d] == utils::IteratorType::parallel))
        return reject("a store does not index exactly the parallel loops");
    for (tir::StoreOp other : nest->stores)
      if (other != store && other.getBuffer() == store.getBuffer())
        return reject("a buffer is stored twice");
    if (failed(checkExtents(store.getBuffer(), *map)))
      return failure(); // checkExtents said why.
    nest->outputMaps.push_back(*map);
  }
  // Inputs, and loads of an output at its own indices before its store.
  for (tir::LoadOp load : loads) {
    std::optional<AffineMap> map = getMap(load.getIndices());
    if (!map)
      return reject("a load index is not affine in the loops");
    auto stored = llvm::find_if(nest->stores, [&](tir::StoreOp store) {
      return store.getBuffer() == load.getBuffer();
    });
    if (stored != nest->stores.end()) {
      unsigned k = stored - nest->stores.begin();
      if (*map != nest->outputMaps[k] || !load->isBeforeInBlock(*stored))
        return reject(
            "an output is read at other indices than it is written (or after)");
      nest->loadOperand[load] = ~k; // Resolved once the inputs are known.
      continue;
    }
    auto it = llvm::find_if(nest->inputs, [&](const Access &a) {
      return a.buffer == load.getBuffer() && a.map == *map;
    });
    if (it == nest->inputs.end()) {
      if (failed(checkExtents(load.getBuffer(), *map)))
        return failure(); // checkExtents said why.
      nest->inputs.push_back({load, load.getBuffer(), *map});
      it = std::prev(nest->inputs.end());
    }
    nest->loadOperand[load] = it - nest->inputs.begin();
  }
  for (auto &[op, operand] : nest->loadOperand)
    if (int(operand) < 0)
      operand = nest->inputs.size() + ~operand;
  // linalg infers each loop's range from a dim it indexes directly.
  for (unsigned d = 0; d < numLoops; ++d) {
    auto indexesDirectly = [&](AffineMap map) {
      return llvm::any_of(map.getResults(), [&](AffineExpr e) {
        return e == getAffineDimExpr(d, ctx());
      });
    };
    if (!llvm::any_of(
            nest->inputs,
            [&](const Access &a) { return indexesDirectly(a.map); }) &&
        !llvm::any_of(nest->outputMaps, indexesDirectly))
      return reject("a loop indexes no buffer dim directly");
  }

  // The init: stores to outputs at their own indices, loads of other
  // buffers, nothing that depends on a reduction loop.
  if (init) {
    for (Operation &op : init.getBody()->without_terminator()) {
      if (auto store = dyn_cast<tir::StoreOp>(op)) {
        unsigned k = llvm::find_if(nest->stores,
                                   [&](tir::StoreOp s) {
                                     return s.getBuffer() == store.getBuffer();
                                   }) -
                     nest->stores.begin();
        std::optional<AffineMap> map = getMap(store.getIndices());
        if (k == nest->stores.size() || !map || *map != nest->outputMaps[k])
          return reject(
              "the init stores other than to an output at its indices");
        for (tir::StoreOp other : nest->initStores)
          if (other.getBuffer() == store.getBuffer())
            return reject("the init stores a buffer twice");
        nest->initStores.push_back(store);
      } else if (auto load = dyn_cast<tir::LoadOp>(op)) {
        std::optional<AffineMap> map = getMap(load.getIndices());
        if (!map || llvm::any_of(nest->stores, [&](tir::StoreOp s) {
              return s.getBuffer() == load.getBuffer();
            }))
          return reject("the init reads an output or a non-affine index");
        for (unsigned d = 0; d < numLoops; ++d)
          if (map->isFunctionOfDim(d) &&
              nest->iterators[d] == utils::IteratorType::reduction)
            return reject("the init reads a reduction loop");
        if (failed(checkExtents(load.getBuffer(), *map)))
          return failure(); // checkExtents said why.
        auto it = llvm::find_if(nest->initInputs, [&](const Access &a) {
          return a.buffer == load.getBuffer() && a.map == *map;
        });
        if (it == nest->initInputs.end()) {
          nest->initInputs.push_back({load, load.getBuffer(), *map});
          it = std::prev(nest->initInputs.end());
        }
        nest->initLoadOperand[load] = it - nest->initInputs.begin();
      } else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
        return reject("the init holds an op with regions or side effects");
      }
    }
    DenseSet<Value> seen;
    for (tir::StoreOp store : nest->initStores)
      if (readsReduction(store.getValue(), seen))
        return reject("the init depends on a reduction loop");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

namespace {
/// Rewrites one analysed nest.
class NestBuilder {
public:
  NestBuilder(Nest &nest)
      : nest(nest),
        outermost(nest.loops.empty() ? nest.block.getOperation()
                                     : nest.loops.front().getOperation()),
        builder(outermost) {}

  /// Builds the linalg ops before the nest and erases it; returns how many
  /// of them are named ops.
  unsigned rewrite();

private:
  Nest &nest;
  Operation *outermost;
  OpBuilder builder;
  DenseMap<Value, Value> memrefs;

  Value getMemRef(Value buffer);
  /// The value of `v` inside a linalg body: block arguments for loads,
  /// linalg.index for loops, clones for the ops of the nest. `dimOf` maps a
  /// loop to its dim of the op being built.
  Value materialize(OpBuilder &b, Value v, IRMapping &mapping,
                    ArrayRef<int> dimOf);
  LogicalResult buildNamed(Location loc);
  bool buildFill(Location loc, ArrayRef<tir::StoreOp> stores,
                 ArrayRef<AffineMap> maps);
  void buildGeneric(Location loc, ArrayRef<Access> inputs,
                    ArrayRef<tir::StoreOp> stores, ArrayRef<AffineMap> maps,
                    const DenseMap<Operation *, unsigned> &loadOperand,
                    ArrayRef<int> dimOf,
                    ArrayRef<utils::IteratorType> iterators);
};
} // namespace

Value NestBuilder::getMemRef(Value buffer) {
  Value &memref = memrefs[buffer];
  if (!memref) {
    auto type = getBufferMemRefType(cast<tir::BufferType>(buffer.getType()));
    memref = UnrealizedConversionCastOp::create(builder, buffer.getLoc(), type,
                                                buffer)
                 .getResult(0);
  }
  return memref;
}

Value NestBuilder::materialize(OpBuilder &b, Value v, IRMapping &mapping,
                               ArrayRef<int> dimOf) {
  if (Value mapped = mapping.lookupOrNull(v))
    return mapped;
  if (!isInside(v, outermost))
    return v;
  Location loc = v.getLoc();
  Value result;
  auto loopIndex = [&](unsigned i) -> Value {
    assert(dimOf[i] >= 0 && "a reduction loop in a parallel-only op");
    return linalg::IndexOp::create(b, loc, dimOf[i]);
  };
  for (auto [i, loop] : llvm::enumerate(nest.loops))
    if (v == loop.getInductionVar())
      result = loopIndex(i);
  for (auto [i, arg] : llvm::enumerate(nest.block.getIterVars())) {
    if (v != arg)
      continue;
    AffineExpr expr = nest.bindings[i];
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      result = loopIndex(dim.getPosition());
    } else {
      SmallVector<Value> dims;
      for (unsigned d = 0; d < nest.loops.size(); ++d)
        dims.push_back(expr.isFunctionOfDim(d)
                           ? loopIndex(d)
                           : arith::ConstantIndexOp::create(b, loc, 0));
      auto map = AffineMap::get(nest.loops.size(), 0, expr);
      result = affine::AffineApplyOp::create(b, loc, map, dims);
    }
  }
  if (!result) {
    Operation *op = v.getDefiningOp();
    for (Value operand : op->getOperands())
      materialize(b, operand, mapping, dimOf);
    Operation *clone = b.clone(*op, mapping);
    result = clone->getResult(cast<OpResult>(v).getResultNumber());
  }
  mapping.map(v, result);
  return result;
}

/// A constant (or a value from outside the nest) stored to every element
/// of one output: linalg.fill.
bool NestBuilder::buildFill(Location loc, ArrayRef<tir::StoreOp> stores,
                            ArrayRef<AffineMap> maps) {
  if (stores.size() != 1 || !maps[0].isPermutation())
    return false;
  tir::StoreOp store = stores[0];
  Value value = store.getValue();
  if (isInside(value, outermost)) {
    Operation *def = value.getDefiningOp();
    if (!def || !isa<arith::ConstantOp>(def))
      return false;
    value = builder.clone(*def)->getResult(0);
  }
  linalg::FillOp::create(builder, loc, ValueRange{value},
                         ValueRange{getMemRef(store.getBuffer())});
  return true;
}

/// The stored value as `acc + a * b` over the accumulator and two inputs,
/// with no casts or fast-math flags: what linalg.matmul computes.
static bool isMulAdd(Value stored, Operation *accLoad, Operation *lhsLoad,
                     Operation *rhsLoad) {
  Operation *add = stored.getDefiningOp();
  if (!add || add->getNumOperands() != 2)
    return false;
  bool isFloat = isa<arith::AddFOp>(add);
  if (!isFloat && !isa<arith::AddIOp>(add))
    return false;
  if (auto fm = dyn_cast<arith::ArithFastMathInterface>(add))
    if (fm.getFastMathFlagsAttr() &&
        fm.getFastMathFlagsAttr().getValue() != arith::FastMathFlags::none)
      return false;
  for (unsigned k = 0; k < 2; ++k) {
    if (add->getOperand(k).getDefiningOp() != accLoad)
      continue;
    Operation *mul = add->getOperand(1 - k).getDefiningOp();
    if (!mul || !(isFloat ? isa<arith::MulFOp>(mul) : isa<arith::MulIOp>(mul)))
      return false;
    if (auto fm = dyn_cast<arith::ArithFastMathInterface>(mul))
      if (fm.getFastMathFlagsAttr() &&
          fm.getFastMathFlagsAttr().getValue() != arith::FastMathFlags::none)
        return false;
    Operation *a = mul->getOperand(0).getDefiningOp();
    Operation *b = mul->getOperand(1).getDefiningOp();
    return (a == lhsLoad && b == rhsLoad) || (a == rhsLoad && b == lhsLoad);
  }
  return false;
}

/// `C[b?, i, j] += A[b?, i, k] * B[b?, k, j]` in one element type:
/// linalg.matmul or linalg.batch_matmul.
LogicalResult NestBuilder::buildNamed(Location loc) {
  unsigned rank = nest.loops.size();
  if ((rank != 3 && rank != 4) || nest.inputs.size() != 2 ||
      nest.stores.size() != 1 || nest.outputMaps[0].getNumResults() != rank - 1)
    return failure();
  MLIRContext *ctx = nest.block.getContext();
  AffineMap out = nest.outputMaps[0];
  // The reduction loop.
  int k = -1;
  for (unsigned d = 0; d < rank; ++d)
    if (nest.iterators[d] == utils::IteratorType::reduction)
      k = k == -1 ? int(d) : -2;
  if (k < 0)
    return failure();
  SmallVector<AffineExpr> o(out.getResults());
  AffineExpr kExpr = getAffineDimExpr(k, ctx);
  SmallVector<AffineExpr> batch(o.begin(), o.end() - 2);
  auto with = [&](AffineExpr x, AffineExpr y) {
    SmallVector<AffineExpr> r(batch);
    r.push_back(x);
    r.push_back(y);
    return AffineMap::get(rank, 0, r, ctx);
  };
  AffineMap lhsMap = with(o[rank - 3], kExpr);
  AffineMap rhsMap = with(kExpr, o[rank - 2]);
  const Access *lhs = nullptr, *rhs = nullptr;
  for (const Access &a : nest.inputs) {
    if (a.map == lhsMap)
      lhs = &a;
    else if (a.map == rhsMap)
      rhs = &a;
  }
  if (!lhs || !rhs)
    return failure();
  Type elementType =
      cast<tir::BufferType>(nest.stores[0].getBuffer().getType()).getDtype();
  for (const Access *a : {lhs, rhs})
    if (cast<tir::BufferType>(a->buffer.getType()).getDtype() != elementType ||
        cast<tir::BufferType>(a->buffer.getType()).getRank() != rank - 1)
      return failure();
  Operation *accLoad = nullptr;
  unsigned accLoads = 0;
  for (auto &[load, operand] : nest.loadOperand) {
    if (operand == nest.inputs.size()) {
      accLoad = load;
      ++accLoads;
    }
  }
  if (accLoads != 1 ||
      !isMulAdd(nest.stores[0].getValue(), accLoad, lhs->op, rhs->op))
    return failure();
  SmallVector<Value> inputs{getMemRef(lhs->buffer), getMemRef(rhs->buffer)};
  Value output = getMemRef(nest.stores[0].getBuffer());
  if (rank == 3)
    linalg::MatmulOp::create(builder, loc, inputs, ValueRange{output});
  else
    linalg::BatchMatmulOp::create(builder, loc, inputs, ValueRange{output});
  return success();
}

void NestBuilder::buildGeneric(
    Location loc, ArrayRef<Access> inputs, ArrayRef<tir::StoreOp> stores,
    ArrayRef<AffineMap> maps,
    const DenseMap<Operation *, unsigned> &loadOperand, ArrayRef<int> dimOf,
    ArrayRef<utils::IteratorType> iterators) {
  SmallVector<Value> ins, outs;
  SmallVector<AffineMap> indexingMaps;
  for (const Access &a : inputs) {
    ins.push_back(getMemRef(a.buffer));
    indexingMaps.push_back(a.map);
  }
  for (auto [storeRef, map] : llvm::zip(stores, maps)) {
    tir::StoreOp store = storeRef;
    outs.push_back(getMemRef(store.getBuffer()));
    indexingMaps.push_back(map);
  }
  linalg::GenericOp::create(
      builder, loc, ins, outs, indexingMaps, iterators,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        IRMapping mapping;
        for (auto [load, operand] : loadOperand)
          mapping.map(load->getResult(0), args[operand]);
        SmallVector<Value> yielded;
        for (tir::StoreOp store : stores)
          yielded.push_back(materialize(b, store.getValue(), mapping, dimOf));
        linalg::YieldOp::create(b, bodyLoc, yielded);
      });
}

unsigned NestBuilder::rewrite() {
  Location loc = nest.block.getLoc();
  unsigned numLoops = nest.loops.size();
  unsigned named = 0;
  MLIRContext *ctx = nest.block.getContext();

  // The init over the parallel loops, renumbered.
  if (tir::InitOp init = nest.block.getInitOp()) {
    SmallVector<int> dimOf(numLoops, -1);
    SmallVector<AffineExpr> replacements;
    unsigned numParallel = 0;
    for (unsigned d = 0; d < numLoops; ++d) {
      if (nest.iterators[d] == utils::IteratorType::parallel) {
        dimOf[d] = numParallel;
        replacements.push_back(getAffineDimExpr(numParallel++, ctx));
      } else {
        replacements.push_back(getAffineConstantExpr(0, ctx));
      }
    }
    auto restrict = [&](AffineMap map) {
      return map.replaceDimsAndSymbols(replacements, {}, numParallel, 0);
    };
    SmallVector<AffineMap> outMaps;
    for (tir::StoreOp store : nest.initStores) {
      unsigned k = llvm::find_if(nest.stores,
                                 [&](tir::StoreOp s) {
                                   return s.getBuffer() == store.getBuffer();
                                 }) -
                   nest.stores.begin();
      outMaps.push_back(restrict(nest.outputMaps[k]));
    }
    SmallVector<Access> inputs;
    for (const Access &a : nest.initInputs)
      inputs.push_back({a.op, a.buffer, restrict(a.map)});
    if (nest.initInputs.empty() && buildFill(loc, nest.initStores, outMaps)) {
      ++named;
    } else {
      SmallVector<utils::IteratorType> iterators(numParallel,
                                                 utils::IteratorType::parallel);
      buildGeneric(loc, inputs, nest.initStores, outMaps, nest.initLoadOperand,
                   dimOf, iterators);
    }
  }

  SmallVector<int> identity = llvm::to_vector(llvm::seq<int>(0, numLoops));
  bool allParallel = llvm::all_of(nest.iterators, [](utils::IteratorType t) {
    return t == utils::IteratorType::parallel;
  });
  if (allParallel && nest.inputs.empty() && nest.loadOperand.empty() &&
      buildFill(loc, nest.stores, nest.outputMaps))
    ++named;
  else if (succeeded(buildNamed(loc)))
    ++named;
  else
    buildGeneric(loc, nest.inputs, nest.stores, nest.outputMaps,
                 nest.loadOperand, identity, nest.iterators);
  outermost->erase();
  return named;
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertTIRToLinalg
    : relax::impl::ConvertTIRToLinalgBase<ConvertTIRToLinalg> {
  using ConvertTIRToLinalgBase::ConvertTIRToLinalgBase;

  void runOnOperation() override {
    SmallVector<tir::BlockOp> blocks;
    getOperation().walk([&](tir::PrimFuncOp prim) {
      prim.walk([&](tir::BlockOp block) { blocks.push_back(block); });
    });
    for (tir::BlockOp block : blocks) {
      Nest nest;
      NestAnalysis analysis(block);
      LogicalResult analysed = analysis.run(nest);
      if (succeeded(analysed) && needParallelLoop &&
          !llvm::is_contained(nest.iterators, utils::IteratorType::parallel))
        analysed = analysis.reject("no parallel loop (need-parallel-loop)");
      if (failed(analysed)) {
        if (explain)
          block.emitRemark("stays tir: ") << analysis.why;
        ++numLeft;
        continue;
      }
      numNamed += NestBuilder(nest).rewrite();
      ++numConverted;
    }
  }
};
} // namespace
