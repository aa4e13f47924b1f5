/*===- relax-capi-test.c - The compiler-side C API, from C ----------------===*\
|*                                                                            *|
|* Built by test/CMakeLists.txt against libRelaxCAPI.so only; run by          *|
|* test/lit/Integration/capi.test, which FileChecks its output against the    *|
|* CHECK lines below. A C program registers the dialects through their        *|
|* handles, builds and queries !relax.tensor types with symbolic dims, parses *|
|* a module and runs relax-fuse-ops through MLIR's C pass manager.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "RelaxDialect-c/Dialects.h"
#include "RelaxDialect-c/Passes.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

// main() registers the dialects through their handles and prints first:
// CHECK: loaded: relax (tir handle: tir, extern handle: extern)

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static void printType(const char *label, MlirType type) {
  printf("%s: ", label);
  if (mlirTypeIsNull(type))
    printf("<null>");
  else
    mlirTypePrint(type, printToStdout, NULL);
  printf("\n");
}

/// Prints every query of the tensor type API on `type`.
static void describe(MlirType type) {
  printType("type", type);
  printf("is relax tensor: %d, has rank: %d, rank: %ld\n",
         mlirTypeIsARelaxTensor(type), mlirRelaxTensorTypeHasRank(type),
         (long)mlirRelaxTensorTypeGetRank(type));
  printType("dtype", mlirRelaxTensorTypeGetDtype(type));
  for (intptr_t i = 0; i < mlirRelaxTensorTypeGetRank(type); ++i) {
    printf("dim %ld: '", (long)i);
    mlirRelaxTensorTypePrintDim(type, i, printToStdout, NULL);
    printf("' unknown=%d constant=%d", mlirRelaxTensorTypeIsDimUnknown(type, i),
           mlirRelaxTensorTypeIsDimConstant(type, i));
    if (mlirRelaxTensorTypeIsDimConstant(type, i))
      printf(" value=%ld", (long)mlirRelaxTensorTypeGetDimConstant(type, i));
    printf("\n");
  }
}

static void testTypes(MlirContext ctx) {
  printf("--- types\n");
  MlirType f32 = mlirF32TypeGet(ctx);
  // Dims in any form come back canonical: "4 * m" prints "m * 4", "2 * 8"
  // is the constant 16.
  MlirStringRef dims[] = {
      mlirStringRefCreateFromCString("n"),
      mlirStringRefCreateFromCString("4 * m"),
      mlirStringRefCreateFromCString("(k + 31) floordiv 32"),
      mlirStringRefCreateFromCString("2 * 8"),
      mlirStringRefCreateFromCString("?"),
  };
  MlirType tensor = mlirRelaxTensorTypeGet(ctx, 5, dims, f32);
  describe(tensor);
  // CHECK-LABEL: --- types
  // CHECK: type: !relax.tensor<[n, m * 4, (k + 31) floordiv 32, 16, ?], f32>
  // CHECK: is relax tensor: 1, has rank: 1, rank: 5
  // CHECK: dtype: f32
  // CHECK: dim 0: 'n' unknown=0 constant=0
  // CHECK: dim 1: 'm * 4' unknown=0 constant=0
  // CHECK: dim 2: '(k + 31) floordiv 32' unknown=0 constant=0
  // CHECK: dim 3: '16' unknown=0 constant=1 value=16
  // CHECK: dim 4: '?' unknown=1 constant=0

  // The same type parsed from text is the same (uniqued) type.
  MlirType parsed = mlirTypeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "!relax.tensor<[n, 4 * m, (31 + k) floordiv 32, 16, ?], f32>"));
  printf("parsed equals built: %d\n", mlirTypeEqual(parsed, tensor));
  // CHECK: parsed equals built: 1

  describe(mlirRelaxTensorTypeGetUnranked(ctx, mlirIntegerTypeGet(ctx, 64)));
  // CHECK: type: !relax.tensor<*, i64>
  // CHECK: is relax tensor: 1, has rank: 0, rank: -1

  // Queries on a type that is no relax tensor, or out of range, are neutral.
  printf("builtin f32: is relax tensor %d, rank %ld, dim 0 constant %d\n",
         mlirTypeIsARelaxTensor(f32), (long)mlirRelaxTensorTypeGetRank(f32),
         mlirRelaxTensorTypeIsDimConstant(f32, 0));
  printf("dim 7 of the rank-5 type: constant %d, unknown %d\n",
         mlirRelaxTensorTypeIsDimConstant(tensor, 7),
         mlirRelaxTensorTypeIsDimUnknown(tensor, 7));
  // CHECK: builtin f32: is relax tensor 0, rank -1, dim 0 constant 0
  // CHECK: dim 7 of the rank-5 type: constant 0, unknown 0

  // Bad input: a diagnostic and a null type.
  MlirStringRef bad[] = {mlirStringRefCreateFromCString("n +")};
  printType("bad dim", mlirRelaxTensorTypeGet(ctx, 1, bad, f32));
  // CHECK: diagnostic: dim #0 'n +' is not a symbolic expression: {{.*}}
  // CHECK: bad dim: <null>
  MlirStringRef one[] = {mlirStringRefCreateFromCString("n")};
  printType("bad dtype",
            mlirRelaxTensorTypeGet(ctx, 1, one, mlirIndexTypeGet(ctx)));
  // CHECK: diagnostic: unsupported relax tensor dtype 'index'
  // CHECK: bad dtype: <null>
  MlirStringRef negative[] = {mlirStringRefCreateFromCString("2 - 5")};
  printType("negative dim", mlirRelaxTensorTypeGet(ctx, 1, negative, f32));
  // CHECK: diagnostic: tensor dim must be non-negative, got -3
  // CHECK: negative dim: <null>
}

static const char *kModule =
    "module {\n"
    "relax.func @main(%x: !relax.tensor<[n, 8], f32>,\n"
    "                 %w: !relax.tensor<[8, 16], f32>,\n"
    "                 %b: !relax.tensor<[16], f32>)\n"
    "    -> !relax.tensor<[n, 16], f32> {\n"
    "  %0 = relax.dataflow -> !relax.tensor<[n, 16], f32> {\n"
    "    %mm = relax.matmul %x, %w : (!relax.tensor<[n, 8], f32>, "
    "!relax.tensor<[8, 16], f32>) -> !relax.tensor<[n, 16], f32>\n"
    "    %a = relax.add %mm, %b : (!relax.tensor<[n, 16], f32>, "
    "!relax.tensor<[16], f32>) -> !relax.tensor<[n, 16], f32>\n"
    "    %r = relax.relu %a : (!relax.tensor<[n, 16], f32>) -> "
    "!relax.tensor<[n, 16], f32>\n"
    "    relax.output %r : !relax.tensor<[n, 16], f32>\n"
    "  }\n"
    "  relax.return %0 : !relax.tensor<[n, 16], f32>\n"
    "}\n"
    "}\n";

static int testPipeline(MlirContext ctx) {
  printf("--- pipeline\n");
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    printf("cannot parse the module\n");
    return 1;
  }
  // The first argument's type, reached through the C API's IR walk.
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  describe(mlirValueGetType(mlirBlockGetArgument(entry, 0)));
  // CHECK-LABEL: --- pipeline
  // CHECK: type: !relax.tensor<[n, 8], f32>
  // CHECK: dim 0: 'n' unknown=0 constant=0
  // CHECK: dim 1: '8' unknown=0 constant=1 value=8

  mlirRelaxRegisterPasses();
  mlirRelaxRegisterPasses(); // A second call does nothing.
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString("builtin.module(relax-fuse-ops)"),
      printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed)) {
    printf("\ncannot parse the pipeline\n");
    return 1;
  }
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("pipeline %s\n", mlirLogicalResultIsSuccess(ran) ? "ran" : "failed");
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  // CHECK: pipeline ran
  // CHECK: relax.func @main
  // CHECK: relax.call_tir @fused_matmul_add_relu(%{{.*}}, %{{.*}}, %{{.*}})
  // CHECK-SAME: -> !relax.tensor<[n, 16], f32>
  // CHECK: tir.prim_func private @fused_matmul_add_relu

  // A pass name that is not registered is reported, not fatal.
  MlirPassManager bad = mlirPassManagerCreate(ctx);
  printf("unknown pass: ");
  MlirLogicalResult unknown = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(bad),
      mlirStringRefCreateFromCString("builtin.module(relax-no-such-pass)"),
      printToStdout, NULL);
  printf("\nunknown pass parsed: %d\n", mlirLogicalResultIsSuccess(unknown));
  // CHECK: unknown pass: {{.*}}'relax-no-such-pass' does not refer to a
  // CHECK-SAME: registered pass or pass pipeline
  // CHECK: unknown pass parsed: 0

  // So is an option value outside its enum, when the pipeline is parsed.
  MlirPassManager badOption = mlirPassManagerCreate(ctx);
  MlirLogicalResult badValue = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(badOption),
      mlirStringRefCreateFromCString(
          "builtin.module(relax-fuse-ops{dispatch-library=tpu})"),
      printToStdout, NULL);
  printf("bad option value parsed: %d\n", mlirLogicalResultIsSuccess(badValue));
  // CHECK: failed to add `relax-fuse-ops` with options `dispatch-library=tpu`
  // CHECK: bad option value parsed: 0

  mlirPassManagerDestroy(badOption);
  mlirPassManagerDestroy(bad);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return 0;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__relax__(), registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__tir__(), registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__extern__(), registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  MlirDialect relax =
      mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("relax"));
  MlirStringRef ns = mlirDialectGetNamespace(relax);
  MlirStringRef tir =
      mlirDialectHandleGetNamespace(mlirGetDialectHandle__tir__());
  MlirStringRef ext =
      mlirDialectHandleGetNamespace(mlirGetDialectHandle__extern__());
  printf("loaded: %.*s (tir handle: %.*s, extern handle: %.*s)\n",
         (int)ns.length, ns.data, (int)tir.length, tir.data, (int)ext.length,
         ext.data);

  testTypes(ctx);
  int status = testPipeline(ctx);
  mlirContextDestroy(ctx);
  printf("done\n");
  // CHECK: done
  return status;
}
