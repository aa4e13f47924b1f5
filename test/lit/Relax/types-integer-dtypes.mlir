// The integer dtypes i8, i16, i32, i64 and ui8, ui16, ui32, ui64 parse,
// verify, print and re-parse (round trip), in tensors with symbolic dims and
// in the ops whose types carry them.
// RUN: relax-opt %s | relax-opt | FileCheck %s

// CHECK-LABEL: relax.func @int_dtypes
// CHECK-SAME: !relax.tensor<[n], i8>, %{{.*}}: !relax.tensor<[n], i16>, %{{.*}}: !relax.tensor<[n], i32>, %{{.*}}: !relax.tensor<[n], i64>
// CHECK-SAME: !relax.tensor<[n, m], ui8>, %{{.*}}: !relax.tensor<[n, m], ui16>, %{{.*}}: !relax.tensor<[n, m], ui32>, %{{.*}}: !relax.tensor<[n * 2, m], ui64>
relax.func @int_dtypes(%a: !relax.tensor<[n], i8>, %b: !relax.tensor<[n], i16>,
                       %c: !relax.tensor<[n], i32>, %d: !relax.tensor<[n], i64>,
                       %e: !relax.tensor<[n, m], ui8>, %f: !relax.tensor<[n, m], ui16>,
                       %g: !relax.tensor<[n, m], ui32>, %h: !relax.tensor<[n * 2, m], ui64>) {
  relax.return
}

// CHECK-LABEL: relax.func @ops
// CHECK: relax.add %{{.*}}, %{{.*}} : (!relax.tensor<[n], ui16>, !relax.tensor<[n], ui16>) -> !relax.tensor<[n], ui16>
// CHECK: relax.astype %{{.*}} {dtype = ui64} : (!relax.tensor<[n], ui16>) -> !relax.tensor<[n], ui64>
// CHECK: relax.astype %{{.*}} {dtype = i16} : (!relax.tensor<[n], ui64>) -> !relax.tensor<[n], i16>
// CHECK: relax.constant dense<4294967295> : tensor<ui32>
// CHECK: relax.zeros {{.*}}dtype = ui32
relax.func @ops(%x: !relax.tensor<[n], ui16>) -> (!relax.tensor<[n], i16>, !relax.tensor<[], ui32>, !relax.tensor<[n], ui32>) {
  %s = relax.add %x, %x : (!relax.tensor<[n], ui16>, !relax.tensor<[n], ui16>) -> !relax.tensor<[n], ui16>
  %w = relax.astype %s {dtype = ui64} : (!relax.tensor<[n], ui16>) -> !relax.tensor<[n], ui64>
  %i = relax.astype %w {dtype = i16} : (!relax.tensor<[n], ui64>) -> !relax.tensor<[n], i16>
  %c = relax.constant dense<4294967295> : tensor<ui32>
  %z = relax.zeros {dtype = ui32, shape = #relax.shape<[n]>} : !relax.tensor<[n], ui32>
  relax.return %i, %c, %z : !relax.tensor<[n], i16>, !relax.tensor<[], ui32>, !relax.tensor<[n], ui32>
}
