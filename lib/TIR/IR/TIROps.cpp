//===- TIROps.cpp - tir dialect operations --------------------------------===//

#include "RelaxDialect/TIR/IR/TIRDialect.h"
#include "RelaxDialect/TIR/IR/OpPattern.h"
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"
#include "RelaxDialect/TIR/IR/TIRVectorOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "RelaxDialect/Support/FunctionLike.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tir;

#define GET_OP_CLASSES
#include "RelaxDialect/TIR/IR/TIROps.cpp.inc"

// The tensor-core and vector ops (TIRTensorCoreOps.td, TIRVectorOps.td)
// share the verifiers' helpers.
#define GET_OP_CLASSES
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.cpp.inc"
#define GET_OP_CLASSES
#include "RelaxDialect/TIR/IR/TIRVectorOps.cpp.inc"

void PrimFuncOp::build(OpBuilder &builder, OperationState &state,
                       StringRef name, FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

Block *PrimFuncOp::addEntryBlock() {
  Block *block = new Block();
  getBody().push_back(block);
  for (Type type : getArgumentTypes())
    block->addArgument(type, getLoc());
  return block;
}

ParseResult PrimFuncOp::parse(OpAsmParser &parser, OperationState &result) {
  return relax::parseFunctionLikeOp<PrimFuncOp>(parser, result);
}

void PrimFuncOp::print(OpAsmPrinter &p) { relax::printFunctionLikeOp(p, *this); }

std::optional<PrimFuncOp::VarBinding>
PrimFuncOp::lookupVarBinding(StringRef name) {
  // Buffer dims win over index parameters, matching relax.call_tir, which
  // binds from the tensors first.
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (auto buffer = dyn_cast<BufferType>(type))
      for (auto [d, dim] : llvm::enumerate(buffer.getDims()))
        if (dim && dim.isVar() && dim.getVarName() == name)
          return VarBinding{static_cast<unsigned>(i), static_cast<int64_t>(d)};
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (auto var = getArgAttrOfType<StringAttr>(i, "tir.var"))
      if (var.getValue() == name)
        return VarBinding{static_cast<unsigned>(i), -1};
  return std::nullopt;
}

llvm::StringMap<PrimFuncOp::VarBinding> PrimFuncOp::getVarBindings() {
  llvm::StringMap<VarBinding> bindings;
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (auto buffer = dyn_cast<BufferType>(type))
      for (auto [d, dim] : llvm::enumerate(buffer.getDims()))
        if (dim && dim.isVar())
          bindings.try_emplace(
              dim.getVarName(),
              VarBinding{static_cast<unsigned>(i), static_cast<int64_t>(d)});
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (auto var = getArgAttrOfType<StringAttr>(i, "tir.var"))
      bindings.try_emplace(var.getValue(),
                           VarBinding{static_cast<unsigned>(i), -1});
  return bindings;
}

/// Names the first variable of `type`'s dims that `bound` lacks, if any.
static std::optional<std::string>
findUnboundVar(BufferType type,
               const llvm::StringMap<PrimFuncOp::VarBinding> &bound) {
  for (const std::string &var : type.getShape().getVars())
    if (!bound.contains(var))
      return var;
  return std::nullopt;
}

LogicalResult PrimFuncOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError("returns nothing: outputs are destination buffers");
  llvm::StringMap<VarBinding> bound = getVarBindings();
  for (auto [i, type] : llvm::enumerate(getArgumentTypes())) {
    if (!isa<BufferType, IndexType>(type))
      return emitOpError("parameter #")
             << i << " must be a !tir.buffer or index, got " << type;
    if (Attribute var = getArgAttr(i, "tir.var")) {
      if (!isa<IndexType>(type) || !isa<StringAttr>(var))
        return emitOpError("parameter #")
               << i << ": 'tir.var' names an index parameter's variable";
    }
    auto buffer = dyn_cast<BufferType>(type);
    if (!buffer)
      continue;
    // The caller's tensors live in global memory; shared and local buffers
    // only exist inside a program.
    if (buffer.getScope() != MemoryScope::global)
      return emitOpError("parameter #")
             << i << " must be a global buffer, got scope '"
             << stringifyMemoryScope(buffer.getScope()) << "'";
    for (const relax::sym::Expr &dim : buffer.getDims())
      if (!dim)
        return emitOpError("parameter #")
               << i << " has an unknown dim: tir buffers have known shapes";
    if (std::optional<std::string> var = findUnboundVar(buffer, bound))
      return emitOpError("parameter #")
             << i << " uses symbolic variable '" << *var
             << "' that no parameter binds (a bare buffer dim or a "
                "'tir.var' index parameter)";
  }
  if (auto pattern = (*this)->getAttr(kOpPatternAttrName)) {
    if (!isa<OpPatternAttr>(pattern))
      return emitOpError("'op_pattern' must be a #tir.op_pattern<...> "
                         "(elementwise, broadcast, injective, reduction, "
                         "out_ewise_fusable or opaque); got ")
             << pattern;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SymVarOp
//===----------------------------------------------------------------------===//

LogicalResult SymVarOp::verify() {
  auto func = (*this)->getParentOfType<PrimFuncOp>();
  if (!func)
    return emitOpError("must be nested in a tir.prim_func");
  if (!func.lookupVarBinding(getVarName()))
    return emitOpError("symbolic variable '")
           << getVarName() << "' is not bound by the parameters of @"
           << func.getSymName();
  return success();
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

void ForOp::build(OpBuilder &builder, OperationState &state, Value lowerBound,
                  Value upperBound, Value step, LoopKind kind,
                  function_ref<void(OpBuilder &, Location, Value)> bodyBuilder,
                  StringRef thread) {
  state.addOperands({lowerBound, upperBound, step});
  state.addAttribute(getKindAttrName(state.name),
                     LoopKindAttr::get(builder.getContext(), kind));
  if (!thread.empty())
    state.addAttribute(getThreadAttrName(state.name),
                       builder.getStringAttr(thread));
  Region *region = state.addRegion();
  Block *body = new Block();
  region->push_back(body);
  Value iv = body->addArgument(builder.getIndexType(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  if (bodyBuilder)
    bodyBuilder(builder, state.location, iv);
  ForOp::ensureTerminator(*region, builder, state.location);
}

static bool isThreadAxis(StringRef name) {
  return llvm::is_contained({"blockIdx.x", "blockIdx.y", "blockIdx.z",
                             "threadIdx.x", "threadIdx.y", "threadIdx.z"},
                            name);
}

LogicalResult ForOp::verify() {
  Block *body = getBody();
  if (body->getNumArguments() != 1 || !body->getArgument(0).getType().isIndex())
    return emitOpError("body must take one index induction variable");
  std::optional<StringRef> thread = getThread();
  if (getKind() == LoopKind::thread_binding) {
    if (!thread)
      return emitOpError("thread_binding loop needs a 'thread' axis");
    if (!isThreadAxis(*thread))
      return emitOpError("unknown thread axis '")
             << *thread << "' (expected blockIdx.x/y/z or threadIdx.x/y/z)";
  } else if (thread) {
    return emitOpError("'thread' is only allowed on a thread_binding loop");
  }
  return success();
}

// `tir.for %i = %lb to %ub step %s [kind = K] [thread = "ax"] [name = "n"]`
ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand lb, ub, step;
  Type indexType = builder.getIndexType();
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) || parser.parseKeyword("step") ||
      parser.parseOperand(step) ||
      parser.resolveOperands({lb, ub, step}, indexType, result.operands))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("kind"))) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseEqual() || parser.parseKeyword(&keyword))
      return failure();
    std::optional<LoopKind> kind = symbolizeLoopKind(keyword);
    if (!kind)
      return parser.emitError(loc, "unknown loop kind '")
             << keyword
             << "' (expected serial, parallel, vectorized, unrolled or "
                "thread_binding)";
    result.addAttribute(getKindAttrName(result.name),
                        LoopKindAttr::get(builder.getContext(), *kind));
  }
  for (auto [keyword, attrName] :
       {std::make_pair("thread", getThreadAttrName(result.name)),
        std::make_pair("name", getLoopNameAttrName(result.name))}) {
    if (failed(parser.parseOptionalKeyword(keyword)))
      continue;
    std::string value;
    if (parser.parseEqual() || parser.parseString(&value))
      return failure();
    result.addAttribute(attrName, builder.getStringAttr(value));
  }
  iv.type = indexType;
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  ForOp::ensureTerminator(*body, builder, result.location);
  return parser.parseOptionalAttrDict(result.attributes);
}

