// RUN: relax-opt %s --relax-shard=num-ranks=2 > %t2.mlir
// RUN: FileCheck %s < %t2.mlir
// RUN: relax-opt %s --relax-shard=num-ranks=3 | FileCheck %s --check-prefix=THREE
//
// Split dims that are symbolic (docs/llm.md, "Sharding annotations"): 2 * k
// divides by 2 (proven: the rank holds k rows); n does not provably divide,
// so the rank holds n floordiv 2 rows and the function starts with a
// run-time check that n is even (n is bound by %len, a replicated
// parameter). With 3 ranks neither is provable: two checks.
// CHECK-LABEL: relax.func @symbolic(
// CHECK-SAME: %{{.*}}: !relax.tensor<[k, 8], f32>, %{{.*}}: !relax.tensor<[n floordiv 2, 8], f32>)
// CHECK-SAME: -> (!relax.tensor<[k, 8], f32>, !relax.tensor<[n floordiv 2, 8], f32>)
// CHECK-NEXT: relax.assert_dims #relax.expr<n mod 2> "eq" #relax.expr<0>, "relax-shard", "parameter #3 axis 0 divisible by 2 ranks"
// CHECK-NEXT: relax.exp %{{.*}} : (!relax.tensor<[k, 8], f32>) -> !relax.tensor<[k, 8], f32>
// THREE-LABEL: relax.func @symbolic(
// THREE-SAME: %{{.*}}: !relax.tensor<[k + -k floordiv 3, 8], f32>, %{{.*}}: !relax.tensor<[n floordiv 3, 8], f32>)
// THREE-NEXT: relax.assert_dims #relax.expr<-k mod 3> "eq" #relax.expr<0>, "relax-shard", "parameter #2 axis 0 divisible by 3 ranks"
// THREE-NEXT: relax.assert_dims #relax.expr<n mod 3> "eq" #relax.expr<0>, "relax-shard", "parameter #3 axis 0 divisible by 3 ranks"
//
// The rank program runs where n is even (its [n floordiv 2, 8] slice is
// [3, 8] for n = 6) and refuses an odd n with the check's message.
// RUN: relax-run %t2.mlir --entry symbolic --random-inputs --dim n=6 --dim k=2 | FileCheck %s --check-prefix=OUT
// RUN: relax-run %t2.mlir --entry symbolic --random-inputs --dim n=5 --dim k=2 > %t.odd 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ODD < %t.odd
// OUT-DAG: output #0: f32 [2, 8]
// OUT-DAG: output #1: f32 [3, 8]
// ODD: relax-run: error: symbolic: relax-shard at {{.*}}: parameter #3 axis 0 divisible by 2 ranks: expected n mod 2 == 0, got n mod 2 = 1
relax.func @symbolic(%len: !relax.tensor<[n], f32>, %klen: !relax.tensor<[k], f32>,
    %a: !relax.tensor<[2 * k, 8], f32> {relax.shard = #relax.shard<split = 0>},
    %b: !relax.tensor<[n, 8], f32> {relax.shard = #relax.shard<split = 0>})
    -> (!relax.tensor<[2 * k, 8], f32>, !relax.tensor<[n, 8], f32>) {
  %ea = relax.exp %a : (!relax.tensor<[2 * k, 8], f32>) -> !relax.tensor<[2 * k, 8], f32>
  %eb = relax.exp %b : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n, 8], f32>
  relax.return %ea, %eb : !relax.tensor<[2 * k, 8], f32>, !relax.tensor<[n, 8], f32>
}
