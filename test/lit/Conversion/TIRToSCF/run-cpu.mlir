// Lowers two prim_funcs with symbolic shapes to LLVM and runs them on the
// CPU on buffers whose sizes are only known at run time. @main's func.call
// ops only verify once the prim_funcs are func.funcs, hence the parse flag;
// everything is verified after the pass.
// RUN: relax-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --convert-tir-to-scf --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// c = a + b over [n].
tir.prim_func @add(%a: !tir.buffer<[n], f32>, %b: !tir.buffer<[n], f32>,
                   %c: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %x = tir.load %a[%vi] : !tir.buffer<[n], f32>
      %y = tir.load %b[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %x, %y : f32
      tir.store %s, %c[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// y[i] = sum_k x[i, k], with y zeroed by the init region; a local scratch
// buffer holds each product of the row with 2.
tir.prim_func @row_sum(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.for %k = %c0 to %m step %c1 {
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
        }
        %t = tir.alloc : !tir.buffer<[1], f32, local>
        %v = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %v2 = arith.mulf %v, %two : f32
        tir.store %v2, %t[%c0] : !tir.buffer<[1], f32, local>
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %w = tir.load %t[%c0] : !tir.buffer<[1], f32, local>
        %s = arith.addf %acc, %w : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
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
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %k = %c0 to %cols step %c1 {
      %row = arith.muli %i, %cols : index
      %lin = arith.addi %row, %k : index
      %li = arith.index_cast %lin : index to i32
      %lf = arith.sitofp %li : i32 to f32
      memref.store %lf, %xc[%i, %k] : memref<?x?xf32>
    }
  }
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

  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  memref.dealloc %xc : memref<?x?xf32>
  memref.dealloc %y : memref<?xf32>
  return
}
