//===- Schedule.h - Loop transformations on tir programs --------*- C++ -*-===//
//
// The tir schedule API: primitives that rewrite the loops and blocks of a
// tir.prim_func in place. Each primitive checks its preconditions first and,
// when they do not hold, emits an error on the offending op and returns
// failure without changing the IR, so a schedule never produces wrong code.
//
// Loops are addressed by their `loop_name`, blocks by their name; new loops
// are named `<name>.outer` / `<name>.inner` (split) and `<a>.<b>.fused`
// (fuse) when the original loops have names.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TIR_TRANSFORMS_SCHEDULE_H
#define RELAXDIALECT_TIR_TRANSFORMS_SCHEDULE_H

#include "RelaxDialect/Symbolic/SymbolicExpr.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace tir {

/// The unique loop of `func` named `name`; emits an error on `func` and
/// returns failure when there is none or more than one.
FailureOr<ForOp> getLoop(PrimFuncOp func, StringRef name);
/// The unique block of `func` named `name`, likewise.
FailureOr<BlockOp> getBlock(PrimFuncOp func, StringRef name);

struct SplitResult {
  ForOp outer;
  ForOp inner;
};
/// Splits `loop` (lower bound 0, step 1, extent `n`) into
/// `outer = 0 to ceildiv(n, factor)` and `inner = 0 to factor`; the body
/// sees `outer * factor + inner` and runs under `scf.if (that < n)` unless
/// `n` is provably a multiple of `factor` (constants, or a `tir.sym_var`
/// expression proved by the symbolic engine). Both loops are serial.
FailureOr<SplitResult> split(ForOp loop, int64_t factor);

/// Fuses two perfectly nested loops (lower bound 0, step 1) into one serial
/// loop over the product of their extents; the original induction variables
/// are recovered with divui / remui.
FailureOr<ForOp> fuse(ForOp outer, ForOp inner);

/// Swaps two perfectly nested loops, with their kinds and names. Returns the
/// new outer loop (the old inner one).
FailureOr<ForOp> reorder(ForOp outer, ForOp inner);

/// Set the loop kind. `parallel`, `vectorize` and `bind` refuse a loop that
/// carries a reduce iteration variable of a block inside it (its iterations
/// are not independent); `bind` takes blockIdx.{x,y,z} / threadIdx.{x,y,z}.
LogicalResult parallel(ForOp loop);
/// Whether a block inside `loop` binds a reduce iteration variable to a
/// value computed from `loop`'s induction variable (the check `parallel`,
/// `vectorize` and `bind` make, without a diagnostic).
bool carriesReduction(ForOp loop);
LogicalResult vectorize(ForOp loop);
LogicalResult unroll(ForOp loop);
LogicalResult bind(ForOp loop, StringRef thread);

/// Moves the `tir.init` of `block` out of the reduction into a new block
/// `<name>_init` in its own loop nest, placed just before `loop` (an
/// ancestor of `block`). The nest copies the loops between `loop` and
/// `block` that feed spatial iteration variables; every loop that feeds a
/// reduce variable must lie inside `loop`. Returns the new init block.
FailureOr<BlockOp> decomposeReduction(BlockOp block, ForOp loop);

/// Inlines a spatial elementwise producer: `block` must be loads, pure ops
/// and one store to a `tir.alloc` buffer at exactly its iteration
/// variables. Every load of that buffer is replaced by the producer's
/// computation at the load's indices; the producer, the loops that only
/// held it and the dead buffer are removed. Refuses reduce variables,
/// parameter buffers (the caller reads them), other writers of the buffer
/// and inputs written anywhere but in a top-level op before the producer's.
LogicalResult computeInline(BlockOp block);

/// Reads `buffer` in `block` through a copy: a `tir.alloc` of the same
/// (symbolic) shape in `scope`, filled by a copy nest (block
/// `<name>_cache_read<i>`, loops `<that>.d0`, ...) placed just before the
/// outermost op around `block` in the buffer's region; every load of
/// `buffer` in `block` then reads the copy. The whole buffer is copied.
/// Refuses a buffer the block does not read, a dim of unknown extent and a
/// buffer written anywhere inside that outermost op (the copy would be
/// stale). Returns the new buffer.
FailureOr<Value> cacheRead(BlockOp block, Value buffer, MemoryScope scope);
/// Same, for the `readIndex`-th distinct buffer `block` loads (in order of
/// the first load).
FailureOr<Value> cacheRead(BlockOp block, unsigned readIndex,
                           MemoryScope scope);

