//===- ParamFile.h - Parameter files (safetensors) --------------*- C++ -*-===//
//
// The weights of a compiled module live outside its code, in a parameter
// file in the safetensors format: an 8-byte little-endian header length N,
// N bytes of JSON naming each tensor's dtype, shape and byte range, then the
// raw little-endian data. The compiler writes it (--relax-externalize-params,
// relax-compile, ParamFileWriter.h); the module loader (RelaxModule.h) and
// the JIT read it. See docs/compile.md.
//
// The reader is part of the deployed runtime (libRelaxModule), which links
// no LLVM: standard types only, JSON by nlohmann-json, the file mapped with
// mmap.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RUNTIME_PARAMFILE_H
#define RELAXDIALECT_RUNTIME_PARAMFILE_H

#include "RelaxDialect/Runtime/Status.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlir::relax::rt {

/// Bytes per element of a safetensors dtype name (F32, BF16, I64, ...), or
/// nullopt for a name this project does not use.
std::optional<size_t> paramDTypeSize(std::string_view dtype);

/// Where an opened parameter file's bytes live.
enum class ParamResidence {
  /// The file mapped read-only (MAP_PRIVATE): pages come from the page
  /// cache on first touch and are 4 KiB pages. For a reader that copies
  /// each tensor elsewhere (the module loader copies into the library's
  /// globals).
  Mapped,
  /// Read (pread) into anonymous memory in 2 MiB transparent huge pages
  /// (HugePages.h), then made read-only, for a reader that computes on the
  /// entries in place (llama-generate's weights): decode reads every weight
  /// once per token and runs up to 1.37x faster on huge pages, which a file
  /// mapping cannot have (MADV_COLLAPSE refuses it). Falls back to Mapped
  /// for a file smaller than one huge page and with RELAX_HUGE_PAGES=0.
  HugePages,
};

/// A parameter file opened for reading (mapped, or read into huge pages:
/// ParamResidence). Every entry's dtype, shape and byte range are checked
/// when it is opened, so a truncated or corrupt file fails there with the
/// reason. The bytes are read-only either way: a write into an entry
/// faults (SIGSEGV) instead of changing a constant silently.
class ParamFile {
public:
  struct Entry {
    std::string dtype;
    std::vector<int64_t> shape;
    /// The tensor's bytes, inside the mapping (or the huge-page copy).
    std::string_view data;
  };

  static Result<std::unique_ptr<ParamFile>>
  open(const std::string &path,
       ParamResidence residence = ParamResidence::Mapped);
  ~ParamFile();
  ParamFile(const ParamFile &) = delete;
  ParamFile &operator=(const ParamFile &) = delete;

  /// The entry named `name`, or null.
  const Entry *lookup(const std::string &name) const;
  const std::map<std::string, Entry> &entries() const { return tensors; }
  const std::map<std::string, std::string> &metadata() const { return meta; }
  const std::string &path() const { return filePath; }
  /// Where the bytes are: HugePages only when they were read into huge
  /// pages (not when open() fell back to the mapping).
  ParamResidence residence() const { return where; }

  /// Lets the process forget the mapped pages that hold only `entry`'s
  /// bytes, once they have been copied: the loader copies each tensor into
  /// the library's global and the file's pages would otherwise count in
  /// the process's resident memory a second time until the file is closed.
  /// The entry must not be read afterwards: a mapped file's pages would be
  /// read again from the page cache, but ParamResidence::HugePages' copy is
  /// the only one, and its dropped pages read as zeros.
  void dropPages(const Entry &entry) const;

private:
  ParamFile() = default;
  std::string filePath;
  /// The whole file, read-only: mapped, or a buffer of
  /// allocateLargeBuffer(mappedBytes) (null for an empty file).
  void *mapping = nullptr;
  size_t mappedBytes = 0;
  ParamResidence where = ParamResidence::Mapped;
  std::map<std::string, Entry> tensors;
  std::map<std::string, std::string> meta;
};

} // namespace mlir::relax::rt

#endif // RELAXDIALECT_RUNTIME_PARAMFILE_H
