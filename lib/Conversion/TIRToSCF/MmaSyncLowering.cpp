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
// emulation has made those loops serial) the whole warp runs one nvvm.mma.sync
// whose operand fragments each lane reads from shared memory as 32-bit pairs,
// in the register layout the PTX ISA gives for m16n8k16:
//   A (16 x 16, row): a[j] = A[g + 8 * (j % 2)][2q + 8 * (j / 2) + {0, 1}]
//   B (16 x 8, col):  b[j] = B[n = g][k = 2q + 8 * j + {0, 1}]
//   C (16 x 8):       c[i] = C[g + 8 * (i / 2)][2q + i % 2]
// with g = lane / 4 and q = lane % 4; B is stored n by k, so each pair is
// contiguous.
//
// tir.wgmma (sm_90a) likewise: loops off the GPU, nvvm.wgmma.* on it (see
// the section below for its matrix descriptors). upstream's
// nvgpu.warpgroup.* ops are not used: their descriptors come only from a
// TMA descriptor's type (nvgpu.warpgroup.generate.descriptor takes a
// tensor map), and their accumulator is a warpgroup-wide value, not the
// per-thread registers tir's accumulators are.
//
//===----------------------------------------------------------------------===//

#include "PlacedLowering.h"

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
  /// `a` is the lanes' A fragments (a local buffer), `b` stored k by n.
  bool fragmentA = false, bKByN = false;

  SmallVector<Value> at(ArrayRef<Value> lead, Value row, Value col) const {
    SmallVector<Value> indices(lead);
    indices.push_back(row);
    indices.push_back(col);
    return indices;
  }
};
} // namespace

static Value add(OpBuilder &b, Location loc, Value x, int64_t c) {
  return c == 0 ? x : arith::AddIOp::create(b, loc, x, cst(b, loc, c));
}

static Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

