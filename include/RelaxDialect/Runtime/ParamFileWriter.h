//===- ParamFileWriter.h - Writing parameter files --------------*- C++ -*-===//
//
// The compiler's side of ParamFile.h: writes a safetensors file. It uses
// LLVM (JSON, atomic file output) and lives in its own library,
// RelaxParamFileWriter, so that the reader in the runtime links no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RUNTIME_PARAMFILEWRITER_H
#define RELAXDIALECT_RUNTIME_PARAMFILEWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::relax::rt {

/// One tensor to write: `data` holds exactly its C-ordered bytes.
struct ParamToWrite {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  llvm::ArrayRef<char> data;
};

/// Writes `params` (names unique) and the string pairs of `metadata` (the
/// header's "__metadata__") to `path` as a safetensors file.
llvm::Error writeParamFile(llvm::StringRef path,
                           llvm::ArrayRef<ParamToWrite> params,
                           const llvm::StringMap<std::string> &metadata = {});

} // namespace mlir::relax::rt

#endif // RELAXDIALECT_RUNTIME_PARAMFILEWRITER_H
