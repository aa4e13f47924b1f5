// RUN: relax-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{'extern.func' op input parameter #0 must be a relax tensor or a relax prim, got 'memref<?xf32>'}}
extern.func private @f(memref<?xf32>, !relax.tensor<[n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}

// -----

// expected-error@+1 {{'extern.func' op output parameter #1 must be a relax tensor, got '!relax.prim<f32>'}}
extern.func private @f(!relax.tensor<[n], f32>, !relax.prim<f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}

// -----

// expected-error@+1 {{'extern.func' op num_outputs = 3 but the function has 2 parameters}}
extern.func private @f(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "f", num_outputs = 3 : i64}

// -----

// expected-error@+1 {{'extern.func' op link_name must not be empty}}
extern.func private @f(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "", num_outputs = 1 : i64}

// -----

// expected-error@+1 {{'extern.func' op returns nothing: outputs are destination arguments}}
extern.func private @f(!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    attributes {link_name = "f", num_outputs = 0 : i64}

// -----

// expected-error@+1 {{requires attribute 'link_name'}}
extern.func private @f(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {num_outputs = 1 : i64}

// -----

func.func @not_extern() {
  return
}
func.func @call(%a: memref<4xf32>) {
  // expected-error@+1 {{'extern.call' op 'not_extern' does not reference an extern.func}}
  extern.call @not_extern(%a : memref<4xf32>) outs()
  return
}

// -----

extern.func private @f(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
func.func @call(%a: memref<4xf32>) {
  // expected-error@+1 {{'extern.call' op 'f' takes 1 inputs and 1 outputs, but the call passes 2 and 0}}
  extern.call @f(%a, %a : memref<4xf32>, memref<4xf32>) outs()
  return
}

// -----

extern.func private @f(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
func.func @call(%a: memref<4xf32>, %b: memref<4xf16>) {
  // expected-error@+1 {{'extern.call' op operand #1 has element type 'f16', but the declaration's parameter is '!relax.tensor<[n], f32>'}}
  extern.call @f(%a : memref<4xf32>) outs(%b : memref<4xf16>)
  return
}

// -----

extern.func private @f(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>,
                       !relax.tensor<[m, n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
func.func @call(%a: memref<4xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error@+1 {{'extern.call' op operand #0 of type 'memref<4xf32>' must have rank 2 for '!relax.tensor<[m, k], f32>'}}
  extern.call @f(%a, %b : memref<4xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

extern.func private @f(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>,
                       !relax.tensor<[m, n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
func.func @call(%a: tensor<2x3xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error@+1 {{'extern.call' op operand #0 must be a memref for '!relax.tensor<[m, k], f32>', got 'tensor<2x3xf32>'}}
  extern.call @f(%a, %b : tensor<2x3xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

extern.func private @f(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>,
                       !relax.tensor<[m, n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
func.func @call(%a: memref<2x3xf32>, %b: memref<4x5xf32>, %c: memref<?x?xf32>) {
  // expected-error@+1 {{'extern.call' op operand #1 dim 0 is 4, but the declaration says k = 3 (from operand #0 dim 1)}}
  extern.call @f(%a, %b : memref<2x3xf32>, memref<4x5xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

extern.func private @f(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>,
                       !relax.tensor<[m, n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
func.func @call(%a: memref<2x?xf32>, %b: memref<?x5xf32>, %c: memref<2x6xf32>) {
  // expected-error@+1 {{'extern.call' op operand #2 dim 1 is 6, but the declaration says n = 5 (from operand #1 dim 1)}}
  extern.call @f(%a, %b : memref<2x?xf32>, memref<?x5xf32>) outs(%c : memref<2x6xf32>)
  return
}

// -----

// An expression dim is checked once its variables are known, wherever they
// are bound.
extern.func private @pad(!relax.tensor<[n + 1], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "pad", num_outputs = 1 : i64}
func.func @call(%a: memref<5xf32>, %b: memref<3xf32>) {
  // expected-error@+1 {{'extern.call' op operand #0 dim 0 is 5, but the declaration says n + 1 = 4}}
  extern.call @pad(%a : memref<5xf32>) outs(%b : memref<3xf32>)
  return
}

// -----

extern.func private @f(!relax.tensor<[n], f32>, !relax.prim<i64>, !relax.tensor<[n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
func.func @call(%a: memref<4xf32>, %i: i32) {
  // expected-error@+1 {{'extern.call' op operand #1 must be 'i64' for '!relax.prim<i64>', got 'i32'}}
  extern.call @f(%a, %i : memref<4xf32>, i32) outs(%a : memref<4xf32>)
  return
}

// -----

extern.func private @f(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
func.func @call(%a: memref<4xf32>, %f: f32) {
  // expected-error@+1 {{must be variadic of memref of any type values}}
  extern.call @f(%a : memref<4xf32>) outs(%f : f32)
  return
}

// -----

// expected-error@+1 {{'extern.func' op is a declaration and must not have a body}}
extern.func private @f(%x: !relax.tensor<[n], f32>) attributes {link_name = "f", num_outputs = 1 : i64} {
  relax.return
}
