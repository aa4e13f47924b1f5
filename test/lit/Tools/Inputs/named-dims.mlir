// Parameters with names (relax.name, as the ONNX importer sets them) and
// two symbolic variables in one dim: relax-run's messages for a missing or
// misspelled --dim name the parameter and the variables.
relax.func @main(%ids: !relax.tensor<[b, s], i32> {relax.name = "input_ids"}, %mask: !relax.tensor<[b, s + p], f32> {relax.name = "mask"}, %past: !relax.tensor<[p], f32> {relax.name = "past"}) -> !relax.tensor<[b, s], i32> {
  relax.return %ids : !relax.tensor<[b, s], i32>
}

// No symbolic dim at all.
relax.func @fixed(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  relax.return %x : !relax.tensor<[4], f32>
}
