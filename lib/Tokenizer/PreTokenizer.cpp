//===- PreTokenizer.cpp - tokenizer.json pre-tokenizers -------------------===//

#include "PreTokenizer.h"

#include "ByteLevel.h"

#include <nlohmann/json.hpp>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

using namespace mlir::relax::tok;
using json = nlohmann::json;

PreTokenizer::~PreTokenizer() = default;

namespace {

// The regex of the ByteLevel pre-tokenizer (use_regex), fixed in the
// reference's code, not in the file: GPT-2's.
const char *kGPT2Regex =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

enum class Behavior { Isolated, Removed, MergedWithPrevious, MergedWithNext };

/// A compiled PCRE2 pattern and the splitting of a text by its matches.
class Regex {
public:
  static std::unique_ptr<Regex> compile(const std::string &pattern,
                                        bool literal, std::string &error) {
    int code = 0;
    PCRE2_SIZE offset = 0;
    uint32_t options =
        literal ? PCRE2_LITERAL | PCRE2_UTF : PCRE2_UTF | PCRE2_UCP;
    pcre2_code *re =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()),
                      pattern.size(), options, &code, &offset, nullptr);
    if (!re) {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(code, message, sizeof(message));
      error = "regex '" + pattern + "' at offset " + std::to_string(offset) +
              ": " + reinterpret_cast<char *>(message);
      return nullptr;
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); // optional speed-up
    auto r = std::unique_ptr<Regex>(new Regex);
    r->code = re;
    r->data = pcre2_match_data_create_from_pattern(re, nullptr);
    return r;
  }
  ~Regex() {
    pcre2_match_data_free(data);
    pcre2_code_free(code);
  }

  /// The spans of `text` in order, each flagged as a match or a gap
  /// between matches; empty spans are left out.
  std::vector<std::pair<std::string, bool>>
  spans(const std::string &text) const {
    std::vector<std::pair<std::string, bool>> out;
    size_t start = 0, gap = 0;
    auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    while (start <= text.size()) {
      // The text was checked to be UTF-8 before (encode()) and pieces are
      // cut at character boundaries: without PCRE2_NO_UTF_CHECK, each call
      // would check the whole subject again (quadratic in its length).
      int rc = pcre2_match(code, subject, text.size(), start,
                           PCRE2_NO_UTF_CHECK, data, nullptr);
      if (rc < 0)
        break; // PCRE2_ERROR_NOMATCH
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer(data);
      size_t begin = ov[0], end = ov[1];
      if (end == begin) { // an empty match: step over one character
        start = begin + 1;
        while (start < text.size() && (text[start] & 0xC0) == 0x80)
          ++start;
        continue;
      }
      if (begin > gap)
        out.emplace_back(text.substr(gap, begin - gap), false);
      out.emplace_back(text.substr(begin, end - begin), true);
      gap = start = end;
    }
    if (gap < text.size())
      out.emplace_back(text.substr(gap), false);
    return out;
  }

private:
  Regex() = default;
  pcre2_code *code = nullptr;
  pcre2_match_data *data = nullptr;
};

class Split final : public PreTokenizer {
public:
  Split(std::unique_ptr<Regex> regex, Behavior behavior, bool invert)
      : regex(std::move(regex)), behavior(behavior), invert(invert) {}

  void apply(std::vector<std::string> &pieces) const override {
    std::vector<std::string> out;
    for (const std::string &piece : pieces) {
      std::string pending; // MergedWithNext: matches waiting for the next span
      bool lastWasMatch = false;
      size_t first = out.size();
      for (auto &[span, matched] : regex->spans(piece)) {
        bool isMatch = matched != invert;
        switch (behavior) {
        case Behavior::Isolated:
          out.push_back(span);
          break;
        case Behavior::Removed:
          if (!isMatch)
            out.push_back(span);
          break;
        case Behavior::MergedWithPrevious:
          if (isMatch && out.size() > first && !lastWasMatch)
            out.back() += span;
          else
            out.push_back(span);
          break;
        case Behavior::MergedWithNext:
          if (isMatch && !pending.empty()) {
            out.push_back(pending);
            pending.clear();
          }
          if (isMatch)
            pending = span;
          else {
            out.push_back(pending + span);
            pending.clear();
          }
          break;
        }
        lastWasMatch = isMatch;
      }
      if (!pending.empty())
        out.push_back(pending);
    }
    pieces = std::move(out);
  }

private:
  std::unique_ptr<Regex> regex;
  Behavior behavior;
  bool invert;
};

