//===- RelaxOps.cpp - relax structural operations -------------------------===//
//
// Functions, dataflow regions, calls, match_cast, shapes, constants and
// tuples. The high-level tensor ops' inference lives in the files named after
// their category; this file also instantiates every generated op class.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Relax/IR/CallTIRBinding.h"
#include "RelaxDialect/Relax/IR/ConvPrivateLayout.h"
#include "RelaxDialect/Relax/IR/StorageRoot.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "RelaxDialect/Support/FunctionLike.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relax;

#define GET_OP_CLASSES
#include "RelaxDialect/Relax/IR/RelaxOps.cpp.inc"

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name),
                     TypeAttr::get(type));
  state.addRegion();
}

Block *FuncOp::addEntryBlock() {
  Block *block = new Block();
  getBody().push_back(block);
  for (Type type : getArgumentTypes())
    block->addArgument(type, getLoc());
  return block;
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  return relax::parseFunctionLikeOp<FuncOp>(parser, result);
}

void FuncOp::print(OpAsmPrinter &p) { relax::printFunctionLikeOp(p, *this); }

sym::Context FuncOp::getSymContext() {
  sym::Context context;
  if (std::optional<DictionaryAttr> bounds = getSymBounds()) {
    for (NamedAttribute entry : *bounds) {
      auto range = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
      if (!range || range.size() != 2)
        continue; // Rejected by the verifier.
      context.setBounds(entry.getName().getValue(), range[0], range[1]);
    }
  }
  return context;
}

LogicalResult FuncOp::verify() {
  if (std::optional<DictionaryAttr> bounds = getSymBounds()) {
    for (NamedAttribute entry : *bounds) {
      auto range = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
      if (!range || range.size() != 2)
        return emitOpError("sym_bounds entry '")
               << entry.getName().getValue()
               << "' must be array<i64: lo, hi>";
      if (range[0] > range[1])
        return emitOpError("sym_bounds entry '")
               << entry.getName().getValue() << "' has empty range ["
               << range[0] << ", " << range[1] << "]";
    }
  }
  for (Type type : getArgumentTypes())
    if (!isa<RelaxTensorType, RelaxShapeType, ObjectType, PrimType,
             TupleType>(type))
      return emitOpError("parameter type ")
             << type << " is not a relax type";
  return success();
}

LogicalResult FuncOp::verifyRegions() {
  if (getBody().empty())
    return emitOpError("must have a body");
  // FunctionOpInterface's verifier has already matched the entry block's
  // arguments with the parameter types.
  if (failed(verifyWellFormed(*this)))
    return failure();
  return verifyConvPrivateLayouts(*this);
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto func = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> results = func.getResultTypes();
  if (getNumOperands() != results.size())
    return emitOpError("returns ")
           << getNumOperands() << " values but the function declares "
           << results.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getOperandTypes(), results))) {
    auto [actual, declared] = pair;
    if (!isCompatibleType(actual, declared))
      return emitOpError("result #")
             << i << " has type " << actual
             << " but the function declares " << declared;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("'")
           << getCallee() << "' does not reference a relax.func";
  FunctionType type = callee.getFunctionType();
  if (type.getNumInputs() != getNumOperands())
    return emitOpError("callee takes ")
           << type.getNumInputs() << " arguments, got " << getNumOperands();
  if (type.getNumResults() != getNumResults())
    return emitOpError("callee returns ")
           << type.getNumResults() << " values, got " << getNumResults();
  return verifyInPlaceStorage(*this, symbolTable);
}

//===----------------------------------------------------------------------===//
// DataflowOp
//===----------------------------------------------------------------------===//

