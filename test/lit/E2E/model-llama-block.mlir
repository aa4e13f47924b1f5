// The Llama-style decoder block of python-free-examples on the CPU for
// sequence lengths 1, 7 and 128 against a float64 numpy reference.
// f32 compute through matmuls, norms and softmax: rtol 1e-4, atol 1e-4.
// RUN: rm -rf %t
// RUN: %python %S/models_ref.py llama %t/s1 --dim s=1
// RUN: relax-run %examples/llama_block.mlir $(cat %t/s1/args) --rtol 1e-4 --atol 1e-4 | FileCheck %s
// RUN: relax-run --fuse %examples/llama_block.mlir $(cat %t/s1/args) --rtol 1e-4 --atol 1e-4 | FileCheck %s
// RUN: %python %S/models_ref.py llama %t/s7 --dim s=7 --seed 1
// RUN: relax-run %examples/llama_block.mlir $(cat %t/s7/args) --rtol 1e-4 --atol 1e-4 | FileCheck %s
// RUN: relax-run --fuse %examples/llama_block.mlir $(cat %t/s7/args) --rtol 1e-4 --atol 1e-4 | FileCheck %s
// RUN: %python %S/models_ref.py llama %t/s128 --dim s=128 --seed 2
// RUN: relax-run %examples/llama_block.mlir $(cat %t/s128/args) --rtol 1e-4 --atol 1e-4 | FileCheck %s
// RUN: relax-run --fuse %examples/llama_block.mlir $(cat %t/s128/args) --rtol 1e-4 --atol 1e-4 | FileCheck %s
// CHECK: all 1 outputs match
