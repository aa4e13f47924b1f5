//===- ModuleLoader.cpp - Compiled libraries and their calling ABI --------===//
//
// No LLVM here (libRelaxModule is the deployed runtime): the metadata is
// read and written with nlohmann-json, paths with POSIX calls.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/ModuleLoader.h"
#include "RelaxDialect/Runtime/HugePages.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "FileRead.h"
#include "JSONSupport.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <mutex>
#include <set>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::relax::rt;

std::string mlir::relax::rt::packedEntrySymbol(const std::string &name) {
  return "_mlir__mlir_ciface_" + name;
}

size_t mlir::relax::rt::dtypeNameSize(std::string_view dtype) {
  for (auto [name, size] : {std::pair<std::string_view, size_t>{"i1", 1},
                            {"i8", 1},
                            {"ui8", 1},
                            {"f16", 2},
                            {"bf16", 2},
                            {"i16", 2},
                            {"ui16", 2},
                            {"f32", 4},
                            {"i32", 4},
                            {"ui32", 4},
                            {"f64", 8},
                            {"i64", 8},
                            {"ui64", 8}})
    if (dtype == name)
      return size;
  return 0;
}

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

static json::Value toJSON(const TensorSpec &t) {
  json::Value o = {{"dtype", t.dtype}, {"ranked", t.ranked}};
  if (t.ranked) {
    o["static_sizes"] = t.staticSizes;
    o["dims"] = t.dims;
    json::Value symbols = json::Value::array();
    for (const std::optional<std::vector<int64_t>> &s : t.dimSymbols)
      symbols.push_back(s ? json::Value(*s) : json::Value());
    o["dim_symbols"] = std::move(symbols);
  }
  if (!t.relaxType.empty())
    o["relax_type"] = t.relaxType;
  if (!t.name.empty())
    o["name"] = t.name;
  return o;
}

std::string ModuleMetadata::toJSON() const {
  json::Value fns = json::Value::array(), ps = json::Value::array();
  for (const FunctionSpec &f : functions) {
    json::Value params = json::Value::array(), results = json::Value::array();
    for (const TensorSpec &t : f.params)
      params.push_back(::toJSON(t));
    for (const TensorSpec &t : f.results)
      results.push_back(::toJSON(t));
    json::Value symbols = json::Value::array();
    for (const SymbolSpec &sym : f.symbols)
      symbols.push_back(
          {{"name", sym.name}, {"param", sym.param}, {"dim", sym.dim}});
    fns.push_back({{"name", f.name},
                   {"params", std::move(params)},
                   {"results", std::move(results)},
                   {"symbols", std::move(symbols)},
                   {"shape_function", f.shapeFunction}});
  }
  for (const ParamSpec &p : params)
    ps.push_back({{"name", p.name}, {"dtype", p.dtype}, {"shape", p.shape}});
  json::Value root = {{"format", "relax-mlir module"},
                      {"version", kModuleFormatVersion},
                      {"functions", std::move(fns)},
                      {"params", std::move(ps)},
                      {"params_file", paramsFile}};
  return root.dump();
}

namespace {
/// Reads fields of the metadata, keeping the first failure as "<what> at
/// <path>" (metadata.functions[0].dims[1]).
struct FieldReader {
  std::string error;

