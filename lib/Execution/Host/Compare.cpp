//===- Compare.cpp - Comparing tensors against references -----------------===//

#include "RelaxDialect/Execution/Compare.h"

#include <cmath>
#include <cstdio>

using namespace mlir::relax::exec;

bool mlir::relax::exec::elementMismatches(const HostTensor &actual,
                                          const HostTensor &expected, int64_t k,
                                          const CompareOptions &options) {
  if (isExactDType(actual.dtype))
    return actual.getExact(k) != expected.getExact(k);
  double a = actual.get(k), x = expected.get(k);
  if (std::isnan(a) || std::isnan(x))
    return std::isnan(a) != std::isnan(x);
  // |inf - x| <= atol + rtol * inf would accept any finite x.
  if (std::isinf(a) || std::isinf(x))
    return a != x;
  return std::fabs(a - x) > options.atol + options.rtol * std::fabs(x);
}

CompareResult mlir::relax::exec::compareTensors(const HostTensor &actual,
                                                const HostTensor &expected,
                                                const CompareOptions &options) {
  CompareResult result;
  result.options = options;
  result.actualShape = actual.shapeStr();
  result.expectedShape = expected.shapeStr();
  result.actualDType = actual.dtype;
  result.expectedDType = expected.dtype;
  if (actual.shape != expected.shape) {
    result.kind = CompareResult::Kind::ShapeMismatch;
    return result;
  }
  // An integer result against a float reference (or the reverse) is a bug in
  // the program or the test: say so instead of comparing rounded values.
  if (isExactDType(actual.dtype) != isExactDType(expected.dtype)) {
    result.kind = CompareResult::Kind::DTypeKindMismatch;
    return result;
  }
  bool exact = isExactDType(actual.dtype);
  for (int64_t k = 0, e = actual.numElements(); k < e; ++k) {
    if (!elementMismatches(actual, expected, k, options))
      continue;
    double distance;
    if (exact) {
      __int128 diff = actual.getExact(k) - expected.getExact(k);
      distance = static_cast<double>(diff < 0 ? -diff : diff);
    } else {
      distance = std::fabs(actual.get(k) - expected.get(k));
      if (std::isnan(distance))
        distance = INFINITY;
    }
    if (result.worstIndex < 0 || distance > result.worstDistance) {
      result.worstDistance = distance;
      result.worstIndex = k;
    }
  }
  if (result.worstIndex >= 0) {
    result.kind = CompareResult::Kind::ValueMismatch;
    result.actualValue = actual.str(result.worstIndex, 9);
    result.expectedValue = expected.str(result.worstIndex, 9);
  }
  return result;
}

std::string mlir::relax::exec::formatG(double v) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

std::string CompareResult::message(std::string_view subjectText,
                                   std::string_view referenceText) const {
  std::string subject(subjectText), reference(referenceText);
  switch (kind) {
  case Kind::Match:
    break;
  case Kind::ShapeMismatch:
    return subject + " has shape " + actualShape + " but " + reference +
           " has " + expectedShape;
  case Kind::DTypeKindMismatch:
    return subject + " has dtype " + dtypeName(actualDType) + " but " +
           reference + " has " + dtypeName(expectedDType);
  case Kind::ValueMismatch:
    return subject + " does not match (rtol=" + formatG(options.rtol) +
           ", atol=" + formatG(options.atol) +
           "): worst element " + std::to_string(worstIndex) + ": got " +
           actualValue + ", expected " + expectedValue;
  }
  return "";
}

std::string mlir::relax::exec::checkTolerances(const CompareOptions &options) {
  auto check = [](const char *flag, double value) -> std::string {
    if (std::isfinite(value) && value >= 0)
      return "";
    return std::string("--") + flag + " must be a finite number >= 0, not " +
           formatG(value);
  };
  std::string error = check("rtol", options.rtol);
  return error.empty() ? check("atol", options.atol) : error;
}
