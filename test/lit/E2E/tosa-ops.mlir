// The TOSA ops the three model tests do not cover, numerically: elementwise
// math, comparisons and select, float -> integer cast (round half to even),
// slice, pad, concat, tile, reverse, reductions, argmax and gather, on two
// inputs whose dynamic dims are two variables (so results of both are bound
// by relax.match_cast and checked at run time) and indices of dynamic
// length.
// Converted to relax and run by relax-run, against upstream's TOSA -> linalg
// -> LLVM path on the same inputs (test/lit/E2E/tosa_ref.py): rtol 1e-5,
// atol 1e-6; integer results exact.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/tosa_ref.py reference %s %t/a --func ops --shape 5x6 --shape 5x6 --shape 1x7 --int-high 10 --seed 1 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry ops $(cat %t/a/args) --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --entry ops $(cat %t/a/args) --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/tosa_ref.py reference %s %t/b --func ops --shape 1x6 --shape 1x6 --shape 1x1 --int-high 10 --seed 2 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry ops $(cat %t/b/args) --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 7 outputs match

func.func @ops(%x: tensor<?x6xf32>, %y: tensor<?x6xf32>, %idx: tensor<1x?xi32>) -> (tensor<?x6xf32>, tensor<?x15xf32>, tensor<?xi32>, tensor<?x6xi32>, tensor<1x?x4xf32>, tensor<?x3xf32>, tensor<?x6xf32>) {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %half = "tosa.const"() {values = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %one = "tosa.const"() {values = dense<1.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %four = "tosa.const"() {values = dense<4.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  // Elementwise math.
  %a = tosa.add %x, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %mx = tosa.maximum %a, %x : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %mn = tosa.minimum %mx, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %ax = tosa.abs %x : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %base = tosa.add %ax, %half : (tensor<?x6xf32>, tensor<1x1xf32>) -> tensor<?x6xf32>
  %pw = tosa.pow %base, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %nx = tosa.negate %x, %zp, %zp : (tensor<?x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x6xf32>
  %ex = tosa.exp %nx : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %ay = tosa.abs %y : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %ay1 = tosa.add %ay, %one : (tensor<?x6xf32>, tensor<1x1xf32>) -> tensor<?x6xf32>
  %lg = tosa.log %ay1 : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %th = tosa.tanh %a : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %er = tosa.erf %y : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %x4 = tosa.mul %x, %four, %shift : (tensor<?x6xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<?x6xf32>
  %fl = tosa.floor %x4 : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %ce = tosa.ceil %x4 : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %gt = tosa.greater %x, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xi1>
  %ge = tosa.greater_equal %mn, %th : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xi1>
  %eq = tosa.equal %fl, %ce : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xi1>
  %c1 = tosa.logical_or %gt, %eq : (tensor<?x6xi1>, tensor<?x6xi1>) -> tensor<?x6xi1>
  %c2 = tosa.logical_and %c1, %ge : (tensor<?x6xi1>, tensor<?x6xi1>) -> tensor<?x6xi1>
  %c3 = tosa.logical_not %c2 : (tensor<?x6xi1>) -> tensor<?x6xi1>
  %s1 = tosa.select %c3, %pw, %ex : (tensor<?x6xi1>, tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %t1 = tosa.add %s1, %lg : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %t2 = tosa.sub %t1, %er : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %t3 = tosa.mul %fl, %ce, %shift : (tensor<?x6xf32>, tensor<?x6xf32>, tensor<1xi8>) -> tensor<?x6xf32>
  %r0 = tosa.add %t2, %t3 : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  // Data movement: [n, 6] ++ pad(slice) [n, 6] ++ slice [n, 3].
  %st = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sz = tosa.const_shape {values = dense<[-1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sl = tosa.slice %y, %st, %sz : (tensor<?x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x3xf32>
  %pads = tosa.const_shape {values = dense<[0, 0, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pv = "tosa.const"() {values = dense<0.25> : tensor<1xf32>} : () -> tensor<1xf32>
  %pd = tosa.pad %sl, %pads, %pv : (tensor<?x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x6xf32>
  %r1 = tosa.concat %x, %pd, %sl {axis = 1 : i32} : (tensor<?x6xf32>, tensor<?x6xf32>, tensor<?x3xf32>) -> tensor<?x15xf32>
  // Argmax and a float -> integer cast.
  %r2 = tosa.argmax %a {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?xi32>
  %ten = "tosa.const"() {values = dense<10.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %x10 = tosa.mul %x, %ten, %shift : (tensor<?x6xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<?x6xf32>
  %r3 = tosa.cast %x10 : (tensor<?x6xf32>) -> tensor<?x6xi32>
  // Embedding lookup: gather rows of a [1, 10, 4] table; each row plus the
  // sum of its tiling [1, k, 8].
  %table = "tosa.const"() {values = dense<[[[0.0, 0.1, 0.2, 0.3], [1.0, 1.1, 1.2, 1.3], [2.0, 2.1, 2.2, 2.3], [3.0, 3.1, 3.2, 3.3], [4.0, 4.1, 4.2, 4.3], [5.0, 5.1, 5.2, 5.3], [6.0, 6.1, 6.2, 6.3], [7.0, 7.1, 7.2, 7.3], [8.0, 8.1, 8.2, 8.3], [9.0, 9.1, 9.2, 9.3]]]> : tensor<1x10x4xf32>} : () -> tensor<1x10x4xf32>
  %g = tosa.gather %table, %idx : (tensor<1x10x4xf32>, tensor<1x?xi32>) -> tensor<1x?x4xf32>
  %m = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %tl = tosa.tile %g, %m : (tensor<1x?x4xf32>, !tosa.shape<3>) -> tensor<1x?x8xf32>
  %ts = tosa.reduce_sum %tl {axis = 2 : i32} : (tensor<1x?x8xf32>) -> tensor<1x?x1xf32>
  %r4 = tosa.add %g, %ts : (tensor<1x?x4xf32>, tensor<1x?x1xf32>) -> tensor<1x?x4xf32>
  // Reductions along the rows.
  %rmin = tosa.reduce_min %x {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?x1xf32>
  %rprod = tosa.reduce_product %base {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?x1xf32>
  %rmax = tosa.reduce_max %y {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?x1xf32>
  %r5 = tosa.concat %rmin, %rprod, %rmax {axis = 1 : i32} : (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x3xf32>
  // Reversals along a dynamic and a static dim.
  %rv0 = tosa.reverse %x {axis = 0 : i32} : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %rv1 = tosa.reverse %y {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %r6 = tosa.sub %rv0, %rv1 : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<?x6xf32>, tensor<?x15xf32>, tensor<?xi32>, tensor<?x6xi32>, tensor<1x?x4xf32>, tensor<?x3xf32>, tensor<?x6xf32>
}