/// Makes `block`, which must store to exactly one buffer, load and store a
/// `tir.alloc` copy in `scope` instead, and copies the whole copy back
/// (block `<name>_cache_write_back`) right after the outermost op around
/// `block` in the buffer's region. When the block is not proved to write
/// every element (stores at exactly its iteration variables, each bound to
/// the iv of an unguarded `0 to dim step 1` loop), the copy is first filled
/// from the buffer (block `<name>_cache_in`) so untouched elements survive.
/// Refuses other ops in that outermost op that access the buffer and dims
/// of unknown extent. Returns the new buffer.
FailureOr<Value> cacheWrite(BlockOp block, MemoryScope scope);

/// Moves the loop nest of an elementwise producer `block` (loads, pure ops
/// and one store to a `tir.alloc` buffer at exactly its iteration
/// variables, each bound to the iv of one loop of a perfect `0 to n step 1`
/// nest) to the start of `loop`'s body. A buffer dim that every consumer
/// load indexes with a block variable bound to the iv of `loop` or of a
/// loop around it is fixed to that iv; the other dims keep their full
/// producer loop. Refuses when no dim is fixed, when the buffer is read
/// outside `loop` or written by another op, when an input of the producer
/// is written anywhere, when `loop` does not follow the producer nest in
/// the buffer's block, and when a value the producer uses is not available
/// in `loop`. Returns the moved block.
FailureOr<BlockOp> computeAt(BlockOp block, ForOp loop);

/// The mirror: moves the loop nest of an elementwise consumer `block` (same
/// shape rules as the producer of `computeAt`; its buffer may be a
/// parameter) to the end of `loop`'s body. The consumer reads exactly one
/// buffer written inside `loop`; every store to it inside the op around
/// `loop` must be in `loop` and index one dim by `loop`'s iv, and every
/// consumer load must index that dim by one consumer variable, whose loop
/// (same range as `loop`) is replaced by `loop`'s iv. Refuses otherwise,
/// and when anything between `loop` and the consumer touches the
/// consumer's output or writes its inputs. Returns the moved block.
FailureOr<BlockOp> reverseComputeAt(BlockOp block, ForOp loop);

/// Whether `value` is computed, through any chain of ops, from one of `ivs`.
bool dependsOnAny(Value value, ArrayRef<Value> ivs);

/// True when `index` is `loop`'s induction variable or a block iteration
/// variable bound to it.
bool isBoundToIv(Value index, ForOp loop);

/// Moves the pure top-level ops of `func`'s body (constants, `tir.sym_var`,
/// index arithmetic), in order, to its start, so that every loop bound is
/// available in every loop nest. Never fails.
void hoistPrologue(PrimFuncOp func);

/// Shrinks a top-level `tir.alloc` that only `loop` accesses, where every
/// access indexes one dim by `loop`'s iv: the buffer moves into `loop`'s
/// body, per iteration, in `local` scope, with that dim of extent 1 (read
/// and written at index 0). Refuses accesses outside `loop`, uses other
/// than loads and stores, and buffers with no such dim.
LogicalResult compactToLoop(AllocOp alloc, ForOp loop);
/// Computes the reduction of `block` over `loop` with `threads` cooperating
/// GPU threads (a power of two in [32, 1024]) instead of one: the loop is
/// replaced, in place, by
///
///   - a shared buffer `partial[threads]` (`tir.alloc`, scope shared);
///   - a `threadIdx.x` loop in which thread t sets `partial[t]` to the
///     block's init value and accumulates iterations t, t + threads, ...
///     of `loop` (guarded when the extent does not divide) into it;
///   - log2(threads) `threadIdx.x` loops of halving extent that combine
///     `partial[t]` with `partial[t + stride]`;
///   - a one-thread loop that stores `partial[0]` to the block's output.
///
/// The caller binds an enclosing loop to a block axis; the GPU lowering
/// puts a barrier between the thread loops. Preconditions: `loop` is a
/// `0 to n step 1` loop whose body is `block` plus side-effect-free ops that
/// do not use its induction variable; `block` has one reduce iteration
/// variable, bound to that induction variable, and spatial ones that do not
/// depend on it; its init stores a constant that is the identity of the
/// update; its update is one store of `combine(load(out[idx]), value)` to
/// the same element (combine: addf, mulf, maximumf, minimumf, maxnumf,
/// minnumf, addi, muli, maxsi, minsi, maxui, minui, ori, andi, xori) and
/// nothing else in the block touches `out`.
///
/// With `warpShuffle` (and an element type of at most 32 bits; wider ones
/// keep the tree above) the halving loops are replaced by warp reductions:
/// after accumulating, each thread's `partial[t]` goes through one
/// `gpu.subgroup_reduce` (uniform, 32 lanes) in the same thread loop and
/// lane 0 of each warp stores its total to a 32-slot shared buffer; a
/// 32-thread loop then reduces those totals (slots past threads / 32 read as
/// the identity) with another `gpu.subgroup_reduce`, and lane 0 stores the
/// result. For 32 threads the first warp reduction stores the result.
LogicalResult crossThreadReduction(BlockOp block, ForOp loop, int64_t threads,
                                   bool warpShuffle = false);
