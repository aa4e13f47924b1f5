//===- ExternalizeParams.cpp - --relax-externalize-params -----------------===//
//
// Large constants cost compile time in proportion to their bytes: LLVM
// builds a ConstantDataArray of each, optimises around it and writes it to
// .rodata. Moved out of the module they cost nothing to compile; the loader
// copies them into the (uninitialized, hence .bss) globals once.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/Runtime/ParamFileWriter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXEXTERNALIZEPARAMS
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// The page size of the targets that load compiled libraries (x86-64 and
/// most AArch64 systems): the alignment of parameters of at least a page.
static constexpr uint64_t kParamPageAlignment = 4096;

/// The safetensors name of `type`, or "" when it has none (or when its
/// attribute storage is not one byte-aligned element after another: i1).
static StringRef safetensorsDType(Type type) {
  if (type.isF16())
    return "F16";
  if (type.isBF16())
    return "BF16";
  if (type.isF32())
    return "F32";
  if (type.isF64())
    return "F64";
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return "";
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 8:
    return isUnsigned ? "U8" : "I8";
  case 16:
    return isUnsigned ? "U16" : "I16";
  case 32:
    return isUnsigned ? "U32" : "I32";
  case 64:
    return isUnsigned ? "U64" : "I64";
  default:
    return "";
  }
}

/// Fills `param`'s bytes from `value`; false when the attribute keeps its
/// data in a form this pass cannot read (it then stays in the module).
static bool readBytes(ElementsAttr value, int64_t numBytes,
                      ExternalizedParam &param) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || static_cast<int64_t>(blob->getData().size()) != numBytes)
      return false;
    param.view = blob->getData();
    return true;
  }
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value);
  if (!dense)
    return false;
  ArrayRef<char> raw = dense.getRawData();
  if (!dense.isSplat()) {
    if (static_cast<int64_t>(raw.size()) != numBytes)
      return false;
    param.view = raw;
    return true;
  }
  // A splat stores one element: expand it.
  int64_t elemBytes = numBytes / dense.getNumElements();
  if (static_cast<int64_t>(raw.size()) != elemBytes)
    return false;
  param.owned.resize(numBytes);
  for (int64_t offset = 0; offset < numBytes; offset += elemBytes)
    std::copy(raw.begin(), raw.end(), param.owned.begin() + offset);
  return true;
}

FailureOr<SmallVector<ExternalizedParam>>
relax::externalizeParams(ModuleOp module, uint64_t minBytes) {
  SymbolTable symbols(module);
  SmallVector<ExternalizedParam> params;
  MLIRContext *context = module.getContext();
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>())) {
    ElementsAttr value = global.getConstantInitValue();
    MemRefType type = global.getType();
    if (!global.getConstant() || !value || !type.hasStaticShape())
      continue;
    StringRef dtype = safetensorsDType(type.getElementType());
    if (dtype.empty())
      continue;
    int64_t numBytes =
        type.getNumElements() * type.getElementTypeBitWidth() / 8;
    if (static_cast<uint64_t>(numBytes) < minBytes)
      continue;
    ExternalizedParam param;
    if (!readBytes(value, numBytes, param))
      continue;
    param.dtype = dtype.str();
    param.shape.assign(type.getShape().begin(), type.getShape().end());
    std::string name = "__relax_param_" + std::to_string(params.size());
    if (symbols.lookup(name))
      return global.emitOpError("cannot rename to '")
             << name << "': the symbol exists";
    if (failed(symbols.rename(global, StringAttr::get(context, name))))
      return global.emitOpError("cannot rename to '") << name << "'";
    param.symbol = name;
    // Public, so the loader (dlsym, or the JIT's lookup) finds it; not
    // constant, since the loader writes it.
    global.setPublic();
    global.setConstant(false);
    global.setInitialValueAttr(UnitAttr::get(context));
    // A parameter of a page or more starts on a page of its own, so the
    // library loader can make its whole pages read-only once it is filled.
    if (static_cast<uint64_t>(numBytes) >= kParamPageAlignment &&
        global.getAlignment().value_or(0) < kParamPageAlignment)
      global.setAlignment(kParamPageAlignment);
    params.push_back(std::move(param));
  }
  return params;
}

namespace {
struct RelaxExternalizeParamsPass
    : public relax::impl::RelaxExternalizeParamsBase<
          RelaxExternalizeParamsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (file.empty()) {
      mlir::emitError(module.getLoc(), "--relax-externalize-params needs "
                                       "file=<path> to write the parameters "
                                       "to");
      return signalPassFailure();
    }
    FailureOr<SmallVector<ExternalizedParam>> params =
        externalizeParams(module, minBytes);
    if (failed(params))
      return signalPassFailure();
    SmallVector<rt::ParamToWrite> entries;
    for (const ExternalizedParam &p : *params)
      entries.push_back({p.symbol, p.dtype,
                         std::vector<int64_t>(p.shape.begin(), p.shape.end()),
                         p.bytes()});
    llvm::StringMap<std::string> metadata;
    metadata["format"] = "relax-mlir parameters";
    if (llvm::Error err = rt::writeParamFile(file, entries, metadata)) {
      mlir::emitError(module.getLoc(), llvm::toString(std::move(err)));
      return signalPassFailure();
    }
  }
};
} // namespace
