// RUN: relax-opt %s -split-input-file -verify-diagnostics

tir.prim_func @index_count(%a: !tir.buffer<[n, 4], f32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{expects 2 indices for '!tir.buffer<[n, 4], f32>', got 1}}
  %x = tir.load %a[%c0] : !tir.buffer<[n, 4], f32>
  tir.return
}

// -----

tir.prim_func @store_index_count(%a: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 0.0 : f32
  // expected-error@+1 {{expects 1 indices}}
  tir.store %v, %a[%c0, %c0] : !tir.buffer<[n], f32>
  tir.return
}

// -----

tir.prim_func @load_dtype(%a: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{result type is the buffer dtype}}
  %x = "tir.load"(%a, %c0) : (!tir.buffer<[n], f32>, index) -> f16
  tir.return
}

// -----

tir.prim_func @store_dtype(%a: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 0 : i32
  // expected-error@+1 {{stored value type is the buffer dtype}}
  "tir.store"(%v, %a, %c0) : (i32, !tir.buffer<[n], f32>, index) -> ()
  tir.return
}

// -----

tir.prim_func @unbound_sym_var(%a: !tir.buffer<[n], f32>) {
  // expected-error@+1 {{symbolic variable 'm' is not bound by the parameters of @unbound_sym_var}}
  %m = tir.sym_var "m" : index
  tir.return
}

// -----

// An expression dim does not bind its variables.
tir.prim_func @expr_dim_binds_nothing(%a: !tir.buffer<[n + 1], f32>, %b: !tir.buffer<[n], f32>) {
  %m = tir.sym_var "n" : index
  tir.return
}
// expected-error@+1 {{parameter #0 uses symbolic variable 'k' that no parameter binds}}
tir.prim_func @unbound_param(%a: !tir.buffer<[k + 1], f32>) {
  tir.return
}

// -----

tir.prim_func @unbound_alloc(%a: !tir.buffer<[n], f32>) {
  // expected-error@+1 {{shape uses symbolic variable 'm' that the parameters of @unbound_alloc do not bind}}
  %t = tir.alloc : !tir.buffer<[n * m], f32>
  tir.return
}

// -----

func.func @sym_var_outside() {
  // expected-error@+1 {{must be nested in a tir.prim_func}}
  %n = tir.sym_var "n" : index
  return
}

// -----

tir.prim_func @block_kinds(%a: !tir.buffer<[4], f32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{has 2 iteration variables but 1 kinds}}
  tir.block "b" (%vi = %c0, %vj = %c0) kinds [spatial] {
  }
  tir.return
}

// -----

tir.prim_func @init_without_reduce(%a: !tir.buffer<[4], f32>) {
  %c0 = arith.constant 0 : index
  tir.block "b" (%vi = %c0) kinds [spatial] {
    // expected-error@+1 {{is only allowed in a block with a reduce iteration variable}}
    tir.init {
    }
  }
  tir.return
}

// -----

tir.prim_func @init_not_first(%a: !tir.buffer<[4], f32>) {
  %c0 = arith.constant 0 : index
  tir.block "b" (%vk = %c0) kinds [reduce] {
    %x = arith.constant 0 : index
    // expected-error@+1 {{must be the first op of its tir.block}}
    tir.init {
    }
  }
  tir.return
}

// -----

tir.prim_func @bad_thread() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{unknown thread axis 'warpIdx.x' (expected blockIdx.x/y/z or threadIdx.x/y/z)}}
  tir.for %i = %c0 to %c1 step %c1 kind = thread_binding thread = "warpIdx.x" {
  }
  tir.return
}

// -----

tir.prim_func @missing_thread() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{thread_binding loop needs a 'thread' axis}}
  tir.for %i = %c0 to %c1 step %c1 kind = thread_binding {
  }
  tir.return
}

// -----

tir.prim_func @thread_on_serial() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'thread' is only allowed on a thread_binding loop}}
  tir.for %i = %c0 to %c1 step %c1 thread = "threadIdx.x" {
  }
  tir.return
}

// -----

tir.prim_func @bad_kind() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{unknown loop kind 'pipelined'}}
  tir.for %i = %c0 to %c1 step %c1 kind = pipelined {
  }
  tir.return
}

// -----

// expected-error@+1 {{unknown memory scope 'texture' (expected global, shared or local)}}
tir.prim_func @bad_scope(%a: !tir.buffer<[4], f32, texture>) {
  tir.return
}

// -----

