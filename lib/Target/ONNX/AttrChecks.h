//===- AttrChecks.h - Shared ONNX attribute contracts -----------*- C++ -*-===//
//
// Private to lib/Target/ONNX. The contracts onnx's checker and the op specs
// put on attribute values that several op families share: flags that are 0
// or 1, floats that must be finite, permutations, axis lists without
// repeats. A hostile file breaking one gets a located error naming the
// node, the attribute and the value (NodeBinder::badAttr) instead of a
// program that silently means something else (onnxruntime reads a keepdims
// of 2 as false where `!= 0` reads it as true).
//
//===----------------------------------------------------------------------===//
#ifndef LIB_TARGET_ONNX_ATTRCHECKS_H
#define LIB_TARGET_ONNX_ATTRCHECKS_H

#include "Importer.h"

#include <cmath>
#include <cstdio>

namespace mlir {
namespace relax {
namespace onnx_import {

/// A boolean attribute stored as an INT: 0 or 1, anything else is reported
/// (and the default returned so the handler can go on).
inline bool attrFlag(NodeBinder &b, StringRef name, bool dflt) {
  int64_t v = b.attrInt(name, dflt ? 1 : 0);
  if (v != 0 && v != 1) {
    (void)b.badAttr(name, "must be 0 or 1, got " + Twine(v));
    return dflt;
  }
  return v != 0;
}

/// `v` as diagnostics show attribute values: shortest of %g ("1.5", "nan").
inline std::string formatFloat(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

/// A FLOAT attribute that must be finite (and, with `nonNegative`, >= 0).
inline float attrFiniteFloat(NodeBinder &b, StringRef name, float dflt,
                             bool nonNegative = false) {
  float v = b.attrFloat(name, dflt);
  if (!std::isfinite(v) || (nonNegative && v < 0)) {
    (void)b.badAttr(name, Twine(nonNegative ? "must be finite and >= 0"
                                            : "must be finite") +
                              ", got " + formatFloat(v));
    return dflt;
  }
  return v;
}

/// Fails (badAttr on `name`) if `axes`, each in [-rank, rank), name one dim
/// twice; out-of-range entries are left to the caller's range check.
inline LogicalResult checkDistinctAxes(NodeBinder &b, StringRef name,
                                       ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<bool> seen(rank, false);
  for (int64_t a : axes) {
    int64_t n = a < 0 ? a + rank : a;
    if (n < 0 || n >= rank)
      continue;
    if (seen[n])
      return b.badAttr(name, "repeats axis " + Twine(a) + " (dim " + Twine(n) +
                                 " of rank " + Twine(rank) + ")");
    seen[n] = true;
  }
  return success();
}

/// The element type of input `i` without materializing it; null (with an
/// error) if the input is missing or undefined.
inline Type inputDtype(NodeBinder &b, unsigned i) {
  Slot *s = b.inputSlot(i);
  if (!s)
    return {};
  if (s->value)
    return NodeBinder::typeOf(s->value).getDtype();
  if (s->constant)
    return s->constant.getElementType();
  return s->ints ? s->ints->dtype : Type();
}

/// Fails unless the given inputs among `inputs` are int32 or int64 (the
/// onnx type constraint of index inputs, `Tind`): a float bound would
/// otherwise be truncated by a cast.
inline LogicalResult requireIndexInputs(NodeBinder &b,
                                        ArrayRef<unsigned> inputs) {
  for (unsigned i : inputs) {
    if (!b.hasInput(i))
      continue;
    Type t = inputDtype(b, i);
    if (!t)
      return failure();
    if (!t.isSignlessInteger(32) && !t.isSignlessInteger(64) &&
        !t.isSignedInteger(32) && !t.isSignedInteger(64))
      return b.error() << "input #" << i << " must be int32 or int64, got "
                       << t;
  }
  return success();
}

} // namespace onnx_import
} // namespace relax
} // namespace mlir

#endif // LIB_TARGET_ONNX_ATTRCHECKS_H
