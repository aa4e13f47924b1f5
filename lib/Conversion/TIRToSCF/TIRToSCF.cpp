//===- TIRToSCF.cpp - Lower tir to func/scf/memref/arith ------------------===//
//
// Two steps. The first rewrites what needs the prim_func's symbolic
// signature: the function itself (buffers become memrefs), `tir.sym_var`
// (the binding parameter's `memref.dim`) and `tir.alloc` (whose dims are
// expressions of those variables). Buffer values are then memrefs behind an
// `unrealized_conversion_cast` back to `!tir.buffer`, so the tir ops stay
// valid. The second step is plain rewrite patterns over the body ops, which
// read through those casts; the casts are dead afterwards.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TIRToSCF/TIRToSCF.h"
#include "RelaxDialect/Relax/IR/CallTIRBinding.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Support/SymExprCodegen.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"
#include "RelaxDialect/TIR/IR/TIRVectorOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_CONVERTTIRTOSCF
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// Local buffers need no space: allocas are private already.
MemRefType mlir::relax::getBufferMemRefType(tir::BufferType type) {
  SmallVector<int64_t> sizes;
  for (const sym::Expr &dim : type.getDims()) {
    std::optional<int64_t> size = dim ? dim.getConstant() : std::nullopt;
    sizes.push_back(size ? *size : ShapedType::kDynamic);
  }
  Attribute space;
  if (type.getScope() == tir::MemoryScope::shared)
    space = gpu::AddressSpaceAttr::get(type.getContext(),
                                       gpu::AddressSpace::Workgroup);
  return MemRefType::get(sizes, type.getDtype(), MemRefLayoutAttrInterface(),
                         space);
}

/// The memref behind a buffer value produced by the signature step.
Value mlir::relax::getLoweredMemRef(Value buffer) {
  if (isa<MemRefType>(buffer.getType()))
    return buffer;
  if (auto cast = buffer.getDefiningOp<UnrealizedConversionCastOp>())
    if (cast.getNumOperands() == 1 &&
        isa<MemRefType>(cast.getOperand(0).getType()))
      return cast.getOperand(0);
  return Value();
}

/// Hands the memref to tir users as a buffer until they are rewritten.
static Value castToBuffer(OpBuilder &b, Location loc, Value memref,
                          Type bufferType) {
  return UnrealizedConversionCastOp::create(b, loc, bufferType, memref)
      .getResult(0);
}

//===----------------------------------------------------------------------===//
// Step 1: function signature, symbolic variables, allocations
//===----------------------------------------------------------------------===//

namespace {
/// Computes each symbolic variable of one function once, at its entry.
class VarValues {
public:
  VarValues(func::FuncOp func, llvm::StringMap<tir::PrimFuncOp::VarBinding> b)
      : func(func), bindings(std::move(b)),
        builder(OpBuilder::atBlockBegin(&func.getBody().front())) {}

  /// Null when the variable is not bound (the verifier rejects that).
  Value lookup(StringRef name) {
    Value &value = cache[name];
    if (value)
      return value;
    auto it = bindings.find(name);
    if (it == bindings.end())
      return Value();
    Value arg = func.getArgument(it->second.argIndex);
    if (it->second.dim < 0)
      return value = arg;
    value = memref::DimOp::create(builder, func.getLoc(), arg, it->second.dim);
    builder.setInsertionPointAfterValue(value);
    return value;
  }

  /// Sets `b` after the variable definitions made so far.
  void setInsertionPointAfterPrologue(OpBuilder &b) {
    b.setInsertionPoint(builder.getInsertionBlock(),
                        builder.getInsertionPoint());
  }

private:
  func::FuncOp func;
  llvm::StringMap<tir::PrimFuncOp::VarBinding> bindings;
  OpBuilder builder;
  llvm::StringMap<Value> cache;
};
} // namespace