// expected-error@+1 {{parameter #0 must be a global buffer, got scope 'shared'}}
tir.prim_func @shared_param(%a: !tir.buffer<[4], f32, shared>) {
  tir.return
}

// -----

// A string is not a kind.
// expected-error@+1 {{'op_pattern' must be a #tir.op_pattern<...> (elementwise, broadcast, injective, reduction, out_ewise_fusable or opaque); got "elementwise"}}
tir.prim_func @string_pattern(%a: !tir.buffer<[4], f32>) attributes {op_pattern = "elementwise"} {
  tir.return
}

// -----

// expected-error@+2 {{expected ::mlir::tir::OpPattern to be one of: elementwise, broadcast, injective, reduction, out_ewise_fusable, opaque}}
// expected-error@+1 {{failed to parse TIR_OpPatternAttr parameter 'value'}}
tir.prim_func @bad_pattern(%a: !tir.buffer<[4], f32>) attributes {op_pattern = #tir.op_pattern<fancy>} {
  tir.return
}

// -----

// expected-error@+1 {{parameter #0: 'tir.var' names an index parameter's variable}}
tir.prim_func @var_on_buffer(%a: !tir.buffer<[4], f32> {tir.var = "n"}) {
  tir.return
}

// -----

// expected-error@+1 {{parameter #0 has an unknown dim}}
tir.prim_func @unknown_dim(%a: !tir.buffer<[?], f32>) {
  tir.return
}

// -----

tir.prim_func @bad_iter_kind() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{unknown iteration kind 'ordered' (expected spatial or reduce)}}
  tir.block "b" (%vi = %c0) kinds [ordered] {
  }
  tir.return
}

// -----

// expected-error@+1 {{'tir.prim_func' op returns nothing: outputs are destination buffers}}
"tir.prim_func"() <{function_type = () -> index, sym_name = "returns"}> ({
  %c0 = arith.constant 0 : index
  "tir.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'tir.prim_func' op parameter #0 must be a !tir.buffer or index, got 'f32'}}
tir.prim_func @scalar_param(%x: f32) {
  tir.return
}

// -----

// expected-error@+1 {{'tir.prim_func' op parameter #0 has an unknown dim: tir buffers have known shapes}}
tir.prim_func @unknown_dim(%a: !tir.buffer<[?], f32>) {
  tir.return
}

// -----

// expected-error@+1 {{'tir.prim_func' op parameter #0 uses symbolic variable 'n' that no parameter binds (a bare buffer dim or a 'tir.var' index parameter)}}
tir.prim_func @unbound_param_var(%a: !tir.buffer<[n + 1], f32>) {
  tir.return
}

// -----

// expected-error@+1 {{buffer shape must have a known rank}}
tir.prim_func @unranked(%a: !tir.buffer<*, f32>) {
  tir.return
}

// -----

// expected-error@+1 {{buffer dtype must be an integer or float type, got 'complex<f32>'}}
tir.prim_func @complex(%a: !tir.buffer<[4], complex<f32>>) {
  tir.return
}

// -----

tir.prim_func @for_two_ivs() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'tir.for' op body must take one index induction variable}}
  "tir.for"(%c0, %c1, %c1) <{kind = 0 : i32}> ({
  ^bb0(%i: index, %j: index):
    "tir.yield"() : () -> ()
  }) : (index, index, index) -> ()
  tir.return
}

// -----

tir.prim_func @block_args() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tir.block' op body takes 0 arguments, expected one per iteration variable (1)}}
  "tir.block"(%c0) <{block_name = "b", iter_kinds = [0 : i32]}> ({
    "tir.yield"() : () -> ()
  }) : (index) -> ()
  tir.return
}

// -----

tir.prim_func @block_arg_type() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tir.block' op iteration variables must be index values}}
  "tir.block"(%c0) <{block_name = "b", iter_kinds = [0 : i32]}> ({
  ^bb0(%vi: i32):
    "tir.yield"() : () -> ()
  }) : (index) -> ()
  tir.return
}

// -----

tir.prim_func @alloc_unknown(%a: !tir.buffer<[n], f32>) {
  // expected-error@+1 {{'tir.alloc' op cannot allocate a buffer with an unknown dim}}
  %t = tir.alloc : !tir.buffer<[?], f32>
  tir.return
}

// -----

tir.prim_func @mma_acc_dtype(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[4], f16, local>
  %a = tir.alloc : !tir.buffer<[16, 16], f16, shared>
  // expected-error@+1 {{'tir.mma_sync' op accumulates in f32, got 'f16'}}
  tir.mma_sync %c0, %acc[%c0], %a[%c0, %c0], %a[%c0, %c0] : !tir.buffer<[4], f16, local>, !tir.buffer<[16, 16], f16, shared>, !tir.buffer<[16, 16], f16, shared>
  tir.return
}

