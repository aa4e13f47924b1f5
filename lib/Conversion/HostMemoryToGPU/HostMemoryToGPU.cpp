//===- HostMemoryToGPU.cpp - Host buffers -> device buffers ---------------===//
//
// After convert-tir-to-gpu every tensor element is read and written
// by kernels, so every tensor lives in device memory: host code only
// allocates, frees and passes buffers around, and reads their shapes.
//
//   - `memref.alloc` / `memref.dealloc` outside kernels -> `gpu.alloc` /
//     `gpu.dealloc` (call_tir outputs, intermediates of fused programs);
//   - `memref.get_global` of a constant -> its resident device copy, made
//     by the runtime on first use and kept across calls
//     (relax_rt_cuda_constant: the weights are uploaded once); a constant
//     that is returned gets a fresh device copy per call instead, which the
//     caller owns and frees;
//   - a planned function's arena from the runtime's per-function cache
//     (relax_rt_workspace_acquire / _release) comes from the device arena
//     cache instead (relax_rt_cuda_workspace_*): allocated once at the
//     plan's bound, reused call to call, freed when the module is unloaded;
//   - a host staging buffer (`relax.host_staging` on its `memref.alloc`)
//     stays on the host: the `memref.copy` filling it becomes a
//     device-to-host `gpu.memcpy`, and host code may read it;
//   - other host code that touches element data (`memref.load`, `memref.store`,
//     `memref.copy`, a call of an external function with memref operands
//     other than the cuBLAS built-ins `relax_cublas_*`, which take device
//     buffers) is an error: it would read device pointers on the host.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/HostMemoryToGPU/HostMemoryToGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_CONVERTHOSTMEMORYTOGPU
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// Whether `op` runs on the host: not in a kernel or a GPU module.
static bool isHostOp(Operation *op) {
  return !op->getParentOfType<gpu::LaunchOp>() &&
         !op->getParentOfType<gpu::GPUModuleOp>();
}

/// Global (default) memory space: the buffers host code manages.
static bool isGlobalMemory(MemRefType type) { return !type.getMemorySpace(); }

/// Whether `buffer` is a host staging buffer (kHostStagingAttrName).
static bool isHostStaging(Value buffer) {
  Operation *def = buffer.getDefiningOp();
  return def && isa<memref::AllocOp>(def) &&
         def->hasAttr(kHostStagingAttrName);
}

/// Whether `value` (or a cast of it) is returned by its function.
static bool reachesReturn(Value value) {
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<func::ReturnOp>(user))
        return true;
      if (isa<memref::CastOp>(user))
        worklist.push_back(user->getResult(0));
    }
  }
  return false;
}

static constexpr StringLiteral kResidentConstantFn = "relax_rt_cuda_constant";

/// The resident device copy of the constant global `get` reads: the
/// runtime's memref<?xi8> of its bytes (keyed by the host address), viewed
/// as the global's type.
/// Returns the view and the op that reads the host global's address.
static std::pair<Value, Operation *>
residentCopy(OpBuilder &b, Location loc, memref::GetGlobalOp get,
             ModuleOp module) {
  MLIRContext *context = b.getContext();
  Type i64 = b.getI64Type();
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  if (!module.lookupSymbol(kResidentConstantFn)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(
        b, module.getLoc(), kResidentConstantFn,
        FunctionType::get(context, {i64, i64}, {bytesType}));
    decl.setPrivate();
    decl->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
  }
  MemRefType type = get.getType();
  int64_t bytes =
      type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
  auto address = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, get.getResult());
  Value address64 = arith::IndexCastOp::create(b, loc, i64, address);
  Value size = arith::ConstantIntOp::create(b, loc, i64, bytes);
  Value device =
      func::CallOp::create(b, loc, kResidentConstantFn, TypeRange{bytesType},
                           ValueRange{address64, size})
          .getResult(0);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value view = memref::ViewOp::create(b, loc, type, device, zero, ValueRange());
  return {view, address};
}

/// The host arena cache of relax-lower-shapes (reuse-arena) and its device
/// counterpart in the CUDA runtime, which has the same signatures.
static constexpr std::pair<StringLiteral, StringLiteral> kArenaFns[] = {
    {"relax_rt_workspace_acquire", "relax_rt_cuda_workspace_acquire"},
    {"relax_rt_workspace_release", "relax_rt_cuda_workspace_release"}};

/// Points a call of the host arena cache at the device one (declared like
/// the host function), so a planned function's device arena is allocated
/// once and reused call to call; fails for any other call.
static LogicalResult useDeviceArena(func::CallOp call, ModuleOp module) {
  for (auto [host, device] : kArenaFns) {
    if (call.getCallee() != host)
      continue;
    if (!module.lookupSymbol(device)) {
      auto decl = module.lookupSymbol<func::FuncOp>(host);
      if (!decl)
        return failure();
      OpBuilder b(decl);
      b.setInsertionPointAfter(decl);
      func::FuncOp copy = decl.clone();
      copy.setSymName(device);
      b.insert(copy);
    }
    call.setCallee(device);
    return success();
  }
  return failure();
}

