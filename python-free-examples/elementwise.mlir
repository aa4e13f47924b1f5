// A small relax program with a symbolic batch dimension: y = exp(x) + b,
// with b broadcast over the rows. Shapes are checked symbolically when the
// module is parsed.
relax.func @main(%x: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], f32>)
    -> !relax.tensor<[n, 4], f32>
    attributes {sym_bounds = {n = array<i64: 1, 4096>}} {
  %y = relax.dataflow -> !relax.tensor<[n, 4], f32> {
    %e = relax.exp %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %s = relax.add %e, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
    relax.output %s : !relax.tensor<[n, 4], f32>
  }
  relax.return %y : !relax.tensor<[n, 4], f32>
}
