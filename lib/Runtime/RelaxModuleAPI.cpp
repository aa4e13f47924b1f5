//===- RelaxModuleAPI.cpp - C API of compiled relax modules ---------------===//
//
// A thin C layer over rt::Library and rt::PackedCall (ModuleLoader.h), which
// relax-run and the JIT use as well. Every entry point catches bad
// arguments itself and reports them through the status and the
// thread-local message; nothing here aborts.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/ModuleLoader.h"
#include "RelaxDialect/Runtime/RelaxModule.h"
#include "RelaxDialect/Runtime/ShapeFunction.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

using namespace mlir::relax::rt;

namespace {
thread_local std::string lastError;

relax_status fail(relax_status status, const std::string &message) {
  lastError = message;
  return status;
}

std::string str(int64_t v) { return std::to_string(v); }

constexpr const char *kDTypeNames[] = {"f16",  "bf16", "f32", "f64", "i1",
                                       "i8",   "i16",  "i32", "i64", "ui8",
                                       "ui16", "ui32", "ui64"};
constexpr size_t kNumDTypes = sizeof(kDTypeNames) / sizeof(kDTypeNames[0]);

/// The index of a dtype a C caller passed, or kNumDTypes when it is not one.
/// C lets any int be stored in a relax_dtype, but C++ may not load an enum
/// holding a value outside its enumerators' range (UBSan: -fsanitize=enum),
/// so the value is read as the underlying integer.
size_t dtypeIndex(const relax_dtype &dtype) {
  std::underlying_type_t<relax_dtype> raw;
  std::memcpy(&raw, &dtype, sizeof(raw));
  return raw >= 0 && static_cast<size_t>(raw) < kNumDTypes
             ? static_cast<size_t>(raw)
             : kNumDTypes;
}

relax_dtype dtypeFromName(const std::string &name) {
  for (size_t i = 0; i < kNumDTypes; ++i)
    if (name == kDTypeNames[i])
      return static_cast<relax_dtype>(i);
  return RELAX_DTYPE_F32; // not reached: the metadata reader checks dtypes
}
} // namespace

struct relax_function {
  const FunctionSpec *spec = nullptr;
  PackedFn fn = nullptr;
  ShapeFn shapeFn = nullptr;
  std::vector<relax_dtype> inputDTypes, outputDTypes;
  /// Per input, per dim: the size every call must have there (the static
  /// size, or a dim the shape function computes without symbols), or -1.
  std::vector<std::vector<int64_t>> fixedInputDims;
};

struct relax_module {
  std::unique_ptr<Library> library;
  std::vector<std::unique_ptr<relax_function>> functions;
};

struct relax_outputs {
  std::vector<relax_tensor> tensors;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<void *> buffers;
};

extern "C" const char *relax_last_error(void) { return lastError.c_str(); }

extern "C" size_t relax_dtype_size(relax_dtype dtype) {
  size_t index = dtypeIndex(dtype);
  return index < kNumDTypes ? dtypeNameSize(kDTypeNames[index]) : 0;
}

extern "C" const char *relax_dtype_name(relax_dtype dtype) {
  size_t index = dtypeIndex(dtype);
  return index < kNumDTypes ? kDTypeNames[index] : "";
}

extern "C" relax_status relax_module_open(const char *libraryPath,
                                          const char *paramsPath,
                                          relax_module **module) {
  if (!module)
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                "relax_module_open: module is NULL");
  *module = nullptr;
  if (!libraryPath)
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                "relax_module_open: library_path is NULL");
  auto library = Library::open(libraryPath, paramsPath ? paramsPath : "");
  if (!library)
    return fail(RELAX_ERROR_LOAD, library.message());
  auto m = std::make_unique<relax_module>();
  m->library = std::move(*library);
  for (const FunctionSpec &spec : m->library->getMetadata().functions) {
    auto f = std::make_unique<relax_function>();
    f->spec = &spec;
    f->fn = m->library->lookupEntry(spec.name);
    if (!spec.shapeFunction.empty())
      f->shapeFn = reinterpret_cast<ShapeFn>(
          m->library->lookupSymbol(spec.shapeFunction));
    EntryDims fixed = evaluateDims(spec, f->shapeFn, {});
    for (const std::vector<DimValue> &dims : fixed.params) {
      std::vector<int64_t> &sizes = f->fixedInputDims.emplace_back();
      for (const DimValue &v : dims)
        sizes.push_back(v.kind == DimValue::Known ? v.value : -1);
    }
    for (const TensorSpec &t : spec.params)
      f->inputDTypes.push_back(dtypeFromName(t.dtype));
    for (const TensorSpec &t : spec.results)
      f->outputDTypes.push_back(dtypeFromName(t.dtype));
    m->functions.push_back(std::move(f));
  }
  *module = m.release();
  return RELAX_OK;
}

