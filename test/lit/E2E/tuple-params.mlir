// Tuples across function boundaries: a tuple parameter (a two-tensor KV
// cache), a nested tuple result, tuple_get_item of a parameter, a tuple
// parameter handed on to relax.call, and tuples built, passed and taken
// apart across relax.call. relax-run and the compiled library
// (Tools/c-api-state.test) take and give a tuple as its leaves, depth first: @step(cache: (k, v), x) is
// called with k, v, x and returns k + x, v * x, k + v. numpy references
// in kv_tuple_ref.py (rtol 1e-6).
// RUN: %python %S/kv_tuple_ref.py tuples %t 5
// RUN: relax-run %s --entry step --input %t/k.npy --input %t/v.npy --input %t/x.npy --expect %t/k2.npy --expect %t/v2.npy --expect %t/kv.npy --rtol 1e-6 | FileCheck %s
// RUN: relax-run %s --entry forward --input %t/k.npy --input %t/v.npy --input %t/x.npy --expect %t/k2.npy --expect %t/v2.npy --expect %t/kv.npy --rtol 1e-6 | FileCheck %s
// RUN: relax-run %s --entry from_tensors --input %t/k.npy --input %t/v.npy --input %t/x.npy --expect %t/k2.npy --expect %t/v2.npy --expect %t/kv.npy --rtol 1e-6 | FileCheck %s
// RUN: relax-run %s --entry from_tensors --fuse --plan-memory=false --input %t/k.npy --input %t/v.npy --input %t/x.npy --expect %t/k2.npy --expect %t/v2.npy --expect %t/kv.npy --rtol 1e-6 | FileCheck %s
// --random-inputs sizes each leaf from its symbolic shape.
// RUN: relax-run %s --entry step --random-inputs --dim n=3 | FileCheck %s --check-prefix=RANDOM
// RANDOM: output #2: f32 [3, 4]
// A leaf's dims are checked and named by their place in the tuple.
// RUN: %python -c "import numpy as np; np.save('%t/v3.npy', np.zeros((3, 4), np.float32))"
// RUN: relax-run %s --entry step --input %t/k.npy --input %t/v3.npy --input %t/x.npy > %t.fail1 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BAD < %t.fail1
// CHECK: all 3 outputs match
// BAD: error: step: n = 5 from 'cache' field 0 dim 0, but 'cache' field 1 dim 0 = n is 3

relax.func @step(%cache: tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>> {relax.name = "cache"},
                 %x: !relax.tensor<[n, 4], f32>)
    -> tuple<tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>>, !relax.tensor<[n, 4], f32>> {
  %k = relax.tuple_get_item %cache[0] : tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>>
  %v = relax.tuple_get_item %cache[1] : tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>>
  %k2 = relax.add %k, %x : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %v2 = relax.multiply %v, %x : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %kv = relax.add %k, %v : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %new = relax.tuple %k2, %v2 : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>
  %out = relax.tuple %new, %kv : tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>>, !relax.tensor<[n, 4], f32>
  relax.return %out : tuple<tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>>, !relax.tensor<[n, 4], f32>>
}

// The tuple parameter goes on to relax.call as it is; the nested result
// comes back and is returned as it is.
relax.func @forward(%cache: tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>,
                    %x: !relax.tensor<[m, 4], f32>)
    -> tuple<tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>, !relax.tensor<[m, 4], f32>> {
  %r = relax.call @step(%cache, %x) : (tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>, !relax.tensor<[m, 4], f32>)
      -> tuple<tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>, !relax.tensor<[m, 4], f32>>
  relax.return %r : tuple<tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>, !relax.tensor<[m, 4], f32>>
}

// A tuple built here, passed to relax.call, its nested result taken apart
// field by field and returned as separate tensors.
relax.func @from_tensors(%k: !relax.tensor<[m, 4], f32>, %v: !relax.tensor<[m, 4], f32>,
                         %x: !relax.tensor<[m, 4], f32>)
    -> (!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>) {
  %cache = relax.tuple %k, %v : !relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>
  %r = relax.call @step(%cache, %x) : (tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>, !relax.tensor<[m, 4], f32>)
      -> tuple<tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>, !relax.tensor<[m, 4], f32>>
  %new = relax.tuple_get_item %r[0] : tuple<tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>, !relax.tensor<[m, 4], f32>>
  %kv = relax.tuple_get_item %r[1] : tuple<tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>, !relax.tensor<[m, 4], f32>>
  %k2 = relax.tuple_get_item %new[0] : tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>
  %v2 = relax.tuple_get_item %new[1] : tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>
  relax.return %k2, %v2, %kv : !relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>
}
