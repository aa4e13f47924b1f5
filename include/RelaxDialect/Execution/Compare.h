//===- Compare.h - Comparing tensors against references ---------*- C++ -*-===//
//
// The one definition of "an output matches its reference": floats follow
// numpy.allclose(equal_nan=True) except that an infinity matches only the
// same infinity; integers and booleans compare exactly (tolerances never
// apply to them); an integer tensor against a float reference, or the
// reverse, is refused rather than compared through rounded values.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_COMPARE_H
#define RELAXDIALECT_EXECUTION_COMPARE_H

#include "RelaxDialect/Execution/HostTensor.h"

#include <string>
#include <string_view>

namespace mlir::relax::exec {

struct CompareOptions {
  double rtol = 1e-5;
  double atol = 1e-6;
};

/// Why `options` cannot define a match, or "" when they can: each tolerance
/// must be finite and >= 0 (a NaN compares false with every distance, so
/// --atol nan would accept any output; an infinite one accepts every finite
/// value).
std::string checkTolerances(const CompareOptions &options);

/// The outcome of comparing an actual tensor with its reference.
struct CompareResult {
  enum class Kind {
    Match,
    ShapeMismatch,     // the shapes differ
    DTypeKindMismatch, // exact (integer, boolean) against float
    ValueMismatch      // some element is out of tolerance
  };
  Kind kind = Kind::Match;
  /// ValueMismatch: the worst element (NaN against a number, or an infinity
  /// against anything else, counts as infinitely far), its distance and
  /// both values as text (integers exactly, floats with 9 digits).
  int64_t worstIndex = -1;
  double worstDistance = 0;
  std::string actualValue, expectedValue;
  /// Shapes and dtypes of both sides, for the messages.
  std::string actualShape, expectedShape;
  DType actualDType = DType::F32, expectedDType = DType::F32;
  CompareOptions options;

  bool matches() const { return kind == Kind::Match; }
  /// One line saying why `subject` (e.g. "output #0") does not match
  /// `reference` (e.g. "the expected file"); empty when it matches.
  std::string message(std::string_view subject,
                      std::string_view reference) const;
};

/// `v` as printf's %g writes it (the tolerances in messages).
std::string formatG(double v);

/// Whether element `k` of `actual` is out of tolerance against `expected`
/// (same dtype kind, same shape).
bool elementMismatches(const HostTensor &actual, const HostTensor &expected,
                       int64_t k, const CompareOptions &options);

/// Compares every element and reports the worst mismatch.
CompareResult compareTensors(const HostTensor &actual,
                             const HostTensor &expected,
                             const CompareOptions &options = {});

} // namespace mlir::relax::exec

#endif // RELAXDIALECT_EXECUTION_COMPARE_H
