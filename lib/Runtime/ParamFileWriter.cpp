//===- ParamFileWriter.cpp - Writing parameter files ----------------------===//
//
// The writer pads the JSON header with spaces so the data starts at a
// multiple of 64 bytes (as the safetensors format allows), and lays the
// tensors out in order with no holes.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/ParamFileWriter.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileOutputBuffer.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir::relax::rt;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Where the data starts: the header is padded to make it 64-byte aligned.
static constexpr uint64_t kDataAlignment = 64;

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
