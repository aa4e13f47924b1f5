//===- TensorCoreMatmul.cpp - Matmuls on tensor cores (mma.sync, wgmma) ---===//
//
// The GPU schedule of f16 / bf16 matmuls (matmul, batched matmul, linear;
// an f32 output, or one of the operands' dtype, which the tensor cores
// accumulate in f32 and the epilogue rounds once): tensor cores instead of one
// FMA per thread per output. A thread block computes a 64 x 64 output tile with
// 4 warps (2 x 2, 32 x 32 each, i.e. 2 x 4 tir.mma_sync tiles of 16 x 8 per
// warp, whose 32 accumulators per lane live in registers: a `local` buffer).
// Per 32-wide step of K the 128 threads stage a 64 x 32 tile of A and a 64 x 32
// (n by k) tile of B in shared memory, zero outside M, N and K, so symbolic
// sizes need no other tail code; rows are padded to 40 elements so that the
// fragment reads of a warp hit 32 distinct banks. The epilogue stores each
// lane's accumulators under row / column guards.
//
// On sm_90a (`warpgroup`) the same staging feeds Hopper's warpgroup MMA
// instead: a block of 256 threads (two warpgroups) computes 128 x 128
// outputs, each warpgroup a 64 x 128 half with one tir.wgmma (two chained
// wgmma.mma_async m64n128k16) per K step of 32, 64 accumulators per
// thread. wgmma reads its operands from shared memory through descriptors,
// so the tiles are stored as 8 x 8 core matrices ([stage, K / 8, R / 8, 8,
// 8], the non-swizzled layout) rather than padded rows; the threads that
// staged a tile fence their writes for the tensor cores' asynchronous
// proxy before the barrier.
//
// On sm_90a an operand read along k (A [.., m, k], B [.., n, k]) is loaded by
// TMA instead where the call allows it: the host encodes the tensor map of
// its core-matrix view ([k / 8, rows, 8], strides [8, k, 1]: a box of it
// lands in shared memory as the core matrices) per call (tir.tensor_map),
// and runs that kernel when every map could be made and K % 8 == 0, else
// the cp.async kernel (both versions are built, under scf.if). In the TMA
// kernel thread 0 issues each stage's copies on the stage's mbarrier and all
// threads wait on its phase before the wgmma; the barrier that ends a K
// step only guards the refill of the stage it read.
//
// The accumulators persist across thread loops (the GPU keeps them in each
// thread's registers); the CPU emulation (--tir-test-gpu-as-serial) gives
// such a buffer a thread dimension.
//
//===----------------------------------------------------------------------===//

#include "MatmulMatch.h"

#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;

namespace {
/// The shape of the mma.sync schedule.
constexpr int64_t kTileM = 64, kTileN = 64, kTileK = 32;
constexpr int64_t kWarpsM = 2, kWarpsN = 2;
constexpr int64_t kThreads = 32 * kWarpsM * kWarpsN;
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;
constexpr int64_t kFragsM = kTileM / kWarpsM / kMmaM; // 2
constexpr int64_t kFragsN = kTileN / kWarpsN / kMmaN; // 4
constexpr int64_t kAccPerLane = kFragsM * kFragsN * 4;
/// The shape of the wgmma schedule: two warpgroups of 128 threads, each a
/// 64 x 128 half of the 128 x 128 tile (the K step is the same 32).
constexpr int64_t kWarpgroupThreads = 128;
constexpr int64_t kWgmmaM = 64, kWgmmaN = 128;
constexpr int64_t kWgmmaWarpgroups = 2;
/// An 8 x 8 core matrix of wgmma's shared-memory operands (16-byte rows).
constexpr int64_t kCore = 8;

/// The shape of one of the two schedules.
struct TensorCoreShape {
  int64_t tileM, tileN, threads, accumulators;
};
constexpr TensorCoreShape kMmaSyncShape{kTileM, kTileN, kThreads, kAccPerLane};
constexpr int64_t kWgmmaThreads = kWarpgroupThreads * kWgmmaWarpgroups;
constexpr TensorCoreShape kWgmmaShape{kWgmmaM * kWgmmaWarpgroups, kWgmmaN,
                                      kWgmmaThreads, kWgmmaN / 2};
/// Elements per cp.async (16 bytes of f16 / bf16).
constexpr int64_t kVector = 8;
/// Shared rows of 40 elements (80 bytes, 20 banks): the 8 rows a fragment
/// read touches start in 8 different groups of 4 banks.
constexpr int64_t kRowPad = 8;
} // namespace