void ForOp::print(OpAsmPrinter &p) {
  p << " " << getInductionVar() << " = " << getLowerBound() << " to "
    << getUpperBound() << " step " << getStep();
  if (getKind() != LoopKind::serial)
    p << " kind = " << stringifyLoopKind(getKind());
  if (std::optional<StringRef> thread = getThread()) {
    p << " thread = ";
    p.printString(*thread);
  }
  if (std::optional<StringRef> name = getLoopName()) {
    p << " name = ";
    p.printString(*name);
  }
  p << " ";
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getKindAttrName(), getThreadAttrName(), getLoopNameAttrName()});
}

SmallVector<Region *> ForOp::getLoopRegions() { return {&getRegion()}; }

std::optional<SmallVector<Value>> ForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getLowerBound())};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getUpperBound())};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{OpFoldResult(getStep())};
}

//===----------------------------------------------------------------------===//
// BlockOp and InitOp
//===----------------------------------------------------------------------===//

void BlockOp::build(
    OpBuilder &builder, OperationState &state, StringRef name,
    ValueRange bindings, ArrayRef<IterKind> kinds,
    function_ref<void(OpBuilder &, Location, ValueRange)> initBuilder,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyBuilder) {
  MLIRContext *ctx = builder.getContext();
  state.addOperands(bindings);
  state.addAttribute(getBlockNameAttrName(state.name),
                     builder.getStringAttr(name));
  SmallVector<Attribute> kindAttrs;
  for (IterKind kind : kinds)
    kindAttrs.push_back(IterKindAttr::get(ctx, kind));
  state.addAttribute(getIterKindsAttrName(state.name),
                     builder.getArrayAttr(kindAttrs));
  Region *region = state.addRegion();
  Block *body = new Block();
  region->push_back(body);
  for (Value binding : bindings)
    body->addArgument(builder.getIndexType(), binding.getLoc());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  if (initBuilder) {
    auto init = InitOp::create(builder, state.location);
    Block *initBody = new Block();
    init.getRegion().push_back(initBody);
    builder.setInsertionPointToStart(initBody);
    initBuilder(builder, state.location, body->getArguments());
    InitOp::ensureTerminator(init.getRegion(), builder, state.location);
    builder.setInsertionPointAfter(init);
  }
  if (bodyBuilder)
    bodyBuilder(builder, state.location, body->getArguments());
  BlockOp::ensureTerminator(*region, builder, state.location);
}

