//===- Importer.h - ONNX importer core and node binder ----------*- C++ -*-===//
//
// Private to lib/Target/ONNX. The Importer walks the graph of an ONNX model
// in order and hands each node to the handler registered for its op type in
// an OpHandlerTable. A handler reads its node through a NodeBinder (inputs,
// import-time values, attributes with defaults, the opset version) and emits
// relax ops through the binder's typed builders; the op families register
// their handlers from one file each (ElementwiseOps.cpp, ShapeOps.cpp,
// ReductionOps.cpp, NNOps.cpp, LossOps.cpp, RecurrentOps.cpp,
// ControlFlowOps.cpp, SequenceOps.cpp).
//
// An ONNX sequence or optional is a value of the importer (Aggregate) made
// of relax tensors; at region boundaries it takes the relax values of its
// ValueSchema (SequenceValues.cpp).
//
// Values whose contents are known at import time (initializers, Constant
// nodes, integer shape computations) are tracked in Slots, as constants or as
// symbolic integer vectors (KnownInts), and become relax values only when a
// run-time op consumes them.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_TARGET_ONNX_IMPORTER_H
#define LIB_TARGET_ONNX_IMPORTER_H

#include "RelaxDialect/Relax/IR/BuildInferred.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Support/SymShape.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <onnx/onnx_pb.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace relax {
namespace onnx_import {

/// Largest tensor (in elements) the importer accepts from a file or builds.
constexpr int64_t kMaxElements = int64_t(1) << 31;
/// Longest integer vector an op folds at import time (shape computations).
constexpr int64_t kMaxKnownInts = 64;
/// The newest version of the default ONNX domain the importer reads (the
/// op handlers register the forms each version introduced).
constexpr int64_t kMaxOpset = 21;
/// Slice bounds beyond this magnitude mean "to the end": they are clamped so
/// that symbolic arithmetic never leaves the int64 range.
constexpr int64_t kBoundLimit = int64_t(1) << 40;

/// Maps an ONNX TensorProto element type to a relax dtype; null if relax has
/// none.
Type convertElementType(MLIRContext *ctx, int32_t type);

/// The name of an ONNX element type for diagnostics.
std::string elementTypeName(int32_t type);

/// An integer tensor whose elements are known at import time, possibly as
/// symbolic expressions (the dims of a shape, their products, ...).
struct KnownInts {
  SmallVector<int64_t> shape;
  SmallVector<sym::Expr> elems;
  Type dtype;

  /// Whether some element is symbolic rather than a constant.
  bool hasSymbolicElems() const {
    return llvm::any_of(elems,
                        [](const sym::Expr &e) { return !e.getConstant(); });
  }
};

struct Aggregate;

/// What the importer knows about one ONNX value.
struct Slot {
  /// The relax value, null until some op needs it at run time.
  Value value;
  /// Contents known at import time, of any dtype.
  DenseElementsAttr constant;
  /// Integer contents known symbolically.
  std::optional<KnownInts> ints;
  /// A sequence or optional value (the fields above are then empty).
  std::shared_ptr<const Aggregate> aggregate;

  /// Whether the slot holds any value.
  bool isDefined() const { return value || constant || ints || aggregate; }
};

/// The most dims a packed sequence records per element.
constexpr int64_t kSeqMaxRank = 8;

/// An ONNX sequence or optional value (SequenceOps.cpp; docs/onnx.md,
/// "Sequences and optionals"). Immutable once built: ops make new ones.
struct Aggregate {
  enum class Kind {
    /// A sequence whose length is known at import time: its elements.
    List,
    /// A sequence of run-time length: `data` [total] holds the elements
    /// flattened and concatenated in order, `shapes` [len, kSeqMaxRank]
    /// (i64) their dims, padded with -1 past each element's rank.
    Packed,
    /// An optional: `payload` if present (`has` at run time, or `present`
    /// when known at import time).
    Optional,
  };
  Kind kind = Kind::List;
  /// List and Packed: the element dtype.
  Type dtype;
  /// List: the elements, all tensors.
  std::vector<Slot> elems;
  /// Packed: the flattened elements and their dims.
  Value data, shapes;
  /// Packed: the elements' rank when every element has it (import-time
  /// knowledge; nullopt when unknown or mixed).
  std::optional<int64_t> rank;
  /// Packed: no element rank is known yet (ValueSchema::empty).
  bool rankFree = false;
  /// Optional: the run-time flag (rank-0 i1), null when `present` is known.
  Value has;
  bool present = false;
  /// Optional: the value; for an absent optional a placeholder of its type
  /// (zeros, an empty sequence) so that it can cross regions.
  std::shared_ptr<Slot> payload;

