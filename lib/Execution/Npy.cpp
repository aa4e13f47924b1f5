//===- Npy.cpp - The .npy file format -------------------------------------===//
//
// llvm::Error forms of the LLVM-free reader and writer (NpyFormat.cpp).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/Npy.h"

using namespace mlir::relax::exec;

static llvm::Error error(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<HostTensor> mlir::relax::exec::parseNpy(llvm::StringRef bytes,
                                                       llvm::StringRef name) {
  std::string message;
  std::optional<HostTensor> t = parseNpyBytes(bytes, name, message);
  if (!t)
    return error(message);
  return std::move(*t);
}

llvm::Expected<HostTensor> mlir::relax::exec::readNpy(llvm::StringRef path) {
  std::string message;
  std::optional<HostTensor> t = readNpyFile(path.str(), message);
  if (!t)
    return error(message);
  return std::move(*t);
}

llvm::Error mlir::relax::exec::writeNpy(llvm::StringRef path,
                                        const HostTensor &tensor) {
  std::string message;
  if (!writeNpyFile(path.str(), tensor, message))
    return error(message);
  return llvm::Error::success();
}
