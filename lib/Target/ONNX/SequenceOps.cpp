//===- SequenceOps.cpp - ONNX sequence and optional ops -------------------===//
//
// The handlers of SequenceConstruct, SequenceEmpty, SequenceInsert,
// SequenceAt, SequenceLength, SequenceErase, SplitToSequence,
// ConcatFromSequence, Optional, OptionalHasElement and OptionalGetElement
// over the values of SequenceValues.cpp. With a list (a length known at
// import time) and import-time positions they only edit the list; on a
// packed sequence, or at a run-time position, they slice and concatenate
// its `data` and `shapes` with relax ops, binding the offsets and element
// dims they read at run time with tensor_to_shape, which also refuses
// positions out of range (a negative bound value).
//
//===----------------------------------------------------------------------===//

#include "Sequences.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The dtype of a tensor slot.
Type onnx_import::slotDtype(const Slot &s) {
  if (s.value)
    return cast<RelaxTensorType>(s.value.getType()).getDtype();
  if (s.constant)
    return s.constant.getElementType();
  if (s.ints)
    return s.ints->dtype;
  return {};
}

/// Input `i` as a sequence; null (with an error) otherwise.
static const Aggregate *sequenceInput(NodeBinder &b, unsigned i) {
  Slot *s = b.inputSlot(i);
  if (!s)
    return nullptr;
  if (!s->aggregate || !s->aggregate->isSequence()) {
    b.error() << "input #" << i << " must be a sequence, got "
              << b.getImporter().schemaOf(*s).str();
    return nullptr;
  }
  return s->aggregate.get();
}

/// Input `i` as a tensor slot (kept at import time where it is known).
static FailureOr<Slot> tensorInput(NodeBinder &b, unsigned i) {
  Slot *s = b.inputSlot(i);
  if (!s)
    return failure();
  if (s->aggregate)
    return b.error() << "input #" << i << " must be a tensor, got "
                     << b.getImporter().schemaOf(*s).str();
  return *s;
}

/// Position input `i` when it is one integer known at import time.
static std::optional<int64_t> knownPosition(NodeBinder &b, unsigned i) {
  std::optional<KnownInts> k = b.knownInts(i);
  if (!k || k->elems.size() != 1 || !k->elems[0].getConstant())
    return std::nullopt;
  return *k->elems[0].getConstant();
}

/// Position input `i` at run time: a rank-0 i64 tensor (a one-element
/// tensor is reshaped).
static FailureOr<Value> positionValue(NodeBinder &b, unsigned i) {
  FailureOr<Value> v = b.input(i);
  if (failed(v))
    return failure();
  RelaxTensorType t = NodeBinder::typeOf(*v);
  if (!isa<IntegerType>(t.getDtype()) || t.getDtype().isInteger(1))
    return b.error() << "the position (input #" << i
                     << ") must be an integer tensor, got " << t;
  if (failed(v = b.castTo(*v, b.getBuilder().getI64Type())))
    return failure();
  if (t.hasRank() && t.getRank() == 0)
    return *v;
  return b.reshape(*v, {});
}

/// A list sequence of `elems`.
Slot onnx_import::makeList(Type dtype, std::vector<Slot> elems) {
  auto agg = std::make_shared<Aggregate>();
  agg->kind = Aggregate::Kind::List;
  agg->dtype = dtype;
  agg->elems = std::move(elems);
  return slotOf(agg);
}

/// The length of a packed sequence.
Expr onnx_import::packedLength(Value shapes) {
  return NodeBinder::typeOf(shapes).getDims()[0];
}

/// v[begin:end] along axis `axis`.
static FailureOr<Value> slice(NodeBinder &b, Value v, Expr begin, Expr end,
                              int64_t axis = 0) {
  return b.create<StridedSliceOp>(v, {b.named("axes", b.i64Array({axis})),
                                      b.named("begin", b.shapeAttr({begin})),
                                      b.named("end", b.shapeAttr({end}))});
}

/// Binds the rank-0 i64 `scalars` to fresh dims at run time (each must be
/// >= 0: how positions are checked against their range).
static FailureOr<SmallVector<Expr>>
bindScalars(NodeBinder &b, ArrayRef<Value> scalars, StringRef what) {
  SmallVector<Value> pieces;
  for (Value s : scalars) {
    FailureOr<Value> p = b.reshape(s, {Expr::constant(1)});
    if (failed(p))
      return failure();
    pieces.push_back(*p);
  }
  FailureOr<Value> vec =
      pieces.size() == 1
          ? FailureOr<Value>(pieces[0])
          : b.create<ConcatOp>(pieces, {b.named("axis", b.i64Attr(0))});
  if (failed(vec))
    return failure();
  return b.bindShape(*vec, what);
}

