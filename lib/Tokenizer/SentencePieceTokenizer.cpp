//===- SentencePieceTokenizer.cpp - tokenizer.model via libsentencepiece --===//
//
// SentencePiece models (Llama 2's tokenizer.model: BPE with byte fallback)
// through Debian's libsentencepiece, so that normalization, the "▁" prefix
// and byte pieces are the reference's own code. Encoding adds BOS like
// transformers' LlamaTokenizer, or what the add_bos_token and
// add_eos_token of a tokenizer_config.json beside the model say; "<s>" in
// the text is text, as in sentencepiece. Built only where libsentencepiece
// was found; otherwise opening a model says so.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include "../Runtime/JSONSupport.h"

#include <fstream>
#include <sstream>

#ifdef RELAX_TOKENIZER_HAS_SENTENCEPIECE
#include <sentencepiece_processor.h>
#endif

using namespace mlir::relax::tok;

#ifdef RELAX_TOKENIZER_HAS_SENTENCEPIECE
namespace {

class SentencePieceTokenizer final : public Tokenizer {
public:
  bool load(const std::string &path, std::string &error) {
    auto status = processor.Load(path);
    if (!status.ok()) {
      error = "not a SentencePiece model: " + status.ToString();
      return false;
    }
    return loadConfig(path, error);
  }

  /// add_bos_token / add_eos_token of tokenizer_config.json in the model's
  /// folder, where there is one.
  bool loadConfig(const std::string &path, std::string &error) {
    size_t slash = path.find_last_of('/');
    std::string config =
        (slash == std::string::npos ? std::string()
                                    : path.substr(0, slash + 1)) +
        "tokenizer_config.json";
    std::ifstream file(config, std::ios::binary);
    if (!file)
      return true;
    std::stringstream contents;
    contents << file.rdbuf();
    std::optional<mlir::relax::rt::json::Value> root =
        mlir::relax::rt::json::parse(contents.str(), error);
    if (!root || !root->is_object()) {
      error = config + ": " + (root ? "expected a JSON object" : error);
      return false;
    }
    for (auto [key, flag] : {std::pair{"add_bos_token", &addBos},
                             std::pair{"add_eos_token", &addEos}}) {
      auto it = root->find(key);
      if (it == root->end() || it->is_null())
        continue;
      if (!it->is_boolean()) {
        error = config + ": \"" + key + "\" is not true or false";
        return false;
      }
      *flag = it->get<bool>();
    }
    return true;
  }

  bool encode(std::string_view text, bool addSpecial, std::vector<int> &ids,
              std::string &error) const override {
    if (size_t bad = findInvalidUtf8(text); bad != std::string_view::npos) {
      error = "the text is not valid UTF-8 (byte " + std::to_string(bad) + ")";
      return false;
    }
    std::vector<int> pieces;
    auto status = processor.Encode(text, &pieces);
    if (!status.ok()) {
      error = status.ToString();
      return false;
    }
    if (addSpecial && addBos && processor.bos_id() >= 0)
      ids.push_back(processor.bos_id());
    ids.insert(ids.end(), pieces.begin(), pieces.end());
    if (addSpecial && addEos && processor.eos_id() >= 0)
      ids.push_back(processor.eos_id());
    return true;
  }

  bool decode(const std::vector<int> &ids, bool skipSpecial, std::string &text,
              std::string &error) const override {
    std::vector<int> kept;
    for (int id : ids) {
      if (id < 0 || id >= vocabSize()) {
        error = "token id " + std::to_string(id) +
                " is not in the vocabulary (0 to " +
                std::to_string(vocabSize() - 1) + ")";
        return false;
      }
      if (!skipSpecial || !isSpecial(id))
        kept.push_back(id);
    }
    // sentencepiece itself drops control symbols (<s>, </s>) and writes
    // incomplete byte sequences as U+FFFD.
    std::string out;
    auto status = processor.Decode(kept, &out);
    if (!status.ok()) {
      error = status.ToString();
      return false;
    }
    text += out;
    return true;
  }

  int vocabSize() const override { return processor.GetPieceSize(); }
  int tokenId(std::string_view piece) const override {
    int id = processor.PieceToId(piece);
    // PieceToId answers unk_id for unknown pieces.
    return id == processor.unk_id() && piece != processor.IdToPiece(id) ? -1
                                                                        : id;
  }
  bool isSpecial(int id) const override {
    return processor.IsControl(id) || processor.IsUnknown(id);
  }
  std::vector<int> stopIds() const override {
    if (processor.eos_id() >= 0)
      return {processor.eos_id()};
    return {};
  }
  const char *kind() const override { return "sentencepiece"; }

private:
  sentencepiece::SentencePieceProcessor processor;
  bool addBos = true, addEos = false;
};

} // namespace

std::unique_ptr<Tokenizer>
mlir::relax::tok::openSentencePiece(const std::string &path,
                                    std::string &error) {
  auto tokenizer = std::make_unique<SentencePieceTokenizer>();
  if (!tokenizer->load(path, error))
    return nullptr;
  return tokenizer;
}
#else
std::unique_ptr<Tokenizer>
mlir::relax::tok::openSentencePiece(const std::string &, std::string &error) {
  error = "this build has no SentencePiece support (libsentencepiece-dev "
          "was not found when it was configured)";
  return nullptr;
}
#endif