/// Where a local buffer goes: the start of the innermost enclosing parallel
/// loop body (each iteration needs its own) or the function prologue. An
/// alloca in a serial loop body would grow the stack on every iteration, and
/// memref.alloca_scope cannot hold the multi-block bodies that scf-to-cf
/// produces. Returns whether that loop is bound to a GPU thread axis.
static bool setLocalAllocInsertionPoint(OpBuilder &b, tir::AllocOp alloc,
                                        VarValues &vars) {
  for (auto loop = alloc->getParentOfType<tir::ForOp>(); loop;
       loop = loop->getParentOfType<tir::ForOp>()) {
    if (loop.getKind() == tir::LoopKind::parallel ||
        loop.getKind() == tir::LoopKind::thread_binding) {
      b.setInsertionPointToStart(loop.getBody());
      return loop.getKind() == tir::LoopKind::thread_binding;
    }
  }
  vars.setInsertionPointAfterPrologue(b);
  return false;
}

/// Bytes of one element of a buffer of `dtype` (index counts as 8).
static int64_t getElementBytes(Type dtype) {
  if (dtype.isIntOrFloat())
    return llvm::divideCeil(dtype.getIntOrFloatBitWidth(), 8);
  return 8;
}

/// A constant upper bound of the bytes of a buffer of `type` under `facts`,
/// if one can be proven.
static std::optional<int64_t> getByteSizeBound(tir::BufferType type,
                                               const sym::Context &facts) {
  sym::Expr elements = sym::Expr::constant(1);
  for (const sym::Expr &dim : type.getDims())
    elements = elements * dim;
  std::optional<int64_t> bound = facts.upperBound(elements);
  if (!bound)
    return std::nullopt;
  int64_t bytes;
  if (llvm::MulOverflow(std::max<int64_t>(*bound, 0),
                        getElementBytes(type.getDtype()), bytes))
    return std::nullopt;
  return bytes;
}

namespace {
/// What one function's allocations may put on the stack.
struct StackPolicy {
  /// The upper bounds of the function's symbolic variables.
  sym::Context facts;
  /// Bytes of stack the function's scratch may still take.
  int64_t bytesLeft;
};
} // namespace

/// The alignment of stack slots that are reinterpreted as buffers of any
/// dtype: enough for the widest vector loads.
static constexpr int64_t kStackSlotAlignment = 64;

/// Lowers a host `local` buffer. It goes on the stack only when its size has
/// a constant upper bound under what is left of the function's stack budget:
/// a static shape as it is, a symbolic one as a view into a constant-size
/// slot of that bound. Anything else is heap memory, allocated where the
/// stack slot would have been (once per parallel iteration, which
/// --hoist-omp-loop-allocas turns into once per thread) and freed at the end
/// of that body. Sizes are computed in the prologue, so they are invariant
/// in every loop.
static Value lowerHostLocalAlloc(OpBuilder &b, tir::AllocOp alloc,
                                 MemRefType memrefType,
                                 ArrayRef<Value> dynamicSizes,
                                 StackPolicy &stack) {
  Location loc = alloc.getLoc();
  std::optional<int64_t> bytes =
      getByteSizeBound(alloc.getType(), stack.facts);
  if (bytes && *bytes <= stack.bytesLeft) {
    stack.bytesLeft -= *bytes;
    if (memrefType.hasStaticShape())
      return memref::AllocaOp::create(b, loc, memrefType);
    auto slotType =
        MemRefType::get({std::max<int64_t>(*bytes, 1)}, b.getI8Type());
    Value slot = memref::AllocaOp::create(
        b, loc, slotType, b.getI64IntegerAttr(kStackSlotAlignment));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    return memref::ViewOp::create(b, loc, memrefType, slot, zero,
                                  dynamicSizes);
  }
  Value memref = memref::AllocOp::create(b, loc, memrefType, dynamicSizes);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(b.getInsertionBlock()->getTerminator());
  memref::DeallocOp::create(b, loc, memref);
  return memref;
}

