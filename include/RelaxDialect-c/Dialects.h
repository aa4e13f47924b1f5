/*===- Dialects.h - C API of the relax, tir and extern dialects ---*- C -*-===*\
|*                                                                            *|
|* The compiler-side C API, in the style of upstream MLIR's mlir-c headers:   *|
|* dialect handles to register relax, tir and extern with an MlirContext, and *|
|* the !relax.tensor type with its symbolic dims. Library: libRelaxCAPI.so,   *|
|* which also carries MLIR's own C API (mlir-c/IR.h, mlir-c/Pass.h), so a C   *|
|* program links it alone.                                                    *|
|*                                                                            *|
|* Not to be confused with RelaxDialect/Runtime/RelaxModule.h, the C API that *|
|* opens and calls modules compiled by relax-compile (libRelaxModule.so).     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef RELAXDIALECT_C_DIALECTS_H
#define RELAXDIALECT_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__relax__, __tir__ and __extern__. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Relax, relax);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TIR, tir);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Extern, extern);

/// Inserts relax, tir and extern into `registry` (what the three handles do
/// one at a time).
MLIR_CAPI_EXPORTED void mlirRelaxRegisterDialects(MlirDialectRegistry registry);

//===----------------------------------------------------------------------===//
// !relax.tensor<[d0, d1, ...], dtype>
//===----------------------------------------------------------------------===//

/// Whether `type` is a !relax.tensor.
MLIR_CAPI_EXPORTED bool mlirTypeIsARelaxTensor(MlirType type);

/// The TypeID of !relax.tensor.
MLIR_CAPI_EXPORTED MlirTypeID mlirRelaxTensorTypeGetTypeID(void);

/// A ranked tensor type. Each of the `rank` dims is the text of a symbolic
/// expression, as written in the type ("n", "4 * m", "(k + 31) floordiv 32",
/// "min(n, 128)", "16"), or "?" for an anonymous unknown dim; it is stored
/// in canonical form. Returns a null type, after emitting an error
/// diagnostic on the context, when a dim does not parse or `dtype` is not a
/// relax dtype (f16, bf16, f32, f64, i1, i8 ... i64, ui8 ... ui64). Loads
/// the relax dialect into `ctx` if it is not loaded yet.
MLIR_CAPI_EXPORTED MlirType mlirRelaxTensorTypeGet(MlirContext ctx,
                                                   intptr_t rank,
                                                   const MlirStringRef *dims,
                                                   MlirType dtype);

/// A tensor type of unknown rank, !relax.tensor<*, dtype>; null as above.
MLIR_CAPI_EXPORTED MlirType mlirRelaxTensorTypeGetUnranked(MlirContext ctx,
                                                           MlirType dtype);

/// Whether the rank is known.
MLIR_CAPI_EXPORTED bool mlirRelaxTensorTypeHasRank(MlirType type);

/// The rank, or -1 for unknown rank.
MLIR_CAPI_EXPORTED intptr_t mlirRelaxTensorTypeGetRank(MlirType type);

/// The element type.
MLIR_CAPI_EXPORTED MlirType mlirRelaxTensorTypeGetDtype(MlirType type);

/// Whether dim `pos` is an anonymous unknown (`?`). False when `pos` is not
/// a dim of `type`.
MLIR_CAPI_EXPORTED bool mlirRelaxTensorTypeIsDimUnknown(MlirType type,
                                                        intptr_t pos);

/// Whether dim `pos` is an integer constant (after canonicalization, so
/// "2 * 8" is). False when `pos` is not a dim of `type`.
MLIR_CAPI_EXPORTED bool mlirRelaxTensorTypeIsDimConstant(MlirType type,
                                                         intptr_t pos);

/// The value of a constant dim; 0 unless mlirRelaxTensorTypeIsDimConstant.
MLIR_CAPI_EXPORTED int64_t mlirRelaxTensorTypeGetDimConstant(MlirType type,
                                                             intptr_t pos);

/// Hands the canonical text of dim `pos` ("m * 4", "?") to `callback`, in
/// one or more pieces; nothing when `pos` is not a dim of `type`.
MLIR_CAPI_EXPORTED void mlirRelaxTensorTypePrintDim(MlirType type, intptr_t pos,
                                                    MlirStringCallback callback,
                                                    void *userData);

#ifdef __cplusplus
}
#endif

#endif // RELAXDIALECT_C_DIALECTS_H
