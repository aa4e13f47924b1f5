//===- JSONSupport.cpp - nlohmann-json helpers of the runtime -------------===//

#include "JSONSupport.h"

using namespace mlir::relax::rt;

namespace {
/// A SAX handler that builds nothing and keeps the parser's message: the
/// DOM parser without exceptions only says that parsing failed, not why.
struct ErrorCatcher {
  std::string message;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::Value::number_integer_t) { return true; }
  bool number_unsigned(json::Value::number_unsigned_t) { return true; }
  bool number_float(json::Value::number_float_t, const std::string &) {
    return true;
  }
  bool string(std::string &) { return true; }
  bool binary(json::Value::binary_t &) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(std::string &) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &e) {
    // what() is "[json.exception.parse_error.101] parse error at ...".
    std::string_view what = e.what();
    if (size_t close = what.find("] "); close != std::string_view::npos)
      what.remove_prefix(close + 2);
    message = std::string(what);
    return false;
  }
};
} // namespace

std::optional<json::Value> json::parse(std::string_view text,
                                       std::string &error) {
  Value v = Value::parse(text.begin(), text.end(), /*cb=*/nullptr,
                         /*allow_exceptions=*/false);
  if (!v.is_discarded())
    return v;
  ErrorCatcher catcher;
  Value::sax_parse(text.begin(), text.end(), &catcher);
  error = catcher.message.empty() ? "invalid JSON" : catcher.message;
  return std::nullopt;
}