void mlir::relax::createAsyncProxyFence(OpBuilder &b, Location loc) {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

/// The accumulator indices of element `i` (a constant or a value).
static SmallVector<Value> accElement(OpBuilder &b, Location loc,
                                     ValueRange base, Value i) {
  SmallVector<Value> indices(base.begin(), base.end());
  indices.back() = add(b, loc, indices.back(), i);
  return indices;
}

Value mlir::relax::loadOrZero(OpBuilder &b, Location loc, Value inBounds,
                              Value src, ValueRange indices) {
  Type dtype = cast<MemRefType>(src.getType()).getElementType();
  auto read =
      scf::IfOp::create(b, loc, TypeRange{dtype}, inBounds, /*withElse=*/true);
  OpBuilder tb = read.getThenBodyBuilder();
  scf::YieldOp::create(
      tb, loc, memref::LoadOp::create(tb, loc, src, indices).getResult());
  OpBuilder eb = read.getElseBodyBuilder();
  scf::YieldOp::create(
      eb, loc,
      arith::ConstantOp::create(eb, loc, eb.getZeroAttr(dtype)).getResult());
  return read.getResult(0);
}

FailureOr<SmallVector<Value>>
mlir::relax::getLoweredMemRefs(Operation *op, ValueRange buffers,
                               PatternRewriter &rewriter) {
  SmallVector<Value> memrefs;
  for (Value buffer : buffers) {
    memrefs.push_back(getLoweredMemRef(buffer));
    if (!memrefs.back())
      return rewriter.notifyMatchFailure(op, "buffers are not lowered memrefs");
  }
  return memrefs;
}

bool mlir::relax::inGPUThread(Operation *op) {
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
  m.fragmentA = cast<tir::BufferType>(op.getA().getType()).getScope() ==
                tir::MemoryScope::local;
  m.bKByN = op.getBKByN();
  // A fragment of rank 1 (on the GPU) has only the element index.
  if (a.size() >= 2) {
    llvm::append_range(m.aLead, a.drop_back(2));
    m.aRow = a[a.size() - 2];
  }
  llvm::append_range(m.bLead, b.drop_back(2));
  m.aCol = a.back();
  m.bRow = b[b.size() - 2];
  m.bCol = b.back();
  m.g = arith::DivUIOp::create(rewriter, loc, op.getLane(), cst(rewriter, loc, 4));
  m.q = arith::RemUIOp::create(rewriter, loc, op.getLane(), cst(rewriter, loc, 4));
  return m;
}

/// Element (n, k) of the B tile (the `col` operand: n by k, or k by n).
static SmallVector<Value> bElement(OpBuilder &b, Location loc,
                                   const MmaOperands &m, Value n, Value k) {
  if (m.bKByN)
    return m.at(m.bLead, add(b, loc, m.bRow, k), add(b, loc, m.bCol, n));
  return m.at(m.bLead, add(b, loc, m.bRow, n), add(b, loc, m.bCol, k));
}

/// Off the GPU, element (g + 8 * half, k) of a warp's A fragments, which
/// lane 4 g + (k % 8) / 2 holds at 2 (half + 2 (k / 8)) + k % 2 of its
/// fragment: `a` carries the emulation's per-thread dim, so the lane is the
/// thread `aRow` (this lane's) - lane + that lane.
static Value loadFragmentElement(OpBuilder &b, Location loc,
                                 const MmaOperands &m, Value lane, Value half,
                                 Value k) {
  auto mul = [&](Value x, int64_t c) -> Value {
    return arith::MulIOp::create(b, loc, x, cst(b, loc, c));
  };
  auto div = [&](Value x, int64_t c) -> Value {
    return arith::DivUIOp::create(b, loc, x, cst(b, loc, c));
  };
  auto rem = [&](Value x, int64_t c) -> Value {
    return arith::RemUIOp::create(b, loc, x, cst(b, loc, c));
  };
  Value holder = add(b, loc, mul(m.g, 4), div(rem(k, 8), 2));
  Value thread = add(b, loc, arith::SubIOp::create(b, loc, m.aRow, lane),
                     holder);
  Value element = add(b, loc, mul(add(b, loc, half, mul(div(k, 8), 2)), 2),
                      rem(k, 2));
  return memref::LoadOp::create(
      b, loc, m.a, m.at(m.aLead, thread, add(b, loc, m.aCol, element)));
}

namespace {
/// The definition of the op as loops: for i < 4, k < 16 in that order.
struct MmaSyncToLoops : PlacedPattern<tir::MmaSyncOp, /*OnGPU=*/false> {
  using PlacedPattern::PlacedPattern;

  LogicalResult rewritePlaced(tir::MmaSyncOp op,
                              PatternRewriter &rewriter) const override {
    FailureOr<MmaOperands> m = getOperands(op, rewriter);
    if (failed(m))
      return failure();
    if (m->fragmentA && cast<MemRefType>(m->a.getType()).getRank() < 2)
      return rewriter.notifyMatchFailure(
          op, "a local a off the GPU needs the emulation's per-thread dim");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    auto elements = scf::ForOp::create(rewriter, loc, cst(rewriter, loc, 0),
                                       cst(rewriter, loc, 4),
                                       cst(rewriter, loc, 1));
    OpBuilder b = OpBuilder::atBlockBegin(elements.getBody());
    Value i = elements.getInductionVar();
    // Row g + 8 * (i / 2) of the A tile, column 2q + i % 2 of the output
    // (n of the B tile).
    Value half = arith::DivUIOp::create(b, loc, i, cst(b, loc, 2));
    Value row = add(b, loc, m->aRow,
                    add(b, loc, m->g,
                        arith::MulIOp::create(b, loc, cst(b, loc, 8), half)));
    Value col = add(b, loc,
                    arith::MulIOp::create(b, loc, m->q, cst(b, loc, 2)),
                    arith::RemUIOp::create(b, loc, i, cst(b, loc, 2)));
    SmallVector<Value> accIndices = accElement(b, loc, m->accIndices, i);
    Value init = memref::LoadOp::create(b, loc, m->acc, accIndices);
    auto sum = scf::ForOp::create(b, loc, cst(b, loc, 0), cst(b, loc, 16),
                                  cst(b, loc, 1), ValueRange{init});
    {
      OpBuilder kb = OpBuilder::atBlockBegin(sum.getBody());
      Value k = sum.getInductionVar();
      Value x = m->fragmentA
                    ? loadFragmentElement(kb, loc, *m, op.getLane(), half, k)
                    : memref::LoadOp::create(
                          kb, loc, m->a,
                          m->at(m->aLead, row, add(kb, loc, m->aCol, k)));
      Value y = memref::LoadOp::create(kb, loc, m->b,
                                       bElement(kb, loc, *m, col, k));
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
    if ((!isShared(m->a) && !m->fragmentA) || !isShared(m->b))
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
    // Two elements made a pair (registers, or a k-by-n B read down k).
    auto makePair = [&](Value x, Value y) -> Value {
      Value pair = vector::FromElementsOp::create(rewriter, loc, pairType,
                                                  ValueRange{x, y});
      if (!bf16)
        return pair;
      Value word = vector::BitCastOp::create(
          rewriter, loc, VectorType::get({1}, rewriter.getI32Type()), pair);
      return vector::ExtractOp::create(rewriter, loc, word, ArrayRef<int64_t>{0});
    };
    Value q2 = arith::MulIOp::create(rewriter, loc, m->q, cst(rewriter, loc, 2));
    SmallVector<Value> fragA, fragB, fragC;
    for (int64_t j = 0; j < 4; ++j) {
      if (m->fragmentA) {
        auto element = [&](int64_t e) -> Value {
          return memref::LoadOp::create(
              rewriter, loc, m->a,
              accElement(rewriter, loc, op.getAIndices(),
                         cst(rewriter, loc, e)));
        };
        Value first = element(2 * j);
        fragA.push_back(makePair(first, element(2 * j + 1)));
        continue;
      }
      fragA.push_back(
          loadPair(m->a, m->aLead, add(rewriter, loc, add(rewriter, loc, m->aRow, m->g), 8 * (j % 2)),
                   add(rewriter, loc, add(rewriter, loc, m->aCol, q2), 8 * (j / 2))));
    }
    for (int64_t j = 0; j < 2; ++j) {
      Value k = add(rewriter, loc, q2, 8 * j);
      if (m->bKByN) {
        auto element = [&](int64_t dk) -> Value {
          return memref::LoadOp::create(
              rewriter, loc, m->b,
              bElement(rewriter, loc, *m, m->g, add(rewriter, loc, k, dk)));
        };
        Value first = element(0);
        fragB.push_back(makePair(first, element(1)));
        continue;
      }
      fragB.push_back(
          loadPair(m->b, m->bLead, add(rewriter, loc, m->bRow, m->g),
                   add(rewriter, loc, m->bCol, k)));
    }
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
    Value element = loadOrZero(b, loc, op.getInBounds(), src,
                               accElement(b, loc, op.getSrcIndices(), l));
    memref::StoreOp::create(b, loc, element, dst,
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
    if (op.getAsyncProxy())
      createAsyncProxyFence(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// tir.wgmma
//===----------------------------------------------------------------------===//
//
// A wgmma operand is read by the tensor cores through a 64-bit matrix
// descriptor (PTX ISA, "Matrix Descriptor Format"): bits 0-13 the
// shared-memory start address >> 4, bits 16-29 the leading dimension byte
// offset >> 4, bits 32-45 the stride dimension byte offset >> 4, bits 62-63
// the swizzle mode (0: none). In the non-swizzled mode a K-major operand is
// made of 8 x 16-byte core matrices; the leading offset is the distance
// between the two core matrices of a row along k, the stride offset that
// between core matrices 8 rows apart. Both come from the tile's static
// shape [.., K / 8, R / 8, 8, 8].
//
// Off the GPU the op becomes loops that read the tiles through the same
// descriptor, decoded field by field as the hardware does, so the CPU
// emulation checks the descriptor fields, not only the tir semantics.

namespace {
/// The fields of a wgmma matrix descriptor that depend on the tile's layout.
struct WgmmaTileLayout {
  int64_t elementBytes;
  int64_t leadingBytes; // Between core matrices adjacent along k.
  int64_t strideBytes;  // Between core matrices adjacent along the rows.
  SmallVector<int64_t> strides; // Of the memref, in elements.
};
} // namespace

static WgmmaTileLayout getWgmmaTileLayout(MemRefType type) {
  WgmmaTileLayout layout;
  layout.elementBytes = type.getElementTypeBitWidth() / 8;
  ArrayRef<int64_t> shape = type.getShape();
  layout.strides.assign(shape.size(), 1);
  for (int64_t d = shape.size() - 2; d >= 0; --d)
    layout.strides[d] = layout.strides[d + 1] * shape[d + 1];
  int64_t rank = shape.size();
  layout.leadingBytes = layout.strides[rank - 4] * layout.elementBytes;
  layout.strideBytes = layout.strides[rank - 3] * layout.elementBytes;
  return layout;
}

/// The descriptor bits other than the start address (no swizzle, base
/// offset 0).
static int64_t getWgmmaDescriptorFields(const WgmmaTileLayout &layout) {
  auto field = [](int64_t bytes, int64_t shift) {
    return ((bytes >> 4) & 0x3FFF) << shift;
  };
  return field(layout.leadingBytes, 16) | field(layout.strideBytes, 32);
}

/// The descriptor of the 64 x 16 (or n x 16) tile of `memref` whose corner
/// core matrix `indices` (all dims but the last two) name, `kStep` 16-wide
/// steps further along k: `base` is the memref's start address in bytes (the
/// shared-memory address on the GPU, 0 elsewhere).
static Value buildWgmmaDescriptor(OpBuilder &b, Location loc, Value memref,
                                  ValueRange indices, Value base,
                                  int64_t kStep) {
  auto type = cast<MemRefType>(memref.getType());
  WgmmaTileLayout layout = getWgmmaTileLayout(type);
  Type i64 = b.getI64Type();
  auto c64 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v))
        .getResult();
  };
  // The corner's byte offset; one k step is two core matrices along k.
  Value offset = c64(2 * kStep * layout.leadingBytes);
  for (auto [index, stride] : llvm::zip(indices, layout.strides)) {
    Value i = arith::IndexCastUIOp::create(b, loc, i64, index);
    offset = arith::AddIOp::create(
        b, loc, offset,
        arith::MulIOp::create(b, loc, i, c64(stride * layout.elementBytes)));
  }
  Value address = arith::AddIOp::create(b, loc, base, offset);
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, c64(0x3FFFF)), c64(4));
  return arith::OrIOp::create(b, loc, start,
                              c64(getWgmmaDescriptorFields(layout)));
}

/// Field `shift` (14 bits, in units of 16 bytes) of a descriptor, in bytes.
static Value decodeWgmmaField(OpBuilder &b, Location loc, Value descriptor,
                              int64_t shift) {
  auto c64 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v))
        .getResult();
  };
  Value field = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, descriptor, c64(shift)),
      c64(0x3FFF));
  return arith::ShLIOp::create(b, loc, field, c64(4));
}

