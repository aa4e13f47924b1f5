//===- llama_generate.cpp - Greedy generation with a compiled Llama -------===//
//
// Text generation without Python (and without LLVM or MLIR: it links
// libRelaxModule only): opens a library that relax-compile built
// from a model of scripts/gen-llama-model.py (entries `prefill` and
// `decode`) through the C API of RelaxDialect/Runtime/RelaxModule.h,
// allocates the KV caches once (zeroed, [1, m, kv_heads, head_dim] each),
// prefills a prompt of token ids, then runs greedy decode steps; every call
// updates the caches in place and is told how many of their rows are valid
// (past_length). Prints the new tokens and tokens/s of prefill and of decode
// separately.
//
// With --tokenizer (a tokenizer.json or a SentencePiece tokenizer.model,
// lib/Tokenizer), the prompt is text, encoded with the tokenizer's BOS (or
// in its chat format with --chat), and the new tokens' text is streamed to
// stdout as they come, before the same summary; generation stops at the
// tokenizer's end of sequence or turn unless --ignore-eos.
//
//   llama-generate MODEL.so (--weights W.safetensors | --random-weights SEED)
//       --prompt 1,2,3 | --prompt-file F   [-n 32] [--cache-length M]
//       [--tokenizer T [--chat [--system S]] [--ignore-eos]]
//       [--dump-logits L.npy]
//       [--expect-tokens T.npy] [--expect-logits L.npy --rtol R --atol A]
//       [--save-weights W.safetensors]
//
// Weights are bound by name: every input of prefill/decode that is not the
// tokens, past_length or a cache is looked up under its relax.name (Hugging Face's state
// dict names) in the safetensors file, or generated with the counter-based
// generator below (the same numbers as scripts/llama_weights.py). See
// docs/llm.md.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/ParamFile.h"
#include "RelaxDialect/Runtime/RelaxModule.h"
#include "RelaxDialect/Tokenizer/Tokenizer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &message) {
  fprintf(stderr, "llama-generate: error: %s\n", message.c_str());
  exit(1);
}

void check(relax_status status, const std::string &what) {
  if (status != RELAX_OK)
    fail(what + ": " + relax_last_error());
}

//===----------------------------------------------------------------------===//
// Deterministic random weights
//===----------------------------------------------------------------------===//

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
  bool isBias = name.size() >= 5 && name.compare(name.size() - 5, 5, ".bias") == 0;
  float offset = shape.size() == 2 || isBias ? 0.0f : 1.0f;
  for (size_t i = 0; i < count; ++i) {
    float u = float(splitmix64(key + i) >> 40) * 0x1p-23f - 1.0f;
    out[i] = offset + u * scale;
  }
}

//===----------------------------------------------------------------------===//
// .npy files (f32 and i64, C order)
//===----------------------------------------------------------------------===//

void writeNpy(const std::string &path, const char *descr,
              const std::vector<int64_t> &shape, const void *data,
              size_t bytes) {
  std::string dims;
  for (int64_t d : shape)
    dims += std::to_string(d) + ",";
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': (" + dims + "), }";
  size_t total = 10 + header.size() + 1;
  header.append((total + 63) / 64 * 64 - total, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f)
    fail("cannot write " + path);
  uint16_t len = header.size();
  f.write("\x93NUMPY\x01\x00", 8);
  f.write(reinterpret_cast<const char *>(&len), 2);
  f << header;
  f.write(static_cast<const char *>(data), bytes);
  if (!f)
    fail("cannot write " + path);
}

