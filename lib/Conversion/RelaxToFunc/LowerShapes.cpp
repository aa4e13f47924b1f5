//===- LowerShapes.cpp - --relax-lower-shapes -----------------------------===//
//
// Relax functions become host functions over memrefs. Symbolic variables
// become `index` values bound at their binding points, every other dim at a
// binding point is checked at run time, and call_tir outputs are allocated
// with sizes computed from the symbolic shapes. Every size computed here is
// overflow-checked (so is the byte size of each allocation), divisors of
// floordiv/mod are checked for zero, and a failed allocation is an error.
//
// Failed checks never abort: the first failure is recorded in the runtime's
// error slot (relax_rt_shape_error) and the function returns at once with
// poison results; the caller reads the message back (relax_rt_last_error).
// The lowering is a straight walk over each function's single block, which is
// what relax functions are once dataflow regions are inlined.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Extern/IR/ExternDialect.h"
#include "RelaxDialect/Conversion/HostMemoryToGPU/HostMemoryToGPU.h"
#include "RelaxDialect/Conversion/RelaxToFunc/RelaxToFunc.h"
#include "RelaxDialect/Relax/IR/StorageRoot.h"
#include "RelaxDialect/Relax/Transforms/MemoryPlan.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/Support/SymExprCodegen.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXLOWERSHAPES
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

static constexpr StringLiteral kShapeErrorFn = "relax_rt_shape_error";
static constexpr StringLiteral kHasErrorFn = "relax_rt_has_error";
static constexpr StringLiteral kAcquireArenaFn = "relax_rt_workspace_acquire";
static constexpr StringLiteral kReleaseArenaFn = "relax_rt_workspace_release";
static constexpr StringLiteral kMemoryAllocFn = "relax_rt_memory_alloc";
static constexpr StringLiteral kMemoryFreeFn = "relax_rt_memory_free";
static constexpr StringLiteral kMemoryPlanFn = "relax_rt_memory_plan";

/// `!relax.tensor<[n, 4], f32>` -> `memref<?x4xf32>`; unknown rank ->
/// `memref<*xf32>`; prim values -> their scalar type.
static FailureOr<Type> convertRelaxType(Type type) {
  if (auto tensor = dyn_cast<RelaxTensorType>(type)) {
    if (!tensor.hasRank())
      return Type(UnrankedMemRefType::get(tensor.getDtype(), 0));
    SmallVector<int64_t> sizes;
    for (const sym::Expr &dim : tensor.getDims()) {
      std::optional<int64_t> c = dim ? dim.getConstant() : std::nullopt;
      sizes.push_back(c ? *c : ShapedType::kDynamic);
    }
    return Type(MemRefType::get(sizes, tensor.getDtype()));
  }
  if (auto prim = dyn_cast<PrimType>(type))
    return prim.getType();
  return failure();
}

/// The leaves of `type` in order: a tuple's fields, nested tuples
/// flattened depth first; any other type is its own single leaf. A tuple
/// crosses a function boundary (parameters, results, relax.call) as its
/// leaves, one memref each, in this order.
static void appendLeafTypes(Type type, SmallVectorImpl<Type> &leaves) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type field : tuple.getTypes())
      appendLeafTypes(field, leaves);
    return;
  }
  leaves.push_back(type);
}

static SmallVector<Type> leafTypes(Type type) {
  SmallVector<Type> leaves;
  appendLeafTypes(type, leaves);
  return leaves;
}

/// Where field `index` of a value of tuple type `tuple` lies among its
/// leaves: (first leaf, number of leaves).
static std::pair<unsigned, unsigned> fieldLeafRange(TupleType tuple,
                                                    unsigned index) {
  unsigned first = 0;
  for (unsigned i = 0; i < index; ++i)
    first += leafTypes(tuple.getType(i)).size();
  return {first, static_cast<unsigned>(
                     leafTypes(tuple.getType(index)).size())};
}

/// A memref type for `type`, every dim dynamic: what lowered relax
/// functions take, so that callers pass any static or dynamic form and the
/// callee checks the dims itself.
static Type dynamicForm(Type type) {
  if (auto ranked = dyn_cast<MemRefType>(type))
    return MemRefType::get(
        SmallVector<int64_t>(ranked.getRank(), ShapedType::kDynamic),
        ranked.getElementType());
  return type;
}

/// A short `file:line:col` for messages about match_cast sites.
static std::string describeLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()) + ":" + Twine(file.getColumn()))
        .str();
  return "<unknown location>";
}

namespace {
/// Where a variable got its value, for "n = 3 from 'x' dim 0" messages.
struct BindingSite {
  std::string what; // "'x'" or "match_cast at f.mlir:3:8"
  int64_t dim;
};

/// Per lowered function, which results are buffers it allocated and hands
/// to its caller (true), as opposed to views of its arguments or constants,
/// which the caller must not free.
using OwnedResultsMap = llvm::StringMap<SmallVector<bool>>;

class FunctionLowering {
public:
  FunctionLowering(FuncOp src, const RelaxLowerShapesOptions &options,
                   unsigned &messageCounter,
                   const llvm::StringMap<func::FuncOp> &externs,
                   OwnedResultsMap &ownedResults)
      : src(src), options(options), builder(src.getContext()),
        messageCounter(messageCounter), externs(externs),
        ownedResults(ownedResults) {}

  LogicalResult run();

private:
  LogicalResult lowerSignature();
  SmallVector<bool> bindVars(Value memref, RelaxTensorType type,
                             StringRef what);
  LogicalResult checkDims(Value memref, RelaxTensorType type, StringRef what,
                          bool isArgument, ArrayRef<bool> binds);
  LogicalResult lowerOp(Operation *op);
  func::FuncOp lookupLoweredCallee(Operation *op, StringRef name);
  FailureOr<SmallVector<Value>>
  emitTirVars(Operation *op, std::optional<ShapeExprAttr> vars,
              const std::string &site);
  LogicalResult lowerCallTIR(CallTIROp op);
  LogicalResult lowerCallTIRInplace(CallTIRInplaceOp op);
  LogicalResult lowerIf(IfOp op);
  FailureOr<SmallVector<Value>> bindJoinedLeaves(Block *block,
                                                 ArrayRef<Type> leafRelax,
                                                 const std::string &what);
  LogicalResult lowerBranch(IfOp op, Block &branch, Block *target,
                            Block *merge);
  Value copyToFresh(Value buffer, Location loc, StringRef site = "relax.if");
  LogicalResult lowerWhile(WhileOp op);
  FailureOr<Value> loadCondition(Value cond, Operation *op);
  LogicalResult lowerCallDPSPacked(CallDPSPackedOp op);
  LogicalResult lowerMatchCast(MatchCastOp op);
  LogicalResult lowerView(ViewOp op);
  LogicalResult lowerAssertDims(AssertDimsOp op);
  LogicalResult lowerAssertIndices(AssertIndicesOp op);
  LogicalResult lowerTensorToShape(TensorToShapeOp op);
  Value stageOnHost(Value tensor, Location loc);
  void freeStaging(Value staging, Location loc);
  Value loadAsI64(Value buffer, ValueRange indices, Location loc);
  void checkSymBounds(ArrayRef<std::string> vars);
  LogicalResult lowerConstant(ConstantOp op);
  LogicalResult lowerCall(CallOp op);
  LogicalResult lowerReturn(ReturnOp op);
  FailureOr<SmallVector<Value>> lookupLeaves(Operation *op, Value value);
  void mapLeaves(Value value, ArrayRef<Value> leaves);

  Value dimValue(Value memref, int64_t d);
  memref::AllocOp allocLike(Value memref, Location loc,
                            IntegerAttr alignment = {});
  Value emitExpr(const sym::Expr &expr, StringRef context);
  Value checkedSizeMul(Value a, Value b, StringRef context);
  FailureOr<Value> allocate(Location loc, Type relaxType, StringRef what,
                            Attribute arenaOffset = {},
                            bool intermediate = false);
  FailureOr<SmallVector<Value>> allocateOutputs(Operation *op,
                                                StringRef site,
                                                ArrayRef<bool> skip = {});
  LogicalResult allocateArena();
  void freeBuffer(Value buffer, Location loc);
  void addOwned(Value buffer, Value bytes);
  void freeDeadBuffers(Operation *op);
  void recordPlan(Location loc);
  void callMemoryCounter(StringRef name, Value bytes, Location loc);
  func::FuncOp declareRuntimeFunction(StringRef name, FunctionType type,
                                      bool cInterface = false);
  Value castTo(Value value, Type type);
  void emitCheck(Value actual, Value expected, const std::string &format);
  void emitFailure(Value bad, const std::string &format, Value first,
                   Value second);
  void failIfNull(Value buffer, Location loc, const std::string &format,
                  Value value);
  void reportError(Value first, Value second, const std::string &format);
  /// emitFailure with the values first, as the contract checks read.
  void emitCheckIf(Value bad, Value actual, Value expected,
                   const std::string &format) {
    emitFailure(bad, format, actual, expected);
  }
  void flushChecks();
  void checkRuntimeErrorSlot(Location loc);
  Block *getFailBlock();
  FailureOr<SmallVector<Value>> callArgs(Operation *op, ValueRange inputs,
                                         ArrayRef<Value> outputs,
                                         ArrayRef<Value> extra,
                                         func::FuncOp callee);

  FuncOp src;
  const RelaxLowerShapesOptions &options;
  func::FuncOp dst;
  OpBuilder builder;
  unsigned &messageCounter;
  /// extern.func symbol -> the C-interface declaration replacing it.
  const llvm::StringMap<func::FuncOp> &externs;
  OwnedResultsMap &ownedResults;
  IRMapping mapping;
  llvm::StringMap<Value> env;
  llvm::StringMap<BindingSite> sites;
  /// Tuple-typed relax values -> their lowered leaves (appendLeafTypes).
  llvm::DenseMap<Value, SmallVector<Value>> tuples;
  SmallVector<Value> ownedBuffers;       // allocations this function made
  llvm::DenseMap<Value, Value> aliasRoot; // casts -> the buffer they view
  /// Byte sizes of owned intermediates counted in the runtime's memory
  /// counters (record-memory).
  llvm::DenseMap<Value, Value> countedBytes;
  Value pendingFailure;
  /// Failure exits by the version of ownedBuffers they free (bumped at
  /// every change): checks between two changes share one.
  unsigned ownedVersion = 0;
  llvm::DenseMap<unsigned, Block *> failBlocks;
  Block *exitBlock = nullptr;
  /// Liveness of the source function's buffers (free-after-last-use).
  std::optional<BufferLiveness> liveness;
  /// The function's arena (relax.memory_plan) and its runtime cache key.
  Value arena, arenaKey;
  DictionaryAttr plan;
};
} // namespace

