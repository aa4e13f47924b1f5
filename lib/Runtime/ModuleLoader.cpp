//===- ModuleLoader.cpp - Compiled libraries and their calling ABI --------===//

#include "RelaxDialect/Runtime/ModuleLoader.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <set>

using namespace mlir::relax::rt;
namespace json = llvm::json;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string mlir::relax::rt::packedEntrySymbol(llvm::StringRef name) {
  return ("_mlir__mlir_ciface_" + name).str();
}

size_t mlir::relax::rt::dtypeNameSize(llvm::StringRef dtype) {
  return llvm::StringSwitch<size_t>(dtype)
      .Cases({"i1", "i8", "ui8"}, 1)
      .Cases({"f16", "bf16", "i16", "ui16"}, 2)
      .Cases({"f32", "i32", "ui32"}, 4)
      .Cases({"f64", "i64", "ui64"}, 8)
      .Default(0);
}

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

static json::Value toJSON(const TensorSpec &t) {
  json::Array sizes, dims;
  for (int64_t s : t.staticSizes)
    sizes.push_back(s);
  for (const std::string &d : t.dims)
    dims.push_back(d);
  json::Object o{{"dtype", t.dtype}, {"ranked", t.ranked}};
  if (t.ranked) {
    o["static_sizes"] = std::move(sizes);
    o["dims"] = std::move(dims);
  }
  if (!t.relaxType.empty())
    o["relax_type"] = t.relaxType;
  if (!t.name.empty())
    o["name"] = t.name;
  return o;
}

std::string ModuleMetadata::toJSON() const {
  json::Array fns, ps;
  for (const FunctionSpec &f : functions) {
    json::Array params, results;
    for (const TensorSpec &t : f.params)
      params.push_back(::toJSON(t));
    for (const TensorSpec &t : f.results)
      results.push_back(::toJSON(t));
    fns.push_back(json::Object{{"name", f.name},
                               {"params", std::move(params)},
                               {"results", std::move(results)}});
  }
  for (const ParamSpec &p : params) {
    json::Array shape;
    for (int64_t d : p.shape)
      shape.push_back(d);
    ps.push_back(json::Object{
        {"name", p.name}, {"dtype", p.dtype}, {"shape", std::move(shape)}});
  }
  json::Object root{{"format", "relax-mlir module"},
                    {"version", kModuleFormatVersion},
                    {"functions", std::move(fns)},
                    {"params", std::move(ps)},
                    {"params_file", paramsFile}};
  std::string out;
  llvm::raw_string_ostream(out) << json::Value(std::move(root));
  return out;
}

namespace mlir::relax::rt {
// Found by argument-dependent lookup from json::ObjectMapper::map.
static bool fromJSON(const json::Value &v, TensorSpec &t, json::Path path) {
  json::ObjectMapper o(v, path);
  if (!o || !o.map("dtype", t.dtype) || !o.map("ranked", t.ranked) ||
      !o.mapOptional("relax_type", t.relaxType) ||
      !o.mapOptional("name", t.name))
    return false;
  if (!t.ranked)
    return true;
  if (!o.map("static_sizes", t.staticSizes) || !o.map("dims", t.dims))
    return false;
  if (t.staticSizes.size() != t.dims.size()) {
    path.report("static_sizes and dims differ in length");
    return false;
  }
  if (!dtypeNameSize(t.dtype)) {
    path.field("dtype").report("unknown dtype");
    return false;
  }
  return true;
}

static bool fromJSON(const json::Value &v, FunctionSpec &f, json::Path path) {
  json::ObjectMapper o(v, path);
  return o && o.map("name", f.name) && o.map("params", f.params) &&
         o.map("results", f.results);
}

static bool fromJSON(const json::Value &v, ParamSpec &p, json::Path path) {
  json::ObjectMapper o(v, path);
  return o && o.map("name", p.name) && o.map("dtype", p.dtype) &&
         o.map("shape", p.shape);
}
} // namespace mlir::relax::rt

llvm::Expected<ModuleMetadata> ModuleMetadata::fromJSON(llvm::StringRef text) {
  auto value = json::parse(text);
  if (!value)
    return value.takeError();
  json::Path::Root root("metadata");
  json::ObjectMapper o(*value, root);
  std::string format;
  int64_t version = 0;
  ModuleMetadata m;
  if (!o || !o.map("format", format) || !o.map("version", version))
    return root.getError();
  if (format != "relax-mlir module" || version != kModuleFormatVersion)
    return error("module format '" + format + "' version " +
                 llvm::Twine(version) + ", this runtime reads version " +
                 llvm::Twine(kModuleFormatVersion));
  if (!o.map("functions", m.functions) || !o.map("params", m.params) ||
      !o.map("params_file", m.paramsFile))
    return root.getError();
  return m;
}