// -----

tir.prim_func @mma_dtype(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[4], f32, local>
  %a = tir.alloc : !tir.buffer<[16, 16], f32, shared>
  // expected-error@+1 {{'tir.mma_sync' op multiplies f16 or bf16, got 'f32'}}
  tir.mma_sync %c0, %acc[%c0], %a[%c0, %c0], %a[%c0, %c0] : !tir.buffer<[4], f32, local>, !tir.buffer<[16, 16], f32, shared>, !tir.buffer<[16, 16], f32, shared>
  tir.return
}

// -----

tir.prim_func @mma_mixed(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[4], f32, local>
  %a = tir.alloc : !tir.buffer<[16, 16], f16, shared>
  %b = tir.alloc : !tir.buffer<[16, 16], bf16, shared>
  // expected-error@+1 {{'tir.mma_sync' op operands a and b must have the same dtype, got 'f16' and 'bf16'}}
  tir.mma_sync %c0, %acc[%c0], %a[%c0, %c0], %b[%c0, %c0] : !tir.buffer<[4], f32, local>, !tir.buffer<[16, 16], f16, shared>, !tir.buffer<[16, 16], bf16, shared>
  tir.return
}

// -----

tir.prim_func @mma_rank(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[4], f32, local>
  %a = tir.alloc : !tir.buffer<[16], f16, shared>
  // expected-error@+1 {{'tir.mma_sync' op operands a and b must be tiles of rank 2 or more}}
  tir.mma_sync %c0, %acc[%c0], %a[%c0], %a[%c0] : !tir.buffer<[4], f32, local>, !tir.buffer<[16], f16, shared>, !tir.buffer<[16], f16, shared>
  tir.return
}

// -----

tir.prim_func @mma_local_b(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[4], f32, local>
  %p = tir.alloc : !tir.buffer<[8], f16, local>
  %b = tir.alloc : !tir.buffer<[16, 16], f16, local>
  // expected-error@+1 {{'tir.mma_sync' op operand b must not be local: only a may be held in registers}}
  tir.mma_sync %c0, %acc[%c0], %p[%c0], %b[%c0, %c0] b_k_by_n : !tir.buffer<[4], f32, local>, !tir.buffer<[8], f16, local>, !tir.buffer<[16, 16], f16, local>
  tir.return
}

// -----

tir.prim_func @mma_indices(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[4], f32, local>
  %a = tir.alloc : !tir.buffer<[16, 16], f16, shared>
  // expected-error@+1 {{'tir.mma_sync' op expects 2 indices for '!tir.buffer<[16, 16], f16, shared>', got 1}}
  tir.mma_sync %c0, %acc[%c0], %a[%c0], %a[%c0, %c0] : !tir.buffer<[4], f32, local>, !tir.buffer<[16, 16], f16, shared>, !tir.buffer<[16, 16], f16, shared>
  tir.return
}

// -----

tir.prim_func @copy_dtype(%x: !tir.buffer<[m, 64], f16>) {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %s = tir.alloc : !tir.buffer<[64, 40], bf16, shared>
  // expected-error@+1 {{'tir.copy_async' op copies between buffers of one dtype, got 'f16' and 'bf16'}}
  tir.copy_async %s[%c0, %c0], %x[%c0, %c0], %true {lanes = 8 : i64} : !tir.buffer<[64, 40], bf16, shared>, !tir.buffer<[m, 64], f16>
  tir.return
}

// -----

tir.prim_func @copy_bytes(%x: !tir.buffer<[m, 64], f16>) {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %s = tir.alloc : !tir.buffer<[64, 40], f16, shared>
  // expected-error@+1 {{'tir.copy_async' op copies 4, 8 or 16 bytes, got 3 x 'f16'}}
  tir.copy_async %s[%c0, %c0], %x[%c0, %c0], %true {lanes = 3 : i64} : !tir.buffer<[64, 40], f16, shared>, !tir.buffer<[m, 64], f16>
  tir.return
}

// -----

tir.prim_func @vector_dtype(%x: !tir.buffer<[n, 8], f16>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tir.vector_load' op vector element type 'f32' is not the buffer dtype 'f16'}}
  %v = tir.vector_load %x[%c0, %c0] : !tir.buffer<[n, 8], f16> -> vector<4xf32>
  tir.return
}

// -----

