//===- OpPattern.h - Fusion kinds of tir programs ---------------*- C++ -*-===//
//
// The kind of a tir.prim_func, recorded in its `op_pattern` attribute:
// legalization writes it, `--relax-annotate-op-pattern` derives it from the
// program's blocks, the prim_func verifier checks it, and fusion and the GPU
// default schedule read it back.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TIR_IR_OPPATTERN_H
#define RELAXDIALECT_TIR_IR_OPPATTERN_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include <optional>

namespace mlir {
namespace tir {

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

/// The kind named `name`, or nullopt when it names none.
inline std::optional<OpPattern> symbolizeOpPattern(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<OpPattern>>(name)
      .Case("elementwise", OpPattern::Elementwise)
      .Case("broadcast", OpPattern::Broadcast)
      .Case("injective", OpPattern::Injective)
      .Case("reduction", OpPattern::Reduction)
      .Case("out_ewise_fusable", OpPattern::OutEwiseFusable)
      .Case("opaque", OpPattern::Opaque)
      .Default(std::nullopt);
}

/// The kind recorded on `op`; `opaque` when there is none or it is unknown.
inline OpPattern getOpPattern(Operation *op) {
  auto attr = op ? op->getAttrOfType<StringAttr>(kOpPatternAttrName)
                 : StringAttr();
  std::optional<OpPattern> pattern =
      attr ? symbolizeOpPattern(attr.getValue()) : std::nullopt;
  return pattern.value_or(OpPattern::Opaque);
}

} // namespace tir
} // namespace mlir

#endif // RELAXDIALECT_TIR_IR_OPPATTERN_H
