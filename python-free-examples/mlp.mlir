// A 2-layer MLP over a symbolic batch n: relu(x W1 + b1) W2 + b2.
// Run it: relax-run mlp.mlir --random-inputs --dim n=7
relax.func @main(%x: !relax.tensor<[n, 32], f32> {relax.name = "x"},
                 %w1: !relax.tensor<[32, 64], f32> {relax.name = "w1"},
                 %b1: !relax.tensor<[64], f32> {relax.name = "b1"},
                 %w2: !relax.tensor<[64, 10], f32> {relax.name = "w2"},
                 %b2: !relax.tensor<[10], f32> {relax.name = "b2"})
    -> !relax.tensor<[n, 10], f32> {
  %out = relax.dataflow -> !relax.tensor<[n, 10], f32> {
    %h0 = relax.matmul %x, %w1 : (!relax.tensor<[n, 32], f32>, !relax.tensor<[32, 64], f32>) -> !relax.tensor<[n, 64], f32>
    %h1 = relax.add %h0, %b1 : (!relax.tensor<[n, 64], f32>, !relax.tensor<[64], f32>) -> !relax.tensor<[n, 64], f32>
    %h = relax.relu %h1 : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    %y0 = relax.matmul %h, %w2 : (!relax.tensor<[n, 64], f32>, !relax.tensor<[64, 10], f32>) -> !relax.tensor<[n, 10], f32>
    %y = relax.add %y0, %b2 : (!relax.tensor<[n, 10], f32>, !relax.tensor<[10], f32>) -> !relax.tensor<[n, 10], f32>
    relax.output %y : !relax.tensor<[n, 10], f32>
  }
  relax.return %out : !relax.tensor<[n, 10], f32>
}
