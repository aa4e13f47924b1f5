// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// reverse_compute_at under the producer's row loop: right after row a of t
// is computed, the consumer's inner loop (symbolic extent m) uses it; the
// consumer's row loop becomes the producer's iv.
// CHECK-LABEL: tir.prim_func @at_outer
// CHECK: %[[N:.*]] = tir.sym_var "n" : index
// CHECK: %[[M:.*]] = tir.sym_var "m" : index
// CHECK: %[[T:.*]] = tir.alloc : !tir.buffer<[n, m], f32>
// CHECK: tir.for %[[A:.*]] = %{{.*}} to %[[N]] step %{{.*}} name = "a" {
// CHECK-NEXT: tir.for %{{.*}} = %{{.*}} to %[[M]] step %{{.*}} name = "b" {
// CHECK-NEXT: tir.block "mul"
// CHECK: tir.store %{{.*}}, %[[T]][
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %[[M]] step %{{.*}} name = "j" {
// CHECK-NEXT: tir.block "add" (%{{.*}} = %[[A]], %{{.*}} = %[[J]])
// CHECK-NEXT: tir.load %[[T]][
// CHECK-NOT: name = "i"
// CHECK: tir.return
tir.prim_func @at_outer(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>, %w: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["reverse_compute_at add a"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// Under the inner loop b, t's rows come from the loop around it: the
// moved consumer would read rows not computed yet.
tir.prim_func @at_inner(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>, %w: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["reverse_compute_at add b"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      tir.block "mul" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %v, %two : f32
        // expected-note @+1 {{see this op}}
        tir.store %s, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      // expected-error @+1 {{reverse_compute_at: block 'add' reads a buffer that loop 'a' around loop 'b' also indexes}}
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// y is read between the producer and the consumer: writing it earlier
// would change what that op sees.
tir.prim_func @output_read(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>, %w: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["reverse_compute_at add a"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
  // expected-note @+1 {{see this op}}
  %peek = tir.load %y[%c0, %c0] : !tir.buffer<[n, m], f32>
  tir.store %peek, %w[%c0, %c0] : !tir.buffer<[n, m], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      // expected-error @+1 {{reverse_compute_at: block 'add' writes a buffer read before it runs}}
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// The consumer reads t transposed: its variable j (extent m) would
// take the place of loop a (extent n).
tir.prim_func @transposed(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>, %w: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["reverse_compute_at add a"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
      // expected-error @+1 {{reverse_compute_at: block 'add' has a loop whose range differs from that of loop 'a'}}
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vj, %vi] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// The consumer reads row 0 of t only: no variable indexes dim 0.
tir.prim_func @row0(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>, %w: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["reverse_compute_at add a"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
      // expected-error @+1 {{reverse_compute_at: block 'add' has no variable that indexes the buffer as loop 'a' writes it}}
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%c0, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

tir.prim_func @unrelated(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>, %w: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["reverse_compute_at add a"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
      // expected-error @+1 {{reverse_compute_at: block 'add' reads no buffer written in loop 'a'}}
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// The consumer's inner loop takes its lower bound and step from constants
// defined inside the consumer's own row loop (as legalized programs do);
// that loop is erased, so the moved nest must not keep using them.
// CHECK-LABEL: tir.prim_func @bounds_inside
// CHECK: tir.for %[[A:.*]] = %{{.*}} to %{{.*}} step %{{.*}} name = "a" {
// CHECK: tir.for %{{.*}} = %[[Z:.*]] to %{{.*}} step %[[O:.*]] name = "j" {
// CHECK-NOT: tir.for
// CHECK: tir.return
tir.prim_func @bounds_inside(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["reverse_compute_at add a"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n, m], f32>
  tir.for %a = %c0 to %n step %c1 name = "a" {
    tir.for %b = %c0 to %m step %c1 name = "b" {
      tir.block "cp" (%va = %a, %vb = %b) kinds [spatial, spatial] {
        %v = tir.load %x[%va, %vb] : !tir.buffer<[n, m], f32>
        tir.store %v, %t[%va, %vb] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    %z = arith.constant 0 : index
    %o = arith.constant 1 : index
    tir.for %j = %z to %m step %o name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %t[%vi, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}
