//===- ConvertParallelLoopsToRuntime.cpp - Loops on the runtime pool ------===//
//
// Outer scf.parallel loops become calls of relax_rt_parallel_for on an
// outlined function over a range of the flattened iteration space; see the
// pass description in Passes.td and lib/Runtime/RelaxThreads.cpp.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/ParallelLoops/ConvertParallelLoopsToRuntime.h"
#include "RelaxDialect/Conversion/ParallelLoops/LoopScratch.h"
#include "RelaxDialect/Conversion/ParallelLoops/WorkEstimator.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_CONVERTPARALLELLOOPSTORUNTIME
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;

static constexpr StringLiteral kParallelForFn = "relax_rt_parallel_for";

namespace {
class LoopOutliner {
public:
  LoopOutliner(ModuleOp module, int64_t minWork)
      : module(module), symbols(module), minWork(minWork),
        converter(module.getContext()) {}

  /// Outlines `loop`; leaves it as it is (to run sequentially) when a value
  /// it uses has no LLVM counterpart to pass it as.
  void outline(scf::ParallelOp loop);

private:
  /// The type a captured value is stored as in the context struct, or null.
  Type storedType(Type type) {
    if (type.isIndex())
      return IntegerType::get(type.getContext(), 64);
    if (isa<MemRefType>(type))
      return converter.convertType(type);
    // Scalars, vectors and pointers are stored as they are.
    return LLVM::isCompatibleType(type) ? type : nullptr;
  }

  func::FuncOp runtimeFunction(OpBuilder &builder, FunctionType taskType);

  ModuleOp module;
  SymbolTable symbols;
  int64_t minWork;
  LLVMTypeConverter converter;
};
} // namespace

func::FuncOp LoopOutliner::runtimeFunction(OpBuilder &builder,
                                           FunctionType taskType) {
  if (auto fn = symbols.lookup<func::FuncOp>(kParallelForFn))
    return fn;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  Type i64 = builder.getI64Type();
  auto fn = func::FuncOp::create(
      builder, module.getLoc(), kParallelForFn,
      builder.getFunctionType({taskType, LLVM::LLVMPointerType::get(
                                             builder.getContext()),
                               i64, i64, i64},
                              {}));
  fn.setPrivate();
  symbols.insert(fn);
  return fn;
}

