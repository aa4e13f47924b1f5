// RUN: relax-opt --relax-legalize-ops -split-input-file -verify-diagnostics %s
// RUN: relax-opt --relax-legalize-ops %s > /dev/null 2>&1; test $? -eq 1

// A relax op in a func.func verifies, but only relax functions are graphs
// the pass legalizes: it names the op instead of leaving it for the host
// lowering to trip on.
func.func @outside(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  // expected-error @below {{'relax.add' op is outside a relax.func: --relax-legalize-ops legalizes the ops of relax functions}}
  %y = relax.add %x, %x : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  return %y : !relax.tensor<[n, 4], f32>
}

// -----

// The same op in a relax.func next to it is legalized.
relax.func @inside(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.add %x, %x : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %y : !relax.tensor<[n, 4], f32>
}
func.func @outside_too(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  // expected-error @below {{'relax.exp' op is outside a relax.func}}
  %y = relax.exp %x : (!relax.tensor<[4], f32>) -> !relax.tensor<[4], f32>
  return %y : !relax.tensor<[4], f32>
}
