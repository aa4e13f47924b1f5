//===- MmaSyncLowering.cpp - tensor-core tir ops to loops or NVVM --------===//
//
// tir.copy_async / tir.copy_async_wait (the staging of those tiles) become
// cp.async in a GPU thread and a plain copy elsewhere.
//
// tir.mma_sync states what one lane of a warp computes in an m16n8k16
// tensor-core product (TIROps.td). Off the GPU that statement is the
// lowering: a loop nest over the lane's four accumulator elements, which is
// what lets the CPU emulation of GPU schedules check tensor-core schedules
// numerically. In a GPU thread (inside a loop bound to a thread axis; the
// emulation has made those loops serial) the whole warp runs one nvvm.mma.sync whose
// operand fragments each lane reads from shared memory as 32-bit pairs,
// in the register layout the PTX ISA gives for m16n8k16:
//   A (16 x 16, row): a[j] = A[g + 8 * (j % 2)][2q + 8 * (j / 2) + {0, 1}]
//   B (16 x 8, col):  b[j] = B[n = g][k = 2q + 8 * j + {0, 1}]
//   C (16 x 8):       c[i] = C[g + 8 * (i / 2)][2q + i % 2]
// with g = lane / 4 and q = lane % 4; B is stored n by k, so each pair is
// contiguous.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TIRToSCF/TIRToSCF.h"
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::relax;

namespace {
/// The memrefs and index values of one tir.mma_sync, with the lane's group
/// (g) and position in it (q).
struct MmaOperands {
  Value acc, a, b;
  SmallVector<Value> accIndices;
  // Leading indices of the tiles (their stage), then the corner.
  SmallVector<Value> aLead, bLead;
  Value aRow, aCol, bRow, bCol, g, q;

  SmallVector<Value> at(ArrayRef<Value> lead, Value row, Value col) const {
    SmallVector<Value> indices(lead);
    indices.push_back(row);
    indices.push_back(col);
    return indices;
  }
};
} // namespace

static Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value add(OpBuilder &b, Location loc, Value x, int64_t c) {
  return c == 0 ? x : arith::AddIOp::create(b, loc, x, cst(b, loc, c));
}

static Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

/// The accumulator indices of element `i` (a constant or a value).
static SmallVector<Value> accElement(OpBuilder &b, Location loc,
                                     ValueRange base, Value i) {
  SmallVector<Value> indices(base.begin(), base.end());
  indices.back() = add(b, loc, indices.back(), i);
  return indices;
}

/// Whether `op` runs in a GPU thread: inside a tir loop bound to a thread
/// axis, or the gpu-mapped scf.parallel it became.
static bool inGPUThread(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<tir::ForOp>(parent);
        loop && loop.getKind() == tir::LoopKind::thread_binding)
      return true;
    if (isa<scf::ParallelOp>(parent) &&
        parent->hasAttr(gpu::getMappingAttrName()))
      return true;
  }
  return false;
}

static FailureOr<MmaOperands> getOperands(tir::MmaSyncOp op,
                                          PatternRewriter &rewriter) {
  MmaOperands m;
  m.acc = getLoweredMemRef(op.getAcc());
  m.a = getLoweredMemRef(op.getA());
  m.b = getLoweredMemRef(op.getB());
  if (!m.acc || !m.a || !m.b)
    return rewriter.notifyMatchFailure(op, "buffers are not lowered memrefs");
  Location loc = op.getLoc();
  m.accIndices.assign(op.getAccIndices().begin(), op.getAccIndices().end());
  ValueRange a = op.getAIndices(), b = op.getBIndices();
  llvm::append_range(m.aLead, a.drop_back(2));
  llvm::append_range(m.bLead, b.drop_back(2));
  m.aRow = a[a.size() - 2];
  m.aCol = a.back();
  m.bRow = b[b.size() - 2];
  m.bCol = b.back();
  m.g = arith::DivUIOp::create(rewriter, loc, op.getLane(), cst(rewriter, loc, 4));
  m.q = arith::RemUIOp::create(rewriter, loc, op.getLane(), cst(rewriter, loc, 4));
  return m;
}

