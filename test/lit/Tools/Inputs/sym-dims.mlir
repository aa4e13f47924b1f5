// Parameters sized by expressions of the symbolic variables (sums,
// products, max, floordiv, mod): relax-run sizes random inputs for a
// library from the dims its metadata prints, with --dim binding only the
// variables. The entry returns its inputs, so the shapes show.
relax.func @main(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[n * 2 + 1], i32>, %z: !relax.tensor<[max(n, m), (n + m) floordiv 2, m mod 3], f32>) -> tuple<!relax.tensor<[n, m], f32>, !relax.tensor<[n * 2 + 1], i32>, !relax.tensor<[max(n, m), (n + m) floordiv 2, m mod 3], f32>> {
  %t = relax.tuple %x, %y, %z : !relax.tensor<[n, m], f32>, !relax.tensor<[n * 2 + 1], i32>, !relax.tensor<[max(n, m), (n + m) floordiv 2, m mod 3], f32>
  relax.return %t : tuple<!relax.tensor<[n, m], f32>, !relax.tensor<[n * 2 + 1], i32>, !relax.tensor<[max(n, m), (n + m) floordiv 2, m mod 3], f32>>
}
