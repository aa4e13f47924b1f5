//===- TmaLowering.cpp - TMA loads and mbarriers to NVVM or loops ---------===//
//
// tir.tma_load copies a box of a global tensor into shared memory; in a GPU
// thread it is one cp.async.bulk.tensor through the tensor map the host
// encoded (its address is an operand), counted on an mbarrier, and the
// tir.mbarrier_* ops become the mbarrier instructions that make the data
// visible. Off the GPU (the CPU emulation of GPU schedules) a copy is done
// when the op returns, so the mbarrier ops vanish and the copy is loops that
// read the box as the tensor map describes it: zeros where the box leaves
// the tensor (the map's zero fill, which gives a tiled kernel its tails)
// and each 16-byte chunk moved by the swizzle. The emulation therefore checks
// the box coordinates and the shared-memory layout the consumer (tir.wgmma)
// reads, not only the product.
//
// The NVVM ops take LLVM pointers: shared addresses are the memrefs'
// aligned pointers (the 32-bit shared window, as the wgmma descriptors use
// them) plus the element offset of the indices, cast to `ptr<3>`; the tensor
// map is a generic address.
//
//===----------------------------------------------------------------------===//

#include "PlacedLowering.h"

#include "RelaxDialect/Conversion/TIRToSCF/TIRToSCF.h"
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relax;

/// The suspend-time hint of mbarrier.try_wait (ns) between polls, as CUDA's
/// own pipelines use: long enough not to spin, short against a tile copy.
static constexpr int64_t kTryWaitTicks = 0x989680;

static Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

/// `ptr<3>` to element `indices` of the static shared `memref`.
static Value sharedPointer(OpBuilder &b, Location loc, Value memref,
                           ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  Type i64 = b.getI64Type();
  auto c64 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v))
        .getResult();
  };
  Value address = arith::IndexCastUIOp::create(
      b, loc, i64,
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
  ArrayRef<int64_t> shape = type.getShape();
  int64_t stride = type.getElementTypeBitWidth() / 8;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    if (d < static_cast<int64_t>(indices.size())) {
      Value i = arith::IndexCastUIOp::create(b, loc, i64, indices[d]);
      address = arith::AddIOp::create(
          b, loc, address, arith::MulIOp::create(b, loc, i, c64(stride)));
    }
    stride *= shape[d];
  }
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), address);
}

namespace {
/// The mbarrier ops: `rewriteOnGPU` gets the mbarrier's shared address in
/// a GPU thread; elsewhere they are erased.
template <typename OpTy> struct MbarrierPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (!inGPUThread(op)) {
      rewriter.eraseOp(op); // Copies off the GPU are done at once.
      return success();
    }
    FailureOr<SmallVector<Value>> barriers =
        getLoweredMemRefs(op, op.getBarriers(), rewriter);
    if (failed(barriers))
      return failure();
    Value pointer =
        sharedPointer(rewriter, op.getLoc(), (*barriers)[0], op.getIndex());
    rewriteOnGPU(op, pointer, rewriter);
    rewriter.eraseOp(op);
    return success();
  }

  virtual void rewriteOnGPU(OpTy op, Value pointer,
                            PatternRewriter &rewriter) const = 0;
};

struct MbarrierInitToNVVM : MbarrierPattern<tir::MbarrierInitOp> {
  using MbarrierPattern::MbarrierPattern;
  void rewriteOnGPU(tir::MbarrierInitOp op, Value pointer,
                    PatternRewriter &rewriter) const override {
    NVVM::MBarrierInitOp::create(rewriter, op.getLoc(), pointer,
                                 i32Const(rewriter, op.getLoc(), op.getCount()),
                                 Value());
    // The initialised mbarrier is then updated by TMA's complete_tx, an
    // asynchronous-proxy operation.
    createAsyncProxyFence(rewriter, op.getLoc());
  }
};

