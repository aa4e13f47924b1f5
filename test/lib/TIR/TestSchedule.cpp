//===- TestSchedule.cpp - Drive the schedule API from the IR --------------===//
//
// `--tir-test-schedule` reads `tir.schedule = ["split i 4", ...]` on each
// prim_func and applies the steps, so lit tests can exercise every
// primitive and every refusal without C++ test harnesses. Steps:
//
//   split <loop> <factor>            fuse <outer> <inner>
//   reorder <outer> <inner>          parallel | vectorize | unroll <loop>
//   bind <loop> <blockIdx.x | threadIdx.x | ...>
//   decompose_reduction <block> <loop>
//   cross_thread_reduction <block> <loop> <threads> [warp]
//   warp_per_output_reduction <block> <loop> <outer> <warps>
//   lane_reduction <block> <loop> <lanes>
//   compute_inline <block>           compute_at <block> <loop>
//   reverse_compute_at <block> <loop>
//   cache_read <block> <read index | arg<N>> <scope>
//   cache_write <block> <scope>      compact <alloc index> <loop>
//
// `cache_read B argN` names the buffer (the prim_func's argument N) instead
// of its position among B's reads, which also reaches the refusal of a
// buffer B does not read. `compact A L` shrinks the A-th top-level
// tir.alloc (in order, from 0) to loop L.
//
// A step whose preconditions fail reports the primitive's error and fails
// the pass.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "RelaxDialect/TIR/IR/TIRDialect.h"
#include "RelaxDialect/TIR/Transforms/Schedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tir;

namespace {
/// One step split into words, with accessors that parse its arguments and
/// look up the loops and blocks they name (emitting the error on failure).
struct Step {
  PrimFuncOp func;
  StringRef text;
  SmallVector<StringRef> words;

  LogicalResult malformed() {
    return func.emitError("tir.schedule: malformed step '") << text << "'";
  }
  FailureOr<ForOp> loop(unsigned i) { return getLoop(func, words[i]); }
  FailureOr<BlockOp> block(unsigned i) {
    return getBlock(func, words[i]);
  }
  /// Words 1 and 2 as `<block> <loop>`, the operands of most block steps.
  LogicalResult blockAndLoop(BlockOp &b, ForOp &l) {
    FailureOr<BlockOp> blockOr = block(1);
    if (failed(blockOr))
      return failure();
    FailureOr<ForOp> loopOr = loop(2);
    if (failed(loopOr))
      return failure();
    b = *blockOr;
    l = *loopOr;
    return success();
  }
};
} // namespace

