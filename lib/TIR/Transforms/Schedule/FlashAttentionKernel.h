//===- FlashAttentionKernel.h - The flash kernels' shared parts -*- C++ -*-===//
//
// Internal to lib/TIR/Transforms/Schedule: what the two bodies of the
// flash-attention kernel share. FlashAttention.cpp builds the grid, the
// key range of each block, the CUDA-core body and the combine kernel of
// flash decoding; FlashAttentionTensorCore.cpp the tensor-core body (f16 /
// bf16 on mma.sync, the softmax on the accumulator fragments, K and V
// staged by cp.async).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TIR_TRANSFORMS_SCHEDULE_FLASHATTENTIONKERNEL_H
#define LIB_TIR_TRANSFORMS_SCHEDULE_FLASHATTENTIONKERNEL_H

#include "ScheduleUtils.h"

#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace tir {
namespace schedule {
namespace flash {

/// Threads per block: four warps.
constexpr int64_t kThreads = 128;
/// Keys per block of the split kernel (flash decoding): a multiple of every
/// tile's key count, so that no key tile straddles two chunks.
constexpr int64_t kKeysPerChunk = 128;

/// Index and f32 arithmetic, loads, stores and loops of the kernels'
/// bodies: the helpers keep the builders to the algorithm.
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
  /// A buffer of a static shape (f32 unless `type` is given).
  Value alloc(OpBuilder &b, ArrayRef<int64_t> shape, MemoryScope scope,
              Type type = {}) const {
    return AllocOp::create(b, loc,
                           BufferType::get(b.getContext(),
                                           relax::SymShape::fromStatic(shape),
                                           type ? type : f32, scope))
        .getResult();
  }
  /// An element of an input in f32 (or, with `keepDtype`, in its own
  /// dtype), or 0 where `in` is false.
  Value loadF32Or0(OpBuilder &b, Value in, Value buf, ValueRange idx,
                   bool keepDtype = false) const;
  /// Runs `body` under `if (cond)`.
  void ifThen(OpBuilder &b, Value cond,
              function_ref<void(OpBuilder &)> body) const;
  /// A loop `0 to n` of the given kind; `body` gets its variable.
  ForOp loop(OpBuilder &b, Value n, LoopKind kind, StringRef thread,
             function_ref<void(OpBuilder &, Value)> body) const;
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
               function_ref<void(OpBuilder &, Value)> body) const;
};

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

/// Tile row r's query position i and head h, and whether it is a row of
/// the program (inside s).
struct Row {
  Value in, i, h;
};

/// One block of the flash kernel: which rows and keys it visits, and how
/// its results leave it. Built by FlashAttention.cpp for both bodies.
struct FlashBlock {
  const KernelBuilder &kb;
  const Attention &a;
  /// Null without flash decoding.
  const KeySplit *split;
  Value blk, bi, kvh;
  /// The block's first row (of the kv head's rows).
  Value row0;
  /// The first key of the block's range and its number of key tiles (cut
  /// by causal and by the chunk of a split block).
  Value begin, keyTiles;

  /// Tile row `r`.
  Row rowOf(OpBuilder &b, Value r) const;
  /// The first key of tile `jt`.
  Value tileStart(OpBuilder &b, Value jt) const;
  /// Score `dot` (unscaled) of tile row `r` and key `j`, scaled and masked:
  /// keys past skv -inf, causal-hidden keys the lowest finite f32 (as the
  /// reference semantics: a row that sees no key averages every value).
  Value maskedScore(OpBuilder &b, Value dot, const Row &row, Value j) const;
  /// The row's results at the end: with a split, max `m`, sum `l` (when
  /// given) and the undivided accumulator `acc` of column `col` to the
  /// partial buffers; else O[.., col] = acc / l rounded to the output
  /// dtype. Only rows inside s are stored.
  void storeStats(OpBuilder &b, Value r, Value m, Value l) const;
  void storeOutput(OpBuilder &b, Value r, Value col, Value acc,
                   Value l) const;
};

/// Builds the tensor-core body of the block `fb` at `b` (the body of its
/// block loop): staging, the key loop and the stores of its results.
void buildTensorCoreFlashBody(OpBuilder &b, const FlashBlock &fb);

} // namespace flash
} // namespace schedule
} // namespace tir
} // namespace mlir

#endif // LIB_TIR_TRANSFORMS_SCHEDULE_FLASHATTENTIONKERNEL_H
