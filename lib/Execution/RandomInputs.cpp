//===- RandomInputs.cpp - Seeded random inputs for an entry ---------------===//

#include "RelaxDialect/Execution/RandomInputs.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"

#include <cstdlib>

using namespace mlir::relax::exec;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

llvm::Expected<HostTensor>
mlir::relax::exec::makeRandomTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                                    std::mt19937_64 &rng) {
  std::optional<int64_t> count = checkedElementCount(shape);
  if (!count)
    return error("shape " + shapeText(shape) +
                 " has too many elements (more than 2^40)");
  // A failed std::vector allocation would abort (no exceptions): ask malloc
  // first, so a shape beyond this machine's memory is an error.
  size_t bytes = static_cast<size_t>(*count) * dtypeSize(dtype);
  void *probe = std::malloc(bytes);
  if (!probe && bytes != 0)
    return error("shape " + shapeText(shape) + " needs " +
                 llvm::Twine(bytes) + " bytes, more than can be allocated");
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
  return std::move(*t);
}

llvm::Expected<std::vector<HostTensor>>
mlir::relax::exec::makeRandomInputs(const EntrySignature &signature,
                                    const llvm::StringMap<int64_t> &dims,
                                    uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<HostTensor> inputs;
  for (auto [i, info] : llvm::enumerate(signature.params)) {
    if (!info.ranked)
      return error("parameter #" + llvm::Twine(i) +
                   " has unknown rank: give --input files");
    llvm::SmallVector<int64_t> shape;
    for (auto [d, size] : llvm::enumerate(info.staticSizes)) {
      if (size != mlir::ShapedType::kDynamic) {
        shape.push_back(size);
        continue;
      }
      std::optional<int64_t> value;
      bool allBound = false;
      if (info.symShape && info.symShape->hasRank() &&
          info.symShape->getDim(d)) {
        const sym::Expr &expr = info.symShape->getDim(d);
        value = expr.evaluate(dims);
        llvm::SmallVector<std::string> vars;
        expr.collectVars(vars);
        allBound = llvm::all_of(
            vars, [&](const std::string &v) { return dims.count(v); });
      }
      // Every variable bound but no value: the arithmetic overflowed (or
      // divided by zero), which is not a missing --dim.
      if (!value && allBound)
        return error("parameter #" + llvm::Twine(i) + " dim " + llvm::Twine(d) +
                     " (" + info.symShape->getDim(d).str() +
                     ") has no value under the --dim bindings (overflow or "
                     "division by zero)");
      if (!value || *value < 0)
        return error("parameter #" + llvm::Twine(i) + " dim " + llvm::Twine(d) +
                     " is symbolic: bind its variables with --dim");
      shape.push_back(*value);
    }
    llvm::Expected<HostTensor> t = makeRandomTensor(info.dtype, shape, rng);
    if (!t)
      return error("parameter #" + llvm::Twine(i) + ": " +
                   llvm::toString(t.takeError()));
    inputs.push_back(std::move(*t));
  }
  return inputs;
}