Value FunctionLowering::dimValue(Value memref, int64_t d) {
  return memref::DimOp::create(builder, memref.getLoc(), memref, d);
}

/// A new dense allocation of `memref`'s shape (its dynamic dims read from
/// it) and element type.
memref::AllocOp FunctionLowering::allocLike(Value memref, Location loc,
                                            IntegerAttr alignment) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(dimValue(memref, d));
  return memref::AllocOp::create(
      builder, loc, MemRefType::get(type.getShape(), type.getElementType()),
      dynamicSizes, alignment);
}

/// printf-safe copy of text that goes into a message format.
static std::string escapePercent(const Twine &text) {
  std::string out;
  for (char c : text.str()) {
    out.push_back(c);
    if (c == '%')
      out.push_back('%');
  }
  return out;
}

/// Emits `expr` with overflow and zero-divisor checks; a failure names the
/// function, `context` (what the value is for) and the expression.
Value FunctionLowering::emitExpr(const sym::Expr &expr, StringRef context) {
  std::string prefix = escapePercent(src.getSymName().str() + ": " + context +
                                     ": " + (expr ? expr.str() : "") + ": ");
  return emitCheckedSymExpr(
      builder, src.getLoc(), expr,
      [&](StringRef var) { return env.lookup(var); },
      [&](Value bad, StringRef what, Value lhs, Value rhs) {
        emitFailure(bad, prefix + what.str(), lhs, rhs);
      });
}

/// a * b on sizes (index values), failing with "`context`: a * b overflows
/// int64" instead of wrapping.
Value FunctionLowering::checkedSizeMul(Value a, Value b, StringRef context) {
  Location loc = src.getLoc();
  Type i64 = builder.getI64Type();
  Value x = arith::IndexCastOp::create(builder, loc, i64, a);
  Value y = arith::IndexCastOp::create(builder, loc, i64, b);
  auto wide = arith::MulSIExtendedOp::create(builder, loc, x, y);
  Value sign = arith::ShRSIOp::create(
      builder, loc, wide.getLow(),
      arith::ConstantIntOp::create(builder, loc, i64, 63));
  Value bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                    wide.getHigh(), sign);
  emitFailure(bad,
              escapePercent(src.getSymName().str() + ": " + context) +
                  ": %lld * %lld overflows int64",
              x, y);
  return arith::MulIOp::create(builder, loc, a, b);
}

Value FunctionLowering::castTo(Value value, Type type) {
  if (value.getType() == type)
    return value;
  Value cast = memref::CastOp::create(builder, value.getLoc(), type, value);
  aliasRoot[cast] = aliasRoot.lookup(value) ? aliasRoot.lookup(value) : value;
  return cast;
}

/// The failure exit for a check at the current point. The shared exit
/// returns poison results, which callers never read (they test the error
/// slot); a check made while the function owns buffers first frees them
/// all (none reaches the caller) and then branches there.
Block *FunctionLowering::getFailBlock() {
  OpBuilder::InsertionGuard guard(builder);
  Location loc = src.getLoc();
  if (!exitBlock) {
    exitBlock = builder.createBlock(&dst.getBody(), dst.getBody().end());
    SmallVector<Value> poison;
    for (Type t : dst.getResultTypes())
      poison.push_back(ub::PoisonOp::create(builder, loc, t));
    func::ReturnOp::create(builder, loc, poison);
  }
  if (ownedBuffers.empty())
    return exitBlock;
  Block *&failBlock = failBlocks[ownedVersion];
  if (failBlock)
    return failBlock;
  failBlock = builder.createBlock(&dst.getBody(), dst.getBody().end());
  llvm::SmallPtrSet<Value, 8> freed;
  for (Value buffer : ownedBuffers)
    if (freed.insert(buffer).second)
      freeBuffer(buffer, loc);
  cf::BranchOp::create(builder, loc, exitBlock);
  return failBlock;
}

/// Frees an owned buffer: the arena goes back to the runtime's cache (or is
/// deallocated), other buffers are deallocated; counted ones are uncounted.
void FunctionLowering::freeBuffer(Value buffer, Location loc) {
  if (buffer == arena && arenaKey) {
    func::CallOp::create(builder, loc, kReleaseArenaFn, TypeRange(),
                         ValueRange{arenaKey, buffer});
  } else if (isa<MemRefType>(buffer.getType())) {
    memref::DeallocOp::create(builder, loc, buffer);
  } else {
    return;
  }
  if (Value bytes = countedBytes.lookup(buffer))
    callMemoryCounter(kMemoryFreeFn, bytes, loc);
}

/// relax_rt_memory_alloc / relax_rt_memory_free (record-memory).
void FunctionLowering::callMemoryCounter(StringRef name, Value bytes,
                                         Location loc) {
  declareRuntimeFunction(name,
                         builder.getFunctionType({builder.getI64Type()}, {}));
  func::CallOp::create(builder, loc, name, TypeRange(), ValueRange{bytes});
}

/// Takes ownership of `buffer`; with record-memory and `bytes`, counts it as
/// an intermediate.
void FunctionLowering::addOwned(Value buffer, Value bytes) {
  ownedBuffers.push_back(buffer);
  ++ownedVersion;
  if (!bytes || !options.recordMemory)
    return;
  Value asI64 = bytes.getType().isIndex()
                    ? arith::IndexCastOp::create(builder, src.getLoc(),
                                                 builder.getI64Type(), bytes)
                          .getResult()
                    : bytes;
  countedBytes[buffer] = asI64;
  callMemoryCounter(kMemoryAllocFn, asI64, src.getLoc());
}

/// Frees, right after `op`, the owned buffers whose last reader `op` is and
/// that nothing else may still see (not returned, not given to a call).
void FunctionLowering::freeDeadBuffers(Operation *op) {
  if (!liveness || !options.freeAfterLastUse || isa<ReturnOp>(op))
    return;
  for (Value value : liveness->getDying(op)) {
    if (liveness->escapes(value) || liveness->isPinned(value))
      continue;
    Value buffer = mapping.lookupOrNull(value);
    buffer = aliasRoot.lookup(buffer) ? aliasRoot.lookup(buffer) : buffer;
    auto it = llvm::find(ownedBuffers, buffer);
    if (!buffer || it == ownedBuffers.end() || buffer == arena)
      continue;
    ownedBuffers.erase(it);
    ++ownedVersion;
    freeBuffer(buffer, op->getLoc());
  }
}

/// A private declaration of a runtime function, created on first use.
func::FuncOp FunctionLowering::declareRuntimeFunction(StringRef name,
                                                      FunctionType type,
                                                      bool cInterface) {
  auto module = src->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name, type);
  decl.setPrivate();
  if (cInterface)
    decl->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  return decl;
}

/// Allocates the arena of a planned function at entry, once its parameters
/// are checked. With reuse-arena it comes from the runtime's cache, keyed by
/// a private global of this function, and is allocated at least at the
/// plan's bound: a function whose sizes are all bounded allocates once.
LogicalResult FunctionLowering::allocateArena() {
  plan = src->getAttrOfType<DictionaryAttr>(kMemoryPlanAttrName);
  if (!plan)
    return success();
  auto arenaSize = plan.getAs<SymExprAttr>("arena");
  if (!arenaSize)
    return src.emitOpError("memory plan has no arena size");
  Location loc = src.getLoc();
  std::string fn = src.getSymName().str();
  Value bytes = emitExpr(arenaSize.getExpr(), "arena size");
  if (!bytes)
    return src.emitOpError("arena size uses a variable not bound at entry");
  flushChecks();
  auto type = MemRefType::get({ShapedType::kDynamic}, builder.getI8Type());
  Type i64 = builder.getI64Type();
  Value bytes64 = arith::IndexCastOp::create(builder, loc, i64, bytes);
  if (options.reuseArena) {
    auto module = src->getParentOfType<ModuleOp>();
    auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
    std::string keyName = "__relax_arena_key_" + std::to_string(messageCounter++);
    LLVM::GlobalOp key;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(module.getBody());
      key = LLVM::GlobalOp::create(builder, loc, builder.getI8Type(),
                                   /*isConstant=*/false,
                                   LLVM::Linkage::Internal, keyName,
                                   builder.getI8IntegerAttr(0));
    }
    declareRuntimeFunction(kAcquireArenaFn,
                           builder.getFunctionType({ptr, i64, i64}, {type}),
                           /*cInterface=*/true);
    declareRuntimeFunction(kReleaseArenaFn,
                           builder.getFunctionType({ptr, type}, {}),
                           /*cInterface=*/true);
    arenaKey = LLVM::AddressOfOp::create(builder, loc, key);
    auto boundAttr = plan.getAs<IntegerAttr>("bound");
    Value capacity = arith::ConstantIntOp::create(
        builder, loc, i64, boundAttr ? boundAttr.getInt() : 0);
    arena = func::CallOp::create(builder, loc, kAcquireArenaFn, TypeRange{type},
                                 ValueRange{arenaKey, bytes64, capacity})
                .getResult(0);
  } else {
    arena = memref::AllocOp::create(builder, loc, type, ValueRange{bytes},
                                    builder.getI64IntegerAttr(kArenaAlignment));
  }
  failIfNull(arena, loc,
             escapePercent(fn + ": cannot allocate ") +
                 "%lld bytes for the arena: out of memory",
             bytes64);
  addOwned(arena, bytes64);
  return success();
}

/// Tells the runtime what this call's plan came to (record-memory): the
/// arena and, for comparison, every intermediate held until return.
void FunctionLowering::recordPlan(Location loc) {
  Type i64 = builder.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  declareRuntimeFunction(
      kMemoryPlanFn,
      builder.getFunctionType({ptr, ptr, i64, ptr, i64, i64, i64, i64, i64},
                              {}));
  auto text = [&](StringRef value) {
    std::string s = value.str();
    s.push_back('\0');
    return LLVM::createGlobalString(
        loc, builder, "__relax_msg_" + std::to_string(messageCounter++), s,
        LLVM::Linkage::Internal);
  };
  auto integer = [&](StringRef key) -> Value {
    auto attr = plan.getAs<IntegerAttr>(key);
    return arith::ConstantIntOp::create(builder, loc, i64,
                                        attr ? attr.getInt() : -1);
  };
  sym::Expr arenaExpr = plan.getAs<SymExprAttr>("arena").getExpr();
  sym::Expr unplanned = plan.getAs<SymExprAttr>("unplanned")
                            ? plan.getAs<SymExprAttr>("unplanned").getExpr()
                            : sym::Expr::constant(0);
  Value unplannedBytes = emitExpr(unplanned, "unplanned intermediate bytes");
  flushChecks();
  if (!unplannedBytes)
    unplannedBytes = arith::ConstantIndexOp::create(builder, loc, -1);
  Value arenaBytes = arith::IndexCastOp::create(
      builder, loc, i64, memref::DimOp::create(builder, loc, arena, 0));
  func::CallOp::create(
      builder, loc, kMemoryPlanFn, TypeRange(),
      ValueRange{text(src.getSymName()), text(arenaExpr.str()), arenaBytes,
                 text(unplanned.str()),
                 arith::IndexCastOp::create(builder, loc, i64, unplannedBytes),
                 integer("storages"), integer("planned"),
                 integer("intermediates"),
                 // The bound is what the arena is allocated at only when it
                 // comes from the cache.
                 options.reuseArena
                     ? integer("bound")
                     : arith::ConstantIntOp::create(builder, loc, i64, -1)});
}

