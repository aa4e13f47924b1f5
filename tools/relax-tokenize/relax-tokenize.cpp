//===- relax-tokenize.cpp - Tokenize, detokenize, check reference ids -----===//
//
//   relax-tokenize TOKENIZER --encode TEXT [--no-special]
//   relax-tokenize TOKENIZER --decode 1,2,3 [--skip-special]  (text, lossy:
//       invalid UTF-8 is written as U+FFFD)
//   relax-tokenize TOKENIZER --chat TEXT [--system TEXT]
//   relax-tokenize TOKENIZER --check CASES.json
//
// TOKENIZER is a tokenizer.json (byte-level BPE) or a SentencePiece
// tokenizer.model (RelaxDialect/Tokenizer/Tokenizer.h). --check reads the
// expectations of scripts/gen-tokenizer-tests.py ({"cases": [{"text",
// "ids", "decoded"}], "chat": [{"messages", "ids"}]}) and compares, for
// every case, the ids of the text with the reference's, the decoded text
// of the reference ids with the reference's, and the text streamed token
// by token (IncrementalDecoder) with the same; then the chat prompts'
// ids. It prints the counts and the first mismatches, and exits 1 on any.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Tokenizer/Tokenizer.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace mlir::relax::tok;
using json = nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string &message) {
  fprintf(stderr, "relax-tokenize: error: %s\n", message.c_str());
  exit(1);
}

const char *kUsage =
    "usage: relax-tokenize TOKENIZER (--encode TEXT [--no-special] |\n"
    "           --decode IDS [--skip-special] | --chat TEXT [--system TEXT] |\n"
    "           --check CASES.json)";

std::string idsText(const std::vector<int> &ids) {
  std::string s;
  for (int id : ids)
    s += (s.empty() ? "" : " ") + std::to_string(id);
  return s;
}

/// `s` as a JSON string (escapes make whitespace visible in reports).
std::string shown(const std::string &s) { return json(toValidUtf8(s)).dump(); }

std::vector<int> parseIds(const std::string &text) {
  std::vector<int> ids;
  std::string item;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (c == ',' || c == ' ') {
      if (item.empty())
        continue;
      char *end = nullptr;
      errno = 0;
      long v = strtol(item.c_str(), &end, 10);
      if (*end || errno || v < INT32_MIN || v > INT32_MAX)
        fail("--decode: '" + item + "' is not a token id");
      ids.push_back(int(v));
      item.clear();
    } else {
      item += c;
    }
  }
  return ids;
}

std::vector<int> idsOf(const json &v, const std::string &where) {
  std::vector<int> ids;
  if (!v.is_array())
    fail(where + ": \"ids\" is not an array");
  for (const json &id : v) {
    if (!id.is_number_integer())
      fail(where + ": \"ids\" holds " + id.dump());
    ids.push_back(id.get<int>());
  }
  return ids;
}

