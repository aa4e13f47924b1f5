//===- SequenceValues.cpp - ONNX sequence and optional values -------------===//
//
// ONNX sequence and optional values on relax tensors (docs/onnx.md,
// "Sequences and optionals"). A sequence whose length the importer knows is
// a list of tensors held at import time (Aggregate::Kind::List): Sequence*
// ops with import-time positions just edit the list. A sequence whose length
// is run-time data (a Loop grows it, a graph input, a run-time position) is
// packed into two tensors: `data` [total], the elements flattened and
// concatenated, and `shapes` [len, kSeqMaxRank] (i64), each element's dims
// padded with -1. Its elements are read back with relax ops whose sizes are
// bound at run time (tensor_to_shape), so element shapes may differ and the
// length may be data-dependent. An optional is its payload and a flag, known
// at import time or a rank-0 i1 tensor when an If decides it.
//
// At region boundaries (If results, Loop carried values, graph inputs and
// outputs) every value takes the relax form of its ValueSchema: a tensor is
// itself, a sequence is packed, an optional is its flag then its payload.
// This file holds the values, their schemas and packing; the op handlers
// are in SequenceOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "Sequences.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

//===----------------------------------------------------------------------===//
// ValueSchema
//===----------------------------------------------------------------------===//

bool ValueSchema::operator==(const ValueSchema &o) const {
  if (kind != o.kind)
    return false;
  if (kind == Kind::Sequence)
    return dtype == o.dtype && rank == o.rank && empty == o.empty;
  if (kind == Kind::Optional)
    return *elem == *o.elem;
  return true;
}

std::string ValueSchema::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (kind == Kind::Tensor)
    os << "a tensor";
  else if (kind == Kind::Sequence)
    os << "a sequence of " << dtype;
  else
    os << "an optional of " << elem->str();
  return s;
}

ValueSchema onnx_import::optionalOf(ValueSchema elem) {
  ValueSchema s;
  s.kind = ValueSchema::Kind::Optional;
  s.elem = std::make_shared<ValueSchema>(std::move(elem));
  return s;
}

/// The schema both `a` and `b` fit (If branches, a loop-carried value on
/// entry and as yielded): an optional on one side makes the other a present
/// optional; sequences must agree on dtype (ranks that differ are
/// forgotten). Empty with `why` set if there is none.
std::optional<ValueSchema> onnx_import::joinSchemas(const ValueSchema &a,
                                                    const ValueSchema &b,
                                                    std::string &why) {
  using Kind = ValueSchema::Kind;
  if (a.kind == Kind::Optional || b.kind == Kind::Optional) {
    const ValueSchema &ea = a.kind == Kind::Optional ? *a.elem : a;
    const ValueSchema &eb = b.kind == Kind::Optional ? *b.elem : b;
    std::optional<ValueSchema> e = joinSchemas(ea, eb, why);
    if (!e)
      return std::nullopt;
    return optionalOf(*e);
  }
  if (a.kind != b.kind || (a.kind == Kind::Sequence && a.dtype != b.dtype)) {
    why = a.str() + " and " + b.str();
    return std::nullopt;
  }
  if (a.kind == Kind::Sequence && (a.empty || b.empty))
    return a.empty ? b : a;
  ValueSchema j = a;
  if (j.rank != b.rank)
    j.rank = std::nullopt;
  return j;
}

/// The element rank of a list, if all its elements share one.
static std::optional<int64_t> listRank(const Aggregate &agg) {
  std::optional<int64_t> rank;
  for (const Slot &e : agg.elems) {
    int64_t r = -1;
    if (e.value) {
      auto t = cast<RelaxTensorType>(e.value.getType());
      if (!t.hasRank())
        return std::nullopt;
      r = t.getRank();
    } else if (e.constant) {
      r = e.constant.getType().getRank();
    } else if (e.ints) {
      r = e.ints->shape.size();
    }
    if (rank && *rank != r)
      return std::nullopt;
    rank = r;
  }
  return rank;
}

ValueSchema Importer::schemaOf(const Slot &slot) {
  ValueSchema s;
  if (!slot.aggregate)
    return s;
  const Aggregate &agg = *slot.aggregate;
  if (agg.kind == Aggregate::Kind::Optional)
    return optionalOf(schemaOf(*agg.payload));
  s.kind = ValueSchema::Kind::Sequence;
  s.dtype = agg.dtype;
  s.rank = agg.kind == Aggregate::Kind::List ? listRank(agg) : agg.rank;
  s.empty =
      agg.kind == Aggregate::Kind::List ? agg.elems.empty() : agg.rankFree;
  return s;
}

