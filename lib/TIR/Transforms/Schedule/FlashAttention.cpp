//===- FlashAttention.cpp - The GPU kernel of relax.attention -------------===//
//
// The legalized relax.attention (Legalize/NN.cpp) is one streaming program
// with a parallel loop over (batch, head, query row): on the GPU the
// default schedule would give each row one thread that reads all of K and V
// from global memory on its own. This builds the flash-attention kernel
// instead, from the program's parameters and the `tir.attention` hint the
// legalizer leaves on it (causal, scale):
//
//   - a thread block owns a tile of query rows of one key/value head. Its
//     rows are (query position i, head of the group g) pairs, i major, so
//     that the hq / hkv query heads that share a key/value head (grouped-
//     query attention) share its K / V tiles, and a decode step (s = 1)
//     still fills group-many rows;
//   - per tile of keys the block stages K and V in shared memory (f32,
//     zero past skv), computes the tile's scores into shared memory (keys
//     past skv are -inf; causal-masked keys the lowest finite f32, as the
//     reference semantics, so a row with no visible key averages every
//     value), then each row updates its running max m and sum l (online
//     softmax: the sum and the accumulator are rescaled by exp(m_old -
//     m_new)) and every thread adds P V into its accumulators, which live
//     in registers across the key loop (a block-level `local` buffer);
//   - O is written once, acc / l, rounded to the output dtype.
//
// Causal (bottom-right aligned: key j visible from query i iff j + s <= i +
// skv) ends the key loop after the last tile any row of the block sees.
// Query rows and keys past the symbolic s and skv are tails: padded with
// zeros, never stored. Narrow floats (f16, bf16) accumulate in f32.
//
// On tensor cores (f16 / bf16, head dims multiples of 16 up to 128) the
// tiles hold the input dtype and the two products are tir.mma_sync: each of
// the 4 warps computes a 16 x 16 block of the scores (Q K^T) and adds P V
// into the 16 rows by dv / 2 columns it owns, whose accumulators are the
// lanes' fragments; the softmax between them still runs one thread per row
// on the f32 scores in shared memory, and rounds P to the input dtype.
//
// Decode (all query rows of a kv head in one tile) with more than one chunk
// of keys is split over the keys (flash decoding): one block per (batch, kv
// head, chunk of 128 keys) runs the same key loop over its chunk and stores
// its rows' partial max, sum and undivided accumulators to global scratch;
// a second kernel merges the chunks of each output element. With symbolic
// lengths both versions are kept under an scf.if the host evaluates per
// call.
//
//===----------------------------------------------------------------------===//

#include "MatmulMatch.h"

#include "RelaxDialect/TIR/IR/OpPattern.h"
#include "RelaxDialect/TIR/IR/TIRBuilder.h"
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;

namespace {
/// Threads per block: four warps.
constexpr int64_t kThreads = 128;
/// Static shared memory a kernel may use without opting in.
constexpr int64_t kSharedBytes = 48 * 1024;
/// At most this many f32 accumulators per thread (registers).
constexpr int64_t kMaxAccumulators = 32;

/// Query rows and keys of a block's tiles.
struct Tiles {
  int64_t rows, keys;
};

/// The shared buffers of the kernel, f32, rows padded by one element where a
/// warp reads down a column (scores by key, softmax by row), so that its
/// lanes hit distinct banks. On tensor cores q, k, v and p (the softmax's
/// probabilities) hold the input dtype, rows padded by 8 elements, v
/// transposed (the n-by-k operand of P V).
struct SharedTiles {
  Value q, k, v, p, scores, rowMax, rowSum, rowScale;
};
} // namespace

/// The largest tiles whose shared memory fits the static limit and whose
/// accumulators fit the register budget; each has rows * keys a multiple
/// of the block size (every thread owns whole scores).
static std::optional<Tiles> pickTiles(int64_t d, int64_t dv) {
  static constexpr Tiles candidates[] = {{32, 32}, {32, 16}, {16, 16}, {16, 8}};
  for (Tiles t : candidates) {
    int64_t floats = t.rows * (d + 1) + t.keys * (d + 1) + t.keys * dv +
                     t.rows * (t.keys + 1) + 3 * t.rows;
    int64_t accumulators = (t.rows * dv + kThreads - 1) / kThreads;
    if (4 * floats <= kSharedBytes && accumulators <= kMaxAccumulators)
      return t;
  }
  return std::nullopt;
}

namespace {
/// Builds the kernel body; the helpers keep it to the algorithm.
struct KernelBuilder {
  Location loc;
  Type f32;