struct MbarrierArriveExpectTxToNVVM
    : MbarrierPattern<tir::MbarrierArriveExpectTxOp> {
  using MbarrierPattern::MbarrierPattern;
  void rewriteOnGPU(tir::MbarrierArriveExpectTxOp op, Value pointer,
                    PatternRewriter &rewriter) const override {
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, op.getLoc(), Type(), pointer,
        i32Const(rewriter, op.getLoc(), op.getBytes()), NVVM::MemScopeKind::CTA,
        /*relaxed=*/false, Value());
  }
};

struct MbarrierWaitToNVVM : MbarrierPattern<tir::MbarrierWaitOp> {
  using MbarrierPattern::MbarrierPattern;
  void rewriteOnGPU(tir::MbarrierWaitOp op, Value pointer,
                    PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value phase = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI32Type(), op.getPhase());
    NVVM::MBarrierTryWaitParityOp::create(
        rewriter, loc, pointer, phase, i32Const(rewriter, loc, kTryWaitTicks));
  }
};

/// One cp.async.bulk.tensor: coordinates innermost first, as the tensor
/// map lists its dims.
struct TmaLoadToNVVM : PlacedPattern<tir::TmaLoadOp, /*OnGPU=*/true> {
  using PlacedPattern::PlacedPattern;