/// The operands' dtype (f16 or bf16, both the same) when the block is
/// out(f32) += extf(A) * extf(B) or out += A * B in that dtype (then the
/// tensor cores accumulate in f32 and the epilogue rounds once).
static FailureOr<Type> matchTensorCoreTypes(MatmulMatch &m,
                                            Reporter report) {
  Type dtype = m.loadA.getType();
  if (!dtype.isF16() && !dtype.isBF16())
    return report(m.loadA, "tensor cores need f16 or bf16 operands");
  if (m.loadB.getType() != dtype)
    return report(m.loadB, "tensor cores need operands of one dtype");
  Type out = m.accLoad.getType();
  bool widened = out.isF32();
  if (!widened && out != dtype)
    return report(m.accStore, "tensor cores need an f32 accumulator or one "
                              "of the operands' dtype");
  Operation *add = m.accStore.getValue().getDefiningOp();
  Value product = add->getOperand(0) == m.accLoad.getResult()
                      ? add->getOperand(1)
                      : add->getOperand(0);
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!isa<arith::AddFOp>(add) || !mul)
    return report(m.accStore, "tensor cores need a float multiply-add");
  LoadOp loads[] = {m.loadA, m.loadB};
  for (auto [operand, load] : llvm::zip(mul->getOperands(), loads)) {
    Value source = operand;
    if (auto ext = operand.getDefiningOp<arith::ExtFOp>(); ext && widened)
      source = ext.getIn();
    if (source != load.getResult())
      return report(mul, "the product must be of the operands (widened to "
                         "f32 for an f32 output)");
  }
  return dtype;
}

bool tir::canTensorCoreMatmul(ForOp root, BlockOp block, Value *rowExtent) {
  Reporter quiet{false, "tensor_core_matmul"};
  FailureOr<MatmulMatch> m = matchMatmul(root, block, quiet);
  if (failed(m) || failed(matchTensorCoreTypes(*m, quiet)))
    return false;
  if (rowExtent)
    for (auto [loop, v] : llvm::zip(m->loops, m->loopVar))
      if (v == m->iVar)
        *rowExtent = loop.getUpperBound();
  return true;
}

/// Whether `load` (A or B) is staged with 16-byte cp.async copies: its
/// innermost index is the reduction variable (k contiguous in memory), its
/// buffer's innermost dim is a constant multiple of 8 (every row starts
/// 16-byte aligned, and a vector of 8 along k is wholly inside or outside
/// K) and no other index depends on k. Else elements are staged one by one.
static bool isVectorStaged(MatmulMatch &m, BlockOp block, LoadOp load) {
  ValueRange indices = load.getIndices();
  if (blockVar(block, indices.back()) != m.kVar)
    return false;
  for (Value index : indices.drop_back())
    if (blockVar(block, index) == m.kVar)
      return false;
  auto type = cast<BufferType>(load.getBuffer().getType());
  std::optional<int64_t> last = type.getDims().back().getConstant();
  std::optional<int64_t> depth;
  for (auto [loop, v] : llvm::zip(m.loops, m.loopVar))
    if (v == m.kVar)
      depth = getConstantIntValue(loop.getUpperBound());
  return last && *last % kVector == 0 && depth && *depth % kVector == 0;
}

