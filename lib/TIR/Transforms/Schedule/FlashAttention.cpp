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
// body is FlashAttentionTensorCore.cpp's: the products on mma.sync, the
// softmax on the accumulator fragments with warp shuffles, K and V staged
// by cp.async one tile ahead.
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

#include "FlashAttentionKernel.h"
#include "MatmulMatch.h"

#include "RelaxDialect/TIR/IR/OpPattern.h"
#include "RelaxDialect/TIR/IR/TIRBuilder.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;
using namespace mlir::tir::schedule::flash;

namespace {
/// Static shared memory a kernel may use without opting in.
constexpr int64_t kSharedBytes = 48 * 1024;
/// At most this many f32 accumulators per thread (registers).
constexpr int64_t kMaxAccumulators = 32;

/// Query rows and keys of a block's tiles.
struct Tiles {
  int64_t rows, keys;
};

/// The shared buffers of the CUDA-core kernel, f32, rows padded by one
/// element where a warp reads down a column (scores by key, softmax by
/// row), so that its lanes hit distinct banks.
struct SharedTiles {
  Value q, k, v, scores, rowMax, rowSum, rowScale;
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

//===----------------------------------------------------------------------===//
// KernelBuilder and FlashBlock
//===----------------------------------------------------------------------===//

Value KernelBuilder::loadF32Or0(OpBuilder &b, Value in, Value buf,
                                ValueRange idx, bool keepDtype) const {
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

void KernelBuilder::ifThen(OpBuilder &b, Value cond,
                           function_ref<void(OpBuilder &)> body) const {
  auto guard = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder tb = OpBuilder::atBlockBegin(guard.thenBlock());
  body(tb);
}

ForOp KernelBuilder::loop(OpBuilder &b, Value n, LoopKind kind,
                          StringRef thread,
                          function_ref<void(OpBuilder &, Value)> body) const {
  auto l = ForOp::create(b, loc, c(b, 0), n, c(b, 1), kind, nullptr, thread);
  OpBuilder lb = OpBuilder::atBlockBegin(l.getBody());
  body(lb, l.getInductionVar());
  return l;
}

void KernelBuilder::strided(OpBuilder &b, Value t, int64_t total,
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

Row FlashBlock::rowOf(OpBuilder &b, Value r) const {
  Value gr = kb.add(b, row0, r);
  return Row{kb.lt(b, gr, a.rows), kb.div(b, gr, a.group),
             kb.add(b, kb.mul(b, kvh, a.group), kb.rem(b, gr, a.group))};
}

Value FlashBlock::tileStart(OpBuilder &b, Value jt) const {
  return kb.add(b, begin, kb.mul(b, jt, kb.c(b, a.bc)));
}

Value FlashBlock::maskedScore(OpBuilder &b, Value dot, const Row &row,
                              Value j) const {
  Location loc = kb.loc;
  Value x = arith::MulFOp::create(b, loc, dot, kb.f(b, a.scale));
  if (a.causal) {
    Value visible =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                              kb.add(b, j, a.s), kb.add(b, row.i, a.skv));
    Value lowest =
        kb.f(b, static_cast<double>(std::numeric_limits<float>::lowest()));
    x = arith::SelectOp::create(b, loc, visible, x, lowest);
  }
  Value negInf = kb.f(b, -std::numeric_limits<double>::infinity());
  return arith::SelectOp::create(b, loc, kb.lt(b, j, a.skv), x, negInf);
}

void FlashBlock::storeStats(OpBuilder &b, Value r, Value m, Value l) const {
  Value pr = kb.add(b, kb.mul(b, blk, kb.c(b, split->rowStride)), r);
  kb.ifThen(b, rowOf(b, r).in, [&](OpBuilder &gb) {
    kb.store(gb, m, split->partMax, pr);
    kb.store(gb, l, split->partSum, pr);
  });
}

void FlashBlock::storeOutput(OpBuilder &b, Value r, Value col, Value acc,
                             Value l) const {
  Row row = rowOf(b, r);
  kb.ifThen(b, row.in, [&](OpBuilder &gb) {
    if (split) {
      // The chunk's partial results, undivided.
      Value pr = kb.add(gb, kb.mul(gb, blk, kb.c(gb, split->rowStride)), r);
      kb.store(gb, acc, split->partOut, {pr, col});
      return;
    }
    // O = acc / l (no key at all: 0 / 0 = NaN, as the reference).
    Value y = arith::DivFOp::create(gb, kb.loc, acc, l);
    if (a.dtype != kb.f32)
      y = arith::TruncFOp::create(gb, kb.loc, a.dtype, y);
    kb.store(gb, y, a.o, {bi, row.i, row.h, col});
  });
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

/// The CUDA-core body of block `fb` (f32 tiles; any dtype): staging, scores
/// by threads, the softmax one thread per row, P V by threads.
static void buildCudaCoreFlashBody(OpBuilder &bb, const FlashBlock &fb) {
  const KernelBuilder &kb = fb.kb;
  const Attention &a = fb.a;
  Location loc = kb.loc;
  const int64_t br = a.br, bc = a.bc, d = a.d, dv = a.dv;
  SharedTiles sh;
  sh.q = kb.alloc(bb, {br, d + 1}, MemoryScope::shared);
  sh.k = kb.alloc(bb, {bc, d + 1}, MemoryScope::shared);
  sh.v = kb.alloc(bb, {bc, dv}, MemoryScope::shared);
  sh.scores = kb.alloc(bb, {br, bc + 1}, MemoryScope::shared);
  sh.rowMax = kb.alloc(bb, {br}, MemoryScope::shared);
  sh.rowSum = kb.alloc(bb, {br}, MemoryScope::shared);
  sh.rowScale = kb.alloc(bb, {br}, MemoryScope::shared);
  // Each thread's share of the [br, dv] output tile (elements t + k *
  // kThreads): registers that live across the key loop.
  const int64_t outTile = br * dv;
  const int64_t slots = (outTile + kThreads - 1) / kThreads;
  Value acc = kb.alloc(bb, {slots}, MemoryScope::local);
  // Runs `body` for slot k's element p, under `if (p < outTile)` when that
  // slot can pass the end of the tile.
  auto inTile = [&](OpBuilder &b, int64_t k, Value p,
                    function_ref<void(OpBuilder &)> body) {
    if ((k + 1) * kThreads <= outTile)
      return body(b);
    kb.ifThen(b, kb.lt(b, p, kb.c(b, outTile)), body);
  };
  // Runs `body` for each of thread t's accumulators: its index, row and
  // column in the [br, dv] output tile (k is a constant, so the slots stay
  // registers).
  auto forEachAcc =
      [&](OpBuilder &ob, Value t,
          function_ref<void(OpBuilder &, int64_t, Value, Value)> body) {
        for (int64_t k = 0; k < slots; ++k) {
          Value p = kb.add(ob, t, kb.c(ob, k * kThreads));
          inTile(ob, k, p, [&](OpBuilder &sb) {
            body(sb, k, kb.div(sb, p, kb.c(sb, dv)),
                 kb.rem(sb, p, kb.c(sb, dv)));
          });
        }
      };

  // Start: m = -inf, l = 0, accumulators 0; the query tile staged.
  kb.threads(bb, kThreads, [&](OpBuilder &tb, Value t) {
    kb.ifThen(tb, kb.lt(tb, t, kb.c(tb, br)), [&](OpBuilder &gb) {
      kb.store(gb, kb.f(gb, -std::numeric_limits<double>::infinity()),
               sh.rowMax, t);
      kb.store(gb, kb.f(gb, 0.0), sh.rowSum, t);
    });
    forEachAcc(tb, t, [&](OpBuilder &sb, int64_t k, Value, Value) {
      kb.store(sb, kb.f(sb, 0.0), acc, kb.c(sb, k));
    });
    kb.strided(tb, t, br * d, [&](OpBuilder &sb, Value p) {
      Value r = kb.div(sb, p, kb.c(sb, d)), e = kb.rem(sb, p, kb.c(sb, d));
      Row row = fb.rowOf(sb, r);
      kb.store(sb, kb.loadF32Or0(sb, row.in, a.q, {fb.bi, row.i, row.h, e}),
               sh.q, {r, e});
    });
  });

  ForOp keyLoop = kb.loop(
      bb, fb.keyTiles, LoopKind::serial, {}, [&](OpBuilder &lb, Value jt) {
        Value j0 = fb.tileStart(lb, jt);
        // Stage the K and V tiles (zero past skv).
        kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
          auto stage = [&](Value src, Value dst, int64_t width) {
            kb.strided(tb, t, bc * width, [&](OpBuilder &sb, Value p) {
              Value cc = kb.div(sb, p, kb.c(sb, width));
              Value e = kb.rem(sb, p, kb.c(sb, width));
              Value j = kb.add(sb, j0, cc);
              kb.store(sb,
                       kb.loadF32Or0(sb, kb.lt(sb, j, a.skv), src,
                                     {fb.bi, j, fb.kvh, e}),
                       dst, {cc, e});
            });
          };
          stage(a.k, sh.k, d);
          stage(a.v, sh.v, dv);
        });
        // Scores: thread t owns scores t + k * kThreads (row-major [br,
        // bc]), summed in registers over the head dim.
        kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
          int64_t scoreSlots = br * bc / kThreads;
          Value dots = kb.alloc(tb, {scoreSlots}, MemoryScope::local);
          // br * bc is a multiple of the block size: no slot passes the
          // end.
          SmallVector<Value> r, cc;
          for (int64_t k = 0; k < scoreSlots; ++k) {
            Value p = kb.add(tb, t, kb.c(tb, k * kThreads));
            r.push_back(kb.div(tb, p, kb.c(tb, bc)));
            cc.push_back(kb.rem(tb, p, kb.c(tb, bc)));
            kb.store(tb, kb.f(tb, 0.0), dots, kb.c(tb, k));
          }
          kb.serial(tb, kb.c(tb, d), [&](OpBuilder &eb, Value e) {
            for (int64_t k = 0; k < scoreSlots; ++k) {
              Value prod = arith::MulFOp::create(
                  eb, loc, kb.load(eb, sh.q, {r[k], e}),
                  kb.load(eb, sh.k, {cc[k], e}));
              kb.store(eb,
                       arith::AddFOp::create(
                           eb, loc, kb.load(eb, dots, kb.c(eb, k)), prod),
                       dots, kb.c(eb, k));
            }
          });
          for (int64_t k = 0; k < scoreSlots; ++k)
            kb.store(tb,
                     fb.maskedScore(tb, kb.load(tb, dots, kb.c(tb, k)),
                                    fb.rowOf(tb, r[k]),
                                    kb.add(tb, j0, cc[k])),
                     sh.scores, {r[k], cc[k]});
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
                     arith::MaximumFOp::create(cb, loc,
                                               kb.load(cb, sh.rowMax, r),
                                               kb.load(cb, sh.scores, {r, cc})),
                     sh.rowMax, r);
          });
          Value mNew = kb.load(tb, sh.rowMax, r);
          Value alpha = math::ExpOp::create(
              tb, loc, arith::SubFOp::create(tb, loc, mOld, mNew));
          kb.store(tb, alpha, sh.rowScale, r);
          kb.store(tb,
                   arith::MulFOp::create(tb, loc, kb.load(tb, sh.rowSum, r),
                                         alpha),
                   sh.rowSum, r);
          kb.serial(tb, kb.c(tb, bc), [&](OpBuilder &cb, Value cc) {
            Value p = math::ExpOp::create(
                cb, loc,
                arith::SubFOp::create(cb, loc, kb.load(cb, sh.scores, {r, cc}),
                                      mNew));
            kb.store(cb, p, sh.scores, {r, cc});
            kb.store(cb,
                     arith::AddFOp::create(cb, loc, kb.load(cb, sh.rowSum, r),
                                           p),
                     sh.rowSum, r);
          });
        });
        // acc = acc * alpha + P V for the thread's output elements.
        kb.threads(lb, kThreads, [&](OpBuilder &tb, Value t) {
          // Each slot's (row, column), computed once outside the guards.
          SmallVector<Value> p, r, e;
          for (int64_t k = 0; k < slots; ++k) {
            p.push_back(kb.add(tb, t, kb.c(tb, k * kThreads)));
            r.push_back(kb.div(tb, p[k], kb.c(tb, dv)));
            e.push_back(kb.rem(tb, p[k], kb.c(tb, dv)));
            inTile(tb, k, p[k], [&](OpBuilder &sb) {
              kb.store(sb,
                       arith::MulFOp::create(sb, loc,
                                             kb.load(sb, acc, kb.c(sb, k)),
                                             kb.load(sb, sh.rowScale, r[k])),
                       acc, kb.c(sb, k));
            });
          }
          kb.serial(tb, kb.c(tb, bc), [&](OpBuilder &cb, Value cc) {
            for (int64_t k = 0; k < slots; ++k)
              inTile(cb, k, p[k], [&](OpBuilder &sb) {
                Value pv = arith::MulFOp::create(
                    sb, loc, kb.load(sb, sh.scores, {r[k], cc}),
                    kb.load(sb, sh.v, {cc, e[k]}));
                kb.store(sb,
                         arith::AddFOp::create(
                             sb, loc, kb.load(sb, acc, kb.c(sb, k)), pv),
                         acc, kb.c(sb, k));
              });
          });
        });
      });
  keyLoop.setLoopName("kv_tiles");

  kb.threads(bb, kThreads, [&](OpBuilder &tb, Value t) {
    if (fb.split)
      kb.ifThen(tb, kb.lt(tb, t, kb.c(tb, br)), [&](OpBuilder &gb) {
        fb.storeStats(gb, t, kb.load(gb, sh.rowMax, t),
                      kb.load(gb, sh.rowSum, t));
      });
    forEachAcc(tb, t, [&](OpBuilder &sb, int64_t k, Value r, Value e) {
      fb.storeOutput(sb, r, e, kb.load(sb, acc, kb.c(sb, k)),
                     kb.load(sb, sh.rowSum, r));
    });
  });
}

