//===- ONNXImporter.cpp - ONNX model to relax import ----------------------===//
//
// Walks the graph of an ONNX ModelProto in order and emits high-level relax
// ops whose result types come from the ops' own symbolic inference. Values
// whose contents are known at import time (initializers, Constant nodes and
// integer shape computations such as Shape -> Gather -> Concat) are tracked
// as symbolic integer vectors, so that Reshape/Expand/Slice targets become
// symbolic attributes instead of run-time data; they are materialized as
// tensors only when a run-time op consumes them.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Target/ONNX/ONNXImporter.h"

#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Support/SymShape.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::relax;
using sym::Expr;

namespace {

/// Tensors of more elements than this become `dense_resource` blobs.
constexpr int64_t kResourceThreshold = 16;
/// Largest tensor (in elements) the importer accepts from a file.
constexpr int64_t kMaxElements = int64_t(1) << 31;
/// Slice bounds beyond this magnitude mean "to the end": they are clamped so
/// that symbolic arithmetic never leaves the int64 range.
constexpr int64_t kBoundLimit = int64_t(1) << 40;

/// An integer tensor whose elements are known at import time, possibly as
/// symbolic expressions (the dims of a shape, their products, ...).
struct KnownInts {
  SmallVector<int64_t> shape;
  SmallVector<Expr> elems;
  Type dtype;
};

/// What the importer knows about one ONNX value.
struct Slot {
  /// The relax value, null until some op needs it at run time.
  Value value;
  /// Contents known at import time, of any dtype.
  DenseElementsAttr constant;
  /// Integer contents known symbolically.
  std::optional<KnownInts> ints;
};

/// Maps an ONNX TensorProto element type to a relax dtype; null if relax has
/// none.
Type convertElementType(MLIRContext *ctx, int32_t type) {
  Builder b(ctx);
  switch (type) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::INT64:
    return b.getI64Type();
  case onnx::TensorProto::INT32:
    return b.getI32Type();
  case onnx::TensorProto::INT16:
    return b.getI16Type();
  case onnx::TensorProto::INT8:
    return b.getI8Type();
  case onnx::TensorProto::UINT8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case onnx::TensorProto::UINT16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case onnx::TensorProto::UINT32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case onnx::TensorProto::UINT64:
    return b.getIntegerType(64, /*isSigned=*/false);
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  default:
    return {};
  }
}

std::string elementTypeName(int32_t type) {
  if (onnx::TensorProto::DataType_IsValid(type))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(type));
  return "type " + std::to_string(type);
}

/// Turns an ONNX name into a symbolic variable name (an identifier that is
/// not a keyword of the symbolic syntax).
std::string sanitizeVarName(StringRef name) {
  std::string out;
  for (char c : name)
    out += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (out.empty() || isdigit(static_cast<unsigned char>(out[0])) ||
      out[0] == '_')
    out = "d" + out;
  if (out == "floordiv" || out == "ceildiv" || out == "mod" || out == "min" ||
      out == "max")
    out += "_";
  return out;
}

class Importer {
public:
  Importer(MLIRContext *ctx, StringRef fileName)
      : ctx(ctx), builder(ctx),
        fileLoc(FileLineColLoc::get(ctx, fileName, 0, 0)) {}

  OwningOpRef<ModuleOp> run(StringRef bytes);

private:
  using Handler = LogicalResult (Importer::*)();

  //===--------------------------------------------------------------------===//
  // Graph level
  //===--------------------------------------------------------------------===//
  LogicalResult importGraph(const onnx::GraphProto &graph, ModuleOp module);
  FailureOr<Type> convertValueType(const onnx::ValueInfoProto &info);
  FailureOr<DenseElementsAttr> convertTensor(const onnx::TensorProto &tensor,
                                             Location loc);
  Value makeConstant(DenseElementsAttr attr, StringRef nameHint);
  LogicalResult importNode(const onnx::NodeProto &node);
  static const llvm::StringMap<Handler> &handlers();

  //===--------------------------------------------------------------------===//
  // Node context
  //===--------------------------------------------------------------------===//
  InFlightDiagnostic nodeError();
  /// An input that relax needs as an attribute (shape, axes, bounds) is
  /// run-time data: a limitation, reported as unsupported.
  InFlightDiagnostic runtimeValueError() {
    return nodeError() << "unsupported run-time value: ";
  }
  bool hasInput(unsigned i) const {
    return static_cast<int>(i) < node->input_size() && !node->input(i).empty();
  }
  unsigned numInputs() const { return node->input_size(); }
  unsigned numOutputs() const {
    unsigned n = node->output_size();
    while (n > 0 && node->output(n - 1).empty())
      --n;
    return n;
  }
  Slot *inputSlot(unsigned i);
  FailureOr<Value> input(unsigned i);
  std::optional<KnownInts> knownInts(unsigned i);
  DenseElementsAttr knownConstant(unsigned i);
  FailureOr<SmallVector<int64_t>> constInts(unsigned i, StringRef what);
  LogicalResult requireInputs(unsigned lo, unsigned hi);
  LogicalResult requireOutputs(unsigned hi);
  void setOutput(unsigned i, Value v) { slots[node->output(i)].value = v; }
  void setOutputInts(unsigned i, KnownInts ints) {
    Slot &s = slots[node->output(i)];
    s = Slot();
    s.ints = std::move(ints);
  }

  const onnx::AttributeProto *attr(StringRef name);
  int64_t attrInt(StringRef name, int64_t dflt);
  float attrFloat(StringRef name, float dflt);
  std::string attrString(StringRef name, StringRef dflt);
  std::optional<SmallVector<int64_t>> attrInts(StringRef name);
  LogicalResult badAttr(StringRef name, const Twine &why);

  //===--------------------------------------------------------------------===//
  // Emission helpers
  //===--------------------------------------------------------------------===//
  FailureOr<SmallVector<Value>> emitN(StringRef op, ValueRange operands,
                                      ArrayRef<NamedAttribute> attrs,
                                      unsigned numResults);
  FailureOr<Value> emit(StringRef op, ValueRange operands,
                        ArrayRef<NamedAttribute> attrs = {});
  NamedAttribute named(StringRef name, Attribute value) {
    return builder.getNamedAttr(name, value);
  }
  Attribute i64Array(ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  }
  Attribute shapeAttr(ArrayRef<Expr> dims) {
    return ShapeExprAttr::get(ctx, SymShape(dims));
  }
  Attribute exprAttr(Expr e) { return SymExprAttr::get(ctx, e); }
  FailureOr<Value> scalar(double value, Type dtype);
  FailureOr<Value> materialize(const KnownInts &ints);
  FailureOr<Value> symScalar(Expr e, Type dtype);
  FailureOr<Value> reshape(Value v, ArrayRef<Expr> dims);
  FailureOr<Value> castTo(Value v, Type dtype);
  static RelaxTensorType typeOf(Value v) {
    return cast<RelaxTensorType>(v.getType());
  }
  FailureOr<SmallVector<Expr>> dimsOf(Value v);
  FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);

  //===--------------------------------------------------------------------===//
  // Op handlers
  //===--------------------------------------------------------------------===//
  LogicalResult unary(StringRef op);
  LogicalResult binary(StringRef op);
  LogicalResult variadic(StringRef op);
  LogicalResult importAdd() { return binary("relax.add"); }
  LogicalResult importSub() { return binary("relax.subtract"); }
  LogicalResult importMul() { return binary("relax.multiply"); }
  LogicalResult importDiv() { return binary("relax.divide"); }
  LogicalResult importPow();
  LogicalResult importEqual() { return binary("relax.equal"); }
  LogicalResult importLess() { return binary("relax.less"); }
  LogicalResult importGreater() { return binary("relax.greater"); }
  LogicalResult importMin() { return variadic("relax.minimum"); }
  LogicalResult importMax() { return variadic("relax.maximum"); }
  LogicalResult importSqrt() { return unary("relax.sqrt"); }
  LogicalResult importExp() { return unary("relax.exp"); }
  LogicalResult importLog() { return unary("relax.log"); }
  LogicalResult importErf() { return unary("relax.erf"); }
  LogicalResult importTanh() { return unary("relax.tanh"); }
  LogicalResult importRelu() { return unary("relax.relu"); }
  LogicalResult importSigmoid() { return unary("relax.sigmoid"); }
  LogicalResult importNeg() { return unary("relax.negative"); }
  LogicalResult importAbs() { return unary("relax.abs"); }
  LogicalResult importNot() { return unary("relax.logical_not"); }
  LogicalResult importReciprocal();
  LogicalResult importLeakyRelu();
  LogicalResult importIdentity();
  LogicalResult importConstant();
  LogicalResult importMatMul();
  LogicalResult importGemm();
  LogicalResult importSoftmax() { return softmax("relax.softmax"); }
  LogicalResult importLogSoftmax() { return softmax("relax.log_softmax"); }
  LogicalResult softmax(StringRef op);
  LogicalResult importLayerNormalization();
  LogicalResult importBatchNormalization();
  LogicalResult importReshape();
  LogicalResult importFlatten();
  LogicalResult importTranspose();
  LogicalResult importConcat();
  LogicalResult importSplit();
  LogicalResult importSlice();
  LogicalResult importGather();
  LogicalResult importUnsqueeze();
  LogicalResult importSqueeze();
  LogicalResult importShape();
  LogicalResult importCast();
  LogicalResult importWhere();
  LogicalResult importReduceMean() { return reduce("relax.mean"); }
  LogicalResult importReduceSum() { return reduce("relax.sum"); }
  LogicalResult importReduceMax() { return reduce("relax.max"); }
  LogicalResult importReduceMin() { return reduce("relax.min"); }
  LogicalResult reduce(StringRef op);
  LogicalResult importArgMax() { return argReduce("relax.argmax"); }
  LogicalResult importArgMin() { return argReduce("relax.argmin"); }
  LogicalResult argReduce(StringRef op);
  // Op types beyond the issue's list, composed from the same relax ops.
  LogicalResult importAnd() { return binary("relax.logical_and"); }
  LogicalResult importOr() { return binary("relax.logical_or"); }
  LogicalResult importXor() { return binary("relax.not_equal"); }
  LogicalResult importFloor() { return unary("relax.floor"); }
  LogicalResult importCeil() { return unary("relax.ceil"); }
  LogicalResult importRound() { return unary("relax.round"); }
  LogicalResult importSin() { return unary("relax.sin"); }
  LogicalResult importCos() { return unary("relax.cos"); }
  LogicalResult importSum() { return variadic("relax.add"); }
  LogicalResult importMean();
  LogicalResult importSign();
  LogicalResult importSoftplus();
  LogicalResult importElu();
  LogicalResult importSelu();
  LogicalResult importHardSigmoid();
  LogicalResult importHardSwish();
  LogicalResult importThresholdedRelu();
  LogicalResult importPRelu();
  LogicalResult importDropout();
  LogicalResult importReduceProd() { return reduce("relax.prod"); }
  LogicalResult importReduceSumSquare();
  LogicalResult importReduceLogSum();
  LogicalResult importReduceLogSumExp();
  LogicalResult importSize();
  LogicalResult importCastLike();
  LogicalResult importCumSum();
  LogicalResult importTile();
  FailureOr<Value> selectNegative(Value x, Value ifNegative);
  FailureOr<Value> reduceWith(StringRef op, Value x);
  LogicalResult importExpand();
  LogicalResult importConstantOfShape();
  LogicalResult importRange();
  LogicalResult importClip();
  LogicalResult importConv();
  LogicalResult importMaxPool() { return pool("relax.max_pool2d"); }
  LogicalResult importAveragePool() { return pool("relax.avg_pool2d"); }
  LogicalResult pool(StringRef op);
  FailureOr<Value> maxPoolIndices(Value x, ArrayRef<Expr> dims,
                                  ArrayRef<int64_t> kernel,
                                  ArrayRef<int64_t> strides,
                                  ArrayRef<int64_t> dilations,
                                  ArrayRef<int64_t> pads,
                                  RelaxTensorType pooled, int64_t storageOrder);
  FailureOr<Value> pool2d(StringRef op, Value in, ArrayRef<int64_t> kernel,
                          ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations, ArrayRef<int64_t> pads,
                          bool ceilMode);
  LogicalResult importGlobalAveragePool();
  FailureOr<SmallVector<int64_t>> convPads(ArrayRef<Expr> spatial,
                                           ArrayRef<int64_t> kernel,
                                           ArrayRef<int64_t> strides,
                                           ArrayRef<int64_t> dilations);

  MLIRContext *ctx;
  OpBuilder builder;
  Location fileLoc;
  int64_t opset = 1;
  bool hasDefaultOpset = true;
  llvm::StringMap<int64_t> domainOpsets;
  llvm::StringMap<Slot> slots;
  llvm::StringSet<> varNames;
  unsigned freshVars = 0;

  // The node being imported.
  const onnx::NodeProto *node = nullptr;
  Location loc = fileLoc;
  llvm::StringSet<> usedAttrs;
  bool attrFailed = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Graph level
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Importer::run(StringRef bytes) {
  ctx->loadDialect<RelaxDialect>();
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    emitError(fileLoc) << "malformed ONNX file: not a valid ModelProto";
    return nullptr;
  }
  if (!model.has_graph()) {
    emitError(fileLoc) << "malformed ONNX file: the model has no graph";
    return nullptr;
  }
  bool foundDefault = false;
  for (const onnx::OperatorSetIdProto &set : model.opset_import()) {
    domainOpsets[set.domain()] = set.version();
    if (set.domain().empty() || set.domain() == "ai.onnx") {
      opset = set.version();
      foundDefault = true;
    }
  }
  // A model of other domains only (training ops, ML ops) needs no default
  // opset; its nodes are reported as unsupported ops.
  hasDefaultOpset = foundDefault || model.ir_version() < 3;
  if (hasDefaultOpset && (opset < 1 || opset > 17)) {
    emitError(fileLoc) << "unsupported ONNX opset " << opset
                       << " (the importer reads opsets 1 to 17)";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  if (failed(importGraph(model.graph(), *module)))
    return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

FailureOr<Type> Importer::convertValueType(const onnx::ValueInfoProto &info) {
  Location l = NameLoc::get(builder.getStringAttr(info.name()), fileLoc);
  if (!info.has_type() || !info.type().has_tensor_type())
    return emitError(l) << "unsupported graph input '" << info.name()
                        << "': only tensors are supported (not sequences, "
                           "maps or optionals)";
  const onnx::TypeProto::Tensor &t = info.type().tensor_type();
  Type dtype = convertElementType(ctx, t.elem_type());
  if (!dtype)
    return emitError(l) << "graph input '" << info.name()
                        << "' has unsupported element type "
                        << elementTypeName(t.elem_type());
  if (!t.has_shape())
    return Type(RelaxTensorType::get(SymShape::unranked(), dtype));
  SmallVector<Expr> dims;
  for (const onnx::TensorShapeProto::Dimension &d : t.shape().dim()) {
    if (d.has_dim_value()) {
      if (d.dim_value() < 0)
        return emitError(l) << "graph input '" << info.name()
                            << "' has a negative dim " << d.dim_value();
      dims.push_back(Expr::constant(d.dim_value()));
    } else if (d.has_dim_param() && !d.dim_param().empty()) {
      std::string name = sanitizeVarName(d.dim_param());
      varNames.insert(name);
      dims.push_back(Expr::var(name));
    } else {
      // An unnamed dynamic dim: a fresh variable no dim_param uses.
      std::string name;
      do
        name = "unk" + std::to_string(freshVars++);
      while (varNames.contains(name));
      varNames.insert(name);
      dims.push_back(Expr::var(name));
    }
  }
  return Type(RelaxTensorType::get(SymShape(dims), dtype));
}

FailureOr<DenseElementsAttr>
Importer::convertTensor(const onnx::TensorProto &tensor, Location l) {
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
    return emitError(l) << "tensor '" << tensor.name()
                        << "' uses external data, which is not supported";
  Type dtype = convertElementType(ctx, tensor.data_type());
  if (!dtype)
    return emitError(l) << "tensor '" << tensor.name()
                        << "' has unsupported element type "
                        << elementTypeName(tensor.data_type());
  SmallVector<int64_t> shape;
  int64_t numElements = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0 || (d > 0 && numElements > kMaxElements / d))
      return emitError(l) << "tensor '" << tensor.name()
                          << "' has an invalid or too large shape";
    numElements *= d;
    shape.push_back(d);
  }
  auto type = RankedTensorType::get(shape, dtype);
  unsigned width = dtype.isInteger(1) ? 8 : dtype.getIntOrFloatBitWidth();
  size_t bytes = static_cast<size_t>(numElements) * (width / 8);
  auto sizeError = [&](size_t have) {
    return emitError(l) << "tensor '" << tensor.name() << "' holds " << have
                        << " values but its shape needs " << numElements;
  };
  std::vector<char> raw;
  if (tensor.has_raw_data()) {
    const std::string &data = tensor.raw_data();
    if (data.size() != bytes)
      return emitError(l) << "tensor '" << tensor.name() << "' has "
                          << data.size() << " bytes of raw data, expected "
                          << bytes;
    raw.assign(data.begin(), data.end());
  } else {
    auto fill = [&](const auto &field, auto convert) -> LogicalResult {
      // Checked before allocating: a corrupt shape must not allocate.
      if (static_cast<int64_t>(field.size()) != numElements) {
        sizeError(field.size());
        return failure();
      }
      raw.resize(bytes);
      for (int64_t k = 0; k < numElements; ++k)
        convert(raw.data() + k * (width / 8), field.Get(k));
      return success();
    };
    auto copyAs = [](auto tag) {
      return [](char *dst, auto v) {
        auto x = static_cast<decltype(tag)>(v);
        memcpy(dst, &x, sizeof(x));
      };
    };
    LogicalResult ok = success();
    switch (tensor.data_type()) {
    case onnx::TensorProto::FLOAT:
      ok = fill(tensor.float_data(), copyAs(float()));
      break;
    case onnx::TensorProto::DOUBLE:
      ok = fill(tensor.double_data(), copyAs(double()));
      break;
    case onnx::TensorProto::INT64:
      ok = fill(tensor.int64_data(), copyAs(int64_t()));
      break;
    case onnx::TensorProto::INT32:
      ok = fill(tensor.int32_data(), copyAs(int32_t()));
      break;
    case onnx::TensorProto::INT8:
      ok = fill(tensor.int32_data(), copyAs(int8_t()));
      break;
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::BOOL:
      ok = fill(tensor.int32_data(), copyAs(uint8_t()));
      break;
    case onnx::TensorProto::INT16:
      ok = fill(tensor.int32_data(), copyAs(int16_t()));
      break;
    case onnx::TensorProto::UINT16:
    case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::BFLOAT16:
      ok = fill(tensor.int32_data(), copyAs(uint16_t()));
      break;
    case onnx::TensorProto::UINT32:
      ok = fill(tensor.uint64_data(), copyAs(uint32_t()));
      break;
    case onnx::TensorProto::UINT64:
      ok = fill(tensor.uint64_data(), copyAs(uint64_t()));
      break;
    default:
      break;
    }
    if (failed(ok))
      return failure();
    if (raw.size() != bytes)
      return emitError(l) << "tensor '" << tensor.name()
                          << "' holds no data of its element type";
  }
  if (dtype.isInteger(1)) {
    SmallVector<bool> values;
    for (char c : raw)
      values.push_back(c != 0);
    return DenseElementsAttr::get(type, values);
  }
  if (numElements == 0)
    return DenseElementsAttr::get(type, ArrayRef<Attribute>());
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

