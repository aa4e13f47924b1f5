//===- llama_generate_model.cpp - Prefill and the greedy decode loop ------===//
//
// Opens a library that relax-compile built from a model of
// scripts/gen-llama-model.py (entries `prefill` and `decode`) through the C
// API of RelaxDialect/Runtime/RelaxModule.h, allocates the KV caches once
// (zeroed, [1, m, kv_heads, head_dim] each), prefills the prompt, then runs
// greedy decode steps; every call updates the caches in place and is told
// how many of their rows are valid (past_length).
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>

namespace llama_generate {

namespace {

std::vector<Input> inputsOf(relax_function *f) {
  std::vector<Input> inputs;
  for (size_t i = 0, e = relax_function_num_inputs(f); i < e; ++i) {
    Input in;
    in.name = relax_function_input_name(f, i);
    in.dtype = relax_function_input_dtype(f, i);
    // The fixed sizes; -1 where a dim depends on a symbol.
    int32_t rank = relax_function_input_rank(f, i);
    in.shape.assign(rank > 0 ? rank : 0, -1);
    if (rank > 0)
      check(relax_function_input_shape(f, nullptr, i, in.shape.data()),
            "the signature of the function");
    inputs.push_back(std::move(in));
  }
  return inputs;
}

bool isCache(const std::string &name) { return name.rfind("cache.", 0) == 0; }
bool isPastLength(const std::string &name) { return name == "past_length"; }
bool isTokens(const std::string &name) {
  return name == "tokens" || name == "token";
}

int64_t argmax(const float *logits, int64_t n) {
  return std::max_element(logits, logits + n) - logits;
}

double seconds(std::chrono::steady_clock::time_point a,
               std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// The CPU time of the process (all threads) in seconds: on a machine that
/// others load, wall-clock time measures them too; an A/B of the same work
/// (RELAX_HUGE_PAGES=0 against 1) compares this instead.
double processCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

} // namespace

Generation generate(const Options &opts, const std::vector<int64_t> &prompt,
                    TextStream &text) {
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
               std::to_string(prompt[i]) +
               ", not a token id of the model (0 to " +
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
  Weights weights(opts, prefillInputs);
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
        tensors[i].data = const_cast<void *>(weights.get(in));
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

  Generation gen;
  std::vector<int64_t> &tokens = gen.tokens;
  std::vector<float> &allLogits = gen.logits;
  int64_t &vocab = gen.vocab;
  auto takeLogits = [&](relax_outputs *out) {
    const relax_tensor *logits = relax_outputs_get(out, 0);
    if (logits->dtype != RELAX_DTYPE_F32 || logits->rank != 3)
      fail("the logits must be f32 [1, 1, vocab]");
    vocab = logits->shape[2];
    const float *row = static_cast<const float *>(logits->data);
    allLogits.insert(allLogits.end(), row, row + vocab);
    int64_t next = argmax(row, vocab);
    if (opts.shareToken)
      opts.shareToken(next);
    tokens.push_back(next);
    text.push(tokens.back(), tokens.size() - 1);
  };
  auto stopped = [&] { return text.stops(tokens.back()); };

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
        fail("result " + std::to_string(result - 1) + " is not the cache '" +
             inputs[i].name + "' updated in place");
  };

  // Prefill: the whole prompt at once.
  int64_t promptShape[2] = {1, int64_t(prompt.size())};
  for (size_t i = 0; i < prefillArgs.size(); ++i)
    if (isTokens(prefillInputs[i].name)) {
      // Inputs are only read: relax_tensor's data is not const for outputs.
      prefillArgs[i].data = const_cast<int64_t *>(prompt.data());
      prefillArgs[i].shape = promptShape;
    }
  relax_outputs *state = nullptr;
  auto collective = [&] {
    return opts.collectiveSeconds ? opts.collectiveSeconds() : 0.0;
  };
  double c0 = collective();
  auto t0 = std::chrono::steady_clock::now();
  check(relax_function_call(prefill, prefillArgs.data(), prefillArgs.size(),
                            &state),
        "prefill (a prompt of " + std::to_string(prompt.size()) +
            " tokens, caches of " + std::to_string(cacheRows) +
            " rows: see --cache-length)");
  auto t1 = std::chrono::steady_clock::now();
  double cpu1 = processCpuSeconds();
  double c1 = collective();
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
    relax_status status = relax_function_call(decode, decodeArgs.data(),
                                              decodeArgs.size(), &next);
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
  gen.decodeCpuSeconds = processCpuSeconds() - cpu1;
  gen.prefillCollectiveSeconds = c1 - c0;
  gen.decodeCollectiveSeconds = collective() - c1;
  relax_outputs_free(state);
  relax_module_close(module);
  gen.prefillSeconds = seconds(t0, t1);
  gen.decodeSeconds = seconds(t1, t2);
  return gen;
}

} // namespace llama_generate