/// A reduction loop as `lanes` independent accumulators that a CPU keeps
/// in vector registers: `loop`'s iterations j * lanes + l (l < lanes)
/// update slot l of a `local` buffer `partial[lanes]` (set to the init
/// value first), in a serial loop over j around a serial loop over l; the
/// extent's remainder updates slot 0; then slot 0 combines slots 1 ..
/// lanes - 1 in order and is stored to the block's output. Without fast-math
/// reassociation, a loop-carried scalar sum runs one add at a time, each
/// waiting for the one before; the lane loop has no dependence between
/// iterations and vectorises. The order of the combinations is fixed
/// (deterministic), but differs from the serial loop's. Preconditions:
/// crossThreadReduction's, and every load indexed by the reduce variable
/// has it as its last index and in no other (canLaneReduce).
LogicalResult laneReduction(BlockOp block, ForOp loop, int64_t lanes);
/// Whether laneReduction's preconditions on `block` and `loop` hold.
bool canLaneReduce(BlockOp block, ForOp loop);
/// Whether warp shuffles can carry values of `dtype` (int/float, <= 32 bits).
bool canWarpShuffleReduce(Type dtype);

/// A warp per output of a reduction (the decode GEMV's split-K): `outer`
/// is a `0 to P step 1` loop over the outputs holding side-effect-free ops
/// (its index decomposition) and then `loop`, the reduction loop of
/// `block` (crossThreadReduction's preconditions). It becomes a
/// `blockIdx.x` loop over ceildiv(P, warps) blocks of `warps` x 32 threads;
/// warp w of block b takes output b * warps + w, its lanes accumulate
/// iterations lane, lane + 32, ... into their `shared` slots (adjacent lanes
/// read adjacent elements: coalesced along the reduction), one
/// `gpu.subgroup_reduce` combines the warp and lane 0 stores the output.
/// Warps past P compute the last output again and store nothing. No
/// barrier. The output type must fit a warp shuffle (<= 32 bits).
///
/// With `lanes` > 1 (planSplitKWideLoads' figure) each lane reads `lanes`
/// consecutive elements of every input per step with one `tir.vector_load`
/// (128 bits): iterations lanes * (lane + 32 s) + 0 .. lanes - 1. The caller
/// guarantees what the plan's `mustDivide` lists (an scf.if around the nest
/// or a proof): the reduction extent and the inputs' row lengths are
/// multiples of `lanes`.
LogicalResult warpPerOutputReduction(ForOp outer, BlockOp block, ForOp loop,
                                     int64_t warps, int64_t lanes = 1);

/// Lanes of a 128-bit access to elements of all of `dtypes` (16 bytes over
/// the widest; 1 when one of them is not a whole number of bytes, or is
/// wider than 8 bytes).
int64_t getWideAccessLanes(ArrayRef<Type> dtypes);

/// What the split-K GEMV needs for 128-bit loads (WideAccess.cpp).
struct WideLoadPlan {
  /// Elements per load.
  int64_t lanes = 1;
  /// The loads of the inputs, each directly in the block and indexed by the
  /// reduce variable in its last dim only.
  SmallVector<LoadOp> loads;
  /// Lengths that must be multiples of `lanes` and that the symbolic
  /// engine could not prove so (the reduction extent, the inputs' rows).
  SmallVector<relax::sym::Expr> mustDivide;
};
/// The wide-load plan of a reduction `block` in `loop` whose inputs are all
/// read along the reduction; nullopt when an input is read otherwise, the
/// dtypes give fewer than 2 lanes, or a length is provably not a multiple.
std::optional<WideLoadPlan> planSplitKWideLoads(BlockOp block, ForOp loop);
/// An i1 that holds when every value of `values` (expressions of the
/// prim_func's variables, read with tir.sym_var) is a multiple of
/// `lanes`.
Value emitMultiplesCheck(OpBuilder &b, Location loc,
                         ArrayRef<relax::sym::Expr> values, int64_t lanes);

/// Lanes of the wide accesses vectorizeInjective would use on the perfect
/// nest `loops` (outermost first) around `block`, or 1 when it does not
/// apply.
int64_t getInjectiveLanes(ArrayRef<ForOp> loops, BlockOp block);
/// Fuses `loops` (a perfect nest of unit loops whose innermost body is
/// side-effect-free ops and `block`) and makes each iteration of the result
/// compute `lanes` consecutive positions: `block` has no reduce variable,
/// no region, one store at the nest's position (a global buffer of the
/// loops' extents indexed by their variables in order) and reads the
/// stored buffer at most there. The loads at that position and the store
/// become one `tir.vector_load` / `tir.vector_store` each (the stored
/// values staged in a `local` buffer), other loads stay scalar in `lanes`
/// copies of the block; when the total is not a provable multiple of
/// `lanes`, the last chunk runs the original block per element (scalar
/// tail). Returns the loop over chunks, for the caller to bind.
FailureOr<ForOp> vectorizeInjective(ArrayRef<ForOp> loops, BlockOp block);
/// Whether crossThreadReduction's preconditions on `block` and `loop` hold
/// (no diagnostic).
bool canCrossThreadReduce(BlockOp block, ForOp loop);