  LogicalResult rewritePlaced(tir::TmaLoadOp op,
                              PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> memrefs =
        getLoweredMemRefs(op, {op.getDst(), op.getBarriers()}, rewriter);
    if (failed(memrefs))
      return failure();
    Value dst = (*memrefs)[0], barriers = (*memrefs)[1];
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    // The CTA's own shared window is part of its cluster's (address space
    // 7), the destination kind the instruction takes from PTX 8.0 on.
    Value dstPointer = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7),
        sharedPointer(b, loc, dst, op.getDstIndices()));
    Value barrier = sharedPointer(b, loc, barriers, op.getBarrierIndex());
    Value map = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), op.getTensorMap());
    SmallVector<Value> coordinates;
    for (Value index : llvm::reverse(op.getSrcIndices()))
      coordinates.push_back(
          arith::IndexCastOp::create(b, loc, b.getI32Type(), index));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dstPointer, map, coordinates, barrier, ValueRange(), Value(),
        Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
        NVVM::CTAGroupKindAttr(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The definition: for every position p of the box, the element at
/// corner + p of the source tensor (zero outside it) stored where the
/// tensor map puts it.
struct TmaLoadToLoops : PlacedPattern<tir::TmaLoadOp, /*OnGPU=*/false> {
  using PlacedPattern::PlacedPattern;

  LogicalResult rewritePlaced(tir::TmaLoadOp op,
                              PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> memrefs =
        getLoweredMemRefs(op, {op.getDst(), op.getSrc()}, rewriter);
    if (failed(memrefs))
      return failure();
    Value dst = (*memrefs)[0], src = (*memrefs)[1];
    Location loc = op.getLoc();
    SmallVector<int64_t> box = op.getBoxShape();
    // The box's loop nest, outermost dim first.
    SmallVector<Value> position;
    OpBuilder b = rewriter;
    for (int64_t extent : box) {
      auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0),
                                     cst(b, loc, extent), cst(b, loc, 1));
      position.push_back(loop.getInductionVar());
      b.setInsertionPointToStart(loop.getBody());
    }
    // In bounds: 0 <= corner + p < dim along every dim of the tensor (the
    // view's dims, else the source's).
    SmallVector<Value> coordinates;
    Value inBounds;
    auto conjoin = [&](Value ok) {
      inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, ok) : ok;
    };
    bool viewed = !op.getViewDims().empty();
    for (auto [d, corner] : llvm::enumerate(op.getSrcIndices())) {
      Value c = arith::AddIOp::create(b, loc, corner, position[d]);
      coordinates.push_back(c);
      Value dim = viewed ? op.getViewDims()[d]
                         : memref::DimOp::create(b, loc, src, d).getResult();
      conjoin(arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c,
                                cst(b, loc, 0)),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c, dim)));
    }
    if (viewed)
      coordinates = viewedElement(b, loc, src, coordinates,
                                  op.getViewStrides(), conjoin);
    Value element = loadOrZero(b, loc, inBounds, src, coordinates);
    Type dtype = cast<MemRefType>(dst.getType()).getElementType();
    SmallVector<Value> dstIndices(op.getDstIndices());
    ArrayRef<int64_t> held =
        cast<MemRefType>(dst.getType()).getShape().drop_front(
            dstIndices.size());
    llvm::append_range(dstIndices,
                       placeInDestination(b, loc, position, box, held,
                                          dtype.getIntOrFloatBitWidth() / 8,
                                          op.getSwizzle()));
    memref::StoreOp::create(b, loc, element, dst, dstIndices);
    rewriter.eraseOp(op);
    return success();
  }

  /// The source indices of view element `c`: its offset sum_i c_i *
  /// strides_i in src's row-major elements, unflattened over src's dims.
  /// An offset past src (a view the host would not have encoded for this
  /// buffer) reads zero rather than outside the allocation.
  static SmallVector<Value> viewedElement(OpBuilder &b, Location loc,
                                          Value src, ArrayRef<Value> c,
                                          ValueRange strides,
                                          function_ref<void(Value)> conjoin) {
    Value offset = cst(b, loc, 0);
    for (auto [coordinate, stride] : llvm::zip(c, strides))
      offset = arith::AddIOp::create(
          b, loc, offset, arith::MulIOp::create(b, loc, coordinate, stride));
    int64_t rank = cast<MemRefType>(src.getType()).getRank();
    SmallVector<Value> indices(rank);
    Value rest = offset;
    for (int64_t d = rank - 1; d >= 0; --d) {
      Value dim = memref::DimOp::create(b, loc, src, d);
      indices[d] = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, dim);
      if (d == 0)
        conjoin(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rest,
                                      dim));
      rest = arith::DivUIOp::create(b, loc, rest, dim);
    }
    return indices;
  }

  /// Where box position `p` lands in the destination dims `held` (the box
  /// itself, or dims of the same element count): the row-major offset of
  /// p, whose byte offset o becomes o ^ (((o >> 7) & (S/16 - 1)) << 4) with
  /// a swizzle of S bytes (the 16-byte chunk index XOR the 128-byte row
  /// index), unflattened over `held`.
  static SmallVector<Value> placeInDestination(OpBuilder &b, Location loc,
                                               ArrayRef<Value> p,
                                               ArrayRef<int64_t> box,
                                               ArrayRef<int64_t> held,
                                               int64_t elementBytes,
                                               int64_t swizzle) {
    if (swizzle == 0 && box == held)
      return SmallVector<Value>(p);
    Value flat = cst(b, loc, 0);
    for (auto [i, extent] : llvm::zip(p, box))
      flat = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, flat, cst(b, loc, extent)), i);
    Value rest = flat;
    if (swizzle != 0) {
      Value offset =
          arith::MulIOp::create(b, loc, flat, cst(b, loc, elementBytes));
      Value row = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, offset, cst(b, loc, 7)),
          cst(b, loc, swizzle / 16 - 1));
      Value moved = arith::XOrIOp::create(
          b, loc, offset, arith::ShLIOp::create(b, loc, row, cst(b, loc, 4)));
      rest = arith::DivUIOp::create(b, loc, moved, cst(b, loc, elementBytes));
    }
    SmallVector<Value> position(held.size());
    for (int64_t d = held.size() - 1; d >= 0; --d) {
      position[d] = arith::RemUIOp::create(b, loc, rest, cst(b, loc, held[d]));
      rest = arith::DivUIOp::create(b, loc, rest, cst(b, loc, held[d]));
    }
    return position;
  }
};
} // namespace