IterKind BlockOp::getIterKind(unsigned i) {
  return cast<IterKindAttr>(getIterKinds()[i]).getValue();
}

bool BlockOp::hasReduceVar() {
  for (unsigned i = 0, e = getIterKinds().size(); i < e; ++i)
    if (getIterKind(i) == IterKind::reduce)
      return true;
  return false;
}

InitOp BlockOp::getInitOp() {
  Block *body = getBody();
  return body->empty() ? InitOp() : dyn_cast<InitOp>(body->front());
}

LogicalResult BlockOp::verify() {
  unsigned numVars = getBindings().size();
  if (getIterKinds().size() != numVars)
    return emitOpError("has ") << numVars << " iteration variables but "
                               << getIterKinds().size() << " kinds";
  Block *body = getBody();
  if (body->getNumArguments() != numVars)
    return emitOpError("body takes ")
           << body->getNumArguments() << " arguments, expected one per "
           << "iteration variable (" << numVars << ")";
  for (BlockArgument arg : body->getArguments())
    if (!arg.getType().isIndex())
      return emitOpError("iteration variables must be index values");
  return success();
}

// `tir.block "name" (%vi = %i, ...) kinds [spatial, ...] { ... }`
ParseResult BlockOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  std::string name;
  SmallVector<OpAsmParser::Argument> vars;
  SmallVector<OpAsmParser::UnresolvedOperand> bindings;
  if (parser.parseString(&name) ||
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren,
          [&]() -> ParseResult {
            if (parser.parseArgument(vars.emplace_back()) ||
                parser.parseEqual() ||
                parser.parseOperand(bindings.emplace_back()))
              return failure();
            vars.back().type = builder.getIndexType();
            return success();
          }) ||
      parser.resolveOperands(bindings, builder.getIndexType(), result.operands))
    return failure();
  result.addAttribute(getBlockNameAttrName(result.name),
                      builder.getStringAttr(name));
  SmallVector<Attribute> kinds;
  if (parser.parseKeyword("kinds") ||
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            StringRef keyword;
            SMLoc loc = parser.getCurrentLocation();
            if (parser.parseKeyword(&keyword))
              return failure();
            std::optional<IterKind> kind = symbolizeIterKind(keyword);
            if (!kind)
              return parser.emitError(loc, "unknown iteration kind '")
                     << keyword << "' (expected spatial or reduce)";
            kinds.push_back(IterKindAttr::get(builder.getContext(), *kind));
            return success();
          }))
    return failure();
  result.addAttribute(getIterKindsAttrName(result.name),
                      builder.getArrayAttr(kinds));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, vars))
    return failure();
  BlockOp::ensureTerminator(*body, builder, result.location);
  return parser.parseOptionalAttrDict(result.attributes);
}

void BlockOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printString(getBlockName());
  p << " (";
  llvm::interleaveComma(
      llvm::zip(getIterVars(), getBindings()), p,
      [&](auto pair) { p << std::get<0>(pair) << " = " << std::get<1>(pair); });
  p << ") kinds [";
  llvm::interleaveComma(getIterKinds(), p, [&](Attribute kind) {
    p << stringifyIterKind(cast<IterKindAttr>(kind).getValue());
  });
  p << "] ";
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getBlockNameAttrName(), getIterKindsAttrName()});
}

LogicalResult InitOp::verify() {
  auto block = cast<BlockOp>((*this)->getParentOp());
  if (&block.getBody()->front() != getOperation())
    return emitOpError("must be the first op of its tir.block");
  if (!block.hasReduceVar())
    return emitOpError("is only allowed in a block with a reduce "
                       "iteration variable");
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Load and store address one element: one index per buffer dim.
static LogicalResult verifyAccess(Operation *op, BufferType type,
                                  ValueRange indices) {
  if (static_cast<int64_t>(indices.size()) != type.getRank())
    return op->emitOpError("expects ") << type.getRank() << " indices for "
                                       << type << ", got " << indices.size();
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, cast<BufferType>(getBuffer().getType()),
                      getIndices());
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, cast<BufferType>(getBuffer().getType()),
                      getIndices());
}

/// A vector access: the indices of one element, a 1-D vector of the
/// buffer's dtype, and an alignment that is a power of two.
static LogicalResult verifyVectorAccess(Operation *op, Value buffer,
                                        ValueRange indices,
                                        VectorType vectorType,
                                        std::optional<uint64_t> alignment) {
  auto type = cast<BufferType>(buffer.getType());
  if (failed(verifyAccess(op, type, indices)))
    return failure();
  if (vectorType.getElementType() != type.getDtype())
    return op->emitOpError("vector element type ")
           << vectorType.getElementType() << " is not the buffer dtype "
           << type.getDtype();
  if (alignment && !llvm::isPowerOf2_64(*alignment))
    return op->emitOpError("alignment must be a power of two, got ")
           << *alignment;
  return success();
}

LogicalResult VectorLoadOp::verify() {
  return verifyVectorAccess(*this, getBuffer(), getIndices(),
                            cast<VectorType>(getResult().getType()),
                            getAlignment());
}

LogicalResult VectorStoreOp::verify() {
  return verifyVectorAccess(*this, getBuffer(), getIndices(),
                            cast<VectorType>(getValue().getType()),
                            getAlignment());
}

LogicalResult MmaSyncOp::verify() {
  auto accType = cast<BufferType>(getAcc().getType());
  auto aType = cast<BufferType>(getA().getType());
  auto bType = cast<BufferType>(getB().getType());
  if (failed(verifyAccess(*this, accType, getAccIndices())) ||
      failed(verifyAccess(*this, aType, getAIndices())) ||
      failed(verifyAccess(*this, bType, getBIndices())))
    return failure();
  if (!accType.getDtype().isF32())
    return emitOpError("accumulates in f32, got ") << accType.getDtype();
  Type dtype = aType.getDtype();
  if (!dtype.isF16() && !dtype.isBF16())
    return emitOpError("multiplies f16 or bf16, got ") << dtype;
  if (bType.getDtype() != dtype)
    return emitOpError("operands a and b must have the same dtype, got ")
           << dtype << " and " << bType.getDtype();
  // A local `a` is the lane's A fragment (registers); b is always a tile.
  if (bType.getScope() == MemoryScope::local)
    return emitOpError("operand b must not be local: only a may be held in "
                       "registers");
  bool fragmentA = aType.getScope() == MemoryScope::local;
  if ((!fragmentA && aType.getRank() < 2) || bType.getRank() < 2)
    return emitOpError("operands a and b must be tiles of rank 2 or more");
  return success();
}

