// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// cache_read of x into a local buffer of the same symbolic shape: a copy
// nest over [n, m] runs before the nest, and the block reads the copy.
// CHECK-LABEL: tir.prim_func @read
// CHECK: %[[N:.*]] = tir.sym_var "n" : index
// CHECK: %[[C:.*]] = tir.alloc : !tir.buffer<[n, m], f32, local>
// CHECK: %[[CN:.*]] = tir.sym_var "n" : index
// CHECK: %[[CM:.*]] = tir.sym_var "m" : index
// CHECK: tir.for %[[A:.*]] = %{{.*}} to %[[CN]] step %{{.*}} name = "add_cache_read0.d0" {
// CHECK-NEXT: tir.for %[[B:.*]] = %{{.*}} to %[[CM]] step %{{.*}} name = "add_cache_read0.d1" {
// CHECK-NEXT: tir.block "add_cache_read0" (%[[VA:.*]] = %[[A]], %[[VB:.*]] = %[[B]]) kinds [spatial, spatial] {
// CHECK-NEXT: %[[V:.*]] = tir.load %arg0[%[[VA]], %[[VB]]] : !tir.buffer<[n, m], f32>
// CHECK-NEXT: tir.store %[[V]], %[[C]][%[[VA]], %[[VB]]] : !tir.buffer<[n, m], f32, local>
// CHECK: name = "i"
// CHECK: name = "j"
// CHECK-NEXT: tir.block "add"
// CHECK-NEXT: tir.load %[[C]][%{{.*}}, %{{.*}}] : !tir.buffer<[n, m], f32, local>
// CHECK-NEXT: arith.addf
// CHECK-NEXT: tir.store %{{.*}}, %arg1[
// CHECK: tir.return
tir.prim_func @read(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["cache_read add 0 local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %s = arith.addf %v, %one : f32
        tir.store %s, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// Read buffer #1 is b; only its loads move to the shared copy.
// CHECK-LABEL: tir.prim_func @read_second
// CHECK: %[[C:.*]] = tir.alloc : !tir.buffer<[n * 2], f32, shared>
// CHECK: tir.block "add_cache_read1"
// CHECK: tir.block "add" 
// CHECK-NEXT: tir.load %arg0[
// CHECK-NEXT: tir.load %[[C]][
tir.prim_func @read_second(%a: !tir.buffer<[n], f32>, %b: !tir.buffer<[n * 2], f32>,
                           %c: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add 1 shared"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %x = tir.load %a[%vi] : !tir.buffer<[n], f32>
      %y = tir.load %b[%vi] : !tir.buffer<[n * 2], f32>
      %s = arith.addf %x, %y : f32
      tir.store %s, %c[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// cache_write: the block stores every element of y (its iteration variables
// run over [n, m]), so no copy-in; the copy-back follows the nest.
// CHECK-LABEL: tir.prim_func @write
// CHECK: %[[C:.*]] = tir.alloc : !tir.buffer<[n, m], f32, local>
// CHECK-NOT: _cache_in
// CHECK: name = "i"
// CHECK: tir.block "add"
// CHECK: tir.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] : !tir.buffer<[n, m], f32, local>
// CHECK: %[[CN:.*]] = tir.sym_var "n" : index
// CHECK: %[[CM:.*]] = tir.sym_var "m" : index
// CHECK: tir.for %[[A:.*]] = %{{.*}} to %[[CN]] step %{{.*}} name = "add_cache_write_back.d0" {
// CHECK-NEXT: tir.for %[[B:.*]] = %{{.*}} to %[[CM]] step %{{.*}} name = "add_cache_write_back.d1" {
// CHECK-NEXT: tir.block "add_cache_write_back" (%[[VA:.*]] = %[[A]], %[[VB:.*]] = %[[B]])
// CHECK-NEXT: %[[V:.*]] = tir.load %[[C]][%[[VA]], %[[VB]]] : !tir.buffer<[n, m], f32, local>
// CHECK-NEXT: tir.store %[[V]], %arg1[%[[VA]], %[[VB]]] : !tir.buffer<[n, m], f32>
// CHECK: tir.return
tir.prim_func @write(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>)
    attributes {tir.schedule = ["cache_write add local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %j = %c0 to %m step %c1 name = "j" {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %s = arith.addf %v, %one : f32
        tir.store %s, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// -----

// A reduction (the block also reads y, and its init writes it): the copy
// is filled from y first, then every access of y in the block, init
// included, goes to the copy.
// CHECK-LABEL: tir.prim_func @write_reduce
// CHECK: %[[C:.*]] = tir.alloc : !tir.buffer<[n], f32, local>
// CHECK: tir.block "sum_cache_in"
// CHECK-NEXT: tir.load %arg1[
// CHECK-NEXT: tir.store %{{.*}}, %[[C]][
// CHECK: tir.block "sum"
// CHECK-NEXT: tir.init {
// CHECK-NEXT: tir.store %{{.*}}, %[[C]][
// CHECK: tir.load %[[C]][
// CHECK: tir.store %{{.*}}, %[[C]][
// CHECK: tir.block "sum_cache_write_back"
// CHECK-NEXT: tir.load %[[C]][
// CHECK-NEXT: tir.store %{{.*}}, %arg1[
tir.prim_func @write_reduce(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_write sum local"]} {
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
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %v = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// -----

// After a split the block runs under a guard: full coverage is not proved
// from the loops, so the copy is filled from y first.
// CHECK-LABEL: tir.prim_func @write_split
// CHECK: tir.alloc : !tir.buffer<[n], f32, local>
// CHECK: tir.block "add_cache_in"
// CHECK: name = "i.outer"
// CHECK: tir.block "add_cache_write_back"
tir.prim_func @write_split(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 4", "cache_write add local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// An in-place update reads y: the copy is filled from y first although the
// block stores at its iteration variables over the whole buffer.
// CHECK-LABEL: tir.prim_func @write_in_place
// CHECK: %[[C:.*]] = tir.alloc : !tir.buffer<[n], f32, local>
// CHECK: tir.block "inc_cache_in"
// CHECK: tir.block "inc"
// CHECK-NEXT: tir.load %[[C]][
// CHECK: tir.store %{{.*}}, %[[C]][
// CHECK: tir.block "inc_cache_write_back"
tir.prim_func @write_in_place(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_write inc local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "inc" (%vi = %i) kinds [spatial] {
      %v = tir.load %y[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %v, %one : f32
      tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @read_no_such(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add 1 local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @+1 {{cache_read: block 'add' reads 1 buffer(s), there is no read buffer #1}}
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// The buffer named by argument: y is only written by the block.
tir.prim_func @read_unread(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add arg1 local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @+1 {{cache_read: block 'add' does not read the buffer}}
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// The same buffer named by argument (x, argument 0) as by read index.
// CHECK-LABEL: tir.prim_func @read_by_argument
// CHECK: %[[C:.*]] = tir.alloc : !tir.buffer<[n], f32, shared>
// CHECK: tir.block "add_cache_read0"
// CHECK: tir.block "add"
// CHECK-NEXT: tir.load %[[C]][
tir.prim_func @read_by_argument(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add arg0 shared"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// x is updated in place inside the nest: a copy taken before it is stale.
tir.prim_func @read_written(%x: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add 0 local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @+1 {{cache_read: the buffer read by block 'add' is written inside the loop nest around it}}
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %v, %one : f32
      // expected-note @+1 {{written here}}
      tir.store %s, %x[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @write_two(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_write add local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @+1 {{cache_write: block 'add' writes 2 buffers, expected exactly one}}
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %x[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// Another block in the same nest reads y before the copy-back.
tir.prim_func @write_shared_nest(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>,
                                 %z: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_write add local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @+1 {{cache_write: the buffer written by block 'add' is accessed by another op in the loop nest around it}}
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
    tir.block "use" (%vi = %i) kinds [spatial] {
      // expected-note @+1 {{accessed here}}
      %v = tir.load %y[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %z[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// expected-error @+1 {{tir.schedule: malformed step 'cache_read add 0 texture'}}
tir.prim_func @bad_scope(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add 0 texture"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.block "add" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

// The block reads (writes) a buffer it allocates itself: there is no place
// outside it for the copy.
tir.prim_func @read_own_alloc(%y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_read add 0 local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @+1 {{cache_read: block 'add' is not in the scope of the buffer}}
    tir.block "add" (%vi = %i) kinds [spatial] {
      %t = tir.alloc : !tir.buffer<[4], f32>
      %v = tir.load %t[%c0] : !tir.buffer<[4], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @write_own_alloc(%x: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["cache_write add local"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @+1 {{cache_write: block 'add' is not in the scope of the buffer}}
    tir.block "add" (%vi = %i) kinds [spatial] {
      %t = tir.alloc : !tir.buffer<[4], f32>
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %t[%c0] : !tir.buffer<[4], f32>
    }
  }
  tir.return
}
