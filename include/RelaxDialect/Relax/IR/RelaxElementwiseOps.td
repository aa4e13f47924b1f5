//===- RelaxElementwiseOps.td - elementwise ops ------------*- tablegen -*-===//
//
// Elementwise unary and binary ops, `clip`, `astype` and `where`. Each op
// accepts one family of dtypes (see relax::DtypeClass in ShapeInference.h):
//   - Float: f16, bf16, f32, f64 (transcendental functions: exp, log, ...);
//   - Numeric: every dtype but i1 (arithmetic, relu, abs, rounding, clip);
//   - Integer: every integer dtype but i1 (bit shifts);
//   - Bool: i1 only (logical ops);
//   - Any: every relax dtype (comparisons, astype).
// An operand outside the op's family is an inference error that names the
// dtype; mixing dtypes in a binary op is an error too (insert relax.astype).
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_ELEMENTWISE_OPS_TD
#define RELAX_ELEMENTWISE_OPS_TD

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

// A unary op restricted to one dtype family: `dtypeClass` is the name of a
// relax::DtypeClass enumerator, `dtypeText` describes it in the docs.
class Relax_UnaryOpOf<string mnemonic, string what, string dtypeClass,
                      string dtypeText, string exampleDtype = "f32",
                      list<Trait> traits = []>
    : Relax_UnaryOp<mnemonic, what, traits> {
  let description = [{
    Applies the function elementwise; the result has the input's shape and
    dtype. Accepted dtypes: }] # dtypeText # [{; any other dtype is an
    error. Unknown-rank inputs give unknown-rank results.

    ```mlir
    %y = relax.}] # mnemonic # [{ %x : (!relax.tensor<[n, 4], }] # exampleDtype # [{>) -> !relax.tensor<[n, 4], }] # exampleDtype # [{>
    ```
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      ::mlir::Type input = adaptor.getInput().getType();
      if (::mlir::failed(::mlir::relax::checkDtypeClass(
              loc, getOperationName(),
              ::llvm::cast<::mlir::relax::RelaxTensorType>(input).getDtype(),
              ::mlir::relax::DtypeClass::}] # dtypeClass # [{)))
        return ::mlir::failure();
      return ::mlir::relax::inferUnaryElementwise(loc, getOperationName(),
                                                  input, results);
    }
  }];
}

class Relax_FloatUnaryOp<string mnemonic, string what>
    : Relax_UnaryOpOf<mnemonic, what, "Float",
                      "floating point (f16, bf16, f32, f64)">;
class Relax_NumericUnaryOp<string mnemonic, string what,
                           list<Trait> traits = []>
    : Relax_UnaryOpOf<mnemonic, what, "Numeric",
                      "every dtype except i1", "f32", traits>;

def Relax_ExpOp : Relax_FloatUnaryOp<"exp", "natural exponential">;
def Relax_LogOp : Relax_FloatUnaryOp<"log", "natural logarithm">;
def Relax_SqrtOp : Relax_FloatUnaryOp<"sqrt", "square root">;
def Relax_RsqrtOp : Relax_FloatUnaryOp<"rsqrt", "reciprocal square root">;
def Relax_TanhOp : Relax_FloatUnaryOp<"tanh", "hyperbolic tangent">;
def Relax_SigmoidOp : Relax_FloatUnaryOp<"sigmoid",
                                         "logistic sigmoid 1 / (1 + exp(-x))">;
// GELU comes as two ops (as in TVM) rather than one op with an `approximate`
// attribute: the two formulas lower differently and passes match them by op.
def Relax_GeluOp : Relax_FloatUnaryOp<"gelu",
    "GELU with the exact erf formula x * (1 + erf(x / sqrt(2))) / 2">;
def Relax_GeluTanhOp : Relax_FloatUnaryOp<"gelu_tanh",
    "GELU with the tanh approximation "
    "x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))) / 2">;