/// Applies one step, e.g. "split i 4".
static LogicalResult applyStep(PrimFuncOp func, StringRef text) {
  Step step{func, text, {}};
  text.split(step.words, ' ', -1, /*KeepEmpty=*/false);
  ArrayRef<StringRef> words = step.words;
  if (words.empty())
    return step.malformed();
  StringRef prim = words[0];

  if (prim == "split") {
    int64_t factor;
    if (words.size() != 3 || words[2].getAsInteger(10, factor))
      return step.malformed();
    FailureOr<ForOp> loop = step.loop(1);
    return failed(loop) ? failure() : LogicalResult(split(*loop, factor));
  }
  if (prim == "fuse" || prim == "reorder") {
    if (words.size() != 3)
      return step.malformed();
    FailureOr<ForOp> outer = step.loop(1);
    if (failed(outer))
      return failure();
    FailureOr<ForOp> inner = step.loop(2);
    if (failed(inner))
      return failure();
    return prim == "fuse" ? LogicalResult(fuse(*outer, *inner))
                          : LogicalResult(reorder(*outer, *inner));
  }
  if (prim == "parallel" || prim == "vectorize" || prim == "unroll") {
    if (words.size() != 2)
      return step.malformed();
    FailureOr<ForOp> loop = step.loop(1);
    if (failed(loop))
      return failure();
    if (prim == "parallel")
      return parallel(*loop);
    return prim == "vectorize" ? vectorize(*loop) : unroll(*loop);
  }
  if (prim == "bind") {
    if (words.size() != 3)
      return step.malformed();
    FailureOr<ForOp> loop = step.loop(1);
    return failed(loop) ? failure() : bind(*loop, words[2]);
  }
  if (prim == "compute_inline") {
    if (words.size() != 2)
      return step.malformed();
    FailureOr<BlockOp> block = step.block(1);
    return failed(block) ? failure() : computeInline(*block);
  }
  if (prim == "decompose_reduction" || prim == "compute_at" ||
      prim == "reverse_compute_at" || prim == "cross_thread_reduction") {
    bool threaded = prim == "cross_thread_reduction";
    int64_t threads = 0;
    // cross_thread_reduction <block> <loop> <threads> [warp]
    bool warp = threaded && words.size() == 5 && words[4] == "warp";
    if (words.size() != (threaded ? (warp ? 5u : 4u) : 3u) ||
        (threaded && words[3].getAsInteger(10, threads)))
      return step.malformed();
    BlockOp block;
    ForOp loop;
    if (failed(step.blockAndLoop(block, loop)))
      return failure();
    if (threaded)
      return crossThreadReduction(block, loop, threads, warp);
    if (prim == "decompose_reduction")
      return LogicalResult(decomposeReduction(block, loop));
    return prim == "compute_at" ? LogicalResult(computeAt(block, loop))
                                : LogicalResult(reverseComputeAt(block, loop));
  }
  if (prim == "lane_reduction") {
    // lane_reduction <block> <loop> <lanes>
    int64_t lanes = 0;
    if (words.size() != 4 || words[3].getAsInteger(10, lanes))
      return step.malformed();
    BlockOp block;
    ForOp loop;
    if (failed(step.blockAndLoop(block, loop)))
      return failure();
    return laneReduction(block, loop, lanes);
  }
  if (prim == "warp_per_output_reduction") {
    // warp_per_output_reduction <block> <loop> <outer> <warps>
    int64_t warps = 0;
    if (words.size() != 5 || words[4].getAsInteger(10, warps))
      return step.malformed();
    BlockOp block;
    ForOp loop;
    if (failed(step.blockAndLoop(block, loop)))
      return failure();
    FailureOr<ForOp> outer = step.loop(3);
    if (failed(outer))
      return failure();
    return warpPerOutputReduction(*outer, block, loop, warps);
  }
  if (prim == "cache_read" || prim == "cache_write") {
    bool read = prim == "cache_read";
    if (words.size() != (read ? 4u : 3u))
      return step.malformed();
    unsigned index = 0;
    // `argN`: the prim_func's argument N as the buffer to read.
    StringRef which = read ? words[2] : StringRef();
    bool byArgument = which.consume_front("arg");
    if (read && which.getAsInteger(10, index))
      return step.malformed();
    if (byArgument && index >= func.getNumArguments())
      return step.malformed();
    std::optional<MemoryScope> scope = symbolizeMemoryScope(words.back());
    if (!scope)
      return step.malformed();
    FailureOr<BlockOp> block = step.block(1);
    if (failed(block))
      return failure();
    if (byArgument)
      return LogicalResult(cacheRead(*block, func.getArgument(index), *scope));
    return read ? LogicalResult(cacheRead(*block, index, *scope))
                : LogicalResult(cacheWrite(*block, *scope));
  }
  if (prim == "compact") {
    unsigned index = 0;
    if (words.size() != 3 || words[1].getAsInteger(10, index))
      return step.malformed();
    auto allocs = func.getBody().front().getOps<AllocOp>();
    if (index >= static_cast<unsigned>(llvm::range_size(allocs)))
      return step.malformed();
    FailureOr<ForOp> loop = step.loop(2);
    if (failed(loop))
      return failure();
    return compactToLoop(*std::next(allocs.begin(), index), *loop);
  }
  return func.emitError("tir.schedule: unknown primitive '") << prim << "'";
}

namespace {
struct TestTIRSchedulePass
    : PassWrapper<TestTIRSchedulePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTIRSchedulePass)

  StringRef getArgument() const final { return "tir-test-schedule"; }
  StringRef getDescription() const final {
    return "Apply the schedule steps written on each prim_func (testing)";
  }
  // Primitives build index math (arith) and tail guards (scf.if).
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, gpu::GPUDialect, scf::SCFDialect>();
  }

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

void mlir::relax::test::registerTestTIRSchedulePass() {
  PassRegistration<TestTIRSchedulePass>();
}