class ByteLevel final : public PreTokenizer {
public:
  ByteLevel(bool addPrefixSpace, std::unique_ptr<Regex> regex)
      : addPrefixSpace(addPrefixSpace), regex(std::move(regex)) {}

  void apply(std::vector<std::string> &pieces) const override {
    std::vector<std::string> out;
    for (std::string piece : pieces) {
      if (addPrefixSpace && (piece.empty() || piece[0] != ' '))
        piece.insert(piece.begin(), ' ');
      if (regex) {
        for (auto &span : regex->spans(piece))
          out.push_back(byteLevelEncode(span.first));
      } else if (!piece.empty()) {
        out.push_back(byteLevelEncode(piece));
      }
    }
    pieces = std::move(out);
  }

private:
  bool addPrefixSpace;
  std::unique_ptr<Regex> regex; // GPT-2's, where use_regex
};

class Sequence final : public PreTokenizer {
public:
  explicit Sequence(std::vector<std::unique_ptr<PreTokenizer>> steps)
      : steps(std::move(steps)) {}
  void apply(std::vector<std::string> &pieces) const override {
    for (const auto &step : steps)
      step->apply(pieces);
  }

private:
  std::vector<std::unique_ptr<PreTokenizer>> steps;
};

bool flag(const json &object, const char *key, bool fallback) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

} // namespace

std::unique_ptr<PreTokenizer> PreTokenizer::fromJSON(const json &value,
                                                     std::string &error) {
  if (value.is_null())
    return std::make_unique<Sequence>(
        std::vector<std::unique_ptr<PreTokenizer>>{});
  auto type = value.is_object() ? value.find("type") : value.end();
  if (!value.is_object() || type == value.end() || !type->is_string()) {
    error = "pre_tokenizer: expected an object with a \"type\"";
    return nullptr;
  }
  std::string kind = type->get<std::string>();
  if (kind == "Sequence") {
    auto list = value.find("pretokenizers");
    if (list == value.end() || !list->is_array()) {
      error = "pre_tokenizer Sequence: no \"pretokenizers\" array";
      return nullptr;
    }
    std::vector<std::unique_ptr<PreTokenizer>> steps;
    for (const json &step : *list) {
      steps.push_back(fromJSON(step, error));
      if (!steps.back())
        return nullptr;
    }
    return std::make_unique<Sequence>(std::move(steps));
  }
  if (kind == "ByteLevel") {
    std::unique_ptr<Regex> regex;
    if (flag(value, "use_regex", true) &&
        !(regex = Regex::compile(kGPT2Regex, false, error)))
      return nullptr;
    return std::make_unique<ByteLevel>(flag(value, "add_prefix_space", true),
                                       std::move(regex));
  }
  if (kind == "Split") {
    auto pattern = value.find("pattern");
    const json *text = nullptr;
    bool literal = false;
    if (pattern != value.end() && pattern->is_object()) {
      if (auto r = pattern->find("Regex"); r != pattern->end())
        text = &*r;
      else if (auto s = pattern->find("String"); s != pattern->end()) {
        text = &*s;
        literal = true;
      }
    }
    if (!text || !text->is_string()) {
      error = "pre_tokenizer Split: expected \"pattern\": {\"Regex\": ...} "
              "or {\"String\": ...}";
      return nullptr;
    }
    auto behaviorIt = value.find("behavior");
    std::string name = behaviorIt != value.end() && behaviorIt->is_string()
                           ? behaviorIt->get<std::string>()
                           : "";
    Behavior behavior;
    if (name == "Isolated")
      behavior = Behavior::Isolated;
    else if (name == "Removed")
      behavior = Behavior::Removed;
    else if (name == "MergedWithPrevious")
      behavior = Behavior::MergedWithPrevious;
    else if (name == "MergedWithNext")
      behavior = Behavior::MergedWithNext;
    else {
      error = "pre_tokenizer Split: behavior '" + name +
              "' is not supported (Isolated, Removed, MergedWithPrevious, "
              "MergedWithNext are)";
      return nullptr;
    }
    auto regex = Regex::compile(text->get<std::string>(), literal, error);
    if (!regex) {
      error = "pre_tokenizer Split: " + error;
      return nullptr;
    }
    return std::make_unique<Split>(std::move(regex), behavior,
                                   flag(value, "invert", false));
  }
  error = "pre_tokenizer '" + kind +
          "' is not supported (ByteLevel, Split and Sequence are)";
  return nullptr;
}