/// One tile of tir.wgmma: f16 / bf16 (`dtype`), a static shape whose last
/// four dims are [K / 8, R / 8, 8, 8] with at least `rows` rows and `depth`
/// k, and an index per dim but the last two (the corner core matrix).
static LogicalResult verifyWgmmaTile(WgmmaOp op, StringRef name,
                                     BufferType type, ValueRange indices,
                                     Type dtype, int64_t rows, int64_t depth) {
  if (type.getDtype() != dtype)
    return op.emitOpError("operands a and b must have the same dtype, got ")
           << dtype << " and " << type.getDtype();
  std::optional<SmallVector<int64_t>> shape = type.getShape().getStaticSizes();
  int64_t rank = type.getRank();
  if (!shape || rank < 4 || (*shape)[rank - 1] != 8 || (*shape)[rank - 2] != 8)
    return op.emitOpError("operand ")
           << name << " must be a static tile of 8 x 8 core matrices "
           << "([.., K / 8, R / 8, 8, 8]), got " << type;
  if (static_cast<int64_t>(indices.size()) != rank - 2)
    return op.emitOpError("expects ") << rank - 2 << " indices for operand "
                                      << name << ", got " << indices.size();
  if ((*shape)[rank - 3] * 8 < rows || (*shape)[rank - 4] * 8 < depth)
    return op.emitOpError("operand ")
           << name << " holds " << (*shape)[rank - 3] * 8 << " x "
           << (*shape)[rank - 4] * 8 << " elements, fewer than the " << rows
           << " x " << depth << " of the product";
  return success();
}

LogicalResult WgmmaOp::verify() {
  auto accType = cast<BufferType>(getAcc().getType());
  if (failed(verifyAccess(*this, accType, getAccIndices())))
    return failure();
  if (!accType.getDtype().isF32())
    return emitOpError("accumulates in f32, got ") << accType.getDtype();
  int64_t n = getN(), k = getK();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError("n must be a multiple of 8 in [8, 256], got ") << n;
  if (k <= 0 || k % 16 != 0)
    return emitOpError("k must be a positive multiple of 16, got ") << k;
  auto aType = cast<BufferType>(getA().getType());
  Type dtype = aType.getDtype();
  if (!dtype.isF16() && !dtype.isBF16())
    return emitOpError("multiplies f16 or bf16, got ") << dtype;
  return failure(
      failed(verifyWgmmaTile(*this, "a", aType, getAIndices(), dtype, 64, k)) ||
      failed(verifyWgmmaTile(*this, "b", cast<BufferType>(getB().getType()),
                             getBIndices(), dtype, n, k)));
}

LogicalResult CopyAsyncOp::verify() {
  auto dstType = cast<BufferType>(getDst().getType());
  auto srcType = cast<BufferType>(getSrc().getType());
  if (failed(verifyAccess(*this, dstType, getDstIndices())) ||
      failed(verifyAccess(*this, srcType, getSrcIndices())))
    return failure();
  if (dstType.getDtype() != srcType.getDtype())
    return emitOpError("copies between buffers of one dtype, got ")
           << srcType.getDtype() << " and " << dstType.getDtype();
  Type dtype = dstType.getDtype();
  int64_t lanes = getLanes();
  int64_t bits = dtype.isIntOrFloat() ? dtype.getIntOrFloatBitWidth() : 0;
  if (lanes <= 0 || !llvm::is_contained({32, 64, 128}, lanes * bits))
    return emitOpError("copies 4, 8 or 16 bytes, got ")
           << lanes << " x " << dtype;
  return success();
}

LogicalResult AllocOp::verify() {
  BufferType type = getType();
  for (const relax::sym::Expr &dim : type.getDims())
    if (!dim)
      return emitOpError("cannot allocate a buffer with an unknown dim");
  auto func = (*this)->getParentOfType<PrimFuncOp>();
  if (!func)
    return emitOpError("must be nested in a tir.prim_func");
  if (std::optional<std::string> var =
          findUnboundVar(type, func.getVarBindings()))
    return emitOpError("shape uses symbolic variable '")
           << *var << "' that the parameters of @" << func.getSymName()
           << " do not bind";
  return success();
}