extern "C" void relax_module_close(relax_module *module) { delete module; }

extern "C" size_t relax_module_num_functions(const relax_module *module) {
  return module ? module->functions.size() : 0;
}

extern "C" const char *relax_module_function_name(const relax_module *module,
                                                  size_t index) {
  if (!module || index >= module->functions.size())
    return nullptr;
  return module->functions[index]->spec->name.c_str();
}

extern "C" relax_status relax_module_get_function(relax_module *module,
                                                  const char *name,
                                                  relax_function **function) {
  if (!module || !name || !function)
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                "relax_module_get_function: NULL argument");
  *function = nullptr;
  for (auto &f : module->functions)
    if (f->spec->name == name) {
      *function = f.get();
      return RELAX_OK;
    }
  std::string names;
  for (auto &f : module->functions)
    names += (names.empty() ? "" : ", ") + f->spec->name;
  return fail(RELAX_ERROR_INVALID_ARGUMENT,
              "no function '" + std::string(name) + "' in " +
                  module->library->getPath() + " (it has: " + names + ")");
}

extern "C" size_t relax_function_num_inputs(const relax_function *f) {
  return f ? f->spec->params.size() : 0;
}
extern "C" size_t relax_function_num_outputs(const relax_function *f) {
  return f ? f->spec->results.size() : 0;
}
extern "C" relax_dtype relax_function_input_dtype(const relax_function *f,
                                                  size_t i) {
  return f && i < f->inputDTypes.size() ? f->inputDTypes[i] : RELAX_DTYPE_F32;
}
extern "C" int32_t relax_function_input_rank(const relax_function *f,
                                             size_t i) {
  if (!f || i >= f->spec->params.size() || !f->spec->params[i].ranked)
    return -1;
  return f->spec->params[i].staticSizes.size();
}
extern "C" const char *relax_function_input_dim(const relax_function *f,
                                                size_t i, int32_t d) {
  if (!f || i >= f->spec->params.size() || d < 0 ||
      static_cast<size_t>(d) >= f->spec->params[i].dims.size())
    return nullptr;
  return f->spec->params[i].dims[d].c_str();
}
extern "C" const char *relax_function_input_name(const relax_function *f,
                                                 size_t i) {
  if (!f || i >= f->spec->params.size())
    return nullptr;
  return f->spec->params[i].name.c_str();
}
extern "C" relax_dtype relax_function_output_dtype(const relax_function *f,
                                                   size_t i) {
  return f && i < f->outputDTypes.size() ? f->outputDTypes[i] : RELAX_DTYPE_F32;
}
extern "C" int32_t relax_function_output_rank(const relax_function *f,
                                              size_t i) {
  if (!f || i >= f->spec->results.size())
    return -1;
  return f->spec->results[i].staticSizes.size();
}

extern "C" size_t relax_function_num_symbols(const relax_function *f) {
  return f ? f->spec->symbols.size() : 0;
}
extern "C" const char *relax_function_symbol_name(const relax_function *f,
                                                  size_t k) {
  if (!f || k >= f->spec->symbols.size())
    return nullptr;
  return f->spec->symbols[k].name.c_str();
}