/// Builds the flash-attention kernel at `b`: one block per (batch, kv head,
/// query tile), or, with `split`, per (batch, kv head, key chunk) over the
/// head's only query tile. Returns its block loop.
static ForOp buildFlashKernel(OpBuilder &b, const KernelBuilder &kb,
                              const Attention &a, const KeySplit *split) {
  Location loc = kb.loc;
  const int64_t br = a.br;
  // Blocks per (batch, kv head): its query tiles, or its key chunks.
  Value perHead = split ? split->chunks : ceilDiv(b, loc, a.rows, br);
  Value grid = kb.mul(b, kb.mul(b, a.nb, a.hkv), perHead);

  ForOp blockLoop = kb.loop(
      b, grid, LoopKind::thread_binding, "blockIdx.x",
      [&](OpBuilder &bb, Value blk) {
        FlashBlock fb{kb, a, split, blk};
        Value sub = kb.rem(bb, blk, perHead);
        Value bh = kb.div(bb, blk, perHead);
        fb.kvh = kb.rem(bb, bh, a.hkv);
        fb.bi = kb.div(bb, bh, a.hkv);
        fb.row0 = split ? kb.c(bb, 0) : kb.mul(bb, sub, kb.c(bb, br));

        // The keys this block visits: all of them (or its chunk's), with
        // causal up to the last one its last row sees, unless some row sees
        // none (s > skv): that row averages every value.
        Value end = a.skv;
        fb.begin = kb.c(bb, 0);
        if (split) {
          fb.begin = kb.mul(bb, sub, kb.c(bb, kKeysPerChunk));
          end = arith::MinUIOp::create(
              bb, loc, a.skv, kb.add(bb, fb.begin, kb.c(bb, kKeysPerChunk)));
        }
        if (a.causal) {
          Value firstI = kb.div(bb, fb.row0, a.group);
          Value lastRow = arith::MinUIOp::create(
              bb, loc, a.rows, kb.add(bb, fb.row0, kb.c(bb, br)));
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
              bb, loc, kb.lt(bb, fb.begin, end),
              arith::SubIOp::create(bb, loc, end, fb.begin), kb.c(bb, 0));
        fb.keyTiles = ceilDiv(bb, loc, count, a.bc);

        if (a.tensorCores)
          buildTensorCoreFlashBody(bb, fb);
        else
          buildCudaCoreFlashBody(bb, fb);
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
  // most 32 accumulators per lane; 42.5 KiB of shared memory at 128).
  // (The k of a Q K^T step is 16; each warp of a pair takes dv / 2 output
  // columns in fragments of 8.)
  tensorCores &= (dtype.isF16() || dtype.isBF16()) && *d % 16 == 0 &&
                 *dv % 16 == 0 && *d <= 128 && *dv <= 128;
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
