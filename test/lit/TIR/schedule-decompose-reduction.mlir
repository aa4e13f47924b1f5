// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// Decomposed at the reduction loop: the init runs once per row, before it.
// CHECK-LABEL: tir.prim_func @at_k
// CHECK: tir.for %[[I:.*]] = %{{.*}} name = "i" {
// CHECK-NEXT: tir.block "sum_init" (%[[VI:.*]] = %[[I]]) kinds [spatial] {
// CHECK-NEXT: tir.store %{{.*}}, %{{.*}}[%[[VI]]]
// CHECK: tir.for %[[K:.*]] = %{{.*}} name = "k" {
// CHECK-NEXT: tir.block "sum" (%{{.*}} = %[[I]], %{{.*}} = %[[K]]) kinds [spatial, reduce] {
// CHECK-NOT: tir.init
// CHECK: tir.return
tir.prim_func @at_k(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["decompose_reduction sum k"]} {
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

// Decomposed at the outer loop of a split spatial loop: the init nest copies
// the spatial loops and the bounds guard, not the reduction loop.
// CHECK-LABEL: tir.prim_func @at_outer
// CHECK: tir.for %[[O:.*]] = %{{.*}} name = "i.outer_init" {
// CHECK-NEXT: tir.for %[[I:.*]] = %{{.*}} name = "i.inner_init" {
// CHECK: %[[IDX:.*]] = arith.addi
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[IDX]]
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: tir.block "sum_init" (%{{.*}} = %[[IDX]]) kinds [spatial] {
// CHECK: name = "i.outer" {
// CHECK: name = "i.inner" {
// CHECK: name = "k" {
// CHECK: tir.block "sum"
// CHECK-NOT: tir.init
// CHECK: tir.return
tir.prim_func @at_outer(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split i 4", "decompose_reduction sum i.outer"]} {
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

tir.prim_func @no_init(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["decompose_reduction sum k"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      // expected-error @below {{decompose_reduction: block 'sum' has no tir.init}}
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
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

// The reduction loop k is outside i: an init before i would run m times.
tir.prim_func @reduce_outside(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["decompose_reduction sum i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %k = %c0 to %m step %c1 name = "k" {
    // expected-error @below {{decompose_reduction: a reduce variable of block 'sum' is driven by loop 'k' outside loop 'i'}}
    tir.for %i = %c0 to %n step %c1 name = "i" {
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

tir.prim_func @not_inside(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["decompose_reduction sum j"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %j = %c0 to %n step %c1 name = "j" {
  }
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      // expected-error @below {{decompose_reduction: block 'sum' is not inside loop 'j'}}
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

// A fused spatial x reduce loop cannot be split into an init nest.
tir.prim_func @mixed_loop(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["fuse i k", "decompose_reduction sum i.k.fused"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  // expected-error @below {{decompose_reduction: loop 'i.k.fused' drives both spatial and reduce variables of block 'sum'}}
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

// The bounds guard of the split reduction loop cannot be copied into an init
// nest that has no reduction loop: decompose before splitting k.
tir.prim_func @guard_on_reduce(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["split k 3", "decompose_reduction sum i"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    // expected-error @below {{decompose_reduction: the scf.if condition depends on a loop the init nest drops}}
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

// j's extent is the reduction index: the init nest has no k to read it from.
tir.prim_func @bound_on_reduce(%x: !tir.buffer<[n, n], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["decompose_reduction sum k"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  tir.for %k = %c0 to %n step %c1 name = "k" {
    %e = arith.addi %k, %c1 : index
    // expected-error @below {{decompose_reduction: a bound of loop 'j' depends on a loop the init nest drops}}
    tir.for %j = %c0 to %e step %c1 name = "j" {
      tir.block "sum" (%vj = %j, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          tir.store %zero, %y[%vj] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %y[%vj] : !tir.buffer<[n], f32>
        %v = tir.load %x[%vj, %vk] : !tir.buffer<[n, n], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vj] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// -----

// The init reads a reduce variable: hoisted out of the reduction loop, it
// would have none.
tir.prim_func @init_uses_reduce(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["decompose_reduction sum k"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        // expected-error @below {{decompose_reduction: the init of block 'sum' uses a reduce variable}}
        tir.init {
          %first = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
          tir.store %first, %y[%vi] : !tir.buffer<[n], f32>
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

// A block in the else branch of an scf.if: the init nest keeps only then
// branches.
tir.prim_func @else_guard(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["decompose_reduction sum k"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      %small = arith.cmpi ult, %k, %c1 : index
      // expected-error @below {{decompose_reduction: unsupported scf.if around block 'sum'}}
      scf.if %small {
      } else {
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
  }
  tir.return
}

// -----

// An op around the block that is neither a loop nor an scf.if.
tir.prim_func @region_around(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>)
    attributes {tir.schedule = ["decompose_reduction sum k"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 name = "i" {
    tir.for %k = %c0 to %m step %c1 name = "k" {
      // expected-error @below {{decompose_reduction: unsupported op around block 'sum'}}
      scf.execute_region {
        tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
          tir.init {
            tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
          }
          %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
          %v = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
          %s = arith.addf %acc, %v : f32
          tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
        }
        scf.yield
      }
    }
  }
  tir.return
}