tir.prim_func @vector_alignment(%x: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %v = tir.vector_load %x[%c0] : !tir.buffer<[n], f32> -> vector<4xf32>
  // expected-error@+1 {{'tir.vector_store' op alignment must be a power of two, got 12}}
  tir.vector_store %v, %x[%c0] {alignment = 12 : i64} : vector<4xf32>, !tir.buffer<[n], f32>
  tir.return
}

// -----

tir.prim_func @vector_indices(%x: !tir.buffer<[n, 4], f32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tir.vector_load' op expects 2 indices for '!tir.buffer<[n, 4], f32>', got 1}}
  %v = tir.vector_load %x[%c0] : !tir.buffer<[n, 4], f32> -> vector<4xf32>
  tir.return
}
// -----

tir.prim_func @wgmma_acc_dtype(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[64], f16, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  // expected-error@+1 {{'tir.wgmma' op accumulates in f32, got 'f16'}}
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c0], %a[%c0, %c0, %c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f16, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  tir.return
}

// -----

tir.prim_func @wgmma_n(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[64], f32, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  // expected-error@+1 {{'tir.wgmma' op n must be a multiple of 8 in [8, 256], got 100}}
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c0], %a[%c0, %c0, %c0] {n = 100 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  tir.return
}

// -----

tir.prim_func @wgmma_k(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[64], f32, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  // expected-error@+1 {{'tir.wgmma' op k must be a positive multiple of 16, got 24}}
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c0], %a[%c0, %c0, %c0] {n = 128 : i64, k = 24 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  tir.return
}

// -----

tir.prim_func @wgmma_dtype(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[64], f32, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f32, shared>
  // expected-error@+1 {{'tir.wgmma' op multiplies f16 or bf16, got 'f32'}}
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c0], %a[%c0, %c0, %c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f32, shared>, !tir.buffer<[2, 4, 16, 8, 8], f32, shared>
  tir.return
}

// -----

tir.prim_func @wgmma_mixed(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[64], f32, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  %b = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
  // expected-error@+1 {{'tir.wgmma' op operands a and b must have the same dtype, got 'f16' and 'bf16'}}
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c0], %b[%c0, %c0, %c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>, !tir.buffer<[2, 4, 16, 8, 8], bf16, shared>
  tir.return
}

// -----

tir.prim_func @wgmma_layout(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[64], f32, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  %b = tir.alloc : !tir.buffer<[2, 128, 40], f16, shared>
  // expected-error@+1 {{'tir.wgmma' op operand b must be a static tile of 8 x 8 core matrices ([.., K / 8, R / 8, 8, 8]), got '!tir.buffer<[2, 128, 40], f16, shared>'}}
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c0], %b[%c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>, !tir.buffer<[2, 128, 40], f16, shared>
  tir.return
}

// -----

tir.prim_func @wgmma_indices(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[64], f32, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  // expected-error@+1 {{'tir.wgmma' op expects 3 indices for operand a, got 5}}
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c0, %c0, %c0], %a[%c0, %c0, %c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  tir.return
}

// -----

tir.prim_func @wgmma_small(%o: !tir.buffer<[m], f32>) {
  %c0 = arith.constant 0 : index
  %acc = tir.alloc : !tir.buffer<[64], f32, local>
  %a = tir.alloc : !tir.buffer<[2, 4, 16, 8, 8], f16, shared>
  %b = tir.alloc : !tir.buffer<[2, 4, 8, 8, 8], f16, shared>
  // expected-error@+1 {{'tir.wgmma' op operand b holds 64 x 32 elements, fewer than the 128 x 32 of the product}}
  tir.wgmma %c0, %acc[%c0], %a[%c0, %c0, %c0], %b[%c0, %c0, %c0] {n = 128 : i64, k = 32 : i64} : !tir.buffer<[64], f32, local>, !tir.buffer<[2, 4, 16, 8, 8], f16, shared>, !tir.buffer<[2, 4, 8, 8, 8], f16, shared>
  tir.return
}

// -----