  Value c(OpBuilder &b, int64_t v) const { return constIndex(b, loc, v); }
  Value f(OpBuilder &b, double v) const {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value add(OpBuilder &b, Value x, Value y) const {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(OpBuilder &b, Value x, Value y) const {
    return arith::MulIOp::create(b, loc, x, y);
  }
  Value div(OpBuilder &b, Value x, Value y) const {
    return arith::DivUIOp::create(b, loc, x, y);
  }
  Value rem(OpBuilder &b, Value x, Value y) const {
    return arith::RemUIOp::create(b, loc, x, y);
  }
  Value lt(OpBuilder &b, Value x, Value y) const {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value load(OpBuilder &b, Value buf, ValueRange idx) const {
    return LoadOp::create(b, loc, buf, idx);
  }
  void store(OpBuilder &b, Value x, Value buf, ValueRange idx) const {
    StoreOp::create(b, loc, x, buf, idx);
  }
  /// An element of an input in f32 (or, with `keepDtype`, in its own
  /// dtype), or 0 where `in` is false.
  Value loadF32Or0(OpBuilder &b, Value in, Value buf, ValueRange idx,
                   bool keepDtype = false) const {
    Type type = keepDtype ? cast<BufferType>(buf.getType()).getDtype() : f32;
    auto guard = scf::IfOp::create(b, loc, TypeRange{type}, in,
                                   /*withElseRegion=*/true);
    OpBuilder tb = guard.getThenBodyBuilder();
    Value x = load(tb, buf, idx);
    if (x.getType() != type)
      x = arith::ExtFOp::create(tb, loc, type, x);
    scf::YieldOp::create(tb, loc, x);
    OpBuilder eb = guard.getElseBodyBuilder();
    scf::YieldOp::create(
        eb, loc,
        arith::ConstantOp::create(eb, loc, eb.getFloatAttr(type, 0.0))
            .getResult());
    return guard.getResult(0);
  }
  /// Runs `body` under `if (cond)`.
  void ifThen(OpBuilder &b, Value cond,
              function_ref<void(OpBuilder &)> body) const {
    auto guard = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder tb = OpBuilder::atBlockBegin(guard.thenBlock());
    body(tb);
  }
  /// A loop `0 to n` of the given kind; `body` gets its variable.
  ForOp loop(OpBuilder &b, Value n, LoopKind kind, StringRef thread,
             function_ref<void(OpBuilder &, Value)> body) const {
    auto l = ForOp::create(b, loc, c(b, 0), n, c(b, 1), kind, nullptr, thread);
    OpBuilder lb = OpBuilder::atBlockBegin(l.getBody());
    body(lb, l.getInductionVar());
    return l;
  }
  void serial(OpBuilder &b, Value n,
              function_ref<void(OpBuilder &, Value)> body) const {
    loop(b, n, LoopKind::serial, {}, body);
  }
  /// A thread loop of `n` threads (one barrier after it on the GPU).
  void threads(OpBuilder &b, int64_t n,
               function_ref<void(OpBuilder &, Value)> body) const {
    loop(b, c(b, n), LoopKind::thread_binding, "threadIdx.x", body);
  }
  /// Thread `t`'s elements t, t + kThreads, ... of a `total`-element tile,
  /// one iteration each (a serial loop: staging needs no registers).
  void strided(OpBuilder &b, Value t, int64_t total,
               function_ref<void(OpBuilder &, Value)> body) const {
    serial(b, c(b, (total + kThreads - 1) / kThreads),
           [&](OpBuilder &lb, Value k) {
             Value p = add(lb, mul(lb, k, c(lb, kThreads)), t);
             if (total % kThreads == 0)
               return body(lb, p);
             ifThen(lb, lt(lb, p, c(lb, total)),
                    [&](OpBuilder &gb) { body(gb, p); });
           });
  }
  /// The number of elements t + k * kThreads a thread owns in a
  /// `total`-element tile.
  static int64_t numSlots(int64_t total) {
    return (total + kThreads - 1) / kThreads;
  }
  /// Runs `body` for slot `k`'s element `p`, under `if (p < total)` when
  /// that slot can pass the end of the tile.
  void inTile(OpBuilder &b, int64_t k, Value p, int64_t total,
              function_ref<void(OpBuilder &)> body) const {
    if ((k + 1) * kThreads <= total)
      return body(b);
    ifThen(b, lt(b, p, c(b, total)), body);
  }
  /// Thread `t`'s elements t + k * kThreads of a `total`-element tile,
  /// unrolled (k is a constant, so per-slot registers stay registers);
  /// `body` gets k and the element.
  void
  unrolledSlots(OpBuilder &b, Value t, int64_t total,
                function_ref<void(OpBuilder &, int64_t, Value)> body) const {
    for (int64_t k = 0; k < numSlots(total); ++k) {
      Value p = add(b, t, c(b, k * kThreads));
      inTile(b, k, p, total, [&](OpBuilder &gb) { body(gb, k, p); });
    }
  }
};
} // namespace
namespace {
/// What the kernels are built from: the attention program's buffers, its
/// constants and the index values of its dims at the function's entry.
struct Attention {
  Value q, k, v, o;
  Type dtype;
  int64_t d, dv, br, bc;
  bool causal;
  /// Q K^T and P V on tensor cores (f16 / bf16, tiles of 32 x 32).
  bool tensorCores;
  double scale;
  Value nb, s, hq, skv, hkv, group, rows;
};

/// The tensor-core layout: 4 warps in 2 x 2, warp (wr, wc) owning rows
/// 16 wr .. + 16 of the tile, keys 16 wc .. + 16 of the scores (two 16 x 8
/// mma tiles) and columns wc dv / 2 .. + dv / 2 of the output (dv / 16 mma
/// tiles, 4 accumulators each per lane).
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;
/// Row padding of the f16 / bf16 shared tiles (as the tensor-core matmul):
/// the 8 rows a fragment read touches start in distinct bank groups.
constexpr int64_t kMmaRowPad = 8;

/// A lane's place in the tensor-core layout.
struct MmaLane {
  Value lane, rowBase, g, q, warpCol;
};

/// Flash decoding: each block of the first kernel visits one chunk of
/// kKeysPerChunk keys and leaves its rows' partial max, sum and (not yet
/// divided) accumulators in global buffers, at row (block * rowStride +
/// row of the head); the combine kernel merges the chunks of each row.
/// rowStride is the head's row count when it is a constant, else the tile's
/// (the split runs only when the rows fit one tile).
struct KeySplit {
  Value chunks;
  int64_t rowStride;
  Value partMax, partSum, partOut;
};
} // namespace

/// Keys per block of the split kernel: a multiple of every tile's key count,
/// so that no key tile straddles two chunks.
static constexpr int64_t kKeysPerChunk = 128;

/// Builds the flash-attention kernel at `b`: one block per (batch, kv head,
/// query tile), or, with `split`, per (batch, kv head, key chunk) over the
/// head's only query tile. Returns its block loop.
static ForOp buildFlashKernel(OpBuilder &b, const KernelBuilder &kb,
                              const Attention &a, const KeySplit *split) {
  Location loc = kb.loc;
  const int64_t br = a.br, bc = a.bc, d = a.d, dv = a.dv;
  const bool tc = a.tensorCores;
  // Blocks per (batch, kv head): its query tiles, or its key chunks.
  Value perHead = split ? split->chunks : ceilDiv(b, loc, a.rows, br);
  Value grid = kb.mul(b, kb.mul(b, a.nb, a.hkv), perHead);

  ForOp blockLoop = kb.loop(
      b, grid, LoopKind::thread_binding, "blockIdx.x",
      [&](OpBuilder &bb, Value blk) {
        Value sub = kb.rem(bb, blk, perHead);
        Value bh = kb.div(bb, blk, perHead);
        Value kvh = kb.rem(bb, bh, a.hkv), bi = kb.div(bb, bh, a.hkv);
        Value row0 = split ? kb.c(bb, 0) : kb.mul(bb, sub, kb.c(bb, br));
        auto alloc = [&](ArrayRef<int64_t> shape, MemoryScope scope,
                         Type type = {}) {
          return AllocOp::create(
                     bb, loc,
                     BufferType::get(bb.getContext(),
                                     relax::SymShape::fromStatic(shape),
                                     type ? type : kb.f32, scope))
              .getResult();
        };
        SharedTiles sh;
        if (tc) {
          sh.q = alloc({br, d + kMmaRowPad}, MemoryScope::shared, a.dtype);
          sh.k = alloc({bc, d + kMmaRowPad}, MemoryScope::shared, a.dtype);
          sh.v = alloc({dv, bc + kMmaRowPad}, MemoryScope::shared, a.dtype);
          sh.p = alloc({br, bc + kMmaRowPad}, MemoryScope::shared, a.dtype);
        } else {
          sh.q = alloc({br, d + 1}, MemoryScope::shared);
          sh.k = alloc({bc, d + 1}, MemoryScope::shared);
          sh.v = alloc({bc, dv}, MemoryScope::shared);
        }
        sh.scores = alloc({br, bc + 1}, MemoryScope::shared);
        sh.rowMax = alloc({br}, MemoryScope::shared);
        sh.rowSum = alloc({br}, MemoryScope::shared);
        sh.rowScale = alloc({br}, MemoryScope::shared);
        // Each thread's share of the [br, dv] output tile: registers that live
        // across the key loop.
        const int64_t outTile = br * dv;
        Value acc = alloc({tc ? dv / 4 : KernelBuilder::numSlots(outTile)},
                          MemoryScope::local);

        // A lane's place in the tensor-core layout.
        auto mmaLane = [&](OpBuilder &ob, Value t) {
          MmaLane m;
          m.lane = kb.rem(ob, t, kb.c(ob, 32));
          Value warp = kb.div(ob, t, kb.c(ob, 32));
          m.rowBase =
              kb.mul(ob, kb.div(ob, warp, kb.c(ob, 2)), kb.c(ob, kMmaM));
          m.warpCol = kb.rem(ob, warp, kb.c(ob, 2));
          m.g = kb.div(ob, m.lane, kb.c(ob, 4));
          m.q = kb.rem(ob, m.lane, kb.c(ob, 4));
          return m;
        };
        // Row and column of element i of the lane's 16 x 8 fragment whose
        // corner is (rowBase, col0).
        auto fragment = [&](OpBuilder &ob, const MmaLane &m, Value col0,
                            int64_t i) {
          Value r =
              kb.add(ob, m.rowBase, kb.add(ob, m.g, kb.c(ob, 8 * (i / 2))));
          Value cc =
              kb.add(ob, col0,
                     kb.add(ob, kb.mul(ob, m.q, kb.c(ob, 2)), kb.c(ob, i % 2)));
          return std::make_pair(r, cc);
        };
        // Runs `body` for each of thread t's accumulators: its index, row and
        // column in the [br, dv] output tile.
        auto forEachAcc =
            [&](OpBuilder &ob, Value t,
                function_ref<void(OpBuilder &, int64_t, Value, Value)> body) {
              if (!tc)
                return kb.unrolledSlots(ob, t, outTile,
                                        [&](OpBuilder &sb, int64_t k, Value p) {
                                          Value r = kb.div(sb, p, kb.c(sb, dv)),
                                                e = kb.rem(sb, p, kb.c(sb, dv));
                                          body(sb, k, r, e);
                                        });
              MmaLane m = mmaLane(ob, t);
              Value colBase = kb.mul(ob, m.warpCol, kb.c(ob, dv / 2));
              for (int64_t fn = 0; fn < dv / 2 / kMmaN; ++fn)
                for (int64_t i = 0; i < 4; ++i) {
                  auto [r, e] = fragment(
                      ob, m, kb.add(ob, colBase, kb.c(ob, fn * kMmaN)), i);
                  body(ob, fn * 4 + i, r, e);
                }
            };

        // Tile row r: query position i and head h of the global row row0 + r.
        struct Row {
          Value in, i, h;
        };
        auto rowOf = [&](OpBuilder &ob, Value r) {
          Value gr = kb.add(ob, row0, r);
          return Row{
              kb.lt(ob, gr, a.rows), kb.div(ob, gr, a.group),
              kb.add(ob, kb.mul(ob, kvh, a.group), kb.rem(ob, gr, a.group))};
        };
        Value negInf = arith::ConstantOp::create(
            bb, loc,
            bb.getF32FloatAttr(-std::numeric_limits<float>::infinity()));

        // Start: m = -inf, l = 0, accumulators 0; the query tile staged.
        kb.threads(bb, kThreads, [&](OpBuilder &tb, Value t) {
          kb.ifThen(tb, kb.lt(tb, t, kb.c(tb, br)), [&](OpBuilder &gb) {
            kb.store(gb, negInf, sh.rowMax, t);
            kb.store(gb, kb.f(gb, 0.0), sh.rowSum, t);
          });
          if (tc)
            forEachAcc(tb, t, [&](OpBuilder &sb, int64_t k, Value, Value) {
              kb.store(sb, kb.f(sb, 0.0), acc, kb.c(sb, k));
            });
          else
            kb.unrolledSlots(tb, t, outTile,
                             [&](OpBuilder &sb, int64_t k, Value) {
                               kb.store(sb, kb.f(sb, 0.0), acc, kb.c(sb, k));
                             });
          kb.strided(tb, t, br * d, [&](OpBuilder &sb, Value p) {
            Value r = kb.div(sb, p, kb.c(sb, d)),
                  e = kb.rem(sb, p, kb.c(sb, d));
            Row row = rowOf(sb, r);
            kb.store(sb,
                     kb.loadF32Or0(sb, row.in, a.q, {bi, row.i, row.h, e},
                                   /*keepDtype=*/tc),
                     sh.q, {r, e});
          });
        });

        // The keys this block visits: all of them (or its chunk's), with
        // causal up to the last one its last row sees, unless some row sees
        // none (s > skv): that row averages every value.
        Value begin, end = a.skv;
        if (split) {
          begin = kb.mul(bb, sub, kb.c(bb, kKeysPerChunk));
          end = arith::MinUIOp::create(
              bb, loc, a.skv, kb.add(bb, begin, kb.c(bb, kKeysPerChunk)));
        }
        if (a.causal) {
          Value firstI = kb.div(bb, row0, a.group);
          Value lastRow = arith::MinUIOp::create(
              bb, loc, a.rows, kb.add(bb, row0, kb.c(bb, br)));
          Value lastI =
              kb.div(bb, arith::SubIOp::create(bb, loc, lastRow, kb.c(bb, 1)),
                     a.group);
          Value someRowBlind = kb.lt(bb, kb.add(bb, firstI, a.skv), a.s);
          Value seen = arith::SubIOp::create(
              bb, loc, kb.add(bb, kb.add(bb, lastI, kb.c(bb, 1)), a.skv), a.s);
          end = arith::SelectOp::create(
              bb, loc, someRowBlind, end,
              arith::MinUIOp::create(bb, loc, end, seen));
        }
        // A chunk past the causal end visits nothing: its partial max stays
        // -inf, which the combine weighs by exp(-inf) = 0.
        Value count = end;
        if (split)
          count = arith::SelectOp::create(
              bb, loc, kb.lt(bb, begin, end),
              arith::SubIOp::create(bb, loc, end, begin), kb.c(bb, 0));
        Value keyTiles = ceilDiv(bb, loc, count, bc);
        Value scaleV = kb.f(bb, a.scale);
        Value lowest =
            kb.f(bb, static_cast<double>(std::numeric_limits<float>::lowest()));

        ForOp keyLoop = kb.loop(
            bb, keyTiles, LoopKind::serial, {}, [&](OpBuilder &lb, Value jt) {
              Value j0 = kb.mul(lb, jt, kb.c(lb, bc));
              if (split)
                j0 = kb.add(lb, begin, j0);
              // Stage the K and V tiles (zero past skv).
              kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
                // On tensor cores V is stored transposed (dv by keys).
                auto stage = [&](Value src, Value dst, int64_t width,
                                 bool transpose) {
                  kb.strided(tb, t, bc * width, [&](OpBuilder &sb, Value p) {
                    Value cc = kb.div(sb, p, kb.c(sb, width));
                    Value e = kb.rem(sb, p, kb.c(sb, width));
                    Value j = kb.add(sb, j0, cc);
                    Value x = kb.loadF32Or0(sb, kb.lt(sb, j, a.skv), src,
                                            {bi, j, kvh, e}, /*keepDtype=*/tc);
                    if (transpose)
                      kb.store(sb, x, dst, {e, cc});
                    else
                      kb.store(sb, x, dst, {cc, e});
                  });
                };
                stage(a.k, sh.k, d, /*transpose=*/false);
                stage(a.v, sh.v, dv, /*transpose=*/tc);
              });
              // A score in place: scaled, masked (causal: the lowest finite
              // value; keys past skv: -inf) and stored at (r, cc).
              auto storeScore = [&](OpBuilder &ob, Value dot, Value r,
                                    Value cc) {
                Value x = arith::MulFOp::create(ob, loc, dot, scaleV);
                Value j = kb.add(ob, j0, cc);
                if (a.causal) {
                  Row row = rowOf(ob, r);
                  Value visible = arith::CmpIOp::create(
                      ob, loc, arith::CmpIPredicate::ule, kb.add(ob, j, a.s),
                      kb.add(ob, row.i, a.skv));
                  x = arith::SelectOp::create(ob, loc, visible, x, lowest);
                }
                x = arith::SelectOp::create(ob, loc, kb.lt(ob, j, a.skv), x,
                                            negInf);
                kb.store(ob, x, sh.scores, {r, cc});
              };
              // Tensor cores: warp (wr, wc) computes the 16 x 16 scores of
              // rows 16 wr, keys 16 wc (two m16n8k16 tiles per 16 of d).
              if (tc)
                kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
                  MmaLane m = mmaLane(tb, t);
                  Value dots = AllocOp::create(
                      tb, loc,
                      BufferType::get(tb.getContext(),
                                      relax::SymShape::fromStatic({8}), kb.f32,
                                      MemoryScope::local));
                  for (int64_t k = 0; k < 8; ++k)
                    kb.store(tb, kb.f(tb, 0.0), dots, kb.c(tb, k));
                  Value keyBase = kb.mul(tb, m.warpCol, kb.c(tb, 2 * kMmaN));
                  kb.serial(tb, kb.c(tb, d / kMmaK),
                            [&](OpBuilder &eb, Value kk) {
                              Value k0 = kb.mul(eb, kk, kb.c(eb, kMmaK));
                              for (int64_t fn = 0; fn < 2; ++fn)
                                MmaSyncOp::create(
                                    eb, loc, m.lane, dots,
                                    ValueRange{kb.c(eb, fn * 4)}, sh.q,
                                    ValueRange{m.rowBase, k0}, sh.k,
                                    ValueRange{kb.add(eb, keyBase,
                                                      kb.c(eb, fn * kMmaN)),
                                               k0});
                            });
                  for (int64_t fn = 0; fn < 2; ++fn)
                    for (int64_t i = 0; i < 4; ++i) {
                      auto [r, cc] = fragment(
                          tb, m, kb.add(tb, keyBase, kb.c(tb, fn * kMmaN)), i);
                      storeScore(tb, kb.load(tb, dots, kb.c(tb, fn * 4 + i)), r,
                                 cc);
                    }
                });
              // Scores: thread t owns scores t + k * kThreads (row-major [br,
              // bc]), summed in registers over the head dim.
              if (!tc)
                kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
                  int64_t slots = br * bc / kThreads;
                  Value dots = AllocOp::create(
                      tb, loc,
                      BufferType::get(tb.getContext(),
                                      relax::SymShape::fromStatic({slots}),
                                      kb.f32, MemoryScope::local));
                  // br * bc is a multiple of the block size: no slot passes the
                  // end.
                  SmallVector<Value> r, cc;
                  for (int64_t k = 0; k < slots; ++k) {
                    Value p = kb.add(tb, t, kb.c(tb, k * kThreads));
                    r.push_back(kb.div(tb, p, kb.c(tb, bc)));
                    cc.push_back(kb.rem(tb, p, kb.c(tb, bc)));
                    kb.store(tb, kb.f(tb, 0.0), dots, kb.c(tb, k));
                  }
                  kb.serial(tb, kb.c(tb, d), [&](OpBuilder &eb, Value e) {
                    for (int64_t k = 0; k < slots; ++k) {
                      Value prod = arith::MulFOp::create(
                          eb, loc, kb.load(eb, sh.q, {r[k], e}),
                          kb.load(eb, sh.k, {cc[k], e}));
                      kb.store(
                          eb,
                          arith::AddFOp::create(
                              eb, loc, kb.load(eb, dots, kb.c(eb, k)), prod),
                          dots, kb.c(eb, k));
                    }
                  });
                  for (int64_t k = 0; k < slots; ++k)
                    storeScore(tb, kb.load(tb, dots, kb.c(tb, k)), r[k], cc[k]);
                });
              // Online softmax, one thread per row: the new max, the rescale
              // factor of what was summed so far, p = exp(x - m) in place of
              // the scores and their sum. Every visited tile has a key below
              // skv, so the new max is finite (at least the lowest finite
              // value).
              kb.threads(lb, br, [&](OpBuilder &tb, Value r) {
                Value mOld = kb.load(tb, sh.rowMax, r);
                kb.serial(tb, kb.c(tb, bc), [&](OpBuilder &cb, Value cc) {
                  kb.store(cb,
                           arith::MaximumFOp::create(
                               cb, loc, kb.load(cb, sh.rowMax, r),
                               kb.load(cb, sh.scores, {r, cc})),
                           sh.rowMax, r);
                });
                Value mNew = kb.load(tb, sh.rowMax, r);
                Value alpha = math::ExpOp::create(
                    tb, loc, arith::SubFOp::create(tb, loc, mOld, mNew));
                kb.store(tb, alpha, sh.rowScale, r);
                kb.store(tb,
                         arith::MulFOp::create(
                             tb, loc, kb.load(tb, sh.rowSum, r), alpha),
                         sh.rowSum, r);
                kb.serial(tb, kb.c(tb, bc), [&](OpBuilder &cb, Value cc) {
                  Value p = math::ExpOp::create(
                      cb, loc,
                      arith::SubFOp::create(
                          cb, loc, kb.load(cb, sh.scores, {r, cc}), mNew));
                  if (tc) {
                    // P in the input dtype for the tensor cores; l sums the
                    // rounded values that P V multiplies.
                    Value rounded =
                        arith::TruncFOp::create(cb, loc, a.dtype, p);
                    kb.store(cb, rounded, sh.p, {r, cc});
                    p = arith::ExtFOp::create(cb, loc, kb.f32, rounded);
                  } else {
                    kb.store(cb, p, sh.scores, {r, cc});
                  }
                  kb.store(cb,
                           arith::AddFOp::create(cb, loc,
                                                 kb.load(cb, sh.rowSum, r), p),
                           sh.rowSum, r);
                });
              });
              // acc = acc * alpha + P V for the thread's output elements.
              // Tensor cores: warp (wr, wc) adds the P rows 16 wr times the
              // V columns wc dv / 2 .. + dv / 2, 16 keys per mma.
              if (tc)
                kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
                  forEachAcc(
                      tb, t, [&](OpBuilder &sb, int64_t k, Value r, Value) {
                        kb.store(sb,
                                 arith::MulFOp::create(
                                     sb, loc, kb.load(sb, acc, kb.c(sb, k)),
                                     kb.load(sb, sh.rowScale, r)),
                                 acc, kb.c(sb, k));
                      });
                  MmaLane m = mmaLane(tb, t);
                  Value colBase = kb.mul(tb, m.warpCol, kb.c(tb, dv / 2));
                  for (int64_t k0 = 0; k0 < bc; k0 += kMmaK)
                    for (int64_t fn = 0; fn < dv / 2 / kMmaN; ++fn)
                      MmaSyncOp::create(
                          tb, loc, m.lane, acc, ValueRange{kb.c(tb, fn * 4)},
                          sh.p, ValueRange{m.rowBase, kb.c(tb, k0)}, sh.v,
                          ValueRange{kb.add(tb, colBase, kb.c(tb, fn * kMmaN)),
                                     kb.c(tb, k0)});
                });
              if (!tc)
                kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
                  // Each slot's (row, column), computed once outside the
                  // guards.
                  SmallVector<Value> p, r, e;
                  for (int64_t k = 0; k < KernelBuilder::numSlots(outTile);
                       ++k) {
                    p.push_back(kb.add(tb, t, kb.c(tb, k * kThreads)));
                    r.push_back(kb.div(tb, p[k], kb.c(tb, dv)));
                    e.push_back(kb.rem(tb, p[k], kb.c(tb, dv)));
                    kb.inTile(tb, k, p[k], outTile, [&](OpBuilder &sb) {
                      kb.store(sb,
                               arith::MulFOp::create(
                                   sb, loc, kb.load(sb, acc, kb.c(sb, k)),
                                   kb.load(sb, sh.rowScale, r[k])),
                               acc, kb.c(sb, k));
                    });
                  }
                  kb.serial(tb, kb.c(tb, bc), [&](OpBuilder &cb, Value cc) {
                    for (int64_t k = 0; k < KernelBuilder::numSlots(outTile);
                         ++k)
                      kb.inTile(cb, k, p[k], outTile, [&](OpBuilder &sb) {
                        Value pv = arith::MulFOp::create(
                            sb, loc, kb.load(sb, sh.scores, {r[k], cc}),
                            kb.load(sb, sh.v, {cc, e[k]}));
                        kb.store(
                            sb,
                            arith::AddFOp::create(
                                sb, loc, kb.load(sb, acc, kb.c(sb, k)), pv),
                            acc, kb.c(sb, k));
                      });
                  });
                });
            });
        keyLoop.setLoopName("kv_tiles");

        kb.threads(bb, kThreads, [&](OpBuilder &tb, Value t) {
          if (split) {
            // The chunk's partial results of the rows inside s, undivided.
            Value first = kb.mul(tb, blk, kb.c(tb, split->rowStride));
            kb.ifThen(tb, kb.lt(tb, t, kb.c(tb, br)), [&](OpBuilder &gb) {
              kb.ifThen(gb, rowOf(gb, t).in, [&](OpBuilder &sb) {
                Value pr = kb.add(sb, first, t);
                kb.store(sb, kb.load(sb, sh.rowMax, t), split->partMax, pr);
                kb.store(sb, kb.load(sb, sh.rowSum, t), split->partSum, pr);
              });
            });
            forEachAcc(tb, t, [&](OpBuilder &sb, int64_t k, Value r, Value e) {
              kb.ifThen(sb, rowOf(sb, r).in, [&](OpBuilder &gb) {
                kb.store(gb, kb.load(gb, acc, kb.c(gb, k)), split->partOut,
                         {kb.add(gb, first, r), e});
              });
            });
            return;
          }
          // O = acc / l for the rows inside s (no key at all: 0 / 0 = NaN,
          // as the reference).
          forEachAcc(
              tb, t, [&](OpBuilder &sb, int64_t k, Value r, Value e) {
                Row row = rowOf(sb, r);
                kb.ifThen(sb, row.in, [&](OpBuilder &gb) {
                  Value y = arith::DivFOp::create(gb, loc,
                                                  kb.load(gb, acc, kb.c(gb, k)),
                                                  kb.load(gb, sh.rowSum, r));
                  if (a.dtype != kb.f32)
                    y = arith::TruncFOp::create(gb, loc, a.dtype, y);
                  kb.store(gb, y, a.o, {bi, row.i, row.h, e});
                });
              });
        });
      });
  blockLoop.setLoopName(split ? "kv_chunks" : "q_tiles");
  return blockLoop;
}

