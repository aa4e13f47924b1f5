//===- Buffers.cpp - allocation, arena, frees -----------------------------===//
//
// --relax-lower-shapes: buffers of lowered functions: outputs allocated
// with checked byte sizes, the memory plan's arena and the views into it,
// frees after the last use, the runtime's memory counters, relax.view.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "RelaxDialect/Conversion/HostMemoryToGPU/HostMemoryToGPU.h"
#include "RelaxDialect/Relax/IR/StorageRoot.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::lower_shapes;

/// A new dense allocation of `memref`'s shape (its dynamic dims read from
/// it) and element type.
memref::AllocOp FunctionLowering::allocLike(Value memref, Location loc,
                                            IntegerAttr alignment) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(dimValue(memref, d));
  return memref::AllocOp::create(
      builder, loc, MemRefType::get(type.getShape(), type.getElementType()),
      dynamicSizes, alignment);
}
/// Frees an owned buffer: the arena goes back to the runtime's cache (or is
/// deallocated), other buffers are deallocated; counted ones are uncounted.
void FunctionLowering::freeBuffer(Value buffer, Location loc) {
  if (buffer == arena && arenaKey) {
    func::CallOp::create(builder, loc, kReleaseArenaFn, TypeRange(),
                         ValueRange{arenaKey, buffer});
  } else if (isa<MemRefType>(buffer.getType())) {
    memref::DeallocOp::create(builder, loc, buffer);
  } else {
    return;
  }
  if (Value bytes = countedBytes.lookup(buffer))
    callMemoryCounter(kMemoryFreeFn, bytes, loc);
}
/// relax_rt_memory_alloc / relax_rt_memory_free (record-memory).
void FunctionLowering::callMemoryCounter(StringRef name, Value bytes,
                                         Location loc) {
  declareRuntimeFunction(name,
                         builder.getFunctionType({builder.getI64Type()}, {}));
  func::CallOp::create(builder, loc, name, TypeRange(), ValueRange{bytes});
}
/// Takes ownership of `buffer`; with record-memory and `bytes`, counts it as
/// an intermediate.
void FunctionLowering::addOwned(Value buffer, Value bytes) {
  ownedBuffers.push_back(buffer);
  ++ownedVersion;
  if (!bytes || !options.recordMemory)
    return;
  Value asI64 = bytes.getType().isIndex()
                    ? arith::IndexCastOp::create(builder, src.getLoc(),
                                                 builder.getI64Type(), bytes)
                          .getResult()
                    : bytes;
  countedBytes[buffer] = asI64;
  callMemoryCounter(kMemoryAllocFn, asI64, src.getLoc());
}
/// Frees, right after `op`, the owned buffers whose last reader `op` is and
/// that nothing else may still see (not returned, not given to a call).
void FunctionLowering::freeDeadBuffers(Operation *op) {
  if (!liveness || !options.freeAfterLastUse || isa<ReturnOp>(op))
    return;
  for (Value value : liveness->getDying(op)) {
    if (liveness->escapes(value) || liveness->isPinned(value))
      continue;
    Value buffer = mapping.lookupOrNull(value);
    buffer = aliasRoot.lookup(buffer) ? aliasRoot.lookup(buffer) : buffer;
    auto it = llvm::find(ownedBuffers, buffer);
    if (!buffer || it == ownedBuffers.end() || buffer == arena)
      continue;
    ownedBuffers.erase(it);
    ++ownedVersion;
    freeBuffer(buffer, op->getLoc());
  }
}
/// Allocates the arena of a planned function at entry, once its parameters
/// are checked. With reuse-arena it comes from the runtime's cache, keyed by
/// a private global of this function, and is allocated at least at the
/// plan's bound: a function whose sizes are all bounded allocates once.
LogicalResult FunctionLowering::allocateArena() {
  plan = src->getAttrOfType<DictionaryAttr>(kMemoryPlanAttrName);
  if (!plan)
    return success();
  auto arenaSize = plan.getAs<SymExprAttr>("arena");
  if (!arenaSize)
    return src.emitOpError("memory plan has no arena size");
  Location loc = src.getLoc();
  std::string fn = src.getSymName().str();
  Value bytes = emitExpr(arenaSize.getExpr(), "arena size");
  if (!bytes)
    return src.emitOpError("arena size uses a variable not bound at entry");
  flushChecks();
  auto type = MemRefType::get({ShapedType::kDynamic}, builder.getI8Type());
  Type i64 = builder.getI64Type();
  Value bytes64 = arith::IndexCastOp::create(builder, loc, i64, bytes);
  if (options.reuseArena) {
    auto module = src->getParentOfType<ModuleOp>();
    auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
    std::string keyName = "__relax_arena_key_" + std::to_string(messageCounter++);
    LLVM::GlobalOp key;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(module.getBody());
      key = LLVM::GlobalOp::create(builder, loc, builder.getI8Type(),
                                   /*isConstant=*/false,
                                   LLVM::Linkage::Internal, keyName,
                                   builder.getI8IntegerAttr(0));
    }
    declareRuntimeFunction(kAcquireArenaFn,
                           builder.getFunctionType({ptr, i64, i64}, {type}),
                           /*cInterface=*/true);
    declareRuntimeFunction(kReleaseArenaFn,
                           builder.getFunctionType({ptr, type}, {}),
                           /*cInterface=*/true);
    arenaKey = LLVM::AddressOfOp::create(builder, loc, key);
    auto boundAttr = plan.getAs<IntegerAttr>("bound");
    Value capacity = arith::ConstantIntOp::create(
        builder, loc, i64, boundAttr ? boundAttr.getInt() : 0);
    arena = func::CallOp::create(builder, loc, kAcquireArenaFn, TypeRange{type},
                                 ValueRange{arenaKey, bytes64, capacity})
                .getResult(0);
  } else {
    arena = memref::AllocOp::create(builder, loc, type, ValueRange{bytes},
                                    builder.getI64IntegerAttr(kArenaAlignment));
  }
  failIfNull(arena, loc,
             escapePercent(fn + ": cannot allocate ") +
                 "%lld bytes for the arena: out of memory",
             bytes64);
  addOwned(arena, bytes64);
  return success();
}
/// Tells the runtime what this call's plan came to (record-memory): the
/// arena and, for comparison, every intermediate held until return.
void FunctionLowering::recordPlan(Location loc) {
  Type i64 = builder.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  declareRuntimeFunction(
      kMemoryPlanFn,
      builder.getFunctionType({ptr, ptr, i64, ptr, i64, i64, i64, i64, i64},
                              {}));
  auto text = [&](StringRef value) {
    std::string s = value.str();
    s.push_back('\0');
    return LLVM::createGlobalString(
        loc, builder, "__relax_msg_" + std::to_string(messageCounter++), s,
        LLVM::Linkage::Internal);
  };
  auto integer = [&](StringRef key) -> Value {
    auto attr = plan.getAs<IntegerAttr>(key);
    return arith::ConstantIntOp::create(builder, loc, i64,
                                        attr ? attr.getInt() : -1);
  };
  sym::Expr arenaExpr = plan.getAs<SymExprAttr>("arena").getExpr();
  sym::Expr unplanned = plan.getAs<SymExprAttr>("unplanned")
                            ? plan.getAs<SymExprAttr>("unplanned").getExpr()
                            : sym::Expr::constant(0);
  Value unplannedBytes = emitExpr(unplanned, "unplanned intermediate bytes");
  flushChecks();
  if (!unplannedBytes)
    unplannedBytes = arith::ConstantIndexOp::create(builder, loc, -1);
  Value arenaBytes = arith::IndexCastOp::create(
      builder, loc, i64, memref::DimOp::create(builder, loc, arena, 0));
  func::CallOp::create(
      builder, loc, kMemoryPlanFn, TypeRange(),
      ValueRange{text(src.getSymName()), text(arenaExpr.str()), arenaBytes,
                 text(unplanned.str()),
                 arith::IndexCastOp::create(builder, loc, i64, unplannedBytes),
                 integer("storages"), integer("planned"),
                 integer("intermediates"),
                 // The bound is what the arena is allocated at only when it
                 // comes from the cache.
                 options.reuseArena
                     ? integer("bound")
                     : arith::ConstantIntOp::create(builder, loc, i64, -1)});
}
/// Allocates an output; `what` names it in messages ("call_tir @f output 0
/// at f.mlir:3:8"). The dims, the element count and the byte size are
/// overflow-checked before allocating (memref.alloc would multiply them
/// wrapping), and a null pointer from the allocator is a recorded error
/// rather than a crash at the first store. With an `arenaOffset`
/// (#relax.expr) the buffer is a view of the function's arena at that byte
/// offset; an `intermediate` buffer is counted under record-memory.
FailureOr<Value> FunctionLowering::allocate(Location loc, Type relaxType,
                                            StringRef what,
                                            Attribute arenaOffset,
                                            bool intermediate) {
  auto tensor = dyn_cast<RelaxTensorType>(relaxType);
  if (!tensor || !tensor.getShape().isFullyKnown())
    return emitError(loc, "cannot allocate an output of type ")
           << relaxType << ": every dim must be known (use match_cast)";
  auto memrefType = cast<MemRefType>(*convertRelaxType(tensor));
  std::string typeText;
  llvm::raw_string_ostream(typeText) << relaxType;
  std::string described = (what + " " + typeText).str();
  SmallVector<Value> dynSizes;
  Value elements;
  for (auto [d, dim] : llvm::enumerate(tensor.getDims())) {
    Value size;
    if (memrefType.isDynamicDim(d)) {
      size = emitExpr(dim, (what + " dim " + Twine(d)).str());
      if (!size)
        return emitError(loc, "cannot allocate: a variable of ")
               << dim.str() << " is not bound";
      // A dim expression such as `w - 1` is negative for some bindings
      // that no op contract excludes; allocating with it would wrap.
      if (symContextAt(src).isLE(sym::Expr::constant(0), dim) !=
          sym::Truth::True) {
        Type i64 = builder.getI64Type();
        Value value = arith::IndexCastOp::create(builder, loc, i64, size);
        Value zero = arith::ConstantIntOp::create(builder, loc, i64, 0);
        emitFailure(arith::CmpIOp::create(builder, loc,
                                          arith::CmpIPredicate::slt, value,
                                          zero),
                    escapePercent(src.getSymName().str() + ": " + described +
                                  " dim " + Twine(d).str() + " = " +
                                  dim.str()) +
                        " is %lld (negative)",
                    value, zero);
      }
      dynSizes.push_back(size);
    } else {
      size = arith::ConstantIndexOp::create(builder, loc,
                                            memrefType.getDimSize(d));
    }
    elements = elements ? checkedSizeMul(elements, size,
                                         "element count of " + described)
                        : size;
  }
  if (!elements)
    elements = arith::ConstantIndexOp::create(builder, loc, 1);
  int64_t elementBytes = (memrefType.getElementTypeBitWidth() + 7) / 8;
  Value bytes = checkedSizeMul(
      elements, arith::ConstantIndexOp::create(builder, loc, elementBytes),
      "byte size of " + described);
  if (auto offset = dyn_cast_or_null<SymExprAttr>(arenaOffset)) {
    if (!arena)
      return emitError(loc, "has an arena offset but the function has no "
                            "memory plan (relax.memory_plan)");
    // The planner sized the slot; the offset is within the arena and
    // 64-byte aligned (relax-verify-memory-plan proves both).
    Value shift = emitExpr(offset.getExpr(), "arena offset of " + described);
    if (!shift)
      return emitError(loc, "arena offset uses an unbound variable");
    flushChecks();
    return memref::ViewOp::create(builder, loc, memrefType, arena, shift,
                                  dynSizes)
        .getResult();
  }
  flushChecks(); // never allocate with a wrapped size
  // 64-byte alignment lets the vectoriser use aligned AVX-512 accesses.
  Value buffer = memref::AllocOp::create(builder, loc, memrefType, dynSizes,
                                         builder.getI64IntegerAttr(64));
  failIfNull(buffer, loc,
             escapePercent(src.getSymName().str() + ": cannot allocate ") +
                 "%lld bytes" +
                 escapePercent(" for " + described + ": out of memory"),
             bytes);
  addOwned(buffer, intermediate ? bytes : Value());
  return buffer;
}
/// The outputs of a call_tir or call_dps_packed: views of the arena where
/// the plan placed them (relax.arena_offsets), allocations otherwise.
FailureOr<SmallVector<Value>>
FunctionLowering::allocateOutputs(Operation *op, StringRef site,
                                  ArrayRef<bool> skip) {
  auto offsets = op->getAttrOfType<ArrayAttr>(kArenaOffsetsAttrName);
  if (offsets && offsets.size() != op->getNumResults())
    return op->emitOpError("has ")
           << offsets.size() << " arena offsets for " << op->getNumResults()
           << " results";
  SmallVector<Value> outputs;
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    if (i < skip.size() && skip[i])
      continue;
    bool intermediate = liveness && !liveness->escapes(result);
    FailureOr<Value> buffer =
        allocate(op->getLoc(), result.getType(),
                 ("output " + Twine(i) + " of " + site).str(),
                 offsets ? offsets[i] : Attribute(), intermediate);
    if (failed(buffer))
      return failure();
    outputs.push_back(*buffer);
  }
  return outputs;
}
/// A new allocation holding a copy of `buffer` (a ranked memref), owned by
/// the function.
Value FunctionLowering::copyToFresh(Value buffer, Location loc,
                                    StringRef site) {
  Value copy = allocLike(buffer, loc, builder.getI64IntegerAttr(64));
  failIfNull(copy, loc,
             escapePercent(src.getSymName().str() + ": " + site + " at " +
                           describeLoc(loc)) +
                 ": cannot allocate the copy of a yielded value: out of "
                 "memory",
             arith::ConstantIndexOp::create(builder, loc, 0));
  memref::CopyOp::create(builder, loc, buffer, copy)
      ->setAttr(kBufferCopyAttrName, builder.getUnitAttr());
  addOwned(copy, Value());
  return copy;
}
/// A relax.view: the input's buffer under the result's sizes with
/// row-major strides (a memref.reinterpret_cast at offset 0: every buffer
/// here has the identity layout), after a run-time check that the view's
/// element count fits the input's unless the verifier's context proves it.
LogicalResult FunctionLowering::lowerView(ViewOp op) {
  Value input = mapping.lookup(op.getInput());
  if (!input || !isa<MemRefType>(input.getType()))
    return op.emitOpError("can only view a ranked tensor: match_cast it first");
  auto target = cast<RelaxTensorType>(op.getResult().getType());
  auto resultType = cast<MemRefType>(*convertRelaxType(target));
  Location loc = op.getLoc();
  std::string site = src.getSymName().str() + ": relax.view at " +
                     describeLoc(loc);
  SmallVector<Value> sizes;
  Value viewed = arith::ConstantIndexOp::create(builder, loc, 1);
  for (auto [d, dim] : llvm::enumerate(target.getDims())) {
    Value size = emitExpr(dim, site + " dim " + std::to_string(d));
    if (!size)
      return op.emitOpError("uses a variable that is not bound: ")
             << dim.str();
    sizes.push_back(size);
    viewed = checkedSizeMul(viewed, size, "relax.view element count");
  }
  auto source = cast<RelaxTensorType>(op.getInput().getType());
  bool proven =
      source.getShape().isFullyKnown() &&
      symContextAt(op).isLE(target.getShape().getNumElements(),
                            source.getShape().getNumElements()) ==
          sym::Truth::True;
  if (!proven) {
    auto inputType = cast<MemRefType>(input.getType());
    Value available = arith::ConstantIndexOp::create(builder, loc, 1);
    for (int64_t d = 0; d < inputType.getRank(); ++d)
      available =
          arith::MulIOp::create(builder, loc, available, dimValue(input, d));
    Value bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                                      viewed, available);
    emitCheckIf(bad, viewed, available,
                escapePercent(site) +
                    ": the view has %lld elements, the viewed tensor %lld");
    flushChecks();
  }
  // Row-major strides, static where the dims after are.
  SmallVector<OpFoldResult> sizeFolds, strideFolds(sizes.size());
  for (auto [d, size] : llvm::enumerate(sizes))
    sizeFolds.push_back(resultType.isDynamicDim(d)
                            ? OpFoldResult(size)
                            : builder.getIndexAttr(resultType.getDimSize(d)));
  int64_t staticStride = 1;
  Value stride;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strideFolds[d] = stride ? OpFoldResult(stride)
                            : OpFoldResult(builder.getIndexAttr(staticStride));
    if (!stride && !resultType.isDynamicDim(d)) {
      staticStride *= resultType.getDimSize(d);
      continue;
    }
    Value previous =
        stride ? stride
               : arith::ConstantIndexOp::create(builder, loc, staticStride);
    stride = arith::MulIOp::create(builder, loc, previous, sizes[d]);
  }
  Value view = memref::ReinterpretCastOp::create(
      builder, loc, resultType, input, builder.getIndexAttr(0), sizeFolds,
      strideFolds);
  aliasRoot[view] = aliasRoot.lookup(input) ? aliasRoot.lookup(input) : input;
  mapping.map(op.getResult(), view);
  return success();
}