LogicalResult DataflowOp::verify() {
  auto output = cast<OutputOp>(getBody().front().getTerminator());
  if (output.getNumOperands() != getNumResults())
    return emitOpError("yields ")
           << output.getNumOperands() << " values but has " << getNumResults()
           << " results";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(output.getOperandTypes(), getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("output #")
             << i << " has type " << std::get<0>(pair) << " but result is "
             << std::get<1>(pair);
  for (Operation &op : getBody().front())
    // Run-time checks (match_cast, assert_*) may fail but change no value:
    // they belong where the values they check are computed. An in-place
    // call changes only values nothing reads again (its verifier). The
    // control flow ops (relax.if, relax.while) hold such checks at most.
    if (!isa<OutputOp, MatchCastOp, TensorToShapeOp, AssertDimsOp,
             AssertIndicesOp, CallTIRInplaceOp, ViewOp, IfOp, WhileOp>(op) &&
        !isMemoryEffectFree(&op))
      return op.emitOpError("has side effects and cannot appear in a "
                            "relax.dataflow region");
  return success();
}

//===----------------------------------------------------------------------===//
// TensorToShapeOp
//===----------------------------------------------------------------------===//

LogicalResult TensorToShapeOp::verify() {
  auto input = cast<RelaxTensorType>(getInput().getType());
  if (!isa<IntegerType>(input.getDtype()) || input.getDtype().isInteger(1))
    return emitOpError("input must be an integer tensor, got ")
           << input.getDtype();
  std::optional<int64_t> length;
  if (input.hasRank() && input.getRank() == 1 && input.getDims()[0])
    length = input.getDims()[0].getConstant();
  if (!length)
    return emitOpError("input must be a 1-D tensor of static length, got ")
           << input;
  const SymShape &shape = cast<RelaxShapeType>(getResult().getType()).getShape();
  if (!shape.hasRank() || shape.getRank() != *length)
    return emitOpError("result must be a shape of rank ")
           << *length << " (the input's length), got "
           << getResult().getType();
  sym::Context ctx = symContextAt(*this);
  for (auto [i, dim] : llvm::enumerate(shape.getDims()))
    if (dim && ctx.isLT(dim, sym::Expr::constant(0)) == sym::Truth::True)
      return emitOpError("dim ") << i << " is negative: " << dim.str();
  return success();
}

//===----------------------------------------------------------------------===//
// MatchCastOp
//===----------------------------------------------------------------------===//

/// A cast can only succeed between values of the same kind (tensor to tensor
/// of the same dtype, shape to shape) or out of an opaque object.
static bool isCastable(Type from, Type to) {
  if (isa<ObjectType>(from) || isa<ObjectType>(to))
    return true;
  if (auto a = dyn_cast<RelaxTensorType>(from)) {
    auto b = dyn_cast<RelaxTensorType>(to);
    if (!b || a.getDtype() != b.getDtype())
      return false;
    return !a.hasRank() || !b.hasRank() || a.getRank() == b.getRank();
  }
  if (auto a = dyn_cast<RelaxShapeType>(from)) {
    auto b = dyn_cast<RelaxShapeType>(to);
    return b && (!a.getShape().hasRank() || !b.getShape().hasRank() ||
                 a.getShape().getRank() == b.getShape().getRank());
  }
  return from == to;
}

LogicalResult MatchCastOp::verify() {
  if (!isCastable(getValue().getType(), getResult().getType()))
    return emitOpError("cannot cast ")
           << getValue().getType() << " to " << getResult().getType()
           << ": kind, dtype or rank differ";
  // Dims known on both sides that are provably different make the cast fail
  // on every input.
  auto from = dyn_cast<RelaxTensorType>(getValue().getType());
  auto to = dyn_cast<RelaxTensorType>(getResult().getType());
  if (from && to && from.hasRank() && to.hasRank()) {
    sym::Context ctx = symContextAt(*this);
    for (auto [i, pair] : llvm::enumerate(
             llvm::zip(from.getDims(), to.getDims()))) {
      auto [a, b] = pair;
      if (a && b && ctx.provablyNotEqual(a, b))
        return emitOpError("dim ")
               << i << " can never match: " << a.str() << " vs " << b.str();
    }
  }
  return success();
}

OpFoldResult MatchCastOp::fold(FoldAdaptor) {
  // A cast to the identical type checks nothing and binds nothing.
  if (getValue().getType() == getResult().getType())
    return getValue();
  return {};
}

namespace {
/// An unused match_cast whose check provably holds and which binds nothing:
/// same kind, dtype and rank, and every target dim `?` or provably equal to
/// the source dim (so a target variable is already bound by the source
/// type). Anything weaker keeps the op: its check is the program's contract.
struct EraseProvenMatchCast : public OpRewritePattern<MatchCastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatchCastOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getResult().use_empty())
      return failure();
    auto from = dyn_cast<RelaxTensorType>(op.getValue().getType());
    auto to = dyn_cast<RelaxTensorType>(op.getResult().getType());
    if (!from || !to || from.getDtype() != to.getDtype())
      return failure();
    if (to.hasRank()) {
      if (!from.hasRank() || from.getRank() != to.getRank())
        return failure();
      sym::Context ctx = symContextAt(op);
      for (auto [a, b] : llvm::zip(from.getDims(), to.getDims()))
        if (b && !(a && (a == b || ctx.provablyEqual(a, b))))
          return failure();
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void MatchCastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<EraseProvenMatchCast>(context);
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

LogicalResult ViewOp::verify() {
  auto input = cast<RelaxTensorType>(getInput().getType());
  auto result = cast<RelaxTensorType>(getResult().getType());
  if (input.getDtype() != result.getDtype())
    return emitOpError("result dtype ")
           << result.getDtype() << " differs from the input's "
           << input.getDtype();
  if (!result.getShape().isFullyKnown())
    return emitOpError("result shape must be fully known, got ") << result;
  if (!input.getShape().isFullyKnown())
    return success();
  sym::Expr viewed = result.getShape().getNumElements();
  sym::Expr available = input.getShape().getNumElements();
  if (symContextAt(*this).isLE(viewed, available) == sym::Truth::False)
    return emitOpError("views ")
           << viewed.str() << " elements of a tensor of " << available.str();
  return success();
}

OpFoldResult ViewOp::fold(FoldAdaptor) {
  // A view of the whole tensor under its own shape is the tensor.
  if (getInput().getType() == getResult().getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// AssertDimsOp
//===----------------------------------------------------------------------===//

LogicalResult AssertDimsOp::verify() {
  StringRef p = getPredicate();
  if (p != "eq" && p != "le" && p != "broadcast")
    return emitOpError("predicate must be eq, le or broadcast, got '")
           << p << "'";
  return success();
}

// Index tuples (a shape of extents) need the indices' last dim to be the
// tuple length, so that the lowering can check each position against its
// own extent.
LogicalResult AssertIndicesOp::verify() {
  auto indices = dyn_cast<RelaxTensorType>(getIndices().getType());
  auto dtype = indices ? dyn_cast<IntegerType>(indices.getDtype()) : nullptr;
  if (!dtype || dtype.getWidth() == 1)
    return emitOpError("indices must have an integer dtype");
  auto tuple = dyn_cast<ShapeExprAttr>(getExtent());
  if (!tuple)
    return success();
  const SymShape &extents = tuple.getShape();
  if (!extents.hasRank() ||
      llvm::any_of(extents.getDims(), [](const sym::Expr &e) { return !e; }))
    return emitOpError("extents must be known expressions");
  if (!indices.hasRank() || indices.getRank() == 0 ||
      indices.getDims().back().getConstant() != extents.getRank())
    return emitOpError("index tuples of ")
           << extents.getRank()
           << " extents need indices whose last dim is " << extents.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// ShapeOfOp / ShapeExprOp
//===----------------------------------------------------------------------===//

LogicalResult ShapeOfOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &results) {
  auto type = cast<RelaxTensorType>(operands[0].getType());
  results.push_back(RelaxShapeType::get(context, type.getShape()));
  return success();
}

namespace {
/// shape_of(x) where x's shape is fully known is that shape: the value is a
/// function of the type alone (the type's variables are bound already).
struct FoldKnownShapeOf : public OpRewritePattern<ShapeOfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ShapeOfOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RelaxTensorType>(op.getInput().getType());
    if (!type.getShape().isFullyKnown())
      return failure();
    rewriter.replaceOpWithNewOp<ShapeExprOp>(
        op, ShapeExprAttr::get(op.getContext(), type.getShape()));
    return success();
  }
};
} // namespace

void ShapeOfOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<FoldKnownShapeOf>(context);
}

LogicalResult ShapeExprOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location>, ValueRange,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange,
    SmallVectorImpl<Type> &results) {
  ShapeExprOp::Adaptor adaptor(ValueRange(), attributes, properties);
  results.push_back(
      RelaxShapeType::get(context, adaptor.getValue().getShape()));
  return success();
}