namespace {
/// tir.tensor_map: a call of the runtime in the host code before the
/// launch, with the operand's base, dims, strides and box as the C entries
/// take them (stack arrays of i64, outermost first). On the GPU,
/// relax_rt_cuda_tensor_map_device with a slot of its own (a private
/// global: the device copy of the map is kept per call site) and the
/// operand's name for messages; with `check_only` (the CPU emulation),
/// relax_rt_cuda_tensor_map_supported as 1 or 0.
struct TensorMapToCall : OpRewritePattern<tir::TensorMapOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tir::TensorMapOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> memrefs =
        getLoweredMemRefs(op, {op.getSrc()}, rewriter);
    if (failed(memrefs))
      return failure();
    Value src = (*memrefs)[0];
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    auto pointerOf = [&](Value memref) -> Value {
      Value address = arith::IndexCastUIOp::create(
          b, loc, i64,
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
      return LLVM::IntToPtrOp::create(b, loc, ptr, address);
    };
    // A stack array of the values as i64, in LLVM ops: host code that
    // touches no tensor data (a memref store here would read, to the GPU
    // lowering, as the host writing device memory).
    auto array = [&](ArrayRef<Value> values) -> Value {
      auto type = LLVM::LLVMArrayType::get(i64, values.size());
      Value buffer = LLVM::AllocaOp::create(
          b, loc, ptr, type, arith::ConstantIntOp::create(b, loc, i64, 1),
          /*alignment=*/8);
      for (auto [i, value] : llvm::enumerate(values)) {
        Value element = LLVM::GEPOp::create(
            b, loc, ptr, type, buffer,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
        LLVM::StoreOp::create(
            b, loc, arith::IndexCastOp::create(b, loc, i64, value), element);
      }
      return buffer;
    };
    // The tensor: the view, else the source's dims with row-major strides.
    SmallVector<Value> dims(op.getViewDims()), strides(op.getViewStrides());
    if (dims.empty()) {
      int64_t rank = cast<MemRefType>(src.getType()).getRank();
      Value stride = cst(b, loc, 1);
      dims.resize(rank);
      strides.resize(rank);
      for (int64_t d = rank - 1; d >= 0; --d) {
        dims[d] = memref::DimOp::create(b, loc, src, d);
        strides[d] = stride;
        stride = arith::MulIOp::create(b, loc, stride, dims[d]);
      }
    }
    SmallVector<Value> box;
    for (int64_t extent : op.getBox())
      box.push_back(cst(b, loc, extent));
    Type dtype = cast<MemRefType>(src.getType()).getElementType();
    int64_t code = dtype.isF16() ? 0 : dtype.isBF16() ? 1 : 2; // RELAX_RT_TMA_*
    SmallVector<Value> operands = {
        arith::ConstantIntOp::create(b, loc, i32, code), pointerOf(src),
        arith::ConstantIntOp::create(b, loc, i64, dims.size()), array(dims),
        array(strides), array(box),
        arith::ConstantIntOp::create(b, loc, i32, op.getSwizzle())};
    auto module = op->getParentOfType<ModuleOp>();
    if (op.getCheckOnly()) {
      Value ok = callRuntime(b, loc, module,
                             "relax_rt_cuda_tensor_map_supported", operands, i32);
      rewriter.replaceOpWithNewOp<arith::ExtUIOp>(
          op, i64,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, ok,
                                arith::ConstantIntOp::create(b, loc, i32, 0)));
      return success();
    }
    std::string slotName = uniqueName(module, "__relax_tma_slot");
    std::string nameName = uniqueName(module, "__relax_tma_name");
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      LLVM::GlobalOp::create(b, loc, b.getI8Type(), /*isConstant=*/false,
                             LLVM::Linkage::Internal, slotName,
                             b.getI8IntegerAttr(0));
    }
    std::string text = op.getName().str();
    text.push_back('\0');
    Value name = LLVM::createGlobalString(loc, b, nameName, text,
                                          LLVM::Linkage::Internal);
    Value slot = LLVM::AddressOfOp::create(b, loc, ptr, slotName);
    operands.insert(operands.begin(), {slot, name});
    rewriter.replaceOp(op, callRuntime(b, loc, module,
                                       "relax_rt_cuda_tensor_map_device",
                                       operands, i64));
    return success();
  }

  /// `prefix_<n>` for the first n no symbol of `module` is called.
  static std::string uniqueName(ModuleOp module, StringRef prefix) {
    for (unsigned n = 0;; ++n) {
      std::string name = (prefix + "_" + Twine(n)).str();
      if (!SymbolTable::lookupSymbolIn(module, name))
        return name;
    }
  }

  /// A call of the runtime's C entry `name`, declared on first use.
  static Value callRuntime(OpBuilder &b, Location loc, ModuleOp module,
                           StringRef name, ValueRange operands, Type result) {
    if (!module.lookupSymbol<func::FuncOp>(name)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto decl = func::FuncOp::create(
          b, loc, name, b.getFunctionType(operands.getTypes(), {result}));
      decl.setPrivate();
    }
    return func::CallOp::create(b, loc, name, TypeRange{result}, operands)
        .getResult(0);
  }
};
} // namespace

