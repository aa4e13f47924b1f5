// RUN: relax-opt %s -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --mlir-print-op-generic | relax-opt -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --relax-legalize-ops --relax-fuse-ops | FileCheck %s --check-prefix=FUSE
// RUN: relax-opt %s -split-input-file --relax-verify-well-formed

// A carried value that grows by a row an iteration: [0, n] on entry, [k, n]
// carried (k bound at each iteration and after the loop), [k + 1, n]
// yielded. The ops of the body fuse with each other (multiply + add), never
// with the ops around the loop (the negate before it and the add after it).
// CHECK-LABEL: relax.func @grow
// CHECK: %[[R:.*]]:2 = relax.while %{{.*}} : !relax.tensor<[], i1> iter_args(%{{.*}}, %{{.*}} : !relax.tensor<[], i64>, !relax.tensor<[0, n], f32>) -> !relax.tensor<[], i64>, !relax.tensor<[k, n], f32> {
// CHECK: ^bb0(%[[I:.*]]: !relax.tensor<[], i64>, %[[A:.*]]: !relax.tensor<[k, n], f32>):
// CHECK:   relax.loop_yield %{{.*}}, %{{.*}}, %{{.*}} : !relax.tensor<[], i1>, !relax.tensor<[], i64>, !relax.tensor<[k + 1, n], f32>
// CHECK: }
// CHECK: relax.add %[[R]]#1, %[[R]]#1 : (!relax.tensor<[k, n], f32>, !relax.tensor<[k, n], f32>) -> !relax.tensor<[k, n], f32>
// FUSE-LABEL: relax.func @grow
// FUSE: relax.call_tir @T_negative
// FUSE: relax.while
// FUSE: relax.call_tir @fused_multiply_add_expand_dims_concat
// FUSE: relax.loop_yield
// FUSE: relax.call_tir @T_add_2(
relax.func @grow(%x: !relax.tensor<[n], f32>, %m: !relax.tensor<[], i64>)
    -> !relax.tensor<[k, n], f32> {
  %zero = relax.constant dense<0> : tensor<i64>
  %one = relax.constant dense<1> : tensor<i64>
  %h = relax.constant dense<0.5> : tensor<f32>
  %nx = relax.negative %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %c0 = relax.less %zero, %m : (!relax.tensor<[], i64>, !relax.tensor<[], i64>) -> !relax.tensor<[], i1>
  %e = relax.zeros {shape = #relax.shape<[0, n]>, dtype = f32} : !relax.tensor<[0, n], f32>
  %i, %acc = relax.while %c0 : !relax.tensor<[], i1>
      iter_args(%zero, %e : !relax.tensor<[], i64>, !relax.tensor<[0, n], f32>)
      -> !relax.tensor<[], i64>, !relax.tensor<[k, n], f32> {
  ^bb0(%it: !relax.tensor<[], i64>, %a: !relax.tensor<[k, n], f32>):
    %p = relax.multiply %nx, %h : (!relax.tensor<[n], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[n], f32>
    %q = relax.add %p, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %row = relax.expand_dims %q {axes = array<i64: 0>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[1, n], f32>
    %y = relax.concat %a, %row {axis = 0 : i64} : (!relax.tensor<[k, n], f32>, !relax.tensor<[1, n], f32>) -> !relax.tensor<[k + 1, n], f32>
    %i1 = relax.add %it, %one : (!relax.tensor<[], i64>, !relax.tensor<[], i64>) -> !relax.tensor<[], i64>
    %c = relax.less %i1, %m : (!relax.tensor<[], i64>, !relax.tensor<[], i64>) -> !relax.tensor<[], i1>
    relax.loop_yield %c, %i1, %y : !relax.tensor<[], i1>, !relax.tensor<[], i64>, !relax.tensor<[k + 1, n], f32>
  }
  %z = relax.add %acc, %acc : (!relax.tensor<[k, n], f32>, !relax.tensor<[k, n], f32>) -> !relax.tensor<[k, n], f32>
  relax.return %z : !relax.tensor<[k, n], f32>
}

// -----

// A loop may sit in a dataflow region (as the ONNX importer writes it), with
// a run-time check (match_cast) in its body and an if nested in it.
// CHECK-LABEL: relax.func @in_dataflow
// CHECK: relax.dataflow
// CHECK: relax.while
// CHECK: relax.match_cast
// CHECK: relax.if
relax.func @in_dataflow(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  %r = relax.dataflow -> !relax.tensor<[k], f32> {
    %w = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[k], f32> {
    ^bb0(%a: !relax.tensor<[k], f32>):
      %m = relax.match_cast %a : !relax.tensor<[k], f32> to !relax.tensor<[j], f32>
      %y = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[i], f32> {
        relax.yield %m : !relax.tensor<[j], f32>
      } else {
        %z = relax.concat %m, %m {axis = 0 : i64} : (!relax.tensor<[j], f32>, !relax.tensor<[j], f32>) -> !relax.tensor<[j * 2], f32>
        relax.yield %z : !relax.tensor<[j * 2], f32>
      }
      relax.loop_yield %c, %y : !relax.tensor<[], i1>, !relax.tensor<[i], f32>
    }
    relax.output %w : !relax.tensor<[k], f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}
