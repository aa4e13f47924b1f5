//===- Legalize.h - Legalizing high-level relax ops to tir ------*- C++ -*-===//
//
// --relax-legalize-ops turns every high-level relax op into a call_tir of a
// generated tir.prim_func. The pass owns the bookkeeping (one prim_func per
// distinct signature, variables the buffers do not bind passed as tir_vars);
// each op category contributes the loop nest of its ops through a
// `Legalizer` registered in a table keyed by op name. Registration goes
// through the op class (registerLegalizer<OpTy>), so a misspelled op is a
// compile error rather than a silently missing legalization.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_LEGALIZE_H
#define RELAXDIALECT_RELAX_TRANSFORMS_LEGALIZE_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/TIR/IR/TIRBuilder.h"
#include "RelaxDialect/TIR/IR/OpPattern.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "llvm/ADT/StringMap.h"

#include <functional>
#include <type_traits>

namespace mlir {
namespace relax {

/// Builds a prim_func body from its input and output buffers.
using PrimFuncBodyBuilder = function_ref<void(
    OpBuilder &, Location, ValueRange inputs, ValueRange outputs)>;

/// What a legalizer needs from the pass.
class LegalizeContext {
public:
  explicit LegalizeContext(ModuleOp module) : module(module) {}

  /// Replaces `op` by `relax.call_tir @<name>(inputs)` with `resultTypes`,
  /// where the callee is built by `body` unless a prim_func with the same
  /// base name, types and `key` exists already. `extraExprs` are symbolic
  /// expressions the body materialises beyond the buffer shapes (e.g. slice
  /// bounds): their variables are passed as tir_vars when no buffer binds
  /// them. `opPattern` is recorded on the prim_func for fusion.
  LogicalResult replaceWithCallTIR(Operation *op, StringRef baseName,
                                   ValueRange inputs, TypeRange resultTypes,
                                   PrimFuncBodyBuilder body,
                                   tir::OpPattern opPattern = tir::OpPattern::Opaque,
                                   Attribute key = {},
                                   ArrayRef<sym::Expr> extraExprs = {});

private:
  ModuleOp module;
  llvm::StringMap<tir::PrimFuncOp> cache;
  llvm::StringMap<unsigned> nameCounts;
};

/// Legalizes one op (replacing it through the context) or fails with a
/// located error.
using Legalizer = std::function<LogicalResult(Operation *, LegalizeContext &)>;
using LegalizerTable = llvm::StringMap<Legalizer>;

/// Registers `fn` as the legalizer of `OpTy`, keyed by
/// OpTy::getOperationName(). `fn` takes either the typed op or the
/// Operation * and a LegalizeContext &.
template <typename OpTy, typename Fn>
void registerLegalizer(LegalizerTable &table, Fn fn) {
  table[OpTy::getOperationName()] =
      [fn = std::move(fn)](Operation *op,
                           LegalizeContext &ctx) -> LogicalResult {
    if constexpr (std::is_invocable_v<const Fn &, OpTy, LegalizeContext &>)
      return fn(cast<OpTy>(op), ctx);
    else
      return fn(op, ctx);
  };
}

/// Each category adds its ops' legalizers (lib/Relax/Transforms/Legalize/).
void addElementwiseLegalizers(LegalizerTable &table);
void addCreationLegalizers(LegalizerTable &table);
void addLinearAlgebraLegalizers(LegalizerTable &table);
void addManipulationLegalizers(LegalizerTable &table);
void addReductionLegalizers(LegalizerTable &table);
void addNormalizationLegalizers(LegalizerTable &table);
void addNNLegalizers(LegalizerTable &table);
void addQuantizeLegalizers(LegalizerTable &table);
void addRecurrentLegalizers(LegalizerTable &table);
void addResizeLegalizers(LegalizerTable &table);

//===----------------------------------------------------------------------===//
// Helpers for writing legalizers
//===----------------------------------------------------------------------===//

/// The tir buffer type for a relax tensor type; fails unless the rank and
/// every dim are known.
FailureOr<tir::BufferType> toBufferType(Type relaxType);

/// The op name without the dialect prefix (`sum` for relax.sum), from which
/// prim_funcs and blocks are named.
StringRef shortOpName(Operation *op);

/// An index value as a float of type `floatType` (through i64, signed).
Value indexToFloat(OpBuilder &builder, Location loc, Value index,
                   Type floatType);

/// Fails with a located "cannot be legalized" error unless every operand and
/// result of `op` is a relax tensor with a fully known shape.
LogicalResult requireKnownShapes(Operation *op);

/// Loop kinds for a nest whose first `spatial.size()` loops are spatial and
/// whose `numLoops - spatial.size()` inner loops reduce: one parallel loop,
/// the outermost spatial one that is not a constant 1 (a batch of one has no
/// work to share), the rest serial.
SmallVector<tir::LoopKind> outerParallelKinds(ArrayRef<sym::Expr> spatial,
                                              unsigned numLoops);

/// Emits a loop nest over `shape` (see outerParallelKinds) around one
/// spatial tir.block named `blockName`; `body` receives the block's
/// iteration variables.
void buildSpatialCompute(
    OpBuilder &builder, Location loc, StringRef blockName,
    const SymShape &shape,
    function_ref<void(OpBuilder &, Location, ValueRange)> body);

/// The indices that read an input of shape `in` broadcast (numpy rules)
/// into an output of shape `out` at output position `ivs`, one
/// broadcastIndex per dim. Fails when `in` has the higher rank.
FailureOr<SmallVector<Value>> broadcastIndices(OpBuilder &builder,
                                               Location loc,
                                               const SymShape &in,
                                               const SymShape &out,
                                               ValueRange ivs);

/// Converts one scalar between relax dtypes (float <-> int, widths, i1).
/// `fromUnsigned` says a signless integer `value` holds an unsigned dtype
/// (zero-extend, unsigned to float). An unsigned `to` yields the signless
/// integer of its width (see toSignlessScalar / fromSignlessScalar); floats
/// convert to it through i64 (wrapping) below 64 bits, unsigned at 64.
Value castScalar(OpBuilder &builder, Location loc, Value value, Type to,
                 bool fromUnsigned = false);

/// Scalars of unsigned buffers (ui8, ui16, ui32, ui64) are computed on as
/// the signless integer of their width (arith has no unsigned types): these
/// casts wrap a loaded uiN into iN and an iN result back into uiN for the
/// store. Values of other types pass through.
Value toSignlessScalar(OpBuilder &builder, Location loc, Value value);
Value fromSignlessScalar(OpBuilder &builder, Location loc, Value value,
                         Type dtype);

/// The index reading input dim `in` broadcast into output dim `out` at
/// output position `iv`: `iv` when provably equal, 0 when `in` is 1, and
/// otherwise chosen at run time (0 exactly when `in` is 1).
Value broadcastIndex(OpBuilder &builder, Location loc, const sym::Expr &in,
                     const sym::Expr &out, Value iv);

/// A constant of `type` (float or integer) with value `value`; an unsigned
/// `type` gives the signless constant of its width (the same bits).
Value createScalarConstant(OpBuilder &builder, Location loc, Type type,
                           double value);

/// The element type as arith sees it: unsigned and signless integers are
/// both signless; `isUnsigned` reports which one the dtype was.
bool isUnsignedDtype(Type dtype);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_LEGALIZE_H
