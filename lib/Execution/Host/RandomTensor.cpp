//===- RandomTensor.cpp - Seeded random tensors, without LLVM -------------===//
//
// One generator for the JIT (RandomInputs.cpp) and relax-run's driver, so
// that --random-inputs --seed N gives the same data whichever runs the
// model.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/HostIO.h"

#include <algorithm>
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

std::optional<std::vector<HostTensor>> mlir::relax::exec::makeRandomInputsFor(
    const rt::FunctionSpec &f, rt::ShapeFn fn,
    const std::map<std::string, int64_t> &dims, uint64_t seed,
    std::string &error) {
  std::vector<std::optional<int64_t>> symbols;
  for (const rt::SymbolSpec &s : f.symbols) {
    auto it = dims.find(s.name);
    symbols.push_back(it == dims.end() ? std::nullopt
                                       : std::optional<int64_t>(it->second));
  }
  rt::EntryDims values = rt::evaluateDims(f, fn, symbols);
  std::mt19937_64 rng(seed);
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const rt::TensorSpec &spec = f.params[i];
    std::string param = "parameter #" + std::to_string(i);
    if (!spec.ranked) {
      error = param + " has unknown rank: give --input files";
      return std::nullopt;
    }
    std::vector<int64_t> shape;
    for (size_t d = 0; d < values.params[i].size(); ++d) {
      const rt::DimValue &v = values.params[i][d];
      const std::string &text = spec.dims[d];
      switch (v.kind) {
      case rt::DimValue::Known:
        if (v.value < 0) {
          error = param + " dim " + std::to_string(d) + " (" + text +
                  ") is " + std::to_string(v.value) +
                  " under the --dim bindings";
          return std::nullopt;
        }
        shape.push_back(v.value);
        continue;
      case rt::DimValue::Unknown:
        error = unboundDimMessage(i, spec.name, d, "", {});
        return std::nullopt;
      case rt::DimValue::Unbound: {
        std::vector<std::string> names;
        for (int64_t k : v.unbound)
          names.push_back(f.symbols[k].name);
        std::sort(names.begin(), names.end());
        error = unboundDimMessage(i, spec.name, d, text, names);
        return std::nullopt;
      }
      case rt::DimValue::NoValue:
        error = param + " dim " + std::to_string(d) + " (" + text +
                ") has no value under the --dim bindings (overflow or "
                "division by zero)";
        return std::nullopt;
      }
    }
    std::optional<DType> dtype = dtypeFromName(spec.dtype);
    std::string why;
    std::optional<HostTensor> t =
        dtype ? makeRandomHostTensor(*dtype, shape, rng, why) : std::nullopt;
    if (!t) {
      error = param + ": " + (dtype ? why : "unknown dtype " + spec.dtype);
      return std::nullopt;
    }
    inputs.push_back(std::move(*t));
  }
  return inputs;
}

std::optional<std::string> mlir::relax::exec::checkDimNamesFor(
    const rt::FunctionSpec &f, const std::map<std::string, int64_t> &dims) {
  std::vector<std::string> known;
  for (const rt::SymbolSpec &s : f.symbols)
    known.push_back(s.name);
  std::sort(known.begin(), known.end());
  for (const auto &[name, value] : dims)
    if (!std::binary_search(known.begin(), known.end(), name))
      return unknownDimMessage(name, f.name, known);
  return std::nullopt;
}
