//===- ParamFile.cpp - Parameter files (safetensors) ----------------------===//
//
// https://github.com/huggingface/safetensors describes the format. The
// writer pads the JSON header with spaces so the data starts at a multiple
// of 64 bytes (as the format allows), and lays the tensors out in order with
// no holes. The reader accepts any conforming file and checks every entry
// against the file's size before anything is copied.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/ParamFile.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileOutputBuffer.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

using namespace mlir::relax::rt;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::optional<size_t> mlir::relax::rt::paramDTypeSize(llvm::StringRef dtype) {
  size_t size = llvm::StringSwitch<size_t>(dtype)
                    .Cases({"BOOL", "U8", "I8"}, 1)
                    .Cases({"F16", "BF16", "I16", "U16"}, 2)
                    .Cases({"F32", "I32", "U32"}, 4)
                    .Cases({"F64", "I64", "U64"}, 8)
                    .Default(0);
  if (!size)
    return std::nullopt;
  return size;
}

/// Where the data starts: the header is padded to make it 64-byte aligned.
static constexpr uint64_t kDataAlignment = 64;
/// Larger JSON headers are refused as corrupt (the format's own limit).
static constexpr uint64_t kMaxHeaderBytes = 100 << 20;

llvm::Error
mlir::relax::rt::writeParamFile(llvm::StringRef path,
                                llvm::ArrayRef<ParamToWrite> params,
                                const llvm::StringMap<std::string> &metadata) {
  llvm::json::Object header;
  uint64_t offset = 0;
  for (const ParamToWrite &p : params) {
    if (header.find(p.name) != header.end())
      return error("parameter '" + p.name + "' is written twice");
    llvm::json::Array shape;
    for (int64_t d : p.shape)
      shape.push_back(d);
    header[p.name] = llvm::json::Object{
        {"dtype", p.dtype},
        {"shape", std::move(shape)},
        {"data_offsets", llvm::json::Array{offset, offset + p.data.size()}}};
    offset += p.data.size();
  }
  if (!metadata.empty()) {
    llvm::json::Object meta;
    for (const auto &entry : metadata)
      meta[entry.getKey()] = entry.getValue();
    header["__metadata__"] = std::move(meta);
  }
  std::string json;
  llvm::raw_string_ostream(json) << llvm::json::Value(std::move(header));
  json.resize(llvm::alignTo(8 + json.size(), kDataAlignment) - 8, ' ');

  auto file = llvm::FileOutputBuffer::create(path, 8 + json.size() + offset);
  if (!file)
    return error("cannot write " + path + ": " +
                 llvm::toString(file.takeError()));
  uint8_t *out = (*file)->getBufferStart();
  llvm::support::endian::write64le(out, json.size());
  std::memcpy(out + 8, json.data(), json.size());
  out += 8 + json.size();
  for (const ParamToWrite &p : params) {
    if (!p.data.empty())
      std::memcpy(out, p.data.data(), p.data.size());
    out += p.data.size();
  }
  if (llvm::Error err = (*file)->commit())
    return error("cannot write " + path + ": " +
                 llvm::toString(std::move(err)));
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<ParamFile>>
ParamFile::open(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return error("cannot open parameter file " + path + ": " +
                 buffer.getError().message());
  auto corrupt = [&](const llvm::Twine &why) {
    return error("corrupt parameter file " + path + ": " + why);
  };
  llvm::StringRef bytes = (*buffer)->getBuffer();
  if (bytes.size() < 8)
    return corrupt("shorter than its 8-byte header length");
  uint64_t headerSize = llvm::support::endian::read64le(bytes.data());
  if (headerSize > kMaxHeaderBytes || headerSize > bytes.size() - 8)
    return corrupt("header length " + llvm::Twine(headerSize) +
                   " exceeds the file (" + llvm::Twine(bytes.size()) +
                   " bytes)");
  llvm::StringRef data = bytes.drop_front(8 + headerSize);
  auto json = llvm::json::parse(bytes.substr(8, headerSize));
  if (!json)
    return corrupt("header is not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *header = json->getAsObject();
  if (!header)
    return corrupt("header is not a JSON object");

  auto file = std::make_unique<ParamFile>();
  file->filePath = path.str();
  for (const auto &[key, value] : *header) {
    llvm::StringRef name = key;
    if (name == "__metadata__") {
      const llvm::json::Object *meta = value.getAsObject();
      if (!meta)
        return corrupt("__metadata__ is not an object");
      for (const auto &[mkey, mvalue] : *meta) {
        std::optional<llvm::StringRef> s = mvalue.getAsString();
        if (!s)
          return corrupt("__metadata__ value of '" + llvm::StringRef(mkey) +
                         "' is not a string");
        file->meta[mkey] = s->str();
      }
      continue;
    }
    auto bad = [&](const llvm::Twine &why) {
      return corrupt("tensor '" + name + "': " + why);
    };
    const llvm::json::Object *entry = value.getAsObject();
    if (!entry)
      return bad("not an object");
    std::optional<llvm::StringRef> dtype = entry->getString("dtype");
    if (!dtype)
      return bad("no dtype");
    std::optional<size_t> elemSize = paramDTypeSize(*dtype);
    if (!elemSize)
      return bad("unsupported dtype '" + *dtype + "'");
    const llvm::json::Array *shape = entry->getArray("shape");
    const llvm::json::Array *offsets = entry->getArray("data_offsets");
    if (!shape || !offsets || offsets->size() != 2)
      return bad("needs a shape and two data_offsets");
    Entry e;
    e.dtype = dtype->str();
    int64_t bytesNeeded = *elemSize;
    for (const llvm::json::Value &d : *shape) {
      std::optional<int64_t> dim = d.getAsInteger();
      if (!dim || *dim < 0)
        return bad("shape holds a value that is not a non-negative integer");
      e.shape.push_back(*dim);
      if (llvm::MulOverflow(bytesNeeded, *dim, bytesNeeded))
        return bad("size overflows");
    }
    std::optional<int64_t> begin = (*offsets)[0].getAsInteger();
    std::optional<int64_t> end = (*offsets)[1].getAsInteger();
    if (!begin || !end || *begin < 0 || *end < *begin)
      return bad("data_offsets are not an increasing pair of integers");
    if (static_cast<uint64_t>(*end) > data.size())
      return bad("data ends at byte " + llvm::Twine(*end) + " but the file " +
                 "holds " + llvm::Twine(data.size()) +
                 " bytes of data (truncated?)");
    if (*end - *begin != bytesNeeded)
      return bad("holds " + llvm::Twine(*end - *begin) + " bytes, its dtype " +
                 "and shape need " + llvm::Twine(bytesNeeded));
    e.data = llvm::ArrayRef<char>(data.data() + *begin, *end - *begin);
    file->tensors[name] = std::move(e);
  }
  file->buffer = std::move(*buffer);
  return file;
}

void ParamFile::dropPages(const Entry &entry) const {
  if (!buffer || buffer->getBufferKind() != llvm::MemoryBuffer::MemoryBuffer_MMap ||
      entry.data.empty())
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

const ParamFile::Entry *ParamFile::lookup(llvm::StringRef name) const {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}
