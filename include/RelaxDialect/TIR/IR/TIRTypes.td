//===- TIRTypes.td - tir dialect types ---------------------*- tablegen -*-===//
#ifndef TIR_TYPES_TD
#define TIR_TYPES_TD

include "RelaxDialect/TIR/IR/TIRBase.td"

def TIR_MemoryScope : I32EnumAttr<"MemoryScope", "where a buffer lives", [
    I32EnumAttrCase<"global", 0>,
    I32EnumAttrCase<"shared", 1>,
    I32EnumAttrCase<"local", 2>]> {
  let cppNamespace = "::mlir::tir";
  let genSpecializedAttr = 0;
}

def TIR_SymShapeParameter : AttrOrTypeParameter<"::mlir::relax::SymShape", "",
                                                 "const ::mlir::relax::SymShape &"> {
  let printer = "::mlir::relax::printSymShape($_printer, $_self)";
}

def TIR_BufferType : TypeDef<TIR_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "A multi-dimensional buffer with a symbolic shape";
  let description = [{
    `!tir.buffer<[n, 4], f32>` (global memory) or
    `!tir.buffer<[32, 32], f16, shared>` for GPU shared/local memory. Dims
    use the symbolic syntax of `!relax.tensor` and must be of known rank.
  }];
  let parameters = (ins TIR_SymShapeParameter:$shape, "::mlir::Type":$dtype,
                        DefaultValuedParameter<"::mlir::tir::MemoryScope",
                          "::mlir::tir::MemoryScope::global">:$scope);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().getRank(); }
    ::llvm::ArrayRef<::mlir::relax::sym::Expr> getDims() const {
      return getShape().getDims();
    }
  }];
}

#endif // TIR_TYPES_TD