void LoopOutliner::outline(scf::ParallelOp loop) {
  auto parent = loop->getParentOfType<func::FuncOp>();
  if (!parent || parent.isExternal())
    return;
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();

  // What the body and the bounds use from above: constants are cloned into
  // the outlined function, the rest travels in the context struct.
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(loop.getRegion(), used);
  for (Value v : llvm::concat<Value>(loop.getLowerBound(),
                                     loop.getUpperBound(), loop.getStep()))
    used.insert(v);
  SmallVector<Value> constants, captures;
  SmallVector<Type> fields;
  for (Value v : used) {
    Operation *def = v.getDefiningOp();
    if (def && def->getNumOperands() == 0 &&
        def->hasTrait<OpTrait::ConstantLike>()) {
      constants.push_back(v);
      continue;
    }
    Type field = storedType(v.getType());
    if (!field)
      return;
    captures.push_back(v);
    fields.push_back(field);
  }

  OpBuilder builder(ctx);
  Type i64 = builder.getI64Type();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  auto taskType = builder.getFunctionType({ptr, i64, i64}, {});
  func::FuncOp parallelFor = runtimeFunction(builder, taskType);

  // The outlined function, after its parent.
  builder.setInsertionPointAfter(parent);
  auto task = func::FuncOp::create(
      builder, loc, (parent.getSymName() + "_par").str(), taskType);
  task.setPrivate();
  task->setAttr("llvm.linkage",
                LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  symbols.insert(task); // Renames it when the name is taken.
  Block *entry = task.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping map;
  for (Value c : constants)
    map.map(c, builder.clone(*c.getDefiningOp())->getResult(0));
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  Value received = entry->getArgument(0);
  for (auto [i, v] : llvm::enumerate(captures)) {
    Value address = LLVM::GEPOp::create(
        builder, loc, ptr, structType, received,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    Value stored = LLVM::LoadOp::create(builder, loc, fields[i], address);
    Value value;
    if (v.getType().isIndex())
      value = arith::IndexCastOp::create(builder, loc, v.getType(), stored);
    else if (isa<MemRefType>(v.getType()))
      value = UnrealizedConversionCastOp::create(builder, loc, v.getType(),
                                                 stored)
                  .getResult(0);
    else
      value = stored;
    map.map(v, value);
  }

  // Trip counts of the dims, and the range [begin, end) of the flattened
  // space, row-major (the last dim fastest).
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  Value zero = index(0), one = index(1);
  size_t rank = loop.getNumLoops();
  SmallVector<Value> lbs, steps, trips;
  for (size_t d = 0; d < rank; ++d) {
    Value lb = map.lookupOrDefault(loop.getLowerBound()[d]);
    Value ub = map.lookupOrDefault(loop.getUpperBound()[d]);
    Value step = map.lookupOrDefault(loop.getStep()[d]);
    Value span = arith::SubIOp::create(builder, loc, ub, lb);
    Value n = arith::CeilDivSIOp::create(builder, loc, span, step);
    lbs.push_back(lb);
    steps.push_back(step);
    trips.push_back(arith::MaxSIOp::create(builder, loc, n, zero));
  }
  Type indexType = builder.getIndexType();
  Value begin = arith::IndexCastOp::create(builder, loc, indexType,
                                           entry->getArgument(1));
  Value end = arith::IndexCastOp::create(builder, loc, indexType,
                                         entry->getArgument(2));
  Operation *prologueEnd = end.getDefiningOp();

  // The body, for the flat positions [first, first + count) of one row of
  // the innermost dim, whose outer ivs are `outer`.
  Block *body = loop.getBody();
  auto emitRow = [&](ArrayRef<Value> outer, Value first, Value count) {
    Value last = arith::AddIOp::create(builder, loc, first, count);
    auto row = scf::ForOp::create(builder, loc, first, last, one);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(row.getBody());
    for (size_t d = 0; d + 1 < rank; ++d)
      map.map(body->getArgument(d), outer[d]);
    Value scaled = arith::MulIOp::create(builder, loc, row.getInductionVar(),
                                         steps.back());
    map.map(body->getArgument(rank - 1),
            arith::AddIOp::create(builder, loc, lbs.back(), scaled));
    for (Operation &op : body->without_terminator())
      builder.clone(op, map);
    return row;
  };

  scf::ForOp innermost;
  if (rank == 1) {
    innermost = emitRow({}, begin,
                        arith::SubIOp::create(builder, loc, end, begin));
  } else {
    // while (i < end): the outer ivs of i, then its row up to the row's end
    // or `end`.
    auto walk = scf::WhileOp::create(builder, loc, TypeRange{indexType},
                                     ValueRange{begin});
    Block *before = builder.createBlock(&walk.getBefore(), {}, {indexType},
                                        {loc});
    Value more = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                       before->getArgument(0), end);
    scf::ConditionOp::create(builder, loc, more, before->getArguments());
    Block *after =
        builder.createBlock(&walk.getAfter(), {}, {indexType}, {loc});
    Value i = after->getArgument(0);
    Value inner = trips.back();
    Value column = arith::RemUIOp::create(builder, loc, i, inner);
    Value rest = arith::DivUIOp::create(builder, loc, i, inner);
    SmallVector<Value> outer(rank - 1);
    for (size_t d = rank - 1; d-- > 0;) {
      Value position = d == 0 ? rest
                              : arith::RemUIOp::create(builder, loc, rest,
                                                       trips[d]);
      if (d != 0)
        rest = arith::DivUIOp::create(builder, loc, rest, trips[d]);
      Value scaled = arith::MulIOp::create(builder, loc, position, steps[d]);
      outer[d] = arith::AddIOp::create(builder, loc, lbs[d], scaled);
    }
    Value rowLeft = arith::SubIOp::create(builder, loc, inner, column);
    Value rangeLeft = arith::SubIOp::create(builder, loc, end, i);
    Value count = arith::MinSIOp::create(builder, loc, rowLeft, rangeLeft);
    innermost = emitRow(outer, column, count);
    Value next = arith::AddIOp::create(builder, loc, i, count);
    scf::YieldOp::create(builder, loc, next);
    builder.setInsertionPointAfter(walk);
  }
  auto ret = func::ReturnOp::create(builder, loc);

  // Scratch at the top of the body whose sizes are known before the loop:
  // once per range, right after the prologue that computes its sizes. An
  // alloc freed by a dealloc in the same body keeps one dealloc, at the end
  // of the range.
  auto availableAtEntry = [&](Operation *op) {
    return llvm::all_of(op->getOperands(), [&](Value v) {
      return v.getParentBlock() == entry;
    });
  };
  Block *rowBody = innermost.getBody();
  for (Operation &op : llvm::make_early_inc_range(*rowBody)) {
    if (isa<memref::AllocaOp>(op) && availableAtEntry(&op)) {
      op.moveAfter(prologueEnd);
      continue;
    }
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc || !availableAtEntry(alloc))
      continue;
    memref::DeallocOp dealloc = relax::soleDeallocIn(alloc, rowBody);
    if (!dealloc)
      continue;
    alloc->moveAfter(prologueEnd);
    dealloc->moveBefore(ret);
  }

  // The call, in place of the loop: the context struct on the caller's
  // stack (in its entry block, so a loop around the call reuses it).
  builder.setInsertionPointToStart(&parent.getBody().front());
  Value slots = LLVM::ConstantOp::create(builder, loc, i64,
                                         builder.getI64IntegerAttr(1));
  Value context = LLVM::AllocaOp::create(builder, loc, ptr, structType, slots);
  builder.setInsertionPoint(loop);
  for (auto [i, v] : llvm::enumerate(captures)) {
    Value stored;
    if (v.getType().isIndex())
      stored = arith::IndexCastOp::create(builder, loc, i64, v);
    else if (isa<MemRefType>(v.getType()))
      stored = UnrealizedConversionCastOp::create(builder, loc, fields[i], v)
                   .getResult(0);
    else
      stored = v;
    Value address = LLVM::GEPOp::create(
        builder, loc, ptr, structType, context,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(builder, loc, stored, address);
  }
  relax::WorkEstimator estimator(loop.getRegion(), loop);
  Value iterations = estimator.ofBounds(loop);
  Value work = estimator.ofBlock(*body);
  Value chunks, workI64;
  Value autoChunks = LLVM::ConstantOp::create(builder, loc, i64,
                                              builder.getI64IntegerAttr(0));
  if (work) {
    work = arith::MulIOp::create(builder, loc, work, iterations);
    Value big =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, work,
                              estimator.constant(minWork));
    Value single = LLVM::ConstantOp::create(builder, loc, i64,
                                            builder.getI64IntegerAttr(1));
    chunks = arith::SelectOp::create(builder, loc, big, autoChunks, single);
    workI64 = arith::IndexCastOp::create(builder, loc, i64, work);
  } else {
    // A body whose work cannot be estimated before it runs (a loop bound
    // computed inside it): the runtime chooses, with no estimate.
    chunks = autoChunks;
    workI64 = LLVM::ConstantOp::create(builder, loc, i64,
                                       builder.getI64IntegerAttr(-1));
  }
  Value n = arith::IndexCastOp::create(builder, loc, i64, iterations);
  Value fn = func::ConstantOp::create(builder, loc, taskType,
                                      SymbolRefAttr::get(task));
  func::CallOp::create(builder, loc, parallelFor,
                       ValueRange{fn, context, n, chunks, workI64});
  loop.erase();
}

namespace {
struct ConvertParallelLoopsToRuntimePass
    : public relax::impl::ConvertParallelLoopsToRuntimeBase<
          ConvertParallelLoopsToRuntimePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop.getNumReductions() == 0 &&
          !loop->getParentOfType<scf::ParallelOp>() &&
          loop->getParentOfType<func::FuncOp>())
        loops.push_back(loop);
    });
    LoopOutliner outliner(getOperation(), minWork);
    for (scf::ParallelOp loop : loops)
      outliner.outline(loop);
  }
};
} // namespace