OpFoldResult ShapeExprOp::fold(FoldAdaptor) { return getValueAttr(); }

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, ValueRange,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange,
    SmallVectorImpl<Type> &results) {
  ConstantOp::Adaptor adaptor(ValueRange(), attributes, properties);
  auto shaped = dyn_cast<ShapedType>(adaptor.getValue().getType());
  if (!shaped || !shaped.hasStaticShape())
    return inferFailure(loc, getOperationName(),
                        "value must have a static shape");
  results.push_back(RelaxTensorType::get(
      SymShape::fromStatic(shaped.getShape()), shaped.getElementType()));
  return success();
}

LogicalResult ConstantOp::verify() {
  if (!isValidDtype(getValue().getElementType()))
    return emitOpError("unsupported element type ")
           << getValue().getElementType();
  // A resource blob must hold exactly the tensor's bytes: its size is not
  // checked against the type when it is parsed, and the LLVM translation of
  // a mismatched one divides by zero or reads past the blob.
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitOpError("dense_resource '")
             << resource.getRawHandle().getKey() << "' has no data";
    auto type = cast<ShapedType>(resource.getType());
    int64_t elementBytes = (type.getElementTypeBitWidth() + 7) / 8;
    int64_t expected = type.getNumElements() * elementBytes;
    int64_t actual = static_cast<int64_t>(blob->getData().size());
    if (actual != expected)
      return emitOpError("dense_resource '")
             << resource.getRawHandle().getKey() << "' holds " << actual
             << " bytes, its type " << type << " needs " << expected;
  }
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location>,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &results) {
  results.push_back(TupleType::get(context, operands.getTypes()));
  return success();
}

