//===- Backends.h - The two tokenizer implementations -----------*- C++ -*-===//
//
// Internal to lib/Tokenizer: Tokenizer::open picks one by the file name.
// Each returns null with `error` set ("reason", without the file name) when
// the file cannot be used, or when the library it needs was not found at
// build time.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_LIB_TOKENIZER_BACKENDS_H
#define RELAX_LIB_TOKENIZER_BACKENDS_H

#include "RelaxDialect/Tokenizer/Tokenizer.h"

namespace mlir::relax::tok {

/// A Hugging Face tokenizer.json of a byte-level BPE model (HFTokenizer.cpp).
std::unique_ptr<Tokenizer> openHuggingFace(const std::string &path,
                                           std::string &error);

/// A SentencePiece model file (SentencePieceTokenizer.cpp).
std::unique_ptr<Tokenizer> openSentencePiece(const std::string &path,
                                             std::string &error);

} // namespace mlir::relax::tok

#endif // RELAX_LIB_TOKENIZER_BACKENDS_H
