//===- FunctionLowering.h - One relax.func to a host function --*- C++ -*-===//
//
// The state of --relax-lower-shapes while it lowers one relax.func, shared
// by the files that lower its parts: LowerShapes.cpp (the pass, the
// signature, the walk over the body), TypeConversion.cpp (relax types to
// memrefs, tuples as leaves), RuntimeChecks.cpp (symbolic sizes, the
// checks and their failure exits, match_cast and the shape contracts),
// Buffers.cpp (allocation, the memory plan's arena, frees, views),
// HostStaging.cpp (device buffers read on the host), ControlFlow.cpp
// (relax.if, relax.while) and Calls.cpp (call_tir, call_tir_inplace,
// call_dps_packed, relax.call).
//
//===----------------------------------------------------------------------===//
#ifndef LIB_CONVERSION_RELAXTOFUNC_FUNCTIONLOWERING_H
#define LIB_CONVERSION_RELAXTOFUNC_FUNCTIONLOWERING_H

#include "RelaxDialect/Conversion/RelaxToFunc/RelaxToFunc.h"
#include "RelaxDialect/Extern/IR/ExternDialect.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Relax/Transforms/MemoryPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir {
namespace relax {
namespace lower_shapes {

// The runtime functions the lowered code calls (lib/Runtime).
inline constexpr StringLiteral kShapeErrorFn = "relax_rt_shape_error";
inline constexpr StringLiteral kHasErrorFn = "relax_rt_has_error";
inline constexpr StringLiteral kAcquireArenaFn = "relax_rt_workspace_acquire";
inline constexpr StringLiteral kReleaseArenaFn = "relax_rt_workspace_release";
inline constexpr StringLiteral kMemoryAllocFn = "relax_rt_memory_alloc";
inline constexpr StringLiteral kMemoryFreeFn = "relax_rt_memory_free";
inline constexpr StringLiteral kMemoryPlanFn = "relax_rt_memory_plan";

/// `!relax.tensor<[n, 4], f32>` -> `memref<?x4xf32>`; unknown rank ->
/// `memref<*xf32>`; prim values -> their scalar type.
FailureOr<Type> convertRelaxType(Type type);

/// The leaves of `type` in order: a tuple's fields, nested tuples
/// flattened depth first; any other type is its own single leaf. A tuple
/// crosses a function boundary (parameters, results, relax.call) as its
/// leaves, one memref each, in this order.
void appendLeafTypes(Type type, SmallVectorImpl<Type> &leaves);
SmallVector<Type> leafTypes(Type type);

/// Where field `index` of a value of tuple type `tuple` lies among its
/// leaves: (first leaf, number of leaves).
std::pair<unsigned, unsigned> fieldLeafRange(TupleType tuple, unsigned index);

/// A memref type for `type`, every dim dynamic: what lowered relax
/// functions take, so that callers pass any static or dynamic form and the
/// callee checks the dims itself.
Type dynamicForm(Type type);

/// A short `file:line:col` for messages about match_cast sites.
std::string describeLoc(Location loc);

/// printf-safe copy of text that goes into a message format.
std::string escapePercent(const Twine &text);

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

} // namespace lower_shapes
} // namespace relax
} // namespace mlir

#endif // LIB_CONVERSION_RELAXTOFUNC_FUNCTIONLOWERING_H