LogicalResult TupleGetItemOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange,
    SmallVectorImpl<Type> &results) {
  TupleGetItemOp::Adaptor adaptor(operands, attributes, properties);
  auto tuple = cast<TupleType>(operands[0].getType());
  int64_t index = adaptor.getIndex();
  if (index < 0 || index >= static_cast<int64_t>(tuple.size()))
    return inferFailure(loc, getOperationName(),
                        "index " + Twine(index) + " out of range for a tuple "
                        "of " + Twine(tuple.size()) + " fields");
  results.push_back(tuple.getType(index));
  return success();
}

LogicalResult TupleGetItemOp::verify() { return success(); }

OpFoldResult TupleGetItemOp::fold(FoldAdaptor) {
  // tuple_get_item(tuple(a, b), 1) -> b
  if (auto tuple = getTuple().getDefiningOp<TupleOp>())
    return tuple.getFields()[getIndex()];
  return {};
}

//===----------------------------------------------------------------------===//
// CallTIROp / CallDPSPackedOp
//===----------------------------------------------------------------------===//

/// Both DPS calls take inputs then one output per result; the callee must be
/// a function-like symbol with that many parameters (plus, for call_tir, the
/// scalar tir_vars).
static LogicalResult verifyDPSCallee(Operation *op, FlatSymbolRefAttr callee,
                                     unsigned numInputs, unsigned numResults,
                                     unsigned numExtra,
                                     SymbolTableCollection &symbolTable,
                                     ArrayRef<StringRef> expectedKinds) {
  Operation *target = symbolTable.lookupNearestSymbolFrom(op, callee);
  if (!target)
    return op->emitOpError("'") << callee.getValue()
                                << "' does not reference a symbol";
  if (!llvm::is_contained(expectedKinds, target->getName().getStringRef()))
    return op->emitOpError("'")
           << callee.getValue() << "' must reference a "
           << llvm::join(expectedKinds, " or ") << ", got "
           << target->getName();
  // Every kind the callers expect (extern.func, tir.prim_func, func.func)
  // is a function.
  auto fn = cast<FunctionOpInterface>(target);
  unsigned expected = numInputs + numResults + numExtra;
  if (fn.getNumArguments() != expected)
    return op->emitOpError("callee '")
           << callee.getValue() << "' takes " << fn.getNumArguments()
           << " parameters, but the call passes " << numInputs
           << " inputs, " << numResults << " outputs and " << numExtra
           << " symbolic values";
  return success();
}