/// The element sizes [len] and their running sums [len] of a packed
/// sequence's `shapes`.
static FailureOr<std::pair<Value, Value>> sizesAndEnds(NodeBinder &b,
                                                       Value shapes) {
  Type i64 = b.getBuilder().getI64Type();
  FailureOr<Value> zero = b.scalar(0, i64), one = b.scalar(1, i64);
  if (failed(zero) || failed(one))
    return failure();
  FailureOr<Value> padding = b.create<LessOp>({shapes, *zero});
  if (failed(padding))
    return failure();
  FailureOr<Value> dims = b.create<WhereOp>({*padding, *one, shapes});
  if (failed(dims))
    return failure();
  FailureOr<Value> sizes =
      b.create<ProdOp>(*dims, {b.named("axes", b.i64Array({1}))});
  if (failed(sizes))
    return failure();
  FailureOr<Value> ends =
      b.create<CumsumOp>(*sizes, {b.named("axis", b.i64Attr(0))});
  if (failed(ends))
    return failure();
  return std::make_pair(*sizes, *ends);
}

/// `p` counted from the end where negative (p + len).
static FailureOr<Value> normalizePosition(NodeBinder &b, Value p, Expr len) {
  Type i64 = b.getBuilder().getI64Type();
  FailureOr<Value> zero = b.scalar(0, i64), n = b.symScalar(len, i64);
  if (failed(zero) || failed(n))
    return failure();
  FailureOr<Value> negative = b.create<LessOp>({p, *zero});
  FailureOr<Value> shifted = b.create<AddOp>({p, *n});
  if (failed(negative) || failed(shifted))
    return failure();
  return b.create<WhereOp>({*negative, *shifted, p});
}

/// The packed form of `agg` at the node.
static FailureOr<std::pair<Value, Value>> packedAt(NodeBinder &b,
                                                   const Aggregate &agg) {
  SeqBuilder bb = SeqBuilder::at(b);
  return packed(bb, agg);
}

/// The element rank of sequence input `i`, if its elements share one.
static std::optional<int64_t> elementRank(NodeBinder &b, unsigned i) {
  return b.getImporter().schemaOf(*b.inputSlot(i)).rank;
}

/// The element rank of sequence input `i`, for ops that read elements back.
static FailureOr<int64_t> knownRank(NodeBinder &b, unsigned i) {
  std::optional<int64_t> rank = elementRank(b, i);
  if (!rank)
    return b.error() << "unsupported: the elements of the sequence do not "
                        "have one rank known at import time";
  return *rank;
}

//===----------------------------------------------------------------------===//
// Sequence ops
//===----------------------------------------------------------------------===//

static LogicalResult importSequenceConstruct(NodeBinder &b) {
  if (b.numInputs() < 1 || failed(b.requireOutputs(1)))
    return b.error() << "expects at least one input and one output";
  std::vector<Slot> elems;
  Type dtype;
  for (unsigned i = 0; i < b.numInputs(); ++i) {
    FailureOr<Slot> e = tensorInput(b, i);
    if (failed(e))
      return failure();
    Type t = slotDtype(*e);
    if (dtype && t != dtype)
      return b.error() << "input #" << i << " has dtype " << t << ", input #0 "
                       << dtype << ": a sequence holds one dtype";
    dtype = t;
    elems.push_back(*e);
  }
  b.setOutputSlot(0, makeList(dtype, std::move(elems)));
  return success();
}

