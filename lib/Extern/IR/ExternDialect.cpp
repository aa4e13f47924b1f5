//===- ExternDialect.cpp - extern dialect ---------------------------------===//
//
// extern.func declarations are typed with relax tensors so that the symbolic
// dims of a library signature are written once and checked at every call:
// relax.call_dps_packed at graph level, extern.call on memrefs.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Extern/IR/ExternDialect.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "RelaxDialect/Support/FunctionLike.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::ext;

#include "RelaxDialect/Extern/IR/ExternOpsDialect.cpp.inc"

#define GET_OP_CLASSES
#include "RelaxDialect/Extern/IR/ExternOps.cpp.inc"

void ExternDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "RelaxDialect/Extern/IR/ExternOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, StringRef linkName, int64_t numOutputs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addAttribute(getLinkNameAttrName(state.name),
                     builder.getStringAttr(linkName));
  state.addAttribute(getNumOutputsAttrName(state.name),
                     builder.getI64IntegerAttr(numOutputs));
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  return relax::parseFunctionLikeOp<FuncOp>(parser, result);
}

void FuncOp::print(OpAsmPrinter &p) { relax::printFunctionLikeOp(p, *this); }

LogicalResult FuncOp::verify() {
  if (!getBody().empty())
    return emitOpError("is a declaration and must not have a body");
  if (!getResultTypes().empty())
    return emitOpError("returns nothing: outputs are destination arguments");
  int64_t numOutputs = getNumOutputs();
  int64_t numParams = getArgumentTypes().size();
  if (numOutputs < 0 || numOutputs > numParams)
    return emitOpError("num_outputs = ")
           << numOutputs << " but the function has " << numParams
           << " parameters";
  if (getLinkName().empty())
    return emitOpError("link_name must not be empty");
  // Only what relax-lower-shapes can pass through the C interface: tensors
  // become memref descriptors, prims become scalars. Outputs are written in
  // place, so they must be tensors.
  int64_t numInputs = getNumInputs();
  for (auto [i, type] : llvm::enumerate(getArgumentTypes())) {
    bool isOutput = static_cast<int64_t>(i) >= numInputs;
    if (isa<relax::RelaxTensorType>(type))
      continue;
    if (!isOutput && isa<relax::PrimType>(type))
      continue;
    return emitOpError(isOutput ? "output" : "input")
           << " parameter #" << i << " must be a relax tensor"
           << (isOutput ? "" : " or a relax prim") << ", got " << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

namespace {
/// Checks the static sizes met at a call against the declaration's symbolic
/// dims: the first static size a bare variable meets binds it, and every dim
/// that evaluates under the bindings must equal the static size it meets.
class StaticShapeChecker {
public:
  explicit StaticShapeChecker(CallOp call) : call(call) {}

  void bind(relax::RelaxTensorType param, MemRefType memref, unsigned index) {
    for (auto [d, dim] : llvm::enumerate(param.getDims())) {
      if (!dim || !dim.isVar() || memref.isDynamicDim(d) ||
          env.count(dim.getVarName()))
        continue;
      env[dim.getVarName()] = memref.getDimSize(d);
      sites[dim.getVarName()] = {index, static_cast<int64_t>(d)};
    }
  }

  LogicalResult check(relax::RelaxTensorType param, MemRefType memref,
                      unsigned index) {
    for (auto [d, dim] : llvm::enumerate(param.getDims())) {
      if (!dim || memref.isDynamicDim(d))
        continue;
      std::optional<int64_t> expected = dim.evaluate(env);
      int64_t actual = memref.getDimSize(d);
      if (!expected || *expected == actual)
        continue;
      InFlightDiagnostic diag = call.emitOpError("operand #")
                                << index << " dim " << d << " is " << actual
                                << ", but the declaration says " << dim.str()
                                << " = " << *expected;
      if (dim.isVar()) {
        auto [site, siteDim] = sites.lookup(dim.getVarName());
        diag << " (from operand #" << site << " dim " << siteDim << ")";
      }
      return diag;
    }
    return success();
  }

private:
  CallOp call;
  llvm::StringMap<int64_t> env;
  llvm::StringMap<std::pair<unsigned, int64_t>> sites;
};
} // namespace

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("'")
           << getCallee() << "' does not reference an extern.func";
  int64_t numInputs = getInputs().size();
  int64_t numOutputs = getOutputs().size();
  if (numInputs != callee.getNumInputs() ||
      numOutputs != static_cast<int64_t>(callee.getNumOutputs()))
    return emitOpError("'")
           << getCallee() << "' takes " << callee.getNumInputs()
           << " inputs and " << static_cast<int64_t>(callee.getNumOutputs())
           << " outputs, but the call passes " << numInputs << " and "
           << numOutputs;

  SmallVector<Value> operands(getInputs());
  llvm::append_range(operands, getOutputs());
  ArrayRef<Type> params = callee.getArgumentTypes();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(operands, params))) {
    auto [operand, param] = pair;
    Type type = operand.getType();
    if (auto prim = dyn_cast<relax::PrimType>(param)) {
      if (type != prim.getType())
        return emitOpError("operand #") << i << " must be " << prim.getType()
                                        << " for " << param << ", got " << type;
      continue;
    }
    auto tensor = cast<relax::RelaxTensorType>(param);
    auto memref = dyn_cast<BaseMemRefType>(type);
    if (!memref)
      return emitOpError("operand #")
             << i << " must be a memref for " << param << ", got " << type;
    if (memref.getElementType() != tensor.getDtype())
      return emitOpError("operand #")
             << i << " has element type " << memref.getElementType()
             << ", but the declaration's parameter is " << param;
    if (tensor.hasRank() &&
        (!memref.hasRank() || memref.getRank() != tensor.getRank()))
      return emitOpError("operand #")
             << i << " of type " << type << " must have rank "
             << tensor.getRank() << " for " << param;
  }

  StaticShapeChecker checker(*this);
  auto forEachRanked = [&](auto fn) -> LogicalResult {
    for (auto [i, pair] : llvm::enumerate(llvm::zip(operands, params))) {
      auto [operand, param] = pair;
      auto tensor = dyn_cast<relax::RelaxTensorType>(param);
      auto memref = dyn_cast<MemRefType>(operand.getType());
      if (tensor && tensor.hasRank() && memref &&
          failed(fn(tensor, memref, static_cast<unsigned>(i))))
        return failure();
    }
    return success();
  };
  // Bind everything first so that `[n + 1]` before `[n]` is still checked.
  (void)forEachRanked([&](relax::RelaxTensorType t, MemRefType m, unsigned i) {
    checker.bind(t, m, i);
    return success();
  });
  return forEachRanked([&](relax::RelaxTensorType t, MemRefType m, unsigned i) {
    return checker.check(t, m, i);
  });
}

void CallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getInputsMutable())
    if (isa<BaseMemRefType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  for (OpOperand &operand : getOutputsMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &operand,
                         SideEffects::DefaultResource::get());
}
