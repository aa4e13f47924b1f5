//===- TestSchedule.cpp - Drive the schedule API from the IR --------------===//
//
// `--tir-test-schedule` reads `tir.schedule = ["split i 4", ...]` on each
// prim_func and applies the steps, so lit tests can exercise every
// primitive and every refusal without C++ test harnesses.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/TIR/Transforms/Passes.h"
#include "RelaxDialect/TIR/Transforms/Schedule.h"

namespace mlir {
namespace tir {
#define GEN_PASS_DEF_TIRTESTSCHEDULE
#include "RelaxDialect/TIR/Transforms/Passes.h.inc"
} // namespace tir
} // namespace mlir

using namespace mlir;
using namespace mlir::tir;

/// Applies one step, e.g. "split i 4".
static LogicalResult applyStep(PrimFuncOp func, StringRef step) {
  SmallVector<StringRef> words;
  step.split(words, ' ', -1, /*KeepEmpty=*/false);
  auto bad = [&]() {
    return func.emitError("tir.schedule: malformed step '") << step << "'";
  };
  if (words.empty())
    return bad();
  StringRef prim = words[0];
  auto loopArg = [&](unsigned i) -> FailureOr<ForOp> {
    return getLoop(func, words[i]);
  };

  if (prim == "split") {
    int64_t factor;
    if (words.size() != 3 || words[2].getAsInteger(10, factor))
      return bad();
    FailureOr<ForOp> loop = loopArg(1);
    return failed(loop) ? failure() : LogicalResult(split(*loop, factor));
  }
  if (prim == "fuse" || prim == "reorder") {
    if (words.size() != 3)
      return bad();
    FailureOr<ForOp> outer = loopArg(1);
    if (failed(outer))
      return failure();
    FailureOr<ForOp> inner = loopArg(2);
    if (failed(inner))
      return failure();
    return prim == "fuse" ? LogicalResult(fuse(*outer, *inner))
                          : LogicalResult(reorder(*outer, *inner));
  }
  if (prim == "parallel" || prim == "vectorize" || prim == "unroll") {
    if (words.size() != 2)
      return bad();
    FailureOr<ForOp> loop = loopArg(1);
    if (failed(loop))
      return failure();
    if (prim == "parallel")
      return parallel(*loop);
    return prim == "vectorize" ? vectorize(*loop) : unroll(*loop);
  }
  if (prim == "bind") {
    if (words.size() != 3)
      return bad();
    FailureOr<ForOp> loop = loopArg(1);
    return failed(loop) ? failure() : bind(*loop, words[2]);
  }
  if (prim == "decompose_reduction") {
    if (words.size() != 3)
      return bad();
    FailureOr<BlockOp> block = getBlock(func, words[1]);
    if (failed(block))
      return failure();
    FailureOr<ForOp> loop = loopArg(2);
    if (failed(loop))
      return failure();
    return LogicalResult(decomposeReduction(*block, *loop));
  }
  if (prim == "cross_thread_reduction") {
    int64_t threads;
    if (words.size() != 4 || words[3].getAsInteger(10, threads))
      return bad();
    FailureOr<BlockOp> block = getBlock(func, words[1]);
    if (failed(block))
      return failure();
    FailureOr<ForOp> loop = loopArg(2);
    if (failed(loop))
      return failure();
    return crossThreadReduction(*block, *loop, threads);
  }
  if (prim == "compute_inline") {
    if (words.size() != 2)
      return bad();
    FailureOr<BlockOp> block = getBlock(func, words[1]);
    return failed(block) ? failure() : computeInline(*block);
  }
  if (prim == "compute_at" || prim == "reverse_compute_at") {
    if (words.size() != 3)
      return bad();
    FailureOr<BlockOp> block = getBlock(func, words[1]);
    if (failed(block))
      return failure();
    FailureOr<ForOp> loop = loopArg(2);
    if (failed(loop))
      return failure();
    return prim == "compute_at"
               ? LogicalResult(computeAt(*block, *loop))
               : LogicalResult(reverseComputeAt(*block, *loop));
  }
  if (prim == "cache_read" || prim == "cache_write") {
    bool read = prim == "cache_read";
    if (words.size() != (read ? 4u : 3u))
      return bad();
    unsigned index = 0;
    if (read && words[2].getAsInteger(10, index))
      return bad();
    std::optional<MemoryScope> scope = symbolizeMemoryScope(words.back());
    if (!scope)
      return bad();
    FailureOr<BlockOp> block = getBlock(func, words[1]);
    if (failed(block))
      return failure();
    return read ? LogicalResult(cacheRead(*block, index, *scope))
                : LogicalResult(cacheWrite(*block, *scope));
  }
  return func.emitError("tir.schedule: unknown primitive '") << prim << "'";
}

namespace {
struct TIRTestSchedulePass
    : tir::impl::TIRTestScheduleBase<TIRTestSchedulePass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<PrimFuncOp>()) {
      auto steps = func->getAttrOfType<ArrayAttr>("tir.schedule");
      if (!steps)
        continue;
      func->removeAttr("tir.schedule");
      for (Attribute step : steps) {
        auto str = dyn_cast<StringAttr>(step);
        if (!str) {
          func.emitError("tir.schedule must be an array of strings");
          return signalPassFailure();
        }
        if (failed(applyStep(func, str.getValue())))
          return signalPassFailure();
      }
    }
  }
};
} // namespace