namespace {
/// Both lowerings of tir.wgmma: `rewriteWgmma` gets the lowered
/// accumulator and tiles.
template <bool OnGPU> struct WgmmaPattern : PlacedPattern<tir::WgmmaOp, OnGPU> {
  using PlacedPattern<tir::WgmmaOp, OnGPU>::PlacedPattern;

  LogicalResult rewritePlaced(tir::WgmmaOp op,
                              PatternRewriter &rewriter) const final {
    Value acc = getLoweredMemRef(op.getAcc());
    Value a = getLoweredMemRef(op.getA());
    Value b = getLoweredMemRef(op.getB());
    if (!acc || !a || !b)
      return rewriter.notifyMatchFailure(op, "buffers are not lowered memrefs");
    rewriteWgmma(op, acc, a, b, rewriter);
    rewriter.eraseOp(op);
    return success();
  }

  virtual void rewriteWgmma(tir::WgmmaOp op, Value acc, Value a, Value bTile,
                            PatternRewriter &rewriter) const = 0;
};
} // namespace

namespace {
/// The definition of the op as loops reading the tiles through decoded
/// descriptors: for each k step, j < n / 8, i < 4, k' < 16.
struct WgmmaToLoops : WgmmaPattern</*OnGPU=*/false> {
  using WgmmaPattern::WgmmaPattern;