/// Records `actual != expected` as a failure: the message goes to the runtime
/// right away (only the first one is kept there), the branch to the failure
/// exit happens at the next flushChecks().
void FunctionLowering::emitCheck(Value actual, Value expected,
                                 const std::string &format) {
  Value bad = arith::CmpIOp::create(builder, src.getLoc(),
                                    arith::CmpIPredicate::ne, actual, expected);
  emitFailure(bad, format, actual, expected);
}

/// Records `bad` as a failure with `format`'s message, which reads `first`
/// and `second` (index or i64 values) as its two %lld conversions.
void FunctionLowering::emitFailure(Value bad, const std::string &format,
                                   Value first, Value second) {
  Location loc = src.getLoc();
  auto ifOp = scf::IfOp::create(builder, loc, bad, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    reportError(first, second, format);
  }
  pendingFailure =
      pendingFailure ? arith::OrIOp::create(builder, loc, pendingFailure, bad)
                     : bad;
}

/// Calls the runtime's error slot with `format` and two index or i64 values.
void FunctionLowering::reportError(Value actual, Value expected,
                                   const std::string &format) {
  Location loc = src.getLoc();
  std::string name = "__relax_msg_" + std::to_string(messageCounter++);
  std::string text = format;
  text.push_back('\0');
  Value message = LLVM::createGlobalString(loc, builder, name, text,
                                           LLVM::Linkage::Internal);
  Type i64 = builder.getI64Type();
  auto toI64 = [&](Value v) -> Value {
    if (v.getType() == i64)
      return v;
    return arith::IndexCastOp::create(builder, loc, i64, v);
  };
  func::CallOp::create(builder, loc, kShapeErrorFn, TypeRange(),
                       ValueRange{message, toI64(actual), toI64(expected)});
}

/// A failed allocation of `buffer` (a null pointer) is a recorded error,
/// `format` printing `value`, rather than a crash at its first use; the
/// checks are flushed, so code after this never sees the null buffer.
void FunctionLowering::failIfNull(Value buffer, Location loc,
                                  const std::string &format, Value value) {
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, buffer);
  Value null = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, pointer,
      arith::ConstantIndexOp::create(builder, loc, 0));
  emitFailure(null, format, value, value);
  flushChecks();
}

void FunctionLowering::flushChecks() {
  if (!pendingFailure)
    return;
  Block *current = builder.getInsertionBlock();
  Block *rest = current->splitBlock(builder.getInsertionPoint());
  builder.setInsertionPointToEnd(current);
  cf::CondBranchOp::create(builder, src.getLoc(), pendingFailure,
                           getFailBlock(), rest);
  builder.setInsertionPointToStart(rest);
  pendingFailure = Value();
}

/// Adds "the runtime's error slot is set" to the pending failure: after a
/// call that reports errors there (a library call, a relax function, an
/// index check), so that the function stops before using its results.
void FunctionLowering::checkRuntimeErrorSlot(Location loc) {
  declareRuntimeFunction(kHasErrorFn,
                         builder.getFunctionType({}, {builder.getI32Type()}));
  Value hasError =
      func::CallOp::create(builder, loc, kHasErrorFn,
                           TypeRange{builder.getI32Type()}, ValueRange())
          .getResult(0);
  Value failed = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::ne, hasError,
      arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0));
  pendingFailure = pendingFailure
                       ? arith::OrIOp::create(builder, loc, pendingFailure,
                                              failed)
                       : failed;
}

/// Binds the bare variables of `type` that are still unbound from `memref`'s
/// runtime dims. Returns which dims were binding occurrences.
SmallVector<bool> FunctionLowering::bindVars(Value memref,
                                             RelaxTensorType type,
                                             StringRef what) {
  SmallVector<bool> binds(type.hasRank() ? type.getRank() : 0, false);
  for (auto [d, dim] : llvm::enumerate(type.getDims())) {
    if (!dim || !dim.isVar() || env.count(dim.getVarName()))
      continue;
    env[dim.getVarName()] = dimValue(memref, d);
    sites[dim.getVarName()] = {what.str(), static_cast<int64_t>(d)};
    binds[d] = true;
  }
  return binds;
}

/// Checks every dim of `memref` that is not a binding occurrence against its
/// expression under the current bindings.
LogicalResult FunctionLowering::checkDims(Value memref, RelaxTensorType type,
                                          StringRef what, bool isArgument,
                                          ArrayRef<bool> binds) {
  std::string fn = src.getSymName().str();
  for (auto [d, dim] : llvm::enumerate(type.getDims())) {
    if (!dim || binds[d])
      continue;
    Value expected =
        emitExpr(dim, ((isArgument ? "argument " : "") + what + " dim " +
                       Twine(d))
                          .str());
    if (!expected)
      return src.emitOpError("cannot lower: a variable of ")
             << dim.str() << " is not bound";
    std::string format;
    llvm::raw_string_ostream os(format);
    StringRef prefix = isArgument ? "argument " : "";
    if (dim.isVar()) {
      const BindingSite &site = sites[dim.getVarName()];
      os << fn << ": " << dim.getVarName() << " = %2$lld from " << site.what
         << " dim " << site.dim << ", but " << what << " dim " << d << " = "
         << dim.getVarName() << " is %1$lld";
    } else if (dim.getConstant()) {
      os << fn << ": " << prefix << what << " dim " << d
         << ": expected %2$lld, got %1$lld";
    } else {
      os << fn << ": " << prefix << what << " dim " << d << ": expected "
         << dim.str() << " = %2$lld, got %1$lld";
    }
    emitCheck(dimValue(memref, d), expected, format);
  }
  return success();
}

/// Names the leaves of a parameter for messages: "'kv'" for a tensor,
/// "'kv' field 1.0" for field 0 of field 1 of a tuple.
static void appendLeafNames(Type type, const std::string &name,
                            const std::string &path,
                            SmallVectorImpl<std::string> &names) {
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple) {
    names.push_back(path.empty() ? name : name + " field " + path);
    return;
  }
  for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
    appendLeafNames(field, name,
                    path.empty() ? std::to_string(i)
                                 : path + "." + std::to_string(i),
                    names);
}

LogicalResult FunctionLowering::lowerSignature() {
  // Parameters are fully dynamic memrefs: every dim, static ones included,
  // is checked against the descriptor the caller passed. A tuple parameter
  // is its leaves, one memref each (appendLeafTypes).
  SmallVector<Type> inputs, staticInputs, results, leafRelaxTypes;
  SmallVector<std::string> names;
  Block &srcEntry = src.getBody().front();
  for (auto [i, t] : llvm::enumerate(src.getArgumentTypes())) {
    auto name = src.getArgAttrOfType<StringAttr>(i, "relax.name");
    appendLeafNames(t,
                    name ? ("'" + name.getValue() + "'").str()
                         : "#" + std::to_string(i),
                    "", names);
    for (Type leaf : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(leaf);
      if (failed(converted))
        return src.emitOpError("parameter #")
               << i << " of type " << t
               << " cannot be lowered to host code yet";
      leafRelaxTypes.push_back(leaf);
      staticInputs.push_back(*converted);
      inputs.push_back(dynamicForm(*converted));
    }
  }
  for (auto [i, t] : llvm::enumerate(src.getResultTypes())) {
    for (Type field : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(field);
      if (failed(converted))
        return src.emitOpError("result #")
               << i << " of type " << t << " cannot be lowered yet";
      results.push_back(*converted);
    }
  }
  builder.setInsertionPoint(src);
  dst = func::FuncOp::create(builder, src.getLoc(), src.getSymName(),
                             builder.getFunctionType(inputs, results));
  if (src.getSymVisibility())
    dst.setSymVisibilityAttr(src.getSymVisibilityAttr());
  // Argument attributes (relax.name) have served the check messages; they
  // are not carried over, LLVM would not know them.
  Block *entry = dst.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  // Bind the variables of all parameters before checking any dim, so that
  // `f(x: [n + 1], y: [n])` checks x against the n that y binds.
  SmallVector<SmallVector<bool>> binds;
  for (auto [i, leaf] : llvm::enumerate(leafRelaxTypes)) {
    auto tensor = dyn_cast<RelaxTensorType>(leaf);
    binds.push_back(tensor && tensor.hasRank()
                        ? bindVars(entry->getArgument(i), tensor, names[i])
                        : SmallVector<bool>());
  }
  for (auto [i, leaf] : llvm::enumerate(leafRelaxTypes)) {
    auto tensor = dyn_cast<RelaxTensorType>(leaf);
    if (tensor && tensor.hasRank() &&
        failed(checkDims(entry->getArgument(i), tensor, names[i],
                         /*isArgument=*/true, binds[i])))
      return failure();
  }
  SmallVector<std::string> bound;
  for (auto &entry : env)
    bound.push_back(entry.getKey().str());
  checkSymBounds(bound);
  flushChecks();
  unsigned next = 0;
  for (BlockArgument arg : srcEntry.getArguments()) {
    SmallVector<Value> leaves;
    for (size_t n = leafTypes(arg.getType()).size(); n > 0; --n, ++next)
      leaves.push_back(castTo(entry->getArgument(next), staticInputs[next]));
    mapLeaves(arg, leaves);
  }
  return success();
}

/// The lowered leaves of `value`: its memref, or a tuple's leaves.
FailureOr<SmallVector<Value>> FunctionLowering::lookupLeaves(Operation *op,
                                                             Value value) {
  if (!isa<TupleType>(value.getType())) {
    Value lowered = mapping.lookupOrNull(value);
    if (!lowered)
      return op->emitOpError("uses a value that was not lowered");
    return SmallVector<Value>{lowered};
  }
  auto it = tuples.find(value);
  if (it == tuples.end())
    return op->emitOpError("uses a tuple that was not lowered");
  return it->second;
}

