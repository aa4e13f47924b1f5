// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// matmul and linear. Declared result dims must equal the inferred
// expressions; the `?` results are shown to be `?` in invalid-linalg.mlir.

// CHECK-LABEL: relax.func @matmul
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[b, n, m], f32>
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[n, k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[n], f32>
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[1, n, k], f32>, !relax.tensor<[b, k, m], f32>) -> !relax.tensor<[b, n, m], f32>
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[m], f32>
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[], f32>
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[k], f32>, !relax.tensor<[b, k, m], f32>) -> !relax.tensor<[b, m], f32>
relax.func @matmul(%a: !relax.tensor<[b, n, k], f32>, %w: !relax.tensor<[k, m], f32>, %v: !relax.tensor<[k], f32>, %x: !relax.tensor<[n, k], f32>, %c: !relax.tensor<[1, n, k], f32>, %d: !relax.tensor<[b, k, m], f32>) {
  %0 = relax.matmul %a, %w : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[b, n, m], f32>
  %1 = relax.matmul %x, %v : (!relax.tensor<[n, k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[n], f32>
  %2 = relax.matmul %c, %d : (!relax.tensor<[1, n, k], f32>, !relax.tensor<[b, k, m], f32>) -> !relax.tensor<[b, n, m], f32>
  %3 = relax.matmul %v, %w : (!relax.tensor<[k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[m], f32>
  %4 = relax.matmul %v, %v : (!relax.tensor<[k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[], f32>
  %5 = relax.matmul %v, %d : (!relax.tensor<[k], f32>, !relax.tensor<[b, k, m], f32>) -> !relax.tensor<[b, m], f32>
  relax.return
}

// CHECK-LABEL: relax.func @matmul_undecidable
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[n, k], f32>, !relax.tensor<[j, m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[c, k, m], f32>) -> !relax.tensor<[?, n, m], f32>
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[n, k], f32>, !relax.tensor<*, f32>) -> !relax.tensor<*, f32>
// Undecidable contraction dims (k vs j) are accepted: the result does not
// depend on them. Undecidable batch dims become `?`.
relax.func @matmul_undecidable(%x: !relax.tensor<[n, k], f32>, %y: !relax.tensor<[j, m], f32>, %p: !relax.tensor<[b, n, k], f32>, %q: !relax.tensor<[c, k, m], f32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.matmul %x, %y : (!relax.tensor<[n, k], f32>, !relax.tensor<[j, m], f32>) -> !relax.tensor<[n, m], f32>
  %1 = relax.matmul %p, %q : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[c, k, m], f32>) -> !relax.tensor<[?, n, m], f32>
  %2 = relax.matmul %x, %u : (!relax.tensor<[n, k], f32>, !relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return
}

// CHECK-LABEL: relax.func @matmul_out_dtype
// CHECK: relax.matmul %{{.*}}, %{{.*}} {out_dtype = f32} : (!relax.tensor<[n, k * 2], f16>, !relax.tensor<[k * 2, 64], f16>) -> !relax.tensor<[n, 64], f32>
// CHECK: relax.matmul %{{.*}}, %{{.*}} : (!relax.tensor<[n, k * 2], f16>, !relax.tensor<[k * 2, 64], f16>) -> !relax.tensor<[n, 64], f16>
relax.func @matmul_out_dtype(%kk: !relax.tensor<[k], f16>, %x: !relax.tensor<[n, k * 2], f16>, %y: !relax.tensor<[2 * k, 64], f16>) {
  %0 = relax.matmul %x, %y {out_dtype = f32} : (!relax.tensor<[n, k * 2], f16>, !relax.tensor<[k * 2, 64], f16>) -> !relax.tensor<[n, 64], f32>
  %1 = relax.matmul %x, %y : (!relax.tensor<[n, k * 2], f16>, !relax.tensor<[k * 2, 64], f16>) -> !relax.tensor<[n, 64], f16>
  relax.return
}

// CHECK-LABEL: relax.func @linear
// CHECK: relax.linear %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[b, n, 16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[b, n, 32], f32>
// CHECK: relax.linear %{{.*}}, %{{.*}} : (!relax.tensor<[b, n, 16], f32>, !relax.tensor<[32, 16], f32>) -> !relax.tensor<[b, n, 32], f32>
// CHECK: relax.linear %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[32], f32>
// CHECK: relax.linear %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[b, n, 16], f32>, !relax.tensor<[o, 16], f32>, !relax.tensor<[1], f32>) -> !relax.tensor<[b, n, o], f32>
relax.func @linear(%x: !relax.tensor<[b, n, 16], f32>, %w: !relax.tensor<[32, 16], f32>, %bias: !relax.tensor<[32], f32>, %v: !relax.tensor<[16], f32>, %s: !relax.tensor<[1], f32>, %wo: !relax.tensor<[o, 16], f32>) {
  %0 = relax.linear %x, %w, %bias : (!relax.tensor<[b, n, 16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[b, n, 32], f32>
  %1 = relax.linear %x, %w : (!relax.tensor<[b, n, 16], f32>, !relax.tensor<[32, 16], f32>) -> !relax.tensor<[b, n, 32], f32>
  %2 = relax.linear %v, %w, %bias : (!relax.tensor<[16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[32], f32>
  %3 = relax.linear %x, %wo, %s : (!relax.tensor<[b, n, 16], f32>, !relax.tensor<[o, 16], f32>, !relax.tensor<[1], f32>) -> !relax.tensor<[b, n, o], f32>
  relax.return
}

// CHECK-LABEL: relax.func @einsum
// CHECK: relax.einsum %{{.*}}, %{{.*}} {equation = "bij,bjk->bik"} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[b, k, m], f32>) -> !relax.tensor<[b, n, m], f32>
// CHECK: relax.einsum %{{.*}} {equation = "ii->i"} : (!relax.tensor<[n, n], f32>) -> !relax.tensor<[n], f32>
// CHECK: relax.einsum %{{.*}} {equation = "ii"} : (!relax.tensor<[n, n], f32>) -> !relax.tensor<[], f32>
// CHECK: relax.einsum %{{.*}}, %{{.*}} {equation = "...ij,...jk"} : (!relax.tensor<[b, 1, n, 3], f32>, !relax.tensor<[1, 5, 3, m], f32>) -> !relax.tensor<[b, 5, n, m], f32>
// CHECK: relax.einsum %{{.*}}, %{{.*}} {equation = " b i k , k m "} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[j, m], f32>) -> !relax.tensor<[b, n, m], f32>
// CHECK: relax.einsum %{{.*}}, %{{.*}}, %{{.*}} {equation = "Bij,Bij,Bij->jiB"} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[b, n, k], f32>, !relax.tensor<[b, n, k], f32>) -> !relax.tensor<[k, n, b], f32>
// CHECK: relax.einsum %{{.*}}, %{{.*}} {equation = "ij,jk->ik"} : (!relax.tensor<*, f32>, !relax.tensor<[n, n], f32>) -> !relax.tensor<[?, n], f32>
// CHECK: relax.einsum %{{.*}} {equation = "...i->..."} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
// CHECK: relax.einsum %{{.*}}, %{{.*}} {equation = "ij,kj->ik"} : (!relax.tensor<[n, 3], i32>, !relax.tensor<[n, 3], i32>) -> !relax.tensor<[n, n], i32>
relax.func @einsum(%a: !relax.tensor<[b, n, k], f32>, %c: !relax.tensor<[b, k, m], f32>, %s: !relax.tensor<[n, n], f32>,
                   %p: !relax.tensor<[b, 1, n, 3], f32>, %q: !relax.tensor<[1, 5, 3, m], f32>, %j: !relax.tensor<[j, m], f32>,
                   %u: !relax.tensor<*, f32>, %i: !relax.tensor<[n, 3], i32>) {
  %0 = relax.einsum %a, %c {equation = "bij,bjk->bik"} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[b, k, m], f32>) -> !relax.tensor<[b, n, m], f32>
  %1 = relax.einsum %s {equation = "ii->i"} : (!relax.tensor<[n, n], f32>) -> !relax.tensor<[n], f32>
  %2 = relax.einsum %s {equation = "ii"} : (!relax.tensor<[n, n], f32>) -> !relax.tensor<[], f32>
  %3 = relax.einsum %p, %q {equation = "...ij,...jk"} : (!relax.tensor<[b, 1, n, 3], f32>, !relax.tensor<[1, 5, 3, m], f32>) -> !relax.tensor<[b, 5, n, m], f32>
  %4 = relax.einsum %a, %j {equation = " b i k , k m "} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[j, m], f32>) -> !relax.tensor<[b, n, m], f32>
  %5 = relax.einsum %a, %a, %a {equation = "Bij,Bij,Bij->jiB"} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[b, n, k], f32>, !relax.tensor<[b, n, k], f32>) -> !relax.tensor<[k, n, b], f32>
  %6 = relax.einsum %u, %s {equation = "ij,jk->ik"} : (!relax.tensor<*, f32>, !relax.tensor<[n, n], f32>) -> !relax.tensor<[?, n], f32>
  %7 = relax.einsum %u {equation = "...i->..."} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  %8 = relax.einsum %i, %i {equation = "ij,kj->ik"} : (!relax.tensor<[n, 3], i32>, !relax.tensor<[n, 3], i32>) -> !relax.tensor<[n, n], i32>
  relax.return
}
