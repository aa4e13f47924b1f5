//===- HFTokenizer.cpp - Hugging Face tokenizer.json, byte-level BPE ------===//
//
// Reads a tokenizer.json of the `tokenizers` library whose model is BPE
// over byte-level characters (GPT-2, Llama 3, Qwen2) and encodes as it
// does: added tokens are found first (leftmost, longest), the text between
// them is normalized (NFC, Normalizer.cpp) and goes through the
// pre-tokenizer (PreTokenizer.cpp) and BPE (BPEModel.cpp), then the
// post-processor's template adds BOS and the like. Decoding maps each
// token's characters back to bytes. What is not supported (normalizers but
// NFC, BPE with continuing_subword_prefix or byte_fallback, WordPiece or
// Unigram models, Bert/Roberta post-processors) is refused with a message
// when the file is opened.
//
//===----------------------------------------------------------------------===//

#include "BPEModel.h"
#include "Backends.h"
#include "ByteLevel.h"
#include "Normalizer.h"
#include "PreTokenizer.h"

#include "../Runtime/JSONSupport.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

using namespace mlir::relax;
using namespace mlir::relax::tok;
using Value = rt::json::Value;

namespace {

struct AddedToken {
  std::string content;
  int id;
  bool special, lstrip, rstrip, singleWord;
  // Matched in the normalized text (after the raw text's matches of the
  // others), in its normalized spelling `match`; else `match` is `content`.
  bool normalized;
  std::string match;
};

bool isAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}
bool isWordByte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
         (c >= 'a' && c <= 'z') || c == '_' || (c & 0x80);
}

class HFTokenizer final : public Tokenizer {
public:
  bool load(const Value &root, std::string &error);

  bool encode(std::string_view text, bool addSpecial, std::vector<int> &ids,
              std::string &error) const override;
  bool decode(const std::vector<int> &ids, bool skipSpecial, std::string &text,
              std::string &error) const override;
  int vocabSize() const override { return vocab; }
  int tokenId(std::string_view piece) const override {
    for (const AddedToken &t : added)
      if (t.content == piece)
        return t.id;
    return model.lookup(piece);
  }
  bool isSpecial(int id) const override {
    auto it = addedById.find(id);
    return it != addedById.end() && added[it->second].special;
  }
  std::vector<int> stopIds() const override {
    std::vector<int> stops;
    for (const char *name : {"<|endoftext|>", "<|end_of_text|>", "<|eot_id|>",
                             "<|eom_id|>", "<|im_end|>", "</s>", "<eos>"})
      if (int id = tokenId(name); id >= 0 && isSpecial(id))
        stops.push_back(id);
    return stops;
  }
  const char *kind() const override { return "byte-level BPE"; }

private:
  bool loadModel(const Value &m, std::string &error);
  bool loadAddedTokens(const Value &list, std::string &error);
  bool loadPostProcessor(const Value &p, std::string &error);
  /// Splits `text` into the added tokens of one kind (id >= 0; those with
  /// `normalized` equal to `normalizedPass`) and the text between them
  /// (id -1).
  void splitAdded(std::string_view text, bool normalizedPass,
                  std::vector<std::pair<std::string_view, int>> &out) const;

  BPEModel model;
  std::unique_ptr<PreTokenizer> preTokenizer;
  std::vector<AddedToken> added;
  std::unordered_map<int, size_t> addedById;
  // The indices in `added` by the first byte of `match`, of the tokens
  // matched in the raw text [0] and of those matched after normalizing [1].
  std::array<std::array<std::vector<size_t>, 256>, 2> addedByFirstByte;
  bool nfc = false;
  // The post-processor's ids around a sequence; -1 stands for the text.
  std::vector<int> wrap = {-1};
  bool byteLevelDecoder = true;
  int vocab = 0;
};

const Value *member(const Value &o, const char *key) {
  return o.is_object() ? rt::json::member(o, key) : nullptr;
}
std::string stringOr(const Value *v, const std::string &fallback) {
  return v && v->is_string() ? v->get<std::string>() : fallback;
}
bool boolOr(const Value *v, bool fallback) {
  return v && v->is_boolean() ? v->get<bool>() : fallback;
}