int check(const Tokenizer &tokenizer, const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    fail("cannot open " + path);
  std::stringstream contents;
  contents << file.rdbuf();
  json root = json::parse(contents.str(), nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object() || !root.contains("cases") ||
      !root["cases"].is_array())
    fail(path + ": not a JSON object with a \"cases\" array");
  size_t total = 0, idsEqual = 0, decodedEqual = 0, streamedEqual = 0,
         reported = 0;
  auto report = [&](const std::string &line) {
    if (reported++ < 8)
      printf("MISMATCH %s\n", line.c_str());
  };
  const json &cases = root["cases"];
  for (size_t i = 0; i < cases.size(); ++i) {
    const json &c = cases[i];
    std::string where = path + ": case " + std::to_string(i);
    if (!c.is_object() || !c.contains("text") || !c["text"].is_string() ||
        !c.contains("decoded") || !c["decoded"].is_string() ||
        !c.contains("ids"))
      fail(where + ": expected {\"text\", \"ids\", \"decoded\"}");
    std::string text = c["text"], decodedRef = c["decoded"];
    std::vector<int> ref = idsOf(c["ids"], where), ids;
    std::string error;
    ++total;
    if (!tokenizer.encode(text, /*addSpecial=*/true, ids, error))
      report("case " + std::to_string(i) + " " + shown(text) + ": " + error);
    else if (ids != ref)
      report("case " + std::to_string(i) + " " + shown(text) + ": ids " +
             idsText(ids) + ", the reference has " + idsText(ref));
    else
      ++idsEqual;
    std::string decoded;
    if (!tokenizer.decode(ref, /*skipSpecial=*/false, decoded, error))
      report("case " + std::to_string(i) + ": decode: " + error);
    else if (toValidUtf8(decoded) != decodedRef)
      report("case " + std::to_string(i) + ": decoded " + shown(decoded) +
             ", the reference has " + shown(decodedRef));
    else
      ++decodedEqual;
    IncrementalDecoder stream(tokenizer, {}, /*skipSpecial=*/false);
    std::string streamed;
    bool ok = true;
    for (int id : ref)
      ok = ok && stream.push(id, streamed, error);
    streamed += stream.finish();
    if (ok && streamed == decodedRef)
      ++streamedEqual;
    else
      report("case " + std::to_string(i) + ": streamed " + shown(streamed) +
             ", the reference has " + shown(decodedRef));
  }
  printf("%s: %zu strings: ids equal %zu, decoded text equal %zu, streamed "
         "text equal %zu\n",
         path.c_str(), total, idsEqual, decodedEqual, streamedEqual);
  size_t chats = 0, chatsEqual = 0;
  if (root.contains("chat") && root["chat"].is_array())
    for (const json &c : root["chat"]) {
      std::string system, user;
      for (const json &m : c.value("messages", json::array())) {
        std::string role = m.value("role", ""),
                    content = m.value("content", "");
        (role == "system" ? system : user) = content;
      }
      std::vector<int> ref = idsOf(c.value("ids", json()), path + ": chat"),
                       ids;
      std::string error;
      ++chats;
      if (!tokenizer.encodeChat(system, user, ids, error))
        report("chat " + shown(user) + ": " + error);
      else if (ids != ref)
        report("chat " + shown(user) + ": ids " + idsText(ids) +
               ", the reference has " + idsText(ref));
      else
        ++chatsEqual;
    }
  if (chats)
    printf("%s: %zu chat prompts: ids equal %zu\n", path.c_str(), chats,
           chatsEqual);
  bool all = idsEqual == total && decodedEqual == total &&
             streamedEqual == total && chatsEqual == chats;
  return all ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string path, encodeText, decodeText, chatText, system, checkPath;
  bool haveEncode = false, haveDecode = false, haveChat = false,
       noSpecial = false, skipSpecial = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        fail(a + " needs a value\n" + kUsage);
      return argv[++i];
    };
    if (a == "--encode") {
      encodeText = value();
      haveEncode = true;
    } else if (a == "--decode") {
      decodeText = value();
      haveDecode = true;
    } else if (a == "--chat") {
      chatText = value();
      haveChat = true;
    } else if (a == "--system")
      system = value();
    else if (a == "--check")
      checkPath = value();
    else if (a == "--no-special")
      noSpecial = true;
    else if (a == "--skip-special")
      skipSpecial = true;
    else if (a == "-h" || a == "--help") {
      puts(kUsage);
      return 0;
    } else if (!a.empty() && a[0] == '-')
      fail("unknown option " + a + "\n" + kUsage);
    else if (path.empty())
      path = a;
    else
      fail("unexpected argument " + a + "\n" + kUsage);
  }
  if (path.empty())
    fail(std::string("no tokenizer given\n") + kUsage);
  if (haveEncode + haveDecode + haveChat + !checkPath.empty() != 1)
    fail(std::string("give one of --encode, --decode, --chat, --check\n") +
         kUsage);
  std::string error;
  std::unique_ptr<Tokenizer> tokenizer = Tokenizer::open(path, error);
  if (!tokenizer)
    fail(error);
  if (!checkPath.empty())
    return check(*tokenizer, checkPath);
  std::vector<int> ids;
  if (haveEncode || haveChat) {
    bool ok = haveEncode ? tokenizer->encode(encodeText, !noSpecial, ids, error)
                         : tokenizer->encodeChat(system, chatText, ids, error);
    if (!ok)
      fail(error);
    printf("%s\n", idsText(ids).c_str());
    return 0;
  }
  std::string text;
  if (!tokenizer->decode(parseIds(decodeText), skipSpecial, text, error))
    fail(error);
  text = toValidUtf8(text);
  fwrite(text.data(), 1, text.size(), stdout);
  putchar('\n');
  return 0;
}
