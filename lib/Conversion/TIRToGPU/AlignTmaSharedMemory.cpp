//===- AlignTmaSharedMemory.cpp - Shared tiles aligned for TMA ------------===//
//
// TMA's swizzle modes permute 16-byte chunks by shared-memory address bits
// (bits 4-6 XOR bits 7-9 for the 128-byte mode), so a swizzled box lands in
// the layout the kernel reads only when its tile starts on an 8 x swizzle
// byte boundary; any TMA destination must be 128-byte aligned. A workgroup
// attribution is otherwise aligned to its element type. The tir ops are NVVM
// by the time attributions exist (outlining), so each copy's destination
// address is traced back (its backward slice) to the shared buffers whose
// address it is computed from; those get 1024 bytes, the largest swizzle's
// window, and the rest (the mbarriers, other shared buffers) keep theirs.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TIRToGPU/AlignTmaSharedMemory.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXALIGNTMASHAREDMEMORY
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;

/// 8 x 128 bytes: the window of the 128-byte swizzle, a multiple of every
/// other mode's window and of the 128 bytes an unswizzled box needs.
static constexpr int64_t kTmaTileAlignment = 1024;

/// The workgroup attribution `memref` views (through casts and views), or
/// null.
static BlockArgument getAttribution(gpu::GPUFuncOp func, Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      memref = view.getViewSource();
    else if (auto cast = dyn_cast<UnrealizedConversionCastOp>(def);
             cast && cast.getInputs().size() == 1)
      memref = cast.getInputs().front();
    else
      return nullptr;
  }
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg || !llvm::is_contained(func.getWorkgroupAttributions(), arg))
    return nullptr;
  return arg;
}

namespace {
struct RelaxAlignTmaSharedMemoryPass
    : relax::impl::RelaxAlignTmaSharedMemoryBase<
          RelaxAlignTmaSharedMemoryPass> {
  void runOnOperation() override {
    getOperation()->walk([](gpu::GPUFuncOp func) {
      // The attributions whose address some copy's destination is.
      llvm::SmallSetVector<BlockArgument, 4> destinations;
      func.walk([&](NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp copy) {
        BackwardSliceOptions options;
        options.omitBlockArguments = true;
        SetVector<Operation *> slice;
        if (failed(getBackwardSlice(copy.getDstMem(), &slice, options)))
          return;
        for (Operation *op : slice)
          if (auto base = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op))
            if (BlockArgument arg = getAttribution(func, base.getSource()))
              destinations.insert(arg);
      });
      Builder b(func.getContext());
      ArrayRef<BlockArgument> attributions = func.getWorkgroupAttributions();
      for (BlockArgument arg : destinations)
        func.setWorkgroupAttributionAttr(
            llvm::find(attributions, arg) - attributions.begin(),
            LLVM::LLVMDialect::getAlignAttrName(),
            b.getI64IntegerAttr(kTmaTileAlignment));
    });
  }
};
} // namespace
