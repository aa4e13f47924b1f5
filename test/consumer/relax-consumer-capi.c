/*===- relax-consumer-capi.c - The installed compiler C API, from C -------===*\
|*                                                                            *|
|* Links RelaxDialect::RelaxCAPI of an installed package: registers the       *|
|* dialects and prints a !relax.tensor type built from symbolic dims.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "RelaxDialect-c/Dialects.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

#include <stdio.h>

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRelaxRegisterDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);

  MlirStringRef dims[] = {mlirStringRefCreateFromCString("batch"),
                          mlirStringRefCreateFromCString("seq * 64")};
  MlirType type = mlirRelaxTensorTypeGet(ctx, 2, dims, mlirF16TypeGet(ctx));
  if (mlirTypeIsNull(type))
    return 1;
  mlirTypePrint(type, printToStdout, NULL);
  printf("\n");
  mlirContextDestroy(ctx);
  return 0;
}