/// Records the lowered leaves of `value` (one for a non-tuple).
void FunctionLowering::mapLeaves(Value value, ArrayRef<Value> leaves) {
  if (isa<TupleType>(value.getType()))
    tuples[value] = llvm::to_vector(leaves);
  else
    mapping.map(value, leaves.front());
}

/// Allocates an output; `what` names it in messages ("call_tir @f output 0
/// at f.mlir:3:8"). The dims, the element count and the byte size are
/// overflow-checked before allocating (memref.alloc would multiply them
/// wrapping), and a null pointer from the allocator is a recorded error
/// rather than a crash at the first store. With an `arenaOffset`
/// (#relax.expr) the buffer is a view of the function's arena at that byte
/// offset; an `intermediate` buffer is counted under record-memory.
FailureOr<Value> FunctionLowering::allocate(Location loc, Type relaxType,
                                            StringRef what,
                                            Attribute arenaOffset,
                                            bool intermediate) {
  auto tensor = dyn_cast<RelaxTensorType>(relaxType);
  if (!tensor || !tensor.getShape().isFullyKnown())
    return emitError(loc, "cannot allocate an output of type ")
           << relaxType << ": every dim must be known (use match_cast)";
  auto memrefType = cast<MemRefType>(*convertRelaxType(tensor));
  std::string typeText;
  llvm::raw_string_ostream(typeText) << relaxType;
  std::string described = (what + " " + typeText).str();
  SmallVector<Value> dynSizes;
  Value elements;
  for (auto [d, dim] : llvm::enumerate(tensor.getDims())) {
    Value size;
    if (memrefType.isDynamicDim(d)) {
      size = emitExpr(dim, (what + " dim " + Twine(d)).str());
      if (!size)
        return emitError(loc, "cannot allocate: a variable of ")
               << dim.str() << " is not bound";
      // A dim expression such as `w - 1` is negative for some bindings
      // that no op contract excludes; allocating with it would wrap.
      if (symContextAt(src).isLE(sym::Expr::constant(0), dim) !=
          sym::Truth::True) {
        Type i64 = builder.getI64Type();
        Value value = arith::IndexCastOp::create(builder, loc, i64, size);
        Value zero = arith::ConstantIntOp::create(builder, loc, i64, 0);
        emitFailure(arith::CmpIOp::create(builder, loc,
                                          arith::CmpIPredicate::slt, value,
                                          zero),
                    escapePercent(src.getSymName().str() + ": " + described +
                                  " dim " + Twine(d).str() + " = " +
                                  dim.str()) +
                        " is %lld (negative)",
                    value, zero);
      }
      dynSizes.push_back(size);
    } else {
      size = arith::ConstantIndexOp::create(builder, loc,
                                            memrefType.getDimSize(d));
    }
    elements = elements ? checkedSizeMul(elements, size,
                                         "element count of " + described)
                        : size;
  }
  if (!elements)
    elements = arith::ConstantIndexOp::create(builder, loc, 1);
  int64_t elementBytes = (memrefType.getElementTypeBitWidth() + 7) / 8;
  Value bytes = checkedSizeMul(
      elements, arith::ConstantIndexOp::create(builder, loc, elementBytes),
      "byte size of " + described);
  if (auto offset = dyn_cast_or_null<SymExprAttr>(arenaOffset)) {
    if (!arena)
      return emitError(loc, "has an arena offset but the function has no "
                            "memory plan (relax.memory_plan)");
    // The planner sized the slot; the offset is within the arena and
    // 64-byte aligned (relax-verify-memory-plan proves both).
    Value shift = emitExpr(offset.getExpr(), "arena offset of " + described);
    if (!shift)
      return emitError(loc, "arena offset uses an unbound variable");
    flushChecks();
    return memref::ViewOp::create(builder, loc, memrefType, arena, shift,
                                  dynSizes)
        .getResult();
  }
  flushChecks(); // never allocate with a wrapped size
  // 64-byte alignment lets the vectoriser use aligned AVX-512 accesses.
  Value buffer = memref::AllocOp::create(builder, loc, memrefType, dynSizes,
                                         builder.getI64IntegerAttr(64));
  failIfNull(buffer, loc,
             escapePercent(src.getSymName().str() + ": cannot allocate ") +
                 "%lld bytes" +
                 escapePercent(" for " + described + ": out of memory"),
             bytes);
  addOwned(buffer, intermediate ? bytes : Value());
  return buffer;
}

/// The outputs of a call_tir or call_dps_packed: views of the arena where
/// the plan placed them (relax.arena_offsets), allocations otherwise.
FailureOr<SmallVector<Value>>
FunctionLowering::allocateOutputs(Operation *op, StringRef site,
                                  ArrayRef<bool> skip) {
  auto offsets = op->getAttrOfType<ArrayAttr>(kArenaOffsetsAttrName);
  if (offsets && offsets.size() != op->getNumResults())
    return op->emitOpError("has ")
           << offsets.size() << " arena offsets for " << op->getNumResults()
           << " results";
  SmallVector<Value> outputs;
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    if (i < skip.size() && skip[i])
      continue;
    bool intermediate = liveness && !liveness->escapes(result);
    FailureOr<Value> buffer =
        allocate(op->getLoc(), result.getType(),
                 ("output " + Twine(i) + " of " + site).str(),
                 offsets ? offsets[i] : Attribute(), intermediate);
    if (failed(buffer))
      return failure();
    outputs.push_back(*buffer);
  }
  return outputs;
}

FailureOr<SmallVector<Value>>
FunctionLowering::callArgs(Operation *op, ValueRange inputs,
                           ArrayRef<Value> outputs, ArrayRef<Value> extra,
                           func::FuncOp callee) {
  SmallVector<Value> args;
  for (Value v : inputs)
    args.push_back(mapping.lookup(v));
  llvm::append_range(args, outputs);
  llvm::append_range(args, extra);
  ArrayRef<Type> params = callee.getArgumentTypes();
  if (params.size() != args.size())
    return op->emitOpError("callee '")
           << callee.getSymName() << "' takes " << params.size()
           << " arguments after lowering, the call has " << args.size();
  for (auto [arg, type] : llvm::zip(args, params)) {
    if (arg.getType() == type)
      continue;
    if (!isa<BaseMemRefType>(arg.getType()) || !isa<BaseMemRefType>(type) ||
        !memref::CastOp::areCastCompatible(arg.getType(), type))
      return op->emitOpError("cannot pass ")
             << arg.getType() << " to parameter of type " << type;
    arg = castTo(arg, type);
  }
  return args;
}

/// The func.func a call_tir / call_tir_inplace calls, once its tir program
/// is lowered; null (with an error on `op`) before convert-tir-to-scf.
func::FuncOp FunctionLowering::lookupLoweredCallee(Operation *op,
                                                   StringRef name) {
  auto module = op->getParentOfType<ModuleOp>();
  auto callee = module.lookupSymbol<func::FuncOp>(name);
  if (!callee)
    op->emitOpError("callee '")
        << name
        << "' is not lowered yet: run convert-tir-to-scf before "
           "relax-lower-shapes";
  return callee;
}

/// The index values of a call's `tir_vars`, the callee's trailing
/// parameters.
FailureOr<SmallVector<Value>>
FunctionLowering::emitTirVars(Operation *op, std::optional<ShapeExprAttr> vars,
                              const std::string &site) {
  SmallVector<Value> values;
  if (!vars)
    return values;
  for (const sym::Expr &e : vars->getShape().getDims()) {
    Value v = emitExpr(e, "tir_vars of " + site);
    if (!v)
      return op->emitOpError("tir_vars uses an unbound variable");
    values.push_back(v);
  }
  return values;
}

LogicalResult FunctionLowering::lowerCallTIR(CallTIROp op) {
  func::FuncOp callee = lookupLoweredCallee(op, op.getCallee());
  if (!callee)
    return failure();
  std::string site =
      ("call_tir @" + op.getCallee() + " at " + describeLoc(op.getLoc())).str();
  FailureOr<SmallVector<Value>> allocated = allocateOutputs(op, site);
  if (failed(allocated))
    return failure();
  SmallVector<Value> outputs = std::move(*allocated);
  FailureOr<SmallVector<Value>> extra =
      emitTirVars(op, op.getTirVars(), site);
  if (failed(extra))
    return failure();
  FailureOr<SmallVector<Value>> args =
      callArgs(op, op.getInputs(), outputs, *extra, callee);
  if (failed(args))
    return failure();
  func::CallOp::create(builder, op.getLoc(), callee, *args);
  for (auto [result, buffer] : llvm::zip(op.getResults(), outputs))
    mapping.map(result, buffer);
  return success();
}

/// The callee writes the updated inputs through their own parameters: only
/// the fresh outputs are allocated (or placed in the arena), and an updated
/// result is its input's buffer, whoever owns it (an argument stays the
/// caller's).
LogicalResult FunctionLowering::lowerCallTIRInplace(CallTIRInplaceOp op) {
  func::FuncOp callee = lookupLoweredCallee(op, op.getCallee());
  if (!callee)
    return failure();
  std::string site = ("call_tir_inplace @" + op.getCallee() + " at " +
                      describeLoc(op.getLoc()))
                         .str();
  SmallVector<bool> aliased;
  for (unsigned i = 0; i < op.getNumResults(); ++i)
    aliased.push_back(static_cast<bool>(op.getAliasedInput(i)));
  FailureOr<SmallVector<Value>> outputs = allocateOutputs(op, site, aliased);
  if (failed(outputs))
    return failure();
  FailureOr<SmallVector<Value>> extra =
      emitTirVars(op, op.getTirVars(), site);
  if (failed(extra))
    return failure();
  FailureOr<SmallVector<Value>> args =
      callArgs(op, op.getInputs(), *outputs, *extra, callee);
  if (failed(args))
    return failure();
  func::CallOp::create(builder, op.getLoc(), callee, *args);
  unsigned next = 0;
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (Value input = op.getAliasedInput(i))
      mapping.map(result, mapping.lookup(input));
    else
      mapping.map(result, (*outputs)[next++]);
  }
  return success();
}

/// A new allocation holding a copy of `buffer` (a ranked memref), owned by
/// the function.
Value FunctionLowering::copyToFresh(Value buffer, Location loc,
                                    StringRef site) {
  Value copy = allocLike(buffer, loc, builder.getI64IntegerAttr(64));
  failIfNull(copy, loc,
             escapePercent(src.getSymName().str() + ": " + site + " at " +
                           describeLoc(loc)) +
                 ": cannot allocate the copy of a yielded value: out of "
                 "memory",
             arith::ConstantIndexOp::create(builder, loc, 0));
  memref::CopyOp::create(builder, loc, buffer, copy)
      ->setAttr(kBufferCopyAttrName, builder.getUnitAttr());
  addOwned(copy, Value());
  return copy;
}