  void rewriteWgmma(tir::WgmmaOp op, Value acc, Value a, Value bTile,
                    PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type i64 = b.getI64Type(), f32 = b.getF32Type();
    auto flat = [&](Value memref) -> Value {
      auto type = cast<MemRefType>(memref.getType());
      ReassociationIndices all;
      for (int64_t d = 0; d < type.getRank(); ++d)
        all.push_back(d);
      return memref::CollapseShapeOp::create(
          b, loc, memref, ArrayRef<ReassociationIndices>{all});
    };
    Value flatA = flat(a), flatB = flat(bTile);
    int64_t elementBytes =
        cast<MemRefType>(a.getType()).getElementTypeBitWidth() / 8;
    Value zero64 = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
    Value t = op.getThread();
    Value w = arith::DivUIOp::create(b, loc, t, cst(b, loc, 32));
    Value lane = arith::RemUIOp::create(b, loc, t, cst(b, loc, 32));
    Value g = arith::DivUIOp::create(b, loc, lane, cst(b, loc, 4));
    Value q = arith::RemUIOp::create(b, loc, lane, cst(b, loc, 4));
    // Element (r, k) of the 16-wide step a descriptor names: start +
    // (k / 8) * leading + (r / 8) * stride + (r % 8) * 16 + (k % 8) * bytes.
    auto element = [&](OpBuilder &eb, Value memref, Value descriptor, Value r,
                       Value k) -> Value {
      auto c64 = [&](int64_t v) {
        return arith::ConstantOp::create(eb, loc, eb.getI64IntegerAttr(v))
            .getResult();
      };
      Value r64 = arith::IndexCastUIOp::create(eb, loc, i64, r);
      Value k64 = arith::IndexCastUIOp::create(eb, loc, i64, k);
      Value bytes = decodeWgmmaField(eb, loc, descriptor, 0);
      auto term = [&](Value x, int64_t div, Value scale) {
        Value part = arith::DivUIOp::create(eb, loc, x, c64(div));
        bytes = arith::AddIOp::create(
            eb, loc, bytes, arith::MulIOp::create(eb, loc, part, scale));
      };
      term(k64, 8, decodeWgmmaField(eb, loc, descriptor, 16));
      term(r64, 8, decodeWgmmaField(eb, loc, descriptor, 32));
      bytes = arith::AddIOp::create(
          eb, loc, bytes,
          arith::MulIOp::create(
              eb, loc, arith::RemUIOp::create(eb, loc, r64, c64(8)), c64(16)));
      bytes = arith::AddIOp::create(
          eb, loc, bytes,
          arith::MulIOp::create(eb, loc,
                                arith::RemUIOp::create(eb, loc, k64, c64(8)),
                                c64(elementBytes)));
      Value index = arith::IndexCastUIOp::create(
          eb, loc, eb.getIndexType(),
          arith::DivUIOp::create(eb, loc, bytes, c64(elementBytes)));
      Value x = memref::LoadOp::create(eb, loc, memref, ValueRange{index});
      return arith::ExtFOp::create(eb, loc, f32, x);
    };
    for (int64_t step = 0; step < op.getK() / 16; ++step) {
      Value descA =
          buildWgmmaDescriptor(b, loc, a, op.getAIndices(), zero64, step);
      Value descB =
          buildWgmmaDescriptor(b, loc, bTile, op.getBIndices(), zero64, step);
      auto columns = scf::ForOp::create(
          b, loc, cst(b, loc, 0), cst(b, loc, op.getN() / 8), cst(b, loc, 1));
      OpBuilder jb = OpBuilder::atBlockBegin(columns.getBody());
      Value j = columns.getInductionVar();
      auto elements = scf::ForOp::create(jb, loc, cst(jb, loc, 0),
                                         cst(jb, loc, 4), cst(jb, loc, 1));
      OpBuilder ib = OpBuilder::atBlockBegin(elements.getBody());
      Value i = elements.getInductionVar();
      auto mul = [&](Value x, int64_t c) {
        return arith::MulIOp::create(ib, loc, x, cst(ib, loc, c)).getResult();
      };
      auto div = [&](Value x, int64_t c) {
        return arith::DivUIOp::create(ib, loc, x, cst(ib, loc, c)).getResult();
      };
      auto rem = [&](Value x, int64_t c) {
        return arith::RemUIOp::create(ib, loc, x, cst(ib, loc, c)).getResult();
      };
      Value row = add(ib, loc, add(ib, loc, mul(w, 16), g), mul(div(i, 2), 8));
      Value col = add(ib, loc, add(ib, loc, mul(j, 8), mul(q, 2)), rem(i, 2));
      SmallVector<Value> accIndices =
          accElement(ib, loc, op.getAccIndices(), add(ib, loc, mul(j, 4), i));
      Value init = memref::LoadOp::create(ib, loc, acc, accIndices);
      auto sum = scf::ForOp::create(ib, loc, cst(ib, loc, 0), cst(ib, loc, 16),
                                    cst(ib, loc, 1), ValueRange{init});
      {
        OpBuilder kb = OpBuilder::atBlockBegin(sum.getBody());
        Value k = sum.getInductionVar();
        Value x = element(kb, flatA, descA, row, k);
        Value y = element(kb, flatB, descB, col, k);
        Value product = arith::MulFOp::create(kb, loc, x, y);
        Value next =
            arith::AddFOp::create(kb, loc, sum.getRegionIterArgs()[0], product);
        scf::YieldOp::create(kb, loc, next);
      }
      memref::StoreOp::create(ib, loc, sum.getResult(0), acc, accIndices);
    }
  }
};

/// The warpgroup's wgmma.mma_async chain on the thread's accumulators,
/// fenced before (registers and the threads' shared-memory writes) and
/// waited for after.
struct WgmmaToNVVM : WgmmaPattern</*OnGPU=*/true> {
  using WgmmaPattern::WgmmaPattern;