FailureOr<ValueSchema> Importer::schemaOfType(const onnx::TypeProto &type,
                                              Location loc, StringRef what) {
  if (type.has_tensor_type())
    return ValueSchema();
  if (type.has_optional_type()) {
    if (!type.optional_type().has_elem_type())
      return emitError(loc) << what << ": an optional type without element";
    FailureOr<ValueSchema> e =
        schemaOfType(type.optional_type().elem_type(), loc, what);
    if (failed(e))
      return failure();
    return optionalOf(*e);
  }
  if (type.has_sequence_type()) {
    const onnx::TypeProto &elem = type.sequence_type().elem_type();
    if (!elem.has_tensor_type())
      return emitError(loc) << what
                            << ": unsupported sequence element type (only "
                               "sequences of tensors are supported)";
    ValueSchema s;
    s.kind = ValueSchema::Kind::Sequence;
    s.dtype = convertElementType(ctx, elem.tensor_type().elem_type());
    if (!s.dtype)
      return emitError(loc) << what << ": unsupported element type "
                            << elementTypeName(elem.tensor_type().elem_type());
    if (elem.tensor_type().has_shape()) {
      s.rank = elem.tensor_type().shape().dim_size();
      if (*s.rank > kSeqMaxRank)
        return emitError(loc)
               << what << ": unsupported sequence of rank-" << *s.rank
               << " tensors (at most " << kSeqMaxRank << ")";
    }
    return s;
  }
  return emitError(loc) << what
                        << ": unsupported type (maps and sparse tensors are "
                           "not supported)";
}

