//===- MemoryPlan.h - Liveness and storage plans of relax functions -*- C++ -*-===//
//
// What --relax-plan-memory decides and --relax-lower-shapes carries out.
//
// A relax function at the point of lowering is straight-line code (dataflow
// regions are a grouping only; a relax.if stands for its branches) whose
// buffers are created by call_tir, call_dps_packed, the fresh outputs of
// call_tir_inplace and relax.if. BufferLiveness follows each buffer through
// the ops that view it without copying (match_cast, tuples, dataflow
// outputs, the updated results of call_tir_inplace) to its last reader, and
// knows which buffers escape (returned) or are handed to a relax.call (whose
// callee may return them: they are left alone). Nothing inside a relax.if
// branch is planned.
//
// The plan is carried by attributes, so that a printed module shows it:
//   - on the relax.func, `relax.memory_plan`, a dictionary:
//       arena          #relax.expr: bytes of the function's arena
//       bound          i64 (optional): an upper bound of `arena` under the
//                      function's sym_bounds; the arena is then allocated
//                      once at that size and reused across calls
//       storages       i64: storage slots laid out in the arena
//       planned        i64: buffers placed in the arena
//       intermediates  i64: buffers that do not escape (planned or not)
//       unplanned      #relax.expr: bytes of every non-escaping buffer, all
//                      live until return (what the function holds without
//                      a plan)
//       in_place       i64 (only when not 0): results written into the
//                      storage of an operand that dies at their call
//   - on each call_tir / call_dps_packed, `relax.arena_offsets`: per result
//     the byte offset of its storage in the arena (#relax.expr), or a unit
//     attribute for a result that gets its own allocation.
//
// A call_dps_packed may say that its callee computes correctly when a
// result is written over one operand (`relax.output_may_alias`, set by
// --relax-dispatch-library on the fused convolution, whose residual is
// read at each element before that element is written). The planner then
// gives the result the operand's slot when it can prove the operand dead
// after the call: a planned buffer (never an argument, a constant, a
// returned or pinned buffer) whose last reader is this call, and which no
// other operand of the call reads. The checker proves the same again.
//
//===----------------------------------------------------------------------===//

#ifndef RELAXDIALECT_RELAX_TRANSFORMS_MEMORYPLAN_H
#define RELAXDIALECT_RELAX_TRANSFORMS_MEMORYPLAN_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::relax {

constexpr llvm::StringLiteral kMemoryPlanAttrName = "relax.memory_plan";
constexpr llvm::StringLiteral kArenaOffsetsAttrName = "relax.arena_offsets";

/// array<i64> on a relax.call_dps_packed, one entry per result: the operand
/// whose storage the result may be written into when that operand dies at
/// the call, or -1 (the callee needs a fresh buffer).
constexpr llvm::StringLiteral kOutputMayAliasAttrName =
    "relax.output_may_alias";

/// The operand of `op` whose storage its result #`result` may take
/// (kOutputMayAliasAttrName), or nullopt.
std::optional<unsigned> aliasableOperand(Operation *op, unsigned result);

/// Storage of arenas and of every arena slot is aligned to this many bytes.
constexpr int64_t kArenaAlignment = 64;

/// Liveness of the buffers of one relax function, over its ops in execution
/// order (the ops of dataflow regions in place).
class BufferLiveness {
public:
  explicit BufferLiveness(FuncOp func);

  /// Whether every op of the function is one the analysis understands; when
  /// not, nothing may be planned or freed early.
  bool isAnalyzable() const { return analyzable; }

  /// The ops in execution order; terminators of dataflow regions included.
  llvm::ArrayRef<Operation *> getOrder() const { return order; }
  unsigned indexOf(Operation *op) const { return position.lookup(op); }

  /// The buffers: the tensor results of call_tir, call_dps_packed and
  /// relax.call (the callee's buffers, or views of its arguments), in
  /// creation order. Only the first two are ever planned.
  llvm::ArrayRef<Value> getBuffers() const { return buffers; }

  /// The buffer `value` views (itself for a buffer), or null when `value` is
  /// not a view of a buffer (an argument, a constant, a relax.call result).
  Value getBuffer(Value value) const { return bufferOf.lookup(value); }

  /// Position of the last op that reads `buffer` through any view; its
  /// creating op when nothing reads it.
  unsigned getLastUse(Value buffer) const { return lastUse.lookup(buffer); }

  /// Returned, directly or in a tuple: the caller owns it.
  bool escapes(Value buffer) const { return escaping.contains(buffer); }
  /// Passed to a relax.call or read by an op the analysis does not model: it
  /// may be aliased by values it cannot follow.
  bool isPinned(Value buffer) const { return pinned.contains(buffer); }

  /// Buffers whose last use is `op`.
  llvm::ArrayRef<Value> getDying(Operation *op) const;

  /// Calls `fn` with the buffer `value` views, or with those of every field
  /// of a tuple (nested tuples included).
  void forEachBuffer(Value value, llvm::function_ref<void(Value)> fn) const;

  /// The buffer that result #`result` of `op` may be written into
  /// (kOutputMayAliasAttrName): its operand's buffer when that buffer is
  /// neither returned nor pinned, `op` is its last reader, and no other
  /// operand of `op` reads it; null otherwise. Arguments and constants are
  /// no buffers, so they never qualify.
  Value getDyingAliasedBuffer(Operation *op, unsigned result) const;

private:
  void addBuffers(Operation *op, unsigned at);
  void addBuffer(Value result, unsigned at);
  void addUse(Value value, unsigned at);

  bool analyzable = true;
  llvm::SmallVector<Operation *> order;
  llvm::DenseMap<Operation *, unsigned> position;
  llvm::SmallVector<Value> buffers;
  llvm::DenseMap<Value, Value> bufferOf;
  /// Tuples (relax.tuple results and views of them) -> their fields.
  llvm::DenseMap<Value, llvm::SmallVector<Value>> tupleFields;
  llvm::DenseMap<Value, unsigned> lastUse;
  llvm::DenseSet<Value> escaping, pinned;
  llvm::DenseMap<Operation *, llvm::SmallVector<Value>> dying;
};

/// Bytes of a tensor of `type` ((bit width + 7) / 8 per element, as the
/// lowering allocates), or null when a dim is unknown.
sym::Expr tensorBytes(RelaxTensorType type);

/// `bytes` rounded up to kArenaAlignment.
sym::Expr alignArenaSize(const sym::Expr &bytes);

} // namespace mlir::relax

#endif // RELAXDIALECT_RELAX_TRANSFORMS_MEMORYPLAN_H