/// Tiles a matmul-like nest for the GPU: `root` is the outermost loop of a
/// perfect nest of `0 to n step 1` loops, one per variable of `block`,
/// which computes `out[..] = out[..] + f(A[..]) * g(B[..])` (f, g: casts
/// or nothing) with a zero init and one reduce variable k that indexes both
/// A and B. Among the spatial variables, i (the innermost read by A but not
/// B) and j (the innermost read by B but not A) span the output tile; the
/// others are batch dims. The nest is replaced by blockIdx.z (fused batch
/// dims) / blockIdx.y (row tiles) / blockIdx.x (column tiles) loops, each
/// block holding shared `tile x tile` copies of A and B and a shared
/// accumulator per thread, with `tile * tile` threads (threadIdx.x) that
/// zero the accumulator, then per K tile stage A and B (zero outside M, N,
/// K) and run the original block over the tile, and finally store the
/// elements inside the output. `tile` is a power of two in [4, 32].
LogicalResult tileMatmul(ForOp root, BlockOp block, int64_t tile);
/// Whether tileMatmul's preconditions hold (no diagnostic); sets
/// `rowExtent` (when given) to the extent of the row variable i, the M of
/// the GEMM.
bool canTileMatmul(ForOp root, BlockOp block, Value *rowExtent = nullptr);

/// Puts `root` under `scf.if (cond)` and a clone of it in the else branch,
/// for the host to pick one version per call (each lowers to its own
/// kernel); `mapping` maps root's ops to the clone, which is returned.
ForOp versionNest(ForOp root, Value cond, IRMapping &mapping);

/// Schedules a matmul-like nest (as for tileMatmul) whose block computes
/// `out(f32) += extf(A) * extf(B)` with A and B both f16 or both bf16, or
/// `out += A * B` all in f16 or all in bf16 (accumulated in f32 on the
/// tensor cores, rounded once when stored), on tensor cores: 64 x 64 output
/// tiles per thread block (grid as in tileMatmul), 128 threads in 2 x 2 warps
/// of 32 x 32, per K step of 32 the threads stage A (64 x 32) and B (64 x 32, n
/// by k) in shared memory (zero outside M, N, K), then each warp runs 2 x 4 x 2
/// `tir.mma_sync` (16 x 8 x 16) into a `local` accumulator of 32 f32 per lane
/// (registers), and the epilogue stores the in-bounds elements
/// (TensorCoreMatmul.cpp). With `warpgroup` (sm_90a), Hopper's warpgroup MMA
/// instead: 128 x 128 output tiles, 256 threads in two warpgroups of 64 x 128,
/// the tiles staged as 8 x 8 core matrices (the layout wgmma's descriptors
/// address), one `tir.wgmma` (m64n128, k = 32) per warpgroup and K step into 64
/// f32 accumulators per thread. With `tma` as well, operands read along k
/// are loaded by TMA (tir.tma_load through their core-matrix view, thread 0
/// issuing per stage on an mbarrier) in a second version of the kernel,
/// which the host runs when its tir.tensor_map ops could map every such
/// operand and K % 8 == 0 (scf.if; the threads' staging otherwise).
LogicalResult tensorCoreMatmul(ForOp root, BlockOp block,
                               bool warpgroup = false, bool tma = false);
/// Whether tensorCoreMatmul applies (no diagnostic); sets `rowExtent` as
/// canTileMatmul does.
bool canTensorCoreMatmul(ForOp root, BlockOp block,
                         Value *rowExtent = nullptr);

/// Replaces the body of `func`, the program of an unmasked relax.attention
/// (marked with the `tir.attention` hint; f32, f16 or bf16; constant head
/// dims), by the flash-attention GPU kernel: a thread block per tile of
/// query rows of one key/value head, K / V tiles streamed through shared
/// memory, online softmax, the output accumulated in registers and written
/// once (FlashAttention.cpp). Returns false, changing nothing, when `func`
/// is not such a program or its head dims need more shared memory or
/// registers than the kernel's smallest tiles. With `tensorCores`, f16 /
/// bf16 programs whose head dims are multiples of 16 (up to 128) compute
/// Q K^T and P V with tir.mma_sync (f32 accumulators).
FailureOr<bool> flashAttention(PrimFuncOp func, bool tensorCores = false);

} // namespace tir
} // namespace mlir

#endif // RELAXDIALECT_TIR_TRANSFORMS_SCHEDULE_H