def Relax_SiluOp : Relax_FloatUnaryOp<"silu", "SiLU x * sigmoid(x)">;
def Relax_ErfOp : Relax_FloatUnaryOp<"erf", "Gauss error function">;
def Relax_SinOp : Relax_FloatUnaryOp<"sin", "sine">;
def Relax_CosOp : Relax_FloatUnaryOp<"cos", "cosine">;
def Relax_TanOp : Relax_FloatUnaryOp<"tan", "tangent">;
def Relax_SinhOp : Relax_FloatUnaryOp<"sinh", "hyperbolic sine">;
def Relax_CoshOp : Relax_FloatUnaryOp<"cosh", "hyperbolic cosine">;
// The inverse functions are NaN outside their domains (asin, acos: [-1, 1];
// acosh: [1, inf); atanh: (-1, 1), +-inf at +-1), as in libm and numpy.
def Relax_AsinOp : Relax_FloatUnaryOp<"asin", "inverse sine">;
def Relax_AcosOp : Relax_FloatUnaryOp<"acos", "inverse cosine">;
def Relax_AtanOp : Relax_FloatUnaryOp<"atan", "inverse tangent">;
def Relax_AsinhOp : Relax_FloatUnaryOp<"asinh", "inverse hyperbolic sine">;
def Relax_AcoshOp : Relax_FloatUnaryOp<"acosh", "inverse hyperbolic cosine">;
def Relax_AtanhOp : Relax_FloatUnaryOp<"atanh", "inverse hyperbolic tangent">;

def Relax_ReluOp : Relax_NumericUnaryOp<"relu", "rectified linear max(x, 0)">;
def Relax_NegativeOp : Relax_NumericUnaryOp<"negative", "negation">;
def Relax_AbsOp : Relax_NumericUnaryOp<"abs", "absolute value">;
// Rounding is the identity on integers: the folder removes it there.
let hasFolder = 1 in {
def Relax_FloorOp : Relax_NumericUnaryOp<"floor", "round toward -inf">;
def Relax_CeilOp : Relax_NumericUnaryOp<"ceil", "round toward +inf">;
def Relax_RoundOp : Relax_NumericUnaryOp<"round",
                                         "round half to even">;
}

// A float test: the result has the input's shape and dtype i1.
class Relax_FloatTestOp<string mnemonic, string what>
    : Relax_UnaryOp<mnemonic, what> {
  let summary = "Elementwise test for " # what;
  let description = [{
    True where the element is }] # what # [{. Accepted dtypes: floating
    point (f16, bf16, f32, f64); the result has the input's shape and dtype
    i1. Unknown-rank inputs give unknown-rank results.

    ```mlir
    %y = relax.}] # mnemonic # [{ %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
    ```
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      auto input =
          ::llvm::cast<::mlir::relax::RelaxTensorType>(adaptor.getInput().getType());
      if (::mlir::failed(::mlir::relax::checkDtypeClass(
              loc, getOperationName(), input.getDtype(),
              ::mlir::relax::DtypeClass::Float)))
        return ::mlir::failure();
      results.push_back(input.withDtype(
          ::mlir::IntegerType::get(input.getContext(), 1)));
      return ::mlir::success();
    }
  }];
}

def Relax_IsNanOp : Relax_FloatTestOp<"isnan", "NaN">;
// Both infinities: ONNX IsInf's detect_negative / detect_positive select one
// sign by comparing the input with 0 afterwards.
def Relax_IsInfOp : Relax_FloatTestOp<"isinf", "+inf or -inf">;

def Relax_LogicalNotOp : Relax_UnaryOpOf<"logical_not", "logical negation",
                                         "Bool", "i1 only", "i1">;

