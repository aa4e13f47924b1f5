// RUN: relax-opt --convert-tosa-to-relax %s | FileCheck %s
// RUN: relax-opt --convert-tosa-to-relax="dim-names=n,n,k" %s | FileCheck %s --check-prefix=NAMED
// The converted module verifies and round-trips.
// RUN: relax-opt --convert-tosa-to-relax %s | relax-opt | FileCheck %s

// `?` dims of the arguments become argI_dJ (or the dim-names, in order; a
// name given twice is one variable). Elementwise operands with dims relax
// cannot match ([arg0_d0, 6] + [arg1_d0, 6]) are broadcast_to the
// max(arg0_d0, arg1_d0) dims (checked at run time: each 1 or the result's).
// CHECK-LABEL: relax.func @elementwise(%arg0: !relax.tensor<[arg0_d0, 6], f32>, %arg1: !relax.tensor<[arg1_d0, 6], f32>) -> (!relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>, !relax.tensor<[arg0_d0, 6], f32>)
// CHECK: relax.dataflow
// CHECK: %[[BX:.*]] = relax.broadcast_to %arg0 {shape = #relax.shape<[max(arg0_d0, arg1_d0), 6]>} : (!relax.tensor<[arg0_d0, 6], f32>) -> !relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>
// CHECK: %[[BY:.*]] = relax.broadcast_to %arg1 {shape = #relax.shape<[max(arg0_d0, arg1_d0), 6]>} : (!relax.tensor<[arg1_d0, 6], f32>) -> !relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>
// CHECK: %[[A:.*]] = relax.add %[[BX]], %[[BY]] : (!relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>, !relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>) -> !relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>
// CHECK: %[[BY2:.*]] = relax.broadcast_to %arg1
// CHECK: relax.subtract %[[A]], %[[BY2]]
// CHECK: relax.multiply
// CHECK: relax.maximum
// CHECK: relax.minimum
// CHECK: relax.power
// CHECK: relax.exp
// CHECK: relax.log
// CHECK: relax.tanh
// CHECK: relax.sigmoid
// CHECK: relax.erf
// CHECK: relax.abs
// CHECK: relax.negative
// CHECK: relax.floor
// CHECK: relax.ceil
// CHECK: relax.rsqrt
// CHECK: relax.clip %{{.*}} {max = 1.000000e+00 : f64, min = -1.000000e+00 : f64}
// NAMED-LABEL: relax.func @elementwise(%arg0: !relax.tensor<[n, 6], f32>, %arg1: !relax.tensor<[n, 6], f32>) -> (!relax.tensor<[n, 6], f32>, !relax.tensor<[n, 6], f32>)
// NAMED-NOT: relax.broadcast_to
// NAMED: relax.output
func.func @elementwise(%x: tensor<?x6xf32>, %y: tensor<?x6xf32>) -> (tensor<?x6xf32>, tensor<?x6xf32>) {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %a = tosa.add %x, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %b = tosa.sub %a, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %c = tosa.mul %b, %x, %shift : (tensor<?x6xf32>, tensor<?x6xf32>, tensor<1xi8>) -> tensor<?x6xf32>
  %d = tosa.maximum %c, %x : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %e = tosa.minimum %d, %x : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %f = tosa.pow %e, %x : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %g = tosa.exp %f : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %h = tosa.log %g : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %i = tosa.tanh %h : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %j = tosa.sigmoid %i : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %k = tosa.erf %j : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %l = tosa.abs %k : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %m = tosa.negate %l, %zp, %zp : (tensor<?x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x6xf32>
  %n = tosa.floor %m : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %o = tosa.ceil %n : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %p = tosa.rsqrt %o : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %q = tosa.clamp %x {min_val = -1.0 : f32, max_val = 1.0 : f32} : (tensor<?x6xf32>) -> tensor<?x6xf32>
  return %p, %q : tensor<?x6xf32>, tensor<?x6xf32>
}

// Shapes come from tosa.const_shape: reshape's -1 is computed symbolically,
// a slice size of -1 runs to the end.
// CHECK-LABEL: relax.func @shapes(%arg0: !relax.tensor<[arg0_d0, arg0_d1, 6], f32>)
// CHECK: relax.reshape %arg0 {shape = #relax.shape<[arg0_d0 * arg0_d1, 6]>} : (!relax.tensor<[arg0_d0, arg0_d1, 6], f32>) -> !relax.tensor<[arg0_d0 * arg0_d1, 6], f32>
// CHECK: relax.reshape %arg0 {shape = #relax.shape<[arg0_d0 * arg0_d1, 3, 2]>}
// CHECK: relax.permute_dims %arg0 {axes = array<i64: 2, 0, 1>} : (!relax.tensor<[arg0_d0, arg0_d1, 6], f32>) -> !relax.tensor<[6, arg0_d0, arg0_d1], f32>
// CHECK: relax.strided_slice %arg0 {axes = array<i64: 0, 1, 2>, begin = #relax.shape<[0, 1, 2]>, end = #relax.shape<[arg0_d0, arg0_d1, 5]>} : (!relax.tensor<[arg0_d0, arg0_d1, 6], f32>) -> !relax.tensor<[arg0_d0, arg0_d1 - min(arg0_d1, 1), 3], f32>
// CHECK: relax.concat %arg0, %arg0 {axis = 2 : i64} : (!relax.tensor<[arg0_d0, arg0_d1, 6], f32>, !relax.tensor<[arg0_d0, arg0_d1, 6], f32>) -> !relax.tensor<[arg0_d0, arg0_d1, 12], f32>
// CHECK: relax.tile %arg0 {repeats = array<i64: 1, 2, 1>} : (!relax.tensor<[arg0_d0, arg0_d1, 6], f32>) -> !relax.tensor<[arg0_d0, arg0_d1 * 2, 6], f32>
// CHECK: relax.strided_slice %arg0 {axes = array<i64: 1>, begin = #relax.shape<[arg0_d1 - 1]>, end = #relax.shape<[-arg0_d1 - 1]>, strides = array<i64: -1>} : (!relax.tensor<[arg0_d0, arg0_d1, 6], f32>) -> !relax.tensor<[arg0_d0, arg0_d1, 6], f32>
// CHECK: relax.pad %arg0 {pad_after = #relax.shape<[0, 0, 2]>, pad_before = #relax.shape<[0, 1, 0]>, value = 5.000000e-01 : f64} : (!relax.tensor<[arg0_d0, arg0_d1, 6], f32>) -> !relax.tensor<[arg0_d0, arg0_d1 + 1, 8], f32>
// NAMED-LABEL: relax.func @shapes(%arg0: !relax.tensor<[n, n, 6], f32>)
func.func @shapes(%x: tensor<?x?x6xf32>) -> (tensor<?x6xf32>, tensor<?x3x2xf32>, tensor<6x?x?xf32>, tensor<?x?x3xf32>, tensor<?x?x12xf32>, tensor<?x?x6xf32>, tensor<?x?x8xf32>, tensor<?x?x6xf32>) {
  %s2 = tosa.const_shape {values = dense<[-1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a = tosa.reshape %x, %s2 : (tensor<?x?x6xf32>, !tosa.shape<2>) -> tensor<?x6xf32>
  %s3 = tosa.const_shape {values = dense<[-1, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %b = tosa.reshape %x, %s3 : (tensor<?x?x6xf32>, !tosa.shape<3>) -> tensor<?x3x2xf32>
  %c = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<?x?x6xf32>) -> tensor<6x?x?xf32>
  %st = tosa.const_shape {values = dense<[0, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sz = tosa.const_shape {values = dense<[-1, -1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %d = tosa.slice %x, %st, %sz : (tensor<?x?x6xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<?x?x3xf32>
  %e = tosa.concat %x, %x {axis = 2 : i32} : (tensor<?x?x6xf32>, tensor<?x?x6xf32>) -> tensor<?x?x12xf32>
  %m = tosa.const_shape {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %f = tosa.tile %x, %m : (tensor<?x?x6xf32>, !tosa.shape<3>) -> tensor<?x?x6xf32>
  %rv = tosa.reverse %x {axis = 1 : i32} : (tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  %pads = tosa.const_shape {values = dense<[0, 0, 1, 0, 0, 2]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %pv = "tosa.const"() {values = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %g = tosa.pad %x, %pads, %pv : (tensor<?x?x6xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<?x?x8xf32>
  return %a, %b, %c, %d, %e, %f, %g, %rv : tensor<?x6xf32>, tensor<?x3x2xf32>, tensor<6x?x?xf32>, tensor<?x?x3xf32>, tensor<?x?x12xf32>, tensor<?x?x6xf32>, tensor<?x?x8xf32>, tensor<?x?x6xf32>
}

// Reductions keep the reduced dim; argmax drops it and gives i32; a float to
// integer cast rounds half to even first, as TOSA does.
// CHECK-LABEL: relax.func @reductions(%arg0: !relax.tensor<[arg0_d0, 6], f32>)
// CHECK: relax.sum %arg0 {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[arg0_d0, 6], f32>) -> !relax.tensor<[arg0_d0, 1], f32>
// CHECK: relax.max %arg0 {axes = array<i64: 0>, keepdims = true} : (!relax.tensor<[arg0_d0, 6], f32>) -> !relax.tensor<[1, 6], f32>
// CHECK: relax.min %arg0 {axes = array<i64: 1>, keepdims = true}
// CHECK: relax.prod %arg0 {axes = array<i64: 1>, keepdims = true}
// CHECK: %[[AM:.*]] = relax.argmax %arg0 {axis = 1 : i64} : (!relax.tensor<[arg0_d0, 6], f32>) -> !relax.tensor<[arg0_d0], i64>
// CHECK: relax.astype %[[AM]] {dtype = i32} : (!relax.tensor<[arg0_d0], i64>) -> !relax.tensor<[arg0_d0], i32>
// CHECK: %[[R:.*]] = relax.round %arg0
// CHECK: relax.astype %[[R]] {dtype = i32} : (!relax.tensor<[arg0_d0, 6], f32>) -> !relax.tensor<[arg0_d0, 6], i32>
// CHECK: relax.astype %{{.*}} {dtype = f16}
func.func @reductions(%x: tensor<?x6xf32>) -> (tensor<?x1xf32>, tensor<1x6xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?x6xi32>, tensor<?x6xf16>) {
  %a = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?x1xf32>
  %b = tosa.reduce_max %x {axis = 0 : i32} : (tensor<?x6xf32>) -> tensor<1x6xf32>
  %c = tosa.reduce_min %x {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?x1xf32>
  %d = tosa.reduce_product %x {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?x1xf32>
  %e = tosa.argmax %x {axis = 1 : i32} : (tensor<?x6xf32>) -> tensor<?xi32>
  %f = tosa.cast %x : (tensor<?x6xf32>) -> tensor<?x6xi32>
  %g = tosa.cast %x : (tensor<?x6xf32>) -> tensor<?x6xf16>
  return %a, %b, %c, %d, %e, %f, %g : tensor<?x1xf32>, tensor<1x6xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?x6xi32>, tensor<?x6xf16>
}

// Comparisons, select, logical ops, identity; gather as gather_nd over one
// batch dim.
// CHECK-LABEL: relax.func @select_gather(%arg0: !relax.tensor<[arg0_d0, 6], f32>, %arg1: !relax.tensor<[arg1_d0, 6], f32>, %arg2: !relax.tensor<[1, 10, 4], f32>, %arg3: !relax.tensor<[1, arg3_d1], i32>) -> (!relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>, !relax.tensor<[1, arg3_d1, 4], f32>, !relax.tensor<[arg0_d0, 12], f32>)
// CHECK: relax.greater
// CHECK: relax.greater_equal
// CHECK: relax.equal
// CHECK: relax.logical_and
// CHECK: relax.logical_or
// CHECK: relax.logical_not
// CHECK: relax.where %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[max(arg0_d0, arg1_d0), 6], i1>, !relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>, !relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>) -> !relax.tensor<[max(arg0_d0, arg1_d0), 6], f32>
// CHECK: %[[I:.*]] = relax.expand_dims %arg3 {axes = array<i64: 2>} : (!relax.tensor<[1, arg3_d1], i32>) -> !relax.tensor<[1, arg3_d1, 1], i32>
// CHECK: relax.gather_nd %arg2, %[[I]] {batch_dims = 1 : i64} : (!relax.tensor<[1, 10, 4], f32>, !relax.tensor<[1, arg3_d1, 1], i32>) -> !relax.tensor<[1, arg3_d1, 4], f32>
// Concat's other dims must agree: the second operand is cast to the first's.
// CHECK: %[[Y:.*]] = relax.match_cast %arg1 : !relax.tensor<[arg1_d0, 6], f32> to !relax.tensor<[arg0_d0, 6], f32>
// CHECK: relax.concat %arg0, %[[Y]] {axis = 1 : i64} : (!relax.tensor<[arg0_d0, 6], f32>, !relax.tensor<[arg0_d0, 6], f32>) -> !relax.tensor<[arg0_d0, 12], f32>
// NAMED-LABEL: relax.func @select_gather(%arg0: !relax.tensor<[n, 6], f32>, %arg1: !relax.tensor<[n, 6], f32>, %arg2: !relax.tensor<[1, 10, 4], f32>, %arg3: !relax.tensor<[1, k], i32>)
// NAMED: relax.where %{{.*}}, %arg0, %arg1 : (!relax.tensor<[n, 6], i1>, !relax.tensor<[n, 6], f32>, !relax.tensor<[n, 6], f32>) -> !relax.tensor<[n, 6], f32>
func.func @select_gather(%x: tensor<?x6xf32>, %y: tensor<?x6xf32>, %table: tensor<1x10x4xf32>, %idx: tensor<1x?xi32>) -> (tensor<?x6xf32>, tensor<1x?x4xf32>, tensor<?x12xf32>) {
  %gt = tosa.greater %x, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xi1>
  %ge = tosa.greater_equal %x, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xi1>
  %eq = tosa.equal %x, %y : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xi1>
  %and = tosa.logical_and %gt, %ge : (tensor<?x6xi1>, tensor<?x6xi1>) -> tensor<?x6xi1>
  %or = tosa.logical_or %and, %eq : (tensor<?x6xi1>, tensor<?x6xi1>) -> tensor<?x6xi1>
  %not = tosa.logical_not %or : (tensor<?x6xi1>) -> tensor<?x6xi1>
  %id = tosa.identity %not : (tensor<?x6xi1>) -> tensor<?x6xi1>
  %s = tosa.select %id, %x, %y : (tensor<?x6xi1>, tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %g = tosa.gather %table, %idx : (tensor<1x10x4xf32>, tensor<1x?xi32>) -> tensor<1x?x4xf32>
  %c = tosa.concat %x, %y {axis = 1 : i32} : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x12xf32>
  return %s, %g, %c : tensor<?x6xf32>, tensor<1x?x4xf32>, tensor<?x12xf32>
}

// A batched matmul of f16 accumulated in f32, and conv2d with stride,
// dilation and asymmetric padding (TOSA: top, bottom, left, right; relax:
// top, left, bottom, right) on a symbolic image size.
// CHECK-LABEL: relax.func @contractions(%arg0: !relax.tensor<[arg0_d0, arg0_d1, 8], f16>, %arg1: !relax.tensor<[arg1_d0, 8, 4], f16>, %arg2: !relax.tensor<[1, arg2_d1, arg2_d2, 3], f32>, %arg3: !relax.tensor<[5, 3, 3, 3], f32>, %arg4: !relax.tensor<[5], f32>)
// TOSA's batch dims are equal: b is cast to a's (checked at run time).
// CHECK: %[[B:.*]] = relax.match_cast %arg1 : !relax.tensor<[arg1_d0, 8, 4], f16> to !relax.tensor<[arg0_d0, 8, 4], f16>
// CHECK: relax.matmul %arg0, %[[B]] {out_dtype = f32} : (!relax.tensor<[arg0_d0, arg0_d1, 8], f16>, !relax.tensor<[arg0_d0, 8, 4], f16>) -> !relax.tensor<[arg0_d0, arg0_d1, 4], f32>
// CHECK: %[[X:.*]] = relax.permute_dims %arg2 {axes = array<i64: 0, 3, 1, 2>}
// CHECK: %[[W:.*]] = relax.permute_dims %arg3 {axes = array<i64: 0, 3, 1, 2>}
// CHECK: %[[C:.*]] = relax.conv2d %[[X]], %[[W]] {dilation = array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 2>} : (!relax.tensor<[1, 3, arg2_d1, arg2_d2], f32>, !relax.tensor<[5, 3, 3, 3], f32>) -> !relax.tensor<[1, 5, arg2_d1 floordiv 2, arg2_d2 floordiv 2], f32>
// CHECK: %[[Y:.*]] = relax.permute_dims %[[C]] {axes = array<i64: 0, 2, 3, 1>}
// CHECK: relax.add %[[Y]], %arg4
// NAMED-LABEL: relax.func @contractions(%arg0: !relax.tensor<[n, n, 8], f16>, %arg1: !relax.tensor<[k, 8, 4], f16>, %arg2: !relax.tensor<[1, arg2_d1, arg2_d2, 3], f32>
func.func @contractions(%a: tensor<?x?x8xf16>, %b: tensor<?x8x4xf16>, %x: tensor<1x?x?x3xf32>, %w: tensor<5x3x3x3xf32>, %bias: tensor<5xf32>) -> (tensor<?x?x4xf32>, tensor<1x?x?x5xf32>) {
  %zp16 = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp16, %zp16 : (tensor<?x?x8xf16>, tensor<?x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<?x?x4xf32>
  %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 1>, pad = array<i64: 1, 2, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x?x?x3xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x5xf32>
  return %m, %c : tensor<?x?x4xf32>, tensor<1x?x?x5xf32>
}

// Integer division, sin and cos; static shapes stay static.
// CHECK-LABEL: relax.func @more(%arg0: !relax.tensor<[2, 4], i32>, %arg1: !relax.tensor<[2, 4], i32>, %arg2: !relax.tensor<[2, 4], f32>)
// CHECK: relax.divide %arg0, %arg1 : (!relax.tensor<[2, 4], i32>, !relax.tensor<[2, 4], i32>) -> !relax.tensor<[2, 4], i32>
// CHECK: relax.sin %arg2
// CHECK: relax.cos
func.func @more(%a: tensor<2x4xi32>, %b: tensor<2x4xi32>, %x: tensor<2x4xf32>) -> (tensor<2x4xi32>, tensor<2x4xf32>) {
  %d = tosa.intdiv %a, %b : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %s = tosa.sin %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %c = tosa.cos %s : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %d, %c : tensor<2x4xi32>, tensor<2x4xf32>
}

// Functions without TOSA ops and declarations stay as they are.
// CHECK-LABEL: func.func private @decl(tensor<?xf32>) -> tensor<?xf32>
// CHECK-LABEL: func.func @no_tosa
func.func private @decl(tensor<?xf32>) -> tensor<?xf32>
func.func @no_tosa(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// A result type of unknown rank (valid TOSA) takes relax's inferred type.
// CHECK-LABEL: relax.func @unranked_result(%arg0: !relax.tensor<[arg0_d0, 4], f32>) -> !relax.tensor<[arg0_d0, 4], f32>
// CHECK: relax.exp %arg0 : (!relax.tensor<[arg0_d0, 4], f32>) -> !relax.tensor<[arg0_d0, 4], f32>
func.func @unranked_result(%x: tensor<?x4xf32>) -> tensor<*xf32> {
  %y = tosa.exp %x : (tensor<?x4xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}