Value Importer::makeConstant(DenseElementsAttr attr, StringRef nameHint) {
  ElementsAttr value = attr;
  auto type = attr.getType();
  if (!type.getElementType().isInteger(1) && !attr.isSplat() &&
      type.getNumElements() > kResourceThreshold) {
    // Large tensors go to a resource blob, out of the IR text.
    ArrayRef<char> data = attr.getRawData();
    unsigned align = std::max<unsigned>(
        1, type.getElementType().getIntOrFloatBitWidth() / 8);
    AsmResourceBlob blob =
        HeapAsmResourceBlob::allocateAndCopyWithAlign(data, align);
    std::string name = sanitizeVarName(nameHint);
    if (name.empty())
      name = "onnx_constant";
    value = DenseResourceElementsAttr::get(type, name, std::move(blob));
  }
  OperationState state(loc, ConstantOp::getOperationName());
  state.addAttribute("value", value);
  state.addTypes(RelaxTensorType::get(SymShape::fromStatic(type.getShape()),
                                      type.getElementType()));
  return builder.create(state)->getResult(0);
}

LogicalResult Importer::importGraph(const onnx::GraphProto &graph,
                                    ModuleOp module) {
  // Initializers first: an old-style model lists them among the inputs too,
  // and then they are constants, not parameters.
  llvm::StringSet<> initNames;
  for (const onnx::TensorProto &init : graph.initializer()) {
    Location l = NameLoc::get(builder.getStringAttr(init.name()), fileLoc);
    if (init.name().empty())
      return emitError(l) << "initializer without a name";
    FailureOr<DenseElementsAttr> attr = convertTensor(init, l);
    if (failed(attr))
      return failure();
    slots[init.name()].constant = *attr;
    initNames.insert(init.name());
  }

  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  for (const onnx::ValueInfoProto &in : graph.input()) {
    if (initNames.contains(in.name()))
      continue;
    if (in.name().empty())
      return emitError(fileLoc) << "graph input without a name";
    if (slots.count(in.name()))
      return emitError(fileLoc)
             << "graph input '" << in.name() << "' is declared twice";
    FailureOr<Type> type = convertValueType(in);
    if (failed(type))
      return failure();
    argTypes.push_back(*type);
    argNames.push_back(in.name());
    slots[in.name()];
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto func = FuncOp::create(builder, fileLoc, "main",
                             builder.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    slots[name].value = body->getArgument(i);
    func.setArgAttr(i, "relax.name", builder.getStringAttr(name));
  }
  builder.setInsertionPointToEnd(body);

  for (const onnx::NodeProto &n : graph.node())
    if (failed(importNode(n)))
      return failure();

  node = nullptr;
  loc = fileLoc;
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    auto it = slots.find(out.name());
    if (out.name().empty() || it == slots.end())
      return emitError(fileLoc) << "graph output '" << out.name()
                                << "' is not produced by any node";
    Slot &s = it->second;
    if (!s.value) {
      FailureOr<Value> v =
          s.constant ? FailureOr<Value>(makeConstant(s.constant, out.name()))
                     : materialize(*s.ints);
      if (failed(v))
        return failure();
      s.value = *v;
    }
    results.push_back(s.value);
  }
  if (results.empty())
    return emitError(fileLoc) << "the graph has no outputs";
  // The graph is pure: its bindings go into one relax.dataflow region, the
  // form graph-level passes (fusion) work on.
  TypeRange resultTypes = ValueRange(results).getTypes();
  auto dataflow = DataflowOp::create(builder, fileLoc, resultTypes);
  Block *dfBody = new Block();
  dataflow.getBody().push_back(dfBody);
  dfBody->getOperations().splice(dfBody->end(), body->getOperations(),
                                 body->begin(), Block::iterator(dataflow));
  builder.setInsertionPointToEnd(dfBody);
  OutputOp::create(builder, fileLoc, results);
  builder.setInsertionPointToEnd(body);
  ReturnOp::create(builder, fileLoc, dataflow.getResults());
  func.setFunctionType(builder.getFunctionType(argTypes, resultTypes));
  return success();
}

InFlightDiagnostic Importer::nodeError() {
  return emitError(loc) << "ONNX " << node->op_type() << " node '"
                        << node->name() << "' (opset " << opset << "): ";
}

