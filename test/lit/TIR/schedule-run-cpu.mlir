// Schedules the two programs of Conversion/TIRToSCF/run-cpu.mlir, lowers
// them to LLVM and runs them: the numbers must match the unscheduled ones.
// n = 5 is not a multiple of the split factor 4, so the bounds guard runs.
// @main's func.call ops only verify once the prim_funcs are func.funcs, so
// verification between passes is off; mlir-runner verifies the result.
// RUN: relax-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=false --tir-test-schedule --convert-tir-to-scf --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// c = a + b over [n].
tir.prim_func @add(%a: !tir.buffer<[n], f32>, %b: !tir.buffer<[n], f32>,
                   %c: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 4", "parallel i.outer", "vectorize i.inner"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %x = tir.load %a[%vi] : !tir.buffer<[n], f32>
      %y = tir.load %b[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %x, %y : f32
      tir.store %s, %c[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// y[i] = sum_k 2 * x[i, k]: rows split by 2 (3 rows), the init hoisted into
// its own nest, the row loops parallel, the reduction loop split too.
tir.prim_func @row_sum(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 2", "decompose_reduction sum i.outer", "split k 3", "parallel i.outer", "parallel i.outer_init", "unroll k.inner"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
        }
        %v = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %v2 = arith.mulf %v, %two : f32
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %s = arith.addf %acc, %v2 : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// x = 4 * i + j over [3, 4] as one fused loop split by 5.
tir.prim_func @iota2d(%x: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["fuse i j", "split i.j.fused 5", "parallel i.j.fused.outer"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "iota" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %row = arith.muli %vi, %m : index
        %lin = arith.addi %row, %vj : index
        %li = arith.index_cast %lin : index to i32
        %lf = arith.sitofp %li : i32 to f32
        tir.store %lf, %x[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// c = a + b with both inputs read through local copies and c written
// through a local copy (after the split, so the copy is filled from c first).
tir.prim_func @add_cached(%a: !tir.buffer<[n], f32>, %b: !tir.buffer<[n], f32>,
                          %c: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add 0 local", "cache_read add 1 local", "split i 4", "cache_write add local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %x = tir.load %a[%vi] : !tir.buffer<[n], f32>
      %y = tir.load %b[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %x, %y : f32
      tir.store %s, %c[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// The row sum with x read through a local copy and y accumulated in one.
tir.prim_func @row_sum_cached(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read sum 0 local", "cache_write sum local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
        }
        %v = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// z = 2 * x + 1 through a scratch buffer whose producer is computed at
// the consumer's row loop.
tir.prim_func @mul_add_at(%x: !tir.buffer<[n, m], f32>, %z: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["compute_at mul i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      tir.block "mul" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %v, %two : f32
        tir.store %s, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vj] : !tir.buffer<[n, m], f32>
        %s = arith.addf %v, %one : f32
        tir.store %s, %z[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// The same with the consumer moved under the producer's row loop.
tir.prim_func @mul_add_rat(%x: !tir.buffer<[n, m], f32>, %z: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["reverse_compute_at add a"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      tir.block "mul" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %v, %two : f32
        tir.store %s, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vj] : !tir.buffer<[n, m], f32>
        %s = arith.addf %v, %one : f32
        tir.store %s, %z[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @iota(%buf: memref<?xf32>, %scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %len = memref.dim %buf, %c0 : memref<?xf32>
  scf.for %i = %c0 to %len step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.mulf %f, %scale : f32
    memref.store %v, %buf[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %ten = arith.constant 10.0 : f32
  %garbage = arith.constant 42.0 : f32

  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  call @iota(%a, %one) : (memref<?xf32>, f32) -> ()
  call @iota(%b, %ten) : (memref<?xf32>, f32) -> ()
  call @add(%a, %b, %c) : (memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %cu = memref.cast %c : memref<?xf32> to memref<*xf32>
  // CHECK: rank = 1 offset = 0 sizes = [5] strides = [1]
  // CHECK-NEXT: [0, 11, 22, 33, 44]
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()

  // x[i, k] = 4 * i + k over [3, 4]; y starts as garbage.
  %rows = arith.constant 3 : index
  %cols = arith.constant 4 : index
  %xc = memref.alloc(%rows, %cols) : memref<?x?xf32>
  call @iota2d(%xc) : (memref<?x?xf32>) -> ()
  %xu = memref.cast %xc : memref<?x?xf32> to memref<*xf32>
  // CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1]
  // CHECK-NEXT: [0, 1, 2, 3]
  // CHECK-NEXT: [4, 5, 6, 7]
  // CHECK-NEXT: [8, 9, 10, 11]
  call @printMemrefF32(%xu) : (memref<*xf32>) -> ()
  %y = memref.alloc(%rows) : memref<?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    memref.store %garbage, %y[%i] : memref<?xf32>
  }
  call @row_sum(%xc, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %yu = memref.cast %y : memref<?xf32> to memref<*xf32>
  // 2 * (0+1+2+3), 2 * (4+5+6+7), 2 * (8+9+10+11)
  // CHECK: rank = 1 offset = 0 sizes = [3] strides = [1]
  // CHECK-NEXT: [12, 44, 76]
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()

  // cache_read / cache_write keep the numbers (c starts as garbage).
  scf.for %i = %c0 to %n step %c1 {
    memref.store %garbage, %c[%i] : memref<?xf32>
  }
  call @add_cached(%a, %b, %c) : (memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  // CHECK: rank = 1 offset = 0 sizes = [5] strides = [1]
  // CHECK-NEXT: [0, 11, 22, 33, 44]
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %rows step %c1 {
    memref.store %garbage, %y[%i] : memref<?xf32>
  }
  call @row_sum_cached(%xc, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
  // 0+1+2+3, 4+5+6+7, 8+9+10+11
  // CHECK: rank = 1 offset = 0 sizes = [3] strides = [1]
  // CHECK-NEXT: [6, 22, 38]
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()

  // compute_at and reverse_compute_at keep the numbers: 2 * (4 * i + k) + 1.
  %zc = memref.alloc(%rows, %cols) : memref<?x?xf32>
  call @mul_add_at(%xc, %zc) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %zu = memref.cast %zc : memref<?x?xf32> to memref<*xf32>
  // CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1]
  // CHECK-NEXT: [1, 3, 5, 7]
  // CHECK-NEXT: [9, 11, 13, 15]
  // CHECK-NEXT: [17, 19, 21, 23]
  call @printMemrefF32(%zu) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %k = %c0 to %cols step %c1 {
      memref.store %garbage, %zc[%i, %k] : memref<?x?xf32>
    }
  }
  call @mul_add_rat(%xc, %zc) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1]
  // CHECK-NEXT: [1, 3, 5, 7]
  // CHECK-NEXT: [9, 11, 13, 15]
  // CHECK-NEXT: [17, 19, 21, 23]
  call @printMemrefF32(%zu) : (memref<*xf32>) -> ()
  memref.dealloc %zc : memref<?x?xf32>

  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  memref.dealloc %xc : memref<?x?xf32>
  memref.dealloc %y : memref<?xf32>
  return
}
