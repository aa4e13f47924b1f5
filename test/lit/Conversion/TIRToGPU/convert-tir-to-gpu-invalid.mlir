// RUN: relax-opt %s --convert-tir-to-gpu -split-input-file -verify-diagnostics

func.func @dynamic_threads(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%c1) step (%c1) {
    // expected-error@+1 {{thread-mapped loop needs a constant extent in [1, 1024]}}
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @unmapped_inside(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    // expected-error@+1 {{unmapped parallel loop inside a GPU kernel}}
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      scf.reduce
    }
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @stray_thread_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-error@+1 {{thread-mapped loop outside a block-mapped loop}}
  scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @grid_depends_on_block(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    // expected-error@+1 {{block-mapped loop extent depends on an enclosing block loop}}
    scf.parallel (%c) = (%c0) to (%b) step (%c1) {
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @strided_block(%n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error@+1 {{GPU-mapped loop must be one-dimensional with lower bound 0 and step 1}}
  scf.parallel (%b) = (%c0) to (%n) step (%c2) {
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @reducing_block(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{GPU-mapped loop must not reduce values}}
  %r = scf.parallel (%b) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %one = arith.constant 1.0 : f32
    scf.reduce(%one : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return %r : f32
}

// -----

func.func @same_block_axis(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    // expected-error@+1 {{two loops are mapped to the same block axis}}
    scf.parallel (%b2) = (%c0) to (%n) step (%c1) {
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @too_many_threads(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{more than 1024 threads per block}}
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    scf.parallel (%tx) = (%c0) to (%c64) step (%c1) {
      scf.parallel (%ty) = (%c0) to (%c64) step (%c1) {
        scf.reduce
      } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

func.func @dynamic_shared(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    // expected-error@+1 {{shared buffer needs a static shape on GPU}}
    %s = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    memref.dealloc %s : memref<?xf32, #gpu.address_space<workgroup>>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// A block loop beside a store is no further grid axis: the store would run
// once per block of the outer axis only.
func.func @block_loop_below_code(%n: index, %buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %buf[%b] : memref<?xf32>
    // expected-error@+1 {{block-mapped loop nested below other code in a kernel}}
    scf.parallel (%c) = (%c0) to (%n) step (%c1) {
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
