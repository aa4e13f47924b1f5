//===- RandomTensor.cpp - Seeded random tensors, without LLVM -------------===//
//
// One generator for the JIT (RandomInputs.cpp) and relax-run's driver, so
// that --random-inputs --seed N gives the same data whichever runs the
// model.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/HostIO.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

using namespace mlir::relax::exec;

static std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::optional<HostTensor> mlir::relax::exec::makeRandomHostTensor(
    DType dtype, const std::vector<int64_t> &shape, std::mt19937_64 &rng,
    std::string &error) {
  std::optional<int64_t> count = checkedElementCount(shape);
  if (!count) {
    error = "shape " + shapeText(shape) +
            " has too many elements (more than 2^40)";
    return std::nullopt;
  }
  // A failed std::vector allocation would abort (no exceptions): ask malloc
  // first, so a shape beyond this machine's memory is an error.
  size_t bytes = static_cast<size_t>(*count) * dtypeSize(dtype);
  void *probe = std::malloc(bytes);
  if (!probe && bytes != 0) {
    error = "shape " + shapeText(shape) + " needs " + std::to_string(bytes) +
            " bytes, more than can be allocated";
    return std::nullopt;
  }
  std::free(probe);
  std::optional<HostTensor> t = HostTensor::zeros(dtype, shape);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 9);
  for (int64_t i = 0, e = t->numElements(); i < e; ++i) {
    if (dtype == DType::Bool)
      t->set(i, small(rng) % 2);
    else if (isIntegerDType(dtype))
      t->set(i, small(rng));
    else
      t->set(i, real(rng));
  }
  return t;
}

std::vector<std::string>
mlir::relax::exec::dimVariables(std::string_view dimText) {
  // The identifiers of the printed expression (as relax-run's DimEvaluator
  // reads them), less the operator keywords.
  auto isIdentChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '$' || c == '.';
  };
  std::vector<std::string> vars;
  for (size_t i = 0; i < dimText.size();) {
    char c = dimText[i];
    if (!isIdentChar(c)) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < dimText.size() && isIdentChar(dimText[i]))
      ++i;
    std::string word(dimText.substr(start, i - start));
    if (std::isdigit(static_cast<unsigned char>(c)) || word == "floordiv" ||
        word == "mod" || word == "min" || word == "max")
      continue;
    vars.push_back(std::move(word));
  }
  std::sort(vars.begin(), vars.end());
  vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
  return vars;
}

/// "a", "a and b", "a, b and c".
static std::string listWords(const std::vector<std::string> &words) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i)
    s += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  return s;
}

std::string
mlir::relax::exec::unboundDimMessage(size_t param, const std::string &paramName,
                                     size_t dim, const std::string &dimText,
                                     const std::vector<std::string> &unbound) {
  std::string where = "parameter #" + std::to_string(param);
  if (!paramName.empty())
    where += " '" + paramName + "'";
  where += " dim " + std::to_string(dim);
  if (dimText.empty() || unbound.empty())
    return where + " has no symbolic size to bind with --dim: give --input "
                   "files";
  std::string bindings;
  for (const std::string &v : unbound)
    bindings += " --dim " + v + "=<value>";
  return where + " is " + dimText + ": bind " + listWords(unbound) + " with" +
         bindings;
}

std::string
mlir::relax::exec::unknownDimMessage(const std::string &name,
                                     const std::string &entry,
                                     const std::vector<std::string> &known) {
  std::string message = "--dim " + name + ": '" + entry +
                        "' has no symbolic variable '" + name + "'";
  if (known.empty())
    return message + " (its parameters have no symbolic dims)";
  std::string list;
  for (size_t i = 0; i < known.size(); ++i)
    list += (i ? ", " : "") + known[i];
  return message + " (its variables: " + list + ")";
}