/// Lowers one branch of `op` into `target`, which ends branching to `merge`
/// with the yielded leaves. The merge block's arguments own their buffers
/// whichever branch ran: a yielded buffer the branch allocated is handed
/// over, any other (an argument, a constant, an outer or arena buffer) is
/// copied. What the branch allocated and does not yield is freed at its
/// end; its variable bindings end with it.
LogicalResult FunctionLowering::lowerBranch(IfOp op, Block &branch,
                                            Block *target, Block *merge) {
  llvm::StringMap<Value> savedEnv = env;
  llvm::StringMap<BindingSite> savedSites = sites;
  size_t outerOwned = ownedBuffers.size();
  builder.setInsertionPointToStart(target);
  for (Operation &nested : branch.without_terminator())
    if (failed(lowerOp(&nested)))
      return failure();
  builder.setInsertionPointToEnd(builder.getInsertionBlock());
  auto yield = cast<YieldOp>(branch.getTerminator());
  SmallVector<Value> leaves;
  for (Value v : yield.getOperands()) {
    FailureOr<SmallVector<Value>> fieldLeaves = lookupLeaves(yield, v);
    if (failed(fieldLeaves))
      return failure();
    llvm::append_range(leaves, *fieldLeaves);
  }
  ArrayRef<Value> branchOwned = ArrayRef(ownedBuffers).drop_front(outerOwned);
  llvm::SmallPtrSet<Value, 8> handedOver;
  SmallVector<Value> operands;
  for (auto [leaf, arg] : llvm::zip(leaves, merge->getArguments())) {
    Value value = leaf;
    if (isa<BaseMemRefType>(leaf.getType())) {
      Value root = aliasRoot.lookup(leaf) ? aliasRoot.lookup(leaf) : leaf;
      if (!llvm::is_contained(branchOwned, root) ||
          !handedOver.insert(root).second) {
        if (!isa<MemRefType>(leaf.getType()))
          return yield.emitOpError(
              "cannot yield a value of unknown rank that the branch did not "
              "create: match_cast it to a ranked type first");
        value = copyToFresh(leaf, yield.getLoc());
        handedOver.insert(value);
      }
    }
    operands.push_back(castTo(value, arg.getType()));
  }
  // What is handed over leaves the record-memory count here: the join's
  // buffers are not counted (they may be copies).
  for (Value buffer : ArrayRef(ownedBuffers).drop_front(outerOwned)) {
    if (!handedOver.contains(buffer))
      freeBuffer(buffer, yield.getLoc());
    else if (Value bytes = countedBytes.lookup(buffer))
      callMemoryCounter(kMemoryFreeFn, bytes, yield.getLoc());
  }
  cf::BranchOp::create(builder, yield.getLoc(), merge, operands);
  ownedBuffers.resize(outerOwned);
  ++ownedVersion;
  env = std::move(savedEnv);
  sites = std::move(savedSites);
  return success();
}

/// The leaves joined at `block` (a relax.if's merge, a relax.while's header
/// or exit): owned by the function from here, their types' new variables
/// bound from the run-time dims and their other dims checked (as match_cast
/// does), each cast to its relax type's static form. Errors name
/// "<what> leaf <i>".
FailureOr<SmallVector<Value>>
FunctionLowering::bindJoinedLeaves(Block *block, ArrayRef<Type> leafRelax,
                                   const std::string &what) {
  SmallVector<Value> values;
  SmallVector<std::string> bound;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(block->getArguments(), leafRelax))) {
    auto [arg, relaxType] = pair;
    Value value = arg;
    if (isa<BaseMemRefType>(arg.getType()))
      addOwned(arg, Value());
    auto tensor = dyn_cast<RelaxTensorType>(relaxType);
    if (tensor && tensor.hasRank()) {
      std::string leafWhat = what + " leaf " + std::to_string(i);
      SmallVector<bool> binds = bindVars(arg, tensor, leafWhat);
      if (failed(
              checkDims(arg, tensor, leafWhat, /*isArgument=*/false, binds)))
        return failure();
      for (auto [d, dim] : llvm::enumerate(tensor.getDims()))
        if (binds[d])
          bound.push_back(dim.getVarName().str());
      value = castTo(arg, *convertRelaxType(tensor));
    }
    values.push_back(value);
  }
  checkSymBounds(bound);
  flushChecks();
  return values;
}

/// relax.if becomes a conditional branch to two blocks that join at a block
/// whose arguments are the results (cf, not scf.if: the run-time checks
/// inside a branch leave the function through their own failure exits,
/// which scf.if's single-block regions cannot hold). The condition is read
/// from a host copy (a device-to-host transfer under --relax-lower-to-gpu).
/// After the join, the result types' new variables are bound from the run-
/// time dims and their other dims checked, as match_cast does.
LogicalResult FunctionLowering::lowerIf(IfOp op) {
  Location loc = op.getLoc();
  FailureOr<Value> condValue = loadCondition(op.getCond(), op);
  if (failed(condValue))
    return failure();
  Value cond = *condValue;
  SmallVector<Type> leafRelax, resultTypes;
  for (Type t : op.getResultTypes())
    for (Type leaf : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(leaf);
      if (failed(converted))
        return op.emitOpError("result type ") << t << " cannot be lowered";
      leafRelax.push_back(leaf);
      resultTypes.push_back(dynamicForm(*converted));
    }
  Region &body = dst.getBody();
  Block *thenBlock = new Block(), *elseBlock = new Block(),
        *merge = new Block();
  body.push_back(thenBlock);
  body.push_back(elseBlock);
  body.push_back(merge);
  for (Type t : resultTypes)
    merge->addArgument(t, loc);
  cf::CondBranchOp::create(builder, loc, cond, thenBlock, elseBlock);
  if (failed(lowerBranch(op, *op.thenBlock(), thenBlock, merge)) ||
      failed(lowerBranch(op, *op.elseBlock(), elseBlock, merge)))
    return failure();
  builder.setInsertionPointToStart(merge);
  FailureOr<SmallVector<Value>> lowered = bindJoinedLeaves(
      merge, leafRelax, "relax.if at " + describeLoc(loc) + " result");
  if (failed(lowered))
    return failure();
  unsigned next = 0;
  for (Value result : op.getResults()) {
    size_t n = leafTypes(result.getType()).size();
    mapLeaves(result, ArrayRef<Value>(*lowered).slice(next, n));
    next += n;
  }
  return success();
}

/// The i1 value of a rank-0 condition tensor, read from a host copy (a
/// device-to-host transfer under --relax-lower-to-gpu).
FailureOr<Value> FunctionLowering::loadCondition(Value cond, Operation *op) {
  Value buffer = mapping.lookupOrNull(cond);
  if (!buffer || !isa<MemRefType>(buffer.getType()))
    return op->emitOpError("condition was not lowered to a buffer");
  Value staging = stageOnHost(buffer, op->getLoc());
  Value value =
      memref::LoadOp::create(builder, op->getLoc(), staging, ValueRange());
  freeStaging(staging, op->getLoc());
  flushChecks();
  return value;
}

/// relax.while becomes a header block whose arguments are the carried
/// values, entered from before the loop and from the end of each iteration,
/// and an exit block whose arguments are the results: a branch back, never
/// recursion, so a loop of any trip count runs in constant stack.
///
/// Ownership: the header's arguments own their buffers. On entry every
/// initial value is copied (it may be an argument, a constant or a value
/// used after the loop); at the end of an iteration a yielded buffer that
/// the iteration owns (its own allocation or a carried argument) is handed
/// over to the next iteration, any other is copied, and everything else the
/// iteration owns is freed, the carried arguments it replaced included. A
/// failed check inside the body frees what the iteration owns. The carried
/// types' new variables are bound at the top of each iteration from the
/// run-time dims (their other dims checked) and again after the loop.
LogicalResult FunctionLowering::lowerWhile(WhileOp op) {
  Location loc = op.getLoc();
  std::string site = "relax.while at " + describeLoc(loc);
  FailureOr<Value> cond = loadCondition(op.getCond(), op);
  if (failed(cond))
    return failure();
  SmallVector<Type> leafRelax, carriedTypes;
  for (Type t : op.getResultTypes())
    for (Type leaf : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(leaf);
      auto tensor = dyn_cast<RelaxTensorType>(leaf);
      if (failed(converted) || (tensor && !tensor.hasRank()))
        return op.emitOpError("cannot carry a value of type ")
               << t << " (tensors of known rank, tuples of them and "
               << "primitive values can be carried)";
      leafRelax.push_back(leaf);
      carriedTypes.push_back(dynamicForm(*converted));
    }

  // Entry: copies of the initial values, owned by the loop.
  size_t outerOwned = ownedBuffers.size();
  SmallVector<Value> entryOperands;
  {
    SmallVector<Value> leaves;
    for (Value v : op.getInits()) {
      FailureOr<SmallVector<Value>> fieldLeaves = lookupLeaves(op, v);
      if (failed(fieldLeaves))
        return failure();
      llvm::append_range(leaves, *fieldLeaves);
    }
    for (auto [leaf, type] : llvm::zip(leaves, carriedTypes)) {
      Value value = leaf;
      if (isa<MemRefType>(leaf.getType()))
        value = copyToFresh(leaf, loc, "relax.while");
      entryOperands.push_back(castTo(value, type));
    }
  }
  Region &region = dst.getBody();
  Block *header = new Block(), *exit = new Block();
  region.push_back(header);
  region.push_back(exit);
  for (Type t : carriedTypes) {
    header->addArgument(t, loc);
    exit->addArgument(t, loc);
  }
  builder.setInsertionPointToEnd(builder.getInsertionBlock());
  cf::CondBranchOp::create(builder, loc, *cond, header, entryOperands, exit,
                           entryOperands);
  ownedBuffers.resize(outerOwned);
  ++ownedVersion;


  // The body, one iteration.
  {
    llvm::StringMap<Value> savedEnv = env;
    llvm::StringMap<BindingSite> savedSites = sites;
    builder.setInsertionPointToStart(header);
    FailureOr<SmallVector<Value>> carried =
        bindJoinedLeaves(header, leafRelax, site + " carried value");
    if (failed(carried))
      return failure();
    unsigned next = 0;
    for (BlockArgument arg : op.bodyBlock()->getArguments()) {
      size_t n = leafTypes(arg.getType()).size();
      mapLeaves(arg, ArrayRef<Value>(*carried).slice(next, n));
      next += n;
    }
    for (Operation &nested : op.bodyBlock()->without_terminator())
      if (failed(lowerOp(&nested)))
        return failure();
    builder.setInsertionPointToEnd(builder.getInsertionBlock());
    auto yield = cast<LoopYieldOp>(op.bodyBlock()->getTerminator());
    Location yieldLoc = yield.getLoc();
    FailureOr<Value> again = loadCondition(yield.getCond(), yield);
    if (failed(again))
      return failure();
    SmallVector<Value> leaves;
    for (Value v : yield.getValues()) {
      FailureOr<SmallVector<Value>> fieldLeaves = lookupLeaves(yield, v);
      if (failed(fieldLeaves))
        return failure();
      llvm::append_range(leaves, *fieldLeaves);
    }
    SmallVector<Value> iterationOwned(ownedBuffers.begin() + outerOwned,
                                      ownedBuffers.end());
    llvm::SmallPtrSet<Value, 8> handedOver;
    SmallVector<Value> operands;
    for (auto [leaf, type] : llvm::zip(leaves, carriedTypes)) {
      Value value = leaf;
      if (isa<BaseMemRefType>(leaf.getType())) {
        Value root = aliasRoot.lookup(leaf) ? aliasRoot.lookup(leaf) : leaf;
        if (!llvm::is_contained(iterationOwned, root) ||
            !handedOver.insert(root).second) {
          if (!isa<MemRefType>(leaf.getType()))
            return yield.emitOpError(
                "cannot carry a value of unknown rank that the iteration "
                "did not create: match_cast it to a ranked type first");
          value = copyToFresh(leaf, yieldLoc, "relax.while");
          handedOver.insert(value);
        }
      }
      operands.push_back(castTo(value, type));
    }
    for (Value buffer : ArrayRef(ownedBuffers).drop_front(outerOwned)) {
      if (!handedOver.contains(buffer))
        freeBuffer(buffer, yieldLoc);
      else if (Value bytes = countedBytes.lookup(buffer))
        callMemoryCounter(kMemoryFreeFn, bytes, yieldLoc);
    }
    cf::CondBranchOp::create(builder, yieldLoc, *again, header, operands, exit,
                             operands);
    ownedBuffers.resize(outerOwned);
    ++ownedVersion;
    env = std::move(savedEnv);
    sites = std::move(savedSites);
  }

  // After the loop: the results own the final carried buffers.
  builder.setInsertionPointToStart(exit);
  FailureOr<SmallVector<Value>> results =
      bindJoinedLeaves(exit, leafRelax, site + " result");
  if (failed(results))
    return failure();
  unsigned next = 0;
  for (Value result : op.getResults()) {
    size_t n = leafTypes(result.getType()).size();
    mapLeaves(result, ArrayRef<Value>(*results).slice(next, n));
    next += n;
  }
  return success();
}

