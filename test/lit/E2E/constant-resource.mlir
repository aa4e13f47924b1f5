// Large weights live in dense_resource blobs, out of the IR text; they lower
// to memref globals and run. The blob holds [1.0, 2.0].
// RUN: relax-run %s | FileCheck %s
// CHECK: output #0: f32 [2] = [1, 2]
relax.func @main() -> !relax.tensor<[2], f32> {
  %c = relax.constant dense_resource<blob1> : tensor<2xf32>
  relax.return %c : !relax.tensor<[2], f32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