def Relax_ClipOp : Relax_TensorOp<"clip"> {
  let summary = "Elementwise clamp to [min, max]";
  let description = [{
    `min(max(x, min), max)` elementwise. The result has the input's type.
    Accepted dtypes: every dtype except i1. The verifier rejects
    `min > max`; on integer dtypes the bounds must be integral.

    ```mlir
    %y = relax.clip %x {max = 6.0 : f64, min = 0.0 : f64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, F64Attr:$min, F64Attr:$max);
  let results = (outs Relax_AnyTensor:$result);
  let hasVerifier = 1;
}

def Relax_AstypeOp : Relax_TensorOp<"astype"> {
  let summary = "Elementwise dtype conversion";
  let description = [{
    Converts every element to `dtype` (any relax dtype: f16, bf16, f32,
    f64, i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64); the shape is unchanged, so unknown rank
    stays unknown rank. A dtype relax does not support is an error.
    Converting to the input's own dtype folds away.

    ```mlir
    %y = relax.astype %x {dtype = f16} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f16>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, TypeAttr:$dtype);
  let results = (outs Relax_AnyTensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

// A broadcasting binary op restricted to one dtype family (checked on the
// lhs; the rhs must have the same dtype).
class Relax_BinaryOpOf<string mnemonic, string what, string dtypeClass,
                       string dtypeText, bit boolResult = 0,
                       string exampleDtype = "f32", list<Trait> traits = []>
    : Relax_BinaryOp<mnemonic, what, boolResult, traits> {
  let description = [{
    Both operands must have the same dtype, one of: }] # dtypeText # [{.
    They broadcast to a common shape by numpy's rules, dim by dim from the
    right: equal dims (proven symbolically, e.g. `n + 1` and `1 + n`) stay,
    a dim of 1 stretches; two dims that are provably different and neither
    provably 1 are an error naming both. When that cannot be decided, the
    result dim is the side that cannot be 1 (`(h floordiv 2) * 2` against
    `h`), the simpler of the two if neither can, else `max(n, m)` (either
    may be 1 at run time), and each operand dim's broadcast to it is checked
    at run time (relax.assert_dims, inserted by legalization). A `?` operand
    dim gives a `?` result dim; unknown rank on either side gives an
    unknown-rank result.

    ```mlir
    %y = relax.}] # mnemonic # [{ %a, %b : (!relax.tensor<[n, 1], }] # exampleDtype # [{>, !relax.tensor<[1, m], }] # exampleDtype # [{>) -> !relax.tensor<[n, m], }] # !if(boolResult, "i1", exampleDtype) # [{>
    ```
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      ::mlir::Type lhs = adaptor.getLhs().getType();
      if (::mlir::failed(::mlir::relax::checkDtypeClass(
              loc, getOperationName(),
              ::llvm::cast<::mlir::relax::RelaxTensorType>(lhs).getDtype(),
              ::mlir::relax::DtypeClass::}] # dtypeClass # [{)))
        return ::mlir::failure();
      return ::mlir::relax::inferBinaryBroadcast(
          loc, getOperationName(), lhs, adaptor.getRhs().getType(),
          }] # !if(boolResult, "true", "false") # [{, results);
    }
  }];
}

class Relax_ArithBinaryOp<string mnemonic, string what,
                          list<Trait> traits = []>
    : Relax_BinaryOpOf<mnemonic, what, "Numeric", "every dtype except i1", 0,
                       "f32", traits>;
class Relax_IntegerBinaryOp<string mnemonic, string what>
    : Relax_BinaryOpOf<mnemonic, what, "Integer",
                       "an integer dtype (i8 to i64, ui8 to ui64)", 0, "i32">;
class Relax_CompareOp<string mnemonic, string what>
    : Relax_BinaryOpOf<mnemonic, what, "Any", "any relax dtype; the result "
                       "is i1", 1>;
class Relax_LogicalBinaryOp<string mnemonic, string what>
    : Relax_BinaryOpOf<mnemonic, what, "Bool", "i1 only", 1, "i1">;

