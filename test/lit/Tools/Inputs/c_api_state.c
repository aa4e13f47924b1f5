/* State through the C API (RelaxModule.h) of a library compiled from
 * E2E/call-tir-inplace.mlir and E2E/tuple-params.mlir: an input that the
 * function updates in place (relax.call_tir_inplace) is the caller's own
 * buffer, updated after the call, and a tuple parameter and a nested
 * tuple result are passed as their leaves, depth first. Prints what it
 * checked; any difference is an exit status of 1. */
#include "RelaxDialect/Runtime/RelaxModule.h"

#include <stdio.h>
#include <string.h>

static int failed(const char *what) {
  fprintf(stderr, "c_api_state: %s: %s\n", what, relax_last_error());
  return 1;
}

/* append(cache [1, 1, 4, 2], k [1, 1, 2, 2], pos [1] i64): rows pos, pos + 1
 * of the cache become k. */
static int checkAppend(relax_module *m) {
  relax_function *f;
  if (relax_module_get_function(m, "append", &f) != RELAX_OK)
    return failed("append");
  float cache[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  float k[4] = {1, 2, 3, 4};
  int64_t pos[1] = {1};
  int64_t cacheShape[4] = {1, 1, 4, 2}, kShape[4] = {1, 1, 2, 2};
  int64_t posShape[1] = {1};
  relax_tensor in[3] = {{cache, RELAX_DTYPE_F32, 4, cacheShape},
                        {k, RELAX_DTYPE_F32, 4, kShape},
                        {pos, RELAX_DTYPE_I64, 1, posShape}};
  relax_outputs *out;
  if (relax_function_call(f, in, 3, &out) != RELAX_OK)
    return failed("append call");
  const float expected[8] = {0, 0, 1, 2, 3, 4, 0, 0};
  const relax_tensor *y = relax_outputs_get(out, 0);
  int bad = memcmp(cache, expected, sizeof expected) != 0 ||
            memcmp(y->data, expected, sizeof expected) != 0;
  /* The updated input comes back as itself, not as a copy. */
  int copied = y->data != (void *)cache;
  relax_outputs_free(out);
  printf("append: caller's cache updated in place: %s\n", bad ? "no" : "yes");
  printf("append: result is the caller's buffer: %s\n", copied ? "no" : "yes");
  return bad || copied;
}

/* step(cache: (k, v), x), all [n, 4]: ((k + x, v * x), k + v). */
static int checkTuples(relax_module *m) {
  relax_function *f;
  if (relax_module_get_function(m, "step", &f) != RELAX_OK)
    return failed("step");
  printf("step: %zu inputs, %zu outputs\n", relax_function_num_inputs(f),
         relax_function_num_outputs(f));
  float k[8], v[8], x[8];
  for (int i = 0; i < 8; ++i) {
    k[i] = (float)i;
    v[i] = (float)(2 * i);
    x[i] = 0.5f;
  }
  int64_t shape[2] = {2, 4};
  relax_tensor in[3] = {{k, RELAX_DTYPE_F32, 2, shape},
                        {v, RELAX_DTYPE_F32, 2, shape},
                        {x, RELAX_DTYPE_F32, 2, shape}};
  relax_outputs *out;
  if (relax_function_call(f, in, 3, &out) != RELAX_OK)
    return failed("step call");
  int bad = relax_outputs_count(out) != 3;
  for (int i = 0; i < 8 && !bad; ++i) {
    const float *a = relax_outputs_get(out, 0)->data;
    const float *b = relax_outputs_get(out, 1)->data;
    const float *c = relax_outputs_get(out, 2)->data;
    bad = a[i] != k[i] + 0.5f || b[i] != v[i] * 0.5f || c[i] != k[i] + v[i];
  }
  relax_outputs_free(out);
  printf("step: leaves in order: %s\n", bad ? "no" : "yes");
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: c_api_state inplace.so tuples.so\n");
    return 2;
  }
  relax_module *m;
  if (relax_module_open(argv[1], NULL, &m) != RELAX_OK)
    return failed(argv[1]);
  int bad = checkAppend(m);
  relax_module_close(m);
  if (relax_module_open(argv[2], NULL, &m) != RELAX_OK)
    return failed(argv[2]);
  bad |= checkTuples(m);
  relax_module_close(m);
  return bad;
}