static LogicalResult lowerAlloc(tir::AllocOp alloc, VarValues &vars,
                                StackPolicy &stack) {
  OpBuilder b(alloc);
  tir::BufferType type = alloc.getType();
  bool local = type.getScope() == tir::MemoryScope::local;
  bool inGPUThread = local && setLocalAllocInsertionPoint(b, alloc, vars);
  bool hostLocal = local && !inGPUThread;
  Location loc = alloc.getLoc();
  MemRefType memrefType = getBufferMemRefType(type);
  // Host scratch sizes are computed once, in the prologue.
  OpBuilder sizeBuilder = b;
  if (hostLocal)
    vars.setInsertionPointAfterPrologue(sizeBuilder);
  SmallVector<Value> dynamicSizes;
  for (const sym::Expr &dim : type.getDims()) {
    if (dim.getConstant())
      continue;
    Value size = emitSymExpr(sizeBuilder, loc, dim,
                             [&](StringRef name) { return vars.lookup(name); });
    if (!size)
      return alloc.emitOpError("cannot materialise dim ") << dim.str();
    dynamicSizes.push_back(size);
  }
  Value memref;
  if (hostLocal) {
    memref = lowerHostLocalAlloc(b, alloc, memrefType, dynamicSizes, stack);
    b.setInsertionPoint(alloc);
  } else if (local) {
    // Private memory of a GPU thread.
    memref = memref::AllocaOp::create(b, loc, memrefType, dynamicSizes);
    b.setInsertionPoint(alloc);
  } else {
    memref = memref::AllocOp::create(b, loc, memrefType, dynamicSizes);
    // A tir allocation lives until the end of its region.
    b.setInsertionPoint(alloc->getBlock()->getTerminator());
    memref::DeallocOp::create(b, loc, memref);
    b.setInsertionPointAfterValue(memref);
  }
  alloc.getResult().replaceAllUsesWith(
      castToBuffer(b, loc, memref, alloc.getType()));
  alloc.erase();
  return success();
}

/// Replaces `prim` by a func.func with memref parameters and rewrites its
/// symbolic variables and allocations.
static LogicalResult lowerSignature(tir::PrimFuncOp prim,
                                    StackPolicy &stack) {
  OpBuilder b(prim);
  Location loc = prim.getLoc();
  SmallVector<Type> argTypes;
  for (Type type : prim.getArgumentTypes()) {
    if (auto buffer = dyn_cast<tir::BufferType>(type))
      argTypes.push_back(getBufferMemRefType(buffer));
    else
      argTypes.push_back(type);
  }
  auto func = func::FuncOp::create(b, loc, prim.getSymName(),
                                   b.getFunctionType(argTypes, {}));
  func.setVisibility(prim.getVisibility());
  if (ArrayAttr argAttrs = prim.getArgAttrsAttr())
    func.setArgAttrsAttr(argAttrs);
  // The fusion kind is not carried over: nothing after tir reads it, and the
  // lowered module must not need the tir dialect to be parsed again (by
  // relax-translate or upstream mlir-translate).
  if (prim.getBody().empty()) {
    func.setPrivate();
    prim.erase();
    return success();
  }

  func.getBody().takeBody(prim.getBody());
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  for (auto [arg, type] : llvm::zip(entry.getArguments(), argTypes)) {
    Type oldType = arg.getType();
    if (oldType == type)
      continue;
    arg.setType(type);
    Value buffer = castToBuffer(b, loc, arg, oldType);
    arg.replaceAllUsesExcept(buffer, buffer.getDefiningOp());
  }

  VarValues vars(func, prim.getVarBindings());
  prim.erase();
  SmallVector<tir::SymVarOp> symVars;
  SmallVector<tir::AllocOp> allocs;
  func.walk([&](Operation *op) {
    if (auto symVar = dyn_cast<tir::SymVarOp>(op))
      symVars.push_back(symVar);
    else if (auto alloc = dyn_cast<tir::AllocOp>(op))
      allocs.push_back(alloc);
  });
  for (tir::SymVarOp symVar : symVars) {
    Value value = vars.lookup(symVar.getVarName());
    if (!value)
      return symVar.emitOpError("symbolic variable '")
             << symVar.getVarName() << "' is not bound";
    symVar.getResult().replaceAllUsesWith(value);
    symVar.erase();
  }
  // Every variable an allocation needs is computed at entry first, so that
  // hoisted allocations can sit right after them.
  for (tir::AllocOp alloc : allocs)
    for (const std::string &var : alloc.getType().getShape().getVars())
      (void)vars.lookup(var);
  for (tir::AllocOp alloc : allocs)
    if (failed(lowerAlloc(alloc, vars, stack)))
      return failure();
  // The tir terminator becomes func.return here so that step 2 needs no
  // knowledge of functions.
  Operation *terminator = entry.getTerminator();
  b.setInsertionPoint(terminator);
  func::ReturnOp::create(b, terminator->getLoc());
  terminator->erase();
  return success();
}

