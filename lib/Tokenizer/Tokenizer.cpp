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
  bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
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
  std::string error;
  // The context was encoded by this tokenizer: it decodes.
  if (tokenizer.decode(ids, skipSpecial, contextText, error))
    last = contextText;
}

bool IncrementalDecoder::decodeAll(std::string &text,
                                   std::string &error) const {
  text.clear();
  return tokenizer.decode(ids, skipSpecial, text, error);
}

bool IncrementalDecoder::push(int id, std::string &out, std::string &error) {
  ids.push_back(id);
  std::string text;
  if (!decodeAll(text, error)) {
    ids.pop_back();
    return false;
  }
  // Decoding all ids again lets SentencePiece place the spaces as for the
  // whole text; only what follows the context and the text given out is
  // new. Hold back an unfinished UTF-8 character, and SentencePiece's
  // U+FFFD for bytes that the next tokens may complete.
  size_t end = completeUtf8Prefix(text);
  static const std::string kReplacement = "\xEF\xBF\xBD";
  while (end >= kReplacement.size() &&
         text.compare(end - kReplacement.size(), kReplacement.size(),
                      kReplacement) == 0)
    end -= kReplacement.size();
  size_t from = contextText.size() + printed;
  if (end > from && text.compare(0, from, last, 0, from) == 0) {
    // Bytes that no later token can complete are shown as U+FFFD, as the
    // reference's lossy decoding does: the stream is always valid UTF-8.
    out += toValidUtf8(std::string_view(text).substr(from, end - from));
    printed = end - contextText.size();
  }
  last = std::move(text);
  return true;
}

std::string IncrementalDecoder::finish() {
  size_t from = contextText.size() + printed;
  if (last.size() <= from)
    return "";
  printed = last.size() - contextText.size();
  return toValidUtf8(std::string_view(last).substr(from));
}
