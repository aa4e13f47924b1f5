//===- llama_generate_weights.cpp - The weights of llama-generate ---------===//
//
// Weights are bound by name: every input of prefill/decode that is not the
// tokens, past_length or a cache is looked up under its relax.name (Hugging
// Face's state dict names) in the safetensors file, or generated with the
// counter-based generator below (the same numbers as
// scripts/llama_weights.py), which --save-weights writes as safetensors.
// A quantized model's <module>.qweight / .scales / .qzeros are read as
// stored, or, with --quantize, made at load time from the f32
// <module>.weight of the file or the generator (llama_generate_quantize.cpp).
// A model whose weights are in tiles (gen-llama-model.py --quant-layout
// tiles: <module>.qtiles) gets them packed at load time
// (RelaxDialect/Runtime/QuantTiles.h) from the same plain tensors, which
// are what a file holds and what --save-weights writes.
// A rank of a tensor-parallel model (llama-generate-tp) binds its slice of
// the weights gen-llama-model.py --tensor-parallel splits, cut at load time
// from the full tensor of the same file or generator.
// Every weight it owns lives in 2 MiB huge pages (WeightVector, the file
// read with ParamResidence::HugePages), RELAX_HUGE_PAGES=0 aside.
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

#include "RelaxDialect/Runtime/QuantTiles.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

namespace llama_generate {

namespace {

// Element i of tensor `name` is a function of (seed, name, i) only, so any
// implementation (scripts/llama_weights.py) reproduces it without sharing a
// stream: key = splitmix64(seed ^ fnv1a64(name)), z = splitmix64(key + i),
// u = (z >> 40) * 2^-23 - 1 in [-1, 1) (exact in float32). A matrix [out, in]
// gets u * float32(1 / sqrt(in)) (fan-in scaling keeps activations O(1)); a
// bias (a name ending in .bias) gets u / 8 (+ 0.0f, exact), any other vector
// (the RMSNorm weights) 1 + u / 8. Both are one float32 rounding
// of exact operands, so the bits agree across languages.
uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t fnv1a64(const std::string &s) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : s)
    h = (h ^ c) * 0x100000001B3ull;
  return h;
}

void randomWeight(uint64_t seed, const std::string &name,
                  const std::vector<int64_t> &shape, float *out) {
  uint64_t key = splitmix64(seed ^ fnv1a64(name));
  size_t count = 1;
  for (int64_t d : shape)
    count *= static_cast<size_t>(d);
  float scale = shape.size() == 2
                    ? static_cast<float>(1.0 / std::sqrt(double(shape[1])))
                    : 0.125f;
  // Norm weights scatter around 1, matrices and biases around 0.
  bool isBias =
      name.size() >= 5 && name.compare(name.size() - 5, 5, ".bias") == 0;
  float offset = shape.size() == 2 || isBias ? 0.0f : 1.0f;
  for (size_t i = 0; i < count; ++i) {
    float u = float(splitmix64(key + i) >> 40) * 0x1p-23f - 1.0f;
    out[i] = offset + u * scale;
  }
}

} // namespace

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

