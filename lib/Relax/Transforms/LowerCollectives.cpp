//===- LowerCollectives.cpp - --relax-lower-collectives -------------------===//
//
// The collectives of a tensor-parallel program (relax.ccl.*) become calls of
// the catalogue's communication built-ins: MPI on the CPU, NCCL names on the
// GPU. The number of ranks the program was sharded for travels in a constant
// options operand, so that the runtime refuses a run on another number of
// ranks instead of computing with the wrong slices.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Extern/IR/Builtins.h"
#include "RelaxDialect/Relax/IR/RelaxCollectiveOps.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXLOWERCOLLECTIVES
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

namespace {
struct LowerCollectives
    : public relax::impl::RelaxLowerCollectivesBase<LowerCollectives> {
  using Base::Base;

  /// Replaces `op` (a collective over `input`) by a call of the built-in
  /// `spec` with `options` as its i64 operand; fails with a located error
  /// when the target has no such function.
  LogicalResult lower(IRRewriter &rewriter, Operation *op, Value input,
                      ext::BuiltinSpec spec, ArrayRef<int64_t> options) {
    auto type = cast<RelaxTensorType>(input.getType());
    spec.target = target;
    spec.dtype = type.getDtype();
    spec.lhsRank = type.hasRank() ? type.getRank() : 0;
    std::string why = ext::whyUnsupported(spec);
    if (!type.hasRank())
      why = "the input's rank is unknown (refine it with relax.match_cast)";
    if (!why.empty())
      return op->emitOpError("cannot be lowered for target ")
             << ext::stringifyBuiltinTarget(target) << ": " << why;
    FailureOr<ext::FuncOp> decl =
        ext::getOrCreateBuiltin(getOperation(), spec);
    if (failed(decl))
      return failure();
    rewriter.setInsertionPoint(op);
    auto i64 = rewriter.getI64Type();
    auto optionsValue = ConstantOp::create(
        rewriter, op->getLoc(),
        DenseElementsAttr::get(
            RankedTensorType::get({int64_t(options.size())}, i64), options));
    auto call = CallDPSPackedOp::create(
        rewriter, op->getLoc(), op->getResultTypes(), decl->getSymName(),
        ValueRange{input, optionsValue});
    rewriter.replaceOp(op, call->getResults());
    ++numLowered;
    return success();
  }

  void runOnOperation() override {
    SmallVector<Operation *> collectives;
    getOperation().walk([&](Operation *op) {
      if (isa<AllReduceOp, AllGatherOp>(op))
        collectives.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : collectives) {
      ext::BuiltinSpec spec;
      LogicalResult result = success();
      if (auto reduce = dyn_cast<AllReduceOp>(op)) {
        spec.kind = ext::BuiltinKind::AllReduce;
        spec.reduceOp = reduce.getOp().str();
        int64_t options[] = {int64_t(reduce.getNumRanks())};
        result = lower(rewriter, op, reduce.getInput(), spec, options);
      } else {
        auto gather = cast<AllGatherOp>(op);
        spec.kind = ext::BuiltinKind::AllGather;
        auto type = cast<RelaxTensorType>(gather.getInput().getType());
        // Inference checked the axis against the (known) rank.
        int64_t axis = gather.getAxis();
        if (axis < 0)
          axis += type.getRank();
        int64_t options[] = {int64_t(gather.getNumRanks()), axis};
        result = lower(rewriter, op, gather.getInput(), spec, options);
      }
      if (failed(result))
        return signalPassFailure();
    }
  }
};
} // namespace