bool HFTokenizer::loadModel(const Value &m, std::string &error) {
  std::string type = stringOr(member(m, "type"), "");
  if (type != "BPE") {
    error = "model: type '" + type +
            "' is not supported (byte-level BPE tokenizers are)";
    return false;
  }
  for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"})
    if (!stringOr(member(m, key), "").empty()) {
      error = std::string("model: ") + key + " is not supported";
      return false;
    }
  if (boolOr(member(m, "byte_fallback"), false)) {
    error = "model: byte_fallback is not supported (byte-level BPE needs none)";
    return false;
  }
  const Value *vocabJSON = member(m, "vocab");
  if (!vocabJSON || !vocabJSON->is_object()) {
    error = "model: no \"vocab\" object";
    return false;
  }
  for (auto it = vocabJSON->begin(); it != vocabJSON->end(); ++it) {
    std::optional<int64_t> id = rt::json::asInteger(it.value());
    if (!id || *id < 0 || *id > (1 << 30) || !model.addToken(it.key(), *id)) {
      error = "model.vocab: '" + it.key() + "' has id " + it.value().dump() +
              ", not a new id";
      return false;
    }
  }
  const Value *merges = member(m, "merges");
  if (!merges || !merges->is_array()) {
    error = "model: no \"merges\" array";
    return false;
  }
  int rank = 0;
  for (const Value &merge : *merges) {
    std::string left, right;
    if (merge.is_string()) { // "left right" (older files)
      std::string text = merge.get<std::string>();
      size_t space = text.find(' ', 1);
      if (space != std::string::npos) {
        left = text.substr(0, space);
        right = text.substr(space + 1);
      }
    } else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() &&
               merge[1].is_string()) { // ["left", "right"]
      left = merge[0].get<std::string>();
      right = merge[1].get<std::string>();
    }
    if (left.empty() || right.empty()) {
      error = "model.merges[" + std::to_string(rank) +
              "]: expected \"a b\" "
              "or [\"a\", \"b\"], got " +
              merge.dump();
      return false;
    }
    if (!model.addMerge(left, right, rank, error)) {
      error = "model.merges[" + std::to_string(rank) + "]: " + error;
      return false;
    }
    ++rank;
  }
  model.setIgnoreMerges(boolOr(member(m, "ignore_merges"), false));
  return true;
}

bool HFTokenizer::loadAddedTokens(const Value &list, std::string &error) {
  if (list.is_null())
    return true;
  if (!list.is_array()) {
    error = "added_tokens: expected an array";
    return false;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const Value &t = list[i];
    std::optional<int64_t> id;
    if (const Value *v = member(t, "id"))
      id = rt::json::asInteger(*v);
    std::string content = stringOr(member(t, "content"), "");
    if (!id || *id < 0 || *id > (1 << 30) || content.empty()) {
      error = "added_tokens[" + std::to_string(i) +
              "]: expected an \"id\" >= 0 and a non-empty \"content\"";
      return false;
    }
    bool special = boolOr(member(t, "special"), false);
    // The `tokenizers` library requires "normalized"; !special is the
    // default of its AddedToken constructor.
    bool normalized = boolOr(member(t, "normalized"), !special);
    std::string match = content;
    // Like the reference, a normalized token is found by its normalized
    // spelling: "e\u0301" matches the "\u00e9" of NFC text.
    if (normalized && nfc && !toNfc(content, match, error)) {
      error = "added_tokens[" + std::to_string(i) + "]: " + error;
      return false;
    }
    added.push_back(
        {content, int(*id), special, boolOr(member(t, "lstrip"), false),
         boolOr(member(t, "rstrip"), false),
         boolOr(member(t, "single_word"), false), normalized, match});
    addedById[int(*id)] = added.size() - 1;
    addedByFirstByte[normalized][static_cast<unsigned char>(match[0])]
        .push_back(added.size() - 1);
  }
  return true;
}

