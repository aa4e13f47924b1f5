// relax.tensor_to_shape reads dims from tensor data at run time (docs/relax.md,
// "Binding rules"): a bare unbound variable is bound to the value, other dims
// are checked, a negative value is refused; the reshape that follows gets its
// element-count contract checked like any symbolic reshape.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; d='%t/'; np.save(d+'x.npy', np.arange(12, dtype=np.float32)); np.save(d+'y.npy', np.arange(12, dtype=np.float32).reshape(3, 4)); np.save(d+'z.npy', np.arange(12, dtype=np.float32).reshape(2, 6)); [np.save(d+n+'.npy', np.array(v, dtype=t)) for n, v, t in [('s34', [3, 4], np.int64), ('s26', [2, 6], np.int32), ('s54', [5, 4], np.int64), ('sneg', [-3, -4], np.int64), ('s36', [3, 6], np.int32)]]"
// RUN: relax-run %s --entry reshape_to --input %t/x.npy --input %t/s34.npy --expect %t/y.npy
// RUN: relax-run %s --fuse --entry reshape_to --input %t/x.npy --input %t/s34.npy --expect %t/y.npy
// RUN: relax-run %s --entry reshape_to --input %t/x.npy --input %t/s54.npy > %t/count.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=COUNT < %t/count.txt
// COUNT: relax-run: error: reshape_to: relax.reshape at {{.*}}.mlir:{{[0-9]+:[0-9]+}}: element count: expected a * b == n, got a * b = 20 and n = 12
// RUN: relax-run %s --entry reshape_to --input %t/x.npy --input %t/sneg.npy > %t/neg.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NEG < %t/neg.txt
// NEG: relax-run: error: reshape_to: tensor_to_shape at {{.*}}.mlir:{{[0-9]+:[0-9]+}} element 0: -3 is not a valid dim (negative)
// An i32 shape whose first element must be 2 and whose second binds c.
// RUN: relax-run %s --entry first_is_two --input %t/x.npy --input %t/s26.npy --expect %t/z.npy
// RUN: relax-run %s --entry first_is_two --input %t/x.npy --input %t/s36.npy > %t/two.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TWO < %t/two.txt
// TWO: relax-run: error: first_is_two: tensor_to_shape at {{.*}}.mlir:{{[0-9]+:[0-9]+}} element 0: expected 2, got 3
// sym_bounds of a variable bound from data are checked where it is bound.
// RUN: relax-run %s --entry bounded --input %t/x.npy --input %t/s26.npy > %t/bound.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BOUND < %t/bound.txt
// BOUND: relax-run: error: bounded: c = 6 from tensor_to_shape at {{.*}}.mlir:{{[0-9]+:[0-9]+}} dim 1 is above its sym_bounds upper bound 4

relax.func @reshape_to(%x: !relax.tensor<[n], f32>, %s: !relax.tensor<[2], i64>) -> !relax.tensor<[a, b], f32> {
  %shape = relax.tensor_to_shape %s : !relax.tensor<[2], i64> to !relax.shape<[a, b]>
  %y = relax.reshape %x {shape = #relax.shape<[a, b]>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[a, b], f32>
  relax.return %y : !relax.tensor<[a, b], f32>
}

relax.func @first_is_two(%x: !relax.tensor<[12], f32>, %s: !relax.tensor<[2], i32>) -> !relax.tensor<[2, c], f32> {
  %shape = relax.tensor_to_shape %s : !relax.tensor<[2], i32> to !relax.shape<[2, c]>
  %y = relax.reshape %x {shape = #relax.shape<[2, c]>} : (!relax.tensor<[12], f32>) -> !relax.tensor<[2, c], f32>
  relax.return %y : !relax.tensor<[2, c], f32>
}

relax.func @bounded(%x: !relax.tensor<[12], f32>, %s: !relax.tensor<[2], i32>) -> !relax.tensor<[2, c], f32> attributes {sym_bounds = {c = array<i64: 0, 4>}} {
  %shape = relax.tensor_to_shape %s : !relax.tensor<[2], i32> to !relax.shape<[2, c]>
  %y = relax.reshape %x {shape = #relax.shape<[2, c]>} : (!relax.tensor<[12], f32>) -> !relax.tensor<[2, c], f32>
  relax.return %y : !relax.tensor<[2, c], f32>
}