/// Builds the second kernel of flash decoding at `b`: a thread per output
/// element (batch, query, head, column) merges its row's chunks, each
/// weighed by exp(m_chunk - m) with m the largest chunk max:
/// O = sum acc_c w_c / sum l_c w_c.
static void buildCombineKernel(OpBuilder &b, const KernelBuilder &kb,
                               const Attention &a, const KeySplit &split) {
  Location loc = kb.loc;
  Value total = kb.mul(b, kb.mul(b, kb.mul(b, a.nb, a.s), a.hq), kb.c(b, a.dv));
  ForOp blockLoop = kb.loop(
      b, ceilDiv(b, loc, total, kThreads), LoopKind::thread_binding,
      "blockIdx.x", [&](OpBuilder &bb, Value blk) {
        kb.threads(bb, kThreads, [&](OpBuilder &tb, Value t) {
          Value p = kb.add(tb, kb.mul(tb, blk, kb.c(tb, kThreads)), t);
          kb.ifThen(tb, kb.lt(tb, p, total), [&](OpBuilder &gb) {
            Value e = kb.rem(gb, p, kb.c(gb, a.dv));
            Value bsh = kb.div(gb, p, kb.c(gb, a.dv));
            Value h = kb.rem(gb, bsh, a.hq), bs = kb.div(gb, bsh, a.hq);
            Value i = kb.rem(gb, bs, a.s), bi = kb.div(gb, bs, a.s);
            Value kvh = kb.div(gb, h, a.group);
            Value gr =
                kb.add(gb, kb.mul(gb, i, a.group), kb.rem(gb, h, a.group));
            // The row's partial results of chunk c: row first + c * stride.
            Value stride = kb.c(gb, split.rowStride);
            Value first =
                kb.add(gb,
                       kb.mul(gb,
                              kb.mul(gb, kb.add(gb, kb.mul(gb, bi, a.hkv), kvh),
                                     split.chunks),
                              stride),
                       gr);
            auto partRow = [&](OpBuilder &ob, Value c) {
              return kb.add(ob, first, kb.mul(ob, c, stride));
            };
            // max, sum, output: registers.
            Value acc = AllocOp::create(
                gb, loc,
                BufferType::get(gb.getContext(),
                                relax::SymShape::fromStatic({3}), kb.f32,
                                MemoryScope::local));
            Value zero = kb.c(gb, 0), one = kb.c(gb, 1), two = kb.c(gb, 2);
            kb.store(gb, kb.f(gb, -std::numeric_limits<double>::infinity()),
                     acc, zero);
            kb.store(gb, kb.f(gb, 0.0), acc, one);
            kb.store(gb, kb.f(gb, 0.0), acc, two);
            kb.serial(gb, split.chunks, [&](OpBuilder &cb, Value c) {
              kb.store(cb,
                       arith::MaximumFOp::create(
                           cb, loc, kb.load(cb, acc, zero),
                           kb.load(cb, split.partMax, partRow(cb, c))),
                       acc, zero);
            });
            Value m = kb.load(gb, acc, zero);
            kb.serial(gb, split.chunks, [&](OpBuilder &cb, Value c) {
              Value pr = partRow(cb, c);
              Value w = math::ExpOp::create(
                  cb, loc,
                  arith::SubFOp::create(cb, loc, kb.load(cb, split.partMax, pr),
                                        m));
              auto addWeighted = [&](Value slot, Value x) {
                kb.store(
                    cb,
                    arith::AddFOp::create(cb, loc, kb.load(cb, acc, slot),
                                          arith::MulFOp::create(cb, loc, x, w)),
                    acc, slot);
              };
              addWeighted(one, kb.load(cb, split.partSum, pr));
              addWeighted(two, kb.load(cb, split.partOut, {pr, e}));
            });
            Value y = arith::DivFOp::create(gb, loc, kb.load(gb, acc, two),
                                            kb.load(gb, acc, one));
            if (a.dtype != kb.f32)
              y = arith::TruncFOp::create(gb, loc, a.dtype, y);
            kb.store(gb, y, a.o, {bi, i, h, e});
          });
        });
      });
  blockLoop.setLoopName("combine_chunks");
}