/// Library calls go through the library's C interface: memrefs are passed as
/// descriptors to `_mlir_ciface_<link_name>`, which the runtime implements.
LogicalResult FunctionLowering::lowerCallDPSPacked(CallDPSPackedOp op) {
  func::FuncOp callee = externs.lookup(op.getCallee());
  if (!callee)
    return op.emitOpError("'") << op.getCallee() << "' is not an extern.func";
  FailureOr<SmallVector<Value>> allocated = allocateOutputs(
      op, ("call_dps_packed @" + op.getCallee() + " at " +
           describeLoc(op.getLoc()))
              .str());
  if (failed(allocated))
    return failure();
  SmallVector<Value> outputs = std::move(*allocated);
  FailureOr<SmallVector<Value>> args =
      callArgs(op, op.getInputs(), outputs, {}, callee);
  if (failed(args))
    return failure();
  func::CallOp::create(builder, op.getLoc(), callee, *args);
  // A library reports bad input in the error slot and returns: stop here
  // (freeing the outputs) rather than hand its unwritten outputs on.
  checkRuntimeErrorSlot(op.getLoc());
  flushChecks();
  for (auto [result, buffer] : llvm::zip(op.getResults(), outputs))
    mapping.map(result, buffer);
  return success();
}

LogicalResult FunctionLowering::lowerMatchCast(MatchCastOp op) {
  auto target = dyn_cast<RelaxTensorType>(op.getResult().getType());
  if (!target || !isa<RelaxTensorType>(op.getValue().getType()))
    return op.emitOpError("only tensor-to-tensor casts can be lowered yet");
  Value input = mapping.lookup(op.getValue());
  Type targetType = *convertRelaxType(target);
  Location loc = op.getLoc();
  std::string site = "match_cast at " + describeLoc(loc);
  std::string fn = src.getSymName().str();
  if (isa<UnrankedMemRefType>(input.getType()) && target.hasRank()) {
    Value rank = memref::RankOp::create(builder, loc, input);
    Value expected =
        arith::ConstantIndexOp::create(builder, loc, target.getRank());
    emitCheck(rank, expected,
              fn + ": " + site + ": expected rank %2$lld, got %1$lld");
    flushChecks();
  }
  // Cast to the fully dynamic form first: the dims are checked below, so the
  // static cast that follows is justified.
  Value value = input;
  if (auto ranked = dyn_cast<MemRefType>(targetType)) {
    SmallVector<int64_t> dynamic(ranked.getRank(), ShapedType::kDynamic);
    value = castTo(value, MemRefType::get(dynamic, ranked.getElementType()));
  }
  SmallVector<bool> binds = bindVars(value, target, site);
  if (failed(checkDims(value, target, site, /*isArgument=*/false, binds)))
    return failure();
  SmallVector<std::string> bound;
  for (auto [d, dim] : llvm::enumerate(target.getDims()))
    if (binds[d])
      bound.push_back(dim.getVarName().str());
  checkSymBounds(bound);
  flushChecks();
  mapping.map(op.getResult(), castTo(value, targetType));
  return success();
}

/// A relax.view: the input's buffer under the result's sizes with
/// row-major strides (a memref.reinterpret_cast at offset 0: every buffer
/// here has the identity layout), after a run-time check that the view's
/// element count fits the input's unless the verifier's context proves it.
LogicalResult FunctionLowering::lowerView(ViewOp op) {
  Value input = mapping.lookup(op.getInput());
  if (!input || !isa<MemRefType>(input.getType()))
    return op.emitOpError("can only view a ranked tensor: match_cast it first");
  auto target = cast<RelaxTensorType>(op.getResult().getType());
  auto resultType = cast<MemRefType>(*convertRelaxType(target));
  Location loc = op.getLoc();
  std::string site = src.getSymName().str() + ": relax.view at " +
                     describeLoc(loc);
  SmallVector<Value> sizes;
  Value viewed = arith::ConstantIndexOp::create(builder, loc, 1);
  for (auto [d, dim] : llvm::enumerate(target.getDims())) {
    Value size = emitExpr(dim, site + " dim " + std::to_string(d));
    if (!size)
      return op.emitOpError("uses a variable that is not bound: ")
             << dim.str();
    sizes.push_back(size);
    viewed = checkedSizeMul(viewed, size, "relax.view element count");
  }
  auto source = cast<RelaxTensorType>(op.getInput().getType());
  bool proven =
      source.getShape().isFullyKnown() &&
      symContextAt(op).isLE(target.getShape().getNumElements(),
                            source.getShape().getNumElements()) ==
          sym::Truth::True;
  if (!proven) {
    auto inputType = cast<MemRefType>(input.getType());
    Value available = arith::ConstantIndexOp::create(builder, loc, 1);
    for (int64_t d = 0; d < inputType.getRank(); ++d)
      available =
          arith::MulIOp::create(builder, loc, available, dimValue(input, d));
    Value bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                                      viewed, available);
    emitCheckIf(bad, viewed, available,
                escapePercent(site) +
                    ": the view has %lld elements, the viewed tensor %lld");
    flushChecks();
  }
  // Row-major strides, static where the dims after are.
  SmallVector<OpFoldResult> sizeFolds, strideFolds(sizes.size());
  for (auto [d, size] : llvm::enumerate(sizes))
    sizeFolds.push_back(resultType.isDynamicDim(d)
                            ? OpFoldResult(size)
                            : builder.getIndexAttr(resultType.getDimSize(d)));
  int64_t staticStride = 1;
  Value stride;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strideFolds[d] = stride ? OpFoldResult(stride)
                            : OpFoldResult(builder.getIndexAttr(staticStride));
    if (!stride && !resultType.isDynamicDim(d)) {
      staticStride *= resultType.getDimSize(d);
      continue;
    }
    Value previous =
        stride ? stride
               : arith::ConstantIndexOp::create(builder, loc, staticStride);
    stride = arith::MulIOp::create(builder, loc, previous, sizes[d]);
  }
  Value view = memref::ReinterpretCastOp::create(
      builder, loc, resultType, input, builder.getIndexAttr(0), sizeFolds,
      strideFolds);
  aliasRoot[view] = aliasRoot.lookup(input) ? aliasRoot.lookup(input) : input;
  mapping.map(op.getResult(), view);
  return success();
}

/// The function's `sym_bounds` for variables just bound from run-time dims:
/// a value outside its declared range is the caller's error, and proofs at
/// compile time (symContextAt) relied on the range.
void FunctionLowering::checkSymBounds(ArrayRef<std::string> vars) {
  std::optional<DictionaryAttr> bounds = src.getSymBounds();
  if (!bounds)
    return;
  std::string fn = src.getSymName().str();
  Location loc = src.getLoc();
  for (const std::string &var : vars) {
    auto range = dyn_cast_or_null<DenseI64ArrayAttr>(bounds->get(var));
    if (!range || range.size() != 2)
      continue;
    Value value = env.lookup(var);
    const BindingSite &site = sites[var];
    std::string from =
        site.what + " dim " + std::to_string(site.dim);
    Value lo = arith::ConstantIndexOp::create(builder, loc, range[0]);
    Value hi = arith::ConstantIndexOp::create(builder, loc, range[1]);
    emitCheckIf(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      value, lo),
                value, lo,
                fn + ": " + var + " = %1$lld from " + from +
                    " is below its sym_bounds lower bound %2$lld");
    emitCheckIf(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                                      value, hi),
                value, hi,
                fn + ": " + var + " = %1$lld from " + from +
                    " is above its sym_bounds upper bound %2$lld");
  }
}

/// "n * 4 = %1$lld", or just the value for a constant.
static std::string describeValue(const sym::Expr &expr, StringRef slot) {
  if (expr.getConstant())
    return slot.str();
  return expr.str() + " = " + slot.str();
}

