// A module whose one parameter spans whole pages (64x64 f32 = 16 KiB):
// relax-compile moves it to the parameter file, aligned to a page, and the
// loader makes those pages read-only once filled (library-readonly-params.test).
relax.func @main(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32> {
  %w = relax.constant dense<0.5> : tensor<64x64xf32>
  %y = relax.matmul %x, %w : (!relax.tensor<[n, 64], f32>, !relax.tensor<[64, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %y : !relax.tensor<[n, 64], f32>
}
