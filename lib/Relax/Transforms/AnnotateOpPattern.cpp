//===- AnnotateOpPattern.cpp - --relax-annotate-op-pattern ----------------===//
//
// Fusion decides on graph-level calls by looking at the loop programs they
// call. The kind is derived from the programs' blocks and index maps, so a
// hand-written or scheduled tir.prim_func is classified like a generated
// one.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/Fusion.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXANNOTATEOPPATTERN
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// True when `v` is a constant index (a broadcast read of dim 0).
static bool isConstantIndex(Value v) {
  return v.getDefiningOp() &&
         v.getDefiningOp()->hasTrait<OpTrait::ConstantLike>();
}

/// Classifies one block from how its loads index its iteration variables.
static OpPattern classifyBlock(tir::BlockOp block) {
  ValueRange iters = block.getIterVars();
  SmallVector<Value> spatial, reduce;
  for (auto [i, v] : llvm::enumerate(iters))
    (block.getIterKind(i) == tir::IterKind::reduce ? reduce : spatial)
        .push_back(v);

  SmallVector<tir::LoadOp> loads;
  block.getBody()->walk([&](tir::LoadOp load) { loads.push_back(load); });

  if (!reduce.empty()) {
    // Two different operands read through reduce variables and multiplied:
    // the matmul/convolution shape whose output takes elementwise epilogues.
    llvm::SmallPtrSet<Value, 4> reduceReads;
    for (tir::LoadOp load : loads)
      if (llvm::any_of(load.getIndices(), [&](Value idx) {
            return llvm::is_contained(reduce, idx);
          }))
        reduceReads.insert(load.getBuffer());
    bool multiplies = false;
    block.getBody()->walk([&](Operation *op) {
      if (op->getName().getStringRef() == "arith.mulf" ||
          op->getName().getStringRef() == "arith.muli")
        multiplies = true;
    });
    return reduceReads.size() >= 2 && multiplies ? OpPattern::OutEwiseFusable
                                                 : OpPattern::Reduction;
  }

  // A store anywhere but at the iteration variables (concat's offset
  // writes, a transpose written through permuted indices) moves data.
  OpPattern result = OpPattern::Elementwise;
  block.getBody()->walk([&](tir::StoreOp store) {
    if (SmallVector<Value>(store.getIndices()) != spatial)
      result = OpPattern::Injective;
  });
  for (tir::LoadOp load : loads) {
    SmallVector<Value> indices(load.getIndices());
    if (indices == spatial)
      continue;
    // A broadcast read uses a subsequence of the iteration variables (in
    // order) and constants for the stretched dims.
    size_t next = 0;
    bool subsequence = true;
    for (Value idx : indices) {
      if (isConstantIndex(idx))
        continue;
      auto it = std::find(spatial.begin() + next, spatial.end(), idx);
      if (it == spatial.end()) {
        subsequence = false;
        break;
      }
      next = it - spatial.begin() + 1;
    }
    result = std::max(result, subsequence ? OpPattern::Broadcast
                                          : OpPattern::Injective);
  }
  return result;
}

static OpPattern classify(tir::PrimFuncOp func) {
  SmallVector<tir::BlockOp> blocks;
  func.walk([&](tir::BlockOp block) { blocks.push_back(block); });
  if (blocks.empty())
    return OpPattern::Opaque;
  // Several reductions in sequence (softmax: max, then sum, then divide;
  // norms: mean, then scale) still form one reduction program. A
  // contraction next to any other reduction (attention) has no single anchor
  // an epilogue could attach to.
  OpPattern result = OpPattern::Elementwise;
  unsigned reductions = 0, contractions = 0;
  for (tir::BlockOp block : blocks) {
    OpPattern p = classifyBlock(block);
    reductions += p == OpPattern::Reduction;
    contractions += p == OpPattern::OutEwiseFusable;
    result = std::max(result, p);
  }
  if (contractions > 1 || (contractions == 1 && reductions > 0))
    return OpPattern::Opaque;
  return result;
}

namespace {
struct RelaxAnnotateOpPatternPass
    : public relax::impl::RelaxAnnotateOpPatternBase<
          RelaxAnnotateOpPatternPass> {
  void runOnOperation() override {
    Builder builder(&getContext());
    getOperation().walk([&](tir::PrimFuncOp func) {
      tir::setOpPattern(func, classify(func));
    });
  }
};
} // namespace
