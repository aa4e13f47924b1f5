//===- llama_generate_weights.cpp - The weights of llama-generate ---------===//
//
// Weights are bound by name: every input of prefill/decode that is not the
// tokens, past_length or a cache is looked up under its relax.name (Hugging
// Face's state dict names) in the safetensors file, or generated with the
// counter-based generator below (the same numbers as
// scripts/llama_weights.py), which --save-weights writes as safetensors.
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

#include <cmath>
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

Weights::Weights(const Options &o) : opts(o) {
  if (!o.weights.empty()) {
    auto file = mlir::relax::rt::ParamFile::open(o.weights);
    if (!file)
      fail("cannot read the weights: " + file.message());
    this->file = std::move(*file);
  }
}

const float *Weights::get(const Input &in) {
  if (in.dtype != RELAX_DTYPE_F32)
    fail("weight '" + in.name + "' is " + relax_dtype_name(in.dtype) +
         ": the model's weights must be f32");
  if (auto it = generated.find(in.name); it != generated.end())
    return it->second.data();
  if (file) {
    const auto *entry = file->lookup(in.name);
    if (!entry)
      fail(opts.weights + " has no tensor '" + in.name + "'");
    if (entry->dtype != "F32")
      fail(opts.weights + ": '" + in.name + "' is " + entry->dtype +
           ", the model needs F32 (convert the checkpoint, docs/llm.md)");
    if (entry->shape != in.shape)
      fail(opts.weights + ": '" + in.name + "' has shape " +
           shapeText(entry->shape) + ", the model needs " +
           shapeText(in.shape));
    return reinterpret_cast<const float *>(entry->data.data());
  }
  size_t count = 1;
  for (int64_t d : in.shape)
    count *= d;
  std::vector<float> &data = generated[in.name];
  data.resize(count);
  shapes[in.name] = in.shape;
  randomWeight(opts.seed, in.name, in.shape, data.data());
  return data.data();
}

/// Writes the generated weights as a safetensors file: an 8-byte
/// little-endian header length, the JSON header (padded with spaces to a
/// multiple of 8 bytes), then each tensor's bytes in header order.
void Weights::save(const std::string &path) const {
  std::string header = "{\"__metadata__\":{\"format\":\"pt\","
                       "\"generator\":\"llama-generate --random-weights " +
                       std::to_string(opts.seed) + "\"}";
  size_t offset = 0;
  for (const auto &[name, data] : generated) {
    // State-dict names need no JSON escapes; refuse any that would.
    if (name.find_first_of("\"\\") != std::string::npos)
      fail("cannot write the tensor name '" + name + "'");
    std::string shape;
    for (int64_t d : shapes.at(name))
      shape += (shape.empty() ? "" : ",") + std::to_string(d);
    size_t bytes = data.size() * sizeof(float);
    header += ",\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[" + shape +
              "],\"data_offsets\":[" + std::to_string(offset) + "," +
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
  for (const auto &[name, data] : generated)
    f.write(reinterpret_cast<const char *>(data.data()),
            data.size() * sizeof(float));
  if (!f)
    fail("cannot write " + path);
}

} // namespace llama_generate
