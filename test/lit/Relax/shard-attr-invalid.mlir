// RUN: relax-opt %s -split-input-file -verify-diagnostics

// The attribute's own checks, when it is parsed (the axis against the
// tensor's rank is --relax-shard's: relax-shard-invalid.mlir).

// expected-error@+1 {{#relax.shard: the split axis must be >= 0, got -1}}
relax.func @negative(%x: !relax.tensor<[4], f32> {relax.shard = #relax.shard<split = -1>}) -> !relax.tensor<[4], f32> {
  relax.return %x : !relax.tensor<[4], f32>
}

// -----

// expected-error@+1 {{#relax.shard: expected 'replicated' or 'split = <axis>'}}
relax.func @keyword(%x: !relax.tensor<[4], f32> {relax.shard = #relax.shard<rows>}) -> !relax.tensor<[4], f32> {
  relax.return %x : !relax.tensor<[4], f32>
}