/// relax_function_input_shape and _output_shape: one tensor's dims from
/// the shape function.
static relax_status tensorShape(const relax_function *f,
                                const int64_t *symbols, size_t index,
                                bool output, int64_t *shape) {
  const char *what = output ? "relax_function_output_shape"
                            : "relax_function_input_shape";
  if (!f || !shape)
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": NULL argument");
  const std::vector<TensorSpec> &specs =
      output ? f->spec->results : f->spec->params;
  if (index >= specs.size())
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": '" + f->spec->name + "' has " +
                    str(specs.size()) + (output ? " outputs" : " inputs") +
                    ", not " + str(index + 1));
  std::vector<std::optional<int64_t>> values(f->spec->symbols.size());
  if (symbols)
    for (size_t k = 0; k < values.size(); ++k)
      values[k] = symbols[k];
  EntryDims dims = evaluateDims(*f->spec, f->shapeFn, values);
  const std::vector<DimValue> &tensor =
      output ? dims.results[index] : dims.params[index];
  for (size_t d = 0; d < tensor.size(); ++d) {
    const DimValue &v = tensor[d];
    std::string where = std::string(output ? "output #" : "input #") +
                        str(index) + " of '" + f->spec->name + "' dim " +
                        str(d) + " (" + specs[index].dims[d] + ")";
    if (v.kind == DimValue::NoValue)
      return fail(RELAX_ERROR_INVALID_ARGUMENT,
                  where + " has no value: the arithmetic overflows int64 "
                          "or divides by zero");
    if (v.kind == DimValue::Known && v.value < 0)
      return fail(RELAX_ERROR_INVALID_ARGUMENT,
                  where + " is " + str(v.value) + ", not a size");
    shape[d] = v.kind == DimValue::Known ? v.value : -1;
  }
  return RELAX_OK;
}

extern "C" relax_status relax_function_input_shape(const relax_function *f,
                                                   const int64_t *symbols,
                                                   size_t input,
                                                   int64_t *shape) {
  return tensorShape(f, symbols, input, /*output=*/false, shape);
}
extern "C" relax_status relax_function_output_shape(const relax_function *f,
                                                    const int64_t *symbols,
                                                    size_t output,
                                                    int64_t *shape) {
  return tensorShape(f, symbols, output, /*output=*/true, shape);
}

/// Checks input `i` against the signature (the checks the JIT path makes
/// in exec::checkInputs).
static relax_status checkInput(const relax_function *f, size_t i,
                               const relax_tensor &t) {
  const TensorSpec &spec = f->spec->params[i];
  const std::string &name = f->spec->name;
  auto bad = [&](const std::string &why) {
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                "input #" + str(i) + " of '" + name + "': " + why);
  };
  size_t dtype = dtypeIndex(t.dtype);
  if (dtype >= kNumDTypes) {
    std::underlying_type_t<relax_dtype> raw;
    std::memcpy(&raw, &t.dtype, sizeof(raw));
    return bad("dtype " + str(raw) + " is not a relax_dtype");
  }
  if (dtype != static_cast<size_t>(f->inputDTypes[i]))
    return bad("has dtype " + std::string(kDTypeNames[dtype]) +
               ", expected " + spec.dtype);
  if (t.rank < 0 || (t.rank > 0 && !t.shape))
    return bad("has rank " + str(t.rank) + " and no shape");
  if (spec.ranked && static_cast<size_t>(t.rank) != spec.staticSizes.size())
    return bad("has rank " + str(t.rank) + ", expected " +
               str(spec.staticSizes.size()));
  int64_t count = 1;
  for (int32_t d = 0; d < t.rank; ++d) {
    if (t.shape[d] < 0 || __builtin_mul_overflow(count, t.shape[d], &count))
      return bad("dim " + str(d) + " is " + str(t.shape[d]) +
                 (t.shape[d] < 0 ? "" : ": the size overflows"));
    // A dim the relax type fixes ("16") is checked here even where the
    // lowered code takes any size there (and would check it itself).
    int64_t expected = spec.ranked ? f->fixedInputDims[i][d] : -1;
    if (expected >= 0 && expected != t.shape[d])
      return bad("dim " + str(d) + " is " + str(t.shape[d]) +
                 ", expected " + str(expected));
  }
  if (count > 0 && !t.data)
    return bad("data is NULL");
  return RELAX_OK;
}

