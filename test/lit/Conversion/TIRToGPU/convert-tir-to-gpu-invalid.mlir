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
