// End-to-end check of fusion: the programs of the golden tests in
// test/lit/Relax/relax-fuse-ops.mlir (one per fusion rule: epilogue, softmax
// with producers, injective chain, broadcast into a reduction, two outputs,
// an extra symbolic parameter) run unfused and fused (relax-run --fuse)
// against float64 numpy; tolerances per line (rtol, atol).
// RUN: rm -rf %t
// RUN: %python %S/ref.py %t/mm "(lambda a: 0.5 * a * (1 + erf(a / np.sqrt(2))))(x.astype(np.float64) @ w + b)" -- x:f32:5,16 w:f32:16,32 b:f32:32
// RUN: relax-run %s --entry mm_bias_gelu --input %t/mm/in0.npy --input %t/mm/in1.npy --input %t/mm/in2.npy --expect %t/mm/out0.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --entry mm_bias_gelu --input %t/mm/in0.npy --input %t/mm/in1.npy --input %t/mm/in2.npy --expect %t/mm/out0.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/sm "softmax(np.tanh(x.astype(np.float64) * y))" -- x:f32:3,37 y:f32:3,37
// RUN: relax-run %s --entry softmax_producers --input %t/sm/in0.npy --input %t/sm/in1.npy --expect %t/sm/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --entry softmax_producers --input %t/sm/in0.npy --input %t/sm/in1.npy --expect %t/sm/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/lc "np.ascontiguousarray(np.exp(x.reshape(-1, x.shape[2]).T))" -- x:f32:3,4,5
// RUN: relax-run %s --entry layout_chain --input %t/lc/in0.npy --expect %t/lc/out0.npy --rtol 1e-6 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --entry layout_chain --input %t/lc/in0.npy --expect %t/lc/out0.npy --rtol 1e-6 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/br "(x.astype(np.float64) + b).sum(1)" -- x:f32:6,33 b:f32:33
// RUN: relax-run %s --entry bcast_reduce --input %t/br/in0.npy --input %t/br/in1.npy --expect %t/br/out0.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --entry bcast_reduce --input %t/br/in0.npy --input %t/br/in1.npy --expect %t/br/out0.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/mo "x + y" "np.exp(x.astype(np.float64) + y)" -- x:f32:9 y:f32:9
// RUN: relax-run %s --entry multi_out --input %t/mo/in0.npy --input %t/mo/in1.npy --expect %t/mo/out0.npy --expect %t/mo/out1.npy --rtol 1e-6 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --entry multi_out --input %t/mo/in0.npy --input %t/mo/in1.npy --expect %t/mo/out0.npy --expect %t/mo/out1.npy --rtol 1e-6 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/ev "np.exp(x)" -- x:f32:12 y:f32:3
// RUN: relax-run %s --entry extra_var --input %t/ev/in0.npy --input %t/ev/in1.npy --expect %t/ev/out0.npy --rtol 1e-6 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --entry extra_var --input %t/ev/in0.npy --input %t/ev/in1.npy --expect %t/ev/out0.npy --rtol 1e-6 --atol 0 | FileCheck %s
// CHECK: outputs match

relax.func @mm_bias_gelu(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[16, 32], f32>,
                         %b: !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, 32], f32> {
    %mm = relax.matmul %x, %w : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16, 32], f32>) -> !relax.tensor<[n, 32], f32>
    %a = relax.add %mm, %b : (!relax.tensor<[n, 32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32>
    %g = relax.gelu %a : (!relax.tensor<[n, 32], f32>) -> !relax.tensor<[n, 32], f32>
    relax.output %g : !relax.tensor<[n, 32], f32>
  }
  relax.return %0 : !relax.tensor<[n, 32], f32>
}

relax.func @softmax_producers(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, m], f32> {
    %s = relax.multiply %x, %y : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %t = relax.tanh %s : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %p = relax.softmax %t : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    relax.output %p : !relax.tensor<[n, m], f32>
  }
  relax.return %0 : !relax.tensor<[n, m], f32>
}

relax.func @layout_chain(%x: !relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[m, n * 4], f32> {
  %0 = relax.dataflow -> !relax.tensor<[m, n * 4], f32> {
    %r = relax.reshape %x {shape = #relax.shape<[n * 4, m]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n * 4, m], f32>
    %t = relax.permute_dims %r : (!relax.tensor<[n * 4, m], f32>) -> !relax.tensor<[m, n * 4], f32>
    %e = relax.exp %t : (!relax.tensor<[m, n * 4], f32>) -> !relax.tensor<[m, n * 4], f32>
    relax.output %e : !relax.tensor<[m, n * 4], f32>
  }
  relax.return %0 : !relax.tensor<[m, n * 4], f32>
}

relax.func @bcast_reduce(%x: !relax.tensor<[n, m], f32>, %b: !relax.tensor<[m], f32>) -> !relax.tensor<[n], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n], f32> {
    %a = relax.add %x, %b : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
    %s = relax.sum %a {axes = array<i64: 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], f32>
    relax.output %s : !relax.tensor<[n], f32>
  }
  relax.return %0 : !relax.tensor<[n], f32>
}

relax.func @multi_out(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) {
  %0:2 = relax.dataflow -> !relax.tensor<[n], f32>, !relax.tensor<[n], f32> {
    %a = relax.add %x, %y : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %e = relax.exp %a : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.output %a, %e : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
  }
  relax.return %0#0, %0#1 : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
}

relax.func @extra_var(%x: !relax.tensor<[k], f32>, %y: !relax.tensor<[n], f32>) -> !relax.tensor<[n * 4], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n * 4], f32> {
    %c = relax.match_cast %x : !relax.tensor<[k], f32> to !relax.tensor<[n * 4], f32>
    %r = relax.reshape %c {shape = #relax.shape<[n, 4]>} : (!relax.tensor<[n * 4], f32>) -> !relax.tensor<[n, 4], f32>
    %e = relax.exp %r : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %f = relax.reshape %e {shape = #relax.shape<[n * 4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 4], f32>
    relax.output %f : !relax.tensor<[n * 4], f32>
  }
  relax.return %0 : !relax.tensor<[n * 4], f32>
}
