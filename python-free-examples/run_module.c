/* Runs a function of a library compiled by relax-compile, through the C API
 * of RelaxDialect/Runtime/RelaxModule.h: no Python, no MLIR.
 *
 *   relax-compile weights.mlir -o model.so        # writes model.params too
 *   cc run_module.c -I<relax>/include -L<build>/lib -lRelaxModule \
 *      -Wl,-rpath,<build>/lib -o run_module
 *   ./run_module model.so main n=7                # -> prints the outputs
 *
 * Arguments: the library, the function, then the value of each symbolic
 * variable (name=value: n=7), then optionally --params FILE (default: the
 * file next to the library) and --save DIR, which writes the inputs and
 * outputs as DIR/input_<i>.npy and DIR/output_<i>.npy so another tool
 * (relax-run --input/--expect) can check them. The inputs are shaped by the
 * function's shape function (a dim `n * 4` is 28 at n=7); each output's
 * shape is checked against what it computes. Inputs hold a fixed pattern.
 * Every error is printed with the runtime's message and exits with
 * status 1. */
#include "RelaxDialect/Runtime/RelaxModule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxRank = 16, kMaxBindings = 32 };

static int failWith(const char *what) {
  fprintf(stderr, "run_module: %s: %s\n", what, relax_last_error());
  return 1;
}

/* The numpy dtype string of a relax dtype. */
static const char *npyDescr(relax_dtype dtype) {
  static const char *names[] = {"<f2", "<V2", "<f4", "<f8", "|b1", "|i1",
                                "<i2", "<i4", "<i8", "|u1", "<u2", "<u4",
                                "<u8"};
  return names[dtype];
}

/* Writes `t` as a .npy file (format version 1.0). */
static int writeNpy(const char *dir, const char *kind, size_t index,
                    const relax_tensor *t) {
  char path[4096], header[512], shape[256] = "";
  size_t count = 1, used = 0;
  for (int32_t d = 0; d < t->rank; ++d) {
    count *= (size_t)t->shape[d];
    used += snprintf(shape + used, sizeof(shape) - used, "%lld,%s",
                     (long long)t->shape[d], d + 1 < t->rank ? " " : "");
  }
  snprintf(path, sizeof(path), "%s/%s_%zu.npy", dir, kind, index);
  int len = snprintf(header, sizeof(header),
                     "{'descr': '%s', 'fortran_order': False, "
                     "'shape': (%s), }",
                     npyDescr(t->dtype), shape);
  /* Pad with spaces so the data starts at a multiple of 64 bytes. */
  int total = 10 + len + 1;
  int padded = (total + 63) / 64 * 64;
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "run_module: cannot write %s\n", path);
    return 1;
  }
  unsigned short headerLen = (unsigned short)(padded - 10);
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc(headerLen & 0xff, f);
  fputc(headerLen >> 8, f);
  fwrite(header, 1, len, f);
  for (int i = total; i < padded; ++i)
    fputc(' ', f);
  fputc('\n', f);
  fwrite(t->data, relax_dtype_size(t->dtype), count, f);
  fclose(f);
  return 0;
}

/* Element `i` of `t` as a double (floats and integers; f16/bf16 printed
 * as raw bits would mislead, so they are skipped by the caller). */
static double element(const relax_tensor *t, size_t i) {
  switch (t->dtype) {
  case RELAX_DTYPE_F32: return ((const float *)t->data)[i];
  case RELAX_DTYPE_F64: return ((const double *)t->data)[i];
  case RELAX_DTYPE_I32: return ((const int32_t *)t->data)[i];
  case RELAX_DTYPE_I64: return (double)((const int64_t *)t->data)[i];
  case RELAX_DTYPE_BOOL:
  case RELAX_DTYPE_U8: return ((const uint8_t *)t->data)[i];
  case RELAX_DTYPE_I8: return ((const int8_t *)t->data)[i];
  default: return NAN;
  }
}

/* Fills `t` with a fixed pattern: values in [-1, 1) for floats, small
 * non-negative integers otherwise. */