// x + 0 and x * 1 fold to x when the result type is x's type (see
// ElementwiseOps.cpp for what counts as a zero or one).
let hasFolder = 1 in {
def Relax_AddOp : Relax_ArithBinaryOp<"add", "addition", [Commutative]>;
def Relax_MultiplyOp : Relax_ArithBinaryOp<"multiply", "multiplication",
                                           [Commutative]>;
}
def Relax_SubtractOp : Relax_ArithBinaryOp<"subtract", "subtraction">;
def Relax_DivideOp : Relax_ArithBinaryOp<"divide",
    "division (integers: truncating toward zero)">;
def Relax_PowerOp : Relax_ArithBinaryOp<"power", "power lhs ^ rhs">;
def Relax_MaximumOp : Relax_ArithBinaryOp<"maximum", "maximum",
                                          [Commutative]>;
def Relax_MinimumOp : Relax_ArithBinaryOp<"minimum", "minimum",
                                          [Commutative]>;

// Two remainder ops rather than one with an `fmod` flag (ONNX Mod): they
// differ in sign convention, and a pass that matches one should not match
// the other by accident. Integer remainders are defined for every operand
// pair: x mod 0 is 0 (numpy's result; never a trap) and INT_MIN mod -1 is 0.
def Relax_FloorModOp : Relax_ArithBinaryOp<"floor_mod",
    "remainder with the sign of the divisor (numpy np.mod, ONNX Mod fmod=0; "
    "integers: x mod 0 = 0)">;
def Relax_FmodOp : Relax_ArithBinaryOp<"fmod",
    "remainder with the sign of the dividend (C fmod, np.fmod, ONNX Mod "
    "fmod=1; integers: x mod 0 = 0)">;

// Shifts follow numpy: the shift amount is read as unsigned, and an amount
// of at least the bit width shifts every bit out (left: 0; right: 0, or -1
// for a negative signed value, the arithmetic shift's limit).
def Relax_LeftShiftOp : Relax_IntegerBinaryOp<"left_shift",
    "left shift (amounts >= the bit width give 0)">;
def Relax_RightShiftOp : Relax_IntegerBinaryOp<"right_shift",
    "right shift, arithmetic for signed dtypes and logical for unsigned "
    "ones (amounts >= the bit width give 0, or -1 for negative signed "
    "values)">;

def Relax_EqualOp : Relax_CompareOp<"equal", "equality comparison">;
def Relax_NotEqualOp : Relax_CompareOp<"not_equal", "inequality comparison">;
def Relax_LessOp : Relax_CompareOp<"less", "less-than comparison">;
def Relax_LessEqualOp : Relax_CompareOp<"less_equal",
                                        "less-or-equal comparison">;
def Relax_GreaterOp : Relax_CompareOp<"greater", "greater-than comparison">;
def Relax_GreaterEqualOp : Relax_CompareOp<"greater_equal",
                                           "greater-or-equal comparison">;

def Relax_LogicalAndOp : Relax_LogicalBinaryOp<"logical_and", "logical and">;
def Relax_LogicalOrOp : Relax_LogicalBinaryOp<"logical_or", "logical or">;

def Relax_WhereOp : Relax_TensorOp<"where", [Relax_BroadcastsOperands]> {
  let summary = "Elementwise select with numpy broadcasting";
  let description = [{
    `cond ? x : y` elementwise. `cond` must be i1; `x` and `y` must share a
    dtype, which is the result's. The three shapes broadcast together by
    numpy's rules with the same symbolic treatment as the binary ops:
    provably different dims (neither 1) are an error, undecidable dims keep
    a dim checked at run time, unknown rank anywhere gives unknown rank.

    ```mlir
    %r = relax.where %c, %x, %y : (!relax.tensor<[n, 1], i1>, !relax.tensor<[1, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$cond, Relax_AnyTensor:$x,
                       Relax_AnyTensor:$y);
  let results = (outs Relax_AnyTensor:$result);
}

#endif // RELAX_ELEMENTWISE_OPS_TD
