//===- ModuleLoader.h - Compiled libraries and their calling ABI -*- C++ -*-===//
//
// What both ways of running compiled code share: the JIT (lib/Execution) and
// libraries compiled ahead of time (relax-compile, opened through the C API
// of RelaxModule.h or by relax-run). Entries are called through the packed
// form of their C interface, `_mlir__mlir_ciface_<name>(void **args)`, as
// MLIR's ExecutionEngine generates it for the JIT and relax-compile emits it
// into libraries: args[0] points at the result struct (one memref
// descriptor per result), args[1 + i] at parameter i's descriptor. The
// library describes itself in a JSON string, `relax_module_metadata`.
//
// Part of libRelaxModule, which links no LLVM (relax-run runs a library
// without loading LLVM or MLIR): standard types, rt::Status for failures.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RUNTIME_MODULELOADER_H
#define RELAXDIALECT_RUNTIME_MODULELOADER_H

#include "RelaxDialect/Runtime/ParamFile.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mlir::relax::rt {

/// One parameter or result of an entry.
struct TensorSpec {
  /// The relax spelling (f32, i1, ui16, ...).
  std::string dtype;
  /// false: any rank (parameters only).
  bool ranked = true;
  /// Static sizes, -1 where the size is only known at run time.
  std::vector<int64_t> staticSizes;
  /// Each dim as text: "512", "n", "n * 4" or "?". A description for
  /// people only: nothing parses it (the shape function computes the dims).
  std::vector<std::string> dims;
  /// Per dim, the indices into FunctionSpec::symbols of the variables it
  /// uses ([] for a constant), or none when the shape function does not
  /// compute it (unknown before the call: `?`, a data-dependent size).
  std::vector<std::optional<std::vector<int64_t>>> dimSymbols;
  /// The relax type of a parameter of a relax function, "" otherwise.
  std::string relaxType;
  /// The `relax.name` of a parameter, "" when it has none.
  std::string name;
};

/// A symbolic variable of an entry's parameter dims.
struct SymbolSpec {
  std::string name;
  /// The parameter and dim whose size it is (a bare variable as a dim), or
  /// -1 when no parameter dim is the variable itself.
  int64_t param = -1, dim = -1;
};

struct FunctionSpec {
  std::string name;
  std::vector<TensorSpec> params, results;
  /// The values the shape function reads, in its order.
  std::vector<SymbolSpec> symbols;
  /// The symbol of the entry's shape function
  /// (`int32_t f(const int64_t *symbols, int64_t *dims)`, ShapeFunction.h),
  /// "" when it has none (an entry that was not a relax function: its dims
  /// are its static sizes).
  std::string shapeFunction;
};

/// A constant the compiler moved to the parameter file: `name` is both its
/// tensor in the file and the symbol of the global it is loaded into.
struct ParamSpec {
  std::string name;
  /// The safetensors dtype name (F32, ...).
  std::string dtype;
  std::vector<int64_t> shape;
};

/// Bumped when the layout of the metadata or the calling convention change.
constexpr int64_t kModuleFormatVersion = 2;
/// The symbol of the metadata string (a NUL-terminated JSON object).
constexpr const char *kMetadataSymbol = "relax_module_metadata";

struct ModuleMetadata {
  std::vector<FunctionSpec> functions;
  std::vector<ParamSpec> params;
  /// The parameter file's name, relative to the library ("" without
  /// parameters).
  std::string paramsFile;

  std::string toJSON() const;
  /// A failure names the offending field ("metadata.functions[0].name").
  static Result<ModuleMetadata> fromJSON(const std::string &json);
  const FunctionSpec *lookup(const std::string &name) const;
};

/// The packed wrapper of entry `name`.
std::string packedEntrySymbol(const std::string &name);

/// Bytes per element of a relax dtype name, 0 when unknown.
size_t dtypeNameSize(std::string_view dtype);

