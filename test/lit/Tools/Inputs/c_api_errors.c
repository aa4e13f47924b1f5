/* Every way a caller can misuse the C API of RelaxModule.h, against a
 * library compiled from weights.mlir: each must return its status with a
 * readable message, never abort. Arguments: the library, its parameter
 * file, a corrupt copy of it. Prints one line per case for FileCheck. */
#include "RelaxDialect/Runtime/RelaxModule.h"

#include <stdio.h>

static const char *statusName(relax_status s) {
  switch (s) {
  case RELAX_OK: return "OK";
  case RELAX_ERROR_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
  case RELAX_ERROR_LOAD: return "LOAD";
  case RELAX_ERROR_RUNTIME: return "RUNTIME";
  }
  return "?";
}

static void report(const char *what, relax_status s) {
  printf("%s: %s: %s\n", what, statusName(s),
         s == RELAX_OK ? "" : relax_last_error());
}

static void call(const char *what, relax_function *f, relax_tensor *inputs,
                 size_t n) {
  relax_outputs *out = (relax_outputs *)1;
  relax_status s = relax_function_call(f, inputs, n, &out);
  report(what, s);
  if (s != RELAX_OK && out != NULL)
    printf("%s: outputs not reset\n", what);
  relax_outputs_free(out);
}

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  relax_module *m = NULL;
  report("null-module", relax_module_open(argv[1], argv[2], NULL));
  report("missing-library", relax_module_open("no/such.so", NULL, &m));
  report("missing-params",
         relax_module_open(argv[1], "no/such.params", &m));
  report("corrupt-params", relax_module_open(argv[1], argv[3], &m));
  report("params-as-library", relax_module_open(argv[2], argv[2], &m));
  report("open", relax_module_open(argv[1], argv[2], &m));
  relax_module *again = NULL;
  report("open-twice", relax_module_open(argv[1], argv[2], &again));

  relax_function *f = NULL;
  report("unknown-function", relax_module_get_function(m, "nope", &f));
  report("get-main", relax_module_get_function(m, "main", &f));

  float data[64] = {0};
  int64_t good[2] = {2, 16}, badStatic[2] = {2, 15}, negative[2] = {-1, 16};
  relax_tensor x = {data, RELAX_DTYPE_F32, 2, good};
  call("ok", f, &x, 1);
  call("no-inputs", f, NULL, 0);
  relax_tensor wrongDType = {data, RELAX_DTYPE_I32, 2, good};
  call("wrong-dtype", f, &wrongDType, 1);
  relax_tensor wrongRank = {data, RELAX_DTYPE_F32, 1, good};
  call("wrong-rank", f, &wrongRank, 1);
  relax_tensor wrongDim = {data, RELAX_DTYPE_F32, 2, badStatic};
  call("wrong-static-dim", f, &wrongDim, 1);
  relax_tensor negDim = {data, RELAX_DTYPE_F32, 2, negative};
  call("negative-dim", f, &negDim, 1);
  relax_tensor nullData = {NULL, RELAX_DTYPE_F32, 2, good};
  call("null-data", f, &nullData, 1);
  relax_tensor badEnum = {data, (relax_dtype)99, 2, good};
  call("bad-dtype-enum", f, &badEnum, 1);

  relax_function *add2 = NULL;
  report("get-add2", relax_module_get_function(m, "add2", &add2));
  int64_t three = 3, four = 4;
  relax_tensor pair[2] = {{data, RELAX_DTYPE_F32, 1, &three},
                          {data, RELAX_DTYPE_F32, 1, &four}};
  call("symbolic-mismatch", add2, pair, 2);
  pair[1].shape = &three;
  call("symbolic-match", add2, pair, 2);

  /* Shapes from the shape function: add2(k) -> k. */
  printf("add2-symbols: %zu %s\n", relax_function_num_symbols(add2),
         relax_function_symbol_name(add2, 0));
  int64_t k = 5, dims[2] = {0, 0};
  relax_status s = relax_function_input_shape(add2, &k, 1, dims);
  printf("input-shape: %s %lld\n", statusName(s), (long long)dims[0]);
  s = relax_function_output_shape(add2, &k, 0, dims);
  printf("output-shape: %s %lld\n", statusName(s), (long long)dims[0]);
  s = relax_function_input_shape(add2, NULL, 0, dims);
  printf("fixed-only: %s %lld\n", statusName(s), (long long)dims[0]);
  s = relax_function_input_shape(f, NULL, 0, dims);
  printf("main-fixed: %s %lld %lld\n", statusName(s), (long long)dims[0],
         (long long)dims[1]);
  report("shape-out-of-range", relax_function_input_shape(add2, &k, 2, dims));
  report("output-shape-out-of-range",
         relax_function_output_shape(add2, &k, 1, dims));
  report("shape-null", relax_function_input_shape(add2, &k, 0, NULL));

  relax_module_close(m);
  report("reopen-after-close", relax_module_open(argv[1], argv[2], &m));
  relax_module_close(m);
  return 0;
}