//===----------------------------------------------------------------------===//
// TMA loads and mbarriers
//===----------------------------------------------------------------------===//

/// An mbarrier operand: one 64-bit word of a rank-1 i64 buffer.
static LogicalResult verifyMbarrier(Operation *op, Value barriers) {
  auto type = cast<BufferType>(barriers.getType());
  if (type.getRank() != 1 || !type.getDtype().isInteger(64))
    return op->emitOpError("mbarriers must be a rank-1 i64 buffer, got ")
           << type;
  return success();
}

LogicalResult MbarrierInitOp::verify() {
  if (getCount() < 1 || getCount() >= (int64_t(1) << 20))
    return emitOpError("arrival count must be in [1, 2^20), got ")
           << getCount();
  return verifyMbarrier(*this, getBarriers());
}

LogicalResult MbarrierArriveExpectTxOp::verify() {
  if (getBytes() < 1 || getBytes() >= (int64_t(1) << 20))
    return emitOpError("transaction bytes must be in [1, 2^20), got ")
           << getBytes();
  return verifyMbarrier(*this, getBarriers());
}

LogicalResult MbarrierWaitOp::verify() {
  return verifyMbarrier(*this, getBarriers());
}

SmallVector<int64_t> TmaLoadOp::getBox() {
  auto dstType = cast<BufferType>(getDst().getType());
  int64_t rank = cast<BufferType>(getSrc().getType()).getRank();
  SmallVector<int64_t> box;
  for (const relax::sym::Expr &dim : dstType.getDims().take_back(rank))
    box.push_back(dim ? dim.getConstant().value_or(0) : 0);
  return box;
}

int64_t TmaLoadOp::getBoxBytes() {
  int64_t bytes =
      cast<BufferType>(getDst().getType()).getDtype().getIntOrFloatBitWidth() /
      8;
  for (int64_t dim : getBox())
    bytes *= dim;
  return bytes;
}

LogicalResult TmaLoadOp::verify() {
  auto dstType = cast<BufferType>(getDst().getType());
  auto srcType = cast<BufferType>(getSrc().getType());
  int64_t rank = srcType.getRank();
  if (rank < 1 || rank > 5)
    return emitOpError("copies from a source of rank 1 to 5, got ") << rank;
  if (static_cast<int64_t>(getSrcIndices().size()) != rank)
    return emitOpError("expects ")
           << rank << " source indices (the box corner), got "
           << getSrcIndices().size();
  if (dstType.getRank() < rank)
    return emitOpError("destination of rank ")
           << dstType.getRank() << " cannot hold a box of rank " << rank;
  if (static_cast<int64_t>(getDstIndices().size()) != dstType.getRank() - rank)
    return emitOpError("expects ")
           << dstType.getRank() - rank
           << " destination indices (its dims before the box), got "
           << getDstIndices().size();
  if (srcType.getScope() != MemoryScope::global)
    return emitOpError("copies from a global buffer, got ") << srcType;
  Type dtype = srcType.getDtype();
  if (dtype != dstType.getDtype())
    return emitOpError("copies between buffers of one dtype, got ")
           << dtype << " and " << dstType.getDtype();
  if (!dtype.isF16() && !dtype.isBF16() && !dtype.isF32())
    return emitOpError("copies f16, bf16 or f32, got ") << dtype;
  SmallVector<int64_t> box = getBox();
  for (int64_t dim : box)
    if (dim < 1 || dim > 256)
      return emitOpError("box dims (the last ")
             << rank << " of the destination) must be constants in [1, 256], "
             << "got " << dstType;
  int64_t rowBytes = box.back() * dtype.getIntOrFloatBitWidth() / 8;
  if (rowBytes % 16 != 0)
    return emitOpError("the box's last dim must be a multiple of 16 bytes, "
                       "got ")
           << rowBytes;
  int64_t swizzle = getSwizzle();
  if (!llvm::is_contained({0, 32, 64, 128}, swizzle))
    return emitOpError("swizzle must be 0, 32, 64 or 128 bytes, got ")
           << swizzle;
  if (swizzle != 0 && rowBytes > swizzle)
    return emitOpError("the box's last dim (")
           << rowBytes << " bytes) exceeds the " << swizzle
           << "-byte swizzle span";
  return verifyMbarrier(*this, getBarriers());
}