LogicalResult
CallDPSPackedOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyDPSCallee(*this, getCalleeAttr(), getInputs().size(),
                         getNumResults(), 0, symbolTable, {"extern.func"});
}

/// The binding of bindCallTIRVars for any call of a prim_func whose buffer
/// parameters receive `callerTypes` and whose index parameters the
/// `tirVars`.
static LogicalResult bindTIRCallVars(Operation *call, StringRef calleeName,
                                     ArrayRef<Type> callerTypes,
                                     std::optional<ShapeExprAttr> tirVarsAttr,
                                     tir::PrimFuncOp callee,
                                     llvm::StringMap<sym::Expr> &binding,
                                     bool emitErrors) {
  auto fail = [&]() -> InFlightDiagnostic {
    return emitErrors ? call->emitOpError() : InFlightDiagnostic();
  };
  std::optional<SymShape> tirVars;
  if (tirVarsAttr)
    tirVars = tirVarsAttr->getShape();
  unsigned numExtra = tirVars ? tirVars->getRank() : 0;
  ArrayRef<Type> params = callee.getArgumentTypes();
  if (params.size() != callerTypes.size() + numExtra)
    return fail() << "callee takes " << params.size() << " parameters";

  for (unsigned j = 0; j < numExtra; ++j) {
    unsigned index = callerTypes.size() + j;
    if (!isa<IndexType>(params[index]))
      return fail() << "callee parameter #" << index
                    << " receives a tir_vars value and must be index";
    if (auto name = callee.getArgAttrOfType<StringAttr>(index, "tir.var"))
      binding[name.getValue()] = tirVars->getDim(j);
  }
  for (auto [i, pair] : llvm::enumerate(llvm::zip(callerTypes, params))) {
    auto [callerType, paramType] = pair;
    auto tensor = dyn_cast<RelaxTensorType>(callerType);
    auto buffer = dyn_cast<tir::BufferType>(paramType);
    if (!tensor || !buffer)
      return fail() << "argument #" << i
                    << ": call_tir passes relax tensors to tir buffers, got "
                    << callerType << " for " << paramType;
    if (tensor.getDtype() != buffer.getDtype())
      return fail() << "argument #" << i << " has dtype " << tensor.getDtype()
                    << " but the callee buffer has " << buffer.getDtype();
    if (!tensor.hasRank())
      continue;
    if (tensor.getRank() != buffer.getRank())
      return fail() << "argument #" << i << " has rank " << tensor.getRank()
                    << " but the callee buffer has rank " << buffer.getRank();
    for (auto [d, dims] :
         llvm::enumerate(llvm::zip(tensor.getDims(), buffer.getDims()))) {
      auto [actual, formal] = dims;
      if (formal.isVar() && !binding.count(formal.getVarName())) {
        binding[formal.getVarName()] = actual;
        continue;
      }
      sym::Expr expected = formal.substitute(binding);
      if (actual && expected &&
          defaultSymContext().provablyNotEqual(actual, expected))
        return fail() << "argument #" << i << " dim " << d << " is "
                      << actual.str() << " but the callee '" << calleeName
                      << "' expects " << expected.str();
    }
  }
  return success();
}

LogicalResult relax::bindCallTIRVars(CallTIROp call, tir::PrimFuncOp callee,
                                     llvm::StringMap<sym::Expr> &binding,
                                     bool emitErrors) {
  SmallVector<Type> callerTypes(call.getInputs().getTypes());
  llvm::append_range(callerTypes, call.getResultTypes());
  return bindTIRCallVars(call, call.getCallee(), callerTypes,
                         call.getTirVars(), callee, binding, emitErrors);
}

