//===- NoHFTokenizer.cpp - tokenizer.json without PCRE2 -------------------===//
//
// Built instead of HFTokenizer.cpp where libpcre2-dev was not found: the
// pre-tokenizer regexes need its Unicode classes.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

std::unique_ptr<mlir::relax::tok::Tokenizer>
mlir::relax::tok::openHuggingFace(const std::string &, std::string &error) {
  error = "this build has no tokenizer.json support (libpcre2-dev was not "
          "found when it was configured)";
  return nullptr;
}