LogicalResult Importer::importNode(const onnx::NodeProto &n) {
  node = &n;
  std::string locName = n.name().empty()
                            ? (n.output_size() ? n.output(0) : n.op_type())
                            : n.name();
  loc = NameLoc::get(builder.getStringAttr(locName), fileLoc);
  usedAttrs.clear();
  attrFailed = false;
  if (!n.domain().empty() && n.domain() != "ai.onnx")
    return emitError(loc) << "unsupported ONNX op '" << n.op_type()
                          << "' of domain '" << n.domain() << "' (node '"
                          << n.name() << "', opset "
                          << domainOpsets.lookup(n.domain()) << ")";
  if (!hasDefaultOpset)
    return emitError(loc) << "malformed ONNX file: node '" << n.name()
                          << "' of the default domain, but no opset_import "
                             "for it";
  auto it = handlers().find(n.op_type());
  if (it == handlers().end())
    return emitError(loc) << "unsupported ONNX op '" << n.op_type()
                          << "' (node '" << n.name() << "', opset " << opset
                          << ")";
  for (const std::string &out : n.output())
    if (!out.empty() && slots.count(out))
      return nodeError() << "output '" << out << "' is already defined";
  if (failed((this->*(it->second))()))
    return failure();
  if (attrFailed)
    return failure();
  for (const onnx::AttributeProto &a : n.attribute())
    if (!usedAttrs.contains(a.name()))
      return emitError(loc) << "unsupported attribute '" << a.name()
                            << "' of ONNX op '" << n.op_type() << "' (node '"
                            << n.name() << "', opset " << opset << ")";
  for (unsigned i = 0, e = numOutputs(); i < e; ++i) {
    if (n.output(i).empty())
      continue;
    auto s = slots.find(n.output(i));
    if (s == slots.end() ||
        (!s->second.value && !s->second.constant && !s->second.ints))
      return nodeError() << "output #" << i << " is not supported";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Node context
//===----------------------------------------------------------------------===//

Slot *Importer::inputSlot(unsigned i) {
  if (!hasInput(i)) {
    nodeError() << "input #" << i << " is missing";
    return nullptr;
  }
  auto it = slots.find(node->input(i));
  if (it == slots.end()) {
    nodeError() << "input '" << node->input(i) << "' is not defined before use";
    return nullptr;
  }
  return &it->second;
}

FailureOr<Value> Importer::input(unsigned i) {
  Slot *s = inputSlot(i);
  if (!s)
    return failure();
  if (!s->value) {
    FailureOr<Value> v =
        s->constant
            ? FailureOr<Value>(makeConstant(s->constant, node->input(i)))
            : materialize(*s->ints);
    if (failed(v))
      return failure();
    s->value = *v;
  }
  return s->value;
}

std::optional<KnownInts> Importer::knownInts(unsigned i) {
  if (!hasInput(i))
    return std::nullopt;
  auto it = slots.find(node->input(i));
  if (it == slots.end())
    return std::nullopt;
  Slot &s = it->second;
  if (s.ints)
    return s.ints;
  if (!s.constant || !isa<IntegerType>(s.constant.getElementType()))
    return std::nullopt;
  KnownInts k;
  auto type = s.constant.getType();
  k.shape.assign(type.getShape().begin(), type.getShape().end());
  k.dtype = type.getElementType();
  bool isUnsigned = k.dtype.isUnsignedInteger() || k.dtype.isInteger(1);
  for (const APInt &v : s.constant.getValues<APInt>()) {
    // Values outside the symbolic range (INT64_MIN, unsigned > INT64_MAX)
    // yield a null Expr: such a tensor is not usable as a shape.
    Expr e = Expr::constant(isUnsigned ? int64_t(v.getZExtValue())
                                       : v.getSExtValue());
    if (!e || (isUnsigned && v.getZExtValue() > uint64_t(INT64_MAX)))
      return std::nullopt;
    k.elems.push_back(e);
  }
  return k;
}

DenseElementsAttr Importer::knownConstant(unsigned i) {
  if (!hasInput(i))
    return {};
  auto it = slots.find(node->input(i));
  if (it == slots.end())
    return {};
  Slot &s = it->second;
  if (s.constant)
    return s.constant;
  if (!s.ints)
    return {};
  SmallVector<APInt> values;
  unsigned width = s.ints->dtype.getIntOrFloatBitWidth();
  for (const Expr &e : s.ints->elems) {
    std::optional<int64_t> c = e.getConstant();
    if (!c)
      return {};
    values.push_back(
        APInt(width, *c, /*isSigned=*/true, /*implicitTrunc=*/true));
  }
  return DenseElementsAttr::get(
      RankedTensorType::get(s.ints->shape, s.ints->dtype), values);
}

FailureOr<SmallVector<int64_t>> Importer::constInts(unsigned i,
                                                    StringRef what) {
  std::optional<KnownInts> k = knownInts(i);
  if (!k) {
    runtimeValueError() << what << " (input #" << i
                        << ") must be a constant known at import time";
    return failure();
  }
  SmallVector<int64_t> out;
  for (const Expr &e : k->elems) {
    std::optional<int64_t> c = e.getConstant();
    if (!c) {
      runtimeValueError() << what << " (input #" << i
                          << ") must be constant, not " << e.str();
      return failure();
    }
    out.push_back(*c);
  }
  return out;
}

LogicalResult Importer::requireInputs(unsigned lo, unsigned hi) {
  if (numInputs() < lo || numInputs() > hi)
    return nodeError() << "expects " << lo << " to " << hi << " inputs, got "
                       << numInputs();
  for (unsigned i = 0; i < lo; ++i)
    if (!hasInput(i))
      return nodeError() << "input #" << i << " is missing";
  return success();
}

LogicalResult Importer::requireOutputs(unsigned hi) {
  if (numOutputs() > hi)
    return nodeError() << "only the first " << hi
                       << " output(s) are supported, got " << numOutputs();
  if (numOutputs() == 0)
    return nodeError() << "has no outputs";
  return success();
}

const onnx::AttributeProto *Importer::attr(StringRef name) {
  usedAttrs.insert(name);
  for (const onnx::AttributeProto &a : node->attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

LogicalResult Importer::badAttr(StringRef name, const Twine &why) {
  attrFailed = true;
  return nodeError() << "attribute '" << name << "' " << why;
}

int64_t Importer::attrInt(StringRef name, int64_t dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::INT) {
    (void)badAttr(name, "must be an integer");
    return dflt;
  }
  return a->i();
}

float Importer::attrFloat(StringRef name, float dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::FLOAT) {
    (void)badAttr(name, "must be a float");
    return dflt;
  }
  return a->f();
}

std::string Importer::attrString(StringRef name, StringRef dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt.str();
  if (a->type() != onnx::AttributeProto::STRING) {
    (void)badAttr(name, "must be a string");
    return dflt.str();
  }
  return a->s();
}

std::optional<SmallVector<int64_t>> Importer::attrInts(StringRef name) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::nullopt;
  if (a->type() != onnx::AttributeProto::INTS) {
    (void)badAttr(name, "must be a list of integers");
    return std::nullopt;
  }
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> Importer::emitN(StringRef opName,
                                              ValueRange operands,
                                              ArrayRef<NamedAttribute> attrs,
                                              unsigned numResults) {
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(SmallVector<Type>(numResults, builder.getNoneType()));
  Operation *op = builder.create(state);
  auto iface = dyn_cast<InferTypeOpInterface>(op);
  SmallVector<Type> types;
  if (!iface ||
      failed(iface.inferReturnTypes(
          ctx, op->getLoc(), op->getOperands(), op->getRawDictionaryAttrs(),
          op->getPropertiesStorage(), op->getRegions(), types)) ||
      types.size() != numResults) {
    op->erase();
    return nodeError() << "cannot build " << opName << " from its operands";
  }
  for (auto [r, t] : llvm::zip(op->getResults(), types))
    r.setType(t);
  if (failed(verify(op))) {
    op->erase();
    return nodeError() << "the " << opName << " built for it is invalid";
  }
  return SmallVector<Value>(op->getResults());
}

FailureOr<Value> Importer::emit(StringRef opName, ValueRange operands,
                                ArrayRef<NamedAttribute> attrs) {
  FailureOr<SmallVector<Value>> r = emitN(opName, operands, attrs, 1);
  if (failed(r))
    return failure();
  return (*r)[0];
}

FailureOr<Value> Importer::scalar(double value, Type dtype) {
  auto type = RankedTensorType::get({}, dtype);
  DenseElementsAttr attr;
  if (auto ft = dyn_cast<FloatType>(dtype)) {
    APFloat f(value);
    bool lost;
    f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    attr = DenseElementsAttr::get(type, f);
  } else if (dtype.isInteger(1)) {
    attr = DenseElementsAttr::get(type, value != 0);
  } else {
    // Out-of-range or non-finite values saturate instead of being undefined.
    double clamped =
        std::isnan(value) ? 0.0 : std::clamp(value, -9.2e18, 9.2e18);
    attr = DenseElementsAttr::get(type, APInt(dtype.getIntOrFloatBitWidth(),
                                              static_cast<int64_t>(clamped),
                                              /*isSigned=*/true,
                                              /*implicitTrunc=*/true));
  }
  return makeConstant(attr, "scalar");
}

FailureOr<Value> Importer::symScalar(Expr e, Type dtype) {
  if (std::optional<int64_t> c = e.getConstant())
    return scalar(static_cast<double>(*c), dtype);
  FailureOr<Value> r =
      emit("relax.arange", {},
           {named("start", exprAttr(e)), named("end", exprAttr(e + 1)),
            named("step", exprAttr(Expr::constant(1))),
            named("dtype", TypeAttr::get(dtype))});
  if (failed(r))
    return failure();
  return reshape(*r, {});
}

FailureOr<Value> Importer::materialize(const KnownInts &ints) {
  // All constant: one relax.constant.
  SmallVector<APInt> values;
  unsigned width = ints.dtype.getIntOrFloatBitWidth();
  bool allConst = true;
  for (const Expr &e : ints.elems) {
    std::optional<int64_t> c = e.getConstant();
    if (!c) {
      allConst = false;
      break;
    }
    values.push_back(APInt(width, *c, true, true));
  }
  if (allConst)
    return makeConstant(
        DenseElementsAttr::get(RankedTensorType::get(ints.shape, ints.dtype),
                               values),
        "shape");
  // Symbolic elements: each becomes a one-element arange, then concat.
  SmallVector<Value> pieces;
  for (const Expr &e : ints.elems) {
    FailureOr<Value> piece =
        emit("relax.arange", {},
             {named("start", exprAttr(e)), named("end", exprAttr(e + 1)),
              named("step", exprAttr(Expr::constant(1))),
              named("dtype", TypeAttr::get(ints.dtype))});
    if (failed(piece))
      return failure();
    pieces.push_back(*piece);
  }
  FailureOr<Value> flat =
      pieces.size() == 1 ? FailureOr<Value>(pieces[0])
                         : emit("relax.concat", pieces,
                                {named("axis", builder.getI64IntegerAttr(0))});
  if (failed(flat))
    return failure();
  SmallVector<Expr> dims;
  for (int64_t d : ints.shape)
    dims.push_back(Expr::constant(d));
  if (ints.shape.size() == 1)
    return *flat;
  return reshape(*flat, dims);
}

FailureOr<Value> Importer::reshape(Value v, ArrayRef<Expr> dims) {
  return emit("relax.reshape", v, {named("shape", shapeAttr(dims))});
}

FailureOr<Value> Importer::castTo(Value v, Type dtype) {
  if (typeOf(v).getDtype() == dtype)
    return v;
  return emit("relax.astype", v, {named("dtype", TypeAttr::get(dtype))});
}

FailureOr<SmallVector<Expr>> Importer::dimsOf(Value v) {
  RelaxTensorType t = typeOf(v);
  if (!t.hasRank())
    return nodeError() << "needs an input of known rank, got " << t;
  SmallVector<Expr> dims(t.getDims());
  for (const Expr &d : dims)
    if (!d)
      return nodeError() << "needs an input whose dims are known "
                            "(symbolically), got "
                         << t;
  return dims;
}

FailureOr<int64_t> Importer::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return nodeError() << "axis " << axis << " is out of range for rank "
                       << rank;
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult Importer::unary(StringRef op) {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = emit(op, *x);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

/// Folds integer arithmetic on import-time values (shape computations).
static std::optional<KnownInts> foldBinary(StringRef op, const KnownInts &a,
                                           const KnownInts &b) {
  if (a.dtype != b.dtype)
    return std::nullopt;
  const KnownInts &big = a.elems.size() >= b.elems.size() ? a : b;
  if (a.elems.size() != b.elems.size() && a.elems.size() != 1 &&
      b.elems.size() != 1)
    return std::nullopt;
  if (a.shape.size() > 1 || b.shape.size() > 1)
    return std::nullopt;
  KnownInts out;
  out.dtype = a.dtype;
  out.shape = a.shape.size() >= b.shape.size() ? a.shape : b.shape;
  for (size_t k = 0; k < big.elems.size(); ++k) {
    Expr x = a.elems[a.elems.size() == 1 ? 0 : k];
    Expr y = b.elems[b.elems.size() == 1 ? 0 : k];
    Expr r;
    if (op == "relax.add")
      r = x + y;
    else if (op == "relax.subtract")
      r = x - y;
    else if (op == "relax.multiply")
      r = x * y;
    else if (op == "relax.divide") {
      // ONNX integer division truncates; fold only where that equals floor.
      std::optional<int64_t> cx = x.getConstant(), cy = y.getConstant();
      if (cx && cy) {
        if (*cy == 0)
          return std::nullopt;
        r = Expr::constant(*cx / *cy);
      } else if (cy && *cy > 0) {
        r = sym::floorDiv(x, y);
      } else {
        return std::nullopt;
      }
    } else {
      return std::nullopt;
    }
    if (!r)
      return std::nullopt;
    out.elems.push_back(r);
  }
  return out;
}

LogicalResult Importer::binary(StringRef op) {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  std::optional<KnownInts> ka = knownInts(0), kb = knownInts(1);
  if (ka && kb && (ka->shape.size() <= 1 && kb->shape.size() <= 1)) {
    bool symbolic = false;
    for (const Expr &e : ka->elems)
      symbolic |= !e.getConstant();
    for (const Expr &e : kb->elems)
      symbolic |= !e.getConstant();
    if (symbolic) {
      if (std::optional<KnownInts> r = foldBinary(op, *ka, *kb)) {
        setOutputInts(0, *r);
        return success();
      }
    }
  }
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> y = emit(op, {*a, *b});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::variadic(StringRef op) {
  if (numInputs() < 1 || failed(requireOutputs(1)))
    return nodeError() << "expects at least one input";
  FailureOr<Value> acc = input(0);
  if (failed(acc))
    return failure();
  for (unsigned i = 1; i < numInputs(); ++i) {
    FailureOr<Value> x = input(i);
    if (failed(x))
      return failure();
    acc = emit(op, {*acc, *x});
    if (failed(acc))
      return failure();
  }
  setOutput(0, *acc);
  return success();
}

LogicalResult Importer::importPow() {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  // ONNX allows an exponent of another type; relax.power wants one dtype.
  FailureOr<Value> e = castTo(*b, typeOf(*a).getDtype());
  if (failed(e))
    return failure();
  FailureOr<Value> y = emit("relax.power", {*a, *e});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importReciprocal() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> one = scalar(1.0, typeOf(*x).getDtype());
  if (failed(one))
    return failure();
  FailureOr<Value> y = emit("relax.divide", {*one, *x});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importLeakyRelu() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  float alpha = attrFloat("alpha", 0.01f);
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type dtype = typeOf(*x).getDtype();
  FailureOr<Value> zero = scalar(0.0, dtype), a = scalar(alpha, dtype);
  if (failed(zero) || failed(a))
    return failure();
  FailureOr<Value> neg = emit("relax.less", {*x, *zero});
  FailureOr<Value> scaled = emit("relax.multiply", {*x, *a});
  if (failed(neg) || failed(scaled))
    return failure();
  FailureOr<Value> y = emit("relax.where", {*neg, *scaled, *x});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importIdentity() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  Slot *s = inputSlot(0);
  if (!s)
    return failure();
  slots[node->output(0)] = *s;
  return success();
}

LogicalResult Importer::importConstant() {
  if (failed(requireInputs(0, 0)) || failed(requireOutputs(1)))
    return failure();
  DenseElementsAttr value;
  unsigned found = 0;
  for (const onnx::AttributeProto &a : node->attribute()) {
    usedAttrs.insert(a.name());
    StringRef name = a.name();
    if (name == "value" && a.type() == onnx::AttributeProto::TENSOR) {
      FailureOr<DenseElementsAttr> t = convertTensor(a.t(), loc);
      if (failed(t))
        return failure();
      value = *t;
    } else if (name == "value_float" &&
               a.type() == onnx::AttributeProto::FLOAT) {
      value = DenseElementsAttr::get(
          RankedTensorType::get({}, builder.getF32Type()), a.f());
    } else if (name == "value_floats" &&
               a.type() == onnx::AttributeProto::FLOATS) {
      SmallVector<float> v(a.floats().begin(), a.floats().end());
      value = DenseElementsAttr::get(
          RankedTensorType::get({int64_t(v.size())}, builder.getF32Type()),
          ArrayRef<float>(v));
    } else if (name == "value_int" && a.type() == onnx::AttributeProto::INT) {
      value = DenseElementsAttr::get(
          RankedTensorType::get({}, builder.getI64Type()), int64_t(a.i()));
    } else if (name == "value_ints" && a.type() == onnx::AttributeProto::INTS) {
      SmallVector<int64_t> v(a.ints().begin(), a.ints().end());
      value = DenseElementsAttr::get(
          RankedTensorType::get({int64_t(v.size())}, builder.getI64Type()),
          ArrayRef<int64_t>(v));
    } else {
      return emitError(loc) << "unsupported attribute '" << name
                            << "' of ONNX op 'Constant' (node '" << node->name()
                            << "', opset " << opset << ")";
    }
    ++found;
  }
  if (found != 1)
    return nodeError() << "needs exactly one value attribute";
  Slot &s = slots[node->output(0)];
  s = Slot();
  s.constant = value;
  return success();
}

//===----------------------------------------------------------------------===//
// Linear algebra and normalisation
//===----------------------------------------------------------------------===//

LogicalResult Importer::importMatMul() {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> y = emit("relax.matmul", {*a, *b});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importGemm() {
  if (failed(requireInputs(2, 3)) || failed(requireOutputs(1)))
    return failure();
  float alpha = attrFloat("alpha", 1.0f), beta = attrFloat("beta", 1.0f);
  int64_t transA = attrInt("transA", 0), transB = attrInt("transB", 0);
  if (opset < 7)
    attr("broadcast");
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  if (transA) {
    a = emit("relax.permute_dims", *a, {named("axes", i64Array({1, 0}))});
    if (failed(a))
      return failure();
  }
  if (transB) {
    b = emit("relax.permute_dims", *b, {named("axes", i64Array({1, 0}))});
    if (failed(b))
      return failure();
  }
  FailureOr<Value> y = emit("relax.matmul", {*a, *b});
  if (failed(y))
    return failure();
  Type dtype = typeOf(*y).getDtype();
  if (alpha != 1.0f) {
    FailureOr<Value> s = scalar(alpha, dtype);
    if (failed(s) || failed(y = emit("relax.multiply", {*y, *s})))
      return failure();
  }
  if (hasInput(2) && beta != 0.0f) {
    FailureOr<Value> c = input(2);
    if (failed(c))
      return failure();
    if (beta != 1.0f) {
      FailureOr<Value> s = scalar(beta, dtype);
      if (failed(s) || failed(c = emit("relax.multiply", {*c, *s})))
        return failure();
    }
    if (failed(y = emit("relax.add", {*y, *c})))
      return failure();
  }
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::softmax(StringRef op) {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  int64_t axis = attrInt("axis", opset >= 13 ? -1 : 1);
  if (opset >= 13) {
    FailureOr<Value> y =
        emit(op, *x, {named("axis", builder.getI64IntegerAttr(axis))});
    if (failed(y))
      return failure();
    setOutput(0, *y);
    return success();
  }
  // Before opset 13 the input is coerced to 2-D [prod(:axis), prod(axis:)].
  FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> ax = normalizeAxis(axis, dims->size());
  if (dims->empty())
    ax = 0;
  if (failed(ax))
    return failure();
  Expr outer = Expr::constant(1), inner = Expr::constant(1);
  for (auto [k, d] : llvm::enumerate(*dims))
    (static_cast<int64_t>(k) < *ax ? outer : inner) =
        (static_cast<int64_t>(k) < *ax ? outer : inner) * d;
  FailureOr<Value> flat = reshape(*x, {outer, inner});
  if (failed(flat))
    return failure();
  FailureOr<Value> y =
      emit(op, *flat, {named("axis", builder.getI64IntegerAttr(1))});
  if (failed(y) || failed(y = reshape(*y, *dims)))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importLayerNormalization() {
  if (failed(requireInputs(2, 3)) || failed(requireOutputs(3)))
    return failure();
  int64_t axis = attrInt("axis", -1);
  float epsilon = attrFloat("epsilon", 1e-5f);
  int64_t stash = attrInt("stash_type", 1);
  if (stash != 1)
    return badAttr("stash_type", "must be 1 (float)");
  FailureOr<Value> x = input(0), scale = input(1);
  if (failed(x) || failed(scale))
    return failure();
  RelaxTensorType xt = typeOf(*x);
  if (!xt.hasRank())
    return nodeError() << "needs an input of known rank";
  int64_t rank = xt.getRank();
  FailureOr<int64_t> ax = normalizeAxis(axis, rank);
  if (failed(ax))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t k = *ax; k < rank; ++k)
    axes.push_back(k);
  Type dtype = xt.getDtype();
  Value bias;
  if (hasInput(2)) {
    FailureOr<Value> b = input(2);
    if (failed(b))
      return failure();
    bias = *b;
  }
  if (numOutputs() == 1 && bias && typeOf(*scale) == typeOf(bias)) {
    FailureOr<Value> y =
        emit("relax.layer_norm", {*x, *scale, bias},
             {named("axes", i64Array(axes)),
              named("epsilon", builder.getF64FloatAttr(epsilon))});
    if (failed(y))
      return failure();
    setOutput(0, *y);
    return success();
  }
  // Composed form: also yields the mean and the inverse standard deviation.
  auto reduceAttrs =
      SmallVector<NamedAttribute>{named("axes", i64Array(axes)),
                                  named("keepdims", builder.getBoolAttr(true))};
  FailureOr<Value> mean = emit("relax.mean", *x, reduceAttrs);
  if (failed(mean))
    return failure();
  FailureOr<Value> centered = emit("relax.subtract", {*x, *mean});
  if (failed(centered))
    return failure();
  FailureOr<Value> sq = emit("relax.multiply", {*centered, *centered});
  if (failed(sq))
    return failure();
  FailureOr<Value> var = emit("relax.mean", *sq, reduceAttrs);
  FailureOr<Value> eps = scalar(epsilon, dtype);
  if (failed(var) || failed(eps))
    return failure();
  FailureOr<Value> inv = emit("relax.add", {*var, *eps});
  if (failed(inv) || failed(inv = emit("relax.rsqrt", *inv)))
    return failure();
  FailureOr<Value> y = emit("relax.multiply", {*centered, *inv});
  if (failed(y) || failed(y = emit("relax.multiply", {*y, *scale})))
    return failure();
  if (bias && failed(y = emit("relax.add", {*y, bias})))
    return failure();
  setOutput(0, *y);
  if (numOutputs() > 1 && !node->output(1).empty())
    setOutput(1, *mean);
  if (numOutputs() > 2 && !node->output(2).empty())
    setOutput(2, *inv);
  return success();
}

LogicalResult Importer::importBatchNormalization() {
  float epsilon = attrFloat("epsilon", 1e-5f);
  float momentum = attrFloat("momentum", 0.9f);
  if (opset < 7)
    attr("is_test");
  if (opset < 9)
    attr("spatial");
  bool training = opset >= 14 && attrInt("training_mode", 0) != 0;
  if (failed(requireInputs(5, 5)) || failed(requireOutputs(training ? 3 : 1)))
    return failure();
  SmallVector<Value> operands;
  for (unsigned i = 0; i < 5; ++i) {
    FailureOr<Value> v = input(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  // Training mode normalises with the batch statistics and also returns the
  // updated running statistics.
  Value curMean, curVar;
  if (training) {
    RelaxTensorType xt = typeOf(operands[0]);
    if (!xt.hasRank() || xt.getRank() < 2)
      return nodeError() << "needs an input of rank >= 2";
    SmallVector<int64_t> axes{0};
    for (int64_t k = 2; k < xt.getRank(); ++k)
      axes.push_back(k);
    SmallVector<NamedAttribute> attrs{named("axes", i64Array(axes))};
    FailureOr<Value> m = emit("relax.mean", operands[0], attrs);
    FailureOr<Value> v = emit("relax.variance", operands[0], attrs);
    if (failed(m) || failed(v))
      return failure();
    curMean = *m;
    curVar = *v;
  }
  SmallVector<Value> bnOperands(operands);
  if (training) {
    bnOperands[3] = curMean;
    bnOperands[4] = curVar;
  }
  FailureOr<Value> y =
      emit("relax.batch_norm", bnOperands,
           {named("axis", builder.getI64IntegerAttr(1)),
            named("epsilon", builder.getF64FloatAttr(epsilon))});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  if (!training)
    return success();
  Type dtype = typeOf(curMean).getDtype();
  FailureOr<Value> mom = scalar(momentum, dtype),
                   rest = scalar(1.0 - momentum, dtype);
  if (failed(mom) || failed(rest))
    return failure();
  for (unsigned k = 1; k < numOutputs(); ++k) {
    if (node->output(k).empty())
      continue;
    Value running = operands[k == 1 ? 3 : 4], cur = k == 1 ? curMean : curVar;
    FailureOr<Value> a = emit("relax.multiply", {running, *mom});
    FailureOr<Value> b = emit("relax.multiply", {cur, *rest});
    if (failed(a) || failed(b))
      return failure();
    FailureOr<Value> r = emit("relax.add", {*a, *b});
    if (failed(r))
      return failure();
    setOutput(k, *r);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult Importer::importReshape() {
  if (failed(requireInputs(opset >= 5 ? 2 : 1, 2)) || failed(requireOutputs(1)))
    return failure();
  int64_t allowZero = opset >= 14 ? attrInt("allowzero", 0) : 0;
  SmallVector<Expr> target;
  if (opset < 5) {
    std::optional<SmallVector<int64_t>> s = attrInts("shape");
    if (!s)
      return nodeError() << "needs a 'shape' attribute";
    for (int64_t d : *s)
      target.push_back(Expr::constant(d));
  } else {
    std::optional<KnownInts> k = knownInts(1);
    if (!k)
      return runtimeValueError() << "the target shape (input #1) must be known at "
                            "import time (a constant or a shape computation)";
    target = k->elems;
  }
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  // Inputs whose dims are not all known only take fully explicit targets.
  RelaxTensorType xt = typeOf(*x);
  int inferred = -1;
  Expr known = Expr::constant(1);
  for (auto [k, d] : llvm::enumerate(target)) {
    std::optional<int64_t> c = d.getConstant();
    if (c && *c == 0 && !allowZero) {
      if (!xt.hasRank() || static_cast<int64_t>(k) >= xt.getRank() ||
          !xt.getDims()[k])
        return nodeError() << "copies dim " << k
                           << " of an input whose dim is unknown";
      d = xt.getDims()[k];
    } else if (c && *c == -1) {
      if (inferred >= 0)
        return nodeError() << "has more than one -1 in its target shape";
      inferred = k;
      continue;
    } else if (c && *c < -1) {
      return nodeError() << "has an invalid target dim " << *c;
    }
    known = known * d;
  }
  if (inferred >= 0) {
    FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
    if (failed(dims))
      return failure();
    Expr total = Expr::constant(1);
    for (const Expr &d : *dims)
      total = total * d;
    std::optional<int64_t> kc = known.getConstant();
    if (kc && *kc == 0)
      return nodeError() << "cannot infer the -1 dim next to a zero dim";
    target[inferred] = sym::floorDiv(total, known);
    if (!target[inferred])
      return nodeError() << "cannot infer the -1 dim symbolically";
  }
  FailureOr<Value> y = reshape(*x, target);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importFlatten() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  int64_t axis = attrInt("axis", 1);
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
  if (failed(dims))
    return failure();
  int64_t rank = dims->size();
  if (axis < -rank || axis > rank)
    return nodeError() << "axis " << axis << " is out of range for rank "
                       << rank;
  if (axis < 0)
    axis += rank;
  Expr outer = Expr::constant(1), inner = Expr::constant(1);
  for (int64_t k = 0; k < rank; ++k) {
    if (k < axis)
      outer = outer * (*dims)[k];
    else
      inner = inner * (*dims)[k];
  }
  FailureOr<Value> y = reshape(*x, {outer, inner});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importTranspose() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  std::optional<SmallVector<int64_t>> perm = attrInts("perm");
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  SmallVector<NamedAttribute> attrs;
  if (perm)
    attrs.push_back(named("axes", i64Array(*perm)));
  FailureOr<Value> y = emit("relax.permute_dims", *x, attrs);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importConcat() {
  if (numInputs() < 1 || failed(requireOutputs(1)))
    return nodeError() << "expects at least one input";
  int64_t axis = attrInt("axis", 0);
  // Concatenation of shape vectors stays an import-time value.
  bool allKnown = true;
  SmallVector<KnownInts> known;
  for (unsigned i = 0; i < numInputs() && allKnown; ++i) {
    std::optional<KnownInts> k = knownInts(i);
    allKnown = k && k->shape.size() == 1 && (axis == 0 || axis == -1);
    if (allKnown)
      known.push_back(*k);
  }
  if (allKnown) {
    KnownInts out;
    out.dtype = known[0].dtype;
    bool symbolic = false;
    for (const KnownInts &k : known) {
      allKnown &= k.dtype == out.dtype;
      for (const Expr &e : k.elems) {
        out.elems.push_back(e);
        symbolic |= !e.getConstant();
      }
    }
    out.shape = {static_cast<int64_t>(out.elems.size())};
    if (allKnown && symbolic) {
      setOutputInts(0, out);
      return success();
    }
  }
  SmallVector<Value> operands;
  for (unsigned i = 0; i < numInputs(); ++i) {
    FailureOr<Value> v = input(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  FailureOr<Value> y = emit("relax.concat", operands,
                            {named("axis", builder.getI64IntegerAttr(axis))});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importSplit() {
  if (failed(requireInputs(1, 2)))
    return failure();
  int64_t axis = attrInt("axis", 0);
  unsigned n = numOutputs();
  if (n == 0)
    return nodeError() << "has no outputs";
  std::optional<SmallVector<int64_t>> sizes;
  if (opset >= 13) {
    if (hasInput(1)) {
      FailureOr<SmallVector<int64_t>> s = constInts(1, "the split sizes");
      if (failed(s))
        return failure();
      sizes = *s;
    }
  } else {
    sizes = attrInts("split");
  }
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  SmallVector<NamedAttribute> attrs{
      named("axis", builder.getI64IntegerAttr(axis))};
  if (sizes && !sizes->empty()) {
    if (sizes->size() != n)
      return nodeError() << "has " << sizes->size() << " split sizes for " << n
                         << " outputs";
    SmallVector<Expr> indices;
    int64_t acc = 0;
    for (size_t k = 0; k + 1 < sizes->size(); ++k) {
      if ((*sizes)[k] < 0)
        return nodeError() << "has a negative split size";
      acc += (*sizes)[k];
      indices.push_back(Expr::constant(acc));
    }
    if (n == 1) {
      setOutput(0, *x);
      return success();
    }
    attrs.push_back(named("indices", shapeAttr(indices)));
  } else {
    attrs.push_back(named("sections", builder.getI64IntegerAttr(n)));
  }
  if (n == 1) {
    setOutput(0, *x);
    return success();
  }
  FailureOr<SmallVector<Value>> ys = emitN("relax.split", *x, attrs, n);
  if (failed(ys))
    return failure();
  for (unsigned k = 0; k < n; ++k)
    setOutput(k, (*ys)[k]);
  return success();
}

LogicalResult Importer::importSlice() {
  SmallVector<Expr> starts, ends;
  std::optional<SmallVector<int64_t>> axes, steps;
  auto toExprs = [](const KnownInts &k) { return k.elems; };
  if (opset < 10) {
    if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
      return failure();
    std::optional<SmallVector<int64_t>> s = attrInts("starts"),
                                        e = attrInts("ends");
    axes = attrInts("axes");
    if (!s || !e)
      return nodeError() << "needs 'starts' and 'ends' attributes";
    for (int64_t v : *s)
      starts.push_back(Expr::constant(v));
    for (int64_t v : *e)
      ends.push_back(Expr::constant(v));
  } else {
    if (failed(requireInputs(3, 5)) || failed(requireOutputs(1)))
      return failure();
    std::optional<KnownInts> s = knownInts(1), e = knownInts(2);
    if (!s || !e)
      return runtimeValueError() << "the starts and ends (inputs #1, #2) "
                                    "must be known at import time";
    starts = toExprs(*s);
    ends = toExprs(*e);
    if (hasInput(3)) {
      FailureOr<SmallVector<int64_t>> a = constInts(3, "the axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
    if (hasInput(4)) {
      FailureOr<SmallVector<int64_t>> st = constInts(4, "the steps");
      if (failed(st))
        return failure();
      steps = *st;
    }
  }
  size_t n = starts.size();
  if (ends.size() != n || (axes && axes->size() != n) ||
      (steps && steps->size() != n))
    return nodeError() << "starts, ends, axes and steps differ in length";
  // Clamp huge constant bounds ("to the end") into the symbolic range.
  for (SmallVector<Expr> *e : {&starts, &ends})
    for (Expr &v : *e)
      if (std::optional<int64_t> c = v.getConstant())
        v = Expr::constant(std::clamp(*c, -kBoundLimit, kBoundLimit));
  if (steps)
    for (int64_t s : *steps)
      if (s == 0)
        return nodeError() << "has a zero step";

  // A slice of an import-time shape vector stays an import-time value.
  if (std::optional<KnownInts> k = knownInts(0)) {
    bool simple = k->shape.size() == 1 && n == 1 &&
                  (!axes || (*axes)[0] == 0 || (*axes)[0] == -1) &&
                  (!steps || (*steps)[0] == 1);
    std::optional<int64_t> b = starts[0].getConstant(),
                           e = ends[0].getConstant();
    bool symbolic = false;
    for (const Expr &x : k->elems)
      symbolic |= !x.getConstant();
    if (simple && b && e && symbolic) {
      int64_t d = k->shape[0];
      int64_t lo = std::clamp(*b < 0 ? *b + d : *b, int64_t(0), d);
      int64_t hi = std::clamp(*e < 0 ? *e + d : *e, int64_t(0), d);
      KnownInts out;
      out.dtype = k->dtype;
      for (int64_t i = lo; i < hi; ++i)
        out.elems.push_back(k->elems[i]);
      out.shape = {static_cast<int64_t>(out.elems.size())};
      setOutputInts(0, out);
      return success();
    }
  }
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> axisList;
  if (axes)
    axisList = *axes;
  else
    for (size_t k = 0; k < n; ++k)
      axisList.push_back(k);
  SmallVector<NamedAttribute> attrs{named("axes", i64Array(axisList)),
                                    named("begin", shapeAttr(starts)),
                                    named("end", shapeAttr(ends))};
  if (steps)
    attrs.push_back(named("strides", i64Array(*steps)));
  FailureOr<Value> y = emit("relax.strided_slice", *x, attrs);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importGather() {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  int64_t axis = attrInt("axis", 0);
  std::optional<KnownInts> data = knownInts(0), idx = knownInts(1);
  // Gathering from a shape vector with constant indices folds.
  if (data && idx && data->shape.size() == 1 && (axis == 0 || axis == -1)) {
    KnownInts out;
    out.dtype = data->dtype;
    out.shape = idx->shape;
    int64_t d = data->shape[0];
    bool ok = true;
    for (const Expr &e : idx->elems) {
      std::optional<int64_t> c = e.getConstant();
      if (!c || *c < -d || *c >= d) {
        ok = false;
        break;
      }
      out.elems.push_back(data->elems[*c < 0 ? *c + d : *c]);
    }
    if (ok) {
      setOutputInts(0, out);
      return success();
    }
  }
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> ax = normalizeAxis(axis, dims->size());
  if (failed(ax))
    return failure();
  Expr dim = (*dims)[*ax];
  // relax.take counts negative indices from the end (numpy), as ONNX does.
  FailureOr<Value> indices = input(1);
  if (failed(indices))
    return failure();
  FailureOr<Value> y = emit("relax.take", {*x, *indices},
                            {named("axis", builder.getI64IntegerAttr(*ax))});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importUnsqueeze() {
  SmallVector<int64_t> axes;
  if (opset >= 13) {
    if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
      return failure();
    FailureOr<SmallVector<int64_t>> a = constInts(1, "the axes");
    if (failed(a))
      return failure();
    axes = *a;
  } else {
    if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
      return failure();
    std::optional<SmallVector<int64_t>> a = attrInts("axes");
    if (!a)
      return nodeError() << "needs an 'axes' attribute";
    axes = *a;
  }
  // Unsqueezing a known scalar/vector keeps it an import-time value.
  if (std::optional<KnownInts> k = knownInts(0)) {
    bool symbolic = false;
    for (const Expr &e : k->elems)
      symbolic |= !e.getConstant();
    if (symbolic && k->shape.size() + axes.size() == 1) {
      k->shape = {static_cast<int64_t>(k->elems.size())};
      setOutputInts(0, *k);
      return success();
    }
  }
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y =
      emit("relax.expand_dims", *x, {named("axes", i64Array(axes))});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importSqueeze() {
  std::optional<SmallVector<int64_t>> axes;
  if (opset >= 13) {
    if (failed(requireInputs(1, 2)) || failed(requireOutputs(1)))
      return failure();
    if (hasInput(1)) {
      FailureOr<SmallVector<int64_t>> a = constInts(1, "the axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  } else {
    if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
      return failure();
    axes = attrInts("axes");
  }
  if (std::optional<KnownInts> k = knownInts(0)) {
    bool symbolic = false;
    for (const Expr &e : k->elems)
      symbolic |= !e.getConstant();
    if (symbolic && k->shape.size() == 1 && k->elems.size() == 1) {
      k->shape.clear();
      setOutputInts(0, *k);
      return success();
    }
  }
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  SmallVector<NamedAttribute> attrs;
  if (axes)
    attrs.push_back(named("axes", i64Array(*axes)));
  FailureOr<Value> y = emit("relax.squeeze", *x, attrs);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importShape() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  int64_t start = attrInt("start", 0);
  std::optional<int64_t> end;
  if (const onnx::AttributeProto *a = attr("end"))
    end = a->i();
  if (opset < 15 && (start != 0 || end))
    return nodeError() << "start/end need opset 15";
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
  if (failed(dims))
    return failure();
  int64_t rank = dims->size();
  int64_t lo = std::clamp(start < 0 ? start + rank : start, int64_t(0), rank);
  int64_t e = end ? *end : rank;
  int64_t hi = std::clamp(e < 0 ? e + rank : e, int64_t(0), rank);
  KnownInts out;
  out.dtype = builder.getI64Type();
  for (int64_t k = lo; k < hi; ++k)
    out.elems.push_back((*dims)[k]);
  out.shape = {static_cast<int64_t>(out.elems.size())};
  setOutputInts(0, out);
  return success();
}

LogicalResult Importer::importCast() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  int64_t to = attrInt("to", 0);
  if (attrFailed)
    return failure();
  Type dtype = convertElementType(ctx, to);
  if (!dtype)
    return badAttr("to",
                   "names unsupported element type " + elementTypeName(to));
  std::optional<KnownInts> k = knownInts(0);
  if (k && isa<IntegerType>(dtype) && !dtype.isInteger(1) &&
      dtype.getIntOrFloatBitWidth() >= 32) {
    bool symbolic = false;
    for (const Expr &e : k->elems)
      symbolic |= !e.getConstant();
    if (symbolic) {
      k->dtype = dtype;
      setOutputInts(0, *k);
      return success();
    }
  }
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = castTo(*x, dtype);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importWhere() {
  if (failed(requireInputs(3, 3)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> c = input(0), a = input(1), b = input(2);
  if (failed(c) || failed(a) || failed(b))
    return failure();
  FailureOr<Value> y = emit("relax.where", {*c, *a, *b});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::reduce(StringRef op) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = reduceWith(op, *x);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

/// Reduces `x` (the node's input 0, possibly transformed) by `op` with the
/// node's axes/keepdims/noop_with_empty_axes.
FailureOr<Value> Importer::reduceWith(StringRef op, Value x) {
  bool axesInput = node->op_type() == "ReduceSum" && opset >= 13;
  if (failed(requireInputs(1, axesInput ? 2 : 1)) || failed(requireOutputs(1)))
    return failure();
  int64_t keepdims = attrInt("keepdims", 1);
  int64_t noop = axesInput ? attrInt("noop_with_empty_axes", 0) : 0;
  std::optional<SmallVector<int64_t>> axes;
  if (axesInput) {
    if (hasInput(1)) {
      FailureOr<SmallVector<int64_t>> a = constInts(1, "the axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  } else {
    axes = attrInts("axes");
  }
  if (axes && axes->empty())
    axes.reset();
  if (!axes && noop)
    return x;
  SmallVector<NamedAttribute> attrs{
      named("keepdims", builder.getBoolAttr(keepdims != 0))};
  if (axes)
    attrs.push_back(named("axes", i64Array(*axes)));
  return emit(op, x, attrs);
}

LogicalResult Importer::argReduce(StringRef op) {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  int64_t axis = attrInt("axis", 0), keepdims = attrInt("keepdims", 1);
  int64_t last = opset >= 12 ? attrInt("select_last_index", 0) : 0;
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> ax = normalizeAxis(axis, dims->size());
  if (failed(ax))
    return failure();
  Value in = *x;
  if (last) {
    // The last maximal index: argmax of the reversed axis, mirrored back.
    FailureOr<Value> rev =
        emit("relax.strided_slice", in,
             {named("axes", i64Array({*ax})),
              named("begin", shapeAttr({(*dims)[*ax] - 1})),
              named("end", shapeAttr({Expr::constant(-kBoundLimit)})),
              named("strides", i64Array({-1}))});
    if (failed(rev))
      return failure();
    in = *rev;
  }
  FailureOr<Value> y =
      emit(op, in,
           {named("axis", builder.getI64IntegerAttr(*ax)),
            named("keepdims", builder.getBoolAttr(keepdims != 0))});
  if (failed(y))
    return failure();
  if (last) {
    FailureOr<Value> top = symScalar((*dims)[*ax] - 1, builder.getI64Type());
    if (failed(top) || failed(y = emit("relax.subtract", {*top, *y})))
      return failure();
  }
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importExpand() {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  std::optional<KnownInts> k = knownInts(1);
  if (!k || k->shape.size() != 1)
    return runtimeValueError() << "the target shape (input #1) must be a "
                                  "1-D value known at import time";
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
  if (failed(dims))
    return failure();
  // Bidirectional (numpy) broadcast of the input shape and the target.
  size_t rank = std::max(dims->size(), k->elems.size());
  SmallVector<Expr> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    Expr a = i + dims->size() >= rank ? (*dims)[i + dims->size() - rank]
                                      : Expr::constant(1);
    Expr b = i + k->elems.size() >= rank ? k->elems[i + k->elems.size() - rank]
                                         : Expr::constant(1);
    std::optional<int64_t> ca = a.getConstant(), cb = b.getConstant();
    if (cb && *cb == 1)
      out[i] = a;
    else if (ca && *ca == 1)
      out[i] = b;
    else if (a == b)
      out[i] = a;
    else if (ca && cb)
      return nodeError() << "cannot broadcast dim " << *ca << " to " << *cb;
    else
      out[i] = b;
  }
  FailureOr<Value> y =
      emit("relax.broadcast_to", *x, {named("shape", shapeAttr(out))});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importConstantOfShape() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  std::optional<KnownInts> k = knownInts(0);
  if (!k || k->shape.size() != 1)
    return runtimeValueError() << "the shape (input #0) must be a 1-D value "
                                  "known at import time";
  Type dtype = builder.getF32Type();
  double value = 0;
  if (const onnx::AttributeProto *a = attr("value")) {
    if (a->type() != onnx::AttributeProto::TENSOR)
      return badAttr("value", "must be a tensor");
    FailureOr<DenseElementsAttr> t = convertTensor(a->t(), loc);
    if (failed(t))
      return failure();
    if (t->getNumElements() != 1)
      return badAttr("value", "must hold one element");
    dtype = t->getElementType();
    if (isa<FloatType>(dtype))
      value = (*t->getValues<APFloat>().begin()).convertToDouble();
    else if (dtype.isUnsignedInteger() || dtype.isInteger(1))
      value =
          static_cast<double>((*t->getValues<APInt>().begin()).getZExtValue());
    else
      value =
          static_cast<double>((*t->getValues<APInt>().begin()).getSExtValue());
  }
  for (const Expr &e : k->elems)
    if (std::optional<int64_t> c = e.getConstant(); c && *c < 0)
      return nodeError() << "has a negative dim " << *c;
  FailureOr<Value> y = emit("relax.full", {},
                            {named("shape", shapeAttr(k->elems)),
                             named("value", builder.getF64FloatAttr(value)),
                             named("dtype", TypeAttr::get(dtype))});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importRange() {
  if (failed(requireInputs(3, 3)) || failed(requireOutputs(1)))
    return failure();
  std::optional<KnownInts> s = knownInts(0), l = knownInts(1), d = knownInts(2);
  if (s && l && d && s->elems.size() == 1 && l->elems.size() == 1 &&
      d->elems.size() == 1) {
    FailureOr<Value> y = emit("relax.arange", {},
                              {named("start", exprAttr(s->elems[0])),
                               named("end", exprAttr(l->elems[0])),
                               named("step", exprAttr(d->elems[0])),
                               named("dtype", TypeAttr::get(s->dtype))});
    if (failed(y))
      return failure();
    setOutput(0, *y);
    return success();
  }
  // Floating-point ranges of constants are computed here.
  DenseElementsAttr cs = knownConstant(0), cl = knownConstant(1),
                    cd = knownConstant(2);
  if (!cs || !cl || !cd || cs.getNumElements() != 1 ||
      cl.getNumElements() != 1 || cd.getNumElements() != 1 ||
      !isa<FloatType>(cs.getElementType()))
    return runtimeValueError() << "start, limit and delta must be scalars "
                                  "known at import time";
  auto get = [](DenseElementsAttr a) {
    return (*a.getValues<APFloat>().begin()).convertToDouble();
  };
  double start = get(cs), limit = get(cl), delta = get(cd);
  if (delta == 0 || !std::isfinite(start) || !std::isfinite(limit) ||
      !std::isfinite(delta))
    return nodeError() << "has an invalid range";
  double count = std::ceil((limit - start) / delta);
  if (count > double(kMaxElements))
    return nodeError() << "range is too long";
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  Type dtype = cs.getElementType();
  SmallVector<APFloat> values;
  for (int64_t k = 0; k < n; ++k) {
    APFloat f(start + k * delta);
    bool lost;
    f.convert(cast<FloatType>(dtype).getFloatSemantics(),
              APFloat::rmNearestTiesToEven, &lost);
    values.push_back(f);
  }
  Slot &out = slots[node->output(0)];
  out = Slot();
  out.constant =
      DenseElementsAttr::get(RankedTensorType::get({n}, dtype), values);
  return success();
}

LogicalResult Importer::importClip() {
  if (failed(requireInputs(1, opset >= 11 ? 3 : 1)) ||
      failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type dtype = typeOf(*x).getDtype();
  std::optional<double> lo, hi;
  Value loV, hiV;
  if (opset < 11) {
    lo = attrFloat("min", -std::numeric_limits<float>::max());
    hi = attrFloat("max", std::numeric_limits<float>::max());
  } else {
    for (unsigned i : {1u, 2u}) {
      if (!hasInput(i))
        continue;
      std::optional<double> &bound = i == 1 ? lo : hi;
      DenseElementsAttr c = knownConstant(i);
      if (c && c.getNumElements() == 1) {
        if (isa<FloatType>(c.getElementType()))
          bound = (*c.getValues<APFloat>().begin()).convertToDouble();
        else if (c.getElementType().isUnsignedInteger())
          bound = double((*c.getValues<APInt>().begin()).getZExtValue());
        else
          bound = double((*c.getValues<APInt>().begin()).getSExtValue());
      } else {
        FailureOr<Value> v = input(i);
        if (failed(v))
          return failure();
        (i == 1 ? loV : hiV) = *v;
      }
    }
  }
  Value y = *x;
  if (loV || hiV || (lo && hi && *lo > *hi)) {
    // Run-time bounds (or an empty range, where ONNX yields max): compose
    // max then min.
    if (lo && !loV) {
      FailureOr<Value> s = scalar(*lo, dtype);
      if (failed(s))
        return failure();
      loV = *s;
    }
    if (hi && !hiV) {
      FailureOr<Value> s = scalar(*hi, dtype);
      if (failed(s))
        return failure();
      hiV = *s;
    }
    FailureOr<Value> r = y;
    if (loV && failed(r = emit("relax.maximum", {*r, loV})))
      return failure();
    if (hiV && failed(r = emit("relax.minimum", {*r, hiV})))
      return failure();
    setOutput(0, *r);
    return success();
  }
  double lowest, highest;
  if (isa<FloatType>(dtype)) {
    lowest = -std::numeric_limits<double>::infinity();
    highest = std::numeric_limits<double>::infinity();
  } else {
    unsigned w = dtype.getIntOrFloatBitWidth();
    bool isUnsigned = dtype.isUnsignedInteger();
    lowest = isUnsigned ? 0 : -std::ldexp(1.0, w - 1);
    highest = isUnsigned ? std::ldexp(1.0, w) - 1 : std::ldexp(1.0, w - 1) - 1;
    if (w == 64) {
      lowest = -9007199254740992.0;
      highest = 9007199254740992.0;
    }
  }
  FailureOr<Value> r =
      emit("relax.clip", y,
           {named("min", builder.getF64FloatAttr(lo ? *lo : lowest)),
            named("max", builder.getF64FloatAttr(hi ? *hi : highest))});
  if (failed(r))
    return failure();
  setOutput(0, *r);
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
Importer::convPads(ArrayRef<Expr> spatial, ArrayRef<int64_t> kernel,
                   ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  size_t n = kernel.size();
  std::string autoPad = attrString("auto_pad", "NOTSET");
  std::optional<SmallVector<int64_t>> pads = attrInts("pads");
  if (autoPad == "NOTSET") {
    if (!pads)
      return SmallVector<int64_t>(2 * n, 0);
    if (pads->size() != 2 * n) {
      (void)badAttr("pads", "must have two entries per spatial dim");
      return failure();
    }
    for (int64_t p : *pads)
      if (p < 0) {
        (void)badAttr("pads", "must not be negative");
        return failure();
      }
    return *pads;
  }
  if (autoPad == "VALID")
    return SmallVector<int64_t>(2 * n, 0);
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER") {
    (void)badAttr("auto_pad", "has unsupported value '" + autoPad + "'");
    return failure();
  }
  SmallVector<int64_t> out(2 * n, 0);
  for (size_t i = 0; i < n; ++i) {
    std::optional<int64_t> d = spatial[i].getConstant();
    if (!d) {
      nodeError() << "auto_pad " << autoPad << " needs static spatial dims";
      return failure();
    }
    int64_t outDim = (*d + strides[i] - 1) / strides[i];
    int64_t total = std::max<int64_t>(
        0, (outDim - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - *d);
    int64_t small = total / 2, large = total - small;
    out[i] = autoPad == "SAME_UPPER" ? small : large;
    out[i + n] = autoPad == "SAME_UPPER" ? large : small;
  }
  return out;
}

LogicalResult Importer::importConv() {
  if (failed(requireInputs(2, 3)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0), w = input(1);
  if (failed(x) || failed(w))
    return failure();
  FailureOr<SmallVector<Expr>> xd = dimsOf(*x), wd = dimsOf(*w);
  if (failed(xd) || failed(wd))
    return failure();
  size_t n = xd->size() - 2;
  if (xd->size() < 3 || xd->size() > 4 || wd->size() != xd->size())
    return nodeError() << "supports 1-D and 2-D convolutions only";
  SmallVector<int64_t> kernel;
  for (size_t i = 0; i < n; ++i) {
    std::optional<int64_t> k = (*wd)[2 + i].getConstant();
    if (!k)
      return nodeError() << "needs static kernel dims";
    kernel.push_back(*k);
  }
  if (std::optional<SmallVector<int64_t>> ks = attrInts("kernel_shape"))
    if (*ks != kernel)
      return badAttr("kernel_shape", "does not match the weight");
  SmallVector<int64_t> strides =
      attrInts("strides").value_or(SmallVector<int64_t>(n, 1));
  SmallVector<int64_t> dilations =
      attrInts("dilations").value_or(SmallVector<int64_t>(n, 1));
  int64_t group = attrInt("group", 1);
  if (strides.size() != n || dilations.size() != n)
    return nodeError() << "strides/dilations need one entry per spatial dim";
  for (size_t i = 0; i < n; ++i)
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1)
      return nodeError() << "kernel, strides and dilations must be positive";
  FailureOr<SmallVector<int64_t>> pads =
      convPads(ArrayRef<Expr>(*xd).drop_front(2), kernel, strides, dilations);
  if (failed(pads))
    return failure();
  Value in = *x, weight = *w;
  if (n == 1) {
    // 1-D as 2-D with a unit height.
    FailureOr<Value> a =
        emit("relax.expand_dims", in, {named("axes", i64Array({2}))});
    FailureOr<Value> b =
        emit("relax.expand_dims", weight, {named("axes", i64Array({2}))});
    if (failed(a) || failed(b))
      return failure();
    in = *a;
    weight = *b;
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    *pads = {0, (*pads)[0], 0, (*pads)[1]};
  }
  FailureOr<Value> y = emit(
      "relax.conv2d", {in, weight},
      {named("strides", i64Array(strides)), named("padding", i64Array(*pads)),
       named("dilation", i64Array(dilations)),
       named("groups", builder.getI64IntegerAttr(group))});
  if (failed(y))
    return failure();
  if (n == 1 &&
      failed(y = emit("relax.squeeze", *y, {named("axes", i64Array({2}))})))
    return failure();
  if (hasInput(2)) {
    FailureOr<Value> b = input(2);
    if (failed(b))
      return failure();
    SmallVector<int64_t> axes;
    for (size_t i = 0; i < n; ++i)
      axes.push_back(1 + i);
    FailureOr<Value> bias =
        emit("relax.expand_dims", *b, {named("axes", i64Array(axes))});
    if (failed(bias) || failed(y = emit("relax.add", {*y, *bias})))
      return failure();
  }
  setOutput(0, *y);
  return success();
}

FailureOr<Value> Importer::pool2d(StringRef op, Value in,
                                  ArrayRef<int64_t> kernel,
                                  ArrayRef<int64_t> strides,
                                  ArrayRef<int64_t> dilations,
                                  ArrayRef<int64_t> pads, bool ceilMode) {
  return emit(op, in,
              {named("pool_size", i64Array(kernel)),
               named("strides", i64Array(strides)),
               named("padding", i64Array(pads)),
               named("dilation", i64Array(dilations)),
               named("ceil_mode", builder.getBoolAttr(ceilMode))});
}

LogicalResult Importer::pool(StringRef op) {
  bool isMax = op == "relax.max_pool2d";
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(isMax ? 2 : 1)))
    return failure();
  std::optional<SmallVector<int64_t>> kernel = attrInts("kernel_shape");
  if (!kernel)
    return nodeError() << "needs a 'kernel_shape' attribute";
  size_t n = kernel->size();
  if (n < 1 || n > 3)
    return nodeError() << "supports 1-D, 2-D and 3-D pooling only";
  SmallVector<int64_t> strides =
      attrInts("strides").value_or(SmallVector<int64_t>(n, 1));
  SmallVector<int64_t> dilations =
      attrInts("dilations").value_or(SmallVector<int64_t>(n, 1));
  bool ceilMode = (opset >= 10 ? attrInt("ceil_mode", 0) : 0) != 0;
  bool includePad = false;
  int64_t storageOrder = 0;
  if (isMax) {
    storageOrder = attrInt("storage_order", 0);
    if (storageOrder != 0 && storageOrder != 1)
      return badAttr("storage_order", "must be 0 or 1");
  } else {
    includePad = attrInt("count_include_pad", 0) != 0;
  }
  if (strides.size() != n || dilations.size() != n)
    return nodeError() << "strides/dilations need one entry per spatial dim";
  for (size_t i = 0; i < n; ++i)
    if ((*kernel)[i] < 1 || strides[i] < 1 || dilations[i] < 1)
      return nodeError() << "kernel, strides and dilations must be positive";
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> xd = dimsOf(*x);
  if (failed(xd))
    return failure();
  if (xd->size() != n + 2)
    return nodeError() << "input rank does not match the kernel";
  FailureOr<SmallVector<int64_t>> pads =
      convPads(ArrayRef<Expr>(*xd).drop_front(2), *kernel, strides, dilations);
  if (failed(pads))
    return failure();
  // Pooling is lowered for floats only: other dtypes pool exactly in f32.
  Type dtype = typeOf(*x).getDtype();
  FailureOr<Value> in = isa<FloatType>(dtype)
                            ? FailureOr<Value>(*x)
                            : castTo(*x, builder.getF32Type());
  if (failed(in))
    return failure();
  const SmallVector<int64_t> &k = *kernel, &p = *pads;
  FailureOr<Value> y = failure();
  if (n == 2) {
    y = pool2d(op, *in, k, strides, dilations, p, ceilMode);
  } else if (n == 1) {
    // 1-D as 2-D with a unit height.
    FailureOr<Value> a =
        emit("relax.expand_dims", *in, {named("axes", i64Array({2}))});
    if (failed(a))
      return failure();
    y = pool2d(op, *a, {1, k[0]}, {1, strides[0]}, {1, dilations[0]},
               {0, p[0], 0, p[1]}, ceilMode);
    if (succeeded(y))
      y = emit("relax.squeeze", *y, {named("axes", i64Array({2}))});
  } else {
    // 3-D: max and (padding-excluding) average pooling are separable over a
    // box window, so pool (h, w) on [n, c * d, h, w], then d on
    // [n, c, d, oh * ow].
    const SmallVector<Expr> &d = *xd;
    FailureOr<Value> a = reshape(*in, {d[0], d[1] * d[2], d[3], d[4]});
    if (failed(a))
      return failure();
    FailureOr<Value> hw = pool2d(op, *a, {k[1], k[2]}, {strides[1], strides[2]},
                                 {dilations[1], dilations[2]},
                                 {p[1], p[2], p[4], p[5]}, ceilMode);
    if (failed(hw))
      return failure();
    Expr oh = typeOf(*hw).getDims()[2], ow = typeOf(*hw).getDims()[3];
    if (!oh || !ow)
      return nodeError() << "cannot infer the pooled size";
    FailureOr<Value> b = reshape(*hw, {d[0], d[1], d[2], oh * ow});
    if (failed(b))
      return failure();
    FailureOr<Value> dd =
        pool2d(op, *b, {k[0], 1}, {strides[0], 1}, {dilations[0], 1},
               {p[0], 0, p[3], 0}, ceilMode);
    if (failed(dd))
      return failure();
    Expr od = typeOf(*dd).getDims()[2];
    if (!od)
      return nodeError() << "cannot infer the pooled size";
    y = reshape(*dd, {d[0], d[1], od, oh, ow});
  }
  if (failed(y))
    return failure();
  if (includePad) {
    // avg with padding counted = avg without * valid / padded window size,
    // a constant per output position (static spatial dims only).
    RelaxTensorType yt = typeOf(*y);
    SmallVector<int64_t> outShape;
    SmallVector<SmallVector<double>> ratios(n);
    for (size_t i = 0; i < n; ++i) {
      std::optional<int64_t> o = yt.getDims()[2 + i].getConstant(),
                             dim = (*xd)[2 + i].getConstant();
      if (!o || !dim)
        return nodeError() << "count_include_pad needs static spatial dims";
      if (*o > (int64_t(1) << 20) || k[i] > (int64_t(1) << 20))
        return nodeError() << "count_include_pad: window or output too large";
      outShape.push_back(*o);
      for (int64_t j = 0; j < *o; ++j) {
        int64_t valid = 0, padded = 0;
        for (int64_t t = 0; t < k[i]; ++t) {
          int64_t pos = j * strides[i] - p[i] + t * dilations[i];
          valid += pos >= 0 && pos < *dim;
          padded += pos >= -p[i] && pos < *dim + p[i + n];
        }
        ratios[i].push_back(padded ? double(valid) / padded : 0.0);
      }
    }
    SmallVector<float> values;
    int64_t total = 1;
    for (int64_t o : outShape) {
      total *= o;
      if (total > (int64_t(1) << 24))
        return nodeError() << "count_include_pad: output too large";
    }
    for (int64_t flat = 0; flat < total; ++flat) {
      double r = 1;
      for (int64_t i = n - 1, rest = flat; i >= 0; --i) {
        r *= ratios[i][rest % outShape[i]];
        rest /= outShape[i];
      }
      values.push_back(static_cast<float>(r));
    }
    Value scale =
        makeConstant(DenseElementsAttr::get(
                         RankedTensorType::get(outShape, builder.getF32Type()),
                         ArrayRef<float>(values)),
                     "pool_scale");
    FailureOr<Value> sc = castTo(scale, yt.getDtype());
    if (failed(sc) || failed(y = emit("relax.multiply", {*y, *sc})))
      return failure();
  }
  if (numOutputs() > 1 && !node->output(1).empty()) {
    if (n != 2)
      return nodeError() << "the Indices output needs 2-D pooling";
    FailureOr<Value> idx = maxPoolIndices(*in, *xd, k, strides, dilations, p,
                                          typeOf(*y), storageOrder);
    if (failed(idx))
      return failure();
    setOutput(1, *idx);
  }
  if (typeOf(*y).getDtype() != dtype && failed(y = castTo(*y, dtype)))
    return failure();
  setOutput(0, *y);
  return success();
}

/// MaxPool's Indices output: the window positions are gathered as K strided
/// slices of the (-inf padded) input stacked on a new last axis, argmax picks
/// the first maximal one, and its (kh, kw) offset becomes the flat index
/// into the input, row-major (storage_order 0) or column-major (1) per (n, c)
/// plane. Needs static spatial dims.
FailureOr<Value>
Importer::maxPoolIndices(Value x, ArrayRef<Expr> dims, ArrayRef<int64_t> kernel,
                         ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                         ArrayRef<int64_t> pads, RelaxTensorType pooled,
                         int64_t storageOrder) {
  std::optional<int64_t> h = dims[2].getConstant(), w = dims[3].getConstant(),
                         oh = pooled.getDims()[2].getConstant(),
                         ow = pooled.getDims()[3].getConstant();
  if (!h || !w || !oh || !ow)
    return nodeError() << "the Indices output needs static spatial dims";
  int64_t kh = kernel[0], kw = kernel[1];
  if (kh * kw > 1024)
    return nodeError() << "the Indices output supports windows of at most "
                          "1024 elements";
  // Pad with -inf so that every window (ceil_mode included) is in bounds.
  int64_t needH = (*oh - 1) * strides[0] + (kh - 1) * dilations[0] + 1;
  int64_t needW = (*ow - 1) * strides[1] + (kw - 1) * dilations[1] + 1;
  int64_t padBottom = std::max<int64_t>(0, needH - *h - pads[0]);
  int64_t padRight = std::max<int64_t>(0, needW - *w - pads[1]);
  Type dtype = typeOf(x).getDtype();
  double lowest = -std::numeric_limits<double>::infinity();
  Value padded = x;
  auto padAxis = [&](int64_t axis, int64_t before,
                     int64_t after) -> LogicalResult {
    SmallVector<Value> parts;
    SmallVector<Expr> shape(typeOf(padded).getDims());
    for (int64_t amount : {before, after}) {
      if (amount == 0) {
        parts.push_back(Value());
        continue;
      }
      shape[axis] = Expr::constant(amount);
      FailureOr<Value> fill =
          emit("relax.full", {},
               {named("shape", shapeAttr(shape)),
                named("value", builder.getF64FloatAttr(lowest)),
                named("dtype", TypeAttr::get(dtype))});
      if (failed(fill))
        return failure();
      parts.push_back(*fill);
    }
    SmallVector<Value> operands;
    if (parts[0])
      operands.push_back(parts[0]);
    operands.push_back(padded);
    if (parts[1])
      operands.push_back(parts[1]);
    if (operands.size() == 1)
      return success();
    FailureOr<Value> r = emit("relax.concat", operands,
                              {named("axis", builder.getI64IntegerAttr(axis))});
    if (failed(r))
      return failure();
    padded = *r;
    return success();
  };
  if (failed(padAxis(2, pads[0], padBottom)) ||
      failed(padAxis(3, pads[1], padRight)))
    return failure();
  SmallVector<Value> windows;
  for (int64_t i = 0; i < kh; ++i) {
    for (int64_t j = 0; j < kw; ++j) {
      int64_t b0 = i * dilations[0], b1 = j * dilations[1];
      FailureOr<Value> sl = emit(
          "relax.strided_slice", padded,
          {named("axes", i64Array({2, 3})),
           named("begin", shapeAttr({Expr::constant(b0), Expr::constant(b1)})),
           named("end",
                 shapeAttr({Expr::constant(b0 + (*oh - 1) * strides[0] + 1),
                            Expr::constant(b1 + (*ow - 1) * strides[1] + 1)})),
           named("strides", i64Array({strides[0], strides[1]}))});
      if (failed(sl) || failed(sl = emit("relax.expand_dims", *sl,
                                         {named("axes", i64Array({4}))})))
        return failure();
      windows.push_back(*sl);
    }
  }
  FailureOr<Value> stacked =
      windows.size() == 1 ? FailureOr<Value>(windows[0])
                          : emit("relax.concat", windows,
                                 {named("axis", builder.getI64IntegerAttr(4))});
  if (failed(stacked))
    return failure();
  FailureOr<Value> k = emit("relax.argmax", *stacked,
                            {named("axis", builder.getI64IntegerAttr(4))});
  if (failed(k))
    return failure();
  Type i64 = builder.getI64Type();
  auto cst = [&](int64_t v) { return scalar(static_cast<double>(v), i64); };
  auto bin = [&](StringRef op, Value a, Value b) { return emit(op, {a, b}); };
  // ki = k / kw, kj = k - ki * kw.
  FailureOr<Value> kwC = cst(kw);
  if (failed(kwC))
    return failure();
  FailureOr<Value> ki = bin("relax.divide", *k, *kwC);
  if (failed(ki))
    return failure();
  FailureOr<Value> kiw = bin("relax.multiply", *ki, *kwC);
  if (failed(kiw))
    return failure();
  FailureOr<Value> kj = bin("relax.subtract", *k, *kiw);
  if (failed(kj))
    return failure();
  // Row/column of the window's start: arange over the output, scaled.
  auto coord = [&](Value off, int64_t out, int64_t stride, int64_t dil,
                   int64_t pad, SmallVector<Expr> shape) -> FailureOr<Value> {
    FailureOr<Value> r =
        emit("relax.arange", {},
             {named("start", exprAttr(Expr::constant(-pad))),
              named("end", exprAttr(Expr::constant(-pad + out * stride))),
              named("step", exprAttr(Expr::constant(stride))),
              named("dtype", TypeAttr::get(i64))});
    if (failed(r) || failed(r = reshape(*r, shape)))
      return failure();
    FailureOr<Value> d = cst(dil);
    if (failed(d))
      return failure();
    FailureOr<Value> scaled = bin("relax.multiply", off, *d);
    if (failed(scaled))
      return failure();
    return bin("relax.add", *r, *scaled);
  };
  FailureOr<Value> row = coord(*ki, *oh, strides[0], dilations[0], pads[0],
                               {Expr::constant(*oh), Expr::constant(1)});
  FailureOr<Value> col =
      coord(*kj, *ow, strides[1], dilations[1], pads[1], {Expr::constant(*ow)});
  if (failed(row) || failed(col))
    return failure();
  // Flat index within the (n, c) plane, then the plane offset.
  FailureOr<Value> major = cst(storageOrder == 0 ? *w : *h);
  if (failed(major))
    return failure();
  Value first = storageOrder == 0 ? *row : *col;
  Value second = storageOrder == 0 ? *col : *row;
  FailureOr<Value> idx = bin("relax.multiply", first, *major);
  if (failed(idx) || failed(idx = bin("relax.add", *idx, second)))
    return failure();
  FailureOr<Value> planes = emit("relax.arange", {},
                                 {named("start", exprAttr(Expr::constant(0))),
                                  named("end", exprAttr(dims[0] * dims[1])),
                                  named("step", exprAttr(Expr::constant(1))),
                                  named("dtype", TypeAttr::get(i64))});
  if (failed(planes) ||
      failed(planes = reshape(*planes, {dims[0], dims[1], Expr::constant(1),
                                        Expr::constant(1)})))
    return failure();
  FailureOr<Value> planeSize = cst(*h * *w);
  if (failed(planeSize))
    return failure();
  FailureOr<Value> base = bin("relax.multiply", *planes, *planeSize);
  if (failed(base))
    return failure();
  return bin("relax.add", *base, *idx);
}

LogicalResult Importer::importGlobalAveragePool() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  RelaxTensorType t = typeOf(*x);
  if (!t.hasRank() || t.getRank() < 3)
    return nodeError() << "needs an input of rank >= 3";
  SmallVector<int64_t> axes;
  for (int64_t k = 2; k < t.getRank(); ++k)
    axes.push_back(k);
  FailureOr<Value> y = emit("relax.mean", *x,
                            {named("axes", i64Array(axes)),
                             named("keepdims", builder.getBoolAttr(true))});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

//===----------------------------------------------------------------------===//
// Op types beyond the issue's list
//===----------------------------------------------------------------------===//

FailureOr<Value> Importer::selectNegative(Value x, Value ifNegative) {
  FailureOr<Value> zero = scalar(0.0, typeOf(x).getDtype());
  if (failed(zero))
    return failure();
  FailureOr<Value> neg = emit("relax.less", {x, *zero});
  if (failed(neg))
    return failure();
  return emit("relax.where", {*neg, ifNegative, x});
}

LogicalResult Importer::importMean() {
  if (failed(variadic("relax.add")))
    return failure();
  Value sum = slots[node->output(0)].value;
  FailureOr<Value> n = scalar(numInputs(), typeOf(sum).getDtype());
  if (failed(n))
    return failure();
  FailureOr<Value> y = emit("relax.divide", {sum, *n});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importSign() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type dtype = typeOf(*x).getDtype();
  FailureOr<Value> zero = scalar(0.0, dtype), one = scalar(1.0, dtype),
                   minusOne = scalar(-1.0, dtype);
  if (failed(zero) || failed(one) || failed(minusOne))
    return failure();
  FailureOr<Value> pos = emit("relax.greater", {*x, *zero});
  FailureOr<Value> neg = emit("relax.less", {*x, *zero});
  if (failed(pos) || failed(neg))
    return failure();
  FailureOr<Value> inner = emit("relax.where", {*neg, *minusOne, *zero});
  if (failed(inner))
    return failure();
  FailureOr<Value> y = emit("relax.where", {*pos, *one, *inner});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importSoftplus() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> one = scalar(1.0, typeOf(*x).getDtype());
  FailureOr<Value> e = emit("relax.exp", *x);
  if (failed(one) || failed(e))
    return failure();
  FailureOr<Value> y = emit("relax.add", {*e, *one});
  if (failed(y) || failed(y = emit("relax.log", *y)))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importElu() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  float alpha = attrFloat("alpha", 1.0f);
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type dtype = typeOf(*x).getDtype();
  FailureOr<Value> one = scalar(1.0, dtype), a = scalar(alpha, dtype);
  FailureOr<Value> e = emit("relax.exp", *x);
  if (failed(one) || failed(a) || failed(e))
    return failure();
  FailureOr<Value> t = emit("relax.subtract", {*e, *one});
  if (failed(t) || failed(t = emit("relax.multiply", {*t, *a})))
    return failure();
  FailureOr<Value> y = selectNegative(*x, *t);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importSelu() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  float alpha = attrFloat("alpha", 1.67326319217681884765625f);
  float gamma = attrFloat("gamma", 1.05070102214813232421875f);
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type dtype = typeOf(*x).getDtype();
  FailureOr<Value> a = scalar(alpha, dtype), g = scalar(gamma, dtype);
  FailureOr<Value> e = emit("relax.exp", *x);
  if (failed(a) || failed(g) || failed(e))
    return failure();
  // alpha * exp(x) - alpha for x <= 0; at 0 both branches give 0.
  FailureOr<Value> t = emit("relax.multiply", {*e, *a});
  if (failed(t) || failed(t = emit("relax.subtract", {*t, *a})))
    return failure();
  FailureOr<Value> y = selectNegative(*x, *t);
  if (failed(y) || failed(y = emit("relax.multiply", {*y, *g})))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importHardSigmoid() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  float alpha = attrFloat("alpha", 0.2f), beta = attrFloat("beta", 0.5f);
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type dtype = typeOf(*x).getDtype();
  FailureOr<Value> a = scalar(alpha, dtype), b = scalar(beta, dtype);
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> y = emit("relax.multiply", {*x, *a});
  if (failed(y) || failed(y = emit("relax.add", {*y, *b})) ||
      failed(y = emit("relax.clip", *y,
                      {named("min", builder.getF64FloatAttr(0.0)),
                       named("max", builder.getF64FloatAttr(1.0))})))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importHardSwish() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type dtype = typeOf(*x).getDtype();
  FailureOr<Value> a = scalar(1.0 / 6.0, dtype), b = scalar(0.5, dtype);
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> y = emit("relax.multiply", {*x, *a});
  if (failed(y) || failed(y = emit("relax.add", {*y, *b})) ||
      failed(y = emit("relax.clip", *y,
                      {named("min", builder.getF64FloatAttr(0.0)),
                       named("max", builder.getF64FloatAttr(1.0))})) ||
      failed(y = emit("relax.multiply", {*x, *y})))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importThresholdedRelu() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  float alpha = attrFloat("alpha", 1.0f);
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type dtype = typeOf(*x).getDtype();
  FailureOr<Value> a = scalar(alpha, dtype), zero = scalar(0.0, dtype);
  if (failed(a) || failed(zero))
    return failure();
  FailureOr<Value> keep = emit("relax.greater", {*x, *a});
  if (failed(keep))
    return failure();
  FailureOr<Value> y = emit("relax.where", {*keep, *x, *zero});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importPRelu() {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0), slope = input(1);
  if (failed(x) || failed(slope))
    return failure();
  FailureOr<Value> scaled = emit("relax.multiply", {*x, *slope});
  if (failed(scaled))
    return failure();
  // The product broadcasts x against the slope: select on its shape.
  FailureOr<Value> y = selectNegative(*x, *scaled);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importDropout() {
  if (failed(requireInputs(1, 3)) || failed(requireOutputs(2)))
    return failure();
  attr("seed");
  if (opset < 12)
    attr("ratio");
  if (opset < 7)
    attr("is_test");
  if (hasInput(2)) {
    DenseElementsAttr training = knownConstant(2);
    if (!training || training.getNumElements() != 1)
      return runtimeValueError() << "training_mode (input #2) must be known";
    if ((*training.getValues<APInt>().begin()).getBoolValue())
      return nodeError() << "unsupported: training mode (random masks)";
  }
  // Inference: the identity, and an all-true mask.
  Slot *s = inputSlot(0);
  if (!s)
    return failure();
  slots[node->output(0)] = *s;
  if (numOutputs() > 1 && !node->output(1).empty()) {
    FailureOr<Value> x = input(0);
    if (failed(x))
      return failure();
    FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
    if (failed(dims))
      return failure();
    FailureOr<Value> mask =
        emit("relax.ones", {},
             {named("shape", shapeAttr(*dims)),
              named("dtype", TypeAttr::get(builder.getI1Type()))});
    if (failed(mask))
      return failure();
    setOutput(1, *mask);
  }
  return success();
}

LogicalResult Importer::importReduceSumSquare() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> sq = emit("relax.multiply", {*x, *x});
  if (failed(sq))
    return failure();
  FailureOr<Value> y = reduceWith("relax.sum", *sq);
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importReduceLogSum() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = reduceWith("relax.sum", *x);
  if (failed(y) || failed(y = emit("relax.log", *y)))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importReduceLogSumExp() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> e = emit("relax.exp", *x);
  if (failed(e))
    return failure();
  FailureOr<Value> y = reduceWith("relax.sum", *e);
  if (failed(y) || failed(y = emit("relax.log", *y)))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importSize() {
  if (failed(requireInputs(1, 1)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
  if (failed(dims))
    return failure();
  Expr n = Expr::constant(1);
  for (const Expr &d : *dims)
    n = n * d;
  KnownInts out;
  out.dtype = builder.getI64Type();
  out.elems = {n};
  setOutputInts(0, out);
  return success();
}

LogicalResult Importer::importCastLike() {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<Value> x = input(0), like = input(1);
  if (failed(x) || failed(like))
    return failure();
  FailureOr<Value> y = castTo(*x, typeOf(*like).getDtype());
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importCumSum() {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  bool exclusive = attrInt("exclusive", 0) != 0;
  bool reverse = attrInt("reverse", 0) != 0;
  FailureOr<SmallVector<int64_t>> axisV = constInts(1, "the axis");
  if (failed(axisV))
    return failure();
  if (axisV->size() != 1)
    return nodeError() << "the axis must be one value";
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> ax = normalizeAxis((*axisV)[0], dims->size());
  if (failed(ax))
    return failure();
  // reverse: flip the axis before and after.
  auto flip = [&](Value v) {
    return emit("relax.strided_slice", v,
                {named("axes", i64Array({*ax})),
                 named("begin", shapeAttr({(*dims)[*ax] - 1})),
                 named("end", shapeAttr({Expr::constant(-kBoundLimit)})),
                 named("strides", i64Array({-1}))});
  };
  FailureOr<Value> in = reverse ? flip(*x) : FailureOr<Value>(*x);
  if (failed(in))
    return failure();
  FailureOr<Value> y = emit("relax.cumsum", *in,
                            {named("axis", builder.getI64IntegerAttr(*ax))});
  if (failed(y))
    return failure();
  if (exclusive && failed(y = emit("relax.subtract", {*y, *in})))
    return failure();
  if (reverse && failed(y = flip(*y)))
    return failure();
  setOutput(0, *y);
  return success();
}

LogicalResult Importer::importTile() {
  if (failed(requireInputs(2, 2)) || failed(requireOutputs(1)))
    return failure();
  FailureOr<SmallVector<int64_t>> repeats = constInts(1, "the repeats");
  if (failed(repeats))
    return failure();
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y =
      emit("relax.tile", *x, {named("repeats", i64Array(*repeats))});
  if (failed(y))
    return failure();
  setOutput(0, *y);
  return success();
}

//===----------------------------------------------------------------------===//
// Dispatch and registration
//===----------------------------------------------------------------------===//

const llvm::StringMap<Importer::Handler> &Importer::handlers() {
  static const llvm::StringMap<Handler> table = {
      {"Abs", &Importer::importAbs},
      {"And", &Importer::importAnd},
      {"ArgMin", &Importer::importArgMin},
      {"CastLike", &Importer::importCastLike},
      {"Ceil", &Importer::importCeil},
      {"Cos", &Importer::importCos},
      {"CumSum", &Importer::importCumSum},
      {"Dropout", &Importer::importDropout},
      {"Elu", &Importer::importElu},
      {"Floor", &Importer::importFloor},
      {"HardSigmoid", &Importer::importHardSigmoid},
      {"HardSwish", &Importer::importHardSwish},
      {"Mean", &Importer::importMean},
      {"Or", &Importer::importOr},
      {"PRelu", &Importer::importPRelu},
      {"ReduceLogSum", &Importer::importReduceLogSum},
      {"ReduceLogSumExp", &Importer::importReduceLogSumExp},
      {"ReduceProd", &Importer::importReduceProd},
      {"ReduceSumSquare", &Importer::importReduceSumSquare},
      {"Round", &Importer::importRound},
      {"Selu", &Importer::importSelu},
      {"Sign", &Importer::importSign},
      {"Sin", &Importer::importSin},
      {"Size", &Importer::importSize},
      {"Softplus", &Importer::importSoftplus},
      {"Sum", &Importer::importSum},
      {"ThresholdedRelu", &Importer::importThresholdedRelu},
      {"Tile", &Importer::importTile},
      {"Xor", &Importer::importXor},
      {"Add", &Importer::importAdd},
      {"ArgMax", &Importer::importArgMax},
      {"AveragePool", &Importer::importAveragePool},
      {"BatchNormalization", &Importer::importBatchNormalization},
      {"Cast", &Importer::importCast},
      {"Clip", &Importer::importClip},
      {"Concat", &Importer::importConcat},
      {"Constant", &Importer::importConstant},
      {"ConstantOfShape", &Importer::importConstantOfShape},
      {"Conv", &Importer::importConv},
      {"Div", &Importer::importDiv},
      {"Equal", &Importer::importEqual},
      {"Erf", &Importer::importErf},
      {"Exp", &Importer::importExp},
      {"Expand", &Importer::importExpand},
      {"Flatten", &Importer::importFlatten},
      {"Gather", &Importer::importGather},
      {"Gemm", &Importer::importGemm},
      {"GlobalAveragePool", &Importer::importGlobalAveragePool},
      {"Greater", &Importer::importGreater},
      {"Identity", &Importer::importIdentity},
      {"LayerNormalization", &Importer::importLayerNormalization},
      {"LeakyRelu", &Importer::importLeakyRelu},
      {"Less", &Importer::importLess},
      {"Log", &Importer::importLog},
      {"LogSoftmax", &Importer::importLogSoftmax},
      {"MatMul", &Importer::importMatMul},
      {"Max", &Importer::importMax},
      {"MaxPool", &Importer::importMaxPool},
      {"Min", &Importer::importMin},
      {"Mul", &Importer::importMul},
      {"Neg", &Importer::importNeg},
      {"Not", &Importer::importNot},
      {"Pow", &Importer::importPow},
      {"Range", &Importer::importRange},
      {"Reciprocal", &Importer::importReciprocal},
      {"ReduceMax", &Importer::importReduceMax},
      {"ReduceMean", &Importer::importReduceMean},
      {"ReduceMin", &Importer::importReduceMin},
      {"ReduceSum", &Importer::importReduceSum},
      {"Relu", &Importer::importRelu},
      {"Reshape", &Importer::importReshape},
      {"Shape", &Importer::importShape},
      {"Sigmoid", &Importer::importSigmoid},
      {"Slice", &Importer::importSlice},
      {"Softmax", &Importer::importSoftmax},
      {"Split", &Importer::importSplit},
      {"Sqrt", &Importer::importSqrt},
      {"Squeeze", &Importer::importSqueeze},
      {"Sub", &Importer::importSub},
      {"Tanh", &Importer::importTanh},
      {"Transpose", &Importer::importTranspose},
      {"Unsqueeze", &Importer::importUnsqueeze},
      {"Where", &Importer::importWhere},
  };
  return table;
}

OwningOpRef<ModuleOp> mlir::relax::importONNXModel(StringRef bytes,
                                                   StringRef fileName,
                                                   MLIRContext *context) {
  // Protobuf errors go to its own log; silence it (the importer reports).
  static bool silenced = [] {
    google::protobuf::SetLogHandler(nullptr);
    return true;
  }();
  (void)silenced;
  return Importer(context, fileName).run(bytes);
}

void mlir::relax::registerONNXImportTranslation() {
  static TranslateToMLIRRegistration reg(
      "import-onnx", "import an ONNX model (protobuf) as a relax module",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        OwningOpRef<ModuleOp> module = importONNXModel(
            buffer->getBuffer(), buffer->getBufferIdentifier(), context);
        return OwningOpRef<Operation *>(module.release());
      },
      [](DialectRegistry &registry) { registry.insert<RelaxDialect>(); });
}
