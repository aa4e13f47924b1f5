//===- FlashAttentionTensorCore.cpp - Flash attention on mma.sync --------===//
//
// The tensor-core body of the flash-attention kernel (f16 / bf16, head dims
// multiples of 16 up to 128; FlashAttention.cpp builds the grid and the key
// range of each block, and the CUDA-core body for everything else).
//
// A block owns 32 query rows and streams tiles of 32 keys. Its 4 warps are
// 2 x 2: warps 2 wr and 2 wr + 1 both compute the 16 x 32 scores of rows
// 16 wr (Q K^T: 4 m16n8k16 tiles per 16 of d), so that a row's scores never
// leave one warp. The softmax then runs on the accumulator fragments: lane
// (g = lane / 4, q = lane % 4) holds rows g and g + 8, columns 2q and 2q + 1
// of each 8-key tile, so a row's maximum is the lane's over its 8 scores,
// then over the 4 lanes of the row (a clustered gpu.subgroup_reduce: two
// shfl.xor, 1 and 2). The sum l stays a per-lane partial (rescaled with the
// row's factor like the accumulators) and is reduced over the row's lanes
// once, after the key loop. p = exp(x - m) is rounded to the input dtype in
// registers and, as the C fragments of two adjacent 8-key tiles are the A
// fragment of a 16-key step (the FlashAttention-2 layout identity), fed to
// the P V mma.sync as its A operand from registers (a `local` operand of
// tir.mma_sync). Warp (wr, wc) adds P times columns wc dv / 2 .. + dv / 2
// of V, read from the tile in its global layout (keys by columns: the
// k-by-n B operand).
//
// The other grid, warps of whole rows each owning every key and every
// column (FlashAttention-2's 64-row tile), would compute Q K^T once instead
// of twice, but needs dv / 2 accumulators per lane (64 at dv = 128) and a
// 64-row Q tile that, with two stages of K and V, passes the 48 KiB of
// static shared memory at d = 128; exchanging the row maxima of the two
// column warps through shared memory costs a barrier per key tile. Q K^T
// twice is 16 extra HMMA per warp and key tile at d = 128 (48 instead of
// 32), on the unit that is not this kernel's bound (docs/gpu.md).
//
// K and V are staged with 16-byte cp.async (tir.copy_async; zero fill past
// skv) in two stages: the thread loop of key tile jt first starts the
// copies of tile jt + 1 into the other stage, computes tile jt, and waits
// for its copies before the barrier that ends it, so that a tile's loads
// fly during the previous tile's products. Q is staged the same way once.
//
//===----------------------------------------------------------------------===//

#include "FlashAttentionKernel.h"

#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;
using namespace mlir::tir::schedule::flash;

namespace {
/// The m16n8k16 shape.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;
/// Row padding of the f16 / bf16 shared tiles (as the tensor-core matmul):
/// the 8 rows a fragment read touches start in distinct bank groups, and
/// rows stay multiples of 16 bytes for cp.async.
constexpr int64_t kRowPad = 8;
/// Elements of one 16-byte cp.async.
constexpr int64_t kCopyLanes = 8;
/// Lanes that share a row of an accumulator fragment.
constexpr uint32_t kLanesPerRow = 4;

/// A lane's place in the warp grid: its lane, group g and position q, the
/// first score row of its warp and its first output column.
struct MmaLane {
  Value lane, g, q, rowBase, colBase;
};

/// The per-thread registers of the body (block-level `local` buffers:
/// they live across the thread loops of the key loop).
struct Registers {
  /// The warp's dv / 2 output columns: dv / 16 fragments of 4.
  Value acc;
  /// The tile's scores (4 fragments of 4), then P in the input dtype: the
  /// A fragments of the two 16-key steps of P V.
  Value scores, p;
  /// Per fragment row (g, g + 8): m, then the lane's partial l, then the
  /// tile's rescale factor.
  Value stats;
};

/// Offsets in Registers::stats.
enum Stat : int64_t { kMax = 0, kSum = 2, kScale = 4 };
} // namespace