/// A threadIdx.x loop over the block's `count` threads; `build` gets the
/// thread.
static void threads(OpBuilder &b, Location loc, int64_t count,
                    function_ref<void(OpBuilder &, Value)> build) {
  auto loop = ForOp::create(b, loc, constIndex(b, loc, 0),
                            constIndex(b, loc, count), constIndex(b, loc, 1),
                            LoopKind::thread_binding, nullptr, "threadIdx.x");
  OpBuilder tb = OpBuilder::atBlockBegin(loop.getBody());
  build(tb, loop.getInductionVar());
}

/// An unrolled loop `0 to n`; `build` gets its induction variable.
static void unrolled(OpBuilder &b, Location loc, int64_t n,
                     function_ref<void(OpBuilder &, Value)> build) {
  auto loop =
      ForOp::create(b, loc, constIndex(b, loc, 0), constIndex(b, loc, n),
                    constIndex(b, loc, 1), LoopKind::unrolled, nullptr);
  OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
  build(lb, loop.getInductionVar());
}

namespace {
/// A lane's place: its warp's corner in the block tile and (g, q), the
/// lane's group of four and its position in it.
struct LanePlace {
  Value lane, warpRow, warpCol, g, q;
};
} // namespace

static LanePlace getLanePlace(OpBuilder &b, Location loc, Value t) {
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  LanePlace p;
  p.lane = arith::RemUIOp::create(b, loc, t, c(32));
  Value warp = arith::DivUIOp::create(b, loc, t, c(32));
  p.warpRow = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, warp, c(kWarpsN)),
      c(kTileM / kWarpsM));
  p.warpCol = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, warp, c(kWarpsN)),
      c(kTileN / kWarpsN));
  p.g = arith::DivUIOp::create(b, loc, p.lane, c(4));
  p.q = arith::RemUIOp::create(b, loc, p.lane, c(4));
  return p;
}

namespace {
/// An operand of the wgmma kernel loaded by TMA: the host's tensor map of
/// its core-matrix view and that view (what the kernel's copies read).
struct TmaOperand {
  Value map;
  SmallVector<Value> viewDims, viewStrides;
};
/// The TMA operands of the kernel (null map: staged by the threads).
struct TmaPlan {
  TmaOperand a, b;
};
} // namespace

/// Whether `load` is read through the core-matrix view: its indices are
/// [batch variables.., the row variable, k], each a block variable itself
/// (so a box corner is the tile's), at most 4 (the view adds one dim, and
/// a tensor map has 5).
static bool isTmaOperand(MatmulMatch &m, BlockOp block, LoadOp load,
                         unsigned rowVar) {
  ValueRange indices = load.getIndices();
  if (indices.size() < 2 || indices.size() > 4 ||
      blockVar(block, indices.back()) != m.kVar ||
      blockVar(block, indices[indices.size() - 2]) != rowVar)
    return false;
  return llvm::all_of(indices.drop_back(2), [&](Value index) {
    std::optional<unsigned> v = blockVar(block, index);
    return v && llvm::is_contained(m.batchVars, *v);
  });
}

/// At `b` (host code before the nest): the tensor map of `load`'s operand
/// [lead.., rows, d] seen as [lead.., K / 8, rows, 8] with strides [..,
/// 8, d, 1] (K the reduction's extent, which the caller requires to be a
/// multiple of 8, so that the zero fill past K / 8 core-matrix columns is
/// exactly the zero past K), box [1.., kTileK / 8, `rows`, 8].
static TmaOperand buildTensorMap(OpBuilder &b, Location loc, LoadOp load,
                                 Value depth, int64_t rows, StringRef name) {
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  auto type = cast<BufferType>(load.getBuffer().getType());
  int64_t rank = type.getRank();
  SmallVector<Value> dims, strides(rank);
  for (const relax::sym::Expr &dim : type.getDims())
    dims.push_back(materializeDim(b, loc, dim));
  Value stride = c(1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride = arith::MulIOp::create(b, loc, stride, dims[d]);
  }
  TmaOperand operand;
  operand.viewDims.assign(dims.begin(), dims.end() - 2);
  operand.viewStrides.assign(strides.begin(), strides.end() - 2);
  operand.viewDims.append(
      {arith::DivUIOp::create(b, loc, depth, c(kCore)), dims[rank - 2],
       c(kCore)});
  operand.viewStrides.append({c(kCore), dims[rank - 1], c(1)});
  SmallVector<int64_t> box(rank - 2, 1);
  box.append({kTileK / kCore, rows, kCore});
  operand.map = TensorMapOp::create(
      b, loc, b.getI64Type(), load.getBuffer(), operand.viewDims,
      operand.viewStrides, name, box, /*swizzle=*/0, /*check_only=*/false);
  return operand;
}

