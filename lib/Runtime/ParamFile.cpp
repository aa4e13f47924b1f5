//===- ParamFile.cpp - Parameter files (safetensors) ----------------------===//
//
// https://github.com/huggingface/safetensors describes the format. The
// reader accepts any conforming file and checks every entry against the
// file's size before anything is copied. It is part of libRelaxModule and
// links no LLVM: the file is mapped with mmap and its header parsed with
// nlohmann-json (the writer, ParamFileWriter.cpp, is the compiler's).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/ParamFile.h"
#include "RelaxDialect/Runtime/HugePages.h"

#include "FileRead.h"
#include "JSONSupport.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::relax::rt;

std::optional<size_t> mlir::relax::rt::paramDTypeSize(std::string_view dtype) {
  for (auto [name, size] : {std::pair<std::string_view, size_t>{"BOOL", 1},
                            {"U8", 1},
                            {"I8", 1},
                            {"F16", 2},
                            {"BF16", 2},
                            {"I16", 2},
                            {"U16", 2},
                            {"F32", 4},
                            {"I32", 4},
                            {"U32", 4},
                            {"F64", 8},
                            {"I64", 8},
                            {"U64", 8}})
    if (dtype == name)
      return size;
  return std::nullopt;
}

/// Larger JSON headers are refused as corrupt (the format's own limit).
static constexpr uint64_t kMaxHeaderBytes = 100 << 20;

Result<std::unique_ptr<ParamFile>>
ParamFile::open(const std::string &path, ParamResidence residence) {
  auto cannotOpen = [&](int err) {
    return Status::error("cannot open parameter file " + path + ": " +
                         std::strerror(err));
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cannotOpen(errno);
  struct stat st;
  int statError = fstat(fd, &st) != 0 ? errno
                  : S_ISDIR(st.st_mode) ? EISDIR
                                        : 0;
  if (statError) {
    ::close(fd);
    return cannotOpen(statError);
  }
  std::unique_ptr<ParamFile> file(new ParamFile());
  file->filePath = path;
  file->mappedBytes = st.st_size;
  if (residence == ParamResidence::HugePages &&
      ::relax::runtime::wantsHugePages(file->mappedBytes) &&
      ::relax::runtime::hugePagesEnabled()) {
    // Anonymous memory advised MADV_HUGEPAGE before pread's first touch,
    // so each 2 MiB is faulted in as one huge page where the kernel has
    // one; then read-only, as the mapping is.
    void *p = ::relax::runtime::allocateLargeBuffer(file->mappedBytes);
    int err = p ? readFileAt(fd, p, file->mappedBytes, 0) : ENOMEM;
    if (!err && mprotect(p, ::relax::runtime::roundUpToHugePages(
                                file->mappedBytes),
                         PROT_READ) != 0)
      err = errno;
    if (err) {
      ::relax::runtime::freeLargeBuffer(p, file->mappedBytes);
      ::close(fd);
      return Status::error("cannot read parameter file " + path + ": " +
                           std::strerror(err));
    }
    file->mapping = p;
    file->where = ParamResidence::HugePages;
  } else if (file->mappedBytes) {
    void *p = mmap(nullptr, file->mappedBytes, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return cannotOpen(err);
    }
    file->mapping = p;
  }
  ::close(fd);

  auto corrupt = [&](const std::string &why) {
    return Status::error("corrupt parameter file " + path + ": " + why);
  };
  std::string_view bytes(static_cast<const char *>(file->mapping),
                         file->mappedBytes);
  if (bytes.size() < 8)
    return corrupt("shorter than its 8-byte header length");
  uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i)
    headerSize = headerSize << 8 | static_cast<uint8_t>(bytes[i]);
  if (headerSize > kMaxHeaderBytes || headerSize > bytes.size() - 8)
    return corrupt("header length " + std::to_string(headerSize) +
                   " exceeds the file (" + std::to_string(bytes.size()) +
                   " bytes)");
  std::string_view data = bytes.substr(8 + headerSize);
  std::string parseError;
  std::optional<json::Value> header =
      json::parse(bytes.substr(8, headerSize), parseError);
  if (!header)
    return corrupt("header is not JSON: " + parseError);
  if (!header->is_object())
    return corrupt("header is not a JSON object");

  for (const auto &[name, value] : header->items()) {
    if (name == "__metadata__") {
      if (!value.is_object())
        return corrupt("__metadata__ is not an object");
      for (const auto &[mkey, mvalue] : value.items()) {
        if (!mvalue.is_string())
          return corrupt("__metadata__ value of '" + mkey +
                         "' is not a string");
        file->meta[mkey] = mvalue.get<std::string>();
      }
      continue;
    }
    auto bad = [&](const std::string &why) {
      return corrupt("tensor '" + name + "': " + why);
    };
    if (!value.is_object())
      return bad("not an object");
    const json::Value *dtype = json::member(value, "dtype");
    if (!dtype || !dtype->is_string())
      return bad("no dtype");
    std::string dtypeName = dtype->get<std::string>();
    std::optional<size_t> elemSize = paramDTypeSize(dtypeName);
    if (!elemSize)
      return bad("unsupported dtype '" + dtypeName + "'");
    const json::Value *shape = json::member(value, "shape");
    const json::Value *offsets = json::member(value, "data_offsets");
    if (!shape || !shape->is_array() || !offsets || !offsets->is_array() ||
        offsets->size() != 2)
      return bad("needs a shape and two data_offsets");
    Entry e;
    e.dtype = dtypeName;
    int64_t bytesNeeded = *elemSize;
    for (const json::Value &d : *shape) {
      std::optional<int64_t> dim = json::asInteger(d);
      if (!dim || *dim < 0)
        return bad("shape holds a value that is not a non-negative integer");
      e.shape.push_back(*dim);
      if (__builtin_mul_overflow(bytesNeeded, *dim, &bytesNeeded))
        return bad("size overflows");
    }
    std::optional<int64_t> begin = json::asInteger((*offsets)[0]);
    std::optional<int64_t> end = json::asInteger((*offsets)[1]);
    if (!begin || !end || *begin < 0 || *end < *begin)
      return bad("data_offsets are not an increasing pair of integers");
    if (static_cast<uint64_t>(*end) > data.size())
      return bad("data ends at byte " + std::to_string(*end) +
                 " but the file holds " + std::to_string(data.size()) +
                 " bytes of data (truncated?)");
    if (*end - *begin != bytesNeeded)
      return bad("holds " + std::to_string(*end - *begin) +
                 " bytes, its dtype and shape need " +
                 std::to_string(bytesNeeded));
    e.data = data.substr(*begin, *end - *begin);
    file->tensors[name] = std::move(e);
  }
  return file;
}

ParamFile::~ParamFile() {
  if (mapping && where == ParamResidence::HugePages)
    ::relax::runtime::freeLargeBuffer(mapping, mappedBytes);
  else if (mapping)
    munmap(mapping, mappedBytes);
}

void ParamFile::dropPages(const Entry &entry) const {
  if (!mapping || entry.data.empty())
    return;
  // Only pages entirely inside the entry's range: neighbours may share the
  // first and last page.
  uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t begin = reinterpret_cast<uintptr_t>(entry.data.data());
  uintptr_t end = begin + entry.data.size();
  uintptr_t first = (begin + page - 1) / page * page;
  uintptr_t last = end / page * page;
  if (first < last)
    madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
}

const ParamFile::Entry *ParamFile::lookup(const std::string &name) const {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}
