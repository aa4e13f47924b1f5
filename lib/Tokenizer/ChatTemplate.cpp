//===- ChatTemplate.cpp - One-turn chat prompts for --chat ----------------===//
//
// The chat templates of tokenizer_config.json are Jinja programs; this
// library runs none. It knows the three prompt formats the supported
// tokenizers come with and writes them as those templates do for one
// optional system message, one user message and add_generation_prompt:
//
//   Llama 3: <|begin_of_text|>[<|start_header_id|>system<|end_header_id|>
//            \n\nSYSTEM<|eot_id|>]<|start_header_id|>user<|end_header_id|>
//            \n\nUSER<|eot_id|><|start_header_id|>assistant
//            <|end_header_id|>\n\n
//            (messages trimmed, Jinja's `| trim`)
//   ChatML:  <|im_start|>system\nSYSTEM<|im_end|>\n<|im_start|>user\nUSER
//            <|im_end|>\n<|im_start|>assistant\n (Qwen2's default system
//            message "You are a helpful assistant." when none is given)
//   Llama 2: <s>[INST] <<SYS>>\nSYSTEM\n<</SYS>>\n\nUSER [/INST] (trimmed)
//
// chosen by the tokenizer: <|start_header_id|> or <|im_start|> among its
// tokens, else a SentencePiece model is Llama 2's. Test:
// test/lit/Tokenizer (ids of transformers' apply_chat_template).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Tokenizer/Tokenizer.h"

#include <cstring>

using namespace mlir::relax::tok;

namespace {
/// Python's str.strip() for ASCII white space (and Jinja's trim).
std::string_view trim(std::string_view s) {
  const char *space = " \t\n\r\f\v";
  size_t begin = s.find_first_not_of(space);
  if (begin == std::string_view::npos)
    return {};
  return s.substr(begin, s.find_last_not_of(space) - begin + 1);
}
} // namespace

ChatFormat Tokenizer::chatFormat() const {
  if (tokenId("<|start_header_id|>") >= 0 && tokenId("<|eot_id|>") >= 0)
    return ChatFormat::Llama3;
  if (tokenId("<|im_start|>") >= 0 && tokenId("<|im_end|>") >= 0)
    return ChatFormat::ChatML;
  if (std::strcmp(kind(), "sentencepiece") == 0)
    return ChatFormat::Llama2;
  return ChatFormat::None;
}

bool Tokenizer::encodeChat(std::string_view system, std::string_view user,
                           std::vector<int> &ids, std::string &error) const {
  std::string text;
  switch (chatFormat()) {
  case ChatFormat::Llama3: {
    auto turn = [&](const char *role, std::string_view content) {
      text += "<|start_header_id|>";
      text += role;
      text += "<|end_header_id|>\n\n";
      text += trim(content);
      text += "<|eot_id|>";
    };
    text = "<|begin_of_text|>";
    if (!system.empty())
      turn("system", system);
    turn("user", user);
    text += "<|start_header_id|>assistant<|end_header_id|>\n\n";
    return encode(text, /*addSpecial=*/false, ids, error);
  }
  case ChatFormat::ChatML:
    text = "<|im_start|>system\n";
    text += system.empty() ? "You are a helpful assistant." : system;
    text += "<|im_end|>\n<|im_start|>user\n";
    text += user;
    text += "<|im_end|>\n<|im_start|>assistant\n";
    return encode(text, /*addSpecial=*/false, ids, error);
  case ChatFormat::Llama2: {
    std::string content(user);
    if (!system.empty())
      content = "<<SYS>>\n" + std::string(system) + "\n<</SYS>>\n\n" + content;
    text = "[INST] ";
    text += trim(content);
    text += " [/INST]";
    // <s> then the text, whatever encode() adds by the tokenizer's config.
    if (int bos = tokenId("<s>"); bos >= 0)
      ids.push_back(bos);
    return encode(text, /*addSpecial=*/false, ids, error);
  }
  case ChatFormat::None:
    break;
  }
  error = "no chat format is known for this tokenizer (--chat supports "
          "Llama 3's <|start_header_id|>, ChatML's <|im_start|> and Llama 2's "
          "[INST] with a SentencePiece model)";
  return false;
}
