// RUN: relax-opt --relax-emit-shape-functions -split-input-file -verify-diagnostics %s

// The symbol of the shape function is taken already.
// expected-error @below {{cannot generate the shape function of 'main': the module has a symbol 'main__shapes' already}}
relax.func @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  relax.return %x : !relax.tensor<[n], f32>
}
func.func @main__shapes() {
  return
}
