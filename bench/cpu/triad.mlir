// The elementwise-chain benchmark: a = b + 2 * c over a symbolic length n,
// as two relax ops: unfused, the intermediate makes a round trip through
// memory; with --relax-fuse-ops (relax-run --fuse) it is one loop.
relax.func @main(%b: !relax.tensor<[n], f32>, %c: !relax.tensor<[n], f32>)
    -> !relax.tensor<[n], f32> {
  %two = relax.constant dense<2.0> : tensor<1xf32>
  %t = relax.multiply %c, %two : (!relax.tensor<[n], f32>, !relax.tensor<[1], f32>) -> !relax.tensor<[n], f32>
  %a = relax.add %b, %t : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %a : !relax.tensor<[n], f32>
}
