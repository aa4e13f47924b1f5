// REQUIRES: mlir-opt-plugin
// Debian's upstream mlir-opt reads, prints and transforms relax, tir and
// extern IR once it has loaded the project's plugin (lib/Plugin). The
// relax-fuse-ops pipeline is named in --pass-pipeline: mlir-opt makes its
// pass flags before it loads plugins, so `--relax-fuse-ops` is not one.
//
// RUN: %mlir_opt --load-dialect-plugin=%relax_plugin %s | FileCheck %s --check-prefix=PARSE
// RUN: %mlir_opt --load-dialect-plugin=%relax_plugin %s --mlir-print-op-generic \
// RUN:   | %mlir_opt --load-dialect-plugin=%relax_plugin | FileCheck %s --check-prefix=PARSE
// RUN: %mlir_opt --load-dialect-plugin=%relax_plugin --load-pass-plugin=%relax_plugin \
// RUN:   --pass-pipeline='builtin.module(relax-fuse-ops)' %s | FileCheck %s --check-prefix=FUSE
//
// Without the plugin the same mlir-opt knows none of it.
// RUN: %mlir_opt %s > %t.noplugin 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NOPLUGIN < %t.noplugin
// NOPLUGIN: error: Dialect `extern' not found for custom op 'extern.func'

// PARSE-LABEL: extern.func private @gemm(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>, !relax.tensor<[m, n], f32>)
extern.func private @gemm(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>,
                          !relax.tensor<[m, n], f32>)
    attributes {link_name = "relax_blas_matmul_f32", num_outputs = 1 : i64}

// PARSE-LABEL: tir.prim_func @scale
// PARSE-SAME: (%[[A:.*]]: !tir.buffer<[n], f32>, %[[B:.*]]: !tir.buffer<[n], f32>)
// PARSE: tir.block "scale" (%[[VI:.*]] = %{{.*}}) kinds [spatial]
// PARSE: tir.load %[[A]][%[[VI]]] : !tir.buffer<[n], f32>
// PARSE: tir.store %{{.*}}, %[[B]][%[[VI]]] : !tir.buffer<[n], f32>
tir.prim_func @scale(%a: !tir.buffer<[n], f32>, %b: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %two = arith.constant 2.0 : f32
  tir.for %i = %c0 to %n step %c1 {
    tir.block "scale" (%vi = %i) kinds [spatial] {
      %x = tir.load %a[%vi] : !tir.buffer<[n], f32>
      %y = arith.mulf %x, %two : f32
      tir.store %y, %b[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// A relax function over a symbolic batch: a library call, then a matmul
// with a bias and a relu that fusion turns into one program.
// PARSE-LABEL: relax.func @main
// PARSE: relax.call_dps_packed @gemm(%{{.*}}, %{{.*}}) : (!relax.tensor<[n, 8], f32>, !relax.tensor<[8, 16], f32>) -> !relax.tensor<[n, 16], f32>
// PARSE: relax.matmul
// PARSE: relax.add
// PARSE: relax.relu

// FUSE-LABEL: relax.func @main
// FUSE: relax.call_dps_packed @gemm
// FUSE: relax.call_tir @fused_matmul_add_relu(%{{.*}}, %{{.*}}, %{{.*}}) : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
// FUSE-NOT: relax.call_tir
// FUSE: tir.prim_func private @fused_matmul_add_relu({{.*}}) attributes {op_pattern = #tir.op_pattern<out_ewise_fusable>}
relax.func @main(%x: !relax.tensor<[n, 8], f32>, %w0: !relax.tensor<[8, 16], f32>,
                 %w1: !relax.tensor<[16, 4], f32>, %b: !relax.tensor<[4], f32>)
    -> !relax.tensor<[n, 4], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, 4], f32> {
    %h = relax.call_dps_packed @gemm(%x, %w0)
        : (!relax.tensor<[n, 8], f32>, !relax.tensor<[8, 16], f32>) -> !relax.tensor<[n, 16], f32>
    %mm = relax.matmul %h, %w1 : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %a = relax.add %mm, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
    %r = relax.relu %a : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    relax.output %r : !relax.tensor<[n, 4], f32>
  }
  relax.return %0 : !relax.tensor<[n, 4], f32>
}
