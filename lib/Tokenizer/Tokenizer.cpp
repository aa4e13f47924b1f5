//===- Tokenizer.cpp - Choosing a tokenizer, streaming its text -----------===//

#include "RelaxDialect/Tokenizer/Tokenizer.h"

#include "Backends.h"

#include <fstream>

using namespace mlir::relax::tok;

Tokenizer::~Tokenizer() = default;

std::unique_ptr<Tokenizer> Tokenizer::open(const std::string &path,
                                           std::string &error) {
  if (!std::ifstream(path)) {
    error = path + ": cannot open the file";
    return nullptr;
  }
  bool json =
      path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  std::unique_ptr<Tokenizer> tokenizer =
      json ? openHuggingFace(path, error) : openSentencePiece(path, error);
  if (!tokenizer)
    error = path + ": " + error;
  return tokenizer;
}

IncrementalDecoder::IncrementalDecoder(const Tokenizer &tokenizer,
                                       std::vector<int> context,
                                       bool skipSpecial)
    : tokenizer(tokenizer), ids(std::move(context)), skipSpecial(skipSpecial) {
  // A few tokens of the context give SentencePiece what it needs to place
  // the first new token's space.
  readOffset = ids.size();
  prefixOffset = readOffset > 4 ? readOffset - 4 : 0;
}

bool IncrementalDecoder::decodeFrom(size_t begin, size_t end, std::string &text,
                                    std::string &error) const {
  std::vector<int> window(ids.begin() + begin, ids.begin() + end);
  return tokenizer.decode(window, skipSpecial, text, error);
}

bool IncrementalDecoder::push(int id, std::string &out, std::string &error) {
  ids.push_back(id);
  // Only a window is decoded, from a token boundary before the text given
  // out (prefixOffset) to the end: the text of the tokens since readOffset
  // is what the window's text adds to that of [prefixOffset, readOffset).
  // Both decodes start at the same token, so SentencePiece places spaces
  // alike in both, and each push costs a few tokens, not the whole text.
  std::string prefixText, text;
  if (!decodeFrom(prefixOffset, readOffset, prefixText, error) ||
      !decodeFrom(prefixOffset, ids.size(), text, error)) {
    ids.pop_back();
    return false;
  }
  // Hold back an unfinished UTF-8 character, and SentencePiece's U+FFFD for
  // bytes that the next tokens may complete.
  size_t end = completeUtf8Prefix(text);
  static const std::string kReplacement = "\xEF\xBF\xBD";
  while (end >= kReplacement.size() &&
         text.compare(end - kReplacement.size(), kReplacement.size(),
                      kReplacement) == 0)
    end -= kReplacement.size();
  size_t from = prefixText.size() + held;
  if (end > from) {
    // Bytes that no later token can complete are shown as U+FFFD, as the
    // reference's lossy decoding does: the stream is always valid UTF-8.
    out += toValidUtf8(std::string_view(text).substr(from, end - from));
    held = end - prefixText.size();
  }
  if (end == text.size()) { // all given out: the window moves on
    prefixOffset = readOffset;
    readOffset = ids.size();
    held = 0;
  }
  return true;
}

std::string IncrementalDecoder::finish() {
  std::string prefixText, text, error;
  if (!decodeFrom(prefixOffset, readOffset, prefixText, error) ||
      !decodeFrom(prefixOffset, ids.size(), text, error))
    return ""; // push() decoded these ids already
  size_t from = prefixText.size() + held;
  prefixOffset = readOffset = ids.size();
  held = 0;
  return text.size() > from ? toValidUtf8(std::string_view(text).substr(from))
                            : "";
}
