// RUN: relax-opt %s --relax-shard > %t 2>&1; test $? -eq 1
// RUN: FileCheck %s < %t
// The number of ranks has no useful default: it must be given.
// CHECK: error: relax-shard: num-ranks must be at least 1, got 0 (--relax-shard="num-ranks=N")
relax.func @f(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  relax.return %x : !relax.tensor<[4], f32>
}