  bool isSequence() const { return kind != Kind::Optional; }
};

/// The relax form of an ONNX value at a region boundary (If results, Loop
/// carried values, graph inputs and outputs): a tensor is one relax value, a
/// sequence two (packed `data`, `shapes`), an optional its rank-0 i1 flag
/// followed by its element's values.
struct ValueSchema {
  enum class Kind { Tensor, Sequence, Optional };
  Kind kind = Kind::Tensor;
  /// Sequence: the element dtype and the elements' rank (if common);
  /// `empty`: no element is known yet (an empty list, or a loop-carried
  /// sequence that starts empty while its body is first imported), so any
  /// rank fits.
  Type dtype;
  std::optional<int64_t> rank;
  bool empty = false;
  /// Optional: the element's schema.
  std::shared_ptr<ValueSchema> elem;

  /// The number of relax values.
  unsigned width() const {
    return kind == Kind::Tensor     ? 1
           : kind == Kind::Sequence ? 2
                                    : 1 + elem->width();
  }
  bool operator==(const ValueSchema &o) const;
  bool operator!=(const ValueSchema &o) const { return !(*this == o); }
  /// "tensor", "sequence of f32", "optional of ..." for diagnostics.
  std::string str() const;
};

class NodeBinder;

/// Imports one node from its binder; fails with an error located at the
/// node.
using OpHandler = LogicalResult (*)(NodeBinder &);

/// The handlers of the default ONNX domain by op type. An op type may have
/// several forms, each registered from the opset version that introduced it
/// (ONNX's `since_version`): a node is imported by the newest form not newer
/// than the model's opset.
class OpHandlerTable {
public:
  /// Registers `handler` for `opType` from opset `sinceVersion` on, up to the
  /// next version registered for `opType`.
  void add(StringRef opType, OpHandler handler, int64_t sinceVersion = 1);

  /// The handler for `opType` at opset `opset`; null if there is none.
  OpHandler lookup(StringRef opType, int64_t opset) const;

private:
  /// Per op type, (since version, handler) sorted by version.
  llvm::StringMap<SmallVector<std::pair<int64_t, OpHandler>, 1>> handlers;
};

/// Each op family adds its handlers (lib/Target/ONNX/*Ops.cpp).
void addElementwiseOps(OpHandlerTable &table);
void addShapeOps(OpHandlerTable &table);
void addShapeValueOps(OpHandlerTable &table);
void addPadTileTriluOps(OpHandlerTable &table);
void addIndexOps(OpHandlerTable &table);
void addReductionOps(OpHandlerTable &table);
void addNNOps(OpHandlerTable &table);
void addConvPoolOps(OpHandlerTable &table);
void addLossOps(OpHandlerTable &table);
void addRecurrentOps(OpHandlerTable &table);
void addControlFlowOps(OpHandlerTable &table);
void addSequenceOps(OpHandlerTable &table);

/// Imports an ONNX ModelProto: the graph, its values and tensors. Everything
/// node-specific goes through a NodeBinder.
class Importer {
public:
  Importer(MLIRContext *ctx, StringRef fileName)
      : ctx(ctx), builder(ctx),
        fileLoc(FileLineColLoc::get(ctx, fileName, 0, 0)) {}

  /// Parses `bytes` as a ModelProto and imports its graph as a module with
  /// one relax function @main; null (with an error emitted) on failure.
  OwningOpRef<ModuleOp> run(StringRef bytes);

  MLIRContext *getContext() const { return ctx; }
  OpBuilder &getBuilder() { return builder; }

  /// The opset version the model imports for `domain` (the default domain
  /// is "" or "ai.onnx").
  int64_t getOpsetVersion(StringRef domain) const;

  /// A symbolic variable name no dim_param and no earlier fresh variable
  /// uses: `prefix` followed by a number.
  std::string freshVar(StringRef prefix);

  /// The slot of the ONNX value `name`; null if nothing defined it yet.
  Slot *lookupSlot(StringRef name);
  /// The slot of the ONNX value `name`, created empty if needed.
  Slot &getOrCreateSlot(StringRef name) { return slots[name]; }

  /// The relax value of `slot` (the ONNX value `name`), materializing its
  /// import-time contents at `loc` on first use.
  FailureOr<Value> getValue(Slot &slot, StringRef name, Location loc,
                            function_ref<InFlightDiagnostic()> emitError);

