//===- RandomInputs.cpp - Seeded random inputs for an entry ---------------===//

#include "RelaxDialect/Execution/RandomInputs.h"
#include "RelaxDialect/Execution/HostIO.h"

#include <map>

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

/// The --dim bindings in the order of their names.
static std::map<std::string, int64_t>
sortedDims(const llvm::StringMap<int64_t> &dims) {
  std::map<std::string, int64_t> sorted;
  for (const auto &entry : dims)
    sorted[entry.getKey().str()] = entry.getValue();
  return sorted;
}

llvm::Expected<std::vector<HostTensor>>
mlir::relax::exec::makeRandomInputs(CompiledModule &module,
                                    llvm::StringRef entry,
                                    const llvm::StringMap<int64_t> &dims,
                                    uint64_t seed) {
  auto signature = module.getSignature(entry);
  if (!signature)
    return signature.takeError();
  auto fn = module.getShapeFunction(entry);
  if (!fn)
    return fn.takeError();
  std::string message;
  auto inputs = makeRandomInputsFor(signature->spec, *fn, sortedDims(dims),
                                    seed, message);
  if (!inputs)
    return error(message);
  return std::move(*inputs);
}

llvm::Error
mlir::relax::exec::checkDimNames(const EntrySignature &signature,
                                 const llvm::StringMap<int64_t> &dims) {
  if (std::optional<std::string> message =
          checkDimNamesFor(signature.spec, sortedDims(dims)))
    return error(*message);
  return llvm::Error::success();
}