/// The upper bounds of each private prim_func's variables that hold at every
/// relax.call_tir of it: the caller's expression for the variable, bounded
/// under the caller's `sym_bounds`, the largest over the call sites. A
/// variable left out has no bound (a call site where none is provable, or a
/// public function that code outside the module may call).
static llvm::DenseMap<Operation *, sym::Context>
collectVarBounds(ModuleOp module) {
  SymbolTable symbols(module);
  // Per function, per variable: the bound so far, nullopt once unbounded.
  llvm::DenseMap<Operation *, llvm::StringMap<std::optional<int64_t>>> bounds;
  module.walk([&](relax::CallTIROp call) {
    auto callee = symbols.lookup<tir::PrimFuncOp>(call.getCallee());
    if (!callee || !callee.isPrivate())
      return;
    llvm::StringMap<std::optional<int64_t>> &varBounds = bounds[callee];
    llvm::StringMap<sym::Expr> binding;
    bool bound = succeeded(
        relax::bindCallTIRVars(call, callee, binding, /*emitErrors=*/false));
    sym::Context callerFacts = relax::symContextAt(call);
    for (const auto &entry : callee.getVarBindings()) {
      StringRef var = entry.getKey();
      std::optional<int64_t> upper;
      if (sym::Expr expr = bound ? binding.lookup(var) : sym::Expr())
        upper = callerFacts.upperBound(expr);
      auto [it, inserted] = varBounds.try_emplace(var, upper);
      if (!inserted)
        it->second = it->second && upper
                         ? std::optional(std::max(*it->second, *upper))
                         : std::nullopt;
    }
  });
  // In-place calls bind through other parameters; their callees' variables
  // are left unbounded rather than bounded by the call_tir sites alone.
  module.walk([&](relax::CallTIRInplaceOp call) {
    auto callee = symbols.lookup<tir::PrimFuncOp>(call.getCallee());
    if (!callee)
      return;
    llvm::StringMap<std::optional<int64_t>> &varBounds = bounds[callee];
    for (const auto &entry : callee.getVarBindings())
      varBounds[entry.getKey()] = std::nullopt;
  });
  llvm::DenseMap<Operation *, sym::Context> facts;
  for (auto &[func, varBounds] : bounds) {
    sym::Context &context = facts[func];
    for (const auto &entry : varBounds)
      if (entry.getValue())
        context.setBounds(entry.getKey(), 0, *entry.getValue());
  }
  return facts;
}

//===----------------------------------------------------------------------===//
// Step 2: body ops
//===----------------------------------------------------------------------===//