LogicalResult FunctionLowering::lowerAssertDims(AssertDimsOp op) {
  sym::Expr lhsExpr = op.getLhs().getExpr(), rhsExpr = op.getRhs().getExpr();
  std::string context =
      (op.getOpName() + " at " + describeLoc(op.getLoc())).str();
  Value lhs = emitExpr(lhsExpr, context), rhs = emitExpr(rhsExpr, context);
  if (!lhs || !rhs)
    return op.emitOpError("uses a variable that is not bound");
  Location loc = op.getLoc();
  StringRef predicate = op.getPredicate();
  std::string condition;
  Value bad;
  if (predicate == "eq") {
    condition = lhsExpr.str() + " == " + rhsExpr.str();
    bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, lhs,
                                rhs);
  } else if (predicate == "le") {
    condition = lhsExpr.str() + " <= " + rhsExpr.str();
    bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt, lhs,
                                rhs);
  } else {
    condition = lhsExpr.str() + " == " + rhsExpr.str() + " or " +
                lhsExpr.str() + " == 1";
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    bad = arith::AndIOp::create(
        builder, loc,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, lhs, rhs),
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, lhs,
                              one));
  }
  std::string format = src.getSymName().str() + ": " +
                       op.getOpName().str() + " at " + describeLoc(loc) +
                       ": " + op.getWhat().str() + ": expected " + condition +
                       ", got " + describeValue(lhsExpr, "%1$lld") + " and " +
                       describeValue(rhsExpr, "%2$lld");
  emitCheckIf(bad, lhs, rhs, format);
  flushChecks();
  return success();
}

/// A host copy of `tensor` for host code that reads its values: under
/// --relax-lower-to-gpu convert-host-memory-to-gpu turns the copy into a
/// device-to-host transfer (kHostStagingAttrName). Free it with
/// freeStaging.
Value FunctionLowering::stageOnHost(Value tensor, Location loc) {
  flushChecks(); // checks pending before the copy decide first
  memref::AllocOp staging = allocLike(tensor, loc);
  staging->setAttr(kHostStagingAttrName, builder.getUnitAttr());
  // A failed allocation is an error, not a copy into null (the indices of
  // a take at k = 2^31 under a 4 GiB ulimit crashed; found by
  // scripts/mutate-run.py).
  Type i64 = builder.getI64Type();
  Value elements = arith::ConstantIntOp::create(builder, loc, i64, 1);
  auto type = cast<MemRefType>(tensor.getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    elements = arith::MulIOp::create(
        builder, loc, elements,
        arith::IndexCastOp::create(builder, loc, i64, dimValue(tensor, d)));
  failIfNull(staging, loc,
             escapePercent(src.getSymName().str() + ": cannot allocate ") +
                 "a host copy of %lld elements" +
                 escapePercent(" at " + describeLoc(loc) + ": out of memory"),
             elements);
  memref::CopyOp::create(builder, loc, tensor, staging);
  return staging;
}

void FunctionLowering::freeStaging(Value staging, Location loc) {
  memref::DeallocOp::create(builder, loc, staging)
      ->setAttr(kHostStagingAttrName, builder.getUnitAttr());
}

/// Loads element `indices` of an integer buffer as i64 (sign- or
/// zero-extended as its dtype says).
Value FunctionLowering::loadAsI64(Value buffer, ValueRange indices,
                                  Location loc) {
  auto elementType =
      cast<IntegerType>(cast<MemRefType>(buffer.getType()).getElementType());
  Value raw = memref::LoadOp::create(builder, loc, buffer, indices);
  if (!elementType.isSignless())
    raw = UnrealizedConversionCastOp::create(
              builder, loc, builder.getIntegerType(elementType.getWidth()),
              raw)
              .getResult(0);
  Type i64 = builder.getI64Type();
  if (elementType.getWidth() == 64)
    return raw;
  if (elementType.isUnsigned())
    return arith::ExtUIOp::create(builder, loc, i64, raw);
  return arith::ExtSIOp::create(builder, loc, i64, raw);
}

/// Reads the values of the staged input as dims: each must be >= 0; a bare
/// unbound variable of the result shape is bound to its value, every other
/// dim is checked against it.
LogicalResult FunctionLowering::lowerTensorToShape(TensorToShapeOp op) {
  Value input = mapping.lookupOrNull(op.getInput());
  if (!input || !isa<MemRefType>(input.getType()))
    return op.emitOpError("input must be a ranked tensor to be read");
  Location loc = op.getLoc();
  std::string site = "tensor_to_shape at " + describeLoc(loc);
  std::string fn = src.getSymName().str();
  Value staging = stageOnHost(input, loc);
  Type i64 = builder.getI64Type();
  Value zero = arith::ConstantIntOp::create(builder, loc, i64, 0);
  const SymShape &shape =
      cast<RelaxShapeType>(op.getResult().getType()).getShape();
  SmallVector<std::string> bound;
  for (auto [i, dim] : llvm::enumerate(shape.getDims())) {
    Value value = loadAsI64(
        staging, arith::ConstantIndexOp::create(builder, loc, i).getResult(),
        loc);
    emitFailure(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      value, zero),
                escapePercent(fn + ": " + site + " element " + Twine(i)) +
                    ": %1$lld is not a valid dim (negative)",
                value, zero);
    if (!dim)
      continue;
    Value asIndex = arith::IndexCastOp::create(builder, loc,
                                               builder.getIndexType(), value);
    if (dim.isVar() && !env.count(dim.getVarName())) {
      env[dim.getVarName()] = asIndex;
      sites[dim.getVarName()] = {site, static_cast<int64_t>(i)};
      bound.push_back(dim.getVarName().str());
      continue;
    }
    Value expected = emitExpr(dim, site + " element " + std::to_string(i));
    if (!expected)
      return op.emitOpError("uses a variable that is not bound");
    emitCheck(asIndex, expected,
              escapePercent(fn + ": " + site + " element " + Twine(i) +
                            ": expected ") +
                  describeValue(dim, "%2$lld") + ", got %1$lld");
  }
  freeStaging(staging, loc);
  checkSymBounds(bound);
  flushChecks();
  return success();
}

/// Scans the index buffer on the host: every value must lie in
/// [-extent, extent) ([0, extent) for unsigned dtypes); with a shape of
/// extents, position j of the last dim (an index tuple) against extent j.
/// The first bad value goes to the runtime's error slot;
/// relax_rt_has_error decides the branch. The scan reads a host staging
/// copy of the indices, so that it also holds where tensors live in device
/// memory (convert-host-memory-to-gpu turns the copy into a device-to-host
/// transfer).
LogicalResult FunctionLowering::lowerAssertIndices(AssertIndicesOp op) {
  Value indices = mapping.lookupOrNull(op.getIndices());
  auto memrefType = dyn_cast_or_null<MemRefType>(
      indices ? indices.getType() : Type());
  if (!memrefType)
    return op.emitOpError("indices must be a ranked tensor to be checked");
  // One extent for every value, or one per tuple position (the last dim).
  SmallVector<sym::Expr> extentExprs;
  auto tuple = dyn_cast<ShapeExprAttr>(op.getExtent());
  if (tuple)
    llvm::append_range(extentExprs, tuple.getShape().getDims());
  else
    extentExprs.push_back(cast<SymExprAttr>(op.getExtent()).getExpr());
  Location loc = op.getLoc();
  Type i64 = builder.getI64Type();
  std::string where =
      (op.getOpName() + " at " + describeLoc(op.getLoc())).str();
  SmallVector<Value> extents;
  SmallVector<std::string> formats;
  for (auto [j, extentExpr] : llvm::enumerate(extentExprs)) {
    Value extent = emitExpr(extentExpr, where + " extent");
    if (!extent)
      return op.emitOpError("uses a variable that is not bound");
    extents.push_back(arith::IndexCastOp::create(builder, loc, i64, extent));
    formats.push_back(src.getSymName().str() + ": " + where + ": index %1$lld" +
                      (tuple ? " (tuple position " + std::to_string(j) + ")"
                             : std::string()) +
                      " is out of range for an axis of " +
                      describeValue(extentExpr, "%2$lld"));
  }
  auto elementType = cast<IntegerType>(memrefType.getElementType());
  bool isUnsigned = elementType.isUnsigned();
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value staging = stageOnHost(indices, loc);
  // Loops over every dim but a tuple's last, which is unrolled.
  int64_t loopRank = memrefType.getRank() - (tuple ? 1 : 0);
  SmallVector<Value> ivs;
  {
    OpBuilder::InsertionGuard guard(builder);
    for (int64_t d = 0; d < loopRank; ++d) {
      auto loop = scf::ForOp::create(builder, loc, zero,
                                     dimValue(indices, d), one);
      builder.setInsertionPointToStart(loop.getBody());
      ivs.push_back(loop.getInductionVar());
    }
    for (auto [j, extent64] : llvm::enumerate(extents)) {
      OpBuilder::InsertionGuard positionGuard(builder);
      SmallVector<Value> at(ivs);
      if (tuple)
        at.push_back(arith::ConstantIndexOp::create(builder, loc, j));
      Value v = loadAsI64(staging, at, loc);
      // Unsigned: one unsigned compare. Signed: v < -extent or v >= extent.
      Value bad = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::uge, v, extent64);
      if (!isUnsigned) {
        Value tooHigh = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::sge, v, extent64);
        Value negExtent = arith::SubIOp::create(
            builder, loc, arith::ConstantIntOp::create(builder, loc, i64, 0),
            extent64);
        Value tooLow = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::slt, v, negExtent);
        bad = arith::OrIOp::create(builder, loc, tooHigh, tooLow);
      }
      auto ifOp =
          scf::IfOp::create(builder, loc, bad, /*withElseRegion=*/false);
      builder.setInsertionPointToStart(ifOp.thenBlock());
      reportError(v, extent64, formats[j]);
    }
  }
  freeStaging(staging, loc);
  checkRuntimeErrorSlot(loc);
  flushChecks();
  return success();
}

LogicalResult FunctionLowering::lowerConstant(ConstantOp op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto type = cast<MemRefType>(*convertRelaxType(op.getResult().getType()));
  std::string name = "__relax_const_" + std::to_string(messageCounter++);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(builder, op.getLoc(), name,
                             builder.getStringAttr("private"), type,
                             op.getValue(), /*constant=*/true,
                             builder.getI64IntegerAttr(64));
  }
  mapping.map(op.getResult(),
              memref::GetGlobalOp::create(builder, op.getLoc(), type, name));
  return success();
}