static void fill(relax_tensor *t, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    double v = sin(0.37 * (double)i + 0.1);
    switch (t->dtype) {
    case RELAX_DTYPE_F32: ((float *)t->data)[i] = (float)v; break;
    case RELAX_DTYPE_F64: ((double *)t->data)[i] = v; break;
    case RELAX_DTYPE_I32: ((int32_t *)t->data)[i] = (int32_t)(i % 7); break;
    case RELAX_DTYPE_I64: ((int64_t *)t->data)[i] = (int64_t)(i % 7); break;
    default: memset((char *)t->data + i * relax_dtype_size(t->dtype), 0,
                    relax_dtype_size(t->dtype));
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: run_module LIBRARY FUNCTION [dim=value ...] "
                    "[--params FILE] [--save DIR]\n");
    return 2;
  }
  const char *params = NULL, *saveDir = NULL;
  const char *names[kMaxBindings];
  long long values[kMaxBindings];
  int numBindings = 0;
  for (int i = 3; i < argc; ++i) {
    if (!strcmp(argv[i], "--params") && i + 1 < argc) {
      params = argv[++i];
      continue;
    }
    if (!strcmp(argv[i], "--save") && i + 1 < argc) {
      saveDir = argv[++i];
      continue;
    }
    char *eq = strrchr(argv[i], '=');
    if (!eq || numBindings == kMaxBindings) {
      fprintf(stderr, "run_module: expected name=value, got '%s'\n", argv[i]);
      return 2;
    }
    *eq = '\0';
    names[numBindings] = argv[i];
    values[numBindings++] = atoll(eq + 1);
  }

  relax_module *module;
  if (relax_module_open(argv[1], params, &module) != RELAX_OK)
    return failWith("cannot open the module");
  printf("%s: %zu function(s):", argv[1], relax_module_num_functions(module));
  for (size_t i = 0; i < relax_module_num_functions(module); ++i)
    printf(" %s", relax_module_function_name(module, i));
  printf("\n");
  relax_function *function;
  if (relax_module_get_function(module, argv[2], &function) != RELAX_OK) {
    relax_module_close(module);
    return failWith("cannot find the function");
  }

  /* The value of each symbol, by name. */
  size_t numSymbols = relax_function_num_symbols(function);
  int64_t *symbols = calloc(numSymbols ? numSymbols : 1, sizeof(*symbols));
  int status = 0;
  for (size_t k = 0; k < numSymbols && !status; ++k) {
    const char *name = relax_function_symbol_name(function, k);
    int b = 0;
    while (b < numBindings && strcmp(names[b], name))
      ++b;
    if (b == numBindings) {
      fprintf(stderr, "run_module: give a value for '%s' (%s=...)\n", name,
              name);
      status = 1;
    } else {
      symbols[k] = values[b];
    }
  }

  /* Inputs shaped by the function's shape function. */
  size_t numInputs = relax_function_num_inputs(function);
  relax_tensor *inputs = calloc(numInputs ? numInputs : 1, sizeof(*inputs));
  int64_t (*shapes)[kMaxRank] = calloc(numInputs ? numInputs : 1,
                                       sizeof(*shapes));
  for (size_t i = 0; i < numInputs && !status; ++i) {
    int32_t rank = relax_function_input_rank(function, i);
    if (rank < 0 || rank > kMaxRank) {
      fprintf(stderr, "run_module: input #%zu has no fixed rank\n", i);
      status = 1;
      break;
    }
    int64_t fixed[kMaxRank]; /* the sizes that depend on no symbol */
    if (relax_function_input_shape(function, NULL, i, fixed) != RELAX_OK ||
        relax_function_input_shape(function, symbols, i, shapes[i]) !=
            RELAX_OK) {
      status = failWith("cannot size an input");
      break;
    }
    size_t count = 1;
    printf("input #%zu: %s [", i,
           relax_dtype_name(relax_function_input_dtype(function, i)));
    for (int32_t d = 0; d < rank; ++d) {
      const char *dim = relax_function_input_dim(function, i, d);
      int64_t size = shapes[i][d];
      if (size < 0) {
        fprintf(stderr, "\nrun_module: input #%zu dim %d (%s) has no size "
                        "before the call\n", i, d, dim);
        status = 1;
        break;
      }
      count *= (size_t)size;
      if (fixed[d] >= 0)
        printf("%s%lld", d ? ", " : "", (long long)size);
      else
        printf("%s%s=%lld", d ? ", " : "", dim, (long long)size);
    }
    printf("]\n");
    if (status)
      break;
    inputs[i].dtype = relax_function_input_dtype(function, i);
    inputs[i].rank = rank;
    inputs[i].shape = shapes[i];
    inputs[i].data = malloc(count * relax_dtype_size(inputs[i].dtype) + 1);
    fill(&inputs[i], count);
    if (saveDir)
      status = writeNpy(saveDir, "input", i, &inputs[i]);
  }

  relax_outputs *outputs = NULL;
  if (!status && relax_function_call(function, inputs, numInputs,
                                     &outputs) != RELAX_OK)
    status = failWith("the call failed");
  for (size_t i = 0; !status && i < relax_outputs_count(outputs); ++i) {
    const relax_tensor *t = relax_outputs_get(outputs, i);
    /* The shape function knows each output dim that does not depend on
     * the data (-1 where it does). */
    int64_t predicted[kMaxRank];
    if (t->rank > kMaxRank ||
        relax_function_output_shape(function, symbols, i, predicted) !=
            RELAX_OK) {
      status = failWith("cannot compute an output shape");
      break;
    }
    for (int32_t d = 0; d < t->rank; ++d)
      if (predicted[d] >= 0 && predicted[d] != t->shape[d]) {
        fprintf(stderr, "run_module: output #%zu dim %d is %lld, but the "
                        "shape function gives %lld\n", i, d,
                (long long)t->shape[d], (long long)predicted[d]);
        status = 1;
      }
    if (status)
      break;
    size_t count = 1;
    printf("output #%zu: %s [", i, relax_dtype_name(t->dtype));
    for (int32_t d = 0; d < t->rank; ++d) {
      printf("%s%lld", d ? ", " : "", (long long)t->shape[d]);
      count *= (size_t)t->shape[d];
    }
    printf("] =");
    for (size_t k = 0; k < count && k < 6; ++k)
      printf(" %g", element(t, k));
    printf("%s\n", count > 6 ? " ..." : "");
    if (saveDir)
      status = writeNpy(saveDir, "output", i, t);
  }

  relax_outputs_free(outputs);
  for (size_t i = 0; i < numInputs; ++i)
    free(inputs[i].data);
  free(inputs);
  free(shapes);
  free(symbols);
  relax_module_close(module);
  return status;
}