LogicalResult relax::bindCallTIRVars(CallTIRInplaceOp call,
                                     tir::PrimFuncOp callee,
                                     llvm::StringMap<sym::Expr> &binding,
                                     bool emitErrors) {
  return bindTIRCallVars(call, call.getCallee(), call.getCalleeBufferTypes(),
                         call.getTirVars(), callee, binding, emitErrors);
}

//===----------------------------------------------------------------------===//
// CallTIRInplaceOp
//===----------------------------------------------------------------------===//

Value CallTIRInplaceOp::getAliasedInput(unsigned i) {
  int64_t index = getInplaceIndices()[i];
  return index < 0 ? Value() : getInputs()[index];
}

SmallVector<Type> CallTIRInplaceOp::getCalleeBufferTypes() {
  SmallVector<Type> types(getInputs().getTypes());
  for (auto [index, type] : llvm::zip(getInplaceIndices(), getResultTypes()))
    if (index < 0)
      types.push_back(type);
  return types;
}

LogicalResult CallTIRInplaceOp::verify() {
  ArrayRef<int64_t> indices = getInplaceIndices();
  if (indices.size() != getNumResults())
    return emitOpError("has ")
           << indices.size() << " inplace_indices for " << getNumResults()
           << " results";
  llvm::SmallDenseSet<int64_t> seen;
  bool any = false;
  for (auto [i, index] : llvm::enumerate(indices)) {
    if (index == -1)
      continue;
    if (index < -1 || index >= static_cast<int64_t>(getInputs().size()))
      return emitOpError("inplace_indices[")
             << i << "] = " << index << " is not -1 or an input index in [0, "
             << getInputs().size() << ")";
    if (!seen.insert(index).second)
      return emitOpError("input #")
             << index << " is updated in place by more than one result";
    any = true;
    Value input = getInputs()[index];
    if (!isa<RelaxTensorType>(input.getType()))
      return emitOpError("input #")
             << index << " updated in place must be a tensor, got "
             << input.getType();
    if (input.getType() != getResult(i).getType())
      return emitOpError("result #")
             << i << " has type " << getResult(i).getType()
             << " but updates input #" << index << " of type "
             << input.getType() << " in place (the types must be equal)";
  }
  if (!any)
    return emitOpError("updates no input in place: use relax.call_tir");
  for (auto [i, index] : llvm::enumerate(indices))
    if (index < 0 && !isa<RelaxTensorType>(getResult(i).getType()))
      return emitOpError("fresh result #") << i << " must be a tensor";
  return success();
}

/// The callee of call_tir / call_tir_inplace: `numOutputs` buffers it
/// writes (fresh ones only, for the in-place form) after the inputs, then
/// the tir_vars; a tir.prim_func callee must also bind the symbolic dims.
/// A func.func callee is a program already lowered to loops over memrefs
/// (convert-tir-to-scf runs before the host lowering); its shapes are
/// checked when the call is lowered.
template <typename CallOpTy>
static LogicalResult verifyTIRCallee(CallOpTy call, unsigned numOutputs,
                                     SymbolTableCollection &symbolTable) {
  unsigned numExtra =
      call.getTirVars() ? call.getTirVars()->getShape().getRank() : 0;
  if (failed(verifyDPSCallee(call, call.getCalleeAttr(),
                             call.getInputs().size(), numOutputs, numExtra,
                             symbolTable, {"tir.prim_func", "func.func"})))
    return failure();
  auto callee = symbolTable.lookupNearestSymbolFrom<tir::PrimFuncOp>(
      call, call.getCalleeAttr());
  if (!callee)
    return success();
  llvm::StringMap<sym::Expr> binding;
  return bindCallTIRVars(call, callee, binding);
}

