//===- RelaxTypes.td - relax dialect types -----------------*- tablegen -*-===//
//
// Types whose shapes are symbolic expressions (see RelaxDialect/Support/
// SymShape.h for the dim syntax).
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_TYPES_TD
#define RELAX_TYPES_TD

include "RelaxDialect/Relax/IR/RelaxBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Relax_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Relax_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def SymShapeParameter : AttrOrTypeParameter<"::mlir::relax::SymShape", "",
                                             "const ::mlir::relax::SymShape &"> {
  let printer = "::mlir::relax::printSymShape($_printer, $_self)";
}

def Relax_TensorType : Relax_Type<"RelaxTensor", "tensor"> {
  let summary = "A tensor with a symbolic shape";
  let description = [{
    `!relax.tensor<[d0, d1, ...], dtype>`: each dim is an integer, a
    variable name or a symbolic expression (`n * 4`, `(k + 31) floordiv 32`,
    `min(n, 128)`), printed in canonical form; `?` is an anonymous unknown
    dim and `*` stands for unknown rank: `!relax.tensor<*, f32>`.

    The dtype is one of f16, bf16, f32, f64, i1, i8, i16, i32, i64, ui8,
    ui16, ui32, ui64 (signless integers are signed, ui* unsigned).

    ```mlir
    !relax.tensor<[n, 4 * m], f32>
    !relax.tensor<[?, 128], f16>
    !relax.tensor<*, i64>
    ```
  }];
  let parameters = (ins SymShapeParameter:$shape, "::mlir::Type":$dtype);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "const ::mlir::relax::SymShape &":$shape,
                                        "::mlir::Type":$dtype), [{
      return $_get(dtype.getContext(), shape, dtype);
    }]>
  ];
  let extraClassDeclaration = [{
    bool hasRank() const { return getShape().hasRank(); }
    int64_t getRank() const { return getShape().getRank(); }
    ::llvm::ArrayRef<::mlir::relax::sym::Expr> getDims() const {
      return getShape().getDims();
    }
    /// The same dtype with another shape.
    RelaxTensorType withShape(const ::mlir::relax::SymShape &shape) const {
      return RelaxTensorType::get(shape, getDtype());
    }
    /// The same shape with another dtype.
    RelaxTensorType withDtype(::mlir::Type dtype) const {
      return RelaxTensorType::get(getShape(), dtype);
    }
  }];
}

def Relax_ShapeType : Relax_Type<"RelaxShape", "shape"> {
  let summary = "A shape value";
  let description = [{
    The type of a first-class shape value, e.g. the result of
    `relax.shape_of`: `!relax.shape<[n, m]>`, or `!relax.shape<*>` when even
    the rank is unknown.
  }];
  let parameters = (ins SymShapeParameter:$shape);
  let hasCustomAssemblyFormat = 1;
}

def Relax_ObjectType : Relax_Type<"Object", "object"> {
  let summary = "An opaque runtime object";
  let description = [{
    `!relax.object`: any runtime value (the top of the relax type lattice);
    a `relax.match_cast` refines it to a tensor, shape or tuple.
  }];
}

def Relax_PrimType : Relax_Type<"Prim", "prim"> {
  let summary = "A primitive scalar host value";
  let description = [{
    `!relax.prim<i64>`: a scalar on the host, such as the runtime value of a
    symbolic variable passed to a loop-level program.
  }];
  let parameters = (ins "::mlir::Type":$type);
  let assemblyFormat = "`<` $type `>`";
}

def Relax_AnyTensor : Type<CPred<"::llvm::isa<::mlir::relax::RelaxTensorType>($_self)">,
                           "relax tensor", "::mlir::relax::RelaxTensorType">;
def Relax_AnyShape : Type<CPred<"::llvm::isa<::mlir::relax::RelaxShapeType>($_self)">,
                          "relax shape", "::mlir::relax::RelaxShapeType">;
// Any first-class relax value: tensors, shapes, objects, prims and tuples of
// them.
def Relax_AnyValue : AnyTypeOf<[Relax_AnyTensor, Relax_AnyShape, Relax_ObjectType,
                                Relax_PrimType, AnyTuple]>;

#endif // RELAX_TYPES_TD
