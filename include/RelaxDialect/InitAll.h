//===- InitAll.h - Register everything relax-mlir tools use -----*- C++ -*-===//
//
// One registration point shared by relax-opt, relax-translate and relax-run
// (and by any downstream tool embedding the dialects), so the tools stay a
// dozen lines and never disagree about what is available.
//
// Two libraries implement it. `RelaxInitProject` registers only what this
// project adds (dialects, passes, pipelines): it is what a downstream tool,
// the mlir-opt plugin and the C API link, since they bring their own
// upstream registrations. `RelaxInitAll` adds every upstream dialect, pass
// and translation and the optional ONNX importer, as mlir-opt does.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_INITALL_H
#define RELAXDIALECT_INITALL_H

#include <string>

namespace mlir {
class DialectRegistry;
namespace relax {

//===----------------------------------------------------------------------===//
// RelaxInitProject
//===----------------------------------------------------------------------===//

/// Registers the project's dialects (relax, tir, extern) only.
void registerRelaxProjectDialects(DialectRegistry &registry);

/// Registers the project's passes, conversions and pipelines
/// (`--relax-fuse-ops`, `--relax-lower-to-cpu`, ...) only. The pipelines
/// name upstream passes too; those are linked, not registered, here.
/// Calling it again does nothing.
void registerRelaxProjectPasses();

//===----------------------------------------------------------------------===//
// RelaxInitAll
//===----------------------------------------------------------------------===//

/// Registers the project's dialects plus every upstream dialect and
/// extension, as mlir-opt does.
void registerAllDialects(DialectRegistry &registry);

/// Registers the project's passes and pipelines plus every upstream pass.
void registerAllPasses();

/// Registers the project's translations plus every upstream translation.
void registerAllTranslations();

/// Adds "relax-mlir version X (MLIR Y)" to every tool's --version output.
void registerVersionPrinter();

/// Checks what relax-opt and relax-translate will open before the upstream
/// drivers do, so that a missing input or an output in a missing folder is
/// reported as `<tool>: error: cannot open input file 'x': ...`, the way
/// relax-run and relax-compile report it ("-" is stdin or stdout). The
/// output is not created here: it may be the input, which is read first.
/// Returns false after printing the error.
bool checkToolFiles(const char *tool, const std::string &input,
                    const std::string &output);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_INITALL_H
