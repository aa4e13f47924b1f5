// RUN: relax-opt --convert-tosa-to-relax --mlir-print-ir-after-failure %s > %t 2>&1; test $? -eq 1
// RUN: FileCheck %s < %t

// All or nothing: a refusal in the second function leaves the first one
// unconverted too. The pass fails, and the IR it leaves (printed after the
// failure) is its input: the conversion driver rolled back every pattern.
// CHECK: error: 'tosa.reciprocal' op unsupported: reciprocal of integers
// CHECK: IR Dump After ConvertTOSAToRelax Failed
// CHECK: func.func @fine(%{{.*}}: tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT: tosa.abs
// CHECK: func.func @refused
// CHECK-NEXT: tosa.const
// CHECK-NEXT: tosa.maximum
// CHECK-NEXT: tosa.reciprocal
// CHECK-NOT: relax.
func.func @fine(%x: tensor<?xf32>) -> tensor<?xf32> {
  %a = tosa.abs %x : (tensor<?xf32>) -> tensor<?xf32>
  return %a : tensor<?xf32>
}
func.func @refused(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c = "tosa.const"() {values = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %s = tosa.maximum %x, %c : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %y = tosa.reciprocal %s : (tensor<4xi32>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}
