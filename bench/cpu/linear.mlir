// The decode-step product of bench/cpu/roofline.sh in torch's layout:
// y = x W^T with W stored [n, k] (relax.linear), symbolic sizes.
relax.func @main(%x: !relax.tensor<[m, k], f32>, %w: !relax.tensor<[n, k], f32>)
    -> !relax.tensor<[m, n], f32> {
  %y = relax.linear %x, %w : (!relax.tensor<[m, k], f32>, !relax.tensor<[n, k], f32>) -> !relax.tensor<[m, n], f32>
  relax.return %y : !relax.tensor<[m, n], f32>
}
