//===- Fusion.h - Shared pieces of the fusion passes ------------*- C++ -*-===//
//
// `--relax-group-ops` marks groups, `--relax-fuse-tir` merges them; both walk
// the same blocks and read the programs' kinds (tir/IR/OpPattern.h).
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_FUSION_H
#define RELAXDIALECT_RELAX_TRANSFORMS_FUSION_H

#include "RelaxDialect/TIR/IR/OpPattern.h"

#include "mlir/IR/Block.h"

namespace mlir {
namespace relax {

using tir::OpPattern;

/// The attribute `--relax-group-ops` puts on the calls of one fusion group
/// (an integer id, unique in the module) for `--relax-fuse-tir`.
inline constexpr llvm::StringLiteral kFusionGroupAttrName =
    "relax.fusion_group";

/// Calls `fn` on each block whose calls may fuse: the body of every
/// relax.func and of every relax.dataflow region in it. Both are straight
/// lines of ops; calls are pure, so a group may run at its last member.
void forEachFusionBlock(Operation *root, function_ref<void(Block &)> fn);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_FUSION_H