namespace {

/// The safetensors dtype name of a model input's dtype.
std::string fileDtype(relax_dtype dtype) {
  switch (dtype) {
  case RELAX_DTYPE_F32:
    return "F32";
  case RELAX_DTYPE_F16:
    return "F16";
  case RELAX_DTYPE_I8:
    return "I8";
  case RELAX_DTYPE_U8:
    return "U8";
  default:
    return relax_dtype_name(dtype);
  }
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The module of a quantized parameter (`X` of X.qweight, X.scales,
/// X.qzeros), or empty.
std::string quantizedBase(const std::string &name) {
  for (const char *suffix : {".qweight", ".scales", ".qzeros", ".qtiles"})
    if (endsWith(name, suffix))
      return name.substr(0, name.size() - strlen(suffix));
  return "";
}

/// How --tensor-parallel splits a weight: q/k/v and gate/up (weights and
/// biases) by rows, their output features (column-parallel); o_proj and
/// down_proj weights by columns, their input features (row-parallel, the
/// partial products summed by an allreduce). Everything else is whole.
enum class Split { None, Rows, Columns };

Split splitOf(const std::string &name) {
  for (const char *module :
       {".self_attn.q_proj.", ".self_attn.k_proj.", ".self_attn.v_proj.",
        ".mlp.gate_proj.", ".mlp.up_proj."})
    if (name.find(module) != std::string::npos &&
        (endsWith(name, ".weight") || endsWith(name, ".bias")))
      return Split::Rows;
  if (endsWith(name, ".self_attn.o_proj.weight") ||
      endsWith(name, ".mlp.down_proj.weight"))
    return Split::Columns;
  return Split::None;
}

} // namespace

Weights::Weights(const Options &o, const std::vector<Input> &modelInputs)
    : opts(o) {
  bool quantized = false, tiledModel = false;
  for (const Input &in : modelInputs) {
    model[in.name] = in;
    tiledModel |= endsWith(in.name, ".qtiles");
    quantized |= endsWith(in.name, ".qweight") || tiledModel;
  }
  if (o.quantizeBits && !quantized)
    fail("--quantize: the model has no quantized weights (make it with "
         "gen-llama-model.py --quantize)");
  if (o.ranks > 1 && quantized)
    fail("a tensor-parallel run takes f32 weights, not quantized ones");
  if (!o.weights.empty()) {
    // Read into huge pages: the model computes on these bytes in place.
    // A tiled model computes on the tiles packed at load time instead
    // (huge pages too, `tiled`): its file is only read from, and a copy of
    // it would double the weights' memory for the whole run.
    auto file = mlir::relax::rt::ParamFile::open(
        o.weights, tiledModel ? mlir::relax::rt::ParamResidence::Mapped
                              : mlir::relax::rt::ParamResidence::HugePages);
    if (!file)
      fail("cannot read the weights: " + file.message());
    this->file = std::move(*file);
  }
}

const mlir::relax::rt::ParamFile::Entry *
Weights::fileF32(const std::string &name) const {
  const auto *entry = file->lookup(name);
  if (!entry)
    fail(opts.weights + " has no tensor '" + name + "'");
  if (entry->dtype != "F32")
    fail(opts.weights + ": '" + name + "' is " + entry->dtype +
         ", the model needs F32 (convert the checkpoint, docs/llm.md)");
  return entry;
}

const float *Weights::slice(const std::string &name,
                           const std::vector<int64_t> &shape) {
  Split split = splitOf(name);
  if (opts.ranks == 1 || split == Split::None)
    return nullptr;
  // Rows: a weight [out, in] or a bias [out]; columns: a weight.
  if (shape.empty() || shape.size() > 2 ||
      (split == Split::Columns && shape.size() != 2))
    fail("'" + name + "' has shape " + shapeText(shape) +
         ": not a weight that tensor parallelism splits");
  // This rank's part is the r-th block of the split dim of the full tensor.
  std::vector<int64_t> full = shape;
  int dim = split == Split::Rows ? 0 : 1;
  full[dim] *= opts.ranks;
  const float *whole = nullptr;
  std::vector<float> made;
  if (file) {
    const auto *entry = fileF32(name);
    if (entry->shape != full)
      fail(opts.weights + ": '" + name + "' has shape " +
           shapeText(entry->shape) + ", the model's rank " +
           std::to_string(opts.rank) + " of " + std::to_string(opts.ranks) +
           " needs " + shapeText(shape) + " of " + shapeText(full) +
           " (a model made with another --tensor-parallel, or another "
           "number of ranks?)");
    whole = reinterpret_cast<const float *>(entry->data.data());
  } else {
    size_t count = 1;
    for (int64_t d : full)
      count *= d;
    made.resize(count);
    randomWeight(opts.seed, name, full, made.data());
    whole = made.data();
  }
  int64_t rows = shape[0], cols = shape.size() == 2 ? shape[1] : 1;
  WeightVector<float> &part = slices[name];
  part.resize(size_t(rows * cols));
  if (split == Split::Rows) {
    const float *from = whole + opts.rank * rows * cols;
    std::copy(from, from + rows * cols, part.begin());
  } else {
    for (int64_t i = 0; i < rows; ++i) {
      const float *from = whole + i * full[1] + opts.rank * cols;
      std::copy(from, from + cols, part.begin() + i * cols);
    }
  }
  return part.data();
}

const float *Weights::f32Weight(const std::string &name,
                                const std::vector<int64_t> &shape) {
  if (const float *part = slice(name, shape))
    return part;
  if (file) {
    const auto *entry = fileF32(name);
    if (entry->shape != shape)
      fail(opts.weights + ": '" + name + "' has shape " +
           shapeText(entry->shape) + ", the model needs " + shapeText(shape));
    return reinterpret_cast<const float *>(entry->data.data());
  }
  size_t count = 1;
  for (int64_t d : shape)
    count *= d;
  OwnedTensor &t = generated[name];
  t.dtype = "F32";
  t.shape = shape;
  t.bytes.resize(count * sizeof(float));
  randomWeight(opts.seed, name, shape,
               reinterpret_cast<float *>(t.bytes.data()));
  return reinterpret_cast<const float *>(t.bytes.data());
}

void Weights::quantize(const std::string &base) {
  auto qIt = model.find(base + ".qweight");
  auto sIt = model.find(base + ".scales");
  if (qIt == model.end() || sIt == model.end() ||
      qIt->second.shape.size() != 2 || sIt->second.shape.size() != 2)
    fail("the model's parameters of '" + base +
         "' are not a quantized weight (.qweight and .scales of rank 2)");
  const Input &qIn = qIt->second, &sIn = sIt->second;
  int bits = qIn.dtype == RELAX_DTYPE_I8 ? 8 : 4;
  if (opts.quantizeBits != bits)
    fail("'" + qIn.name + "' is " + relax_dtype_name(qIn.dtype) +
         ": the model's weights are " + std::to_string(bits) +
         "-bit, --quantize says q" + std::to_string(opts.quantizeBits));
  int64_t out = qIn.shape[0], in = bits == 8 ? qIn.shape[1] : 2 * qIn.shape[1];
  int64_t group = opts.groupSize;
  if (in % group != 0 || (bits == 4 && group % 2 != 0))
    fail("--group-size " + std::to_string(group) + " does not divide the " +
         std::to_string(in) + " columns of '" + base + ".weight'" +
         (bits == 4 ? " into even groups" : ""));
  std::vector<int64_t> scalesShape = {out, in / group};
  if (sIn.shape != scalesShape)
    fail("--group-size " + std::to_string(group) + " gives '" + sIn.name +
         "' the shape " + shapeText(scalesShape) + ", the model needs " +
         shapeText(sIn.shape) + " (a group of " +
         std::to_string(sIn.shape[1] ? in / sIn.shape[1] : 0) + ")");
  quantizeAs(base, bits, out, in, group, model.count(base + ".qzeros") != 0,
             sIn.dtype == RELAX_DTYPE_F16);
}

void Weights::quantizeAs(const std::string &base, int bits, int64_t out,
                         int64_t in, int64_t group, bool zeroPoints,
                         bool f16Scales) {
  const float *w = f32Weight(base + ".weight", {out, in});
  OwnedTensor q, scales, zeros;
  quantizeMatrix(w, out, in, bits, group, zeroPoints, f16Scales, q, scales,
                 zeros);
  // The f32 weight is not needed any more (nor saved with the others).
  generated.erase(base + ".weight");
  generated[base + ".qweight"] = std::move(q);
  generated[base + ".scales"] = std::move(scales);
  if (zeroPoints)
    generated[base + ".qzeros"] = std::move(zeros);
}

const void *Weights::tiles(const Input &in, const std::string &base) {
  namespace qt = relax::runtime::quant_tiles;
  if (auto it = tiled.find(in.name); it != tiled.end())
    return it->second.bytes.data();
  if (in.dtype != RELAX_DTYPE_U8 || in.shape.size() != 3 ||
      (in.shape[2] != qt::tileBytes(8) && in.shape[2] != qt::tileBytes(4)))
    fail("'" + in.name + "' is " + relax_dtype_name(in.dtype) + " " +
         shapeText(in.shape) + ": not weight tiles (ui8 [n / 8, k / 128, " +
         std::to_string(qt::tileBytes(8)) + " or " +
         std::to_string(qt::tileBytes(4)) + "])");
  int bits = in.shape[2] == qt::tileBytes(8) ? 8 : 4;
  int64_t out = in.shape[0] * qt::kRows, cols = in.shape[1] * qt::kCols;
  // The plain tensors: the file's, else quantized here.
  std::string qName = base + ".qweight", sName = base + ".scales";
  std::vector<int64_t> qShape = {out, bits == 8 ? cols : cols / 2};
  std::vector<int64_t> sShape = {out, cols / qt::kGroup};
  const void *q = nullptr, *scales = nullptr;
  if (file && file->lookup(qName) && file->lookup(sName)) {
    auto plain = [&](const std::string &name, const std::string &dtype,
                     const std::vector<int64_t> &shape) {
      const auto *entry = file->lookup(name);
      if (entry->dtype != dtype || entry->shape != shape)
        fail(opts.weights + ": '" + name + "' is " + entry->dtype + " " +
             shapeText(entry->shape) + ", the tiles of '" + in.name +
             "' need " + dtype + " " + shapeText(shape) +
             " (group 32, f16 scales)");
      return static_cast<const void *>(entry->data.data());
    };
    q = plain(qName, bits == 8 ? "I8" : "U8", qShape);
    scales = plain(sName, "F16", sShape);
  } else {
    if (!opts.quantizeBits)
      fail("'" + in.name + "' is a quantized weight in tiles: give " +
           "--quantize q" + std::to_string(bits) + " to quantize '" + base +
           ".weight' at load time" +
           (file ? " (" + opts.weights + " has no '" + qName + "' and '" +
                       sName + "')"
                 : ""));
    if (opts.quantizeBits != bits)
      fail("'" + in.name + "' holds " + std::to_string(bits) +
           "-bit tiles, --quantize says q" + std::to_string(opts.quantizeBits));
    if (opts.groupSize != qt::kGroup)
      fail("'" + in.name + "' holds tiles of group 32, --group-size says " +
           std::to_string(opts.groupSize));
    quantizeAs(base, bits, out, cols, qt::kGroup, false, true);
    q = generated[qName].bytes.data();
    scales = generated[sName].bytes.data();
  }
  OwnedTensor &t = tiled[in.name];
  t.dtype = "U8";
  t.shape = in.shape;
  t.bytes.resize(size_t(qt::weightBytes(bits, out, cols)));
  qt::pack(bits, out, cols, q, static_cast<const uint16_t *>(scales),
           t.bytes.data());
  // The plain tensors made here are only --save-weights' now: without it
  // they would hold the quantized weights' memory a second time for the
  // whole run (the model reads the tiles, cached in `tiled`).
  if (opts.saveWeights.empty()) {
    generated.erase(qName);
    generated.erase(sName);
  }
  return t.bytes.data();
}

const void *Weights::get(const Input &in) {
  std::string what = fileDtype(in.dtype);
  auto checked = [&](const std::string &source, const std::string &dtype,
                     const std::vector<int64_t> &shape) {
    if (dtype != what)
      fail(source + "'" + in.name + "' is " + dtype + ", the model needs " +
           what);
    if (shape != in.shape)
      fail(source + "'" + in.name + "' has shape " + shapeText(shape) +
           ", the model needs " + shapeText(in.shape));
  };
  if (auto it = generated.find(in.name); it != generated.end()) {
    checked("--quantize: ", it->second.dtype, it->second.shape);
    return it->second.bytes.data();
  }
  std::string base = quantizedBase(in.name);
  if (endsWith(in.name, ".qtiles"))
    return tiles(in, base);
  // Quantized parameters are read as stored when the file has them.
  if (file && (base.empty() || file->lookup(in.name) || !opts.quantizeBits)) {
    if (base.empty() && in.dtype == RELAX_DTYPE_F32)
      return f32Weight(in.name, in.shape);
    const auto *entry = file->lookup(in.name);
    if (!entry)
      fail(opts.weights + " has no tensor '" + in.name + "'" +
           (base.empty() ? ""
                         : " (give --quantize to quantize '" + base +
                               ".weight' at load time)"));
    checked(opts.weights + ": ", entry->dtype, entry->shape);
    return entry->data.data();
  }
  if (!base.empty()) {
    if (!opts.quantizeBits)
      fail("'" + in.name +
           "' is a quantized weight: give --quantize q8|q4 "
           "(and --group-size) to quantize the generated weights");
    quantize(base);
    auto it = generated.find(in.name);
    if (it == generated.end())
      fail("'" + in.name + "' is not made by --quantize");
    checked("--quantize: ", it->second.dtype, it->second.shape);
    return it->second.bytes.data();
  }
  if (in.dtype != RELAX_DTYPE_F32)
    fail("weight '" + in.name + "' is " + relax_dtype_name(in.dtype) +
         ": the model's weights must be f32");
  return f32Weight(in.name, in.shape);
}

/// Writes the generated weights as a safetensors file: an 8-byte
/// little-endian header length, the JSON header (padded with spaces to a
/// multiple of 8 bytes), then each tensor's bytes in header order.
void Weights::save(const std::string &path) const {
  std::string header = "{\"__metadata__\":{\"format\":\"pt\","
                       "\"generator\":\"llama-generate --random-weights " +
                       std::to_string(opts.seed) + "\"}";
  size_t offset = 0;
  for (const auto &[name, t] : generated) {
    // State-dict names need no JSON escapes; refuse any that would.
    if (name.find_first_of("\"\\") != std::string::npos)
      fail("cannot write the tensor name '" + name + "'");
    std::string shape;
    for (int64_t d : t.shape)
      shape += (shape.empty() ? "" : ",") + std::to_string(d);
    size_t bytes = t.bytes.size();
    header += ",\"" + name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[" +
              shape + "],\"data_offsets\":[" + std::to_string(offset) + "," +
              std::to_string(offset + bytes) + "]}";
    offset += bytes;
  }
  header += "}";
  header.append((8 - header.size() % 8) % 8, ' ');
  std::ofstream f(path, std::ios::binary);
  uint64_t length = header.size();
  unsigned char le[8];
  for (int i = 0; i < 8; ++i)
    le[i] = static_cast<unsigned char>(length >> (8 * i));
  f.write(reinterpret_cast<const char *>(le), 8);
  f << header;
  for (const auto &[name, t] : generated)
    f.write(reinterpret_cast<const char *>(t.bytes.data()), t.bytes.size());
  if (!f)
    fail("cannot write " + path);
}

} // namespace llama_generate
