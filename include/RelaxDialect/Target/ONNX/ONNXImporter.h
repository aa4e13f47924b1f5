//===- ONNXImporter.h - ONNX model to relax import --------------*- C++ -*-===//
//
// Reads an ONNX ModelProto (protobuf bytes) and builds a module holding one
// `relax.func @main`: graph inputs become parameters (ONNX names kept in a
// `relax.name` argument attribute), outputs become results, initializers
// become `relax.constant`s and `dim_param`s become named symbolic variables.
// Shape computations (Shape, Gather, Concat, Slice, ... on shapes) are
// evaluated with the symbolic engine at import time so reshape targets stay
// symbolic. See docs/onnx.md.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TARGET_ONNX_ONNXIMPORTER_H
#define RELAXDIALECT_TARGET_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class MLIRContext;
namespace relax {

/// Imports the serialized ONNX model `bytes`; `fileName` locates the
/// diagnostics. Returns null after emitting an error on the context when the
/// file is malformed or uses an op, attribute or dtype the importer does not
/// support.
OwningOpRef<ModuleOp> importONNXModel(llvm::StringRef bytes,
                                      llvm::StringRef fileName,
                                      MLIRContext *context);

/// Registers `--import-onnx` with mlir-translate style drivers.
void registerONNXImportTranslation();

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_TARGET_ONNX_ONNXIMPORTER_H
