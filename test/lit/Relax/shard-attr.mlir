// RUN: relax-opt %s -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --mlir-print-op-generic | relax-opt -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --relax-shard=num-ranks=1 | FileCheck %s --check-prefix=ONE

// #relax.shard on parameters round-trips (also through the generic form),
// and --relax-shard consumes it: num-ranks=1 keeps every dim and drops the
// annotations.
// CHECK-LABEL: relax.func @annotated
// CHECK-SAME: {relax.shard = #relax.shard<split = 1>}
// CHECK-SAME: {relax.shard = #relax.shard<replicated>}
// ONE-LABEL: relax.func @annotated(%{{.*}}: !relax.tensor<[4, 8], f32>, %{{.*}}: !relax.tensor<[n], f32>)
// ONE-NOT: relax.shard
relax.func @annotated(%x: !relax.tensor<[4, 8], f32> {relax.shard = #relax.shard<split = 1>},
                      %y: !relax.tensor<[n], f32> {relax.shard = #relax.shard<replicated>})
    -> !relax.tensor<[4, 8], f32> {
  relax.return %x : !relax.tensor<[4, 8], f32>
}
