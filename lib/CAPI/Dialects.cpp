//===- Dialects.cpp - C API of the relax, tir and extern dialects ---------===//
//
// Thin wrappers over the C++ API (RelaxDialect-c/Dialects.h). They check
// what a C caller can get wrong (a dim that does not parse, a position out
// of range, a type that is no relax tensor) and answer with a null type or
// a neutral value rather than an assertion, since C has no other channel.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect-c/Dialects.h"

#include "RelaxDialect/Extern/IR/ExternDialect.h"
#include "RelaxDialect/InitAll.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

using namespace mlir;
namespace sym = mlir::relax::sym;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Relax, relax, relax::RelaxDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TIR, tir, tir::TIRDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Extern, extern, ext::ExternDialect)

void mlirRelaxRegisterDialects(MlirDialectRegistry registry) {
  relax::registerRelaxProjectDialects(*unwrap(registry));
}

//===----------------------------------------------------------------------===//
// !relax.tensor
//===----------------------------------------------------------------------===//

/// The dim at `pos`, or nullopt when `type` has no such dim (an unknown dim
/// is a null sym::Expr, which is a dim).
static std::optional<sym::Expr> getDim(MlirType type, intptr_t pos) {
  auto tensor = dyn_cast<relax::RelaxTensorType>(unwrap(type));
  if (!tensor || !tensor.hasRank() || pos < 0 || pos >= tensor.getRank())
    return std::nullopt;
  return tensor.getDims()[pos];
}

bool mlirTypeIsARelaxTensor(MlirType type) {
  return isa<relax::RelaxTensorType>(unwrap(type));
}

MlirTypeID mlirRelaxTensorTypeGetTypeID(void) {
  return wrap(relax::RelaxTensorType::getTypeID());
}

/// The relax dialect of `ctx`, loaded on first use: building a type of a
/// dialect the context has not loaded is undefined (MLIR asserts in its
/// debug builds and crashes in release ones), and a C caller that only
/// registered the dialect should not meet that.
static MLIRContext *loadRelax(MlirContext ctx) {
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<relax::RelaxDialect>();
  return context;
}

MlirType mlirRelaxTensorTypeGet(MlirContext ctx, intptr_t rank,
                                const MlirStringRef *dims, MlirType dtype) {
  MLIRContext *context = loadRelax(ctx);
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(context)); };
  if (rank < 0 || (rank > 0 && !dims)) {
    emitError() << "mlirRelaxTensorTypeGet: rank " << rank
                << " needs that many dims";
    return MlirType{nullptr};
  }
  SmallVector<sym::Expr> exprs;
  for (intptr_t i = 0; i < rank; ++i) {
    StringRef text = unwrap(dims[i]).trim();
    if (text == "?") {
      exprs.push_back(sym::Expr());
      continue;
    }
    std::string message;
    unsigned column = 0;
    sym::Expr expr = sym::parse(text, &message, &column);
    if (!expr) {
      emitError() << "dim #" << i << " '" << text
                  << "' is not a symbolic expression: " << message
                  << " (at column " << column << ")";
      return MlirType{nullptr};
    }
    exprs.push_back(expr);
  }
  return wrap(relax::RelaxTensorType::getChecked(
      emitError, context, relax::SymShape(exprs), unwrap(dtype)));
}

MlirType mlirRelaxTensorTypeGetUnranked(MlirContext ctx, MlirType dtype) {
  MLIRContext *context = loadRelax(ctx);
  return wrap(relax::RelaxTensorType::getChecked(
      [&] { return mlir::emitError(UnknownLoc::get(context)); }, context,
      relax::SymShape::unranked(), unwrap(dtype)));
}

bool mlirRelaxTensorTypeHasRank(MlirType type) {
  auto tensor = dyn_cast<relax::RelaxTensorType>(unwrap(type));
  return tensor && tensor.hasRank();
}

intptr_t mlirRelaxTensorTypeGetRank(MlirType type) {
  auto tensor = dyn_cast<relax::RelaxTensorType>(unwrap(type));
  return tensor && tensor.hasRank() ? tensor.getRank() : -1;
}

MlirType mlirRelaxTensorTypeGetDtype(MlirType type) {
  auto tensor = dyn_cast<relax::RelaxTensorType>(unwrap(type));
  return wrap(tensor ? tensor.getDtype() : Type());
}

bool mlirRelaxTensorTypeIsDimUnknown(MlirType type, intptr_t pos) {
  std::optional<sym::Expr> dim = getDim(type, pos);
  return dim && !*dim;
}

bool mlirRelaxTensorTypeIsDimConstant(MlirType type, intptr_t pos) {
  std::optional<sym::Expr> dim = getDim(type, pos);
  return dim && *dim && dim->getConstant().has_value();
}

int64_t mlirRelaxTensorTypeGetDimConstant(MlirType type, intptr_t pos) {
  std::optional<sym::Expr> dim = getDim(type, pos);
  if (!dim || !*dim)
    return 0;
  return dim->getConstant().value_or(0);
}

void mlirRelaxTensorTypePrintDim(MlirType type, intptr_t pos,
                                 MlirStringCallback callback, void *userData) {
  std::optional<sym::Expr> dim = getDim(type, pos);
  if (!dim)
    return;
  detail::CallbackOstream stream(callback, userData);
  relax::printSymDim(stream, *dim);
  stream.flush();
}