// Reads a .npy file of dtype `descr` ("<f4" or "<i8"); returns the shape.
std::vector<int64_t> readNpy(const std::string &path, const char *descr,
                             std::vector<char> &data) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    fail("cannot open " + path);
  char magic[10];
  if (!f.read(magic, 10) || memcmp(magic, "\x93NUMPY", 6) != 0 ||
      magic[6] != 1)
    fail(path + ": not a .npy file (version 1)");
  uint16_t len;
  memcpy(&len, magic + 8, 2);
  std::string header(len, '\0');
  if (!f.read(header.data(), len))
    fail(path + ": truncated header");
  if (header.find(std::string("'descr': '") + descr + "'") ==
          std::string::npos ||
      header.find("'fortran_order': False") == std::string::npos)
    fail(path + ": expected dtype " + descr + " in C order, header is " +
         header);
  size_t open = header.find("'shape': (");
  size_t close = header.find(')', open);
  if (open == std::string::npos || close == std::string::npos)
    fail(path + ": no shape in the header");
  std::vector<int64_t> shape;
  std::stringstream dims(header.substr(open + 10, close - open - 10));
  std::string item;
  size_t count = 1;
  while (std::getline(dims, item, ','))
    if (item.find_first_not_of(' ') != std::string::npos) {
      shape.push_back(std::stoll(item));
      count *= shape.back();
    }
  data.resize(count * (descr[2] == '4' ? 4 : 8));
  if (!f.read(data.data(), data.size()))
    fail(path + ": truncated data");
  return shape;
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

struct Options {
  std::string library, params, weights, saveWeights, promptText, promptFile,
      dumpLogits, expectTokens, expectLogits, tokenizer, system;
  bool randomWeights = false, chat = false, ignoreEos = false;
  uint64_t seed = 0;
  long steps = 32;
  long cacheLength = 0; // 0 (not given): the prompt plus the new tokens
  double rtol = 1e-3, atol = 1e-3;
};

const char *kUsage =
    "usage: llama-generate MODEL.so (--weights W.safetensors | "
    "--random-weights SEED)\n"
    "           (--prompt 1,2,3 | --prompt-file F) [-n N] [--params P]\n"
    "           [--cache-length M]\n"
    "           [--dump-logits L.npy] [--expect-tokens T.npy]\n"
    "           [--expect-logits L.npy [--rtol R] [--atol A]]\n"
    "           [--save-weights W.safetensors]\n"
    "           [--tokenizer tokenizer.json|tokenizer.model [--chat\n"
    "            [--system TEXT]] [--ignore-eos]] (the prompt is then text)";

// A tolerance: a finite number >= 0 (NaN would accept every logit).
double parseTolerance(const std::string &text, const std::string &what) {
  char *end = nullptr;
  errno = 0;
  double v = strtod(text.c_str(), &end);
  if (text.empty() || *end || errno || !std::isfinite(v) || v < 0)
    fail(what + " must be a finite number >= 0, not '" + text + "'");
  return v;
}

