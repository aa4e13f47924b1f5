//===- Importer.cpp - ONNX model to relax import --------------------------===//
//
// The importer core: the model and its graph, graph inputs and initializers,
// tensor conversion, the values known at import time, the node binder, and
// the dispatch of each node to the handler of its op type (the handlers are
// in the *Ops.cpp files of this directory). Result types come from the relax
// ops' own symbolic inference.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "RelaxDialect/Relax/IR/BroadcastAlign.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Target/ONNX/ONNXImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

/// Tensors of more elements than this become `dense_resource` blobs.
static constexpr int64_t kResourceThreshold = 16;

Type onnx_import::convertElementType(MLIRContext *ctx, int32_t type) {
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

std::string onnx_import::elementTypeName(int32_t type) {
  if (onnx::TensorProto::DataType_IsValid(type))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(type));
  return "type " + std::to_string(type);
}

/// Turns an ONNX name into a symbolic variable name (an identifier that is
/// not a keyword of the symbolic syntax).
static std::string sanitizeVarName(StringRef name) {
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

//===----------------------------------------------------------------------===//
// Handler table
//===----------------------------------------------------------------------===//

void OpHandlerTable::add(StringRef opType, OpHandler handler,
                         int64_t sinceVersion) {
  auto &forms = handlers[opType];
  auto it = llvm::partition_point(
      forms, [&](const auto &form) { return form.first < sinceVersion; });
  assert((it == forms.end() || it->first != sinceVersion) &&
         "op type registered twice for one opset version");
  forms.insert(it, {sinceVersion, handler});
}

OpHandler OpHandlerTable::lookup(StringRef opType, int64_t opset) const {
  auto it = handlers.find(opType);
  if (it == handlers.end())
    return nullptr;
  OpHandler handler = nullptr;
  for (const auto &[since, form] : it->second)
    if (since <= opset)
      handler = form;
  return handler;
}

/// Every op family's handlers.
static const OpHandlerTable &getOpHandlers() {
  static const OpHandlerTable table = [] {
    OpHandlerTable t;
    addElementwiseOps(t);
    addShapeOps(t);
    addShapeValueOps(t);
    addPadTileTriluOps(t);
    addIndexOps(t);
    addReductionOps(t);
    addNNOps(t);
    addConvPoolOps(t);
    addLossOps(t);
    addRecurrentOps(t);
    addControlFlowOps(t);
    addSequenceOps(t);
    return t;
  }();
  return table;
}

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
  if (hasDefaultOpset && (opset < 1 || opset > kMaxOpset)) {
    emitError(fileLoc) << "unsupported ONNX opset " << opset
                       << " (the importer reads opsets 1 to " << kMaxOpset
                       << ")";
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
      // An expression over dims that graph inputs name bare (dynamo's
      // `past_sequence + sequence`) is that expression; any other name is
      // a variable of its own.
      if (Expr e = sym::parse(d.dim_param()); e && !e.isVar()) {
        SmallVector<std::string> vars;
        e.collectVars(vars);
        if (!vars.empty() && llvm::all_of(vars, [&](const std::string &v) {
              return bareDimParams.contains(v);
            })) {
          dims.push_back(e);
          continue;
        }
      }
      std::string name = sanitizeVarName(d.dim_param());
      varNames.insert(name);
      dims.push_back(Expr::var(name));
    } else {
      // An unnamed dynamic dim: a fresh variable no dim_param uses.
      dims.push_back(Expr::var(freshVar("unk")));
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
      // convertElementType accepted the type above, and it accepts only
      // the types of this switch.
      llvm_unreachable("an element type without a data field");
    }
    if (failed(ok))
      return failure();
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

int64_t Importer::getOpsetVersion(StringRef domain) const {
  if (domain.empty() || domain == "ai.onnx")
    return opset;
  return domainOpsets.lookup(domain);
}

Slot *Importer::lookupSlot(StringRef name) {
  auto it = slots.find(name);
  return it == slots.end() ? nullptr : &it->second;
}

FailureOr<Value>
Importer::getValue(Slot &slot, StringRef name, Location loc,
                   function_ref<InFlightDiagnostic()> emitError) {
  if (slot.aggregate)
    return emitError() << "'" << name << "' is "
                       << (slot.aggregate->isSequence() ? "a sequence"
                                                        : "an optional")
                       << ", not a tensor";
  if (!slot.value) {
    FailureOr<Value> v =
        slot.constant ? FailureOr<Value>(makeConstant(slot.constant, name, loc))
                      : materialize(*slot.ints, loc, emitError);
    if (failed(v))
      return failure();
    slot.value = *v;
  }
  return slot.value;
}

Value Importer::makeConstant(DenseElementsAttr attr, StringRef nameHint,
                             Location loc) {
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
  auto resultType = RelaxTensorType::get(SymShape::fromStatic(type.getShape()),
                                         type.getElementType());
  return ConstantOp::create(builder, loc, resultType, value);
}

FailureOr<Value>
Importer::materialize(const KnownInts &ints, Location loc,
                      function_ref<InFlightDiagnostic()> emitError) {
  // All constant: one relax.constant.
  SmallVector<APInt> values;
  unsigned width = ints.dtype.getIntOrFloatBitWidth();
  if (!ints.hasSymbolicElems()) {
    for (const Expr &e : ints.elems)
      values.push_back(APInt(width, *e.getConstant(), true, true));
    return makeConstant(
        DenseElementsAttr::get(RankedTensorType::get(ints.shape, ints.dtype),
                               values),
        "shape", loc);
  }
  // Symbolic elements: each becomes a one-element arange, then concat.
  auto named = [&](StringRef name, Attribute value) {
    return builder.getNamedAttr(name, value);
  };
  SmallVector<Value> pieces;
  for (const Expr &e : ints.elems) {
    FailureOr<Value> piece = create<ArangeOp>(
        loc, emitError, {},
        {named("start", SymExprAttr::get(ctx, e)),
         named("end", SymExprAttr::get(ctx, e + 1)),
         named("step", SymExprAttr::get(ctx, Expr::constant(1))),
         named("dtype", TypeAttr::get(ints.dtype))});
    if (failed(piece))
      return failure();
    pieces.push_back(*piece);
  }
  FailureOr<Value> flat =
      pieces.size() == 1
          ? FailureOr<Value>(pieces[0])
          : create<ConcatOp>(loc, emitError, pieces,
                             {named("axis", builder.getI64IntegerAttr(0))});
  if (failed(flat))
    return failure();
  SmallVector<Expr> dims;
  for (int64_t d : ints.shape)
    dims.push_back(Expr::constant(d));
  if (ints.shape.size() == 1)
    return *flat;
  return create<ReshapeOp>(
      loc, emitError, *flat,
      {named("shape", ShapeExprAttr::get(ctx, SymShape(dims)))});
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
    localNames.insert(init.name());
  }

  // dim_params that are plain names: the variables an expression dim_param
  // may use (each is bound by the parameter dim that names it).
  for (const onnx::ValueInfoProto &in : graph.input()) {
    if (initNames.contains(in.name()) || !in.type().has_tensor_type())
      continue;
    for (const onnx::TensorShapeProto::Dimension &d :
         in.type().tensor_type().shape().dim())
      if (d.has_dim_param() && sanitizeVarName(d.dim_param()) == d.dim_param())
        bareDimParams.insert(d.dim_param());
  }

  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  // A sequence or optional input is several parameters (its schema's
  // values), named `<input>.has`, `<input>.shapes` after their part.
  SmallVector<std::pair<std::string, ValueSchema>> inputSchemas;
  for (const onnx::ValueInfoProto &in : graph.input()) {
    if (initNames.contains(in.name()))
      continue;
    if (in.name().empty())
      return emitError(fileLoc) << "graph input without a name";
    if (slots.count(in.name()))
      return emitError(fileLoc)
             << "graph input '" << in.name() << "' is declared twice";
    ValueSchema schema;
    if (in.has_type() && !in.type().has_tensor_type()) {
      Location l = NameLoc::get(builder.getStringAttr(in.name()), fileLoc);
      FailureOr<ValueSchema> s =
          schemaOfType(in.type(), l, "graph input '" + in.name() + "'");
      if (failed(s))
        return failure();
      schema = *s;
    }
    if (schema.kind == ValueSchema::Kind::Tensor) {
      FailureOr<Type> type = convertValueType(in);
      if (failed(type))
        return failure();
      argTypes.push_back(*type);
      argNames.push_back(in.name());
    } else if (failed(inputTypes(in, in.type(), schema, argTypes, argNames))) {
      return failure();
    }
    inputSchemas.push_back({in.name(), schema});
    slots[in.name()];
    localNames.insert(in.name());
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto func = FuncOp::create(builder, fileLoc, "main",
                             builder.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames))
    func.setArgAttr(i, "relax.name", builder.getStringAttr(name));
  ValueRange args = body->getArguments();
  for (auto &[name, schema] : inputSchemas)
    slots[name] = unflatten(schema, args);
  builder.setInsertionPointToEnd(body);

  for (const onnx::NodeProto &n : graph.node())
    if (failed(importNode(n)))
      return failure();

  FailureOr<SmallVector<Slot>> outputs = graphOutputs(graph, fileLoc, "");
  if (failed(outputs))
    return failure();
  // A sequence or optional output is its schema's values (an output
  // declared a sequence that holds an optional gives its payload).
  SmallVector<Value> results;
  for (auto [out, slot] : llvm::zip(graph.output(), *outputs)) {
    if (!slot.aggregate) {
      results.push_back(slot.value);
      continue;
    }
    ValueSchema schema = schemaOf(slot);
    if (schema.kind == ValueSchema::Kind::Optional && out.has_type() &&
        out.type().has_sequence_type())
      schema = *schema.elem;
    Location l = NameLoc::get(builder.getStringAttr(out.name()), fileLoc);
    FailureOr<SmallVector<Value>> values = flatten(slot, schema, l, [&] {
      return emitError(l) << "graph output '" << out.name() << "': ";
    });
    if (failed(values))
      return failure();
    llvm::append_range(results, *values);
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

FailureOr<SmallVector<Slot>>
Importer::importSubgraph(const onnx::GraphProto &graph, ArrayRef<Slot> inputs,
                         Location loc, StringRef what) {
  if (graph.input_size() != static_cast<int>(inputs.size()))
    return emitError(loc) << what << " has " << graph.input_size()
                          << " inputs, expected " << inputs.size();
  if (graph.output_size() == 0)
    return emitError(loc) << what << " has no outputs";
  // protobuf parses messages at most 100 deep and each subgraph level is
  // three of them (attribute, graph, node): 32 nested subgraphs import, 33
  // are already "not a valid ModelProto" (onnx-graph-errors.test).
  assert(subgraphDepth < 32 && "subgraphs nested deeper than protobuf parses");
  // The enclosing scope comes back whatever happens: its slots (values
  // materialized inside the subgraph must not be seen outside it) and its
  // own names.
  llvm::StringMap<Slot> outerSlots = slots;
  llvm::StringSet<> outerNames = std::move(localNames);
  localNames = llvm::StringSet<>();
  ++subgraphDepth;
  llvm::scope_exit restore([&] {
    slots = std::move(outerSlots);
    localNames = std::move(outerNames);
    --subgraphDepth;
  });
  for (const onnx::TensorProto &init : graph.initializer()) {
    Location l = NameLoc::get(builder.getStringAttr(init.name()), loc);
    if (init.name().empty())
      return emitError(l) << what << ": initializer without a name";
    FailureOr<DenseElementsAttr> attr = convertTensor(init, l);
    if (failed(attr))
      return failure();
    slots[init.name()] = Slot();
    slots[init.name()].constant = *attr;
    localNames.insert(init.name());
  }
  for (auto [info, value] : llvm::zip(graph.input(), inputs)) {
    if (info.name().empty())
      return emitError(loc) << what << ": input without a name";
    if (!localNames.insert(info.name()).second)
      return emitError(loc)
             << what << ": input '" << info.name() << "' is declared twice";
    slots[info.name()] = value;
  }
  for (const onnx::NodeProto &n : graph.node())
    if (failed(importNode(n)))
      return failure();
  return graphOutputs(graph, loc, what);
}

FailureOr<SmallVector<Slot>>
Importer::graphOutputs(const onnx::GraphProto &graph, Location loc,
                       StringRef what) {
  // Tensors are materialized here, inside the graph's region; sequences and
  // optionals are flattened by the caller into the form it needs.
  SmallVector<Slot> results;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    auto it = slots.find(out.name());
    if (out.name().empty() || it == slots.end()) {
      if (what.empty())
        return emitError(loc) << "graph output '" << out.name()
                              << "' is not produced by any node";
      return emitError(loc)
             << what << ": output '" << out.name() << "' is not defined";
    }
    if (it->second.aggregate) {
      results.push_back(it->second);
      continue;
    }
    FailureOr<Value> v = getValue(it->second, out.name(), loc,
                                  [&] { return emitError(loc) << what; });
    if (failed(v))
      return failure();
    Slot s;
    s.value = *v;
    results.push_back(s);
  }
  return results;
}

LogicalResult Importer::importNode(const onnx::NodeProto &n) {
  std::string locName = n.name().empty()
                            ? (n.output_size() ? n.output(0) : n.op_type())
                            : n.name();
  Location loc = NameLoc::get(builder.getStringAttr(locName), fileLoc);
  if (!n.domain().empty() && n.domain() != "ai.onnx")
    return emitError(loc) << "unsupported ONNX op '" << n.op_type()
                          << "' of domain '" << n.domain() << "' (node '"
                          << n.name() << "', opset "
                          << domainOpsets.lookup(n.domain()) << ")";
  if (!hasDefaultOpset)
    return emitError(loc) << "malformed ONNX file: node '" << n.name()
                          << "' of the default domain, but no opset_import "
                             "for it";
  OpHandler handler = getOpHandlers().lookup(n.op_type(), opset);
  if (!handler)
    return emitError(loc) << "unsupported ONNX op '" << n.op_type()
                          << "' (node '" << n.name() << "', opset " << opset
                          << ")";
  NodeBinder binder(*this, n, loc);
  llvm::StringSet<> outs;
  for (const std::string &out : n.output())
    if (!out.empty() &&
        (localNames.contains(out) || !outs.insert(out).second))
      return binder.error() << "output '" << out << "' is already defined";
  if (failed(handler(binder)) || failed(binder.verifyAttrsHandled()))
    return failure();
  for (const std::string &out : n.output())
    if (!out.empty())
      localNames.insert(out);
  for (unsigned i = 0, e = binder.numOutputs(); i < e; ++i) {
    if (n.output(i).empty())
      continue;
    Slot *s = lookupSlot(n.output(i));
    if (!s || !s->isDefined())
      return binder.error() << "output #" << i << " is not supported";
  }
  return success();
}

std::string Importer::freshVar(StringRef prefix) {
  std::string name;
  do
    name = (prefix + Twine(freshVars++)).str();
  while (varNames.contains(name) || bareDimParams.contains(name));
  varNames.insert(name);
  return name;
}

FailureOr<SmallVector<Expr>> NodeBinder::bindShape(Value tensor,
                                                   StringRef what) {
  RelaxTensorType t = typeOf(tensor);
  std::optional<int64_t> length = vectorLength(tensor);
  if (!isa<IntegerType>(t.getDtype()) || t.getDtype().isInteger(1))
    return error() << what << " must be an integer tensor, got " << t;
  // Its length is a rank, which relax types fix at compile time.
  if (!length)
    return runtimeValueError()
           << what << " must be a 1-D tensor of a length known at import "
           << "time (a rank), got " << t;
  if (*length > kMaxKnownInts)
    return error() << what << " has " << *length << " values, more than "
                   << kMaxKnownInts << " dims";
  SmallVector<Expr> dims;
  for (int64_t k = 0; k < *length; ++k)
    dims.push_back(Expr::var(importer.freshVar("d")));
  Type shapeType = RelaxShapeType::get(getContext(), SymShape(dims));
  TensorToShapeOp::create(getBuilder(), loc, shapeType, tensor);
  return dims;
}

FailureOr<SmallVector<Expr>> NodeBinder::shapeInput(unsigned i,
                                                    StringRef what) {
  if (std::optional<KnownInts> k = knownInts(i)) {
    if (k->shape.size() != 1)
      return error() << what << " must be a 1-D value";
    return k->elems;
  }
  FailureOr<Value> v = input(i);
  if (failed(v))
    return failure();
  return bindShape(*v, what);
}

LogicalResult NodeBinder::alignBroadcast(MutableArrayRef<Value> operands) {
  SmallVector<SmallVector<Expr>> dims;
  for (Value v : operands) {
    RelaxTensorType t = typeOf(v);
    if (!t.hasRank())
      return success();
    dims.emplace_back(t.getDims());
  }
  std::optional<SmallVector<Expr>> result = undecidedBroadcastDims(dims);
  if (!result)
    return success();
  for (auto [v, d] : llvm::zip(operands, dims)) {
    if (d == *result)
      continue;
    FailureOr<Value> b =
        create<BroadcastToOp>(v, {named("shape", shapeAttr(*result))});
    if (failed(b))
      return failure();
    v = *b;
  }
  return success();
}

FailureOr<SmallVector<int64_t>>
NodeBinder::normalizeAxes(const std::optional<SmallVector<int64_t>> &axes,
                          int64_t rank) {
  SmallVector<int64_t> result;
  if (!axes) {
    for (int64_t k = 0; k < rank; ++k)
      result.push_back(k);
    return result;
  }
  for (int64_t a : *axes) {
    FailureOr<int64_t> ax = normalizeAxis(a, rank);
    if (failed(ax))
      return failure();
    result.push_back(*ax);
  }
  return result;
}

FailureOr<int64_t> NodeBinder::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return error() << "axis " << axis << " is out of range for rank " << rank;
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

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
