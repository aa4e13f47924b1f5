// A manipulation op whose result has an unknown dim cannot be legalized:
// the pass fails with a located error instead of guessing.
// RUN: relax-opt %s --relax-legalize-ops --verify-diagnostics

relax.func @reshape_unknown(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<[?, 4], f32> {
  // expected-error @+1 {{cannot be legalized}}
  %y = relax.reshape %x {shape = #relax.shape<[-1, 4]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[?, 4], f32>
  relax.return %y : !relax.tensor<[?, 4], f32>
}