extern "C" relax_status relax_function_call(relax_function *f,
                                            const relax_tensor *inputs,
                                            size_t numInputs,
                                            relax_outputs **outputs) {
  if (!outputs)
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                "relax_function_call: outputs is NULL");
  *outputs = nullptr;
  if (!f)
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                "relax_function_call: function is NULL");
  const FunctionSpec &spec = *f->spec;
  if (numInputs != spec.params.size())
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                "'" + spec.name + "' takes " + str(spec.params.size()) +
                    " inputs, got " + str(numInputs));
  if (numInputs && !inputs)
    return fail(RELAX_ERROR_INVALID_ARGUMENT,
                "relax_function_call: inputs is NULL");
  for (size_t i = 0; i < numInputs; ++i)
    if (relax_status s = checkInput(f, i, inputs[i]))
      return s;

  std::vector<bool> ranked;
  for (const TensorSpec &t : spec.params)
    ranked.push_back(t.ranked);
  std::vector<int64_t> resultRanks;
  for (const TensorSpec &t : spec.results)
    resultRanks.push_back(t.staticSizes.size());
  PackedCall call(f->fn, spec.name, ranked, resultRanks);
  for (size_t i = 0; i < numInputs; ++i)
    call.setInput(i, inputs[i].data, inputs[i].shape, inputs[i].rank);
  if (Status s = call.run())
    return fail(RELAX_ERROR_RUNTIME,
                "'" + spec.name + "' failed: " + s.message());

  // Dense copies the caller owns through `out`; the compiled code's own
  // blocks are freed right away. A dense result starting at an input's data
  // is that input (updated in place) or its leading part: the caller's
  // memory, handed back as it is.
  auto out = std::make_unique<relax_outputs>();
  out->shapes.resize(spec.results.size());
  relax_status status = RELAX_OK;
  for (size_t i = 0; i < spec.results.size(); ++i) {
    int64_t rank = resultRanks[i];
    const int64_t *desc = call.result(i);
    out->shapes[i].assign(desc + 3, desc + 3 + rank);
    size_t elem = relax_dtype_size(f->outputDTypes[i]);
    size_t bytes = elem;
    for (int64_t s : out->shapes[i])
      bytes *= s;
    const char *data =
        reinterpret_cast<const char *>(desc[1]) + desc[2] * elem;
    bool dense = true;
    for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
      dense &= desc[3 + rank + d] == stride || desc[3 + d] == 1;
      stride *= desc[3 + d];
    }
    auto isInput = [&](const relax_tensor &in) { return in.data == data; };
    if (dense && bytes &&
        std::any_of(inputs, inputs + numInputs, isInput)) {
      out->tensors.push_back({const_cast<char *>(data), f->outputDTypes[i],
                              static_cast<int32_t>(rank),
                              out->shapes[i].data()});
      continue;
    }
    void *buffer = std::malloc(std::max<size_t>(bytes, 1));
    if (!buffer) {
      status =
          fail(RELAX_ERROR_RUNTIME, "cannot allocate " + str(bytes) +
                                        " bytes for output #" + str(i));
      break;
    }
    copyToDense(desc, rank, elem, buffer);
    out->buffers.push_back(buffer);
    out->tensors.push_back({buffer, f->outputDTypes[i],
                            static_cast<int32_t>(rank), out->shapes[i].data()});
  }
  for (void *block : call.ownedResultBlocks())
    std::free(block);
  if (status != RELAX_OK) {
    relax_outputs_free(out.release());
    return status;
  }
  *outputs = out.release();
  return RELAX_OK;
}

extern "C" size_t relax_outputs_count(const relax_outputs *outputs) {
  return outputs ? outputs->tensors.size() : 0;
}

extern "C" const relax_tensor *relax_outputs_get(const relax_outputs *outputs,
                                                 size_t index) {
  if (!outputs || index >= outputs->tensors.size())
    return nullptr;
  return &outputs->tensors[index];
}

extern "C" void relax_outputs_free(relax_outputs *outputs) {
  if (!outputs)
    return;
  for (void *b : outputs->buffers)
    std::free(b);
  delete outputs;
}
