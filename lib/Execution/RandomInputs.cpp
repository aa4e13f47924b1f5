//===- RandomInputs.cpp - Seeded random inputs for an entry ---------------===//

#include "RelaxDialect/Execution/RandomInputs.h"
#include "RelaxDialect/Execution/HostIO.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"

#include <cstdlib>

using namespace mlir::relax::exec;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<HostTensor>
mlir::relax::exec::makeRandomTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                                    std::mt19937_64 &rng) {
  std::string message;
  std::optional<HostTensor> t = makeRandomHostTensor(
      dtype, std::vector<int64_t>(shape.begin(), shape.end()), rng, message);
  if (!t)
    return error(message);
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