bool HFTokenizer::loadPostProcessor(const Value &p, std::string &error) {
  if (p.is_null())
    return true;
  std::string type = stringOr(member(p, "type"), "");
  if (type == "ByteLevel") // offsets only
    return true;
  if (type == "Sequence") {
    const Value *list = member(p, "processors");
    if (!list || !list->is_array()) {
      error = "post_processor Sequence: no \"processors\" array";
      return false;
    }
    for (const Value &step : *list)
      if (!loadPostProcessor(step, error))
        return false;
    return true;
  }
  if (type != "TemplateProcessing") {
    error = "post_processor '" + type +
            "' is not supported "
            "(TemplateProcessing, ByteLevel and Sequence are)";
    return false;
  }
  const Value *single = member(p, "single");
  const Value *specials = member(p, "special_tokens");
  if (!single || !single->is_array()) {
    error = "post_processor TemplateProcessing: no \"single\" template";
    return false;
  }
  // The template wraps what earlier processors produced.
  std::vector<int> next;
  for (const Value &item : *single) {
    if (member(item, "Sequence")) {
      next.insert(next.end(), wrap.begin(), wrap.end());
      continue;
    }
    std::string name =
        stringOr(member(item, "SpecialToken")
                     ? member(*member(item, "SpecialToken"), "id")
                     : nullptr,
                 "");
    const Value *entry = specials ? member(*specials, name.c_str()) : nullptr;
    const Value *ids = entry ? member(*entry, "ids") : nullptr;
    if (name.empty() || !ids || !ids->is_array()) {
      error = "post_processor TemplateProcessing: template item " +
              item.dump() + " is not a sequence or a known special token";
      return false;
    }
    for (const Value &id : *ids) {
      std::optional<int64_t> v = rt::json::asInteger(id);
      if (!v || *v < 0 || *v >= vocab) {
        error = "post_processor TemplateProcessing: special token '" + name +
                "' has id " + id.dump() + ", not in the vocabulary";
        return false;
      }
      next.push_back(int(*v));
    }
  }
  wrap = std::move(next);
  return true;
}

bool HFTokenizer::load(const Value &root, std::string &error) {
  if (!root.is_object()) {
    error = "expected a JSON object";
    return false;
  }
  const Value *m = member(root, "model");
  if (!m) {
    error = "no \"model\"";
    return false;
  }
  if (!loadModel(*m, error))
    return false;
  // Before the added tokens: normalized ones are matched in NFC.
  if (const Value *n = member(root, "normalizer"); n && !n->is_null()) {
    std::string type = stringOr(member(*n, "type"), "");
    if (type != "NFC") {
      error = "normalizer '" + type + "' is not supported (none or NFC are)";
      return false;
    }
    if (!haveNfc()) {
      error = "normalizer 'NFC' needs libutf8proc-dev, which was not found "
              "when this build was configured";
      return false;
    }
    nfc = true;
  }
  if (const Value *list = member(root, "added_tokens"))
    if (!loadAddedTokens(*list, error))
      return false;
  vocab = model.size();
  for (const AddedToken &t : added)
    vocab = std::max(vocab, t.id + 1);
  static const Value null;
  const Value *pre = member(root, "pre_tokenizer");
  if (!(preTokenizer = PreTokenizer::fromJSON(pre ? *pre : null, error)))
    return false;
  if (const Value *p = member(root, "post_processor"))
    if (!loadPostProcessor(*p, error))
      return false;
  if (const Value *d = member(root, "decoder"); d && !d->is_null()) {
    std::string type = stringOr(member(*d, "type"), "");
    if (type != "ByteLevel") {
      error = "decoder '" + type + "' is not supported (ByteLevel is)";
      return false;
    }
  } else {
    byteLevelDecoder = false;
  }
  return true;
}

