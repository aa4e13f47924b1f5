//===- llama_generate_text.cpp - Prompts and streamed text ----------------===//
//
// Without --tokenizer the prompt is token ids; with one (a tokenizer.json or
// a SentencePiece tokenizer.model, lib/Tokenizer) it is text, encoded with
// the tokenizer's BOS (or in its chat format with --chat), and the new
// tokens' text is streamed to stdout as they come; generation stops at the
// tokenizer's end of sequence or turn unless --ignore-eos.
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

using mlir::relax::tok::IncrementalDecoder;
using mlir::relax::tok::Tokenizer;

namespace llama_generate {

namespace {

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

// The prompt's ids from its text: with the tokenizer's BOS, or as a chat
// prompt in the tokenizer's format.
std::vector<int64_t> encodePrompt(const Tokenizer &tokenizer,
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

std::unique_ptr<Tokenizer> openTokenizer(const Options &opts) {
  std::unique_ptr<Tokenizer> tokenizer;
  if (!opts.tokenizer.empty()) {
    std::string error;
    tokenizer = Tokenizer::open(opts.tokenizer, error);
    if (!tokenizer)
      fail("--tokenizer: " + error);
  }
  return tokenizer;
}

std::vector<int64_t> readPrompt(const Options &opts,
                                const Tokenizer *tokenizer) {
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
  return prompt;
}

TextStream::TextStream(const Tokenizer *tokenizer, const Options &opts,
                       const std::vector<int64_t> &prompt)
    : opts(opts) {
  if (tokenizer) {
    stream = std::make_unique<IncrementalDecoder>(
        *tokenizer, std::vector<int>(prompt.begin(), prompt.end()));
    if (!opts.ignoreEos)
      stopIds = tokenizer->stopIds();
  }
}

TextStream::~TextStream() = default;

void TextStream::push(int64_t token, size_t index) {
  if (!stream)
    return;
  std::string text, error;
  if (!stream->push(int(token), text, error))
    fail("new token " + std::to_string(index) + ": " + error + " of " +
         opts.tokenizer);
  fwrite(text.data(), 1, text.size(), stdout);
  fflush(stdout);
}

bool TextStream::stops(int64_t token) const {
  return std::find(stopIds.begin(), stopIds.end(), token) != stopIds.end();
}

void TextStream::finish() {
  if (!stream)
    return;
  std::string rest = stream->finish();
  fwrite(rest.data(), 1, rest.size(), stdout);
  printf("\n");
}

} // namespace llama_generate