namespace {
/// A pattern for one side of the placement rule: ops in a GPU thread
/// (`OnGPU`) or elsewhere; the other side's pattern takes the rest.
template <typename OpTy, bool OnGPU>
struct PlacedPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (inGPUThread(op) != OnGPU)
      return rewriter.notifyMatchFailure(op, "placed on the other side");
    return rewritePlaced(op, rewriter);
  }

  virtual LogicalResult rewritePlaced(OpTy op,
                                      PatternRewriter &rewriter) const = 0;
};
} // namespace

namespace {
/// The definition of the op as loops: for i < 4, k < 16 in that order.
struct MmaSyncToLoops : PlacedPattern<tir::MmaSyncOp, /*OnGPU=*/false> {
  using PlacedPattern::PlacedPattern;

  LogicalResult rewritePlaced(tir::MmaSyncOp op,
                              PatternRewriter &rewriter) const override {
    FailureOr<MmaOperands> m = getOperands(op, rewriter);
    if (failed(m))
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    auto elements = scf::ForOp::create(rewriter, loc, cst(rewriter, loc, 0),
                                       cst(rewriter, loc, 4),
                                       cst(rewriter, loc, 1));
    OpBuilder b = OpBuilder::atBlockBegin(elements.getBody());
    Value i = elements.getInductionVar();
    // Row g + 8 * (i / 2) of the A tile, column 2q + i % 2 of the output
    // (row of the n-by-k B tile).
    Value row = add(b, loc, m->aRow,
                    add(b, loc, m->g,
                        arith::MulIOp::create(
                            b, loc, cst(b, loc, 8),
                            arith::DivUIOp::create(b, loc, i, cst(b, loc, 2)))));
    Value col = add(b, loc, m->bRow,
                    add(b, loc,
                        arith::MulIOp::create(b, loc, m->q, cst(b, loc, 2)),
                        arith::RemUIOp::create(b, loc, i, cst(b, loc, 2))));
    SmallVector<Value> accIndices = accElement(b, loc, m->accIndices, i);
    Value init = memref::LoadOp::create(b, loc, m->acc, accIndices);
    auto sum = scf::ForOp::create(b, loc, cst(b, loc, 0), cst(b, loc, 16),
                                  cst(b, loc, 1), ValueRange{init});
    {
      OpBuilder kb = OpBuilder::atBlockBegin(sum.getBody());
      Value k = sum.getInductionVar();
      Value x = memref::LoadOp::create(
          kb, loc, m->a, m->at(m->aLead, row, add(kb, loc, m->aCol, k)));
      Value y = memref::LoadOp::create(
          kb, loc, m->b, m->at(m->bLead, col, add(kb, loc, m->bCol, k)));
      Value product = arith::MulFOp::create(
          kb, loc, arith::ExtFOp::create(kb, loc, f32, x),
          arith::ExtFOp::create(kb, loc, f32, y));
      Value next =
          arith::AddFOp::create(kb, loc, sum.getRegionIterArgs()[0], product);
      scf::YieldOp::create(kb, loc, next);
    }
    memref::StoreOp::create(b, loc, sum.getResult(0), m->acc, accIndices);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The warp's nvvm.mma.sync; fragments are 32-bit loads of element pairs
/// (bf16 pairs travel as i32, as the NVVM op wants them).
struct MmaSyncToNVVM : PlacedPattern<tir::MmaSyncOp, /*OnGPU=*/true> {
  using PlacedPattern::PlacedPattern;

  LogicalResult rewritePlaced(tir::MmaSyncOp op,
                              PatternRewriter &rewriter) const override {
    auto isShared = [](Value memref) {
      auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
          cast<MemRefType>(memref.getType()).getMemorySpace());
      return space && space.getValue() == gpu::AddressSpace::Workgroup;
    };
    FailureOr<MmaOperands> m = getOperands(op, rewriter);
    if (failed(m))
      return failure();
    // checkTIRMmaSyncForGPU reported this before the patterns ran.
    if (!isShared(m->a) || !isShared(m->b))
      return rewriter.notifyMatchFailure(op, "operands are not shared");
    Location loc = op.getLoc();
    Type dtype = cast<MemRefType>(m->a.getType()).getElementType();
    bool bf16 = dtype.isBF16();
    auto pairType = VectorType::get({2}, dtype);
    auto loadPair = [&](Value memref, ArrayRef<Value> lead, Value row,
                        Value col) -> Value {
      Value pair = vector::LoadOp::create(rewriter, loc, pairType, memref,
                                          m->at(lead, row, col));
      if (!bf16)
        return pair;
      Value word = vector::BitCastOp::create(
          rewriter, loc, VectorType::get({1}, rewriter.getI32Type()), pair);
      return vector::ExtractOp::create(rewriter, loc, word, ArrayRef<int64_t>{0});
    };
    Value q2 = arith::MulIOp::create(rewriter, loc, m->q, cst(rewriter, loc, 2));
    SmallVector<Value> fragA, fragB, fragC;
    for (int64_t j = 0; j < 4; ++j)
      fragA.push_back(
          loadPair(m->a, m->aLead, add(rewriter, loc, add(rewriter, loc, m->aRow, m->g), 8 * (j % 2)),
                   add(rewriter, loc, add(rewriter, loc, m->aCol, q2), 8 * (j / 2))));
    for (int64_t j = 0; j < 2; ++j)
      fragB.push_back(
          loadPair(m->b, m->bLead, add(rewriter, loc, m->bRow, m->g),
                   add(rewriter, loc, add(rewriter, loc, m->bCol, q2), 8 * j)));
    SmallVector<SmallVector<Value>> accIndices;
    for (int64_t i = 0; i < 4; ++i) {
      accIndices.push_back(
          accElement(rewriter, loc, m->accIndices, cst(rewriter, loc, i)));
      fragC.push_back(
          memref::LoadOp::create(rewriter, loc, m->acc, accIndices.back()));
    }
    Type f32 = rewriter.getF32Type();
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), {f32, f32, f32, f32});
    // f16 is inferred from the vector<2xf16> operands; i32 pairs need it.
    std::optional<std::array<NVVM::MMATypes, 2>> ptxTypes;
    if (bf16)
      ptxTypes = std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                               NVVM::MMATypes::bf16};
    auto mma = NVVM::MmaOp::create(
        rewriter, loc, resultType, fragA, fragB, fragC,
        /*shape=*/ArrayRef<int64_t>{16, 8, 16}, /*b1Op=*/std::nullopt,
        /*intOverflow=*/std::nullopt,
        /*multiplicandPtxTypes=*/ptxTypes,
        /*multiplicandLayouts=*/
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    for (int64_t i = 0; i < 4; ++i) {
      Value c = LLVM::ExtractValueOp::create(rewriter, loc, mma.getResult(),
                                             ArrayRef<int64_t>{i});
      memref::StoreOp::create(rewriter, loc, c, m->acc, accIndices[i]);
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

namespace {
/// The copy done at once: a loop over the lanes, zeros when out of bounds.
struct CopyAsyncToLoop : PlacedPattern<tir::CopyAsyncOp, /*OnGPU=*/false> {
  using PlacedPattern::PlacedPattern;

  LogicalResult rewritePlaced(tir::CopyAsyncOp op,
                              PatternRewriter &rewriter) const override {
    Value dst = getLoweredMemRef(op.getDst());
    Value src = getLoweredMemRef(op.getSrc());
    if (!dst || !src)
      return rewriter.notifyMatchFailure(op, "buffers are not lowered memrefs");
    Location loc = op.getLoc();
    auto lanes = scf::ForOp::create(rewriter, loc, cst(rewriter, loc, 0),
                                    cst(rewriter, loc, op.getLanes()),
                                    cst(rewriter, loc, 1));
    OpBuilder b = OpBuilder::atBlockBegin(lanes.getBody());
    Value l = lanes.getInductionVar();
    Type dtype = cast<MemRefType>(dst.getType()).getElementType();
    auto read = scf::IfOp::create(b, loc, TypeRange{dtype}, op.getInBounds(),
                                  /*withElse=*/true);
    {
      OpBuilder tb = read.getThenBodyBuilder();
      SmallVector<Value> indices = accElement(tb, loc, op.getSrcIndices(), l);
      Value element = memref::LoadOp::create(tb, loc, src, indices);
      scf::YieldOp::create(tb, loc, element);
      OpBuilder eb = read.getElseBodyBuilder();
      Value zero = arith::ConstantOp::create(eb, loc, eb.getZeroAttr(dtype));
      scf::YieldOp::create(eb, loc, zero);
    }
    memref::StoreOp::create(b, loc, read.getResult(0), dst,
                            accElement(b, loc, op.getDstIndices(), l));
    rewriter.eraseOp(op);
    return success();
  }
};

/// cp.async: out of bounds, zero bytes are read (from a clamped address)
/// and the destination is zero-filled.
struct CopyAsyncToNVGPU : PlacedPattern<tir::CopyAsyncOp, /*OnGPU=*/true> {
  using PlacedPattern::PlacedPattern;

  LogicalResult rewritePlaced(tir::CopyAsyncOp op,
                              PatternRewriter &rewriter) const override {
    Value dst = getLoweredMemRef(op.getDst());
    Value src = getLoweredMemRef(op.getSrc());
    if (!dst || !src)
      return rewriter.notifyMatchFailure(op, "buffers are not lowered memrefs");
    Location loc = op.getLoc();
    Value zero = cst(rewriter, loc, 0);
    SmallVector<Value> srcIndices;
    for (Value index : op.getSrcIndices())
      srcIndices.push_back(
          arith::SelectOp::create(rewriter, loc, op.getInBounds(), index, zero));
    int64_t lanes = op.getLanes();
    Value count = arith::SelectOp::create(rewriter, loc, op.getInBounds(),
                                          cst(rewriter, loc, lanes), zero);
    Type dtype = cast<MemRefType>(dst.getType()).getElementType();
    bool full = lanes * dtype.getIntOrFloatBitWidth() == 128;
    nvgpu::DeviceAsyncCopyOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
        dst, op.getDstIndices(), src, srcIndices,
        rewriter.getIndexAttr(lanes), count,
        full ? rewriter.getUnitAttr() : UnitAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Commit the thread's copies as a group and wait for all groups.
struct CopyAsyncWaitToNVVM : OpRewritePattern<tir::CopyAsyncWaitOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tir::CopyAsyncWaitOp op,
                                PatternRewriter &rewriter) const override {
    if (!inGPUThread(op)) {
      rewriter.eraseOp(op); // Copies elsewhere are done at once.
      return success();
    }
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(),
                                     rewriter.getI32IntegerAttr(0));
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

LogicalResult mlir::relax::checkTIRMmaSyncForGPU(Operation *root) {
  auto isShared = [](Value buffer) {
    return cast<tir::BufferType>(buffer.getType()).getScope() ==
           tir::MemoryScope::shared;
  };
  WalkResult result = root->walk([&](Operation *op) {
    if (!isa<tir::MmaSyncOp, tir::CopyAsyncOp>(op) || !inGPUThread(op))
      return WalkResult::advance();
    if (auto mma = dyn_cast<tir::MmaSyncOp>(op);
        mma && (!isShared(mma.getA()) || !isShared(mma.getB()))) {
      op->emitOpError("on the GPU, operands a and b must be shared buffers");
      return WalkResult::interrupt();
    }
    if (auto copy = dyn_cast<tir::CopyAsyncOp>(op);
        copy && !isShared(copy.getDst())) {
      op->emitOpError("on the GPU, the destination must be a shared buffer");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void mlir::relax::populateTIRMmaSyncLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MmaSyncToNVVM, CopyAsyncToNVGPU, CopyAsyncWaitToNVVM,
               MmaSyncToLoops, CopyAsyncToLoop>(patterns.getContext());
}