  void rewriteWgmma(tir::WgmmaOp op, Value acc, Value a, Value bTile,
                    PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type i64 = b.getI64Type(), f32 = b.getF32Type();
    auto address = [&](Value memref) -> Value {
      Value pointer =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
      return arith::IndexCastUIOp::create(b, loc, i64, pointer);
    };
    Value baseA = address(a), baseB = address(bTile);
    int64_t n = op.getN();
    SmallVector<Type> fields(n / 2, f32);
    auto structType =
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), fields);
    createAsyncProxyFence(b, loc);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    Value d = LLVM::UndefOp::create(b, loc, structType);
    SmallVector<SmallVector<Value>> accIndices;
    for (int64_t e = 0; e < n / 2; ++e) {
      accIndices.push_back(
          accElement(b, loc, op.getAccIndices(), cst(b, loc, e)));
      Value v = memref::LoadOp::create(b, loc, acc, accIndices.back());
      d = LLVM::InsertValueOp::create(b, loc, d, v, ArrayRef<int64_t>{e});
    }
    bool bf16 = cast<MemRefType>(a.getType()).getElementType().isBF16();
    auto dtype = NVVM::WGMMATypesAttr::get(
        b.getContext(), bf16 ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16);
    auto one =
        NVVM::WGMMAScaleInAttr::get(b.getContext(), NVVM::WGMMAScaleIn::one);
    for (int64_t step = 0; step < op.getK() / 16; ++step) {
      Value descA =
          buildWgmmaDescriptor(b, loc, a, op.getAIndices(), baseA, step);
      Value descB =
          buildWgmmaDescriptor(b, loc, bTile, op.getBIndices(), baseB, step);
      // Both operands K-major: A "row", B "col" (no transpose).
      d = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, structType, d, descA, descB,
          NVVM::MMAShapeAttr::get(b.getContext(), 64, n, 16), dtype, dtype,
          NVVM::WGMMATypesAttr::get(b.getContext(), NVVM::WGMMATypes::f32),
          NVVM::WGMMAScaleOutAttr::get(b.getContext(),
                                       NVVM::WGMMAScaleOut::one),
          one, one,
          NVVM::MMALayoutAttr::get(b.getContext(), NVVM::MMALayout::row),
          NVVM::MMALayoutAttr::get(b.getContext(), NVVM::MMALayout::col),
          /*satfinite=*/NVVM::MMAIntOverflowAttr());
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    for (int64_t e = 0; e < n / 2; ++e) {
      Value v = LLVM::ExtractValueOp::create(b, loc, d, ArrayRef<int64_t>{e});
      memref::StoreOp::create(b, loc, v, acc, accIndices[e]);
    }
  }
};
} // namespace