static LogicalResult importSequenceEmpty(NodeBinder &b) {
  if (failed(b.requireInputs(0, 0)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t code = b.attrInt("dtype", onnx::TensorProto::FLOAT);
  Type dtype = convertElementType(b.getContext(), code);
  if (!dtype)
    return b.badAttr("dtype",
                     "is unsupported element type " + elementTypeName(code));
  b.setOutputSlot(0, makeList(dtype, {}));
  return success();
}

static LogicalResult importSequenceLength(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  const Aggregate *seq = sequenceInput(b, 0);
  if (!seq)
    return failure();
  KnownInts len;
  len.dtype = b.getBuilder().getI64Type();
  len.elems.push_back(seq->kind == Aggregate::Kind::List
                          ? Expr::constant(seq->elems.size())
                          : packedLength(seq->shapes));
  b.setOutputInts(0, len);
  return success();
}

/// A position known at import time in [-len, len + extra), counted from
/// the end where negative.
static FailureOr<int64_t> listPosition(NodeBinder &b, int64_t pos, int64_t len,
                                       int64_t extra) {
  if (pos < -len || pos >= len + extra)
    return b.error() << "position " << pos << " is out of range for a "
                     << "sequence of length " << len;
  return pos < 0 ? pos + len : pos;
}

/// Element `p` (a rank-0 i64 tensor, checked against [-len, len) by take)
/// of the sequence `seq` whose elements have rank `rank`: its offset, size
/// and dims are read from the packed form and bound at run time.
FailureOr<Value> onnx_import::readElement(NodeBinder &b, const Aggregate &seq,
                                          int64_t rank, Value p) {
  FailureOr<std::pair<Value, Value>> pk = packedAt(b, seq);
  if (failed(pk))
    return failure();
  auto [data, shapes] = *pk;
  FailureOr<std::pair<Value, Value>> se = sizesAndEnds(b, shapes);
  if (failed(se))
    return failure();
  auto at = [&](Value v) {
    return b.create<TakeOp>({v, p}, {b.named("axis", b.i64Attr(0))});
  };
  FailureOr<Value> size = at(se->first), end = at(se->second);
  if (failed(size) || failed(end))
    return failure();
  FailureOr<Value> begin = b.create<SubtractOp>({*end, *size});
  if (failed(begin))
    return failure();
  FailureOr<SmallVector<Expr>> span =
      bindScalars(b, {*begin, *size}, "the element's offset and size");
  if (failed(span))
    return failure();
  FailureOr<Value> piece = slice(b, data, (*span)[0], (*span)[0] + (*span)[1]);
  if (failed(piece))
    return failure();
  if (rank == 0)
    return b.reshape(*piece, {});
  FailureOr<Value> row = at(shapes);
  if (failed(row) ||
      failed(row = slice(b, *row, Expr::constant(0), Expr::constant(rank))))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.bindShape(*row, "the element's dims");
  if (failed(dims))
    return failure();
  return b.reshape(*piece, *dims);
}

static LogicalResult importSequenceAt(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  const Aggregate *seq = sequenceInput(b, 0);
  if (!seq)
    return failure();
  std::optional<int64_t> pos = knownPosition(b, 1);
  if (seq->kind == Aggregate::Kind::List && pos) {
    FailureOr<int64_t> p = listPosition(b, *pos, seq->elems.size(), 0);
    if (failed(p))
      return failure();
    b.setOutputSlot(0, seq->elems[*p]);
    return success();
  }
  FailureOr<int64_t> rank = knownRank(b, 0);
  if (failed(rank))
    return failure();
  FailureOr<Value> p = positionValue(b, 1);
  if (failed(p))
    return failure();
  return b.setOutput(0, readElement(b, *seq, *rank, *p));
}

/// The sequence `seq` (whose elements' schema is `schema`) with the tensor
/// `t` appended, packed.
FailureOr<Slot> onnx_import::appendElement(NodeBinder &b, const Aggregate &seq,
                                           const ValueSchema &schema, Value t) {
  FailureOr<std::pair<Value, Value>> pk = packedAt(b, seq);
  if (failed(pk))
    return failure();
  SeqBuilder bb = SeqBuilder::at(b);
  FailureOr<Value> row = shapesRow(bb, t);
  FailureOr<Value> f = failed(row) ? row : flat(bb, t);
  if (failed(f))
    return failure();
  FailureOr<Value> d =
      b.create<ConcatOp>({pk->first, *f}, {b.named("axis", b.i64Attr(0))});
  FailureOr<Value> s =
      b.create<ConcatOp>({pk->second, *row}, {b.named("axis", b.i64Attr(0))});
  if (failed(d) || failed(s))
    return failure();
  int64_t tRank = NodeBinder::typeOf(t).getRank();
  std::optional<int64_t> rank =
      schema.empty ? std::optional<int64_t>(tRank)
                   : (schema.rank == tRank ? schema.rank : std::nullopt);
  return slotOf(makePacked(seq.dtype, *d, *s, rank));
}

static LogicalResult importSequenceInsert(NodeBinder &b) {
  if (failed(b.requireInputs(2, 3)) || failed(b.requireOutputs(1)))
    return failure();
  const Aggregate *seq = sequenceInput(b, 0);
  if (!seq)
    return failure();
  FailureOr<Slot> elem = tensorInput(b, 1);
  if (failed(elem))
    return failure();
  if (slotDtype(*elem) != seq->dtype)
    return b.error() << "inserts a tensor of " << slotDtype(*elem)
                     << " into a sequence of " << seq->dtype;
  std::optional<int64_t> pos =
      b.hasInput(2) ? knownPosition(b, 2) : std::nullopt;
  if (seq->kind == Aggregate::Kind::List && (!b.hasInput(2) || pos)) {
    int64_t len = seq->elems.size();
    FailureOr<int64_t> p =
        pos ? listPosition(b, *pos, len, 1) : FailureOr<int64_t>(len);
    if (failed(p))
      return failure();
    std::vector<Slot> elems = seq->elems;
    elems.insert(elems.begin() + *p, *elem);
    b.setOutputSlot(0, makeList(seq->dtype, std::move(elems)));
    return success();
  }
  FailureOr<Value> t = b.input(1);
  if (failed(t))
    return failure();
  if (!b.hasInput(2)) {
    FailureOr<Slot> grown =
        appendElement(b, *seq, b.getImporter().schemaOf(*b.inputSlot(0)), *t);
    if (failed(grown))
      return failure();
    b.setOutputSlot(0, *grown);
    return success();
  }
  FailureOr<std::pair<Value, Value>> pk = packedAt(b, *seq);
  if (failed(pk))
    return failure();
  auto [data, shapes] = *pk;
  SeqBuilder bb = SeqBuilder::at(b);
  FailureOr<Value> row = shapesRow(bb, *t);
  FailureOr<Value> f = failed(row) ? row : flat(bb, *t);
  if (failed(f))
    return failure();
  std::optional<int64_t> rank = elementRank(b, 0);
  int64_t tRank = NodeBinder::typeOf(*t).getRank();
  bool empty = b.getImporter().schemaOf(*b.inputSlot(0)).empty;
  std::optional<int64_t> newRank =
      empty ? std::optional<int64_t>(tRank)
            : (rank && *rank == tRank ? rank : std::nullopt);
  Value newData, newShapes;
  {
    // Offset of position p: the sum of the sizes before it.
    Expr len = packedLength(shapes);
    Expr total = NodeBinder::typeOf(data).getDims()[0];
    Type i64 = b.getBuilder().getI64Type();
    FailureOr<Value> p = positionValue(b, 2);
    if (failed(p) || failed(p = normalizePosition(b, *p, len)))
      return failure();
    FailureOr<std::pair<Value, Value>> se = sizesAndEnds(b, shapes);
    FailureOr<Value> zero = bb.zeros({Expr::constant(1)}, i64);
    if (failed(se) || failed(zero))
      return failure();
    FailureOr<Value> starts = b.create<ConcatOp>(
        {*zero, se->second}, {b.named("axis", b.i64Attr(0))});
    FailureOr<Value> off =
        failed(starts)
            ? starts
            : b.create<TakeOp>({*starts, *p}, {b.named("axis", b.i64Attr(0))});
    FailureOr<Value> n = b.symScalar(len, i64);
    FailureOr<Value> rest = failed(n) ? n : b.create<SubtractOp>({*n, *p});
    if (failed(off) || failed(rest))
      return failure();
    FailureOr<SmallVector<Expr>> e =
        bindScalars(b, {*p, *rest, *off}, "the position (input #2)");
    if (failed(e))
      return failure();
    Expr q = (*e)[0], o = (*e)[2];
    FailureOr<Value> d0 = slice(b, data, Expr::constant(0), o);
    FailureOr<Value> d1 = slice(b, data, o, total);
    FailureOr<Value> s0 = slice(b, shapes, Expr::constant(0), q);
    FailureOr<Value> s1 = slice(b, shapes, q, len);
    if (failed(d0) || failed(d1) || failed(s0) || failed(s1))
      return failure();
    FailureOr<Value> d =
        b.create<ConcatOp>({*d0, *f, *d1}, {b.named("axis", b.i64Attr(0))});
    FailureOr<Value> s =
        b.create<ConcatOp>({*s0, *row, *s1}, {b.named("axis", b.i64Attr(0))});
    if (failed(d) || failed(s))
      return failure();
    newData = *d;
    newShapes = *s;
  }
  b.setOutputSlot(0,
                  slotOf(makePacked(seq->dtype, newData, newShapes, newRank)));
  return success();
}

static LogicalResult importSequenceErase(NodeBinder &b) {
  if (failed(b.requireInputs(1, 2)) || failed(b.requireOutputs(1)))
    return failure();
  const Aggregate *seq = sequenceInput(b, 0);
  if (!seq)
    return failure();
  std::optional<int64_t> pos =
      b.hasInput(1) ? knownPosition(b, 1) : std::optional<int64_t>(-1);
  if (seq->kind == Aggregate::Kind::List && pos) {
    FailureOr<int64_t> p = listPosition(b, *pos, seq->elems.size(), 0);
    if (failed(p))
      return failure();
    std::vector<Slot> elems = seq->elems;
    elems.erase(elems.begin() + *p);
    b.setOutputSlot(0, makeList(seq->dtype, std::move(elems)));
    return success();
  }
  std::optional<int64_t> rank = elementRank(b, 0);
  FailureOr<std::pair<Value, Value>> pk = packedAt(b, *seq);
  if (failed(pk))
    return failure();
  auto [data, shapes] = *pk;
  Expr len = packedLength(shapes);
  Expr total = NodeBinder::typeOf(data).getDims()[0];
  Type i64 = b.getBuilder().getI64Type();
  FailureOr<Value> p = b.hasInput(1) ? positionValue(b, 1) : b.scalar(-1, i64);
  if (failed(p) || failed(p = normalizePosition(b, *p, len)))
    return failure();
  FailureOr<std::pair<Value, Value>> se = sizesAndEnds(b, shapes);
  if (failed(se))
    return failure();
  // take reads the erased element's size and end; the bound values check
  // that p lies in [0, len - 1].
  auto at = [&](Value v) {
    return b.create<TakeOp>({v, *p}, {b.named("axis", b.i64Attr(0))});
  };
  FailureOr<Value> size = at(se->first), end = at(se->second);
  FailureOr<Value> last = b.symScalar(len - Expr::constant(1), i64);
  if (failed(size) || failed(end) || failed(last))
    return failure();
  FailureOr<Value> begin = b.create<SubtractOp>({*end, *size});
  FailureOr<Value> rest = b.create<SubtractOp>({*last, *p});
  if (failed(begin) || failed(rest))
    return failure();
  FailureOr<SmallVector<Expr>> e =
      bindScalars(b, {*p, *rest, *begin, *size}, "the position (input #1)");
  if (failed(e))
    return failure();
  Expr q = (*e)[0], o = (*e)[2], n = (*e)[3];
  FailureOr<Value> d0 = slice(b, data, Expr::constant(0), o);
  FailureOr<Value> d1 = slice(b, data, o + n, total);
  FailureOr<Value> s0 = slice(b, shapes, Expr::constant(0), q);
  FailureOr<Value> s1 = slice(b, shapes, q + Expr::constant(1), len);
  if (failed(d0) || failed(d1) || failed(s0) || failed(s1))
    return failure();
  FailureOr<Value> d =
      b.create<ConcatOp>({*d0, *d1}, {b.named("axis", b.i64Attr(0))});
  FailureOr<Value> s =
      b.create<ConcatOp>({*s0, *s1}, {b.named("axis", b.i64Attr(0))});
  if (failed(d) || failed(s))
    return failure();
  b.setOutputSlot(0, slotOf(makePacked(seq->dtype, *d, *s, rank)));
  return success();
}

static LogicalResult importSplitToSequence(NodeBinder &b) {
  if (failed(b.requireInputs(1, 2)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t axisAttr = b.attrInt("axis", 0);
  int64_t keepdims = b.attrInt("keepdims", 1);
  if (b.hasBadAttr())
    return failure();
  if (keepdims != 0 && keepdims != 1)
    return b.badAttr("keepdims", "must be 0 or 1");
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> axis = b.normalizeAxis(axisAttr, dims->size());
  if (failed(axis))
    return failure();
  Expr length = (*dims)[*axis];
  // The pieces' sizes: given, or chunks of one size (the last smaller).
  SmallVector<Expr> sizes;
  bool squeeze = false;
  if (b.hasInput(1)) {
    std::optional<KnownInts> split = b.knownInts(1);
    if (!split)
      return b.runtimeValueError()
             << "the split (input #1) must be known at import time";
    if (split->shape.empty()) {
      std::optional<int64_t> chunk = split->elems[0].getConstant();
      std::optional<int64_t> n = length.getConstant();
      if (!chunk || *chunk <= 0)
        return b.error() << "a scalar split must be a positive constant";
      if (!n)
        return b.runtimeValueError()
               << "a scalar split needs a static length along axis " << *axis
               << ", got " << length.str();
      for (int64_t at = 0; at < *n; at += *chunk)
        sizes.push_back(Expr::constant(std::min(*chunk, *n - at)));
    } else {
      Expr sum = Expr::constant(0);
      for (const Expr &e : split->elems) {
        if (e.getConstant() && *e.getConstant() < 0)
          return b.error() << "split sizes must be non-negative";
        sizes.push_back(e);
        sum = sum + e;
      }
      if (!defaultSymContext().provablyEqual(sum, length))
        return b.error() << "the split sizes sum to " << sum.str()
                         << ", the axis has " << length.str();
    }
  } else {
    std::optional<int64_t> n = length.getConstant();
    if (!n)
      return b.runtimeValueError()
             << "splitting into pieces of one needs a static length along "
             << "axis " << *axis << ", got " << length.str();
    if (*n > kMaxKnownInts * 16)
      return b.error() << "unsupported: " << *n << " pieces";
    sizes.assign(*n, Expr::constant(1));
    squeeze = keepdims == 0;
  }
  std::vector<Slot> elems;
  Expr at = Expr::constant(0);
  for (const Expr &size : sizes) {
    FailureOr<Value> piece = slice(b, *x, at, at + size, *axis);
    if (succeeded(piece) && squeeze)
      piece =
          b.create<SqueezeOp>(*piece, {b.named("axes", b.i64Array({*axis}))});
    if (failed(piece))
      return failure();
    Slot s;
    s.value = *piece;
    elems.push_back(s);
    at = at + size;
  }
  b.setOutputSlot(
      0, makeList(NodeBinder::typeOf(*x).getDtype(), std::move(elems)));
  return success();
}

/// ConcatFromSequence of a packed sequence along axis 0 (new_axis 0: the
/// data is the concatenation already) or stacked at axis 0 (new_axis 1):
/// `data` reshaped. The dims the elements must share are read from the
/// shapes' column maxima and checked against their minima at run time.
static LogicalResult concatPacked(NodeBinder &b, Value data, Value shapes,
                                  int64_t rank, bool newAxis) {
  Type i64 = b.getBuilder().getI64Type();
  // ONNX has no concatenation of nothing.
  OpBuilder &builder = b.getBuilder();
  AssertDimsOp::create(
      builder, b.getLoc(), SymExprAttr::get(b.getContext(), Expr::constant(1)),
      builder.getStringAttr("le"),
      SymExprAttr::get(b.getContext(), packedLength(shapes)),
      builder.getStringAttr("ONNX " + b.getOpType().str() + " node '" +
                            b.getNode().name() + "'"),
      builder.getStringAttr("the sequence's length"));
  int64_t first = newAxis ? 0 : 1;
  SmallVector<Expr> shared;
  if (rank > first) {
    FailureOr<Value> cols = b.create<StridedSliceOp>(
        shapes, {b.named("axes", b.i64Array({1})),
                 b.named("begin", b.shapeAttr({Expr::constant(first)})),
                 b.named("end", b.shapeAttr({Expr::constant(rank)}))});
    if (failed(cols))
      return failure();
    FailureOr<Value> hi =
        b.create<MaxOp>(*cols, {b.named("axes", b.i64Array({0}))});
    FailureOr<Value> lo =
        b.create<MinOp>(*cols, {b.named("axes", b.i64Array({0}))});
    if (failed(hi) || failed(lo))
      return failure();
    FailureOr<SmallVector<Expr>> dims =
        b.bindShape(*hi, "the elements' shared dims");
    if (failed(dims))
      return failure();
    shared = *dims;
    TensorToShapeOp::create(
        b.getBuilder(), b.getLoc(),
        RelaxShapeType::get(b.getContext(), SymShape(shared)), *lo);
  }
  SmallVector<Expr> result;
  if (newAxis) {
    result.push_back(packedLength(shapes));
  } else {
    // The concatenated axis: the sum of the elements' first dims.
    FailureOr<Value> col = b.create<StridedSliceOp>(
        shapes, {b.named("axes", b.i64Array({1})),
                 b.named("begin", b.shapeAttr({Expr::constant(0)})),
                 b.named("end", b.shapeAttr({Expr::constant(1)}))});
    FailureOr<Value> sum = failed(col) ? col : b.create<SumOp>(*col);
    if (failed(sum) || failed(sum = b.castTo(*sum, i64)))
      return failure();
    FailureOr<SmallVector<Expr>> lead =
        bindScalars(b, {*sum}, "the concatenated length");
    if (failed(lead))
      return failure();
    result.push_back((*lead)[0]);
  }
  llvm::append_range(result, shared);
  return b.setOutput(0, b.reshape(data, result));
}

static LogicalResult importConcatFromSequence(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  const onnx::AttributeProto *axisAttr = b.attr("axis");
  int64_t axisValue = b.attrInt("axis", 0);
  int64_t newAxis = b.attrInt("new_axis", 0);
  if (b.hasBadAttr())
    return failure();
  if (!axisAttr)
    return b.error() << "attribute 'axis' is required";
  if (newAxis != 0 && newAxis != 1)
    return b.badAttr("new_axis", "must be 0 or 1");
  const Aggregate *seq = sequenceInput(b, 0);
  if (!seq)
    return failure();
  FailureOr<int64_t> rank = knownRank(b, 0);
  if (failed(rank))
    return failure();
  FailureOr<int64_t> axis = b.normalizeAxis(axisValue, *rank + newAxis);
  if (failed(axis))
    return failure();
  if (seq->kind == Aggregate::Kind::Packed) {
    if (*axis != 0)
      return b.error() << "unsupported: concatenating a sequence of "
                          "run-time length along axis "
                       << *axis << " (only axis 0)";
    return concatPacked(b, seq->data, seq->shapes, *rank, newAxis);
  }
  // An empty list has no element rank: knownRank refused it above.
  assert(!seq->elems.empty() && "concatenating an empty list");
  SmallVector<Value> parts;
  for (unsigned i = 0; i < seq->elems.size(); ++i) {
    Slot e = seq->elems[i];
    FailureOr<Value> v = b.getImporter().getValue(
        e, "sequence element", b.getLoc(), [&] { return b.error(); });
    if (succeeded(v) && newAxis)
      v = b.create<ExpandDimsOp>(*v, {b.named("axes", b.i64Array({*axis}))});
    if (failed(v))
      return failure();
    parts.push_back(*v);
  }
  if (parts.size() == 1) {
    b.setOutput(0, parts[0]);
    return success();
  }
  return b.setOutput(
      0, b.create<ConcatOp>(parts, {b.named("axis", b.i64Attr(*axis))}));
}

//===----------------------------------------------------------------------===//
// Optional ops
//===----------------------------------------------------------------------===//

/// A placeholder value of `schema`: what an absent optional holds (zeros
/// where a tensor's dims are known, 0 for the others; an empty sequence).
static FailureOr<Slot> placeholder(NodeBinder &b, const onnx::TypeProto &type,
                                   const ValueSchema &schema) {
  SeqBuilder bb = SeqBuilder::at(b);
  Slot s;
  if (schema.kind == ValueSchema::Kind::Optional) {
    FailureOr<Slot> e =
        placeholder(b, type.optional_type().elem_type(), *schema.elem);
    if (failed(e))
      return failure();
    auto agg = std::make_shared<Aggregate>();
    agg->kind = Aggregate::Kind::Optional;
    agg->present = false;
    agg->payload = std::make_shared<Slot>(*e);
    s.aggregate = agg;
    return s;
  }
  if (schema.kind == ValueSchema::Kind::Sequence) {
    auto agg = std::make_shared<Aggregate>();
    agg->kind = Aggregate::Kind::List;
    agg->dtype = schema.dtype;
    FailureOr<std::pair<Value, Value>> p = packed(bb, *agg);
    if (failed(p))
      return failure();
    s.aggregate = makePacked(schema.dtype, p->first, p->second, schema.rank);
    return s;
  }
  const onnx::TypeProto::Tensor &t = type.tensor_type();
  Type dtype = convertElementType(b.getContext(), t.elem_type());
  if (!dtype)
    return b.error() << "unsupported element type "
                     << elementTypeName(t.elem_type());
  if (!t.has_shape())
    return b.error() << "unsupported: an empty optional of a tensor of "
                        "unknown rank";
  SmallVector<Expr> dims;
  for (const onnx::TensorShapeProto::Dimension &d : t.shape().dim())
    dims.push_back(Expr::constant(d.has_dim_value() ? d.dim_value() : 0));
  FailureOr<Value> z = bb.zeros(dims, dtype);
  if (failed(z))
    return failure();
  s.value = *z;
  return s;
}

static LogicalResult importOptional(NodeBinder &b) {
  if (failed(b.requireInputs(0, 1)) || failed(b.requireOutputs(1)))
    return failure();
  const onnx::AttributeProto *typeAttr = b.attr("type");
  auto agg = std::make_shared<Aggregate>();
  agg->kind = Aggregate::Kind::Optional;
  if (b.hasInput(0)) {
    Slot *s = b.inputSlot(0);
    if (!s)
      return failure();
    agg->present = true;
    agg->payload = std::make_shared<Slot>(*s);
  } else {
    if (!typeAttr || typeAttr->type() != onnx::AttributeProto::TYPE_PROTO ||
        !typeAttr->has_tp())
      return b.error() << "an empty Optional needs the attribute 'type'";
    FailureOr<ValueSchema> schema = b.getImporter().schemaOfType(
        typeAttr->tp(), b.getLoc(), "attribute 'type'");
    if (failed(schema))
      return failure();
    FailureOr<Slot> p = placeholder(b, typeAttr->tp(), *schema);
    if (failed(p))
      return failure();
    agg->present = false;
    agg->payload = std::make_shared<Slot>(*p);
  }
  b.setOutputSlot(0, slotOf(agg));
  return success();
}

/// Input `i` as an optional; null where it is not one (opset 18 allows a
/// tensor or sequence, a present value).
static const Aggregate *optionalInput(NodeBinder &b, unsigned i) {
  Slot *s = b.inputSlot(i);
  if (!s || !s->aggregate || s->aggregate->isSequence())
    return nullptr;
  return s->aggregate.get();
}

static LogicalResult importOptionalHasElement(NodeBinder &b) {
  if (failed(b.requireInputs(0, 1)) || failed(b.requireOutputs(1)))
    return failure();
  bool present = b.hasInput(0);
  if (present) {
    if (!b.inputSlot(0))
      return failure();
    const Aggregate *opt = optionalInput(b, 0);
    if (!opt && b.opset() < 18)
      return b.error() << "input #0 must be an optional before opset 18, "
                          "got "
                       << b.getImporter().schemaOf(*b.inputSlot(0)).str();
    if (opt && opt->has)
      return b.setOutput(0, FailureOr<Value>(opt->has));
    present = !opt || opt->present;
  } else if (b.opset() < 18) {
    return b.error() << "input #0 is required before opset 18";
  }
  auto t = RankedTensorType::get({}, b.getBuilder().getI1Type());
  b.setOutputConstant(0, DenseElementsAttr::get(t, present));
  return success();
}

/// Checks at run time that the rank-0 i1 `flag` holds: it is bound as a
/// dim (tensor_to_shape), which relax.assert_dims requires to be 1.
static LogicalResult requireAtRunTime(NodeBinder &b, Value flag,
                                      StringRef what) {
  FailureOr<Value> v = b.castTo(flag, b.getBuilder().getI64Type());
  if (failed(v))
    return failure();
  FailureOr<SmallVector<Expr>> bound = bindScalars(b, {*v}, what);
  if (failed(bound))
    return failure();
  OpBuilder &builder = b.getBuilder();
  AssertDimsOp::create(
      builder, b.getLoc(), SymExprAttr::get(b.getContext(), (*bound)[0]),
      builder.getStringAttr("eq"),
      SymExprAttr::get(b.getContext(), Expr::constant(1)),
      builder.getStringAttr("ONNX " + b.getOpType().str() + " node '" +
                            b.getNode().name() + "'"),
      builder.getStringAttr(what));
  return success();
}

static LogicalResult importOptionalGetElement(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  Slot *s = b.inputSlot(0);
  if (!s)
    return failure();
  const Aggregate *opt = optionalInput(b, 0);
  if (!opt) {
    if (b.opset() < 18)
      return b.error() << "input #0 must be an optional before opset 18, "
                          "got "
                       << b.getImporter().schemaOf(*s).str();
    b.setOutputSlot(0, *s);
    return success();
  }
  if (!opt->has && !opt->present)
    return b.error() << "the optional is empty";
  // An absent optional decided at run time stops there, never reads the
  // placeholder.
  if (opt->has &&
      failed(requireAtRunTime(b, opt->has, "the optional has an element")))
    return failure();
  b.setOutputSlot(0, *opt->payload);
  return success();
}

void onnx_import::addSequenceOps(OpHandlerTable &table) {
  table.add("SequenceConstruct", importSequenceConstruct);
  table.add("SequenceEmpty", importSequenceEmpty);
  table.add("SequenceInsert", importSequenceInsert);
  table.add("SequenceAt", importSequenceAt);
  table.add("SequenceLength", importSequenceLength);
  table.add("SequenceErase", importSequenceErase);
  table.add("SplitToSequence", importSplitToSequence);
  table.add("ConcatFromSequence", importConcatFromSequence);
  table.add("SequenceMap", importSequenceMap);
  table.add("Optional", importOptional);
  table.add("OptionalHasElement", importOptionalHasElement);
  table.add("OptionalGetElement", importOptionalGetElement);
}