FailureOr<bool> tir::flashAttention(PrimFuncOp func, bool tensorCores) {
  auto hint = func->getAttrOfType<DictionaryAttr>(kAttentionAttrName);
  if (!hint || func.getBody().empty())
    return false;
  Block &entry = func.getBody().front();
  // q, k, v, out: the program of an unmasked attention; anything else (a
  // mask, a program fusion rewrote) keeps the generic schedule.
  SmallVector<Value> bufs;
  for (BlockArgument arg : entry.getArguments())
    if (isa<BufferType>(arg.getType()))
      bufs.push_back(arg);
  if (bufs.size() != 4)
    return false;
  auto typeOf = [&](unsigned i) { return cast<BufferType>(bufs[i].getType()); };
  Type dtype = typeOf(0).getDtype();
  if (!dtype.isF16() && !dtype.isBF16() && !dtype.isF32())
    return false;
  for (unsigned i = 0; i < 4; ++i)
    if (typeOf(i).getDims().size() != 4 || typeOf(i).getDtype() != dtype)
      return false;
  std::optional<int64_t> d = typeOf(0).getDims()[3].getConstant();
  std::optional<int64_t> dk = typeOf(1).getDims()[3].getConstant();
  std::optional<int64_t> dv = typeOf(2).getDims()[3].getConstant();
  if (!d || !dv || dk != d || *d <= 0 || *dv <= 0)
    return false;
  // Tensor cores: f16 / bf16 with head dims multiples of 16, up to 128 (at
  // most 32 accumulators per lane; 35 KiB of shared memory at 128).
  tensorCores &= (dtype.isF16() || dtype.isBF16()) && *d % kMmaK == 0 &&
                 *dv % (2 * kMmaN) == 0 && *d <= 128 && *dv <= 128;
  std::optional<Tiles> tiles =
      tensorCores ? std::optional<Tiles>(Tiles{32, 32}) : pickTiles(*d, *dv);
  if (!tiles)
    return false;
  auto causalAttr = hint.getAs<BoolAttr>("causal");
  double scale = 1.0 / std::sqrt(static_cast<double>(*d));
  if (auto s = hint.getAs<FloatAttr>("scale"))
    scale = s.getValueAsDouble();

  // The streaming program goes; the kernels are built from the parameters.
  SmallVector<Operation *> body;
  for (Operation &op : entry.without_terminator())
    body.push_back(&op);
  for (Operation *op : body)
    op->dropAllReferences();
  for (Operation *op : llvm::reverse(body))
    op->erase();

  Location loc = func.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  KernelBuilder kb{loc, b.getF32Type()};
  Attention a;
  a.q = bufs[0], a.k = bufs[1], a.v = bufs[2], a.o = bufs[3];
  a.dtype = dtype;
  a.d = *d, a.dv = *dv, a.br = tiles->rows, a.bc = tiles->keys;
  a.causal = causalAttr && causalAttr.getValue();
  a.tensorCores = tensorCores;
  a.scale = scale;
  auto dimExpr = [&](unsigned buf, unsigned i) {
    return typeOf(buf).getDims()[i];
  };
  auto dim = [&](unsigned buf, unsigned i) {
    return materializeDim(b, loc, dimExpr(buf, i));
  };
  a.nb = dim(0, 0), a.s = dim(0, 1), a.hq = dim(0, 2), a.skv = dim(1, 1),
  a.hkv = dim(1, 2);
  // The legalizer proved hkv divides hq.
  a.group = kb.div(b, a.hq, a.hkv);
  a.rows = kb.mul(b, a.s, a.group);

  // Decode (every query row of a kv head in one tile) over more than one
  // chunk of keys: split the keys over blocks (flash decoding), since one
  // block per kv head would leave most SMs idle. Decided here when the
  // lengths are constants, else per call on the host (scf.if).
  using relax::sym::Expr;
  Expr rowsExpr =
      dimExpr(0, 1) * relax::sym::floorDiv(dimExpr(0, 2), dimExpr(1, 2));
  Expr skvExpr = dimExpr(1, 1);
  std::optional<int64_t> constRows = rowsExpr.getConstant(),
                         constSkv = skvExpr.getConstant();
  bool neverSplit = (constRows && *constRows > a.br) ||
                    (constSkv && *constSkv <= kKeysPerChunk);
  if (neverSplit) {
    buildFlashKernel(b, kb, a, /*split=*/nullptr);
    return true;
  }
  // The partial results sit at the top of the program, where
  // --relax-lift-tir-allocs makes them an output that the memory plan
  // places in the caller's arena (not an allocation per call); sized by the
  // tile's rows when the head's are symbolic, so that a prefill call, which
  // takes the one kernel, does not size them by its length.
  KeySplit split;
  split.rowStride = constRows ? *constRows : a.br;
  Expr partRows = dimExpr(0, 0) * dimExpr(1, 2) *
                  relax::sym::ceilDiv(skvExpr, Expr::constant(kKeysPerChunk)) *
                  Expr::constant(split.rowStride);
  auto part = [&](ArrayRef<Expr> dims) {
    return AllocOp::create(b, loc,
                           BufferType::get(b.getContext(),
                                           relax::SymShape(dims), kb.f32,
                                           MemoryScope::global))
        .getResult();
  };
  split.partMax = part({partRows});
  split.partSum = part({partRows});
  split.partOut = part({partRows, Expr::constant(a.dv)});
  auto buildSplit = [&](OpBuilder &sb) {
    split.chunks = ceilDiv(sb, loc, a.skv, kKeysPerChunk);
    buildFlashKernel(sb, kb, a, &split);
    buildCombineKernel(sb, kb, a, split);
  };
  if (constRows && constSkv) {
    buildSplit(b);
    return true;
  }
  // One kernel for prefill (several query tiles) or few keys, the split
  // otherwise.
  Value oneKernel = arith::OrIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, a.rows,
                            kb.c(b, a.br)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, a.skv,
                            kb.c(b, kKeysPerChunk)));
  auto choice = scf::IfOp::create(b, loc, oneKernel, /*withElseRegion=*/true);
  OpBuilder thenB(choice.thenBlock()->getTerminator());
  buildFlashKernel(thenB, kb, a, /*split=*/nullptr);
  OpBuilder elseB(choice.elseBlock()->getTerminator());
  buildSplit(elseB);
  return true;
}
