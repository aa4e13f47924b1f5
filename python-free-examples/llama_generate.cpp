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
// tokens, past_length or a cache is looked up under its relax.name (Hugging
// Face's state dict names) in the safetensors file, or generated with a
// counter-based generator (the same numbers as scripts/llama_weights.py).
// See docs/llm.md; the parts are in llama_generate_*.cpp (llama_generate.h).
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

using namespace llama_generate;

int main(int argc, char **argv) {
  Options opts = parseOptions(argc, argv);
  std::vector<int64_t> prompt;
  Generation gen = generateAndSummarize(opts, prompt);
  return compareWithReferences(opts, gen);
}