  /// Converts an ONNX tensor (initializer, attribute) to an attribute;
  /// errors are located at `loc`.
  FailureOr<DenseElementsAttr> convertTensor(const onnx::TensorProto &tensor,
                                             Location loc);

  /// A relax.constant of `attr`; large tensors become `dense_resource`
  /// blobs named after `nameHint`.
  Value makeConstant(DenseElementsAttr attr, StringRef nameHint, Location loc);

  /// Builds an `OpTy` at `loc` from `operands` and its (inherent) attributes
  /// `attrs`, typed by OpTy's own inference, and verifies it. An ONNX file
  /// must not crash the importer, so inference runs before building (ODS's
  /// inferring builders abort): operands that do not fit, or the wrong
  /// number of results, are reported through `emitError`.
  template <typename OpTy>
  FailureOr<SmallVector<Value>>
  createN(Location loc, function_ref<InFlightDiagnostic()> emitError,
          ValueRange operands, ArrayRef<NamedAttribute> attrs,
          unsigned numResults);

  /// An `OpTy` of one result (see createN).
  template <typename OpTy>
  FailureOr<Value>
  create(Location loc, function_ref<InFlightDiagnostic()> emitError,
         ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
    FailureOr<SmallVector<Value>> r =
        createN<OpTy>(loc, emitError, operands, attrs, 1);
    if (failed(r))
      return failure();
    return (*r)[0];
  }

  /// An integer tensor with the contents of `ints`, built at `loc`.
  FailureOr<Value> materialize(const KnownInts &ints, Location loc,
                               function_ref<InFlightDiagnostic()> emitError);

  /// Imports `graph`, a node's subgraph (If branches, Loop and Scan bodies),
  /// at the builder's insertion point: its inputs are `inputs`, one per
  /// graph input, and its initializers and nodes are imported in a scope of
  /// their own. Names of the enclosing graphs stay visible (outer-scope
  /// values are used directly); names the subgraph defines shadow them and
  /// end with it. Returns the values of the graph's outputs, materialized
  /// inside the subgraph. `what` names the subgraph in errors.
  FailureOr<SmallVector<Slot>> importSubgraph(const onnx::GraphProto &graph,
                                              ArrayRef<Slot> inputs,
                                              Location loc, StringRef what);

  //===--------------------------------------------------------------------===//
  // Sequences and optionals at region boundaries (SequenceOps.cpp)
  //===--------------------------------------------------------------------===//

  /// The schema of the value in `slot` as it is.
  ValueSchema schemaOf(const Slot &slot);
  /// The relax values of `slot` in the form `schema`, built at `loc`: a
  /// sequence is packed, a value that is not optional is wrapped as present,
  /// an optional given for a sequence or tensor schema gives its payload.
  FailureOr<SmallVector<Value>>
  flatten(const Slot &slot, const ValueSchema &schema, Location loc,
          function_ref<InFlightDiagnostic()> emitError);
  /// The ONNX value of `schema` over `values` (consumed from the front).
  Slot unflatten(const ValueSchema &schema, ValueRange &values);
  /// The schema of an ONNX type; `what` names it in errors.
  FailureOr<ValueSchema> schemaOfType(const onnx::TypeProto &type, Location loc,
                                      StringRef what);

private:
  LogicalResult importGraph(const onnx::GraphProto &graph, ModuleOp module);
  /// The relax values of `graph`'s outputs (the main graph's when `what` is
  /// empty, else the subgraph `what`), materialized at `loc`.
  FailureOr<SmallVector<Slot>> graphOutputs(const onnx::GraphProto &graph,
                                            Location loc, StringRef what);
  FailureOr<Type> convertValueType(const onnx::ValueInfoProto &info);
  /// Appends the relax types and names of the parameters of a graph input
  /// of `schema` whose ONNX type is `type`, one per relax value of the
  /// schema: `<input>`, `<input>.shapes` for a sequence, `<input>.has`
  /// before an optional's element.
  LogicalResult inputTypes(const onnx::ValueInfoProto &info,
                           const onnx::TypeProto &type,
                           const ValueSchema &schema,
                           SmallVectorImpl<Type> &types,
                           SmallVectorImpl<std::string> &names);
  LogicalResult importNode(const onnx::NodeProto &node);