void HFTokenizer::splitAdded(
    std::string_view text, bool normalizedPass,
    std::vector<std::pair<std::string_view, int>> &out) const {
  const auto &byFirstByte = addedByFirstByte[normalizedPass];
  size_t textStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const AddedToken *best = nullptr;
    for (size_t index : byFirstByte[static_cast<unsigned char>(text[i])]) {
      const AddedToken &t = added[index];
      if (text.compare(i, t.match.size(), t.match) != 0 ||
          (best && best->match.size() >= t.match.size()))
        continue;
      size_t end = i + t.match.size();
      if (t.singleWord && ((i > 0 && isWordByte(text[i - 1])) ||
                           (end < text.size() && isWordByte(text[end]))))
        continue;
      best = &t;
    }
    if (!best)
      continue;
    size_t begin = i, end = i + best->match.size();
    if (best->lstrip)
      while (begin > textStart && isAsciiSpace(text[begin - 1]))
        --begin;
    if (best->rstrip)
      while (end < text.size() && isAsciiSpace(text[end]))
        ++end;
    if (begin > textStart)
      out.emplace_back(text.substr(textStart, begin - textStart), -1);
    out.emplace_back(text.substr(begin, end - begin), best->id);
    textStart = end;
    i = end - 1;
  }
  if (textStart < text.size())
    out.emplace_back(text.substr(textStart), -1);
}

bool HFTokenizer::encode(std::string_view text, bool addSpecial,
                         std::vector<int> &ids, std::string &error) const {
  if (size_t bad = findInvalidUtf8(text); bad != std::string_view::npos) {
    error = "the text is not valid UTF-8 (byte " + std::to_string(bad) + ")";
    return false;
  }
  // As in the reference: the added tokens that are not `normalized` are
  // found in the raw text; each text between them is normalized, the
  // normalized ones are found in it, and what remains is pre-tokenized.
  std::vector<int> body;
  std::vector<std::pair<std::string_view, int>> segments, parts;
  splitAdded(text, /*normalizedPass=*/false, segments);
  std::string normalized;
  std::vector<std::string> pieces;
  for (const auto &[segment, id] : segments) {
    if (id >= 0) {
      body.push_back(id);
      continue;
    }
    std::string_view segmentText = segment;
    if (nfc) {
      if (!toNfc(segment, normalized, error))
        return false;
      segmentText = normalized;
    }
    parts.clear();
    splitAdded(segmentText, /*normalizedPass=*/true, parts);
    for (const auto &[part, partId] : parts) {
      if (partId >= 0) {
        body.push_back(partId);
        continue;
      }
      pieces.assign(1, std::string(part));
      preTokenizer->apply(pieces);
      for (const std::string &piece : pieces)
        if (!model.encodeWord(piece, body, error))
          return false;
    }
  }
  if (!addSpecial) {
    ids.insert(ids.end(), body.begin(), body.end());
    return true;
  }
  for (int id : wrap)
    if (id < 0)
      ids.insert(ids.end(), body.begin(), body.end());
    else
      ids.push_back(id);
  return true;
}

bool HFTokenizer::decode(const std::vector<int> &ids, bool skipSpecial,
                         std::string &text, std::string &error) const {
  for (int id : ids) {
    const std::string *piece = nullptr;
    if (auto it = addedById.find(id); it != addedById.end()) {
      if (skipSpecial && added[it->second].special)
        continue;
      // The reference's vocabulary holds a normalized token's NFC spelling.
      piece = &added[it->second].match;
    } else {
      piece = model.token(id);
    }
    if (!piece) {
      error = "token id " + std::to_string(id) +
              " is not in the vocabulary (0 to " + std::to_string(vocab - 1) +
              ")";
      return false;
    }
    // A token with characters outside the byte map (an added token such as
    // "<|im_start|>" spelled plainly) is its own UTF-8, as in the reference.
    if (!byteLevelDecoder || !byteLevelDecode(*piece, text))
      text += *piece;
  }
  return true;
}

} // namespace

std::unique_ptr<Tokenizer> tok::openHuggingFace(const std::string &path,
                                                std::string &error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = "cannot open the file";
    return nullptr;
  }
  std::stringstream contents;
  contents << file.rdbuf();
  std::optional<Value> root = rt::json::parse(contents.str(), error);
  if (!root) {
    error = "not valid JSON: " + error;
    return nullptr;
  }
  auto tokenizer = std::make_unique<HFTokenizer>();
  if (!tokenizer->load(*root, error))
    return nullptr;
  return tokenizer;
}