namespace {
/// GPU axis names as upstream's parallel-loop mapping processors.
static std::optional<gpu::Processor> getProcessor(StringRef axis) {
  return llvm::StringSwitch<std::optional<gpu::Processor>>(axis)
      .Case("blockIdx.x", gpu::Processor::BlockX)
      .Case("blockIdx.y", gpu::Processor::BlockY)
      .Case("blockIdx.z", gpu::Processor::BlockZ)
      .Case("threadIdx.x", gpu::Processor::ThreadX)
      .Case("threadIdx.y", gpu::Processor::ThreadY)
      .Case("threadIdx.z", gpu::Processor::ThreadZ)
      .Default(std::nullopt);
}

struct ForOpLowering : OpRewritePattern<tir::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tir::ForOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tir::LoopKind kind = op.getKind();
    Operation *loop;
    Block *loopBody;
    ValueRange ivs;
    if (kind == tir::LoopKind::parallel ||
        kind == tir::LoopKind::thread_binding) {
      auto parallel = scf::ParallelOp::create(
          rewriter, loc, ValueRange{op.getLowerBound()},
          ValueRange{op.getUpperBound()}, ValueRange{op.getStep()});
      if (kind == tir::LoopKind::thread_binding) {
        std::optional<gpu::Processor> processor =
            getProcessor(op.getThread().value_or(""));
        if (!processor)
          return rewriter.notifyMatchFailure(op, "unknown thread axis");
        AffineMap identity = rewriter.getDimIdentityMap();
        auto mapping = gpu::ParallelLoopDimMappingAttr::get(
            rewriter.getContext(), *processor, identity, identity);
        if (failed(gpu::setMappingAttr(parallel, {mapping})))
          return failure();
      }
      loop = parallel;
      loopBody = parallel.getBody();
      ivs = parallel.getInductionVars();
    } else {
      auto forOp = scf::ForOp::create(rewriter, loc, op.getLowerBound(),
                                      op.getUpperBound(), op.getStep());
      loop = forOp;
      loopBody = forOp.getBody();
      ivs = forOp.getBody()->getArguments().take_front(1);
    }
    if (kind != tir::LoopKind::serial)
      loop->setAttr("tir.loop_kind",
                    rewriter.getStringAttr(tir::stringifyLoopKind(kind)));
    if (std::optional<StringRef> name = op.getLoopName())
      loop->setAttr("tir.loop_name", rewriter.getStringAttr(*name));
    rewriter.eraseOp(op.getBody()->getTerminator());
    rewriter.inlineBlockBefore(op.getBody(), loopBody->getTerminator(), ivs);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BlockOpLowering : OpRewritePattern<tir::BlockOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tir::BlockOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (tir::InitOp init = op.getInitOp()) {
      // The init runs on the first iteration of every reduce variable.
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value cond;
      for (auto [i, binding] : llvm::enumerate(op.getBindings())) {
        if (op.getIterKind(i) != tir::IterKind::reduce)
          continue;
        Value isFirst = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, binding, zero);
        cond = cond ? arith::AndIOp::create(rewriter, loc, cond, isFirst)
                    : isFirst;
      }
      auto ifOp = scf::IfOp::create(rewriter, loc, cond,
                                    /*withElseRegion=*/false);
      rewriter.eraseOp(init.getBody()->getTerminator());
      rewriter.inlineBlockBefore(init.getBody(),
                                 ifOp.thenBlock()->getTerminator());
      rewriter.eraseOp(init);
    }
    rewriter.eraseOp(op.getBody()->getTerminator());
    rewriter.inlineBlockBefore(op.getBody(), op, op.getBindings());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The 1-D view of `memref` (dense, identity layout: every tir buffer) and
/// the row-major position of `indices` in it: tir's vector accesses may run
/// on into the next rows, which vector.load on the n-D memref leaves
/// undefined.
static std::pair<Value, Value> linearize(OpBuilder &b, Location loc,
                                         Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() <= 1)
    return {memref, indices.empty()
                        ? arith::ConstantIndexOp::create(b, loc, 0).getResult()
                        : indices.front()};
  Value linear = indices.front();
  for (int64_t d = 1; d < type.getRank(); ++d) {
    Value size = memref::DimOp::create(b, loc, memref, d);
    linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, linear, size), indices[d]);
  }
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.front().push_back(d);
  // The 1-D type is spelled out: the inferred one makes [0, ?] a static 0,
  // which the verifier rejects for a group with a dynamic dim.
  int64_t size = type.hasStaticShape() ? type.getNumElements()
                                       : ShapedType::kDynamic;
  auto flatType = MemRefType::get({size}, type.getElementType(),
                                  MemRefLayoutAttrInterface(),
                                  type.getMemorySpace());
  Value flat = memref::CollapseShapeOp::create(b, loc, flatType, memref, all);
  return {flat, linear};
}

static llvm::MaybeAlign toMaybeAlign(std::optional<uint64_t> alignment) {
  return alignment ? llvm::MaybeAlign(*alignment) : llvm::MaybeAlign();
}