long parseInt(const std::string &text, const std::string &what) {
  char *end = nullptr;
  errno = 0;
  long long v = strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno)
    fail(what + ": '" + text + "' is not an integer");
  return v;
}

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        fail(a + " needs a value\n" + kUsage);
      return argv[++i];
    };
    if (a == "--weights")
      o.weights = value();
    else if (a == "--random-weights") {
      o.randomWeights = true;
      o.seed = parseInt(value(), a);
    } else if (a == "--params")
      o.params = value();
    else if (a == "--prompt")
      o.promptText = value();
    else if (a == "--prompt-file")
      o.promptFile = value();
    else if (a == "-n")
      o.steps = parseInt(value(), a);
    else if (a == "--cache-length") {
      o.cacheLength = parseInt(value(), a);
      if (o.cacheLength < 1)
        fail("--cache-length must be at least 1, not " +
             std::to_string(o.cacheLength));
    }
    else if (a == "--dump-logits")
      o.dumpLogits = value();
    else if (a == "--expect-tokens")
      o.expectTokens = value();
    else if (a == "--expect-logits")
      o.expectLogits = value();
    else if (a == "--rtol")
      o.rtol = parseTolerance(value(), a);
    else if (a == "--atol")
      o.atol = parseTolerance(value(), a);
    else if (a == "--save-weights")
      o.saveWeights = value();
    else if (a == "--tokenizer")
      o.tokenizer = value();
    else if (a == "--chat")
      o.chat = true;
    else if (a == "--system")
      o.system = value();
    else if (a == "--ignore-eos")
      o.ignoreEos = true;
    else if (a == "-h" || a == "--help") {
      puts(kUsage);
      exit(0);
    } else if (!a.empty() && a[0] == '-')
      fail("unknown option " + a + "\n" + kUsage);
    else if (o.library.empty())
      o.library = a;
    else
      fail("unexpected argument " + a + "\n" + kUsage);
  }
  if (o.library.empty())
    fail(std::string("no model library given\n") + kUsage);
  if (o.weights.empty() == !o.randomWeights)
    fail("give exactly one of --weights and --random-weights");
  if (o.promptText.empty() == o.promptFile.empty())
    fail("give exactly one of --prompt and --prompt-file");
  if (o.steps < 1)
    fail("-n must be at least 1");
  if (o.tokenizer.empty() && (o.chat || !o.system.empty() || o.ignoreEos))
    fail("--chat, --system and --ignore-eos need --tokenizer");
  if (!o.system.empty() && !o.chat)
    fail("--system needs --chat");
  return o;
}

// Token ids separated by commas or white space.
std::vector<int64_t> parsePrompt(const std::string &text,
                                 const std::string &source) {
  std::vector<int64_t> tokens;
  std::string item;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ' ';
    if (c == ',' || isspace(static_cast<unsigned char>(c))) {
      if (!item.empty())
        tokens.push_back(parseInt(item, source + ": token " +
                                            std::to_string(tokens.size())));
      item.clear();
    } else {
      item += c;
    }
  }
  if (tokens.empty())
    fail(source + ": no token ids");
  return tokens;
}

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

struct Input {
  std::string name;
  relax_dtype dtype;
  std::vector<int64_t> shape; // static sizes; -1 where symbolic
};

