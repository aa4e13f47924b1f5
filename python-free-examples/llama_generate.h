//===- llama_generate.h - The parts of llama-generate -----------*- C++ -*-===//
//
// llama-generate (llama_generate.cpp, docs/llm.md) in files by job:
//   llama_generate_options.cpp  the command line and its checks
//   llama_generate_text.cpp     prompts (token ids, or text through
//                               lib/Tokenizer) and the streamed text
//   llama_generate_weights.cpp  weights from safetensors or generated
//   llama_generate_model.cpp    the model's inputs, caches, prefill and the
//                               greedy decode loop
//   llama_generate_report.cpp   the summary, .npy dumps and the comparison
//                               with reference tokens and logits
//   llama_generate_tp.cpp       main of llama-generate-tp: one rank of a
//                               tensor-parallel model under mpirun
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_EXAMPLES_LLAMA_GENERATE_H
#define RELAX_EXAMPLES_LLAMA_GENERATE_H

#include "RelaxDialect/Runtime/HugePages.h"
#include "RelaxDialect/Runtime/ParamFile.h"
#include "RelaxDialect/Runtime/RelaxModule.h"
#include "RelaxDialect/Tokenizer/Tokenizer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llama_generate {

/// Prints "llama-generate: error: MESSAGE" and exits with status 1.
[[noreturn]] void fail(const std::string &message);
/// fail()s with `what` and the runtime's last error unless RELAX_OK.
void check(relax_status status, const std::string &what);

//===----------------------------------------------------------------------===//
// Options (llama_generate_options.cpp)
//===----------------------------------------------------------------------===//

struct Options {
  std::string library, params, weights, saveWeights, promptText, promptFile,
      dumpLogits, expectTokens, expectLogits, tokenizer, system;
  bool randomWeights = false, chat = false, ignoreEos = false;
  uint64_t seed = 0;
  long steps = 32;
  long cacheLength = 0; // 0 (not given): the prompt plus the new tokens
  int quantizeBits = 0; // --quantize: 8 or 4; 0: weights are used as stored
  long groupSize = 0;   // --group-size (32 when --quantize gives none)
  double rtol = 1e-3, atol = 1e-3;
  // Tensor parallel (llama-generate-tp): this process is rank `rank` of
  // `ranks`; the weights split by gen-llama-model.py --tensor-parallel are
  // sliced from the full tensors at load time.
  int rank = 0, ranks = 1;
  // With several ranks: makes every rank take rank 0's greedy token (their
  // logits may differ in the last bits: MPI may sum in another order on
  // each rank).
  void (*shareToken)(int64_t &token) = nullptr;
  // Seconds spent in the collectives so far (libRelaxCollectives), or null.
  double (*collectiveSeconds)() = nullptr;
};

/// The options, checked against each other; fail()s with the usage.
Options parseOptions(int argc, char **argv);
/// `text` as an integer; fail()s with `what` otherwise.
long parseInt(const std::string &text, const std::string &what);

//===----------------------------------------------------------------------===//
// Prompts and text (llama_generate_text.cpp)
//===----------------------------------------------------------------------===//

/// The tokenizer of --tokenizer, or null without one.
std::unique_ptr<mlir::relax::tok::Tokenizer> openTokenizer(const Options &opts);

/// The prompt's token ids: from --prompt or --prompt-file, token ids or, with
/// a tokenizer, text.
std::vector<int64_t> readPrompt(const Options &opts,
                                const mlir::relax::tok::Tokenizer *tokenizer);

/// With a tokenizer, prints each new token's text to stdout as soon as it is
/// whole (the prompt is its context: spaces come out right) and knows the
/// tokens that end the generation; without one, does nothing.
class TextStream {
public:
  TextStream(const mlir::relax::tok::Tokenizer *tokenizer, const Options &opts,
             const std::vector<int64_t> &prompt);
  ~TextStream();
  /// Prints the text that new token number `index` completes.
  void push(int64_t token, size_t index);
  /// Whether `token` ends the sequence or turn (never with --ignore-eos).
  bool stops(int64_t token) const;
  /// Prints what is left and a line break, after the last token.
  void finish();

private:
  const Options &opts;
  std::unique_ptr<mlir::relax::tok::IncrementalDecoder> stream;
  std::vector<int> stopIds;
};

//===----------------------------------------------------------------------===//
// The model and its weights (llama_generate_model.cpp,
// llama_generate_weights.cpp)
//===----------------------------------------------------------------------===//

/// An input of prefill or decode, as the library describes it.
struct Input {
  std::string name;
  relax_dtype dtype;
  std::vector<int64_t> shape; // static sizes; -1 where symbolic
};

/// "[a, b, c]".
std::string shapeText(const std::vector<int64_t> &shape);

/// The storage of a weight made here: in 2 MiB huge pages from 2 MiB up
/// (HugePages.h; decode streams every weight once per token, 1.3x faster
/// out of huge pages), the same as std::vector otherwise.
template <typename T>
using WeightVector = std::vector<T, relax::runtime::HugePageAllocator<T>>;

