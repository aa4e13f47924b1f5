// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// y = x * 2 + 1 through a scratch buffer: after inlining, one loop nest
// computes y from x directly and the buffer is gone.
// CHECK-LABEL: tir.prim_func @inline
// CHECK-NOT: tir.alloc
// CHECK: tir.for %[[I:.*]] = %{{.*}} name = "j" {
// CHECK-NEXT: tir.block "add" (%[[V:.*]] = %[[I]]) kinds [spatial] {
// CHECK-NEXT: %[[X:.*]] = tir.load %{{.*}}[%[[V]]] : !tir.buffer<[n], f32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[M]], %{{.*}} : f32
// CHECK-NEXT: tir.store %[[S]], %{{.*}}[%[[V]]] : !tir.buffer<[n], f32>
// CHECK-NOT: tir.for
// CHECK: tir.return
tir.prim_func @inline(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compute_inline mul"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "mul" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      %m = arith.mulf %v, %two : f32
      tir.store %m, %t[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.for %j = %c0 to %n step %c1 name = "j" {
    tir.block "add" (%vj = %j) kinds [spatial] {
      %w = tir.load %t[%vj] : !tir.buffer<[n], f32>
      %s = arith.addf %w, %one : f32
      tir.store %s, %y[%vj] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// A split producer goes away with its loops and guard.
// CHECK-LABEL: tir.prim_func @inline_split
// CHECK-NOT: i.outer
// CHECK: name = "j"
// CHECK: tir.load %{{.*}} : !tir.buffer<[n], f32>
// CHECK-NEXT: arith.mulf
// CHECK: tir.return
tir.prim_func @inline_split(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 4", "compute_inline mul"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "mul" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      %m = arith.mulf %v, %two : f32
      tir.store %m, %t[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.for %j = %c0 to %n step %c1 name = "j" {
    tir.block "copy" (%vj = %j) kinds [spatial] {
      %w = tir.load %t[%vj] : !tir.buffer<[n], f32>
      tir.store %w, %y[%vj] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// The producer writes a parameter: the caller reads it, so it must stay.
tir.prim_func @param_out(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compute_inline mul"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{compute_inline: block 'mul' writes a buffer that is not a tir.alloc}}
    tir.block "mul" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      %m = arith.mulf %v, %two : f32
      tir.store %m, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @reduce(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compute_inline sum"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      // expected-error @below {{compute_inline: block 'sum' has a reduce iteration variable}}
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        %acc = tir.load %t[%vi] : !tir.buffer<[n], f32>
        %v = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %t[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// -----

// A transposed store is not elementwise in the block's variables.
tir.prim_func @transposed(%x: !tir.buffer<[n, n], f32>, %y: !tir.buffer<[n, n], f32>)
    attributes {tir.schedule = ["compute_inline tr"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %t = tir.alloc : !tir.buffer<[n, n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %n step %c1 name = "j" {
      // expected-error @below {{compute_inline: block 'tr' must store at its iteration variables, in order}}
      tir.block "tr" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, n], f32>
        tir.store %v, %t[%vj, %vi] : !tir.buffer<[n, n], f32>
      }
    }
  }
  tir.return
}

// -----

// x is overwritten after the producer ran: inlining would read the new x.
tir.prim_func @input_written(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compute_inline cp"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{compute_inline: block 'cp' reads a buffer that is written elsewhere}}
    tir.block "cp" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %t[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "z" {
    tir.store %zero, %x[%i] : !tir.buffer<[n], f32>
  }
  tir.for %i = %c0 to %n step %c1 name = "j" {
    %w = tir.load %t[%i] : !tir.buffer<[n], f32>
    tir.store %w, %y[%i] : !tir.buffer<[n], f32>
  }
  tir.return
}

// -----

tir.prim_func @two_writers(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compute_inline cp"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{compute_inline: block 'cp' writes a buffer that another op also writes}}
    tir.block "cp" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %t[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.store %zero, %t[%c0] : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "j" {
    %w = tir.load %t[%i] : !tir.buffer<[n], f32>
    tir.store %w, %y[%i] : !tir.buffer<[n], f32>
  }
  tir.return
}

// -----

// The producer's input is written by an earlier nest (the fused form of
// matmul + bias add): that write is finished before the producer and every
// consumer, so the producer inlines and its buffer goes away.
// CHECK-LABEL: tir.prim_func @input_written_before
// CHECK: tir.alloc
// CHECK-NOT: tir.alloc
// CHECK: tir.for {{.*}} name = "z"
// CHECK-NOT: name = "i"
// CHECK: tir.block "use"
// CHECK-NEXT: tir.load %[[T:.*]][%{{.*}}] : !tir.buffer<[n], f32>
// CHECK-NEXT: arith.addf
// CHECK-NEXT: tir.store
tir.prim_func @input_written_before(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["compute_inline cp"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = tir.sym_var "n" : index
  %a = tir.alloc : !tir.buffer<[n], f32>
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 name = "z" {
    %v = tir.load %x[%i] : !tir.buffer<[n], f32>
    tir.store %v, %a[%i] : !tir.buffer<[n], f32>
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "cp" (%vi = %i) kinds [spatial] {
      %v = tir.load %a[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %v, %one : f32
      tir.store %s, %t[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.for %i = %c0 to %n step %c1 name = "j" {
    tir.block "use" (%vj = %i) kinds [spatial] {
      %w = tir.load %t[%vj] : !tir.buffer<[n], f32>
      tir.store %w, %y[%vj] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// A buffer read by a vector access (the GPU schedules' 128-bit loads) keeps
// its producer: inlining would leave that read without data.
tir.prim_func @vector_reader(%x: !tir.buffer<[8], f32>, %y: !tir.buffer<[8], f32>)
    attributes {tir.schedule = ["compute_inline cp"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = tir.alloc : !tir.buffer<[8], f32>
  tir.for %i = %c0 to %c8 step %c1 name = "i" {
    // expected-error @below {{compute_inline: block 'cp' has its buffer accessed by 'tir.vector_load', which cannot be inlined}}
    tir.block "cp" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[8], f32>
      tir.store %v, %t[%vi] : !tir.buffer<[8], f32>
    }
  }
  %w = tir.vector_load %t[%c0] : !tir.buffer<[8], f32> -> vector<8xf32>
  tir.vector_store %w, %y[%c0] : vector<8xf32>, !tir.buffer<[8], f32>
  tir.return
}