LogicalResult mlir::relax::checkTIRMmaSyncForGPU(Operation *root) {
  auto isShared = [](Value buffer) {
    return cast<tir::BufferType>(buffer.getType()).getScope() ==
           tir::MemoryScope::shared;
  };
  WalkResult result = root->walk([&](Operation *op) {
    if (!isa<tir::MmaSyncOp, tir::WgmmaOp, tir::CopyAsyncOp, tir::TmaLoadOp,
             tir::MbarrierInitOp, tir::MbarrierArriveExpectTxOp,
             tir::MbarrierWaitOp>(op) ||
        !inGPUThread(op))
      return WalkResult::advance();
    if (failed(checkTIRTmaForGPU(op)))
      return WalkResult::interrupt();
    // (A local a is the lanes' A fragments, registers.)
    auto inRegisters = [](Value buffer) {
      return cast<tir::BufferType>(buffer.getType()).getScope() ==
             tir::MemoryScope::local;
    };
    if (auto mma = dyn_cast<tir::MmaSyncOp>(op);
        mma && ((!isShared(mma.getA()) && !inRegisters(mma.getA())) ||
                !isShared(mma.getB()))) {
      op->emitOpError("on the GPU, operand a must be a shared or local "
                      "buffer and b a shared one");
      return WalkResult::interrupt();
    }
    if (auto mma = dyn_cast<tir::WgmmaOp>(op);
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
  patterns
      .add<MmaSyncToNVVM, WgmmaToNVVM, CopyAsyncToNVGPU, CopyAsyncWaitToNVVM,
           MmaSyncToLoops, WgmmaToLoops, CopyAsyncToLoop>(
          patterns.getContext());
}
