//===- RandomTensor.cpp - Seeded random tensors, without LLVM -------------===//
//
// One generator for the JIT (RandomInputs.cpp) and relax-run's driver, so
// that --random-inputs --seed N gives the same data whichever runs the
// model.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/HostIO.h"

#include <cstdlib>

using namespace mlir::relax::exec;

static std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::optional<HostTensor> mlir::relax::exec::makeRandomHostTensor(
    DType dtype, const std::vector<int64_t> &shape, std::mt19937_64 &rng,
    std::string &error) {
  std::optional<int64_t> count = checkedElementCount(shape);
  if (!count) {
    error = "shape " + shapeText(shape) +
            " has too many elements (more than 2^40)";
    return std::nullopt;
  }
  // A failed std::vector allocation would abort (no exceptions): ask malloc
  // first, so a shape beyond this machine's memory is an error.
  size_t bytes = static_cast<size_t>(*count) * dtypeSize(dtype);
  void *probe = std::malloc(bytes);
  if (!probe && bytes != 0) {
    error = "shape " + shapeText(shape) + " needs " + std::to_string(bytes) +
            " bytes, more than can be allocated";
    return std::nullopt;
  }
  std::free(probe);
  std::optional<HostTensor> t = HostTensor::zeros(dtype, shape);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 9);
  for (int64_t i = 0, e = t->numElements(); i < e; ++i) {
    if (dtype == DType::Bool)
      t->set(i, small(rng) % 2);
    else if (isIntegerDType(dtype))
      t->set(i, small(rng));
    else
      t->set(i, real(rng));
  }
  return t;
}
