// The 2-layer MLP of python-free-examples on the CPU for batch sizes 1, 7
// and 128 against a float64 numpy reference: rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t
// RUN: %python %S/models_ref.py mlp %t/n1 --dim n=1
// RUN: relax-run %examples/mlp.mlir $(cat %t/n1/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %examples/mlp.mlir $(cat %t/n1/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/models_ref.py mlp %t/n7 --dim n=7 --seed 1
// RUN: relax-run %examples/mlp.mlir $(cat %t/n7/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %examples/mlp.mlir $(cat %t/n7/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/models_ref.py mlp %t/n128 --dim n=128 --seed 2
// RUN: relax-run %examples/mlp.mlir $(cat %t/n128/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %examples/mlp.mlir $(cat %t/n128/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 1 outputs match
