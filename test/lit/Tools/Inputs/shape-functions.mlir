// Entries whose dims are expressions of their symbolic variables, for
// shape-functions.test: relax-run and the C example size inputs and check
// outputs with each entry's generated shape function. @main's first
// parameter only uses n and k (bound by the second), so an overflowing
// n * 4 is met before any tensor is allocated.
relax.func @main(%y: !relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, %x: !relax.tensor<[n, k], f32>, %z: !relax.tensor<[n + 1], i32>) -> tuple<!relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, !relax.tensor<[n + 1], i32>, !relax.tensor<[n, k], f32>> {
  %y2 = relax.add %y, %y : (!relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, !relax.tensor<[n * 4, (k + 31) floordiv 32], f32>) -> !relax.tensor<[n * 4, (k + 31) floordiv 32], f32>
  %t = relax.tuple %y2, %z, %x : !relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, !relax.tensor<[n + 1], i32>, !relax.tensor<[n, k], f32>
  relax.return %t : tuple<!relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, !relax.tensor<[n + 1], i32>, !relax.tensor<[n, k], f32>>
}

// The output's size m is read from the data (tensor_to_shape) and bounded by
// sym_bounds only: no shape function knows it before the call.
relax.func @from_data(%s: !relax.tensor<[1], i64>) -> !relax.tensor<[m, 2], f32> attributes {sym_bounds = {m = array<i64: 0, 64>}} {
  %shape = relax.tensor_to_shape %s : !relax.tensor<[1], i64> to !relax.shape<[m]>
  %z = relax.zeros {dtype = f32, shape = #relax.shape<[m, 2]>} : !relax.tensor<[m, 2], f32>
  relax.return %z : !relax.tensor<[m, 2], f32>
}

// A parameter dim that is negative for small n: no size.
relax.func @shrink(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n - 2], f32>) -> !relax.tensor<[n - 2], f32> {
  relax.return %y : !relax.tensor<[n - 2], f32>
}
