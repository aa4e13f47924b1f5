//===- OpPattern.h - Fusion kinds of loop programs --------------*- C++ -*-===//
//
// The kind `--relax-annotate-op-pattern` derives for each tir.prim_func and
// stores in its `op_pattern` attribute; grouping and merging read it back.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_OPPATTERN_H
#define RELAXDIALECT_RELAX_TRANSFORMS_OPPATTERN_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir {
namespace relax {

/// Ordered from most to least fusable: fusion rules compare kinds with `<=`.
enum class OpPattern {
  Elementwise,
  Broadcast,
  Injective,
  Reduction,
  OutEwiseFusable,
  Opaque
};

/// The attribute holding a program's kind.
inline constexpr llvm::StringLiteral kOpPatternAttrName = "op_pattern";
/// The attribute `--relax-group-ops` puts on the calls of one fusion group
/// (an integer id, unique in the module) for `--relax-fuse-tir`.
inline constexpr llvm::StringLiteral kFusionGroupAttrName =
    "relax.fusion_group";

inline llvm::StringRef stringifyOpPattern(OpPattern p) {
  switch (p) {
  case OpPattern::Elementwise:
    return "elementwise";
  case OpPattern::Broadcast:
    return "broadcast";
  case OpPattern::Injective:
    return "injective";
  case OpPattern::Reduction:
    return "reduction";
  case OpPattern::OutEwiseFusable:
    return "out_ewise_fusable";
  case OpPattern::Opaque:
    return "opaque";
  }
  return "opaque";
}

/// The kind recorded on `op`; `opaque` when there is none or it is unknown.
inline OpPattern getOpPattern(Operation *op) {
  auto attr =
      op ? op->getAttrOfType<StringAttr>(kOpPatternAttrName) : StringAttr();
  if (!attr)
    return OpPattern::Opaque;
  return llvm::StringSwitch<OpPattern>(attr.getValue())
      .Case("elementwise", OpPattern::Elementwise)
      .Case("broadcast", OpPattern::Broadcast)
      .Case("injective", OpPattern::Injective)
      .Case("reduction", OpPattern::Reduction)
      .Case("out_ewise_fusable", OpPattern::OutEwiseFusable)
      .Default(OpPattern::Opaque);
}

/// Calls `fn` on each block whose calls may fuse: the body of every
/// relax.func and of every relax.dataflow region in it. Both are straight
/// lines of ops; calls are pure, so a group may run at its last member.
void forEachFusionBlock(Operation *root, function_ref<void(Block &)> fn);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_OPPATTERN_H
