/*===- Passes.h - C API of the relax-mlir passes and pipelines ----*- C -*-===*\
|*                                                                            *|
|* Registers the project's passes and pipelines (relax-fuse-ops,              *|
|* relax-lower-to-cpu, ...) with MLIR's global pass registry, so that         *|
|* mlirParsePassPipeline and mlirOpPassManagerAddPipeline (mlir-c/Pass.h)     *|
|* accept them by name. Library: libRelaxCAPI.so (see Dialects.h).            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef RELAXDIALECT_C_PASSES_H
#define RELAXDIALECT_C_PASSES_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every pass and pipeline of relax, tir and the conversions.
/// Calling it again does nothing.
MLIR_CAPI_EXPORTED void mlirRelaxRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif // RELAXDIALECT_C_PASSES_H
