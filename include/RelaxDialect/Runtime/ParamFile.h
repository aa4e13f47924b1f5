//===- ParamFile.h - Parameter files (safetensors) --------------*- C++ -*-===//
//
// The weights of a compiled module live outside its code, in a parameter
// file in the safetensors format: an 8-byte little-endian header length N,
// N bytes of JSON naming each tensor's dtype, shape and byte range, then the
// raw little-endian data. The compiler writes it (--relax-externalize-params,
// relax-compile); the module loader (RelaxModule.h) and the JIT read it. See
// docs/compile.md.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RUNTIME_PARAMFILE_H
#define RELAXDIALECT_RUNTIME_PARAMFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::relax::rt {

/// Bytes per element of a safetensors dtype name (F32, BF16, I64, ...), or
/// nullopt for a name this project does not use.
std::optional<size_t> paramDTypeSize(llvm::StringRef dtype);

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

/// A parameter file opened for reading (mapped, not copied). Every entry's
/// dtype, shape and byte range are checked when it is opened, so a
/// truncated or corrupt file fails there with the reason.
class ParamFile {
public:
  struct Entry {
    std::string dtype;
    std::vector<int64_t> shape;
    llvm::ArrayRef<char> data;
  };

  static llvm::Expected<std::unique_ptr<ParamFile>> open(llvm::StringRef path);

  /// The entry named `name`, or null.
  const Entry *lookup(llvm::StringRef name) const;
  const llvm::StringMap<Entry> &entries() const { return tensors; }
  const llvm::StringMap<std::string> &metadata() const { return meta; }
  llvm::StringRef path() const { return filePath; }

  /// Lets the process forget the mapped pages that hold only `entry`'s
  /// bytes, once they have been copied: the loader copies each tensor into
  /// the library's global and the file's pages would otherwise count in
  /// the process's resident memory a second time until the file is closed.
  /// The entry must not be read afterwards. A no-op for a file read into
  /// memory rather than mapped.
  void dropPages(const Entry &entry) const;

private:
  std::string filePath;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  llvm::StringMap<Entry> tensors;
  llvm::StringMap<std::string> meta;
};

} // namespace mlir::relax::rt

#endif // RELAXDIALECT_RUNTIME_PARAMFILE_H
