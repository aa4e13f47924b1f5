/*===- RelaxModule.h - Load and call compiled relax modules, C API -*- C -*-===*\
|*                                                                            *|
|* The entry point of a module compiled ahead of time by relax-compile: a    *|
|* shared library holding the code (model.so) and a parameter file holding   *|
|* its weights (model.params, safetensors). Link against libRelaxModule.so.  *|
|* (This runs compiled code; the C API that builds and transforms relax IR   *|
|* is RelaxDialect-c/Dialects.h, libRelaxCAPI.so: docs/integration.md.)      *|
|*                                                                            *|
|*   relax_module *m;                                                         *|
|*   if (relax_module_open("model.so", "model.params", &m) != RELAX_OK) {     *|
|*     fprintf(stderr, "%s\n", relax_last_error());                           *|
|*     return 1;                                                              *|
|*   }                                                                        *|
|*   relax_function *f;                                                       *|
|*   relax_module_get_function(m, "main", &f);                                *|
|*   int64_t shape[2] = {7, 512};                                             *|
|*   relax_tensor x = {data, RELAX_DTYPE_F32, 2, shape};                      *|
|*   relax_outputs *out;                                                      *|
|*   if (relax_function_call(f, &x, 1, &out) != RELAX_OK) ...                 *|
|*   const relax_tensor *y = relax_outputs_get(out, 0);                       *|
|*   ... y->data, y->shape ...                                                *|
|*   relax_outputs_free(out);                                                 *|
|*   relax_module_close(m);                                                   *|
|*                                                                            *|
|* Symbolic dims (`n` in `[n, 512]`) are not passed separately: the compiled *|
|* code binds them from the shapes of the inputs and checks every use, so a  *|
|* call whose inputs disagree on `n` fails with a message naming the         *|
|* function, argument and dim. A tuple parameter or result is passed as its *|
|* leaves, depth first: f(cache: tuple<k, v>, x) -> tuple<tuple<a, b>, c>    *|
|* takes inputs k, v, x and gives outputs a, b, c. An input the function     *|
|* updates in place (relax.call_tir_inplace) is written through the         *|
|* caller's data pointer. No function aborts: each returns a status,         *|
|* and relax_last_error() gives the message of the last failure on the      *|
|* calling thread. See docs/compile.md.                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef RELAXDIALECT_RUNTIME_RELAXMODULE_H
#define RELAXDIALECT_RUNTIME_RELAXMODULE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum relax_status {
  RELAX_OK = 0,
  /* A null pointer, an unknown function, inputs of the wrong count, dtype,
   * rank or static size. */
  RELAX_ERROR_INVALID_ARGUMENT = 1,
  /* The library or the parameter file cannot be opened, or is corrupt or
   * does not match the library. */
  RELAX_ERROR_LOAD = 2,
  /* The compiled code failed: a run-time shape check (symbolic dims that
   * disagree), an allocation, a library call. */
  RELAX_ERROR_RUNTIME = 3
} relax_status;

/* Element types, as relax spells them: f16, bf16, f32, f64, i1 (bool, one
 * byte per element), i8 ... i64, ui8 ... ui64. */
typedef enum relax_dtype {
  RELAX_DTYPE_F16 = 0,
  RELAX_DTYPE_BF16,
  RELAX_DTYPE_F32,
  RELAX_DTYPE_F64,
  RELAX_DTYPE_BOOL,
  RELAX_DTYPE_I8,
  RELAX_DTYPE_I16,
  RELAX_DTYPE_I32,
  RELAX_DTYPE_I64,
  RELAX_DTYPE_U8,
  RELAX_DTYPE_U16,
  RELAX_DTYPE_U32,
  RELAX_DTYPE_U64
} relax_dtype;

/* A dense, C-ordered (row-major) tensor. For inputs the caller owns `data`
 * and `shape`; they must stay valid during the call only. */
typedef struct relax_tensor {
  void *data;
  relax_dtype dtype;
  int32_t rank;
  const int64_t *shape;
} relax_tensor;

typedef struct relax_module relax_module;
typedef struct relax_function relax_function;
typedef struct relax_outputs relax_outputs;

/* The message of the last failed call on this thread ("" when none). Valid
 * until the next call of this API on the same thread. */
const char *relax_last_error(void);

