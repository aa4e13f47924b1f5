//===- TokenizerTests.cpp - UTF-8, streaming and chat prompts -------------===//
//
// The parts of lib/Tokenizer that do not depend on a vocabulary, through a
// fake tokenizer whose ids stand for fixed byte strings: a stream never
// gives out half a character, gives bytes that stay invalid as U+FFFD, holds
// back SentencePiece's U+FFFD while the next token may complete it, and
// never prints the context; the chat formats write the prompts of the
// templates they stand for.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Tokenizer/Tokenizer.h"

#include <gtest/gtest.h>

#include <map>

using namespace mlir::relax::tok;

namespace {

const std::string kFFFD = "\xEF\xBF\xBD";

/// Id i decodes to pieces[i]; encode() records its text and returns one id
/// per byte. Special tokens are named ones.
class FakeTokenizer : public Tokenizer {
public:
  std::vector<std::string> pieces;
  std::map<std::string, int> named;
  bool sentencePiece = false;
  mutable std::string lastText;
  mutable bool lastAddSpecial = false;

  bool encode(std::string_view text, bool addSpecial, std::vector<int> &ids,
              std::string &) const override {
    lastText = std::string(text);
    lastAddSpecial = addSpecial;
    for (unsigned char c : text)
      ids.push_back(c);
    return true;
  }
  bool decode(const std::vector<int> &ids, bool skipSpecial, std::string &text,
              std::string &error) const override {
    for (int id : ids) {
      if (id < 0 || id >= vocabSize()) {
        error = "bad id";
        return false;
      }
      if (!(skipSpecial && isSpecial(id)))
        text += pieces[id];
    }
    return true;
  }
  int vocabSize() const override { return int(pieces.size()); }
  int tokenId(std::string_view piece) const override {
    auto it = named.find(std::string(piece));
    return it == named.end() ? -1 : it->second;
  }
  bool isSpecial(int id) const override {
    for (const auto &[name, special] : named)
      if (special == id)
        return true;
    return false;
  }
  std::vector<int> stopIds() const override { return {}; }
  const char *kind() const override {
    return sentencePiece ? "sentencepiece" : "byte-level BPE";
  }
};

std::string streamAll(const Tokenizer &t, const std::vector<int> &context,
                      const std::vector<int> &ids,
                      std::vector<std::string> *chunks = nullptr) {
  IncrementalDecoder stream(t, context);
  std::string all;
  for (int id : ids) {
    std::string out, error;
    EXPECT_TRUE(stream.push(id, out, error)) << error;
    if (chunks)
      chunks->push_back(out);
    all += out;
  }
  return all + stream.finish();
}

TEST(Utf8, CompletePrefix) {
  EXPECT_EQ(completeUtf8Prefix(""), 0u);
  EXPECT_EQ(completeUtf8Prefix("ab"), 2u);
  EXPECT_EQ(completeUtf8Prefix("a\xF0\x9F\x98"), 1u);     // 😀 cut short
  EXPECT_EQ(completeUtf8Prefix("a\xF0\x9F\x98\x80"), 5u); // 😀 whole
  EXPECT_EQ(completeUtf8Prefix("\xC3"), 0u);              // é cut short
  // Bytes that cannot continue anything are characters of their own.
  EXPECT_EQ(completeUtf8Prefix("a\x80"), 2u);
  EXPECT_EQ(completeUtf8Prefix("a\xFF"), 2u);
  EXPECT_EQ(completeUtf8Prefix("\xE0\x80"), 2u); // overlong: never valid
}

TEST(Utf8, LossyAndValidity) {
  EXPECT_EQ(toValidUtf8("ok"), "ok");
  EXPECT_EQ(toValidUtf8("a\xFF"
                        "b"),
            "a" + kFFFD + "b");
  // One U+FFFD per maximal valid prefix, as Rust's from_utf8_lossy.
  EXPECT_EQ(toValidUtf8("\xF0\x9F\x98"
                        "x"),
            kFFFD + "x");
  EXPECT_EQ(toValidUtf8("\xED\xA0\x80"), kFFFD + kFFFD + kFFFD); // surrogate
  EXPECT_EQ(findInvalidUtf8("caf\xC3\xA9"), std::string_view::npos);
  EXPECT_EQ(findInvalidUtf8("ok\xC0\x80"), 2u);
}

TEST(IncrementalDecoder, HoldsBackHalfCharacters) {
  FakeTokenizer t;
  t.pieces = {"\xF0\x9F", "\x98\x80", "a", "\xC3", "\xFF"};
  std::vector<std::string> chunks;
  EXPECT_EQ(streamAll(t, {}, {2, 0, 1, 2}, &chunks), "a\xF0\x9F\x98\x80"
                                                     "a");
  EXPECT_EQ(chunks,
            (std::vector<std::string>{"a", "", "\xF0\x9F\x98\x80", "a"}));
  // A lead byte the next token does not continue becomes U+FFFD; one left
  // at the end too.
  EXPECT_EQ(streamAll(t, {}, {3, 2}), kFFFD + "a");
  EXPECT_EQ(streamAll(t, {}, {2, 3}), "a" + kFFFD);
  EXPECT_EQ(streamAll(t, {}, {4, 2}), kFFFD + "a");
}

TEST(IncrementalDecoder, ContextIsNotPrinted) {
  FakeTokenizer t;
  t.pieces = {"Hello", " world", "\xC3", "\xA9"};
  EXPECT_EQ(streamAll(t, {0}, {1}), " world");
  EXPECT_EQ(streamAll(t, {0, 1}, {1, 1}), " world world");
  EXPECT_EQ(streamAll(t, {0}, {2, 3, 1}), "\xC3\xA9 world");
}

TEST(IncrementalDecoder, HoldsBackReplacementCharacters) {
  // SentencePiece decodes a byte sequence still incomplete as U+FFFD; a
  // later token may complete it (the whole decode then changes).
  class Fallback : public FakeTokenizer {
  public:
    bool decode(const std::vector<int> &ids, bool skipSpecial,
                std::string &text, std::string &error) const override {
      std::string bytes;
      if (!FakeTokenizer::decode(ids, skipSpecial, bytes, error))
        return false;
      text += toValidUtf8(bytes);
      return true;
    }
  } t;
  t.pieces = {"\xF0\x9F", "\x98\x80", "a"};
  std::vector<std::string> chunks;
  EXPECT_EQ(streamAll(t, {}, {2, 0, 1}, &chunks), "a\xF0\x9F\x98\x80");
  EXPECT_EQ(chunks, (std::vector<std::string>{"a", "", "\xF0\x9F\x98\x80"}));
  EXPECT_EQ(streamAll(t, {}, {0, 2}), kFFFD + "a");
}

TEST(Chat, Formats) {
  FakeTokenizer llama3;
  llama3.named = {{"<|start_header_id|>", 0}, {"<|eot_id|>", 1}};
  std::vector<int> ids;
  std::string error;
  EXPECT_EQ(llama3.chatFormat(), ChatFormat::Llama3);
  ASSERT_TRUE(llama3.encodeChat("", "  hi \n", ids, error));
  EXPECT_EQ(llama3.lastText,
            "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n"
            "hi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n");
  EXPECT_FALSE(llama3.lastAddSpecial);

  FakeTokenizer chatml;
  chatml.named = {{"<|im_start|>", 0}, {"<|im_end|>", 1}};
  EXPECT_EQ(chatml.chatFormat(), ChatFormat::ChatML);
  ASSERT_TRUE(chatml.encodeChat("", "hi", ids, error));
  EXPECT_EQ(chatml.lastText,
            "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
            "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");
  ASSERT_TRUE(chatml.encodeChat("Be brief.", "hi", ids, error));
  EXPECT_EQ(chatml.lastText.rfind("<|im_start|>system\nBe brief.<|im_end|>", 0),
            0u);

  FakeTokenizer llama2;
  llama2.sentencePiece = true;
  llama2.named = {{"<s>", 1000}};
  EXPECT_EQ(llama2.chatFormat(), ChatFormat::Llama2);
  ids.clear();
  ASSERT_TRUE(llama2.encodeChat("Be brief.", "hi ", ids, error));
  EXPECT_EQ(llama2.lastText,
            "[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nhi [/INST]");
  EXPECT_FALSE(llama2.lastAddSpecial);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids[0], 1000); // <s> first

  FakeTokenizer plain;
  EXPECT_EQ(plain.chatFormat(), ChatFormat::None);
  EXPECT_FALSE(plain.encodeChat("", "hi", ids, error));
  EXPECT_NE(error.find("no chat format is known"), std::string::npos);
}

} // namespace
