//===- Normalizer.cpp - Unicode NFC on utf8proc ---------------------------===//
//
// NFC is what the `tokenizers` library's NFC normalizer applies (Rust's
// unicode-normalization): decomposed accents ("e" U+0301), Hangul jamo
// sequences and singletons such as U+212B ANGSTROM SIGN become their
// composed form before pre-tokenization. utf8proc_map with COMPOSE and
// STABLE is the same transformation.
//
//===----------------------------------------------------------------------===//

#include "Normalizer.h"

#include <algorithm>
#include <cstdlib>

#ifdef RELAX_TOKENIZER_HAS_UTF8PROC
#include <utf8proc.h>
#endif

using namespace mlir::relax;

bool tok::haveNfc() {
#ifdef RELAX_TOKENIZER_HAS_UTF8PROC
  return true;
#else
  return false;
#endif
}

bool tok::toNfc(std::string_view text, std::string &out, std::string &error) {
  // ASCII is its own NFC: most text, and no allocation by utf8proc.
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return !(c & 0x80); })) {
    out.assign(text);
    return true;
  }
#ifdef RELAX_TOKENIZER_HAS_UTF8PROC
  utf8proc_uint8_t *normalized = nullptr;
  utf8proc_ssize_t length = utf8proc_map(
      reinterpret_cast<const utf8proc_uint8_t *>(text.data()),
      static_cast<utf8proc_ssize_t>(text.size()), &normalized,
      static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
  if (length < 0) {
    error = std::string("NFC normalization: ") + utf8proc_errmsg(length);
    return false;
  }
  out.assign(reinterpret_cast<const char *>(normalized), size_t(length));
  std::free(normalized);
  return true;
#else
  error = "NFC normalization needs libutf8proc-dev, which was not found when "
          "this build was configured";
  return false;
#endif
}
