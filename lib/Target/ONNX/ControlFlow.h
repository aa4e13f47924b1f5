//===- ControlFlow.h - ONNX loops on relax.while ----------------*- C++ -*-===//
//
// Private to lib/Target/ONNX: the relax.while builder of Loop and Scan
// (ControlFlowOps.cpp), which SequenceMap (SequenceOps.cpp) uses too.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_TARGET_ONNX_CONTROLFLOW_H
#define LIB_TARGET_ONNX_CONTROLFLOW_H

#include "Importer.h"

#include <functional>

namespace mlir {
namespace relax {
namespace onnx_import {

/// What differs between Loop, Scan and SequenceMap; buildLoop does the
/// rest.
struct LoopSpec {
  const onnx::GraphProto *body;
  std::string what; // "ONNX Loop node 'l': body"
  /// The ONNX loop-carried values on entry.
  SmallVector<Slot> carriedInits;
  /// Whether the body's output #0 is a condition (Loop), and whether the
  /// loop stops on it (Loop with a cond input).
  bool condOutput = false, useCondOutput = false;
  /// The trip count (a rank-0 i64 tensor defined before the loop), if any.
  Value tripCount;
  /// The condition of the first iteration (rank-0 i1), if any.
  Value initCond;
  /// Per scan output: the accumulator grows at the front (reverse).
  std::function<bool(unsigned)> prependScan;
  /// Builds the body's inputs in the body from the counter and the carried
  /// values (the body's block arguments).
  std::function<FailureOr<SmallVector<Slot>>(Value, ArrayRef<Slot>)> bodyInputs;
  /// Builds the body from its inputs and returns its outputs; by default the
  /// ONNX `body` graph is imported.
  std::function<FailureOr<SmallVector<Slot>>(ArrayRef<Slot>)> runBody;
};

struct LoopResults {
  SmallVector<Slot> carried;
  SmallVector<Value> scans;
};

/// A slot holding `v`.
inline Slot tensorSlot(Value v) {
  Slot s;
  s.value = v;
  return s;
}

/// Builds the relax.while of `spec`: a counter, the carried values (in the
/// relax form of their schemas, widened until the body keeps them) and one
/// accumulator per scan output (see ControlFlowOps.cpp).
FailureOr<LoopResults> buildLoop(NodeBinder &b, LoopSpec &spec);

} // namespace onnx_import
} // namespace relax
} // namespace mlir

#endif // LIB_TARGET_ONNX_CONTROLFLOW_H