/// The storage checks follow relax.call into callees, so they run here,
/// once every op has been verified on its own.
LogicalResult
CallTIRInplaceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (failed(verifyTIRCallee(*this, llvm::count(getInplaceIndices(), -1),
                             symbolTable)))
    return failure();
  return verifyInPlaceStorage(*this, symbolTable);
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verify() {
  auto cond = cast<RelaxTensorType>(getCond().getType());
  if (!cond.hasRank() || cond.getRank() != 0 || !cond.getDtype().isInteger(1))
    return emitOpError("condition must be a bool (i1) tensor of rank 0, got ")
           << cond;
  sym::Context ctx = symContextAt(*this);
  for (auto [name, block] :
       {std::make_pair("then", thenBlock()), std::make_pair("else",
                                                            elseBlock())}) {
    auto yield = cast<YieldOp>(block->getTerminator());
    if (yield.getNumOperands() != getNumResults())
      return yield.emitOpError("yields ")
             << yield.getNumOperands() << " values but the relax.if has "
             << getNumResults() << " results";
    for (auto [i, pair] : llvm::enumerate(
             llvm::zip(yield.getOperandTypes(), getResultTypes()))) {
      auto [actual, declared] = pair;
      if (std::optional<std::string> why =
              explainNotHeldBy(actual, declared, ctx))
        return yield.emitOpError("value #")
               << i << " of the " << name << " branch, of type " << actual
               << ", does not fit result type " << declared << ": " << *why;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

/// Whether `type` is an i1 tensor of rank 0 (a loop or if condition).
static bool isScalarBool(Type type) {
  auto t = dyn_cast<RelaxTensorType>(type);
  return t && t.hasRank() && t.getRank() == 0 && t.getDtype().isInteger(1);
}

/// `type` with every dim that is a bare variable made `?`: what a value
/// yielded to a carried type must fit, since the carried type's variables are
/// bound afresh at each iteration.
static Type forgetBareVars(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Type> fields;
    for (Type f : tuple.getTypes())
      fields.push_back(forgetBareVars(f));
    return TupleType::get(type.getContext(), fields);
  }
  auto tensor = dyn_cast<RelaxTensorType>(type);
  if (!tensor || !tensor.hasRank())
    return type;
  SmallVector<sym::Expr> dims(tensor.getDims());
  for (sym::Expr &d : dims)
    if (d && d.isVar())
      d = sym::Expr();
  return RelaxTensorType::get(SymShape(dims), tensor.getDtype());
}

LogicalResult WhileOp::verify() {
  if (!isScalarBool(getCond().getType()))
    return emitOpError("condition must be a bool (i1) tensor of rank 0, got ")
           << getCond().getType();
  if (getInits().size() != getNumResults())
    return emitOpError("has ") << getInits().size() << " initial values but "
                               << getNumResults() << " results";
  Block *body = bodyBlock();
  if (body->getNumArguments() != getNumResults())
    return emitOpError("body has ")
           << body->getNumArguments() << " arguments but the loop carries "
           << getNumResults() << " values";
  sym::Context ctx = symContextAt(*this);
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getInits().getTypes(),
                                 body->getArgumentTypes(), getResultTypes()))) {
    auto [init, arg, result] = pair;
    if (arg != result)
      return emitOpError("body argument #")
             << i << " has type " << arg << " but result #" << i << " has type "
             << result << " (the carried types must be the same)";
    if (std::optional<std::string> why = explainNotHeldBy(init, result, ctx))
      return emitOpError("initial value #")
             << i << ", of type " << init << ", does not fit carried type "
             << result << ": " << *why;
  }
  auto yield = dyn_cast<LoopYieldOp>(body->getTerminator());
  if (!yield)
    return emitOpError("body must end with relax.loop_yield");
  if (!isScalarBool(yield.getCond().getType()))
    return yield.emitOpError(
               "condition must be a bool (i1) tensor of rank 0, got ")
           << yield.getCond().getType();
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError("yields ")
           << yield.getValues().size() << " values but the relax.while carries "
           << getNumResults();
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip(yield.getValues().getTypes(), getResultTypes()))) {
    auto [actual, declared] = pair;
    if (std::optional<std::string> why =
            explainNotHeldBy(actual, forgetBareVars(declared), ctx))
      return yield.emitOpError("value #")
             << i << ", of type " << actual << ", does not fit carried type "
             << declared << ": " << *why;
  }
  return success();
}

LogicalResult CallTIROp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyTIRCallee(*this, getNumResults(), symbolTable);
}