LogicalResult Importer::inputTypes(const onnx::ValueInfoProto &info,
                                   const onnx::TypeProto &type,
                                   const ValueSchema &schema,
                                   SmallVectorImpl<Type> &types,
                                   SmallVectorImpl<std::string> &names) {
  Builder b(ctx);
  switch (schema.kind) {
  case ValueSchema::Kind::Tensor: {
    onnx::ValueInfoProto elem;
    elem.set_name(info.name());
    *elem.mutable_type() = type;
    FailureOr<Type> t = convertValueType(elem);
    if (failed(t))
      return failure();
    types.push_back(*t);
    names.push_back(info.name());
    return success();
  }
  case ValueSchema::Kind::Sequence: {
    SmallVector<Expr> dataDims{Expr::var(freshVar("total"))};
    SmallVector<Expr> shapeDims{Expr::var(freshVar("len")),
                                Expr::constant(kSeqMaxRank)};
    types.push_back(RelaxTensorType::get(SymShape(dataDims), schema.dtype));
    types.push_back(RelaxTensorType::get(SymShape(shapeDims), b.getI64Type()));
    names.push_back(info.name());
    names.push_back(info.name() + ".shapes");
    return success();
  }
  case ValueSchema::Kind::Optional:
    types.push_back(
        RelaxTensorType::get(SymShape(ArrayRef<Expr>{}), b.getI1Type()));
    names.push_back(info.name() + ".has");
    return inputTypes(info, type.optional_type().elem_type(), *schema.elem,
                      types, names);
  }
  llvm_unreachable("unknown schema kind");
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

/// The dims of `v` padded with -1 to kSeqMaxRank, as a [1, kSeqMaxRank]
/// shapes row.
FailureOr<Value> onnx_import::shapesRow(SeqBuilder &bb, Value v) {
  auto t = cast<RelaxTensorType>(v.getType());
  if (!t.hasRank() || llvm::any_of(t.getDims(), [](Expr d) { return !d; }))
    return bb.emitError() << "unsupported sequence element of type " << t
                          << ": its rank and dims must be known";
  if (t.getRank() > kSeqMaxRank)
    return bb.emitError() << "unsupported sequence element of rank "
                          << t.getRank() << " (at most " << kSeqMaxRank << ")";
  KnownInts row;
  row.dtype = bb.im.getBuilder().getI64Type();
  row.shape = {1, kSeqMaxRank};
  row.elems.assign(t.getDims().begin(), t.getDims().end());
  row.elems.resize(kSeqMaxRank, Expr::constant(-1));
  return bb.im.materialize(row, bb.loc, bb.emitError);
}

/// `v` flattened to one dim.
FailureOr<Value> onnx_import::flat(SeqBuilder &bb, Value v) {
  auto t = cast<RelaxTensorType>(v.getType());
  Expr n = Expr::constant(1);
  for (const Expr &d : t.getDims())
    n = n * d;
  return bb.reshape(v, {n});
}

/// The packed form of the list `agg`: [data, shapes].
static FailureOr<std::pair<Value, Value>> packList(SeqBuilder &bb,
                                                   const Aggregate &agg) {
  Type i64 = bb.im.getBuilder().getI64Type();
  if (agg.elems.empty()) {
    FailureOr<Value> data = bb.zeros({Expr::constant(0)}, agg.dtype);
    FailureOr<Value> shapes =
        bb.zeros({Expr::constant(0), Expr::constant(kSeqMaxRank)}, i64);
    if (failed(data) || failed(shapes))
      return failure();
    return std::make_pair(*data, *shapes);
  }
  SmallVector<Value> pieces, rows;
  for (const Slot &e : agg.elems) {
    Slot copy = e;
    FailureOr<Value> v =
        bb.im.getValue(copy, "sequence element", bb.loc, bb.emitError);
    if (failed(v))
      return failure();
    FailureOr<Value> row = shapesRow(bb, *v);
    FailureOr<Value> f = failed(row) ? row : flat(bb, *v);
    if (failed(f))
      return failure();
    pieces.push_back(*f);
    rows.push_back(*row);
  }
  FailureOr<Value> data = bb.concat(pieces);
  FailureOr<Value> shapes = bb.concat(rows);
  if (failed(data) || failed(shapes))
    return failure();
  return std::make_pair(*data, *shapes);
}

/// `agg` as [data, shapes] (packing a list).
FailureOr<std::pair<Value, Value>> onnx_import::packed(SeqBuilder &bb,
                                                       const Aggregate &agg) {
  if (agg.kind == Aggregate::Kind::Packed)
    return std::make_pair(agg.data, agg.shapes);
  return packList(bb, agg);
}

/// A packed sequence aggregate.
std::shared_ptr<Aggregate>
onnx_import::makePacked(Type dtype, Value data, Value shapes,
                        std::optional<int64_t> rank) {
  auto agg = std::make_shared<Aggregate>();
  agg->kind = Aggregate::Kind::Packed;
  agg->dtype = dtype;
  agg->data = data;
  agg->shapes = shapes;
  agg->rank = rank;
  return agg;
}

Slot onnx_import::slotOf(std::shared_ptr<const Aggregate> agg) {
  Slot s;
  s.aggregate = std::move(agg);
  return s;
}

FailureOr<SmallVector<Value>>
Importer::flatten(const Slot &slot, const ValueSchema &schema, Location loc,
                  function_ref<InFlightDiagnostic()> emitError) {
  SeqBuilder bb{*this, loc, emitError};
  const Aggregate *agg = slot.aggregate.get();
  bool isOptional = agg && agg->kind == Aggregate::Kind::Optional;
  switch (schema.kind) {
  case ValueSchema::Kind::Optional: {
    if (!isOptional) {
      FailureOr<SmallVector<Value>> e =
          flatten(slot, *schema.elem, loc, emitError);
      if (failed(e))
        return failure();
      SmallVector<Value> values{bb.flag(true)};
      llvm::append_range(values, *e);
      return values;
    }
    FailureOr<SmallVector<Value>> e =
        flatten(*agg->payload, *schema.elem, loc, emitError);
    if (failed(e))
      return failure();
    SmallVector<Value> values{agg->has ? agg->has : bb.flag(agg->present)};
    llvm::append_range(values, *e);
    return values;
  }
  case ValueSchema::Kind::Sequence:
  case ValueSchema::Kind::Tensor:
    if (isOptional)
      return flatten(*agg->payload, schema, loc, emitError);
    break;
  }
  if (schema.kind == ValueSchema::Kind::Tensor) {
    if (agg)
      // unreachable: a tensor schema is the schema of a tensor slot, or the
      // join of one with another schema (joinSchemas refuses a tensor
      // against a sequence, and an optional joined with anything is an
      // optional, whose payload the Optional case above unwraps); the Loop
      // body's scan outputs are checked to be tensors before flattening.
      return emitError() << "internal error: expected a tensor, got "
                         << schemaOf(slot).str();
    Slot copy = slot;
    FailureOr<Value> v = getValue(copy, "value", loc, emitError);
    if (failed(v))
      return failure();
    return SmallVector<Value>{*v};
  }
  if (!agg || agg->dtype != schema.dtype)
    return emitError() << "expected " << schema.str() << ", got "
                       << schemaOf(slot).str();
  FailureOr<std::pair<Value, Value>> p = packed(bb, *agg);
  if (failed(p))
    return failure();
  return SmallVector<Value>{p->first, p->second};
}

Slot Importer::unflatten(const ValueSchema &schema, ValueRange &values) {
  Slot s;
  switch (schema.kind) {
  case ValueSchema::Kind::Tensor:
    s.value = values.front();
    values = values.drop_front();
    return s;
  case ValueSchema::Kind::Sequence: {
    auto agg = makePacked(schema.dtype, values[0], values[1], schema.rank);
    agg->rankFree = schema.empty;
    s.aggregate = agg;
    values = values.drop_front(2);
    return s;
  }
  case ValueSchema::Kind::Optional: {
    auto agg = std::make_shared<Aggregate>();
    agg->kind = Aggregate::Kind::Optional;
    agg->has = values.front();
    values = values.drop_front();
    agg->payload = std::make_shared<Slot>(unflatten(*schema.elem, values));
    s.aggregate = agg;
    return s;
  }
  }
  llvm_unreachable("unknown schema kind");
}