static LogicalResult scheduleTensorCore(ForOp root, BlockOp block,
                                        MatmulMatch &m, Type dtype,
                                        bool warpgroup, const TmaPlan *tma);

LogicalResult tir::tensorCoreMatmul(ForOp root, BlockOp block, bool warpgroup,
                                    bool tma) {
  Reporter report{true, "tensor_core_matmul"};
  FailureOr<MatmulMatch> matched = matchMatmul(root, block, report);
  if (failed(matched))
    return failure();
  MatmulMatch &m = *matched;
  FailureOr<Type> dtype = matchTensorCoreTypes(m, report);
  if (failed(dtype))
    return failure();
  bool tmaA = warpgroup && tma && isTmaOperand(m, block, m.loadA, m.iVar);
  bool tmaB = warpgroup && tma && isTmaOperand(m, block, m.loadB, m.jVar);
  if (!tmaA && !tmaB)
    return scheduleTensorCore(root, block, m, *dtype, warpgroup, nullptr);
  // Both versions: TMA where every map is made and K % 8 == 0, else the
  // threads' staging (cp.async or element by element), decided per call.
  OpBuilder b(root);
  Location loc = root.getLoc();
  Value depth;
  for (auto [loop, v] : llvm::zip(m.loops, m.loopVar))
    if (v == m.kVar)
      depth = loop.getUpperBound();
  TmaPlan plan;
  Value use = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, depth, constIndex(b, loc, kCore)),
      constIndex(b, loc, 0));
  auto mapped = [&](TmaOperand &operand, LoadOp load, int64_t rows,
                    StringRef name) {
    operand = buildTensorMap(b, loc, load, depth, rows, name);
    Value made = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, operand.map,
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0));
    use = arith::AndIOp::create(b, loc, use, made);
  };
  if (tmaA)
    mapped(plan.a, m.loadA, kWgmmaShape.tileM, "A");
  if (tmaB)
    mapped(plan.b, m.loadB, kWgmmaShape.tileN, "B");
  IRMapping mapping;
  ForOp fallback = versionNest(root, use, mapping);
  auto fallbackBlock = cast<BlockOp>(mapping.lookup(block.getOperation()));
  FailureOr<MatmulMatch> fallbackMatch =
      matchMatmul(fallback, fallbackBlock, report);
  if (failed(fallbackMatch) ||
      failed(scheduleTensorCore(fallback, fallbackBlock, *fallbackMatch,
                                *dtype, warpgroup, nullptr)))
    return failure();
  return scheduleTensorCore(root, block, m, *dtype, warpgroup, &plan);
}

