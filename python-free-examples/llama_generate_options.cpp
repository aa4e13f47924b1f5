//===- llama_generate_options.cpp - llama-generate's command line ---------===//
//
// The options of llama-generate and the checks between them (one of
// --weights and --random-weights, one of --prompt and --prompt-file,
// --chat/--system/--ignore-eos only with --tokenizer); every mistake is a
// message and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace llama_generate {

[[noreturn]] void fail(const std::string &message) {
  fprintf(stderr, "llama-generate: error: %s\n", message.c_str());
  exit(1);
}

void check(relax_status status, const std::string &what) {
  if (status != RELAX_OK)
    fail(what + ": " + relax_last_error());
}

namespace {

const char *kUsage =
    "usage: llama-generate MODEL.so (--weights W.safetensors | "
    "--random-weights SEED)\n"
    "           (--prompt 1,2,3 | --prompt-file F) [-n N] [--params P]\n"
    "           [--cache-length M]\n"
    "           [--dump-logits L.npy] [--expect-tokens T.npy]\n"
    "           [--expect-logits L.npy [--rtol R] [--atol A]]\n"
    "           [--save-weights W.safetensors]\n"
    "           [--quantize q8|q4 [--group-size G]] (quantize f32 weights for\n"
    "            a model of gen-llama-model.py --quantize)\n"
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

} // namespace

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
    } else if (a == "--dump-logits")
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
    else if (a == "--quantize") {
      std::string q = value();
      if (q != "q8" && q != "q4")
        fail("--quantize must be q8 or q4, not '" + q + "'");
      o.quantizeBits = q == "q8" ? 8 : 4;
    } else if (a == "--group-size") {
      o.groupSize = parseInt(value(), a);
      if (o.groupSize < 1)
        fail("--group-size must be at least 1, not " +
             std::to_string(o.groupSize));
    } else if (a == "--tokenizer")
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
  if (o.groupSize && !o.quantizeBits)
    fail("--group-size needs --quantize");
  if (!o.groupSize)
    o.groupSize = 32;
  return o;
}

} // namespace llama_generate