LogicalResult FunctionLowering::lowerCall(CallOp op) {
  // Tuples cross the call as their leaves, as lowerSignature takes them.
  SmallVector<Type> results;
  for (Type t : op.getResultTypes()) {
    for (Type leaf : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(leaf);
      if (failed(converted))
        return op.emitOpError("result type ") << t << " cannot be lowered yet";
      results.push_back(*converted);
    }
  }
  // Lowered relax functions take fully dynamic memrefs (lowerSignature):
  // a static dim of the argument (`[m, 4]` -> memref<?x4xf32>) is cast away
  // here and checked again by the callee. Passing the static type made the
  // func.call ill-typed.
  SmallVector<Value> args;
  for (Value v : op.getOperands()) {
    FailureOr<SmallVector<Value>> leaves = lookupLeaves(op, v);
    if (failed(leaves))
      return failure();
    for (Value arg : *leaves)
      args.push_back(castTo(arg, dynamicForm(arg.getType())));
  }
  auto call = func::CallOp::create(builder, op.getLoc(), op.getCallee(),
                                   results, args);
  // A failed callee returns poison: stop before using or freeing it.
  checkRuntimeErrorSlot(op.getLoc());
  flushChecks();
  // The callee hands over the buffers it allocated; a result that views
  // one of its arguments or a constant stays with its owner. A callee not
  // lowered yet (recursion) hands over nothing: a leak, never a bad free.
  auto owned = ownedResults.find(op.getCallee());
  for (auto [i, to] : llvm::enumerate(call.getResults()))
    if (owned != ownedResults.end() && i < owned->second.size() &&
        owned->second[i])
      addOwned(to, Value());
  unsigned next = 0;
  for (Value from : op.getResults()) {
    size_t n = leafTypes(from.getType()).size();
    mapLeaves(from, SmallVector<Value>(call.getResults().slice(next, n)));
    next += n;
  }
  return success();
}

LogicalResult FunctionLowering::lowerReturn(ReturnOp op) {
  SmallVector<Value> values;
  for (Value v : op.getOperands()) {
    FailureOr<SmallVector<Value>> leaves = lookupLeaves(op, v);
    if (failed(leaves))
      return failure();
    llvm::append_range(values, *leaves);
  }
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(values, dst.getResultTypes()))) {
    auto &[value, type] = pair;
    if (value.getType() != type)
      value = castTo(value, type);
  }
  // Free what is not handed to the caller.
  llvm::SmallPtrSet<Value, 8> escaping;
  for (Value v : values) {
    escaping.insert(v);
    if (Value root = aliasRoot.lookup(v))
      escaping.insert(root);
  }
  if (options.recordMemory && plan)
    recordPlan(op.getLoc());
  for (Value buffer : ownedBuffers)
    if (!escaping.contains(buffer))
      freeBuffer(buffer, op.getLoc());
  // What the caller takes ownership of: each buffer this function allocated,
  // once (a buffer returned twice is owned through its first result).
  SmallVector<bool> &owned = ownedResults[src.getSymName()];
  owned.clear();
  llvm::SmallPtrSet<Value, 8> handedOver;
  for (Value v : values) {
    Value root = aliasRoot.lookup(v) ? aliasRoot.lookup(v) : v;
    owned.push_back(llvm::is_contained(ownedBuffers, root) &&
                    handedOver.insert(root).second);
  }
  func::ReturnOp::create(builder, op.getLoc(), values);
  return success();
}

LogicalResult FunctionLowering::lowerOp(Operation *op) {
  builder.setInsertionPointToEnd(builder.getInsertionBlock());
  if (auto callTIR = dyn_cast<CallTIROp>(op))
    return lowerCallTIR(callTIR);
  if (auto inplace = dyn_cast<CallTIRInplaceOp>(op))
    return lowerCallTIRInplace(inplace);
  if (auto ifOp = dyn_cast<IfOp>(op))
    return lowerIf(ifOp);
  if (auto loop = dyn_cast<WhileOp>(op))
    return lowerWhile(loop);
  if (auto dps = dyn_cast<CallDPSPackedOp>(op))
    return lowerCallDPSPacked(dps);
  if (auto cast = dyn_cast<MatchCastOp>(op))
    return lowerMatchCast(cast);
  if (auto view = dyn_cast<ViewOp>(op))
    return lowerView(view);
  if (auto check = dyn_cast<AssertDimsOp>(op))
    return lowerAssertDims(check);
  if (auto check = dyn_cast<AssertIndicesOp>(op))
    return lowerAssertIndices(check);
  if (auto toShape = dyn_cast<TensorToShapeOp>(op))
    return lowerTensorToShape(toShape);
  if (auto constant = dyn_cast<ConstantOp>(op))
    return lowerConstant(constant);
  if (auto call = dyn_cast<CallOp>(op))
    return lowerCall(call);
  if (auto ret = dyn_cast<ReturnOp>(op))
    return lowerReturn(ret);
  if (auto tuple = dyn_cast<TupleOp>(op)) {
    SmallVector<Value> leaves;
    for (Value field : tuple.getFields()) {
      // A shape has no run-time value here; such a tuple can be taken apart
      // but not passed on (function signatures reject shapes).
      if (isa<RelaxShapeType>(field.getType())) {
        leaves.push_back(Value());
        continue;
      }
      FailureOr<SmallVector<Value>> fieldLeaves = lookupLeaves(op, field);
      if (failed(fieldLeaves))
        return failure();
      llvm::append_range(leaves, *fieldLeaves);
    }
    tuples[tuple.getResult()] = std::move(leaves);
    return success();
  }
  if (auto get = dyn_cast<TupleGetItemOp>(op)) {
    FailureOr<SmallVector<Value>> leaves = lookupLeaves(op, get.getTuple());
    if (failed(leaves))
      return failure();
    auto [first, count] = fieldLeafRange(
        cast<TupleType>(get.getTuple().getType()), get.getIndex());
    mapLeaves(get.getResult(), ArrayRef<Value>(*leaves).slice(first, count));
    return success();
  }
  if (isa<ShapeOfOp, ShapeExprOp>(op) && op->use_empty())
    return success();
  if (op->getDialect() && op->getDialect()->getNamespace() == "relax")
    return op->emitOpError("has no host lowering: legalize high-level ops "
                           "first (relax-legalize-ops)");
  return op->emitOpError("cannot appear in a relax function being lowered");
}

LogicalResult FunctionLowering::run() {
  // Dataflow regions are a grouping only: inline them.
  SmallVector<DataflowOp> regions;
  src.walk([&](DataflowOp df) { regions.push_back(df); });
  for (DataflowOp df : regions) {
    Block &body = df.getBody().front();
    auto output = cast<OutputOp>(body.getTerminator());
    df.replaceAllUsesWith(output.getOperands());
    output.erase();
    df->getBlock()->getOperations().splice(df->getIterator(),
                                           body.getOperations());
    df.erase();
  }
  if (failed(lowerSignature()))
    return failure();
  liveness.emplace(src);
  if (!liveness->isAnalyzable())
    liveness.reset();
  if (failed(allocateArena()))
    return failure();
  for (Operation &op : llvm::make_early_inc_range(src.getBody().front())) {
    if (failed(lowerOp(&op)))
      return failure();
    freeDeadBuffers(&op);
  }
  return success();
}

namespace {
struct RelaxLowerShapesPass
    : public relax::impl::RelaxLowerShapesBase<RelaxLowerShapesPass> {
  using RelaxLowerShapesBase::RelaxLowerShapesBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<FuncOp> funcs(module.getOps<FuncOp>());
    if (funcs.empty())
      return;
    OpBuilder builder(module.getContext());
    if (!module.lookupSymbol(kShapeErrorFn)) {
      builder.setInsertionPointToStart(module.getBody());
      Type ptr = LLVM::LLVMPointerType::get(module.getContext());
      auto decl = func::FuncOp::create(
          builder, module.getLoc(), kShapeErrorFn,
          builder.getFunctionType({ptr, builder.getI64Type(),
                                   builder.getI64Type()},
                                  {}));
      decl.setPrivate();
    }
    // Library declarations become C-interface func.func declarations named
    // by their link names; this happens first because a link name may equal
    // the extern.func's own symbol name.
    llvm::StringMap<func::FuncOp> externs;
    SmallVector<std::tuple<std::string, std::string, FunctionType, Location>>
        decls;
    for (ext::FuncOp decl :
         llvm::make_early_inc_range(module.getOps<ext::FuncOp>())) {
      SmallVector<Type> params;
      for (Type t : decl.getArgumentTypes()) {
        FailureOr<Type> converted = convertRelaxType(t);
        if (failed(converted)) {
          decl.emitOpError("parameter type ")
              << t << " cannot be lowered to host code";
          return signalPassFailure();
        }
        params.push_back(*converted);
      }
      decls.emplace_back(decl.getSymName().str(), decl.getLinkName().str(),
                         builder.getFunctionType(params, {}), decl.getLoc());
      decl.erase();
    }
    builder.setInsertionPointToStart(module.getBody());
    for (auto &[symName, linkName, type, loc] : decls) {
      auto callee = module.lookupSymbol<func::FuncOp>(linkName);
      if (!callee) {
        callee = func::FuncOp::create(builder, loc, linkName, type);
        callee.setPrivate();
        callee->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
      }
      externs[symName] = callee;
    }

    // An in-place update of a constant's storage would write into a
    // read-only global (or, once relax-externalize-params has run, into the
    // weights every later call reads): the verifier rejects it, and so does
    // this pass for IR that was never verified. Checked before any function
    // is lowered, while every callee is still a relax.func.
    SymbolTableCollection symbols;
    WalkResult storage = module.walk([&](Operation *op) {
      LogicalResult checked = success();
      if (auto inplace = dyn_cast<CallTIRInplaceOp>(op))
        checked = verifyInPlaceStorage(inplace, symbols);
      else if (auto call = dyn_cast<CallOp>(op))
        checked = verifyInPlaceStorage(call, symbols);
      return failed(checked) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (storage.wasInterrupted())
      return signalPassFailure();

    // Callees first, so that a call knows which results it owns.
    SmallVector<FuncOp> order;
    llvm::SmallPtrSet<Operation *, 8> visited;
    std::function<void(FuncOp)> visit = [&](FuncOp func) {
      if (!visited.insert(func).second)
        return;
      func.walk([&](CallOp call) {
        if (auto callee = module.lookupSymbol<FuncOp>(call.getCallee()))
          visit(callee);
      });
      order.push_back(func);
    };
    for (FuncOp func : funcs)
      visit(func);
    unsigned counter = 0;
    OwnedResultsMap ownedResults;
    RelaxLowerShapesOptions options;
    options.reuseArena = reuseArena;
    options.freeAfterLastUse = freeAfterLastUse;
    options.recordMemory = recordMemory;
    for (FuncOp func : order) {
      FunctionLowering lowering(func, options, counter, externs, ownedResults);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
    for (FuncOp func : funcs)
      func.erase();
    // Lowered loop programs no longer need the names of their tir_vars
    // parameters (convert-tir-to-scf resolved them); dropping them keeps the
    // LLVM IR translation from warning about unknown argument attributes.
    for (auto fn : module.getOps<func::FuncOp>())
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
        fn.removeArgAttr(i, StringAttr::get(&getContext(), "tir.var"));
  }
};
} // namespace
