//===- CPUDefaultSchedule.cpp - --tir-cpu-default-schedule ----------------===//
//
// The schedule every program gets on the CPU when nobody tuned it. Legalized
// nests are already parallel in their outermost non-unit loop; what is left
// is locality between the nests of a fused program: a consumer runs right
// after the slice it reads is produced, and that slice's buffer becomes a
// per-iteration scratch instead of a whole tensor. A reduction along a
// row accumulates in the lanes of a vector.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/TIR/Transforms/Passes.h"
#include "RelaxDialect/TIR/Transforms/Schedule.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace tir {
#define GEN_PASS_DEF_TIRCPUDEFAULTSCHEDULE
#include "RelaxDialect/TIR/Transforms/Passes.h.inc"
} // namespace tir
} // namespace mlir

using namespace mlir;
using namespace mlir::tir;

/// The top-level op holding every store to `buffer`, or null when the stores
/// are spread over several (or there are none).
static Operation *getProducerNest(Block &entry, Value buffer) {
  Operation *producer = nullptr;
  for (Operation *user : buffer.getUsers()) {
    auto store = dyn_cast<StoreOp>(user);
    if (!store || store.getBuffer() != buffer)
      continue;
    Operation *top = entry.findAncestorOpInBlock(*user);
    if (producer && producer != top)
      return nullptr;
    producer = top;
  }
  return producer;
}

/// The one block outside `producer` that reads `buffer`, if there is one.
static BlockOp getSingleConsumer(Block &entry, Value buffer,
                                 Operation *producer) {
  BlockOp consumer;
  for (Operation *user : buffer.getUsers()) {
    if (!isa<LoadOp>(user) || entry.findAncestorOpInBlock(*user) == producer)
      continue;
    auto block = user->getParentOfType<BlockOp>();
    if (!block || (consumer && consumer != block))
      return BlockOp();
    consumer = block;
  }
  return consumer;
}

/// For a reduction whose reduce loop sits right inside a serial spatial
/// loop that walks the output's last (contiguous) dim, as legalized matmuls
/// do (`i, j, k`): moves the init out of the reduction and swaps the two
/// loops (`i, k, j`), so the innermost loop walks contiguous outputs and
/// operands and vectorises.
static void moveReductionOutward(BlockOp block) {
  ValueRange vars = block.getIterVars();
  auto inner = dyn_cast<ForOp>(block->getParentOp());
  auto outer = inner ? dyn_cast<ForOp>(inner->getParentOp()) : ForOp();
  if (!outer || outer.getKind() != LoopKind::serial)
    return;
  auto varBoundTo = [&](ForOp loop) -> int {
    for (auto [i, binding] : llvm::enumerate(block.getBindings()))
      if (binding == loop.getInductionVar())
        return i;
    return -1;
  };
  int reduceVar = varBoundTo(inner), spatialVar = varBoundTo(outer);
  if (reduceVar < 0 || spatialVar < 0 ||
      block.getIterKind(reduceVar) != IterKind::reduce ||
      block.getIterKind(spatialVar) != IterKind::spatial ||
      llvm::count_if(llvm::seq<unsigned>(0, vars.size()), [&](unsigned i) {
        return block.getIterKind(i) == IterKind::reduce;
      }) != 1)
    return;
  StoreOp update;
  for (auto store : block.getBody()->getOps<StoreOp>())
    update = store;
  if (!update || update.getIndices().empty() ||
      update.getIndices().back() != vars[spatialVar])
    return;
  if (failed(decomposeReduction(block, outer)))
    return;
  (void)reorder(outer, inner);
}

/// Bytes of the accumulators laneReduction keeps per reduction: one
/// AVX-512 register, two AVX2 ones (whose adds then overlap), the same code
/// for either instruction set.
constexpr int64_t kLaneReductionBytes = 64;

/// For a reduction whose reduce loop is the innermost loop and walks the
/// inputs' last dim (a norm's or softmax's sum over a row): accumulates in
/// kLaneReductionBytes of lanes (laneReduction), so that the loop
/// vectorises instead of adding one element at a time through the output
/// in memory. Skips a loop of constant extent below the lanes.
static void reduceInLanes(BlockOp block) {
  auto loop = dyn_cast<ForOp>(block->getParentOp());
  if (!loop || loop.getKind() != LoopKind::serial ||
      !canLaneReduce(block, loop))
    return;
  Type dtype;
  for (auto store : block.getBody()->getOps<StoreOp>())
    dtype = cast<BufferType>(store.getBuffer().getType()).getDtype();
  if (!dtype || !dtype.isIntOrFloat() || dtype.getIntOrFloatBitWidth() < 8)
    return;
  int64_t lanes = kLaneReductionBytes * 8 / dtype.getIntOrFloatBitWidth();
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound());
  if (extent && *extent < lanes)
    return;
  (void)laneReduction(block, loop, lanes);
}

static void scheduleForCPU(PrimFuncOp func) {
  hoistPrologue(func);
  Block &entry = func.getBody().front();
  SmallVector<AllocOp> buffers;
  for (auto alloc : entry.getOps<AllocOp>())
    if (alloc.getType().getScope() == MemoryScope::global)
      buffers.push_back(alloc);

  // The primitives explain their refusals as errors; here a refusal only
  // means the program keeps its current form.
  ScopedDiagnosticHandler quiet(func.getContext(),
                                [](Diagnostic &) { return success(); });
  for (AllocOp alloc : buffers) {
    Operation *producer = getProducerNest(entry, alloc.getResult());
    auto loop = dyn_cast_or_null<ForOp>(producer);
    if (!loop)
      continue;
    if (BlockOp consumer = getSingleConsumer(entry, alloc.getResult(), loop))
      (void)reverseComputeAt(consumer, loop);
    (void)compactToLoop(alloc, loop);
  }
  SmallVector<BlockOp> blocks;
  func.walk([&](BlockOp block) { blocks.push_back(block); });
  for (BlockOp block : blocks)
    moveReductionOutward(block);
  blocks.clear();
  func.walk([&](BlockOp block) { blocks.push_back(block); });
  for (BlockOp block : blocks)
    reduceInLanes(block);
}

namespace {
struct TIRCPUDefaultSchedulePass
    : public tir::impl::TIRCPUDefaultScheduleBase<TIRCPUDefaultSchedulePass> {
  void runOnOperation() override {
    getOperation().walk([](PrimFuncOp func) {
      if (!func.getBody().empty())
        scheduleForCPU(func);
    });
  }
};
} // namespace
