// The GPU reduction benchmarks over a symbolic [m, k]: row sums and a
// softmax over the symbolic axis k.
relax.func @main(%x: !relax.tensor<[m, k], f32>)
    -> (!relax.tensor<[m], f32>, !relax.tensor<[m, k], f32>) {
  %s = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[m, k], f32>) -> !relax.tensor<[m], f32>
  %p = relax.softmax %x : (!relax.tensor<[m, k], f32>) -> !relax.tensor<[m, k], f32>
  relax.return %s, %p : !relax.tensor<[m], f32>, !relax.tensor<[m, k], f32>
}
