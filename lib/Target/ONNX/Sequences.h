//===- Sequences.h - ONNX sequence and optional helpers ---------*- C++ -*-===//
//
// Private to lib/Target/ONNX: the helpers SequenceValues.cpp gives the
// sequence op handlers (SequenceOps.cpp) and the control flow
// (ControlFlowOps.cpp). The values themselves (Aggregate, ValueSchema) are
// declared in Importer.h.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_TARGET_ONNX_SEQUENCES_H
#define LIB_TARGET_ONNX_SEQUENCES_H

#include "Importer.h"

#include <functional>

namespace mlir {
namespace relax {
namespace onnx_import {

/// Builds relax ops for the sequence helpers, with or without a node.
struct SeqBuilder {
  Importer &im;
  Location loc;
  std::function<InFlightDiagnostic()> emitError;

  /// A builder at `b`'s node, errors prefixed with it.
  static SeqBuilder at(NodeBinder &b) {
    return {b.getImporter(), b.getLoc(), [&b] { return b.error(); }};
  }

  NamedAttribute named(StringRef n, Attribute a) {
    return im.getBuilder().getNamedAttr(n, a);
  }
  Attribute shape(ArrayRef<sym::Expr> dims) {
    return ShapeExprAttr::get(im.getContext(), SymShape(dims));
  }
  Attribute i64s(ArrayRef<int64_t> v) {
    return im.getBuilder().getDenseI64ArrayAttr(v);
  }
  template <typename OpTy>
  FailureOr<Value> create(ValueRange operands,
                          ArrayRef<NamedAttribute> attrs = {}) {
    return im.create<OpTy>(loc, emitError, operands, attrs);
  }
  FailureOr<Value> zeros(ArrayRef<sym::Expr> dims, Type dtype) {
    return create<ZerosOp>({}, {named("shape", shape(dims)),
                                named("dtype", TypeAttr::get(dtype))});
  }
  FailureOr<Value> reshape(Value v, ArrayRef<sym::Expr> dims) {
    return create<ReshapeOp>(v, {named("shape", shape(dims))});
  }
  FailureOr<Value> concat(ValueRange vs) {
    if (vs.size() == 1)
      return vs[0];
    return create<ConcatOp>(
        vs, {named("axis", im.getBuilder().getI64IntegerAttr(0))});
  }
  /// A rank-0 bool constant.
  Value flag(bool v) {
    auto t = RankedTensorType::get({}, im.getBuilder().getI1Type());
    return im.makeConstant(DenseElementsAttr::get(t, v), "flag", loc);
  }
};

/// The optional schema of `elem`.
ValueSchema optionalOf(ValueSchema elem);

/// The schema both `a` and `b` fit (If branches; a loop-carried value on
/// entry and as yielded): an optional on one side makes the other a present
/// optional; sequences must agree on dtype (ranks that differ are
/// forgotten). Empty with `why` set if there is none.
std::optional<ValueSchema> joinSchemas(const ValueSchema &a,
                                       const ValueSchema &b, std::string &why);

/// The dims of `v` padded with -1 to kSeqMaxRank: a [1, kSeqMaxRank] row of
/// a packed sequence's shapes.
FailureOr<Value> shapesRow(SeqBuilder &bb, Value v);
/// `v` flattened to one dim.
FailureOr<Value> flat(SeqBuilder &bb, Value v);
/// The sequence `agg` packed: [data, shapes] (a list is packed here).
FailureOr<std::pair<Value, Value>> packed(SeqBuilder &bb, const Aggregate &agg);
/// A packed sequence.
std::shared_ptr<Aggregate> makePacked(Type dtype, Value data, Value shapes,
                                      std::optional<int64_t> rank);
/// A slot holding `agg`.
Slot slotOf(std::shared_ptr<const Aggregate> agg);

// SequenceOps.cpp

/// The dtype of a tensor slot.
Type slotDtype(const Slot &s);
/// A list sequence of `elems`.
Slot makeList(Type dtype, std::vector<Slot> elems);
/// The length of a packed sequence (its `shapes`).
sym::Expr packedLength(Value shapes);
/// Element `p` (a rank-0 i64 tensor, checked against [-len, len) by take)
/// of the sequence `seq` whose elements have rank `rank`: its offset, size
/// and dims are read from the packed form and bound at run time.
FailureOr<Value> readElement(NodeBinder &b, const Aggregate &seq, int64_t rank,
                             Value p);
/// The sequence `seq` (whose schema is `schema`) with the tensor `t`
/// appended, packed.
FailureOr<Slot> appendElement(NodeBinder &b, const Aggregate &seq,
                              const ValueSchema &schema, Value t);

// SequenceMap.cpp

LogicalResult importSequenceMap(NodeBinder &b);

} // namespace onnx_import
} // namespace relax
} // namespace mlir

#endif // LIB_TARGET_ONNX_SEQUENCES_H
