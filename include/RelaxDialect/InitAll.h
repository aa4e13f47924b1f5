//===- InitAll.h - Register everything relax-mlir tools use -----*- C++ -*-===//
//
// One registration point shared by relax-opt, relax-translate and relax-run
// (and by any downstream tool embedding the dialects), so the tools stay a
// dozen lines and never disagree about what is available.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_INITALL_H
#define RELAXDIALECT_INITALL_H

namespace mlir {
class DialectRegistry;
namespace relax {

/// Registers the project's dialects (relax, tir, extern) only.
void registerRelaxProjectDialects(DialectRegistry &registry);

/// Registers the project's dialects plus every upstream dialect and
/// extension, as mlir-opt does.
void registerAllDialects(DialectRegistry &registry);

/// Registers the project's passes and pipelines plus every upstream pass.
void registerAllPasses();

/// Registers the project's translations plus every upstream translation.
void registerAllTranslations();

/// Adds "relax-mlir version X (MLIR Y)" to every tool's --version output.
void registerVersionPrinter();

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_INITALL_H