void flash::buildTensorCoreFlashBody(OpBuilder &bb, const FlashBlock &fb) {
  const KernelBuilder &kb = fb.kb;
  const Attention &a = fb.a;
  Location loc = kb.loc;
  const int64_t br = a.br, bc = a.bc, d = a.d, dv = a.dv;
  const int64_t scoreTiles = bc / kMmaN, outTiles = dv / 2 / kMmaN;
  Value sq = kb.alloc(bb, {br, d + kRowPad}, MemoryScope::shared, a.dtype);
  Value sk = kb.alloc(bb, {2, bc, d + kRowPad}, MemoryScope::shared, a.dtype);
  Value sv = kb.alloc(bb, {2, bc, dv + kRowPad}, MemoryScope::shared, a.dtype);
  Registers reg;
  reg.acc = kb.alloc(bb, {outTiles * 4}, MemoryScope::local);
  reg.scores = kb.alloc(bb, {scoreTiles * 4}, MemoryScope::local);
  reg.p = kb.alloc(bb, {scoreTiles * 4}, MemoryScope::local, a.dtype);
  reg.stats = kb.alloc(bb, {6}, MemoryScope::local);

  auto mmaLane = [&](OpBuilder &b, Value t) {
    MmaLane m;
    m.lane = kb.rem(b, t, kb.c(b, 32));
    Value warp = kb.div(b, t, kb.c(b, 32));
    m.rowBase = kb.mul(b, kb.div(b, warp, kb.c(b, 2)), kb.c(b, kMmaM));
    m.colBase = kb.mul(b, kb.rem(b, warp, kb.c(b, 2)), kb.c(b, dv / 2));
    m.g = kb.div(b, m.lane, kb.c(b, 4));
    m.q = kb.rem(b, m.lane, kb.c(b, 4));
    return m;
  };
  // Column 2q + c of the fragment whose first column is col0.
  auto fragmentCol = [&](OpBuilder &b, const MmaLane &m, Value col0,
                         int64_t c) {
    return kb.add(b, col0, kb.add(b, kb.mul(b, m.q, kb.c(b, 2)), kb.c(b, c)));
  };
  auto fragmentRow = [&](OpBuilder &b, const MmaLane &m, int64_t half) {
    return kb.add(b, m.rowBase, kb.add(b, m.g, kb.c(b, 8 * half)));
  };
  auto reg1 = [&](OpBuilder &b, Value buf, int64_t i) {
    return kb.load(b, buf, kb.c(b, i));
  };
  auto setReg = [&](OpBuilder &b, Value x, Value buf, int64_t i) {
    kb.store(b, x, buf, kb.c(b, i));
  };
  // Thread t's 16-byte copies of a `rows` x `width` tile into dst[lead..];
  // `source` gives row r's bounds check and the source indices of column
  // `col`.
  auto stage = [&](OpBuilder &b, Value t, Value dst, ValueRange lead,
                   int64_t rows, int64_t width, Value src,
                   function_ref<std::pair<Value, SmallVector<Value>>(
                       OpBuilder &, Value, Value)>
                       source) {
    int64_t perRow = width / kCopyLanes;
    kb.strided(b, t, rows * perRow, [&](OpBuilder &sb, Value p) {
      Value r = kb.div(sb, p, kb.c(sb, perRow));
      Value col = kb.mul(sb, kb.rem(sb, p, kb.c(sb, perRow)),
                         kb.c(sb, kCopyLanes));
      auto [in, srcIndices] = source(sb, r, col);
      SmallVector<Value> dstIndices(lead);
      dstIndices.append({r, col});
      CopyAsyncOp::create(sb, loc, dst, dstIndices, src, srcIndices, in,
                          kCopyLanes);
    });
  };
  // The copies of key tile jt's K and V into stage `st` (zero past skv).
  auto stageKeys = [&](OpBuilder &b, Value t, Value st, Value jt) {
    Value j0 = fb.tileStart(b, jt);
    auto keyRow = [&](OpBuilder &sb, Value r, Value col) {
      Value j = kb.add(sb, j0, r);
      return std::make_pair(kb.lt(sb, j, a.skv),
                            SmallVector<Value>{fb.bi, j, fb.kvh, col});
    };
    stage(b, t, sk, st, bc, d, a.k, keyRow);
    stage(b, t, sv, st, bc, dv, a.v, keyRow);
  };

  // Start: m = -inf, l = 0, accumulators 0; Q and the first key tile
  // staged.
  kb.threads(bb, kThreads, [&](OpBuilder &tb, Value t) {
    for (int64_t half = 0; half < 2; ++half) {
      setReg(tb, kb.f(tb, -std::numeric_limits<double>::infinity()),
             reg.stats, kMax + half);
      setReg(tb, kb.f(tb, 0.0), reg.stats, kSum + half);
    }
    for (int64_t i = 0; i < outTiles * 4; ++i)
      setReg(tb, kb.f(tb, 0.0), reg.acc, i);
    stage(tb, t, sq, {}, br, d, a.q,
          [&](OpBuilder &sb, Value r, Value col) {
            Row row = fb.rowOf(sb, r);
            return std::make_pair(
                row.in, SmallVector<Value>{fb.bi, row.i, row.h, col});
          });
    stageKeys(tb, t, kb.c(tb, 0), kb.c(tb, 0));
    CopyAsyncWaitOp::create(tb, loc);
  });

  ForOp keyLoop = kb.loop(
      bb, fb.keyTiles, LoopKind::serial, {}, [&](OpBuilder &lb, Value jt) {
        Value cur = kb.rem(lb, jt, kb.c(lb, 2));
        Value nextTile = kb.add(lb, jt, kb.c(lb, 1));
        Value next = kb.rem(lb, nextTile, kb.c(lb, 2));
        Value j0 = fb.tileStart(lb, jt);
        kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
          // The next tile's loads fly during this tile's products.
          kb.ifThen(tb, kb.lt(tb, nextTile, fb.keyTiles),
                    [&](OpBuilder &gb) { stageKeys(gb, t, next, nextTile); });
          MmaLane m = mmaLane(tb, t);
          // S = Q K^T: the warp's 16 rows by the tile's 32 keys.
          for (int64_t i = 0; i < scoreTiles * 4; ++i)
            setReg(tb, kb.f(tb, 0.0), reg.scores, i);
          kb.serial(tb, kb.c(tb, d / kMmaK), [&](OpBuilder &eb, Value kk) {
            Value k0 = kb.mul(eb, kk, kb.c(eb, kMmaK));
            for (int64_t fn = 0; fn < scoreTiles; ++fn)
              MmaSyncOp::create(eb, loc, m.lane, reg.scores,
                                ValueRange{kb.c(eb, fn * 4)}, sq,
                                ValueRange{m.rowBase, k0}, sk,
                                ValueRange{cur, kb.c(eb, fn * kMmaN), k0},
                                /*bKByN=*/false);
          });
          // Per fragment row: the scores scaled and masked in place, the
          // tile's row max over the lane's 8 and then the row's 4 lanes, the
          // new running max and the rescale factor of what came before.
          for (int64_t half = 0; half < 2; ++half) {
            Row row = fb.rowOf(tb, fragmentRow(tb, m, half));
            Value tileMax = kb.f(tb, -std::numeric_limits<double>::infinity());
            for (int64_t fn = 0; fn < scoreTiles; ++fn)
              for (int64_t c = 0; c < 2; ++c) {
                int64_t e = fn * 4 + half * 2 + c;
                Value j = fragmentCol(
                    tb, m, kb.add(tb, j0, kb.c(tb, fn * kMmaN)), c);
                Value x =
                    fb.maskedScore(tb, reg1(tb, reg.scores, e), row, j);
                setReg(tb, x, reg.scores, e);
                tileMax = arith::MaximumFOp::create(tb, loc, tileMax, x);
              }
            tileMax = gpu::SubgroupReduceOp::create(
                tb, loc, tileMax, gpu::AllReduceOperation::MAXIMUMF,
                /*uniform=*/true, kLanesPerRow);
            // Every visited tile has a key below skv: the new max is finite.
            Value mOld = reg1(tb, reg.stats, kMax + half);
            Value mNew = arith::MaximumFOp::create(tb, loc, mOld, tileMax);
            setReg(tb, mNew, reg.stats, kMax + half);
            setReg(tb,
                   math::ExpOp::create(
                       tb, loc, arith::SubFOp::create(tb, loc, mOld, mNew)),
                   reg.stats, kScale + half);
          }
          // P = exp(x - m) rounded to the input dtype; l (the lane's part)
          // sums the rounded values, which P V multiplies.
          for (int64_t half = 0; half < 2; ++half) {
            Value mNew = reg1(tb, reg.stats, kMax + half);
            Value alpha = reg1(tb, reg.stats, kScale + half);
            Value sum = arith::MulFOp::create(
                tb, loc, reg1(tb, reg.stats, kSum + half), alpha);
            for (int64_t fn = 0; fn < scoreTiles; ++fn)
              for (int64_t c = 0; c < 2; ++c) {
                int64_t e = fn * 4 + half * 2 + c;
                Value p = math::ExpOp::create(
                    tb, loc,
                    arith::SubFOp::create(tb, loc, reg1(tb, reg.scores, e),
                                          mNew));
                Value rounded = arith::TruncFOp::create(tb, loc, a.dtype, p);
                setReg(tb, rounded, reg.p, e);
                sum = arith::AddFOp::create(
                    tb, loc, sum,
                    arith::ExtFOp::create(tb, loc, kb.f32, rounded));
              }
            setReg(tb, sum, reg.stats, kSum + half);
            for (int64_t fn = 0; fn < outTiles; ++fn)
              for (int64_t c = 0; c < 2; ++c) {
                int64_t e = fn * 4 + half * 2 + c;
                setReg(tb,
                       arith::MulFOp::create(tb, loc, reg1(tb, reg.acc, e),
                                             alpha),
                       reg.acc, e);
              }
          }
          // acc += P V: the A fragment of 16-key step kk is P's elements
          // 8 kk .. 8 kk + 7 (score tiles 2 kk and 2 kk + 1).
          for (int64_t kk = 0; kk < bc / kMmaK; ++kk)
            for (int64_t fn = 0; fn < outTiles; ++fn)
              MmaSyncOp::create(
                  tb, loc, m.lane, reg.acc, ValueRange{kb.c(tb, fn * 4)},
                  reg.p, ValueRange{kb.c(tb, kk * 8)}, sv,
                  ValueRange{cur, kb.c(tb, kk * kMmaK),
                             kb.add(tb, m.colBase, kb.c(tb, fn * kMmaN))},
                  /*bKByN=*/true);
          CopyAsyncWaitOp::create(tb, loc);
        });
      });
  keyLoop.setLoopName("kv_tiles");

  // The row sums over the row's 4 lanes, then the results of the rows
  // inside s. Both warps of a pair hold the same m and l; the first stores
  // them.
  kb.threads(bb, kThreads, [&](OpBuilder &tb, Value t) {
    for (int64_t half = 0; half < 2; ++half)
      setReg(tb,
             gpu::SubgroupReduceOp::create(
                 tb, loc, reg1(tb, reg.stats, kSum + half),
                 gpu::AllReduceOperation::ADD, /*uniform=*/true, kLanesPerRow),
             reg.stats, kSum + half);
    MmaLane m = mmaLane(tb, t);
    for (int64_t half = 0; half < 2; ++half) {
      Value r = fragmentRow(tb, m, half);
      Value l = reg1(tb, reg.stats, kSum + half);
      if (fb.split) {
        Value first = arith::AndIOp::create(
            tb, loc,
            arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::eq, m.q,
                                  kb.c(tb, 0)),
            arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::eq,
                                  m.colBase, kb.c(tb, 0)));
        kb.ifThen(tb, first, [&](OpBuilder &gb) {
          fb.storeStats(gb, r, reg1(gb, reg.stats, kMax + half), l);
        });
      }
      for (int64_t fn = 0; fn < outTiles; ++fn)
        for (int64_t c = 0; c < 2; ++c)
          fb.storeOutput(
              tb, r,
              fragmentCol(tb, m, kb.add(tb, m.colBase, kb.c(tb, fn * kMmaN)),
                          c),
              reg1(tb, reg.acc, fn * 4 + half * 2 + c), l);
    }
  });
}