  bool fail(const std::string &path, const std::string &what) {
    if (error.empty())
      error = what + " at " + path;
    return false;
  }
  /// The member `key` of the object at `path`; null (a failure unless
  /// `optional`) when it is absent.
  const json::Value *field(const json::Value &o, const std::string &path,
                           const char *key, bool optional = false) {
    if (!o.is_object()) {
      fail(path, "expected object");
      return nullptr;
    }
    const json::Value *v = json::member(o, key);
    if (!v && !optional)
      fail(path + "." + key, "missing value");
    return v;
  }
  bool read(const json::Value &v, const std::string &path, std::string &out) {
    if (!v.is_string())
      return fail(path, "expected string");
    out = v.get<std::string>();
    return true;
  }
  bool read(const json::Value &v, const std::string &path, bool &out) {
    if (!v.is_boolean())
      return fail(path, "expected boolean");
    out = v.get<bool>();
    return true;
  }
  bool read(const json::Value &v, const std::string &path, int64_t &out) {
    std::optional<int64_t> i = json::asInteger(v);
    if (!i)
      return fail(path, "expected integer");
    out = *i;
    return true;
  }
  /// null, or a T.
  template <typename T>
  bool read(const json::Value &v, const std::string &path,
            std::optional<T> &out) {
    if (v.is_null()) {
      out.reset();
      return true;
    }
    out.emplace();
    return read(v, path, *out);
  }
  template <typename T>
  bool read(const json::Value &v, const std::string &path,
            std::vector<T> &out) {
    if (!v.is_array())
      return fail(path, "expected array");
    out.assign(v.size(), T());
    for (size_t i = 0; i < v.size(); ++i)
      if (!read(v[i], path + "[" + std::to_string(i) + "]", out[i]))
        return false;
    return true;
  }
  /// Reads member `key` of `o` into `out`; an absent optional member leaves
  /// `out` alone.
  template <typename T>
  bool map(const json::Value &o, const std::string &path, const char *key,
           T &out, bool optional = false) {
    const json::Value *v = field(o, path, key, optional);
    if (!v)
      return optional && error.empty();
    return read(*v, path + "." + key, out);
  }

  bool read(const json::Value &v, const std::string &path, TensorSpec &t) {
    if (!map(v, path, "dtype", t.dtype) || !map(v, path, "ranked", t.ranked) ||
        !map(v, path, "relax_type", t.relaxType, /*optional=*/true) ||
        !map(v, path, "name", t.name, /*optional=*/true))
      return false;
    if (!t.ranked)
      return true;
    if (!map(v, path, "static_sizes", t.staticSizes) ||
        !map(v, path, "dims", t.dims) ||
        !map(v, path, "dim_symbols", t.dimSymbols))
      return false;
    if (t.staticSizes.size() != t.dims.size() ||
        t.dimSymbols.size() != t.dims.size())
      return fail(path, "static_sizes, dims and dim_symbols differ in length");
    if (!dtypeNameSize(t.dtype))
      return fail(path + ".dtype", "unknown dtype");
    return true;
  }
  bool read(const json::Value &v, const std::string &path, SymbolSpec &s) {
    return map(v, path, "name", s.name) && map(v, path, "param", s.param) &&
           map(v, path, "dim", s.dim);
  }
  bool read(const json::Value &v, const std::string &path, FunctionSpec &f) {
    if (!map(v, path, "name", f.name) || !map(v, path, "params", f.params) ||
        !map(v, path, "results", f.results) ||
        !map(v, path, "symbols", f.symbols) ||
        !map(v, path, "shape_function", f.shapeFunction))
      return false;
    // The indices the runtime follows: a symbol's binding names a ranked
    // parameter's dim, a dim's symbols are symbols.
    for (size_t k = 0; k < f.symbols.size(); ++k) {
      const SymbolSpec &s = f.symbols[k];
      if (s.param == -1 && s.dim == -1)
        continue;
      if (s.param < 0 || static_cast<size_t>(s.param) >= f.params.size() ||
          s.dim < 0 ||
          static_cast<size_t>(s.dim) >=
              f.params[s.param].staticSizes.size())
        return fail(path + ".symbols[" + std::to_string(k) + "]",
                    "no such parameter dim");
    }
    for (const auto &[specs, key] : {std::pair{&f.params, "params"},
                                     std::pair{&f.results, "results"}})
      for (size_t i = 0; i < specs->size(); ++i)
        for (size_t d = 0; d < (*specs)[i].dimSymbols.size(); ++d)
          for (int64_t k : (*specs)[i].dimSymbols[d].value_or(
                   std::vector<int64_t>()))
            if (k < 0 || static_cast<size_t>(k) >= f.symbols.size())
              return fail(path + "." + key + "[" + std::to_string(i) +
                              "].dim_symbols[" + std::to_string(d) + "]",
                          "no such symbol");
    if (f.shapeFunction.empty())
      for (const auto *specs : {&f.params, &f.results})
        for (const TensorSpec &t : *specs)
          for (const auto &s : t.dimSymbols)
            if (s)
              return fail(path + ".shape_function",
                          "missing for the dims of dim_symbols");
    return true;
  }
  bool read(const json::Value &v, const std::string &path, ParamSpec &p) {
    return map(v, path, "name", p.name) && map(v, path, "dtype", p.dtype) &&
           map(v, path, "shape", p.shape);
  }
};
} // namespace

