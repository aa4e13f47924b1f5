//===- ShapeFunction.cpp - An entry's dims from its symbols ---------------===//
//
// The generated function fills one flat array; these helpers give each
// entry of it its parameter or result and dim, and say why a dim has no
// value (ShapeFunction.h).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/ShapeFunction.h"

#include <limits>

using namespace mlir::relax::rt;

EntryDims mlir::relax::rt::evaluateDims(
    const FunctionSpec &f, ShapeFn fn,
    const std::vector<std::optional<int64_t>> &symbols) {
  size_t total = 0;
  for (const auto *specs : {&f.params, &f.results})
    for (const TensorSpec &t : *specs)
      total += t.ranked ? t.staticSizes.size() : 0;
  // Unbound symbols are passed as 0; the dims using them are not read.
  std::vector<int64_t> values(f.symbols.size(), 0), flat(total, -1);
  for (size_t k = 0; k < symbols.size() && k < values.size(); ++k)
    values[k] = symbols[k].value_or(0);
  if (fn)
    fn(values.data(), flat.data());

  EntryDims dims;
  size_t next = 0;
  for (auto [specs, out] : {std::pair{&f.params, &dims.params},
                            std::pair{&f.results, &dims.results}})
    for (const TensorSpec &t : *specs) {
      std::vector<DimValue> &shape = out->emplace_back();
      if (!t.ranked)
        continue;
      for (size_t d = 0; d < t.staticSizes.size(); ++d) {
        DimValue v;
        int64_t computed = flat[next++];
        if (t.staticSizes[d] >= 0) {
          v.kind = DimValue::Known;
          v.value = t.staticSizes[d];
        } else if (t.dimSymbols[d] && fn) {
          for (int64_t k : *t.dimSymbols[d])
            if (static_cast<size_t>(k) >= symbols.size() || !symbols[k])
              v.unbound.push_back(k);
          if (!v.unbound.empty()) {
            v.kind = DimValue::Unbound;
          } else if (computed == std::numeric_limits<int64_t>::min()) {
            v.kind = DimValue::NoValue;
          } else {
            v.kind = DimValue::Known;
            v.value = computed;
          }
        }
        shape.push_back(std::move(v));
      }
    }
  return dims;
}

std::vector<std::optional<int64_t>>
mlir::relax::rt::bindSymbols(const FunctionSpec &f,
                             const std::vector<std::vector<int64_t>> &shapes) {
  std::vector<std::optional<int64_t>> symbols(f.symbols.size());
  for (size_t k = 0; k < f.symbols.size(); ++k) {
    const SymbolSpec &s = f.symbols[k];
    if (s.param >= 0 && static_cast<size_t>(s.param) < shapes.size() &&
        static_cast<size_t>(s.dim) < shapes[s.param].size())
      symbols[k] = shapes[s.param][s.dim];
  }
  return symbols;
}

std::optional<std::string> mlir::relax::rt::checkResultShapes(
    const FunctionSpec &f, ShapeFn fn,
    const std::vector<std::vector<int64_t>> &inputShapes,
    const std::vector<std::vector<int64_t>> &resultShapes) {
  EntryDims dims = evaluateDims(f, fn, bindSymbols(f, inputShapes));
  for (size_t i = 0; i < resultShapes.size() && i < dims.results.size(); ++i)
    for (size_t d = 0; d < resultShapes[i].size() && d < dims.results[i].size();
         ++d) {
      const DimValue &v = dims.results[i][d];
      if (v.kind == DimValue::Known && v.value != resultShapes[i][d])
        return "'" + f.name + "' output #" + std::to_string(i) + " dim " +
               std::to_string(d) + " is " + std::to_string(resultShapes[i][d]) +
               " but its shape function gives " + std::to_string(v.value) +
               " (" + f.results[i].dims[d] + ")";
    }
  return std::nullopt;
}
