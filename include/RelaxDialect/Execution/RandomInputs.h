//===- RandomInputs.h - Seeded random inputs for an entry -------*- C++ -*-===//
//
// Inputs for a run without data files: shapes from the entry's static sizes
// and its shape function with symbolic variables bound by the caller, values
// from a seeded generator (floats in [-1, 1), integers in 0..9, booleans
// 0/1). The same seed gives the same tensors on every machine.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_RANDOMINPUTS_H
#define RELAXDIALECT_EXECUTION_RANDOMINPUTS_H

#include "RelaxDialect/Execution/CompiledModule.h"

#include <random>

namespace mlir::relax::exec {

/// A tensor of `dtype` and `shape` filled from `rng`; an error when the
/// shape has too many elements (checkedElementCount).
llvm::Expected<HostTensor> makeRandomTensor(DType dtype,
                                            llvm::ArrayRef<int64_t> shape,
                                            std::mt19937_64 &rng);

/// One tensor per parameter of `entry`, its dims computed by the entry's
/// shape function (JIT-compiling the module first if needed) from `dims`
/// (variable name -> value): makeRandomInputsFor of HostIO.h.
llvm::Expected<std::vector<HostTensor>>
makeRandomInputs(CompiledModule &module, llvm::StringRef entry,
                 const llvm::StringMap<int64_t> &dims, uint64_t seed);

/// Checks that every variable `dims` binds is one the parameters of
/// `signature` use: a misspelled `--dim q=3` is an error naming the known
/// variables, not silently ignored.
llvm::Error checkDimNames(const EntrySignature &signature,
                          const llvm::StringMap<int64_t> &dims);

} // namespace mlir::relax::exec

#endif // RELAXDIALECT_EXECUTION_RANDOMINPUTS_H