  MLIRContext *ctx;
  OpBuilder builder;
  Location fileLoc;
  /// The default domain's opset version.
  int64_t opset = 1;
  bool hasDefaultOpset = true;
  llvm::StringMap<int64_t> domainOpsets;
  llvm::StringMap<Slot> slots;
  /// The names the graph being imported defines (a subgraph may shadow the
  /// names of its enclosing graphs, not its own).
  llvm::StringSet<> localNames;
  /// Subgraph nesting depth (bounded: a malformed file must not exhaust the
  /// stack).
  unsigned subgraphDepth = 0;
  llvm::StringSet<> varNames;
  /// dim_params of the graph inputs that are plain names.
  llvm::StringSet<> bareDimParams;
  unsigned freshVars = 0;
};

/// A handler's view of the node it imports: its inputs (as relax values or
/// import-time values), attributes with defaults, outputs and opset version,
/// diagnostics prefixed with the node, and typed builders of relax ops at the
/// node's location.
///
/// Attributes are read through the binder, which records them: the importer
/// rejects a node carrying an attribute its handler never read or accepted.
class NodeBinder {
public:
  NodeBinder(Importer &importer, const onnx::NodeProto &node, Location loc)
      : importer(importer), node(node), loc(loc) {}

  //===--------------------------------------------------------------------===//
  // The node
  //===--------------------------------------------------------------------===//

  const onnx::NodeProto &getNode() const { return node; }
  StringRef getOpType() const { return node.op_type(); }
  /// The version of the opset of the node's domain that the model imports.
  int64_t opset() const { return importer.getOpsetVersion(node.domain()); }
  Location getLoc() const { return loc; }
  OpBuilder &getBuilder() { return importer.getBuilder(); }
  MLIRContext *getContext() const { return importer.getContext(); }
  Importer &getImporter() { return importer; }

  //===--------------------------------------------------------------------===//
  // Diagnostics
  //===--------------------------------------------------------------------===//

  /// An error at the node, prefixed with its op type, name and opset.
  InFlightDiagnostic error();
  /// An input that relax needs as an attribute (shape, axes, bounds) is
  /// run-time data: a limitation, reported as unsupported.
  InFlightDiagnostic runtimeValueError() {
    return error() << "unsupported run-time value: ";
  }
  /// Reports attribute `name` as unsupported for this op.
  InFlightDiagnostic unsupportedAttrError(StringRef name);
  /// Reports attribute `name` as invalid (`why`); the node fails even where
  /// the handler goes on with the default.
  LogicalResult badAttr(StringRef name, const Twine &why);
  /// Whether an attribute read failed (see badAttr).
  bool hasBadAttr() const { return attrFailed; }

  //===--------------------------------------------------------------------===//
  // Inputs
  //===--------------------------------------------------------------------===//

  unsigned numInputs() const { return node.input_size(); }
  /// Whether input `i` is given (an empty name omits an optional input).
  bool hasInput(unsigned i) const {
    return static_cast<int>(i) < node.input_size() && !node.input(i).empty();
  }
  /// Fails unless there are `lo` to `hi` inputs, the first `lo` given.
  LogicalResult requireInputs(unsigned lo, unsigned hi);
  /// The slot of input `i`; null (with an error) if missing or undefined.
  Slot *inputSlot(unsigned i);
  /// Input `i` as a relax value, materialized if only known at import time.
  FailureOr<Value> input(unsigned i);
  /// Every input (all given) as relax values, in order: variadic ops.
  FailureOr<SmallVector<Value>> allInputs();
  /// The contents of integer input `i` if known at import time.
  std::optional<KnownInts> knownInts(unsigned i);
  /// The contents of input `i` if known (all elements constant) at import
  /// time.
  DenseElementsAttr knownConstant(unsigned i);
  /// The constant integers of input `i` (`what` names it in errors): inputs
  /// relax needs as attributes.
  FailureOr<SmallVector<int64_t>> constInts(unsigned i, StringRef what);

  //===--------------------------------------------------------------------===//
  // Outputs
  //===--------------------------------------------------------------------===//

