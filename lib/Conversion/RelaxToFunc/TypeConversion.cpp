//===- TypeConversion.cpp - relax types as memrefs ------------------------===//
//
// --relax-lower-shapes: relax types to the memrefs and scalars of host
// code, tuples as their leaves, and the lowered values of relax values.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::lower_shapes;

/// `!relax.tensor<[n, 4], f32>` -> `memref<?x4xf32>`; unknown rank ->
/// `memref<*xf32>`; prim values -> their scalar type.
FailureOr<Type> lower_shapes::convertRelaxType(Type type) {
  if (auto tensor = dyn_cast<RelaxTensorType>(type)) {
    if (!tensor.hasRank())
      return Type(UnrankedMemRefType::get(tensor.getDtype(), 0));
    SmallVector<int64_t> sizes;
    for (const sym::Expr &dim : tensor.getDims()) {
      std::optional<int64_t> c = dim ? dim.getConstant() : std::nullopt;
      sizes.push_back(c ? *c : ShapedType::kDynamic);
    }
    return Type(MemRefType::get(sizes, tensor.getDtype()));
  }
  if (auto prim = dyn_cast<PrimType>(type))
    return prim.getType();
  return failure();
}

/// The leaves of `type` in order: a tuple's fields, nested tuples
/// flattened depth first; any other type is its own single leaf. A tuple
/// crosses a function boundary (parameters, results, relax.call) as its
/// leaves, one memref each, in this order.
void lower_shapes::appendLeafTypes(Type type, SmallVectorImpl<Type> &leaves) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type field : tuple.getTypes())
      appendLeafTypes(field, leaves);
    return;
  }
  leaves.push_back(type);
}

SmallVector<Type> lower_shapes::leafTypes(Type type) {
  SmallVector<Type> leaves;
  appendLeafTypes(type, leaves);
  return leaves;
}

/// Where field `index` of a value of tuple type `tuple` lies among its
/// leaves: (first leaf, number of leaves).
std::pair<unsigned, unsigned> lower_shapes::fieldLeafRange(TupleType tuple,
                                                           unsigned index) {
  unsigned first = 0;
  for (unsigned i = 0; i < index; ++i)
    first += leafTypes(tuple.getType(i)).size();
  return {first, static_cast<unsigned>(leafTypes(tuple.getType(index)).size())};
}

/// A memref type for `type`, every dim dynamic: what lowered relax
/// functions take, so that callers pass any static or dynamic form and the
/// callee checks the dims itself.
Type lower_shapes::dynamicForm(Type type) {
  if (auto ranked = dyn_cast<MemRefType>(type))
    return MemRefType::get(
        SmallVector<int64_t>(ranked.getRank(), ShapedType::kDynamic),
        ranked.getElementType());
  return type;
}

Value FunctionLowering::dimValue(Value memref, int64_t d) {
  return memref::DimOp::create(builder, memref.getLoc(), memref, d);
}
Value FunctionLowering::castTo(Value value, Type type) {
  if (value.getType() == type)
    return value;
  Value cast = memref::CastOp::create(builder, value.getLoc(), type, value);
  aliasRoot[cast] = aliasRoot.lookup(value) ? aliasRoot.lookup(value) : value;
  return cast;
}
/// The lowered leaves of `value`: its memref, or a tuple's leaves.
FailureOr<SmallVector<Value>> FunctionLowering::lookupLeaves(Operation *op,
                                                             Value value) {
  if (!isa<TupleType>(value.getType())) {
    Value lowered = mapping.lookupOrNull(value);
    if (!lowered)
      return op->emitOpError("uses a value that was not lowered");
    return SmallVector<Value>{lowered};
  }
  auto it = tuples.find(value);
  if (it == tuples.end())
    return op->emitOpError("uses a tuple that was not lowered");
  return it->second;
}
/// Records the lowered leaves of `value` (one for a non-tuple).
void FunctionLowering::mapLeaves(Value value, ArrayRef<Value> leaves) {
  if (isa<TupleType>(value.getType()))
    tuples[value] = llvm::to_vector(leaves);
  else
    mapping.map(value, leaves.front());
}