/* Bytes per element of `dtype`; 0 for a value outside the enum. */
size_t relax_dtype_size(relax_dtype dtype);
/* The relax spelling of `dtype` ("f32", ...); "" outside the enum. */
const char *relax_dtype_name(relax_dtype dtype);

/* Opens the compiled library `library_path` and loads its weights from the
 * parameter file `params_path` (NULL: the file relax-compile wrote next to
 * the library). A library may be open once per process at a time. */
relax_status relax_module_open(const char *library_path,
                               const char *params_path,
                               relax_module **module);
/* Frees the module, its functions and the library (NULL is ignored). Outputs
 * of its calls must be freed before. */
void relax_module_close(relax_module *module);

/* The number of functions the library exports, and the name of each. */
size_t relax_module_num_functions(const relax_module *module);
const char *relax_module_function_name(const relax_module *module,
                                       size_t index);

/* Looks up a function by name; it is owned by the module. */
relax_status relax_module_get_function(relax_module *module,
                                       const char *name,
                                       relax_function **function);

/* The signature: inputs and outputs, each with a dtype and a rank (-1: any
 * rank), and each input dim as text for people to read: an integer
 * ("512"), a symbolic expression of the function's variables ("n",
 * "n * 4") or "?" (any size). Programs size tensors with
 * relax_function_input_shape and relax_function_output_shape instead of
 * reading that text. */
size_t relax_function_num_inputs(const relax_function *function);
size_t relax_function_num_outputs(const relax_function *function);
relax_dtype relax_function_input_dtype(const relax_function *function,
                                       size_t input);
int32_t relax_function_input_rank(const relax_function *function,
                                  size_t input);
const char *relax_function_input_dim(const relax_function *function,
                                     size_t input, int32_t dim);
/* The name of an input (its `relax.name`: "x",
 * "model.layers.0.self_attn.q_proj.weight"), "" when it has none, NULL when
 * `input` is out of range: lets a caller bind weights by name. */
const char *relax_function_input_name(const relax_function *function,
                                      size_t input);
relax_dtype relax_function_output_dtype(const relax_function *function,
                                        size_t output);
int32_t relax_function_output_rank(const relax_function *function,
                                   size_t output);

/* The symbolic variables of the input dims (`n` in `[n, 512]`, `k` in
 * `[k * 4]`), in the order relax_function_input_shape reads their values. */
size_t relax_function_num_symbols(const relax_function *function);
const char *relax_function_symbol_name(const relax_function *function,
                                       size_t symbol);
/* Writes the shape of an input (relax_function_input_rank dims) or an
 * output (relax_function_output_rank dims) when the symbols have the values
 * `symbols` (one per relax_function_num_symbols, in that order), as the
 * compiled function's generated shape function computes it (`n * 4` at
 * n = 7 is 28). A dim not known before the call is -1: `?`, or an output
 * size the function computes from data. With `symbols` NULL, every dim that
 * depends on a symbol is -1 too (the fixed sizes only). A dim whose
 * arithmetic overflows int64 or divides by zero, or that is negative, is
 * RELAX_ERROR_INVALID_ARGUMENT. */
relax_status relax_function_input_shape(const relax_function *function,
                                        const int64_t *symbols, size_t input,
                                        int64_t *shape);
relax_status relax_function_output_shape(const relax_function *function,
                                         const int64_t *symbols,
                                         size_t output, int64_t *shape);

/* Calls `function` on `num_inputs` inputs. Inputs are checked first (count,
 * dtype, rank, static dims); the compiled code then checks the symbolic
 * dims. On success `*outputs` holds the results, dense and owned by it; on
 * failure it is set to NULL. A result that is an input updated in place
 * (relax.call_tir_inplace), or a leading part of one (relax.view), is not
 * copied: its data is that input's pointer, the caller's memory (a KV cache
 * passed back and forth is never copied). Functions may be called from
 * several threads at once. */
relax_status relax_function_call(relax_function *function,
                                 const relax_tensor *inputs,
                                 size_t num_inputs, relax_outputs **outputs);

size_t relax_outputs_count(const relax_outputs *outputs);
/* The `index`-th result, valid until relax_outputs_free; NULL when out of
 * range. */
const relax_tensor *relax_outputs_get(const relax_outputs *outputs,
                                      size_t index);
void relax_outputs_free(relax_outputs *outputs);

#ifdef __cplusplus
}
#endif

#endif /* RELAXDIALECT_RUNTIME_RELAXMODULE_H */