Result<ModuleMetadata> ModuleMetadata::fromJSON(const std::string &text) {
  std::string parseError;
  std::optional<json::Value> value = json::parse(text, parseError);
  if (!value)
    return Status::error(parseError);
  FieldReader r;
  std::string format;
  int64_t version = 0;
  ModuleMetadata m;
  const std::string root = "metadata";
  if (!r.map(*value, root, "format", format) ||
      !r.map(*value, root, "version", version))
    return Status::error(r.error);
  if (format != "relax-mlir module")
    return Status::error("module format '" + format + "', not 'relax-mlir "
                         "module'");
  // Version 1 printed each dim as text for the reader to evaluate; version
  // 2 has a shape function per entry instead.
  if (version != kModuleFormatVersion)
    return Status::error(
        "module format version " + std::to_string(version) +
        ", this runtime reads version " +
        std::to_string(kModuleFormatVersion) +
        (version < kModuleFormatVersion
             ? " (written by an older relax-compile: compile the model again)"
             : " (written by a newer relax-compile)"));
  if (!r.map(*value, root, "functions", m.functions) ||
      !r.map(*value, root, "params", m.params) ||
      !r.map(*value, root, "params_file", m.paramsFile))
    return Status::error(r.error);
  return m;
}

const FunctionSpec *ModuleMetadata::lookup(const std::string &name) const {
  for (const FunctionSpec &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

static std::string shapeStr(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// The bytes a tensor of `dtype` and `shape` holds, or none when the dtype
/// is unknown, a dim negative or the product overflows.
static std::optional<size_t> paramBytes(const ParamSpec &p) {
  std::optional<size_t> elem = paramDTypeSize(p.dtype);
  if (!elem)
    return std::nullopt;
  size_t bytes = *elem;
  for (int64_t d : p.shape)
    if (d < 0 || __builtin_mul_overflow(bytes, static_cast<size_t>(d), &bytes))
      return std::nullopt;
  return bytes;
}

/// Sets the protection of the pages wholly inside [data, data + bytes): a
/// page the range only partly covers may hold a neighbour.
static void protectWholePages(void *data, size_t bytes, int protection) {
  uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t begin = reinterpret_cast<uintptr_t>(data);
  uintptr_t first = (begin + page - 1) / page * page;
  uintptr_t last = (begin + bytes) / page * page;
  if (first < last)
    mprotect(reinterpret_cast<void *>(first), last - first, protection);
}

Status mlir::relax::rt::loadParams(
    const ModuleMetadata &metadata, const ParamFile &file,
    const std::function<ParamGlobal(const std::string &)> &lookup) {
  for (const ParamSpec &p : metadata.params) {
    const ParamFile::Entry *entry = file.lookup(p.name);
    if (!entry)
      return Status::error("parameter file " + file.path() +
                           " has no tensor '" + p.name +
                           "' (written for another library?)");
    if (entry->dtype != p.dtype || entry->shape != p.shape)
      return Status::error("parameter '" + p.name + "' in " + file.path() +
                           " is " + entry->dtype + " " +
                           shapeStr(entry->shape) +
                           " but the library expects " + p.dtype + " " +
                           shapeStr(p.shape));
    ParamGlobal global = lookup(p.name);
    if (!global.data)
      return Status::error("the library has no global '" + p.name + "'");
    if (entry->data.size() > global.bytes)
      return Status::error("parameter '" + p.name + "' in " + file.path() +
                           " holds " + std::to_string(entry->data.size()) +
                           " bytes but the library's global holds " +
                           std::to_string(global.bytes));
    // Writable again first: a library that stayed mapped since it was last
    // closed keeps the pages read-only.
    protectWholePages(global.data, global.bytes, PROT_READ | PROT_WRITE);
    if (!entry->data.empty())
      std::memcpy(global.data, entry->data.data(), entry->data.size());
    // The globals are .bss, anonymous memory in 4 KiB pages where THP is
    // `madvise`: a weight the model streams at every call is read faster
    // from huge pages (HugePages.h). The file stays mapped (ParamResidence::
    // Mapped): its bytes are only copied from.
    ::relax::runtime::collapseIntoHugePages(global.data, global.bytes);
    protectWholePages(global.data, global.bytes, PROT_READ);
    file.dropPages(*entry);
  }
  return Status::success();
}

//===----------------------------------------------------------------------===//
// ELF checks
//===----------------------------------------------------------------------===//

/// Whether [offset, offset + count * size) lies in a file of `fileSize`
/// bytes, without overflow.
static bool fitsInFile(uint64_t offset, uint64_t count, uint64_t size,
                       uint64_t fileSize) {
  uint64_t bytes, end;
  return !__builtin_mul_overflow(count, size, &bytes) &&
         !__builtin_add_overflow(offset, bytes, &end) && end <= fileSize;
}

namespace {
/// Closes a file descriptor when it goes out of scope.
struct FileCloser {
  int fd;
  ~FileCloser() {
    if (fd >= 0)
      ::close(fd);
  }
};
} // namespace

Status mlir::relax::rt::checkSharedLibraryFile(
    const std::string &path, std::vector<std::string> *imports) {
  auto cannotOpen = [&](int err) {
    return Status::error("cannot open " + path + ": " + std::strerror(err));
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cannotOpen(errno);
  FileCloser closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0)
    return cannotOpen(errno);
  if (S_ISDIR(st.st_mode))
    return cannotOpen(EISDIR);
  uint64_t fileSize = static_cast<uint64_t>(st.st_size);
  auto bad = [&](const std::string &why) {
    return Status::error("cannot load " + path + ": " + why);
  };
  auto cutOff = [&](const std::string &what, uint64_t end) {
    return bad(what + " ends at byte " + std::to_string(end) +
               " but the file has " + std::to_string(fileSize) +
               " bytes (truncated?)");
  };
  auto readAt = [&](void *out, uint64_t bytes, uint64_t offset) {
    return readFileAt(fd, out, bytes, offset) == 0;
  };

  unsigned char magic[SELFMAG] = {};
  if (fileSize < SELFMAG || !readAt(magic, SELFMAG, 0) ||
      std::memcmp(magic, ELFMAG, SELFMAG) != 0)
    return bad("not an ELF file");
  ElfW(Ehdr) header;
  if (fileSize < sizeof(header))
    return cutOff("the ELF header", sizeof(header));
  if (!readAt(&header, sizeof(header), 0))
    return bad("cannot read the ELF header");
  constexpr unsigned char hostClass =
      sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
  if (header.e_ident[EI_CLASS] != hostClass)
    return bad("ELF class " + std::to_string(header.e_ident[EI_CLASS]) +
               " is not this machine's (" + std::to_string(hostClass) + ")");
  if (header.e_type != ET_DYN)
    return bad("not a shared library (ELF type " +
               std::to_string(header.e_type) + ")");

  // Program headers: what dlopen maps.
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(ElfW(Phdr)))
    return bad("bad program header table (e_phnum " +
               std::to_string(header.e_phnum) + ", e_phentsize " +
               std::to_string(header.e_phentsize) + ")");
  if (!fitsInFile(header.e_phoff, header.e_phnum, sizeof(ElfW(Phdr)),
                  fileSize))
    return cutOff("the program header table (e_phoff " +
                      std::to_string(header.e_phoff) + ")",
                  header.e_phoff + uint64_t(header.e_phnum) *
                                       sizeof(ElfW(Phdr)));
  std::vector<ElfW(Phdr)> segments(header.e_phnum);
  if (!readAt(segments.data(), segments.size() * sizeof(ElfW(Phdr)),
              header.e_phoff))
    return bad("cannot read the program header table");
  for (size_t i = 0; i < segments.size(); ++i) {
    const ElfW(Phdr) &seg = segments[i];
    if (seg.p_filesz == 0 || fitsInFile(seg.p_offset, 1, seg.p_filesz,
                                        fileSize))
      continue;
    const char *kind = seg.p_type == PT_LOAD      ? " (PT_LOAD)"
                       : seg.p_type == PT_DYNAMIC ? " (PT_DYNAMIC)"
                                                  : "";
    return cutOff("segment #" + std::to_string(i) + kind + " [p_offset " +
                      std::to_string(seg.p_offset) + ", p_filesz " +
                      std::to_string(seg.p_filesz) + "]",
                  seg.p_offset + seg.p_filesz);
  }

  // Section headers (dlopen does not read them, but a file cut short of
  // them is cut short: its symbol table, the metadata's neighbour, too).
  if (header.e_shnum == 0)
    return Status::success();
  if (header.e_shentsize != sizeof(ElfW(Shdr)))
    return bad("bad section header table (e_shentsize " +
               std::to_string(header.e_shentsize) + ")");
  if (!fitsInFile(header.e_shoff, header.e_shnum, sizeof(ElfW(Shdr)),
                  fileSize))
    return cutOff("the section header table (e_shoff " +
                      std::to_string(header.e_shoff) + ")",
                  header.e_shoff + uint64_t(header.e_shnum) *
                                       sizeof(ElfW(Shdr)));
  std::vector<ElfW(Shdr)> sections(header.e_shnum);
  if (!readAt(sections.data(), sections.size() * sizeof(ElfW(Shdr)),
              header.e_shoff))
    return bad("cannot read the section header table");
  for (size_t i = 0; i < sections.size(); ++i) {
    const ElfW(Shdr) &sec = sections[i];
    if (sec.sh_type == SHT_NOBITS || sec.sh_type == SHT_NULL ||
        fitsInFile(sec.sh_offset, 1, sec.sh_size, fileSize))
      continue;
    return cutOff("section #" + std::to_string(i) + " [sh_offset " +
                      std::to_string(sec.sh_offset) + ", sh_size " +
                      std::to_string(sec.sh_size) + "]",
                  sec.sh_offset + sec.sh_size);
  }
  if (!imports)
    return Status::success();
  // The undefined entries of .dynsym, named through its linked string
  // table (both now known to lie within the file).
  for (const ElfW(Shdr) &sec : sections) {
    if (sec.sh_type != SHT_DYNSYM || sec.sh_entsize != sizeof(ElfW(Sym)) ||
        sec.sh_link >= sections.size())
      continue;
    const ElfW(Shdr) &strtab = sections[sec.sh_link];
    if (strtab.sh_type != SHT_STRTAB)
      continue;
    std::vector<ElfW(Sym)> symbols(sec.sh_size / sizeof(ElfW(Sym)));
    std::string names(strtab.sh_size, '\0');
    if (!readAt(symbols.data(), symbols.size() * sizeof(ElfW(Sym)),
                sec.sh_offset) ||
        !readAt(names.data(), names.size(), strtab.sh_offset))
      return bad("cannot read the dynamic symbol table");
    for (const ElfW(Sym) &symbol : symbols)
      if (symbol.st_shndx == SHN_UNDEF && symbol.st_name != 0 &&
          symbol.st_name < names.size())
        imports->push_back(names.c_str() + symbol.st_name);
  }
  return Status::success();
}

/// The size (st_size) of the dynamic symbol at `address`, or none when no
/// symbol starts there.
static std::optional<size_t> symbolSize(const void *address) {
  Dl_info info;
  void *entry = nullptr;
  if (!dladdr1(address, &info, &entry, RTLD_DL_SYMENT))
    return std::nullopt;
  auto *symbol = static_cast<const ElfW(Sym) *>(entry);
  if (!symbol || info.dli_saddr != address)
    return std::nullopt;
  return static_cast<size_t>(symbol->st_size);
}

//===----------------------------------------------------------------------===//
// Library
//===----------------------------------------------------------------------===//

namespace {
/// Canonical paths of the libraries open in this process.
std::mutex openLock;
std::set<std::string> &openLibraries() {
  static std::set<std::string> paths;
  return paths;
}
} // namespace

Result<std::unique_ptr<Library>> Library::open(const std::string &path,
                                               const std::string &paramsPath) {
  char canonical[PATH_MAX];
  if (!realpath(path.c_str(), canonical))
    return Status::error("cannot open " + path + ": " + std::strerror(errno));
  std::unique_ptr<Library> lib(new Library());
  lib->path = path;
  {
    std::lock_guard<std::mutex> guard(openLock);
    if (!openLibraries().insert(canonical).second)
      return Status::error(path + " is already open in this process (its "
                                  "globals hold one set of parameters)");
  }
  lib->canonicalPath = canonical;
  std::vector<std::string> imports;
  if (Status s = checkSharedLibraryFile(path, &imports))
    return s;
  // RTLD_LOCAL: the parameter globals of two libraries never meet.
  lib->handle = dlopen(lib->canonicalPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle)
    return Status::error("cannot load " + path + ": " + dlerror());
  auto *text = static_cast<const char *>(dlsym(lib->handle, kMetadataSymbol));
  if (!text)
    return Status::error(path + " is not a relax-mlir module (no " +
                         kMetadataSymbol + ")");
  // The string ends inside its symbol, or the library is corrupt.
  std::optional<size_t> textBytes = symbolSize(text);
  size_t length = textBytes ? strnlen(text, *textBytes) : 0;
  if (!textBytes || length == *textBytes)
    return Status::error("bad metadata in " + path + ": " + kMetadataSymbol +
                         " is not a NUL-terminated string within its " +
                         (textBytes ? std::to_string(*textBytes) + " bytes"
                                    : std::string("symbol")));
  auto metadata = ModuleMetadata::fromJSON(std::string(text, length));
  if (!metadata)
    return Status::error("bad metadata in " + path + ": " +
                         metadata.message());
  lib->metadata = std::move(*metadata);
  // oneDNN generates its GEMM kernels on the first product in the process
  // (45 ms on a Zen 4 core): a module with library products pays that here,
  // with its weights, rather than in its first call (a prefill).
  if (std::any_of(imports.begin(), imports.end(), [](const std::string &name) {
        return name.rfind("_mlir_ciface_relax_blas_", 0) == 0;
      }))
    relax_rt_blas_warm_up();
  for (const FunctionSpec &f : lib->metadata.functions) {
    if (!lib->lookupEntry(f.name))
      return Status::error(path + " lacks the entry point of '" + f.name +
                           "'");
    if (!f.shapeFunction.empty() && !lib->lookupSymbol(f.shapeFunction))
      return Status::error(path + " lacks the shape function of '" +
                           f.name + "' (" + f.shapeFunction + ")");
  }
  // Each parameter's global must hold what the metadata says it holds:
  // the loader copies that many bytes into it.
  std::vector<ParamGlobal> globals;
  for (size_t i = 0; i < lib->metadata.params.size(); ++i) {
    const ParamSpec &p = lib->metadata.params[i];
    std::string field = "metadata.params[" + std::to_string(i) + "]";
    std::optional<size_t> bytes = paramBytes(p);
    if (!bytes)
      return Status::error("bad metadata in " + path + ": " + field + " '" +
                           p.name + "' is " + p.dtype + " " +
                           shapeStr(p.shape) +
                           ": not a dtype and shape of a tensor");
    void *data = dlsym(lib->handle, p.name.c_str());
    if (!data)
      return Status::error("bad metadata in " + path + ": " + field +
                           " names '" + p.name +
                           "', which the library does not define");
    std::optional<size_t> size = symbolSize(data);
    if (!size || *bytes > *size)
      return Status::error(
          "bad metadata in " + path + ": " + field + " '" + p.name + "' is " +
          p.dtype + " " + shapeStr(p.shape) + " (" + std::to_string(*bytes) +
          " bytes) but the library's global holds " +
          (size ? std::to_string(*size) + " bytes"
                : std::string("no symbol of a known size")));
    globals.push_back({data, *size});
  }

  if (lib->metadata.params.empty())
    return lib;
  std::string params = paramsPath;
  if (params.empty()) {
    // The metadata's file name, in the library's directory.
    size_t slash = path.rfind('/');
    params = (slash == std::string::npos ? "" : path.substr(0, slash + 1)) +
             lib->metadata.paramsFile;
  }
  auto file = ParamFile::open(params);
  if (!file)
    return file.status();
  const ModuleMetadata &meta = lib->metadata;
  if (Status s = loadParams(meta, **file, [&](const std::string &name) {
        for (size_t i = 0; i < meta.params.size(); ++i)
          if (meta.params[i].name == name)
            return globals[i];
        return ParamGlobal();
      }))
    return s;
  return lib;
}

Library::~Library() {
  // Packed copies of this library's weights are keyed by their addresses.
  relax_rt_blas_release_constants();
  if (handle)
    dlclose(handle);
  if (!canonicalPath.empty()) {
    std::lock_guard<std::mutex> guard(openLock);
    openLibraries().erase(canonicalPath);
  }
}

void *Library::lookupSymbol(const std::string &name) const {
  return dlsym(handle, name.c_str());
}

PackedFn Library::lookupEntry(const std::string &entry) const {
  return reinterpret_cast<PackedFn>(
      dlsym(handle, packedEntrySymbol(entry).c_str()));
}

//===----------------------------------------------------------------------===//
// PackedCall
//===----------------------------------------------------------------------===//

static size_t descriptorWords(int64_t rank) { return 3 + 2 * rank; }

PackedCall::PackedCall(PackedFn fn, std::string name, std::vector<bool> ranked,
                       const std::vector<int64_t> &resultRanks)
    : fn(fn), name(std::move(name)), argDescs(ranked.size()),
      unrankedDescs(ranked.size()), paramRanked(std::move(ranked)) {
  size_t words = 0;
  for (int64_t rank : resultRanks) {
    resultOffsets.push_back(words);
    words += descriptorWords(rank);
  }
  resultWords.assign(std::max<size_t>(words, 1), 0);
}

void PackedCall::setInput(size_t i, void *data, const int64_t *shape,
                          size_t rankArg) {
  int64_t rank = rankArg;
  std::vector<int64_t> &desc = argDescs[i];
  desc.assign(descriptorWords(rank), 0);
  desc[0] = desc[1] = reinterpret_cast<int64_t>(data);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc[3 + d] = shape[d];
    desc[3 + rank + d] = stride;
    stride *= shape[d];
  }
  unrankedDescs[i] = {rank, reinterpret_cast<int64_t>(desc.data())};
}

Status PackedCall::run() {
  // The packed arguments point into this object; built on each run so a
  // moved or re-bound call never passes stale addresses.
  pointers.clear();
  packed.clear();
  if (!resultOffsets.empty())
    pointers.push_back(resultWords.data());
  for (size_t i = 0; i < argDescs.size(); ++i)
    pointers.push_back(paramRanked[i] ? argDescs[i].data()
                                      : unrankedDescs[i].data());
  for (void *&p : pointers)
    packed.push_back(&p);
  std::fill(resultWords.begin(), resultWords.end(), 0);
  relax_rt_clear_error();
  fn(packed.data());
  if (relax_rt_has_error())
    return Status::error(relax_rt_last_error());
  return Status::success();
}

std::vector<void *> PackedCall::ownedResultBlocks() const {
  std::vector<void *> blocks;
  for (size_t offset : resultOffsets) {
    int64_t allocated = resultWords[offset];
    bool isInput = std::any_of(
        argDescs.begin(), argDescs.end(), [&](const std::vector<int64_t> &d) {
          return !d.empty() && d[0] == allocated;
        });
    void *block = reinterpret_cast<void *>(allocated);
    if (!allocated || isInput || allocated == 0xdeadbeef ||
        std::find(blocks.begin(), blocks.end(), block) != blocks.end())
      continue;
    blocks.push_back(block);
  }
  return blocks;
}

void mlir::relax::rt::copyToDense(const int64_t *words, int64_t rank,
                                  size_t elem, void *dest) {
  const int64_t *sizes = words + 3, *strides = words + 3 + rank;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= sizes[d];
  const char *base = reinterpret_cast<const char *>(words[1]) + words[2] * elem;
  char *out = static_cast<char *>(dest);
  std::vector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    std::memcpy(out + linear * elem, base + offset * elem, elem);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}