  /// The number of outputs, trailing omitted ones not counted.
  unsigned numOutputs() const {
    unsigned n = node.output_size();
    while (n > 0 && node.output(n - 1).empty())
      --n;
    return n;
  }
  /// Whether output `i` is requested.
  bool hasOutput(unsigned i) const {
    return i < numOutputs() && !node.output(i).empty();
  }
  /// Fails unless there are 1 to `hi` outputs.
  LogicalResult requireOutputs(unsigned hi);
  void setOutput(unsigned i, Value v) {
    importer.getOrCreateSlot(node.output(i)).value = v;
  }
  /// Binds output `i` to `v` if it was built, else forwards the failure: a
  /// handler can end with `return b.setOutput(0, b.create<OpTy>(...))`.
  LogicalResult setOutput(unsigned i, FailureOr<Value> v) {
    if (failed(v))
      return failure();
    setOutput(i, *v);
    return success();
  }
  /// Defines output `i` as an import-time integer value.
  void setOutputInts(unsigned i, KnownInts ints);
  /// Defines output `i` as an import-time constant.
  void setOutputConstant(unsigned i, DenseElementsAttr value);
  /// Defines output `i` as the same value as `slot` (an identity).
  void setOutputSlot(unsigned i, const Slot &slot) {
    importer.getOrCreateSlot(node.output(i)) = slot;
  }

  //===--------------------------------------------------------------------===//
  // Attributes
  //===--------------------------------------------------------------------===//

  /// Attribute `name`, null if absent; marks it as handled.
  const onnx::AttributeProto *attr(StringRef name);
  /// Marks attribute `name` as handled without reading it (one the import
  /// does not depend on).
  void acceptAttr(StringRef name) { usedAttrs.insert(name); }
  /// Typed attributes with the default for an absent one; an attribute of
  /// the wrong type is an error (badAttr).
  int64_t attrInt(StringRef name, int64_t dflt);
  float attrFloat(StringRef name, float dflt);
  std::string attrString(StringRef name, StringRef dflt);
  std::optional<SmallVector<int64_t>> attrInts(StringRef name);
  /// Fails if an attribute read failed (badAttr) or if the node has an
  /// attribute the handler neither read nor accepted (reported as
  /// unsupported).
  LogicalResult verifyAttrsHandled();

  //===--------------------------------------------------------------------===//
  // Building relax ops at the node
  //===--------------------------------------------------------------------===//

  /// An `OpTy` of `numResults` results (see Importer::createN).
  template <typename OpTy>
  FailureOr<SmallVector<Value>> createN(ValueRange operands,
                                        ArrayRef<NamedAttribute> attrs,
                                        unsigned numResults) {
    return importer.createN<OpTy>(
        loc, [&] { return error(); }, operands, attrs, numResults);
  }
  /// An `OpTy` of one result (see Importer::createN).
  template <typename OpTy>
  FailureOr<Value> create(ValueRange operands,
                          ArrayRef<NamedAttribute> attrs = {}) {
    return importer.create<OpTy>(
        loc, [&] { return error(); }, operands, attrs);
  }

  NamedAttribute named(StringRef name, Attribute value) {
    return getBuilder().getNamedAttr(name, value);
  }
  Attribute i64Attr(int64_t v) { return getBuilder().getI64IntegerAttr(v); }
  Attribute f64Attr(double v) { return getBuilder().getF64FloatAttr(v); }
  Attribute boolAttr(bool v) { return getBuilder().getBoolAttr(v); }
  Attribute i64Array(ArrayRef<int64_t> v) {
    return getBuilder().getDenseI64ArrayAttr(v);
  }
  Attribute shapeAttr(ArrayRef<sym::Expr> dims) {
    return ShapeExprAttr::get(getContext(), SymShape(dims));
  }
  Attribute exprAttr(sym::Expr e) { return SymExprAttr::get(getContext(), e); }

  /// Converts an ONNX tensor attribute, errors located at the node.
  FailureOr<DenseElementsAttr> convertTensor(const onnx::TensorProto &tensor) {
    return importer.convertTensor(tensor, loc);
  }
  /// A relax.constant of `attr` (see Importer::makeConstant).
  Value constant(DenseElementsAttr attr, StringRef nameHint) {
    return importer.makeConstant(attr, nameHint, loc);
  }
  /// A rank-0 constant `value` of `dtype` (integers saturate).
  FailureOr<Value> scalar(double value, Type dtype);
  /// relax.arange(start, end, step) of `dtype`.
  FailureOr<Value> arange(sym::Expr start, sym::Expr end, sym::Expr step,
                          Type dtype);
  /// A rank-0 tensor holding the (symbolic) integer `e`.
  FailureOr<Value> symScalar(sym::Expr e, Type dtype);
  /// An integer tensor with the contents of `ints`.
  FailureOr<Value> materialize(const KnownInts &ints) {
    return importer.materialize(ints, loc, [&] { return error(); });
  }
  FailureOr<Value> reshape(Value v, ArrayRef<sym::Expr> dims);
  /// `v` converted to `dtype` (itself if it has that dtype).
  FailureOr<Value> castTo(Value v, Type dtype);