/// The schedule of a matched nest; `tma` names the operands TMA loads.
static LogicalResult scheduleTensorCore(ForOp root, BlockOp block,
                                        MatmulMatch &m, Type dtype,
                                        bool warpgroup, const TmaPlan *tma) {
  const TensorCoreShape &shape = warpgroup ? kWgmmaShape : kMmaSyncShape;
  OpBuilder b(root);
  Location loc = root.getLoc();
  auto c = [&](OpBuilder &ob, int64_t v) { return constIndex(ob, loc, v); };
  auto lt = [&](OpBuilder &ob, Value x, Value n) {
    return arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::ult, x, n)
        .getResult();
  };
  auto both = [&](OpBuilder &ob, Value x, Value y) {
    return arith::AndIOp::create(ob, loc, x, y).getResult();
  };
  Type outType = m.accLoad.getType();
  MatmulGrid grid =
      buildMatmulGrid(b, loc, m, shape.tileM, shape.tileN, kTileK);
  ArrayRef<Value> extent = grid.extent;
  Value rows = extent[m.iVar], cols = extent[m.jVar], depth = extent[m.kVar];

  auto shared = [&](ArrayRef<int64_t> shape, Type type, MemoryScope scope) {
    return AllocOp::create(
        b, loc,
        BufferType::get(b.getContext(), relax::SymShape::fromStatic(shape),
                        type, scope));
  };
  // Two stages of each tile: the K step being multiplied and the next one
  // being staged. Padded rows for mma.sync, core matrices for wgmma.
  auto tileShape = [&](int64_t rows) -> SmallVector<int64_t> {
    if (warpgroup)
      return {2, kTileK / kCore, rows / kCore, kCore, kCore};
    return {2, rows, kTileK + kRowPad};
  };
  Value tileA = shared(tileShape(shape.tileM), dtype, MemoryScope::shared);
  Value tileB = shared(tileShape(shape.tileN), dtype, MemoryScope::shared);
  // TMA: an mbarrier per stage, whose phases complete when the stage's
  // copies landed.
  const TmaOperand *tmaA = tma && tma->a.map ? &tma->a : nullptr;
  const TmaOperand *tmaB = tma && tma->b.map ? &tma->b : nullptr;
  Value bars = tma ? shared({2}, b.getI64Type(), MemoryScope::shared) : Value();
  Value acc = shared({shape.accumulators}, b.getF32Type(), MemoryScope::local);
  // Where element (r, kk) of a tile's stage is.
  auto tileIndices = [&](OpBuilder &ob, Value stage, Value r,
                         Value kk) -> SmallVector<Value> {
    if (!warpgroup)
      return {stage, r, kk};
    auto div = [&](Value x) {
      return arith::DivUIOp::create(ob, loc, x, c(ob, kCore)).getResult();
    };
    auto rem = [&](Value x) {
      return arith::RemUIOp::create(ob, loc, x, c(ob, kCore)).getResult();
    };
    return {stage, div(kk), div(r), rem(r), rem(kk)};
  };

  // Whether B's innermost index is its column (a k x n weight, as in
  // matmul) rather than k (an n x k weight, as in linear): then adjacent
  // threads take adjacent columns so that the global reads coalesce.
  bool bColumnMajor = blockVar(block, m.loadB.getIndices().back()) == m.jVar;

  // Stages K step `step` into stage `stage` of the tiles: per thread,
  // elements (or vectors of 8) e * threads + t of each tile.
  auto stageStep = [&](OpBuilder &tb, Value t, Value step, Value stage) {
    Value kBase = arith::MulIOp::create(tb, loc, step, c(tb, kTileK));
    auto stageOne = [&](LoadOp load, Value tile, unsigned outerVar, Value base,
                        Value outerExtent, bool outerFastest) {
      int64_t outer = outerVar == m.iVar ? shape.tileM : shape.tileN;
      int64_t lanes = isVectorStaged(m, block, load) ? kVector : 1;
      int64_t perRow = kTileK / lanes;
      // Core matrices: consecutive threads take consecutive rows of one
      // core-matrix column, so that each 8 threads' 16-byte copies fill
      // distinct banks.
      if (warpgroup && lanes > 1)
        outerFastest = true;
      unrolled(
          tb, loc, outer * perRow / shape.threads, [&](OpBuilder &lb, Value e) {
            Value idx = arith::AddIOp::create(
                lb, loc,
                arith::MulIOp::create(lb, loc, e, c(lb, shape.threads)), t);
            Value r, kk;
            if (outerFastest) {
              r = arith::RemUIOp::create(lb, loc, idx, c(lb, outer));
              kk = arith::DivUIOp::create(lb, loc, idx, c(lb, outer));
            } else {
              r = arith::DivUIOp::create(lb, loc, idx, c(lb, perRow));
              kk = arith::RemUIOp::create(lb, loc, idx, c(lb, perRow));
            }
            if (lanes > 1)
              kk = arith::MulIOp::create(lb, loc, kk, c(lb, lanes));
            SmallVector<Value> vars(grid.base);
            vars[outerVar] = arith::AddIOp::create(lb, loc, base, r);
            vars[m.kVar] = arith::AddIOp::create(lb, loc, kBase, kk);
            // K is a multiple of the vector width when vectors are used: a
            // vector is wholly inside or outside.
            Value in = both(lb, lt(lb, vars[outerVar], outerExtent),
                            lt(lb, vars[m.kVar], depth));
            if (lanes > 1) {
              CopyAsyncOp::create(
                  lb, loc, tile, tileIndices(lb, stage, r, kk),
                  load.getBuffer(),
                  mapBlockIndices(block, load.getIndices(), vars), in, lanes);
              return;
            }
            Value v = guardedLoad(lb, loc, block, load, vars, in);
            StoreOp::create(lb, loc, v, tile, tileIndices(lb, stage, r, kk));
          });
    };
    if (!tmaA)
      stageOne(m.loadA, tileA, m.iVar, grid.rowBase, rows,
               /*outerFastest=*/false);
    if (!tmaB)
      stageOne(m.loadB, tileB, m.jVar, grid.colBase, cols, bColumnMajor);
  };

  // Thread 0's TMA copies of K step `step` into stage `stage`, counted on
  // the stage's mbarrier: the box of each TMA operand's view at [lead..,
  // step * kTileK / 8, the tile's first row, 0].
  auto issueTma = [&](OpBuilder &tb, Value step, Value stage) {
    auto copy = [&](const TmaOperand *operand, LoadOp load, Value tile,
                    unsigned rowVar, Value rowBase, int64_t tileRows) {
      if (!operand)
        return;
      SmallVector<Value> vars(grid.base);
      vars[rowVar] = rowBase;
      vars[m.kVar] = arith::MulIOp::create(tb, loc, step, c(tb, kTileK));
      SmallVector<Value> at = mapBlockIndices(block, load.getIndices(), vars);
      // [lead.., row, k] -> the view's [lead.., k / 8, row, 0].
      SmallVector<Value> corner(at.begin(), at.end() - 2);
      corner.append(
          {arith::MulIOp::create(tb, loc, step, c(tb, kTileK / kCore)),
           at[at.size() - 2], c(tb, 0)});
      SmallVector<int64_t> box(corner.size() - 3, 1);
      box.append({kTileK / kCore, tileRows, kCore});
      TmaLoadOp::create(tb, loc, tile, ValueRange{stage}, load.getBuffer(),
                        corner, operand->viewDims, operand->viewStrides, bars,
                        stage, operand->map, tb.getDenseI64ArrayAttr(box),
                        tb.getI64IntegerAttr(0));
    };
    // The phase expects the bytes of every box it counts (zeros included).
    int64_t elements = (tmaA ? kTileK * shape.tileM : 0) +
                       (tmaB ? kTileK * shape.tileN : 0);
    MbarrierArriveExpectTxOp::create(
        tb, loc, bars, stage, elements * dtype.getIntOrFloatBitWidth() / 8);
    copy(tmaA, m.loadA, tileA, m.iVar, grid.rowBase, shape.tileM);
    copy(tmaB, m.loadB, tileB, m.jVar, grid.colBase, shape.tileN);
  };
  auto isThreadZero = [&](OpBuilder &tb, Value t) {
    return arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::eq, t,
                                 c(tb, 0))
        .getResult();
  };

  // The copies of a thread loop are waited for at its end (and, for
  // wgmma, fenced for the tensor cores' reads), before its barrier.
  auto waitCopies = [&](OpBuilder &tb) {
    if (!tmaA || !tmaB)
      CopyAsyncWaitOp::create(tb, loc, /*asyncProxy=*/warpgroup);
  };
  // The accumulators start at zero; the first K step is staged (with TMA:
  // thread 0 sets up the mbarriers, which the barrier ending this thread
  // loop publishes, and issues the copies).
  threads(b, loc, shape.threads, [&](OpBuilder &tb, Value t) {
    Value zero = arith::ConstantOp::create(tb, loc, tb.getF32FloatAttr(0));
    for (int64_t f = 0; f < shape.accumulators; ++f)
      StoreOp::create(tb, loc, zero, acc, ValueRange{c(tb, f)});
    stageStep(tb, t, c(tb, 0), c(tb, 0));
    waitCopies(tb);
    if (!tma)
      return;
    auto first = scf::IfOp::create(tb, loc, isThreadZero(tb, t),
                                   /*withElse=*/false);
    OpBuilder fb = OpBuilder::atBlockBegin(first.thenBlock());
    for (int64_t stage = 0; stage < 2; ++stage)
      MbarrierInitOp::create(fb, loc, bars, c(fb, stage), /*count=*/1);
    issueTma(fb, c(fb, 0), c(fb, 0));
  });

  // Per K step, one thread loop (one barrier): start staging the next step
  // into the other stage, multiply this one, wait for the copies.
  auto kLoop = ForOp::create(b, loc, c(b, 0), grid.kTiles, c(b, 1),
                             LoopKind::serial, nullptr);
  OpBuilder kb = OpBuilder::atBlockBegin(kLoop.getBody());
  Value step = kLoop.getInductionVar();
  Value current = arith::RemUIOp::create(kb, loc, step, c(kb, 2));
  Value nextStep = arith::AddIOp::create(kb, loc, step, c(kb, 1));
  Value next = arith::SubIOp::create(kb, loc, c(kb, 1), current);
  Value hasNext = lt(kb, nextStep, grid.kTiles);
  threads(kb, loc, shape.threads, [&](OpBuilder &tb, Value t) {
    auto prefetch = scf::IfOp::create(tb, loc, hasNext, /*withElse=*/false);
    OpBuilder pb = OpBuilder::atBlockBegin(prefetch.thenBlock());
    stageStep(pb, t, nextStep, next);
    if (tma) {
      // Thread 0 refills the other stage (every thread finished reading it
      // before the barrier that ended the last step), then all wait for
      // this stage's copies: its use step / 2, so phase parity (step / 2) % 2.
      auto issue = scf::IfOp::create(pb, loc, isThreadZero(pb, t),
                                     /*withElse=*/false);
      OpBuilder ib = OpBuilder::atBlockBegin(issue.thenBlock());
      issueTma(ib, nextStep, next);
      Value parity = arith::RemUIOp::create(
          tb, loc, arith::DivUIOp::create(tb, loc, step, c(tb, 2)), c(tb, 2));
      MbarrierWaitOp::create(tb, loc, bars, current, parity);
    }
    if (warpgroup) {
      // Warpgroup w multiplies rows 64 w.. of the A tile (core-matrix rows
      // 8 w..) by the whole B tile, the K step at once.
      Value w = arith::DivUIOp::create(tb, loc, t, c(tb, kWarpgroupThreads));
      Value inGroup =
          arith::RemUIOp::create(tb, loc, t, c(tb, kWarpgroupThreads));
      Value rowCore = arith::MulIOp::create(tb, loc, w, c(tb, kWgmmaM / kCore));
      WgmmaOp::create(tb, loc, inGroup, acc, ValueRange{c(tb, 0)}, tileA,
                      ValueRange{current, c(tb, 0), rowCore}, tileB,
                      ValueRange{current, c(tb, 0), c(tb, 0)}, kWgmmaN, kTileK);
      waitCopies(tb);
      return;
    }
    // Multiply: every (fragment row, fragment column) pair of the warp per
    // 16-wide slice of the K step, unrolled so that the accumulator
    // indices are constants (registers on the GPU).
    LanePlace p = getLanePlace(tb, loc, t);
    for (int64_t ks = 0; ks < kTileK / kMmaK; ++ks)
      for (int64_t fm = 0; fm < kFragsM; ++fm)
        for (int64_t fn = 0; fn < kFragsN; ++fn) {
          Value aRow =
              arith::AddIOp::create(tb, loc, p.warpRow, c(tb, fm * kMmaM));
          Value bRow =
              arith::AddIOp::create(tb, loc, p.warpCol, c(tb, fn * kMmaN));
          Value kOff = c(tb, ks * kMmaK);
          MmaSyncOp::create(tb, loc, p.lane, acc,
                            ValueRange{c(tb, (fm * kFragsN + fn) * 4)}, tileA,
                            ValueRange{current, aRow, kOff}, tileB,
                            ValueRange{current, bRow, kOff});
        }
    waitCopies(tb);
  });

  // Epilogue: accumulator element i of fragment (fm, fn) is output row
  // g + 8 * (i / 2), column 2q + i % 2 of that fragment.
  b.setInsertionPointAfter(kLoop);
  // Stores accumulator `index` at (row, col) of the block's tile, if inside.
  auto storeOutput = [&](OpBuilder &tb, Value row, Value col, int64_t index) {
    SmallVector<Value> vars(grid.base);
    vars[m.iVar] = arith::AddIOp::create(tb, loc, grid.rowBase, row);
    vars[m.jVar] = arith::AddIOp::create(tb, loc, grid.colBase, col);
    auto guard = scf::IfOp::create(
        tb, loc,
        both(tb, lt(tb, vars[m.iVar], rows), lt(tb, vars[m.jVar], cols)),
        /*withElse=*/false);
    OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
    Value v = LoadOp::create(gb, loc, acc, ValueRange{c(gb, index)});
    if (outType != v.getType())
      v = arith::TruncFOp::create(gb, loc, outType, v);
    StoreOp::create(gb, loc, v, m.accStore.getBuffer(),
                    mapBlockIndices(block, m.accStore.getIndices(), vars));
  };
  if (warpgroup) {
    // Accumulator 4 j + i of thread t is row 64 (t / 128) + 16 w + g +
    // 8 (i / 2), column 8 j + 2 q + i % 2 (w the warp in the warpgroup).
    threads(b, loc, shape.threads, [&](OpBuilder &tb, Value t) {
      Value warp = arith::DivUIOp::create(tb, loc, t, c(tb, 32));
      LanePlace p = getLanePlace(tb, loc, t);
      Value row = arith::AddIOp::create(
          tb, loc, arith::MulIOp::create(tb, loc, warp, c(tb, kMmaM)), p.g);
      Value col = arith::MulIOp::create(tb, loc, p.q, c(tb, 2));
      for (int64_t j = 0; j < kWgmmaN / kMmaN; ++j)
        for (int64_t i = 0; i < 4; ++i)
          storeOutput(
              tb, arith::AddIOp::create(tb, loc, row, c(tb, 8 * (i / 2))),
              arith::AddIOp::create(tb, loc, col, c(tb, kMmaN * j + i % 2)),
              4 * j + i);
    });
    root.erase();
    return success();
  }
  threads(b, loc, shape.threads, [&](OpBuilder &tb, Value t) {
    LanePlace p = getLanePlace(tb, loc, t);
    Value rowOfLane = arith::AddIOp::create(tb, loc, p.warpRow, p.g);
    Value colOfLane = arith::AddIOp::create(
        tb, loc, p.warpCol, arith::MulIOp::create(tb, loc, p.q, c(tb, 2)));
    for (int64_t fm = 0; fm < kFragsM; ++fm)
      for (int64_t fn = 0; fn < kFragsN; ++fn)
        for (int64_t i = 0; i < 4; ++i)
          storeOutput(tb,
                      arith::AddIOp::create(tb, loc, rowOfLane,
                                            c(tb, fm * kMmaM + 8 * (i / 2))),
                      arith::AddIOp::create(tb, loc, colOfLane,
                                            c(tb, fn * kMmaN + i % 2)),
                      (fm * kFragsN + fn) * 4 + i);
  });
  root.erase();
  return success();
}