/// The access ops on the lowered memref: memref.load / memref.store for one
/// element, vector.load / vector.store (on the 1-D view) for several.
static void lowerAccess(tir::LoadOp op, Value memref,
                        PatternRewriter &rewriter) {
  rewriter.replaceOpWithNewOp<memref::LoadOp>(op, memref, op.getIndices());
}
static void lowerAccess(tir::StoreOp op, Value memref,
                        PatternRewriter &rewriter) {
  rewriter.replaceOpWithNewOp<memref::StoreOp>(op, op.getValue(), memref,
                                               op.getIndices());
}
static void lowerAccess(tir::VectorLoadOp op, Value memref,
                        PatternRewriter &rewriter) {
  auto [flat, index] = linearize(rewriter, op.getLoc(), memref, op.getIndices());
  rewriter.replaceOpWithNewOp<vector::LoadOp>(
      op, cast<VectorType>(op.getType()), flat, ValueRange{index},
      /*nontemporal=*/false, toMaybeAlign(op.getAlignment()));
}
static void lowerAccess(tir::VectorStoreOp op, Value memref,
                        PatternRewriter &rewriter) {
  auto [flat, index] = linearize(rewriter, op.getLoc(), memref, op.getIndices());
  rewriter.replaceOpWithNewOp<vector::StoreOp>(
      op, op.getValue(), flat, ValueRange{index}, /*nontemporal=*/false,
      toMaybeAlign(op.getAlignment()));
}

/// A tir load or store (one element or a vector) of a buffer that the
/// signature step turned into a memref.
template <typename AccessOp>
struct AccessLowering : OpRewritePattern<AccessOp> {
  using OpRewritePattern<AccessOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AccessOp op,
                                PatternRewriter &rewriter) const override {
    Value memref = getLoweredMemRef(op.getBuffer());
    if (!memref)
      return rewriter.notifyMatchFailure(op, "buffer is not a lowered memref");
    lowerAccess(op, memref, rewriter);
    return success();
  }
};
} // namespace

void mlir::relax::populateTIRToSCFPatterns(RewritePatternSet &patterns) {
  patterns.add<ForOpLowering, BlockOpLowering, AccessLowering<tir::LoadOp>,
               AccessLowering<tir::StoreOp>, AccessLowering<tir::VectorLoadOp>,
               AccessLowering<tir::VectorStoreOp>>(patterns.getContext());
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertTIRToSCF : relax::impl::ConvertTIRToSCFBase<ConvertTIRToSCF> {
  using ConvertTIRToSCFBase::ConvertTIRToSCFBase;

  /// The tensor-core ops of GPU kernels (MmaSyncLowering.cpp) become
  /// NVVM, NVGPU, LLVM and vector ops; tir's vector accesses vector ops.
  void getDependentDialects(DialectRegistry &registry) const override {
    ConvertTIRToSCFBase::getDependentDialects(registry);
    registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect,
                    nvgpu::NVGPUDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkTIRMmaSyncForGPU(module)))
      return signalPassFailure();
    SmallVector<tir::PrimFuncOp> prims(module.getOps<tir::PrimFuncOp>());
    llvm::DenseMap<Operation *, sym::Context> varBounds =
        collectVarBounds(module);
    for (tir::PrimFuncOp prim : prims) {
      StackPolicy stack{varBounds.lookup(prim), maxStackBytes};
      if (failed(lowerSignature(prim, stack)))
        return signalPassFailure();
    }

    RewritePatternSet patterns(&getContext());
    populateTIRToSCFPatterns(patterns);
    populateTIRMmaSyncLoweringPatterns(patterns);
    populateTIRTmaLoweringPatterns(patterns);
    // Structural rewrites only: leave constant folding to canonicalize.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(module, std::move(patterns), config)))
      return signalPassFailure();

    // Casts back to memrefs (convert-tir-to-linalg hands buffers to linalg
    // that way) read the converted memref directly.
    module.walk([&](UnrealizedConversionCastOp cast) {
      if (cast.getNumOperands() != 1 || cast.getNumResults() != 1 ||
          !isa<tir::BufferType>(cast.getOperand(0).getType()))
        return;
      Value memref = getLoweredMemRef(cast.getOperand(0));
      if (memref && memref.getType() == cast.getResult(0).getType()) {
        cast.getResult(0).replaceAllUsesWith(memref);
        cast.erase();
      }
    });
    // The casts that kept tir ops valid are dead now.
    bool failedToLower = false;
    module.walk([&](Operation *op) {
      if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op)) {
        if (cast->use_empty() && cast.getNumResults() == 1 &&
            isa<tir::BufferType>(cast.getResult(0).getType()))
          cast.erase();
        return;
      }
      if (isa<tir::TIRDialect>(op->getDialect())) {
        op->emitOpError("could not be lowered to scf/memref");
        failedToLower = true;
      }
    });
    if (failedToLower)
      signalPassFailure();
  }
};
} // namespace