/// The global a parameter is loaded into: its address and its size in
/// bytes (the symbol's st_size), null when the library has no such global.
struct ParamGlobal {
  void *data = nullptr;
  size_t bytes = 0;
};

/// Copies every parameter of `metadata` from `file` into the global that
/// `lookup` returns for its name, checking dtype, shape and the global's
/// size first. Each page wholly inside a global is made read-only once
/// filled (mprotect): a stray write to the weights is a fault, never a
/// silent change of every later result.
Status loadParams(const ModuleMetadata &metadata, const ParamFile &file,
                  const std::function<ParamGlobal(const std::string &)> &lookup);

/// Checks that `path` is a whole ELF shared library of this machine's class
/// before anything maps it: the header, the program and section header
/// tables and every segment and section lie within the file. dlopen of a
/// truncated library dies of SIGBUS when it touches a page past the end; a
/// failure here names the file and the part that is cut off. With
/// `imports`, also appends the names of the undefined symbols of its dynamic
/// symbol table (what it calls in the runtime and libc).
Status checkSharedLibraryFile(const std::string &path,
                              std::vector<std::string> *imports = nullptr);

using PackedFn = void (*)(void **);

/// A compiled library, opened with its parameters loaded. One library path
/// may be open once per process (its globals hold one set of weights).
class Library {
public:
  /// `paramsPath` empty: the metadata's file next to the library.
  static Result<std::unique_ptr<Library>> open(const std::string &path,
                                              const std::string &paramsPath);
  ~Library();
  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;

  const ModuleMetadata &getMetadata() const { return metadata; }
  /// The packed wrapper of `entry`, or null.
  PackedFn lookupEntry(const std::string &entry) const;
  /// The address of the library's symbol `name`, or null.
  void *lookupSymbol(const std::string &name) const;
  const std::string &getPath() const { return path; }

private:
  Library() = default;
  void *handle = nullptr;
  std::string path, canonicalPath;
  ModuleMetadata metadata;
};

/// One call's descriptors. A memref descriptor is {allocated, aligned,
/// offset, sizes[rank], strides[rank]}, 8 bytes each; an unranked parameter
/// is passed as {rank, pointer to a ranked descriptor}.
class PackedCall {
public:
  PackedCall(PackedFn fn, std::string name, std::vector<bool> paramRanked,
             const std::vector<int64_t> &resultRanks);
  PackedCall(const PackedCall &) = delete;
  PackedCall &operator=(const PackedCall &) = delete;

  /// Points parameter `i` at dense row-major `data` of `shape`.
  void setInput(size_t i, void *data, const int64_t *shape, size_t rank);
  void setInput(size_t i, void *data, const std::vector<int64_t> &shape) {
    setInput(i, data, shape.data(), shape.size());
  }
  /// Calls the entry; a failure carries the runtime's message. The result
  /// descriptors are zeroed first and left alone after a failure.
  Status run();
  /// Result `i`'s descriptor words.
  const int64_t *result(size_t i) const {
    return resultWords.data() + resultOffsets[i];
  }
  size_t numResults() const { return resultOffsets.size(); }
  /// The heap blocks the results own (each once): not inputs, nor the
  /// globals memref.get_global marks with 0xdeadbeef.
  std::vector<void *> ownedResultBlocks() const;

private:
  PackedFn fn;
  std::string name;
  std::vector<std::vector<int64_t>> argDescs;
  std::vector<std::array<int64_t, 2>> unrankedDescs;
  std::vector<bool> paramRanked;
  std::vector<int64_t> resultWords;
  std::vector<size_t> resultOffsets;
  std::vector<void *> pointers;
  std::vector<void *> packed;
};

/// Copies the (possibly strided) memref of `rank` that `descriptor`
/// describes into `dest`, densely.
void copyToDense(const int64_t *descriptor, int64_t rank, size_t elemSize,
                 void *dest);

} // namespace mlir::relax::rt

#endif // RELAXDIALECT_RUNTIME_MODULELOADER_H
