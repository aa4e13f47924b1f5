//===- SequenceMap.cpp - ONNX SequenceMap ---------------------------------===//
//
// SequenceMap over the sequence values of SequenceValues.cpp: mapped element
// by element at import time over lists, or a relax.while (the Loop builder
// of ControlFlowOps.cpp) over packed sequences.
//
//===----------------------------------------------------------------------===//

#include "ControlFlow.h"
#include "Sequences.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

/// SequenceMap: the body runs once per element of the sequence inputs (the
/// tensor inputs whole), each output collected into a sequence. Lists of
/// one import-time length are mapped element by element at import time;
/// otherwise a relax.while over the first input's length reads element i
/// of each sequence input and appends each output to a carried sequence
/// (as the function body of SequenceMap does with Loop).
LogicalResult onnx_import::importSequenceMap(NodeBinder &b) {
  const onnx::AttributeProto *a = b.attr("body");
  if (!a || a->type() != onnx::AttributeProto::GRAPH || !a->has_g())
    return b.error() << "attribute 'body' (a graph) is missing";
  const onnx::GraphProto &body = a->g();
  unsigned numIn = b.numInputs(), numOut = b.getNode().output_size();
  if (numIn < 1 || numOut < 1)
    return b.error() << "expects at least one input and one output";
  if (body.input_size() != static_cast<int>(numIn) ||
      body.output_size() != static_cast<int>(numOut))
    return b.error() << "the body has " << body.input_size() << " inputs and "
                     << body.output_size() << " outputs, the node " << numIn
                     << " and " << numOut;
  Importer &importer = b.getImporter();
  std::string what = "ONNX SequenceMap node '" + b.getNode().name() + "': body";
  SmallVector<Slot> inputs;
  SmallVector<int64_t> ranks; // of the sequence inputs' elements; -1: tensor
  std::optional<int64_t> listLength;
  bool allLists = true;
  for (unsigned i = 0; i < numIn; ++i) {
    Slot *s = b.inputSlot(i);
    if (!s)
      return failure();
    inputs.push_back(*s);
    bool isSeq = s->aggregate && s->aggregate->isSequence();
    if (i == 0 && !isSeq)
      return b.error() << "input #0 must be a sequence, got "
                       << importer.schemaOf(*s).str();
    if (!isSeq) {
      ranks.push_back(-1);
      continue;
    }
    const Aggregate &seq = *s->aggregate;
    if (seq.kind == Aggregate::Kind::List) {
      if (listLength && *listLength != int64_t(seq.elems.size()))
        return b.error() << "input #" << i << " has " << seq.elems.size()
                         << " elements, input #0 " << *listLength;
      listLength = seq.elems.size();
    } else {
      allLists = false;
    }
    ranks.push_back(importer.schemaOf(*s).rank.value_or(-2));
  }
  if (allLists) {
    std::vector<std::vector<Slot>> outs(numOut);
    for (int64_t j = 0; j < *listLength; ++j) {
      SmallVector<Slot> args;
      for (unsigned i = 0; i < numIn; ++i)
        args.push_back(ranks[i] == -1 ? inputs[i]
                                      : inputs[i].aggregate->elems[j]);
      FailureOr<SmallVector<Slot>> r =
          importer.importSubgraph(body, args, b.getLoc(), what);
      if (failed(r))
        return failure();
      for (unsigned k = 0; k < numOut; ++k) {
        if ((*r)[k].aggregate)
          return b.error() << "body output #" << k << " must be a tensor";
        outs[k].push_back((*r)[k]);
      }
    }
    for (unsigned k = 0; k < numOut; ++k) {
      int32_t code = body.output(k).type().tensor_type().elem_type();
      Type dtype = outs[k].empty() ? convertElementType(b.getContext(), code)
                                   : slotDtype(outs[k][0]);
      if (!dtype)
        return b.error() << "body output #" << k << " needs a tensor type";
      b.setOutputSlot(k, makeList(dtype, std::move(outs[k])));
    }
    return success();
  }
  for (unsigned i = 0; i < numIn; ++i)
    if (ranks[i] == -2)
      return b.error() << "unsupported: the elements of sequence input #" << i
                       << " do not have one rank known at import time";
  // The trip count: the first input's length; the others must match it
  // (checked at run time where not provably equal).
  Type i64 = b.getBuilder().getI64Type();
  auto lengthOf = [](const Aggregate &seq) {
    return seq.kind == Aggregate::Kind::List ? Expr::constant(seq.elems.size())
                                             : packedLength(seq.shapes);
  };
  Expr length = lengthOf(*inputs[0].aggregate);
  OpBuilder &builder = b.getBuilder();
  for (unsigned i = 1; i < numIn; ++i) {
    if (ranks[i] == -1)
      continue;
    Expr other = lengthOf(*inputs[i].aggregate);
    if (defaultSymContext().provablyEqual(length, other))
      continue;
    AssertDimsOp::create(
        builder, b.getLoc(), SymExprAttr::get(b.getContext(), other),
        builder.getStringAttr("eq"), SymExprAttr::get(b.getContext(), length),
        builder.getStringAttr("ONNX SequenceMap node '" + b.getNode().name() +
                              "'"),
        builder.getStringAttr("the length of sequence input #" +
                              std::to_string(i)));
  }
  LoopSpec spec;
  spec.body = &body;
  spec.what = what;
  FailureOr<Value> count = b.symScalar(length, i64);
  if (failed(count))
    return failure();
  spec.tripCount = *count;
  for (unsigned k = 0; k < numOut; ++k) {
    Type dtype = convertElementType(
        b.getContext(), body.output(k).type().tensor_type().elem_type());
    if (!dtype)
      return b.error() << "body output #" << k
                       << " needs a tensor type with a supported dtype";
    spec.carriedInits.push_back(makeList(dtype, {}));
  }
  spec.bodyInputs =
      [&](Value counter,
          ArrayRef<Slot> carried) -> FailureOr<SmallVector<Slot>> {
    SmallVector<Slot> all{tensorSlot(counter)};
    llvm::append_range(all, carried);
    return all;
  };
  spec.runBody = [&](ArrayRef<Slot> all) -> FailureOr<SmallVector<Slot>> {
    Value counter = all[0].value;
    SmallVector<Slot> args;
    for (unsigned i = 0; i < numIn; ++i) {
      if (ranks[i] == -1) {
        args.push_back(inputs[i]);
        continue;
      }
      FailureOr<Value> e =
          readElement(b, *inputs[i].aggregate, ranks[i], counter);
      if (failed(e))
        return failure();
      args.push_back(tensorSlot(*e));
    }
    FailureOr<SmallVector<Slot>> r =
        importer.importSubgraph(body, args, b.getLoc(), what);
    if (failed(r))
      return failure();
    SmallVector<Slot> grown;
    for (unsigned k = 0; k < numOut; ++k) {
      const Slot &acc = all[1 + k];
      FailureOr<Value> t =
          importer.getValue((*r)[k], body.output(k).name(), b.getLoc(), [&] {
            return b.error() << "body output #" << k << ": ";
          });
      FailureOr<Slot> g = failed(t) ? FailureOr<Slot>(failure())
                                    : appendElement(b, *acc.aggregate,
                                                    importer.schemaOf(acc), *t);
      if (failed(g))
        return failure();
      grown.push_back(*g);
    }
    return grown;
  };
  FailureOr<LoopResults> r = buildLoop(b, spec);
  if (failed(r))
    return failure();
  for (unsigned k = 0; k < numOut; ++k)
    if (!b.getNode().output(k).empty())
      b.setOutputSlot(k, r->carried[k]);
  return success();
}
