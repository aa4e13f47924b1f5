//===- Passes.h - tir transformations ---------------------------*- C++ -*-===//
#ifndef RELAXDIALECT_TIR_TRANSFORMS_PASSES_H
#define RELAXDIALECT_TIR_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tir {

#define GEN_PASS_DECL
#include "RelaxDialect/TIR/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "RelaxDialect/TIR/Transforms/Passes.h.inc"

} // namespace tir
} // namespace mlir

#endif // RELAXDIALECT_TIR_TRANSFORMS_PASSES_H
