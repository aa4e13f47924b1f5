//===- relax-consumer-tokenize.cpp - The installed tokenizer library ------===//
//
// Text to token ids through RelaxDialect::RelaxTokenizer of an installed
// relax-mlir (RelaxDialect/Tokenizer/Tokenizer.h): what a program that
// serves a compiled model links, without LLVM or MLIR.
//
//   relax-consumer-tokenize TOKENIZER TEXT   prints the ids, BOS included
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Tokenizer/Tokenizer.h"

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: relax-consumer-tokenize TOKENIZER TEXT\n");
    return 2;
  }
  std::string error;
  std::vector<int> ids;
  auto tokenizer = mlir::relax::tok::Tokenizer::open(argv[1], error);
  if (!tokenizer ||
      !tokenizer->encode(argv[2], /*addSpecial=*/true, ids, error)) {
    fprintf(stderr, "relax-consumer-tokenize: error: %s\n", error.c_str());
    return 1;
  }
  for (size_t i = 0; i < ids.size(); ++i)
    printf("%s%d", i ? " " : "", ids[i]);
  printf("\n");
  return 0;
}