/// A phase whose expected bytes differ from what its copies deliver never
/// completes (too many) or completes before the data landed (too few), and
/// neither shows in the CPU emulation, where copies are done at once. The
/// copies that follow `arrive` in its block on the same mbarrier (same
/// buffer and index value), up to the next arrive on it, are its phase's:
/// when there are any, their box bytes must add up to `bytes`.
static LogicalResult checkExpectedBytes(tir::MbarrierArriveExpectTxOp arrive) {
  int64_t delivered = 0;
  bool anyCopy = false;
  for (Operation *next = arrive->getNextNode(); next;
       next = next->getNextNode()) {
    if (auto other = dyn_cast<tir::MbarrierArriveExpectTxOp>(next);
        other && other.getBarriers() == arrive.getBarriers() &&
        other.getIndex() == arrive.getIndex())
      break;
    auto copy = dyn_cast<tir::TmaLoadOp>(next);
    if (!copy || copy.getBarriers() != arrive.getBarriers() ||
        copy.getBarrierIndex() != arrive.getIndex())
      continue;
    anyCopy = true;
    delivered += copy.getBoxBytes();
  }
  if (anyCopy && delivered != static_cast<int64_t>(arrive.getBytes()))
    return arrive.emitOpError("expects ")
           << arrive.getBytes() << " bytes, but the tir.tma_load ops that "
           << "follow it on this mbarrier deliver " << delivered;
  return success();
}

LogicalResult mlir::relax::checkTIRTmaForGPU(Operation *op) {
  auto isShared = [](Value buffer) {
    return cast<tir::BufferType>(buffer.getType()).getScope() ==
           tir::MemoryScope::shared;
  };
  auto check = [&](Value barriers) -> LogicalResult {
    if (!isShared(barriers))
      return op->emitOpError("on the GPU, mbarriers must be a shared buffer");
    return success();
  };
  if (auto init = dyn_cast<tir::MbarrierInitOp>(op))
    return check(init.getBarriers());
  if (auto arrive = dyn_cast<tir::MbarrierArriveExpectTxOp>(op)) {
    if (failed(check(arrive.getBarriers())))
      return failure();
    return checkExpectedBytes(arrive);
  }
  if (auto wait = dyn_cast<tir::MbarrierWaitOp>(op))
    return check(wait.getBarriers());
  auto load = dyn_cast<tir::TmaLoadOp>(op);
  if (!load)
    return success();
  auto dstType = cast<tir::BufferType>(load.getDst().getType());
  if (!isShared(load.getDst()) ||
      llvm::any_of(dstType.getDims(), [](const sym::Expr &dim) {
        return !dim || !dim.getConstant();
      }))
    return op->emitOpError(
        "on the GPU, the destination must be a shared buffer of static shape");
  return check(load.getBarriers());
}

void mlir::relax::populateTIRTmaLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<MbarrierInitToNVVM, MbarrierArriveExpectTxToNVVM,
               MbarrierWaitToNVVM, TmaLoadToNVVM, TmaLoadToLoops,
               TensorMapToCall>(
      patterns.getContext());
}