tir.prim_func @tma_src_indices(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op expects 2 source indices (the box corner), got 1}}
  tir.tma_load %tile[%c0], %x[%c0], %bars[%c0], %map : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_dst_indices(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op expects 1 destination indices (its dims before the box), got 0}}
  tir.tma_load %tile[], %x[%c0, %c0], %bars[%c0], %map : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_dst_rank(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  %small = tir.alloc : !tir.buffer<[64], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op destination of rank 1 cannot hold a box of rank 2}}
  tir.tma_load %small[], %x[%c0, %c0], %bars[%c0], %map : !tir.buffer<[64], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_src_scope(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  %shared = tir.alloc : !tir.buffer<[64, 32], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op copies from a global buffer, got '!tir.buffer<[64, 32], f16, shared>'}}
  tir.tma_load %tile[%c0], %shared[%c0, %c0], %bars[%c0], %map : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[64, 32], f16, shared>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_dtype(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  %f32tile = tir.alloc : !tir.buffer<[2, 64, 32], f32, shared>
  // expected-error@+1 {{'tir.tma_load' op copies between buffers of one dtype, got 'f16' and 'f32'}}
  tir.tma_load %f32tile[%c0], %x[%c0, %c0], %bars[%c0], %map : !tir.buffer<[2, 64, 32], f32, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_box(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  %big = tir.alloc : !tir.buffer<[512, 32], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op box dims (the last 2 of the destination) must be constants in [1, 256], got '!tir.buffer<[512, 32], f16, shared>'}}
  tir.tma_load %big[], %x[%c0, %c0], %bars[%c0], %map : !tir.buffer<[512, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_row_bytes(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  %narrow = tir.alloc : !tir.buffer<[64, 4], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op the box's last dim must be a multiple of 16 bytes, got 8}}
  tir.tma_load %narrow[], %x[%c0, %c0], %bars[%c0], %map : !tir.buffer<[64, 4], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_swizzle(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op swizzle must be 0, 32, 64 or 128 bytes, got 96}}
  tir.tma_load %tile[%c0], %x[%c0, %c0], %bars[%c0], %map {swizzle = 96 : i64} : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_swizzle_span(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op the box's last dim (64 bytes) exceeds the 32-byte swizzle span}}
  tir.tma_load %tile[%c0], %x[%c0, %c0], %bars[%c0], %map {swizzle = 32 : i64} : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_barriers(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  %words = tir.alloc : !tir.buffer<[2], i32, shared>
  // expected-error@+1 {{'tir.tma_load' op mbarriers must be a rank-1 i64 buffer, got '!tir.buffer<[2], i32, shared>'}}
  tir.tma_load %tile[%c0], %x[%c0, %c0], %words[%c0], %map : !tir.buffer<[2, 64, 32], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i32, shared>
  tir.return
}

// -----

tir.prim_func @mbarrier_count(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  // expected-error@+1 {{'tir.mbarrier_init' op arrival count must be in [1, 2^20), got 0}}
  tir.mbarrier_init %bars[%c0] {count = 0 : i64} : !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @mbarrier_bytes(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  // expected-error@+1 {{'tir.mbarrier_arrive_expect_tx' op transaction bytes must be in [1, 2^20), got 1048576}}
  tir.mbarrier_arrive_expect_tx %bars[%c0] {bytes = 1048576 : i64} : !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @mbarrier_wait_type(%x: !tir.buffer<[m, k], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 64, 32], f16, shared>
  %tile2 = tir.alloc : !tir.buffer<[2, 2], i64, shared>
  // expected-error@+1 {{'tir.mbarrier_wait' op mbarriers must be a rank-1 i64 buffer, got '!tir.buffer<[2, 2], i64, shared>'}}
  tir.mbarrier_wait %tile2[%c0], %c0 : !tir.buffer<[2, 2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_rank(%x: !tir.buffer<[2, 2, 2, 2, 2, 16], f16>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[2, 2, 2, 2, 2, 16], f16, shared>
  // expected-error@+1 {{'tir.tma_load' op copies from a source of rank 1 to 5, got 6}}
  tir.tma_load %tile[], %x[%c0, %c0, %c0, %c0, %c0, %c0], %bars[%c0], %map : !tir.buffer<[2, 2, 2, 2, 2, 16], f16, shared>, !tir.buffer<[2, 2, 2, 2, 2, 16], f16>, !tir.buffer<[2], i64, shared>
  tir.return
}

// -----

tir.prim_func @tma_int(%x: !tir.buffer<[m, k], i32>) {
  %c0 = arith.constant 0 : index
  %map = arith.constant 0 : i64
  %bars = tir.alloc : !tir.buffer<[2], i64, shared>
  %tile = tir.alloc : !tir.buffer<[64, 32], i32, shared>
  // expected-error@+1 {{'tir.tma_load' op copies f16, bf16 or f32, got 'i32'}}
  tir.tma_load %tile[], %x[%c0, %c0], %bars[%c0], %map : !tir.buffer<[64, 32], i32, shared>, !tir.buffer<[m, k], i32>, !tir.buffer<[2], i64, shared>
  tir.return
}