/// A weight made here (generated, or quantized at load time).
struct OwnedTensor {
  std::string dtype; // safetensors' name: F32, F16, I8, U8
  std::vector<int64_t> shape;
  WeightVector<uint8_t> bytes;
};

// The weights of both entries, by name: read from a safetensors file (into
// huge pages, ParamResidence::HugePages) or generated, and quantized at
// load time with --quantize. Each is checked against the shape and dtype
// the model expects.
class Weights {
public:
  /// `modelInputs`: the inputs of one entry (which quantized parameters,
  /// zero points included, the model has).
  Weights(const Options &o, const std::vector<Input> &modelInputs);
  /// The data of weight `in`, of its dtype and shape.
  const void *get(const Input &in);
  /// Writes the generated (and quantized) weights as a safetensors file.
  void save(const std::string &path) const;

private:
  /// The f32 weight `name` [out, in]: from the file, or generated.
  const float *f32Weight(const std::string &name,
                         const std::vector<int64_t> &shape);
  /// Makes `base`.qweight, .scales (and .qzeros) from `base`.weight.
  void quantize(const std::string &base);
  /// quantize() for a weight [out, in] of `bits` the model does not
  /// describe in the plain layout (its tiles' inputs give the shape).
  void quantizeAs(const std::string &base, int bits, int64_t out, int64_t in,
                  int64_t group, bool zeroPoints, bool f16Scales);
  /// The tiles of `in` (`base`.qtiles, QuantTiles.h's layout): read as
  /// stored, or packed from the plain `base`.qweight and .scales of the
  /// file or of --quantize.
  const void *tiles(const Input &in, const std::string &base);
  /// The file's tensor `name`, checked to be F32 (any shape).
  const mlir::relax::rt::ParamFile::Entry *
  fileF32(const std::string &name) const;
  /// With several ranks: this rank's slice [shape] of the split f32 weight
  /// `name`, cut from the full tensor; null for a weight that is not split.
  const float *slice(const std::string &name,
                     const std::vector<int64_t> &shape);

  const Options &opts;
  std::unique_ptr<mlir::relax::rt::ParamFile> file;
  std::map<std::string, Input> model;
  // Generated weights, by name; map nodes never move, so the pointers
  // handed to the calls stay valid.
  std::map<std::string, OwnedTensor> generated;
  // Weights packed in tiles at load time, by name (never saved: the plain
  // tensors they come from are).
  std::map<std::string, OwnedTensor> tiled;
  // This rank's slices of split weights (never saved).
  std::map<std::string, WeightVector<float>> slices;
};

/// Group quantization of W [out, in] (row-major f32) in the layout and with
/// the formulas of docs/quantization.md (llama.cpp's Q8_0 / Q4_0, and 4
/// bits with zero points): q is I8 [out, in] or packed U8 [out, in / 2],
/// the scales F16 or F32 [out, in / group], the zeros U8 (zeroPoints only).
/// `group` must divide `in` (and be even with 4 bits).
void quantizeMatrix(const float *w, int64_t out, int64_t in, int bits,
                    int64_t group, bool zeroPoints, bool f16Scales,
                    OwnedTensor &q, OwnedTensor &scales, OwnedTensor &zeros);

/// What a generation produced: the new tokens, the logits of each ([tokens,
/// vocab]) and the time prefill and the decode steps took.
struct Generation {
  std::vector<int64_t> tokens;
  std::vector<float> logits;
  int64_t vocab = -1;
  double prefillSeconds = 0, decodeSeconds = 0;
  // The process's CPU time during the decode steps (all threads).
  double decodeCpuSeconds = 0;
  // Of those, the time inside the collectives (Options::collectiveSeconds).
  double prefillCollectiveSeconds = 0, decodeCollectiveSeconds = 0;
};

/// The whole generation of both drivers: the tokenizer, the prompt,
/// generate() with the streamed text, then the summary; the prompt's ids
/// go to `prompt`.
Generation generateAndSummarize(const Options &opts,
                                std::vector<int64_t> &prompt);

/// Opens the model library, binds the weights, prefills `prompt` and runs
/// greedy decode steps until -n tokens or `text` says stop; the new tokens'
/// text goes to `text` as they come.
Generation generate(const Options &opts, const std::vector<int64_t> &prompt,
                    TextStream &text);

//===----------------------------------------------------------------------===//
// Results (llama_generate_report.cpp)
//===----------------------------------------------------------------------===//

/// Prints the prompt, the new tokens and the tokens/s of prefill and decode.
void printSummary(const std::vector<int64_t> &prompt, const Generation &gen);

/// Writes --dump-logits and compares with --expect-tokens and
/// --expect-logits: the exit status (1 on a mismatch).
int compareWithReferences(const Options &opts, const Generation &gen);

} // namespace llama_generate

#endif // RELAX_EXAMPLES_LLAMA_GENERATE_H