std::vector<Input> inputsOf(relax_function *f) {
  std::vector<Input> inputs;
  for (size_t i = 0, e = relax_function_num_inputs(f); i < e; ++i) {
    Input in;
    in.name = relax_function_input_name(f, i);
    in.dtype = relax_function_input_dtype(f, i);
    for (int32_t d = 0, r = relax_function_input_rank(f, i); d < r; ++d) {
      const char *dim = relax_function_input_dim(f, i, d);
      char *end = nullptr;
      long long v = strtoll(dim, &end, 10);
      in.shape.push_back(*dim && !*end ? v : -1);
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

bool isCache(const std::string &name) { return name.rfind("cache.", 0) == 0; }
bool isPastLength(const std::string &name) { return name == "past_length"; }
bool isTokens(const std::string &name) {
  return name == "tokens" || name == "token";
}

// The weights of both entries, by name: mapped from a safetensors file or
// generated. Each is checked against the shape and dtype the model expects.
class Weights {
public:
  Weights(const Options &o) : opts(o) {
    if (!o.weights.empty()) {
      auto file = mlir::relax::rt::ParamFile::open(o.weights);
      if (!file)
        fail("cannot read the weights: " + file.message());
      this->file = std::move(*file);
    }
  }

  const float *get(const Input &in) {
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
  void save(const std::string &path) const {
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

  static std::string shapeText(const std::vector<int64_t> &shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i)
      s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
  }

private:
  const Options &opts;
  std::unique_ptr<mlir::relax::rt::ParamFile> file;
  // Generated weights, by name; map nodes never move, so the pointers
  // handed to the calls stay valid.
  std::map<std::string, std::vector<float>> generated;
  std::map<std::string, std::vector<int64_t>> shapes;
};

int64_t argmax(const float *logits, int64_t n) {
  return std::max_element(logits, logits + n) - logits;
}

double seconds(std::chrono::steady_clock::time_point a,
               std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// The prompt's ids from its text: with the tokenizer's BOS, or as a chat
// prompt in the tokenizer's format.
std::vector<int64_t> encodePrompt(const mlir::relax::tok::Tokenizer &tokenizer,
                                  const Options &opts, const std::string &text,
                                  const std::string &source) {
  std::vector<int> ids;
  std::string error;
  bool ok = opts.chat ? tokenizer.encodeChat(opts.system, text, ids, error)
                      : tokenizer.encode(text, /*addSpecial=*/true, ids, error);
  if (!ok)
    fail(source + ": " + error);
  if (ids.empty())
    fail(source + ": the text has no tokens");
  return std::vector<int64_t>(ids.begin(), ids.end());
}

} // namespace

int main(int argc, char **argv) {
  Options opts = parseOptions(argc, argv);

  std::unique_ptr<mlir::relax::tok::Tokenizer> tokenizer;
  if (!opts.tokenizer.empty()) {
    std::string error;
    tokenizer = mlir::relax::tok::Tokenizer::open(opts.tokenizer, error);
    if (!tokenizer)
      fail("--tokenizer: " + error);
  }

  std::vector<int64_t> prompt;
  if (!opts.promptFile.empty()) {
    std::ifstream f(opts.promptFile, std::ios::binary);
    if (!f)
      fail("cannot open the prompt file " + opts.promptFile);
    std::stringstream text;
    text << f.rdbuf();
    std::string contents = text.str();
    if (!tokenizer) {
      prompt = parsePrompt(contents, opts.promptFile);
    } else {
      // A text file's last line break ends the file, not the prompt.
      if (!contents.empty() && contents.back() == '\n')
        contents.pop_back();
      prompt = encodePrompt(*tokenizer, opts, contents, opts.promptFile);
    }
  } else if (tokenizer) {
    prompt = encodePrompt(*tokenizer, opts, opts.promptText, "--prompt");
  } else {
    prompt = parsePrompt(opts.promptText, "--prompt");
  }

  relax_module *module = nullptr;
  check(relax_module_open(opts.library.c_str(),
                          opts.params.empty() ? nullptr : opts.params.c_str(),
                          &module),
        "cannot open the model");
  relax_function *prefill = nullptr, *decode = nullptr;
  check(relax_module_get_function(module, "prefill", &prefill),
        "not a model of gen-llama-model.py");
  check(relax_module_get_function(module, "decode", &decode),
        "not a model of gen-llama-model.py");
  std::vector<Input> prefillInputs = inputsOf(prefill);
  std::vector<Input> decodeInputs = inputsOf(decode);
  size_t numCaches = 0;
  bool hasPastLength = false;
  for (const Input &in : decodeInputs) {
    numCaches += isCache(in.name);
    hasPastLength |= isPastLength(in.name);
  }
  if (!hasPastLength || numCaches == 0 ||
      relax_function_num_outputs(prefill) != 1 + numCaches ||
      relax_function_num_outputs(decode) != 1 + numCaches)
    fail("not a model of gen-llama-model.py: prefill and decode take "
         "past_length and the caches (cache.N.key, cache.N.value) and return "
         "the logits and the caches");

  // Token ids index the embedding's rows: one outside [0, vocab) would read
  // another row (a negative one counted from the end) or out of bounds.
  for (const Input &in : prefillInputs)
    if (in.name == "model.embed_tokens.weight" && in.shape.size() == 2 &&
        in.shape[0] > 0)
      for (size_t i = 0; i < prompt.size(); ++i)
        if (prompt[i] < 0 || prompt[i] >= in.shape[0])
          fail("prompt token " + std::to_string(i) + " is " +
               std::to_string(prompt[i]) + ", not a token id of the model (0 to " +
               std::to_string(in.shape[0] - 1) + ")");

  // The caches, allocated once and zeroed: [1, m, kv_heads, head_dim] each,
  // m rows for every position this generation writes (the prompt and all
  // but the last new token) unless --cache-length says otherwise. Both
  // entries take the same buffers and update them in place.
  int64_t cacheRows = opts.cacheLength
                          ? opts.cacheLength
                          : int64_t(prompt.size()) + opts.steps - 1;
  // calloc'd: zero pages are mapped lazily, so a long cache costs memory
  // only for the rows a generation writes, and a failed allocation is an
  // error naming the size, not std::bad_alloc.
  struct FreeDeleter {
    void operator()(float *p) const { std::free(p); }
  };
  std::map<std::string, std::unique_ptr<float[], FreeDeleter>> caches;
  std::map<std::string, std::vector<int64_t>> cacheShapes;
  for (const Input &in : decodeInputs) {
    if (!isCache(in.name))
      continue;
    if (in.dtype != RELAX_DTYPE_F32 || in.shape.size() != 4 ||
        in.shape[0] != 1 || in.shape[1] != -1 || in.shape[2] < 0 ||
        in.shape[3] < 0)
      fail("cache '" + in.name + "' must be f32 [1, m, kv_heads, head_dim]");
    std::vector<int64_t> shape = {1, cacheRows, in.shape[2], in.shape[3]};
    uint64_t count = 0, bytes = 0;
    if (__builtin_mul_overflow(uint64_t(cacheRows),
                               uint64_t(in.shape[2] * in.shape[3]), &count) ||
        __builtin_mul_overflow(count, uint64_t(sizeof(float)), &bytes) ||
        bytes > uint64_t(PTRDIFF_MAX))
      fail("cache '" + in.name + "' of " + std::to_string(cacheRows) +
           " rows is too large (see --cache-length)");
    float *data = static_cast<float *>(std::calloc(count, sizeof(float)));
    if (!data)
      fail("out of memory: cache '" + in.name + "' of " +
           std::to_string(cacheRows) + " rows needs " + std::to_string(bytes) +
           " bytes (see --cache-length)");
    caches[in.name].reset(data);
    cacheShapes[in.name] = shape;
  }

  // The weights, bound by name once; tokens and caches change per call.
  Weights weights(opts);
  auto bind = [&](const std::vector<Input> &inputs,
                  std::vector<relax_tensor> &tensors) {
    tensors.resize(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Input &in = inputs[i];
      tensors[i] = {nullptr, in.dtype, int32_t(in.shape.size()),
                    inputs[i].shape.data()};
      if (isCache(in.name)) {
        auto it = caches.find(in.name);
        if (it == caches.end())
          fail("prefill's cache '" + in.name + "' is not one of decode's");
        tensors[i].data = it->second.get();
        tensors[i].shape = cacheShapes[in.name].data();
      } else if (!isTokens(in.name) && !isPastLength(in.name)) {
        tensors[i].data = const_cast<float *>(weights.get(in));
      }
    }
  };
  std::vector<relax_tensor> prefillArgs, decodeArgs;
  bind(prefillInputs, prefillArgs);
  bind(decodeInputs, decodeArgs);
  if (!opts.saveWeights.empty()) {
    if (!opts.randomWeights)
      fail("--save-weights writes generated weights: give --random-weights");
    weights.save(opts.saveWeights);
  }

  int64_t vocab = -1;
  std::vector<int64_t> tokens;
  std::vector<float> allLogits;
  // With a tokenizer, each new token's text is printed as soon as it is
  // whole (the prompt is its context: spaces come out right), and the end of
  // sequence or turn stops the generation.
  std::unique_ptr<mlir::relax::tok::IncrementalDecoder> stream;
  std::vector<int> stopIds;
  if (tokenizer) {
    stream = std::make_unique<mlir::relax::tok::IncrementalDecoder>(
        *tokenizer, std::vector<int>(prompt.begin(), prompt.end()));
    if (!opts.ignoreEos)
      stopIds = tokenizer->stopIds();
  }
  auto takeLogits = [&](relax_outputs *out) {
    const relax_tensor *logits = relax_outputs_get(out, 0);
    if (logits->dtype != RELAX_DTYPE_F32 || logits->rank != 3)
      fail("the logits must be f32 [1, 1, vocab]");
    vocab = logits->shape[2];
    const float *row = static_cast<const float *>(logits->data);
    allLogits.insert(allLogits.end(), row, row + vocab);
    tokens.push_back(argmax(row, vocab));
    if (stream) {
      std::string text, error;
      if (!stream->push(int(tokens.back()), text, error))
        fail("new token " + std::to_string(tokens.size() - 1) + ": " + error +
             " of " + opts.tokenizer);
      fwrite(text.data(), 1, text.size(), stdout);
      fflush(stdout);
    }
  };
  auto stopped = [&] {
    return std::find(stopIds.begin(), stopIds.end(), tokens.back()) !=
           stopIds.end();
  };

  // The caches' valid rows on entry to each call.
  int64_t pastLength = 0;
  int64_t pastLengthShape[1] = {1};
  auto bindPastLength = [&](const std::vector<Input> &inputs,
                            std::vector<relax_tensor> &tensors) {
    for (size_t i = 0; i < inputs.size(); ++i)
      if (isPastLength(inputs[i].name)) {
        tensors[i].data = &pastLength;
        tensors[i].shape = pastLengthShape;
      }
  };
  bindPastLength(prefillInputs, prefillArgs);
  bindPastLength(decodeInputs, decodeArgs);
  // Each call must hand the caches back updated in place, not copies.
  auto checkInPlace = [&](relax_outputs *out, const std::vector<Input> &inputs,
                          const std::vector<relax_tensor> &tensors) {
    size_t result = 1;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (isCache(inputs[i].name) &&
          relax_outputs_get(out, result++)->data != tensors[i].data)
        fail("result " + std::to_string(result - 1) +
             " is not the cache '" + inputs[i].name +
             "' updated in place");
  };

  // Prefill: the whole prompt at once.
  int64_t promptShape[2] = {1, int64_t(prompt.size())};
  for (size_t i = 0; i < prefillArgs.size(); ++i)
    if (isTokens(prefillInputs[i].name)) {
      prefillArgs[i].data = prompt.data();
      prefillArgs[i].shape = promptShape;
    }
  relax_outputs *state = nullptr;
  auto t0 = std::chrono::steady_clock::now();
  check(relax_function_call(prefill, prefillArgs.data(), prefillArgs.size(),
                            &state),
        "prefill (a prompt of " + std::to_string(prompt.size()) +
            " tokens, caches of " + std::to_string(cacheRows) +
            " rows: see --cache-length)");
  auto t1 = std::chrono::steady_clock::now();
  checkInPlace(state, prefillInputs, prefillArgs);
  takeLogits(state);

  // Decode: each step takes the last token; the caches hold every position
  // before it.
  int64_t tokenShape[2] = {1, 1};
  int64_t token = 0;
  for (size_t i = 0; i < decodeArgs.size(); ++i)
    if (isTokens(decodeInputs[i].name)) {
      decodeArgs[i].data = &token;
      decodeArgs[i].shape = tokenShape;
    }
  for (long step = 1; step < opts.steps && !stopped(); ++step) {
    token = tokens.back();
    pastLength = int64_t(prompt.size()) + step - 1;
    relax_outputs *next = nullptr;
    relax_status status = relax_function_call(
        decode, decodeArgs.data(), decodeArgs.size(), &next);
    if (status != RELAX_OK)
      fail("decode step " + std::to_string(step) + " (position " +
           std::to_string(prompt.size() + step - 1) +
           "): " + relax_last_error());
    relax_outputs_free(state);
    state = next;
    if (step == 1)
      checkInPlace(state, decodeInputs, decodeArgs);
    takeLogits(state);
  }
  auto t2 = std::chrono::steady_clock::now();
  relax_outputs_free(state);
  if (stream) {
    std::string rest = stream->finish();
    fwrite(rest.data(), 1, rest.size(), stdout);
    printf("\n");
  }

  printf("prompt:");
  for (int64_t t : prompt)
    printf(" %lld", (long long)t);
  printf("\ntokens:");
  for (int64_t t : tokens)
    printf(" %lld", (long long)t);
  printf("\n");
  double prefillS = seconds(t0, t1), decodeS = seconds(t1, t2);
  printf("prefill: %zu tokens in %.1f ms (%.1f tokens/s)\n", prompt.size(),
         prefillS * 1e3, prompt.size() / prefillS);
  size_t decoded = tokens.size() - 1;
  if (decoded > 0)
    printf("decode: %zu tokens in %.1f ms (%.2f tokens/s)\n", decoded,
           decodeS * 1e3, decoded / decodeS);

  std::vector<int64_t> logitsShape = {int64_t(tokens.size()), vocab};
  if (!opts.dumpLogits.empty())
    writeNpy(opts.dumpLogits, "<f4", logitsShape, allLogits.data(),
             allLogits.size() * sizeof(float));

  int status = 0;
  if (!opts.expectTokens.empty()) {
    std::vector<char> data;
    std::vector<int64_t> shape = readNpy(opts.expectTokens, "<i8", data);
    const int64_t *expected = reinterpret_cast<const int64_t *>(data.data());
    size_t n = data.size() / 8;
    if (shape.size() != 1 || n < tokens.size())
      fail(opts.expectTokens + ": expected at least " +
           std::to_string(tokens.size()) + " tokens in a 1-D array");
    size_t same = 0;
    while (same < tokens.size() && tokens[same] == expected[same])
      ++same;
    if (same == tokens.size()) {
      printf("tokens: all %zu match the reference\n", tokens.size());
    } else {
      printf("tokens: MISMATCH at step %zu: %lld, the reference has %lld\n",
             same, (long long)tokens[same], (long long)expected[same]);
      status = 1;
    }
  }
  if (!opts.expectLogits.empty()) {
    std::vector<char> data;
    std::vector<int64_t> shape = readNpy(opts.expectLogits, "<f4", data);
    if (shape.size() != 2 || shape[1] != vocab || shape[0] < logitsShape[0])
      fail(opts.expectLogits + ": expected [>= " +
           std::to_string(logitsShape[0]) + ", " + std::to_string(vocab) +
           "] logits, got " + Weights::shapeText(shape));
    const float *expected = reinterpret_cast<const float *>(data.data());
    double maxAbs = 0, maxRel = 0;
    size_t bad = 0, firstBad = 0;
    for (size_t i = 0; i < allLogits.size(); ++i) {
      double diff = std::fabs(double(allLogits[i]) - expected[i]);
      maxAbs = std::max(maxAbs, diff);
      maxRel = std::max(maxRel, diff / std::max(1e-30, std::fabs(double(expected[i]))));
      if (!(diff <= opts.atol + opts.rtol * std::fabs(double(expected[i]))) &&
          bad++ == 0)
        firstBad = i;
    }
    printf("logits: max abs diff %.3g, max rel diff %.3g over %zu values\n",
           maxAbs, maxRel, allLogits.size());
    if (bad) {
      printf("logits: MISMATCH: %zu values beyond rtol %g atol %g, first at "
             "step %zu index %zu: %g, the reference has %g\n",
             bad, opts.rtol, opts.atol, firstBad / vocab, firstBad % vocab,
             allLogits[firstBad], expected[firstBad]);
      status = 1;
    } else {
      printf("logits: all within rtol %g atol %g\n", opts.rtol, opts.atol);
    }
  }
  relax_module_close(module);
  return status;
}
