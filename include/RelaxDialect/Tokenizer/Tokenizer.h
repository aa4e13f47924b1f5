//===- Tokenizer.h - Text <-> token ids for llama-generate ------*- C++ -*-===//
//
// Tokenizers of the models llama-generate runs, in C++ without Python, on
// maintained libraries: SentencePiece models (tokenizer.model, Llama 2)
// through Debian's libsentencepiece, and Hugging Face tokenizer.json files
// of byte-level BPE (GPT-2, Llama 3, Qwen2) with nlohmann-json and PCRE2
// for the pre-tokenizer's Unicode regexes. Both reproduce the reference
// tokenizers' ids (test/lit/Tokenizer, scripts/gen-tokenizer-tests.py).
// Errors are returned as messages, never thrown (the project builds without
// exceptions). Like the runtime, this library links no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TOKENIZER_TOKENIZER_H
#define RELAXDIALECT_TOKENIZER_TOKENIZER_H

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mlir::relax::tok {

/// The prompt formats of --chat, chosen by the tokenizer's special tokens.
enum class ChatFormat {
  None,   ///< No known template.
  Llama3, ///< <|start_header_id|>role<|end_header_id|>\n\n...<|eot_id|>
  ChatML, ///< <|im_start|>role\n...<|im_end|>\n (Qwen2)
  Llama2, ///< <s>[INST] <<SYS>>...<</SYS>> ... [/INST] (SentencePiece)
};

class Tokenizer {
public:
  virtual ~Tokenizer();

  /// Opens `path`: a file ending in .json is a Hugging Face tokenizer.json,
  /// any other (tokenizer.model) a SentencePiece model. Returns null and
  /// sets `error` ("FILE: reason") when it cannot be read or is not
  /// supported.
  static std::unique_ptr<Tokenizer> open(const std::string &path,
                                         std::string &error);

  /// The ids of `text` (UTF-8). `addSpecial` adds what the tokenizer adds
  /// around a sequence (a BOS: tokenizer.json's post-processor, Llama 2's
  /// <s> for SentencePiece). False with `error` set on invalid UTF-8 or a
  /// piece the vocabulary cannot spell.
  virtual bool encode(std::string_view text, bool addSpecial,
                      std::vector<int> &ids, std::string &error) const = 0;

  /// The text of `ids`, as bytes: byte-level tokens may end inside a UTF-8
  /// character (IncrementalDecoder holds those back). `skipSpecial` drops
  /// special tokens (BOS, EOS, chat markers). False on an id outside the
  /// vocabulary.
  virtual bool decode(const std::vector<int> &ids, bool skipSpecial,
                      std::string &text, std::string &error) const = 0;

  /// One more than the largest id.
  virtual int vocabSize() const = 0;
  /// The id of a token spelled `piece` (a special token, or a vocabulary
  /// entry in the model's own spelling), or -1.
  virtual int tokenId(std::string_view piece) const = 0;
  /// Whether `id` is a special token (skipped by decode(skipSpecial)).
  virtual bool isSpecial(int id) const = 0;
  /// The ids that end a generation (EOS, end of turn), possibly none.
  virtual std::vector<int> stopIds() const = 0;
  /// "sentencepiece" or "byte-level BPE".
  virtual const char *kind() const = 0;

  /// The chat format --chat uses with this tokenizer.
  ChatFormat chatFormat() const;
  /// The ids of a one-turn chat prompt in chatFormat(), ready for the
  /// assistant's answer (add_generation_prompt); `system` may be empty.
  bool encodeChat(std::string_view system, std::string_view user,
                  std::vector<int> &ids, std::string &error) const;
};

/// Streams the text of ids as they come: each push() returns the text that
/// became final, never a partial UTF-8 character (nor SentencePiece's
/// U+FFFD of a byte sequence still incomplete). The end of `context` (the
/// prompt) is decoded with the new ids so that leading spaces come out
/// right, but never printed. Each push decodes a few tokens, not the whole
/// text.
class IncrementalDecoder {
public:
  IncrementalDecoder(const Tokenizer &tokenizer, std::vector<int> context,
                     bool skipSpecial = true);
  /// Appends `id`; `out` receives the newly final text.
  bool push(int id, std::string &out, std::string &error);
  /// The text held back at the end (an incomplete character becomes
  /// U+FFFD).
  std::string finish();

private:
  bool decodeFrom(size_t begin, size_t end, std::string &text,
                  std::string &error) const;

  const Tokenizer &tokenizer;
  std::vector<int> ids;
  bool skipSpecial;
  // The text of ids[prefixOffset, readOffset) was given out (or is the
  // context's); of the tokens after it, `held` bytes of their text too.
  size_t prefixOffset = 0, readOffset = 0, held = 0;
};

/// The length of the longest prefix of `s` that ends at a UTF-8 character
/// boundary (bytes that cannot start or continue a character count as
/// characters of their own).
size_t completeUtf8Prefix(std::string_view s);

/// `s` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string toValidUtf8(std::string_view s);

/// The byte offset of the first invalid UTF-8 sequence of `s`, or npos.
size_t findInvalidUtf8(std::string_view s);

} // namespace mlir::relax::tok

#endif // RELAXDIALECT_TOKENIZER_TOKENIZER_H
