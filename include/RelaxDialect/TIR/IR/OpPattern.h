//===- OpPattern.h - Fusion kinds of tir programs ---------------*- C++ -*-===//
//
// The kind of a tir.prim_func (the ODS enum `tir::OpPattern`, ordered from
// most to least fusable), recorded in its `op_pattern` attribute as a
// `#tir.op_pattern<...>`: legalization writes it, `--relax-annotate-op-pattern`
// derives it from the program's blocks, the prim_func verifier checks it, and
// fusion and the GPU default schedule read it back.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TIR_IR_OPPATTERN_H
#define RELAXDIALECT_TIR_IR_OPPATTERN_H

#include "RelaxDialect/TIR/IR/TIRDialect.h"

namespace mlir {
namespace tir {

/// The attribute holding a program's kind.
inline constexpr llvm::StringLiteral kOpPatternAttrName = "op_pattern";

/// A unit attribute on a program that decodes compressed inputs
/// (relax.dequantize): it reads fewer bytes than it writes, so recomputing an
/// element where it is read costs less than storing it. Fusion may therefore
/// put such a program inside a contraction that reads each element many times
/// (GroupOps) and inline it there (FuseTIR), which it refuses for other
/// producers.
inline constexpr llvm::StringLiteral kDecodeAttrName = "tir.decode";

/// Whether `op` (a tir.prim_func) is marked as a decode.
inline bool isDecode(Operation *op) {
  return op && op->hasAttr(kDecodeAttrName);
}

/// A dictionary on the program an unmasked relax.attention legalizes to:
/// `causal` (bool) and, when the op set it, `scale` (f64). The program's
/// loops are the portable streaming form; the GPU default schedule reads
/// the hint to build the flash-attention kernel from the parameters instead
/// (tir::flashAttention). A program fusion rewrote has no hint.
inline constexpr llvm::StringLiteral kAttentionAttrName = "tir.attention";

/// The kind recorded on `op`; `opaque` when there is none.
inline OpPattern getOpPattern(Operation *op) {
  auto attr = op ? op->getAttrOfType<OpPatternAttr>(kOpPatternAttrName)
                 : OpPatternAttr();
  return attr ? attr.getValue() : OpPattern::Opaque;
}

/// Records `pattern` as `op`'s kind.
inline void setOpPattern(Operation *op, OpPattern pattern) {
  op->setAttr(kOpPatternAttrName,
              OpPatternAttr::get(op->getContext(), pattern));
}

} // namespace tir
} // namespace mlir

#endif // RELAXDIALECT_TIR_IR_OPPATTERN_H