static LogicalResult convertFunction(func::FuncOp func, ModuleOp module) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isHostOp(op))
      ops.push_back(op);
  });
  SmallVector<Value> constants;
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (!isGlobalMemory(alloc.getType()) || isHostStaging(alloc))
        continue;
      if (!alloc.getSymbolOperands().empty())
        return alloc.emitOpError("symbolic layout operands are not supported "
                                 "on GPU");
      auto device = gpu::AllocOp::create(
          b, loc, alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          /*symbolOperands=*/ValueRange(), /*hostShared=*/false);
      alloc.getResult().replaceAllUsesWith(device.getMemref());
      alloc.erase();
      continue;
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      auto type = dyn_cast<MemRefType>(dealloc.getMemref().getType());
      if (!type || !isGlobalMemory(type) || isHostStaging(dealloc.getMemref()))
        continue;
      gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                             dealloc.getMemref());
      dealloc.erase();
      continue;
    }
    if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      MemRefType type = get.getType();
      b.setInsertionPointAfter(get);
      if (!reachesReturn(get.getResult()) && type.hasStaticShape() &&
          type.getLayout().isIdentity()) {
        auto [device, reader] = residentCopy(b, loc, get, module);
        get.getResult().replaceAllUsesExcept(device, reader);
        continue;
      }
      auto device = gpu::AllocOp::create(b, loc, type, Type(), ValueRange(),
                                         ValueRange(), ValueRange(), false);
      Value result = device.getMemref();
      auto copy = gpu::MemcpyOp::create(b, loc, Type(), ValueRange(), result,
                                        get.getResult());
      get.getResult().replaceAllUsesExcept(result, copy);
      constants.push_back(result);
      continue;
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op);
        copy && (isHostStaging(copy.getTarget()) ||
                 copy->hasAttr(kBufferCopyAttrName))) {
      gpu::MemcpyOp::create(b, loc, Type(), ValueRange(), copy.getTarget(),
                            copy.getSource());
      copy.erase();
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && isHostStaging(load.getMemref()))
      continue;
    if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp>(op))
      return op->emitOpError("reads or writes tensor data on the host, which "
                             "lives in GPU memory after --lower-to-gpu");
    if (auto call = dyn_cast<func::CallOp>(op)) {
      if (succeeded(useDeviceArena(call, module)))
        continue;
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      bool passesBuffers = llvm::any_of(call.getOperandTypes(), [](Type t) {
        return isa<BaseMemRefType>(t);
      });
      // The cuBLAS built-ins take device buffers (RelaxCUBLAS.cpp), and so
      // do the NCCL collectives (declared only: docs/llm.md).
      bool deviceLibrary = call.getCallee().starts_with("relax_cublas_") ||
                           call.getCallee().starts_with("relax_nccl_");
      if (callee && callee.isExternal() && passesBuffers && !deviceLibrary)
        return call.emitOpError("calls external function '")
               << call.getCallee()
               << "' with tensor buffers, which has no GPU implementation";
    }
  }
  // Constants are copied per call; free them unless they are returned.
  // Early returns of failed shape checks may come before the copy.
  if (!constants.empty()) {
    DominanceInfo dom(func);
    func.walk([&](func::ReturnOp ret) {
      OpBuilder b(ret);
      // What the return hands over, seen through casts (a returned cast of
      // the copy is the copy: freeing it would return a dangling buffer).
      llvm::SmallPtrSet<Value, 4> returned;
      for (Value v : ret.getOperands()) {
        while (auto cast = v.getDefiningOp<memref::CastOp>())
          v = cast.getSource();
        returned.insert(v);
      }
      for (Value c : constants)
        if (dom.properlyDominates(c, ret) && !returned.contains(c))
          gpu::DeallocOp::create(b, ret.getLoc(), Type(), ValueRange(), c);
    });
  }
  return success();
}

namespace {
struct ConvertHostMemoryToGPU
    : relax::impl::ConvertHostMemoryToGPUBase<ConvertHostMemoryToGPU> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (failed(convertFunction(func, module)))
        return signalPassFailure();
    // The host arena cache's declarations, once nothing calls them.
    for (auto [host, device] : kArenaFns)
      if (auto decl = module.lookupSymbol<func::FuncOp>(host);
          decl && decl.isExternal() &&
          SymbolTable::symbolKnownUseEmpty(decl, module))
        decl.erase();
  }
};
} // namespace
