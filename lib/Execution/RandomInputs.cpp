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
      std::string text;
      std::vector<std::string> unbound;
      if (info.symShape && info.symShape->hasRank() &&
          info.symShape->getDim(d)) {
        const sym::Expr &expr = info.symShape->getDim(d);
        value = expr.evaluate(dims);
        text = expr.str();
        llvm::SmallVector<std::string> vars;
        expr.collectVars(vars);
        for (const std::string &v : vars)
          if (!dims.count(v))
            unbound.push_back(v);
      }
      if (!value && (text.empty() || !unbound.empty()))
        return error(unboundDimMessage(i, info.name, d, text, unbound));
      // Every variable bound but no value: the arithmetic overflowed (or
      // divided by zero), which is not a missing --dim.
      if (!value)
        return error("parameter #" + llvm::Twine(i) + " dim " + llvm::Twine(d) +
                     " (" + text +
                     ") has no value under the --dim bindings (overflow or "
                     "division by zero)");
      if (*value < 0)
        return error("parameter #" + llvm::Twine(i) + " dim " + llvm::Twine(d) +
                     " (" + text + ") is " + llvm::Twine(*value) +
                     " under the --dim bindings");
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

llvm::Error
mlir::relax::exec::checkDimNames(const EntrySignature &signature,
                                 const llvm::StringMap<int64_t> &dims) {
  llvm::SmallVector<std::string> known;
  for (const TensorInfo &info : signature.params)
    if (info.symShape && info.symShape->hasRank())
      llvm::append_range(known, info.symShape->getVars());
  llvm::sort(known);
  known.erase(std::unique(known.begin(), known.end()), known.end());
  // In the order given on the command line would be nicer, but a StringMap
  // has none: the first unknown name alphabetically.
  std::vector<std::string> names;
  for (const auto &entry : dims)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  for (const std::string &name : names)
    if (!llvm::is_contained(known, name))
      return error(unknownDimMessage(
          name, signature.name,
          std::vector<std::string>(known.begin(), known.end())));
  return llvm::Error::success();
}