  static RelaxTensorType typeOf(Value v) {
    return cast<RelaxTensorType>(v.getType());
  }
  /// The length of `v` when it is a 1-D tensor whose dim is a constant.
  static std::optional<int64_t> vectorLength(Value v) {
    RelaxTensorType t = typeOf(v);
    if (!t.hasRank() || t.getRank() != 1 || !t.getDims()[0])
      return std::nullopt;
    return t.getDims()[0].getConstant();
  }
  /// The dims of `v`; fails unless its rank and every dim are known.
  FailureOr<SmallVector<sym::Expr>> dimsOf(Value v);
  /// numpy broadcasting of `operands` where the symbolic engine cannot decide
  /// a dim (two dims not provably equal, neither the constant 1): the result
  /// dim is their `max`, and each operand whose dim differs is broadcast to
  /// the result shape with relax.broadcast_to, whose run-time check (each
  /// dim equal to the result's or 1) is the broadcasting contract. Operands
  /// that need nothing are left alone, so elementwise ops built from them
  /// never infer an unknown dim.
  LogicalResult alignBroadcast(MutableArrayRef<Value> operands);
  /// The values of `tensor`, a 1-D integer tensor of static length, as dims:
  /// fresh variables bound at run time by relax.tensor_to_shape (which
  /// refuses negative values). This is how a shape computed from tensor data
  /// gets named dims instead of an import error.
  FailureOr<SmallVector<sym::Expr>> bindShape(Value tensor, StringRef what);
  /// Input `i` as a shape: its import-time values when known, otherwise
  /// bindShape of the run-time tensor.
  FailureOr<SmallVector<sym::Expr>> shapeInput(unsigned i, StringRef what);
  /// `axis` in [0, rank), counting negative axes from the end.
  FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);
  /// Each of `axes` normalised (normalizeAxis); every axis of `rank` in
  /// order when there are none.
  FailureOr<SmallVector<int64_t>>
  normalizeAxes(const std::optional<SmallVector<int64_t>> &axes, int64_t rank);

private:
  Importer &importer;
  const onnx::NodeProto &node;
  Location loc;
  llvm::StringSet<> usedAttrs;
  bool attrFailed = false;
};

//===----------------------------------------------------------------------===//
// Template definitions
//===----------------------------------------------------------------------===//

template <typename OpTy>
FailureOr<SmallVector<Value>>
Importer::createN(Location loc, function_ref<InFlightDiagnostic()> emitError,
                  ValueRange operands, ArrayRef<NamedAttribute> attrs,
                  unsigned numResults) {
  BuildInferredError error;
  FailureOr<OpTy> op =
      buildInferred<OpTy>(builder, loc, operands, attrs, numResults, error);
  if (succeeded(op))
    return SmallVector<Value>((*op)->getResults());
  if (error == BuildInferredError::Inference)
    return emitError() << "cannot build " << OpTy::getOperationName()
                       << " from its operands";
  return emitError() << "the " << OpTy::getOperationName()
                     << " built for it is invalid";
}

//===----------------------------------------------------------------------===//
// Helpers shared by the op families (ElementwiseOps.cpp)
//===----------------------------------------------------------------------===//

/// 0, 1, ..., n-1 (i64) shaped as a rank-`rank` tensor with `n` at `axis` and
/// 1 elsewhere: the class index of each position along `axis`, to compare
/// against indices broadcast along it.
FailureOr<Value> axisIota(NodeBinder &b, sym::Expr n, int64_t axis,
                          int64_t rank);

/// The one-hot mask (i1) of the i64 `indices` with a new axis `axis` of size
/// `depth`: `expand_dims(indices, axis) == axisIota(depth, axis, rank + 1)`.
/// An index outside [0, depth) gives an all-false row. The class-gather of
/// OneHot, Hardmax and the losses (relax has no gather_elements) is a
/// `where` on this mask summed over `axis`. `indices` has a known rank (each
/// caller has checked it or derived it from a ranked value).
FailureOr<Value> oneHotMask(NodeBinder &b, Value indices, int64_t axis,
                            sym::Expr depth);

} // namespace onnx_import
} // namespace relax
} // namespace mlir

#endif // LIB_TARGET_ONNX_IMPORTER_H
