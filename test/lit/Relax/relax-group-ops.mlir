// RUN: relax-opt --relax-legalize-ops --relax-annotate-op-pattern --relax-group-ops %s | FileCheck %s
// RUN: relax-opt --relax-legalize-ops --relax-annotate-op-pattern --relax-group-ops=max-group-size=2 %s | FileCheck %s --check-prefix=MAX2

// --relax-group-ops alone: it only marks the calls of each group.

// An elementwise chain is one group; with max-group-size=2 it splits in two.
// CHECK-LABEL: relax.func @chain
// CHECK: @T_exp(%arg0) {relax.fusion_group = [[G:[0-9]+]] : i64}
// CHECK-NEXT: @T_tanh(%{{.*}}) {relax.fusion_group = [[G]] : i64}
// CHECK-NEXT: @T_sigmoid(%{{.*}}) {relax.fusion_group = [[G]] : i64}
// CHECK-NEXT: @T_relu(%{{.*}}) {relax.fusion_group = [[G]] : i64}
// MAX2-LABEL: relax.func @chain
// MAX2: @T_exp(%arg0) {relax.fusion_group = [[A:[0-9]+]] : i64}
// MAX2-NEXT: @T_tanh(%{{.*}}) {relax.fusion_group = [[A]] : i64}
// MAX2-NEXT: @T_sigmoid(%{{.*}}) {relax.fusion_group = [[B:[0-9]+]] : i64}
// MAX2-NEXT: @T_relu(%{{.*}}) {relax.fusion_group = [[B]] : i64}
relax.func @chain(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n], f32> {
    %a = relax.exp %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %b = relax.tanh %a : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %c = relax.sigmoid %b : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %d = relax.relu %c : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.output %d : !relax.tensor<[n], f32>
  }
  relax.return %0 : !relax.tensor<[n], f32>
}

// exp feeds two branches that meet at the add: the add post-dominates exp,
// so all four join; the matmul reading the add's result does not take a
// producer (each element would be recomputed once per output column).
// With max-group-size=2 only tanh and add fit (exp's group would be 4).
// CHECK-LABEL: relax.func @diamond
// CHECK: @T_exp_1(%arg0) {relax.fusion_group = [[D:[0-9]+]] : i64}
// CHECK-NEXT: @T_tanh_1(%{{.*}}) {relax.fusion_group = [[D]] : i64}
// CHECK-NEXT: @T_sigmoid_1(%{{.*}}) {relax.fusion_group = [[D]] : i64}
// CHECK-NEXT: @T_add(%{{.*}}) {relax.fusion_group = [[D]] : i64}
// CHECK-NEXT: @T_matmul(%{{.*}}, %arg1) :
// MAX2-LABEL: relax.func @diamond
// MAX2: @T_exp_1(%arg0) :
// MAX2-NEXT: @T_tanh_1(%{{.*}}) {relax.fusion_group = [[C:[0-9]+]] : i64}
// MAX2-NEXT: @T_sigmoid_1(%{{.*}}) :
// MAX2-NEXT: @T_add(%{{.*}}) {relax.fusion_group = [[C]] : i64}
relax.func @diamond(%x: !relax.tensor<[n, m], f32>, %w: !relax.tensor<[m, k], f32>) -> !relax.tensor<[n, k], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, k], f32> {
    %e = relax.exp %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %a = relax.tanh %e : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %b = relax.sigmoid %e : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %s = relax.add %a, %b : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %mm = relax.matmul %s, %w : (!relax.tensor<[n, m], f32>, !relax.tensor<[m, k], f32>) -> !relax.tensor<[n, k], f32>
    relax.output %mm : !relax.tensor<[n, k], f32>
  }
  relax.return %0 : !relax.tensor<[n, k], f32>
}

// Ops that are not calls are opaque: the match_cast between exp and tanh
// keeps them apart, while the calls after it still group.
// CHECK-LABEL: relax.func @cast_between
// CHECK: @T_exp(%arg0) :
// CHECK-NEXT: relax.match_cast
// CHECK-NEXT: @T_tanh_2(%{{.*}}) {relax.fusion_group = [[E:[0-9]+]] : i64}
// CHECK-NEXT: @T_relu_1(%{{.*}}) {relax.fusion_group = [[E]] : i64}
relax.func @cast_between(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[m], f32>) -> !relax.tensor<[m], f32> {
  %0 = relax.dataflow -> !relax.tensor<[m], f32> {
    %a = relax.exp %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %c = relax.match_cast %a : !relax.tensor<[n], f32> to !relax.tensor<[m], f32>
    %b = relax.tanh %c : (!relax.tensor<[m], f32>) -> !relax.tensor<[m], f32>
    %d = relax.relu %b : (!relax.tensor<[m], f32>) -> !relax.tensor<[m], f32>
    relax.output %d : !relax.tensor<[m], f32>
  }
  relax.return %0 : !relax.tensor<[m], f32>
}