const FunctionSpec *ModuleMetadata::lookup(llvm::StringRef name) const {
  for (const FunctionSpec &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

static std::string shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

llvm::Error mlir::relax::rt::loadParams(
    const ModuleMetadata &metadata, const ParamFile &file,
    llvm::function_ref<void *(llvm::StringRef)> lookup) {
  for (const ParamSpec &p : metadata.params) {
    const ParamFile::Entry *entry = file.lookup(p.name);
    if (!entry)
      return error("parameter file " + file.path() + " has no tensor '" +
                   p.name + "' (written for another library?)");
    if (entry->dtype != p.dtype || entry->shape != p.shape)
      return error("parameter '" + p.name + "' in " + file.path() + " is " +
                   entry->dtype + " " + shapeStr(entry->shape) +
                   " but the library expects " + p.dtype + " " +
                   shapeStr(p.shape));
    void *dest = lookup(p.name);
    if (!dest)
      return error("the library has no global '" + p.name + "'");
    if (!entry->data.empty())
      std::memcpy(dest, entry->data.data(), entry->data.size());
    file.dropPages(*entry);
  }
  return llvm::Error::success();
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

llvm::Expected<std::unique_ptr<Library>>
Library::open(llvm::StringRef path, llvm::StringRef paramsPath) {
  llvm::SmallString<256> canonical;
  if (std::error_code ec = llvm::sys::fs::real_path(path, canonical))
    return error("cannot open " + path + ": " + ec.message());
  std::unique_ptr<Library> lib(new Library());
  lib->path = path.str();
  {
    std::lock_guard<std::mutex> guard(openLock);
    if (!openLibraries().insert(std::string(canonical)).second)
      return error(path + " is already open in this process (its globals "
                          "hold one set of parameters)");
  }
  lib->canonicalPath = std::string(canonical);
  // RTLD_LOCAL: the parameter globals of two libraries never meet.
  lib->handle = dlopen(lib->canonicalPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle)
    return error("cannot load " + path + ": " + dlerror());
  auto *text = static_cast<const char *>(dlsym(lib->handle, kMetadataSymbol));
  if (!text)
    return error(path + " is not a relax-mlir module (no " + kMetadataSymbol +
                 ")");
  auto metadata = ModuleMetadata::fromJSON(text);
  if (!metadata)
    return error("bad metadata in " + path + ": " +
                 llvm::toString(metadata.takeError()));
  lib->metadata = std::move(*metadata);
  for (const FunctionSpec &f : lib->metadata.functions)
    if (!lib->lookupEntry(f.name))
      return error(path + " lacks the entry point of '" + f.name + "'");

  if (lib->metadata.params.empty())
    return lib;
  std::string params = paramsPath.str();
  if (params.empty()) {
    llvm::SmallString<256> next(llvm::sys::path::parent_path(path));
    llvm::sys::path::append(next, lib->metadata.paramsFile);
    params = std::string(next);
  }
  auto file = ParamFile::open(params);
  if (!file)
    return file.takeError();
  void *handle = lib->handle;
  if (llvm::Error err =
          loadParams(lib->metadata, **file, [&](llvm::StringRef name) {
            return dlsym(handle, name.str().c_str());
          }))
    return std::move(err);
  return lib;
}

Library::~Library() {
  if (handle)
    dlclose(handle);
  if (!canonicalPath.empty()) {
    std::lock_guard<std::mutex> guard(openLock);
    openLibraries().erase(canonicalPath);
  }
}

PackedFn Library::lookupEntry(llvm::StringRef entry) const {
  return reinterpret_cast<PackedFn>(
      dlsym(handle, packedEntrySymbol(entry).c_str()));
}

//===----------------------------------------------------------------------===//
// PackedCall
//===----------------------------------------------------------------------===//

static size_t descriptorWords(int64_t rank) { return 3 + 2 * rank; }

PackedCall::PackedCall(PackedFn fn, std::string name, std::vector<bool> ranked,
                       llvm::ArrayRef<int64_t> resultRanks)
    : fn(fn), name(std::move(name)), argDescs(ranked.size()),
      unrankedDescs(ranked.size()), paramRanked(std::move(ranked)) {
  size_t words = 0;
  for (int64_t rank : resultRanks) {
    resultOffsets.push_back(words);
    words += descriptorWords(rank);
  }
  resultWords.assign(std::max<size_t>(words, 1), 0);
}

void PackedCall::setInput(size_t i, void *data, llvm::ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
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

llvm::Error PackedCall::run() {
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
    return error(relax_rt_last_error());
  return llvm::Error::success();
}

std::vector<void *> PackedCall::ownedResultBlocks() const {
  std::vector<void *> blocks;
  for (size_t offset : resultOffsets) {
    int64_t allocated = resultWords[offset];
    bool isInput = llvm::any_of(argDescs, [&](const std::vector<int64_t> &d) {
      return !d.empty() && d[0] == allocated;
    });
    if (!allocated || isInput || allocated == 0xdeadbeef ||
        llvm::is_contained(blocks, reinterpret_cast<void *>(allocated)))
      continue;
    blocks.push_back(reinterpret_cast<void *>(allocated));
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
