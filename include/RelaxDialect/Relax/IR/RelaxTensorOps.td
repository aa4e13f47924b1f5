//===- RelaxTensorOps.td - high-level tensor ops -----------*- tablegen -*-===//
//
// Base classes for the high-level ops. Every one of them is pure, infers its
// result type symbolically (InferTypeOpInterface), prints that type, and has
// the printed type checked against the inferred one: a declared dim must equal
// the inferred expression canonically, or be `?`.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_TENSOR_OPS_TD
#define RELAX_TENSOR_OPS_TD

include "RelaxDialect/Relax/IR/RelaxAttrs.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Inference through the op adaptor; compatibility is relax's own rule (see
// areCompatibleReturnTypes in ShapeInference.h).
def Relax_InferTypeOp : InferTypeOpAdaptorBase<[{
  static bool isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                      ::mlir::TypeRange actual) {
    return ::mlir::relax::areCompatibleReturnTypes(inferred, actual);
  }
}]>;

// Every operand broadcasts (numpy rules, right-aligned) to the one result:
// ShapeContracts checks each undecided operand dim against the result dim.
def Relax_BroadcastsOperands : NativeOpTrait<"BroadcastsOperands"> {
  let cppNamespace = "::mlir::relax";
}

class Relax_TensorOp<string mnemonic, list<Trait> traits = []>
    : Relax_Op<mnemonic, !listconcat([Pure, Relax_InferTypeOp], traits)> {
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results)
  }];
}

// Elementwise unary: the result has the input's type.
class Relax_UnaryOp<string mnemonic, string what, list<Trait> traits = []>
    : Relax_TensorOp<mnemonic, traits> {
  let summary = "Elementwise " # what;
  let description = [{
    Applies the function elementwise; the result has the input's shape and
    dtype.

    ```mlir
    %y = relax.}] # mnemonic # [{ %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input);
  let results = (outs Relax_AnyTensor:$result);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      return ::mlir::relax::inferUnaryElementwise(
          loc, getOperationName(), adaptor.getInput().getType(), results);
    }
  }];
}

// Elementwise binary with numpy broadcasting. `boolResult` ops (comparisons,
// logical ops) produce i1.
class Relax_BinaryOp<string mnemonic, string what, bit boolResult = 0,
                     list<Trait> traits = []>
    : Relax_TensorOp<mnemonic, !listconcat([Relax_BroadcastsOperands],
                                           traits)> {
  let summary = "Elementwise " # what # " with numpy broadcasting";
  let description = [{
    Both operands broadcast to a common shape by numpy's rules, dim by dim
    from the right: equal dims (proven symbolically) stay, a dim of 1
    stretches; two dims that are provably different and neither 1 are an
    error. When neither equality nor difference can be proven, the result
    dim is the side that cannot be 1 (else the simpler one, or `max(n, m)`
    when both may be 1) and the broadcast is checked at run time.

    ```mlir
    %y = relax.}] # mnemonic # [{ %a, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], }] # !if(boolResult, "i1", "f32") # [{>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$lhs, Relax_AnyTensor:$rhs);
  let results = (outs Relax_AnyTensor:$result);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      return ::mlir::relax::inferBinaryBroadcast(
          loc, getOperationName(), adaptor.getLhs().getType(),
          adaptor.getRhs().getType(), }] # !if(boolResult, "true", "false") # [{,
          results);
    }
  }];
}

include "RelaxDialect/Relax/IR/RelaxElementwiseOps.td"
include "RelaxDialect/Relax/IR/RelaxCreationOps.td"
include "RelaxDialect/Relax/IR/RelaxLinearAlgebraOps.td"
include "RelaxDialect/Relax/IR/RelaxManipulationOps.td"
include "RelaxDialect/Relax/IR/RelaxReductionOps.td"
include "RelaxDialect/Relax/IR/RelaxNNOps.td"
include "RelaxDialect/Relax/IR/RelaxQuantizeOps.td"

#endif // RELAX_TENSOR_OPS_TD
