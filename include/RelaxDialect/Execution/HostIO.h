//===- HostIO.h - .npy files and random tensors without LLVM ----*- C++ -*-===//
//
// The cores of Npy.h and RandomInputs.h with plain error strings instead of
// llvm::Error: relax-run's driver, which runs a compiled library without
// loading LLVM or MLIR (docs/memory.md), reads and writes tensors through
// these, and the execution library wraps them. Together with HostTensor.h
// and Compare.h they make the RelaxHostTensor library, which links no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_HOSTIO_H
#define RELAXDIALECT_EXECUTION_HOSTIO_H

#include "RelaxDialect/Execution/HostTensor.h"
#include "RelaxDialect/Runtime/ShapeFunction.h"

#include <map>

#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace mlir::relax::exec {

/// Parses the bytes of a .npy file (format 1.0-3.0, C order, little
/// endian); `name` names it in the message ("<name>: not a valid .npy file:
/// ...") that `error` receives on failure.
std::optional<HostTensor> parseNpyBytes(std::string_view bytes,
                                        std::string_view name,
                                        std::string &error);
/// Reads and parses the file at `path`.
std::optional<HostTensor> readNpyFile(const std::string &path,
                                      std::string &error);
/// The .npy bytes of `tensor` (format 1.0, 2.0 for very long headers).
std::string encodeNpy(const HostTensor &tensor);
/// Writes `tensor` to `path`; false with `error` set on failure.
bool writeNpyFile(const std::string &path, const HostTensor &tensor,
                  std::string &error);

/// A tensor of `shape` filled from `rng`: floats uniform in [-1, 1),
/// integers in [0, 10), booleans 0 or 1. A shape too large to allocate is
/// an error, not an abort.
std::optional<HostTensor> makeRandomHostTensor(DType dtype,
                                               const std::vector<int64_t> &shape,
                                               std::mt19937_64 &rng,
                                               std::string &error);

/// One random tensor per parameter of `f`, seeded with `seed`, its dims
/// computed by the entry's shape function `fn` from the --dim bindings
/// `dims` (symbol name -> value): the JIT and relax-run's driver size
/// inputs the same way, from the same generated code. A dim the bindings
/// do not size is an error naming the --dim to add (unboundDimMessage).
std::optional<std::vector<HostTensor>>
makeRandomInputsFor(const rt::FunctionSpec &f, rt::ShapeFn fn,
                    const std::map<std::string, int64_t> &dims, uint64_t seed,
                    std::string &error);

/// The message for the first binding of `dims` (alphabetically) that names
/// no symbol of `f` (unknownDimMessage), or nullopt when all do.
std::optional<std::string>
checkDimNamesFor(const rt::FunctionSpec &f,
                 const std::map<std::string, int64_t> &dims);

/// The message for a dim of a random input that the --dim bindings do not
/// size: `param` is the parameter's position, `paramName` its relax.name
/// ("" when it has none), `dimText` the dim's symbolic expression ("" when
/// the dim has none: a "?" size) and `unbound` its variables without a
/// binding (sorted). The JIT and relax-run's driver print the same.
std::string unboundDimMessage(size_t param, const std::string &paramName,
                              size_t dim, const std::string &dimText,
                              const std::vector<std::string> &unbound);

/// The message for `--dim name=...` when no parameter of `entry` uses the
/// variable `name`; `known` are the variables its parameters do use
/// (sorted, unique).
std::string unknownDimMessage(const std::string &name, const std::string &entry,
                              const std::vector<std::string> &known);

} // namespace mlir::relax::exec

#endif // RELAXDIALECT_EXECUTION_HOSTIO_H
