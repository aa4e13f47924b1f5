//===- CompileCLOptions.h - Options of CompileOptions ---------*- C++ -*-===//
//
// The options relax-run and relax-compile share, declared once (as MLIR's
// registerPassManagerCLOptions): --fuse, --param-min-bytes and the CPU
// pipeline's --dispatch-library, --via-linalg, --min-parallel-work,
// --approximate-math, --quant-activations and --plan-memory. A tool
// registers them before
// parsing its command line and copies them into its CompileOptions after.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_COMPILECLOPTIONS_H
#define RELAXDIALECT_EXECUTION_COMPILECLOPTIONS_H

#include "RelaxDialect/Execution/CompiledModule.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace mlir {
namespace relax {
namespace exec {

/// Registers the shared options in `category` (once per process).
void registerCompileCLOptions(llvm::cl::OptionCategory &category);

/// Copies the shared options into `options`; an error names a value out of
/// range. Call after llvm::cl::ParseCommandLineOptions.
llvm::Error applyCompileCLOptions(CompileOptions &options);

} // namespace exec
} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_EXECUTION_COMPILECLOPTIONS_H
