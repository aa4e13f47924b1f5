//===- llama_generate_report.cpp - Results of llama-generate --------------===//
//
// The summary (prompt, new tokens, tokens/s of prefill and of decode
// separately), --dump-logits as .npy, and the comparison with the reference
// tokens and logits of scripts/gen-llama-reference.py (--expect-tokens,
// --expect-logits within --rtol/--atol).
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace llama_generate {

namespace {

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
  if (!f.read(magic, 10) || memcmp(magic, "\x93NUMPY", 6) != 0 || magic[6] != 1)
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

} // namespace

void printSummary(const std::vector<int64_t> &prompt, const Generation &gen) {
  const std::vector<int64_t> &tokens = gen.tokens;
  printf("prompt:");
  for (int64_t t : prompt)
    printf(" %lld", (long long)t);
  printf("\ntokens:");
  for (int64_t t : tokens)
    printf(" %lld", (long long)t);
  printf("\n");
  double prefillS = gen.prefillSeconds, decodeS = gen.decodeSeconds;
  printf("prefill: %zu tokens in %.1f ms (%.1f tokens/s)\n", prompt.size(),
         prefillS * 1e3, prompt.size() / prefillS);
  size_t decoded = tokens.size() - 1;
  if (decoded > 0)
    printf("decode: %zu tokens in %.1f ms (%.2f tokens/s), CPU %.1f ms\n",
           decoded, decodeS * 1e3, decoded / decodeS,
           gen.decodeCpuSeconds * 1e3);
}

Generation generateAndSummarize(const Options &opts,
                                std::vector<int64_t> &prompt) {
  std::unique_ptr<mlir::relax::tok::Tokenizer> tokenizer = openTokenizer(opts);
  prompt = readPrompt(opts, tokenizer.get());
  TextStream text(tokenizer.get(), opts, prompt);
  Generation gen = generate(opts, prompt, text);
  text.finish();
  printSummary(prompt, gen);
  return gen;
}

int compareWithReferences(const Options &opts, const Generation &gen) {
  const std::vector<int64_t> &tokens = gen.tokens;
  const std::vector<float> &allLogits = gen.logits;
  int64_t vocab = gen.vocab;
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
      fail(opts.expectLogits +
           ": expected [>= " + std::to_string(logitsShape[0]) + ", " +
           std::to_string(vocab) + "] logits, got " + shapeText(shape));
    const float *expected = reinterpret_cast<const float *>(data.data());
    double maxAbs = 0, maxRel = 0;
    size_t bad = 0, firstBad = 0;
    for (size_t i = 0; i < allLogits.size(); ++i) {
      double diff = std::fabs(double(allLogits[i]) - expected[i]);
      maxAbs = std::max(maxAbs, diff);
      maxRel = std::max(maxRel,
                        diff / std::max(1e-30, std::fabs(double(expected[i]))));
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
  return status;
}

} // namespace llama_generate
