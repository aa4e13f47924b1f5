//===- ControlFlowOps.cpp - ONNX If, Loop and Scan ------------------------===//
//
// ONNX control flow on relax's: If becomes relax.if (its branches imported
// as subgraphs, results of different shapes joined into fresh variables),
// Loop and Scan become relax.while. A loop carries an i64 iteration counter,
// the ONNX loop-carried values and one accumulator per scan output, which
// grows by a row an iteration (concat along a new axis 0): nothing is
// allocated by trip count in advance, so a huge trip count simply runs.
//
// A carried value's type is found by importing the body: starting from the
// initial value's type, every dim the body's yielded value does not provably
// keep becomes a fresh variable (bound at each iteration by relax.while) and
// the body is imported again with the new types, until nothing changes.
//
//===----------------------------------------------------------------------===//

#include "ControlFlow.h"
#include "Sequences.h"

#include "RelaxDialect/Relax/IR/ShapeInference.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

/// The graph attribute `name` of the node; null (with an error) if missing
/// or not a graph.
static const onnx::GraphProto *graphAttr(NodeBinder &b, StringRef name) {
  const onnx::AttributeProto *a = b.attr(name);
  if (!a) {
    b.error() << "attribute '" << name << "' (a graph) is missing";
    return nullptr;
  }
  if (a->type() != onnx::AttributeProto::GRAPH || !a->has_g()) {
    (void)b.badAttr(name, "must be a graph");
    return nullptr;
  }
  return &a->g();
}

/// `v` as a rank-0 tensor of `dtype`: a condition or trip count, which ONNX
/// allows as any tensor of one element. A static shape of another size is
/// an error here; symbolic dims are checked at run time (reshape's element
/// count contract).
static FailureOr<Value> asScalar(NodeBinder &b, Value v, Type dtype,
                                 StringRef what) {
  RelaxTensorType t = NodeBinder::typeOf(v);
  if (t.getDtype() != dtype)
    return b.error() << what << " must be a tensor of " << dtype << ", got "
                     << t;
  if (!t.hasRank())
    return b.error() << what << " must have one element, got " << t;
  if (t.getRank() == 0)
    return v;
  for (const Expr &d : t.getDims())
    if (d && d.getConstant() && *d.getConstant() != 1)
      return b.error() << what << " must have one element, got " << t;
  return b.reshape(v, {});
}

/// Input `i` of the node as a rank-0 tensor of `dtype` (see asScalar).
static FailureOr<Value> scalarInput(NodeBinder &b, unsigned i, Type dtype,
                                    StringRef what) {
  FailureOr<Value> v = b.input(i);
  if (failed(v))
    return failure();
  return asScalar(b, *v, dtype, what);
}

/// The variables of `type` (a tensor or tuple type).
static void collectTypeVars(Type type, llvm::StringSet<> &vars) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type t : tuple.getTypes())
      collectTypeVars(t, vars);
    return;
  }
  auto tensor = dyn_cast<RelaxTensorType>(type);
  if (!tensor || !tensor.hasRank())
    return;
  for (const Expr &d : tensor.getDims()) {
    if (!d)
      continue;
    SmallVector<std::string> names;
    d.collectVars(names);
    for (const std::string &n : names)
      vars.insert(n);
  }
}

/// The variables the function being built knows so far (its parameters and
/// every value built in it): what a value made before a loop may use.
static llvm::StringSet<> outerVars(Operation *func) {
  llvm::StringSet<> vars;
  func->walk([&](Operation *op) {
    for (Region &r : op->getRegions())
      for (Block &block : r)
        for (Type t : block.getArgumentTypes())
          collectTypeVars(t, vars);
    for (Type t : op->getResultTypes())
      collectTypeVars(t, vars);
  });
  return vars;
}

/// `type` with each unknown dim (`?`) a fresh variable, so that later shapes
/// can name it.
static Type nameUnknownDims(Importer &importer, Type type, StringRef prefix) {
  auto tensor = dyn_cast<RelaxTensorType>(type);
  if (!tensor || !tensor.hasRank())
    return type;
  SmallVector<Expr> dims(tensor.getDims());
  for (Expr &d : dims)
    if (!d)
      d = Expr::var(importer.freshVar(prefix));
  return RelaxTensorType::get(SymShape(dims), tensor.getDtype());
}

/// Verifies `op` where it is already inside the function; an op built in
/// a region still being imported (an If in a Loop body) has no function
/// around it yet (verifying it there would crash in the dominance check):
/// the module's verification at the end covers it.
static LogicalResult verifyAttached(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (isa<FuncOp>(p))
      return verify(op);
  return success();
}

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

static LogicalResult importIf(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)))
    return failure();
  const onnx::GraphProto *thenGraph = graphAttr(b, "then_branch");
  const onnx::GraphProto *elseGraph = graphAttr(b, "else_branch");
  if (!thenGraph || !elseGraph)
    return failure();
  FailureOr<Value> cond =
      scalarInput(b, 0, b.getBuilder().getI1Type(), "the condition");
  if (failed(cond))
    return failure();
  unsigned numOutputs = b.getNode().output_size();
  Importer &importer = b.getImporter();
  OpBuilder &builder = b.getBuilder();

  // Each branch is imported into a block of its own, then both are moved
  // into the relax.if, whose result types are their join.
  std::unique_ptr<Block> blocks[2] = {std::make_unique<Block>(),
                                      std::make_unique<Block>()};
  SmallVector<Slot> outSlots[2];
  const onnx::GraphProto *graphs[2] = {thenGraph, elseGraph};
  const char *names[2] = {"then_branch", "else_branch"};
  for (int k = 0; k < 2; ++k) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(blocks[k].get());
    std::string what =
        (Twine("ONNX If node '") + b.getNode().name() + "': " + names[k]).str();
    FailureOr<SmallVector<Slot>> outs =
        importer.importSubgraph(*graphs[k], {}, b.getLoc(), what);
    if (failed(outs))
      return failure();
    if (outs->size() != numOutputs)
      return b.error() << names[k] << " has " << outs->size()
                       << " outputs but the node has " << numOutputs;
    outSlots[k] = std::move(*outs);
  }
  // Sequences and optionals cross as their schema's values (both branches
  // in the form of their join: packed sequences, optionals with a flag).
  SmallVector<ValueSchema> schemas;
  SmallVector<unsigned> outputOf; // the ONNX output of each relax result
  for (unsigned i = 0; i < numOutputs; ++i) {
    std::string why;
    std::optional<ValueSchema> s =
        joinSchemas(importer.schemaOf(outSlots[0][i]),
                    importer.schemaOf(outSlots[1][i]), why);
    if (!s)
      return b.error() << "output #" << i << " is " << why
                       << " in the two branches";
    schemas.push_back(*s);
    outputOf.append(s->width(), i);
  }
  SmallVector<Value> yielded[2];
  for (int k = 0; k < 2; ++k) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(blocks[k].get());
    for (unsigned i = 0; i < numOutputs; ++i) {
      FailureOr<SmallVector<Value>> values =
          importer.flatten(outSlots[k][i], schemas[i], b.getLoc(),
                           [&] { return b.error() << names[k] << ": "; });
      if (failed(values))
        return failure();
      llvm::append_range(yielded[k], *values);
    }
  }
  const sym::Context &ctx = defaultSymContext();
  SmallVector<Type> resultTypes;
  for (unsigned i = 0; i < yielded[0].size(); ++i) {
    Type a = yielded[0][i].getType(), c = yielded[1][i].getType();
    Type joined = joinTypes(a, c, ctx);
    auto tensor = dyn_cast_or_null<RelaxTensorType>(joined);
    if (!tensor || !tensor.hasRank())
      return b.error() << "output #" << outputOf[i] << " is " << a
                       << " in then_branch and " << c
                       << " in else_branch: the branches must yield "
                          "tensors of one dtype and rank";
    resultTypes.push_back(nameUnknownDims(importer, joined, "if"));
  }
  auto ifOp = IfOp::create(builder, b.getLoc(), resultTypes, *cond);
  Region *regions[2] = {&ifOp.getThenRegion(), &ifOp.getElseRegion()};
  for (int k = 0; k < 2; ++k) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(blocks[k].get());
    YieldOp::create(builder, b.getLoc(), yielded[k]);
    regions[k]->push_back(blocks[k].release());
  }
  // The relax.if holds by construction: each result type is the join of
  // the branches' types (joinTypes gives a type both fit, or the error
  // above), its unknown dims fresh variables, and the condition a checked
  // i1 scalar. Should it still not verify, the verifier has said why at the
  // op (and the module's verification at the end would refuse it).
  if (failed(verifyAttached(ifOp)))
    return failure();
  ValueRange results = ifOp.getResults();
  for (unsigned i = 0; i < numOutputs; ++i) {
    Slot out = importer.unflatten(schemas[i], results);
    if (!b.getNode().output(i).empty())
      b.setOutputSlot(i, out);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Loops (Loop, Scan) on relax.while
//===----------------------------------------------------------------------===//

/// Whether `actual` (a yielded value's type) fits the carried type `carried`
/// dim by dim, and if not, `carried` widened: a dim the body does not
/// provably keep becomes a fresh variable. `fresh` are the loop's own
/// variables (any dim fits them).
static FailureOr<Type> widenCarried(NodeBinder &b, Type carried, Type actual,
                                    llvm::StringSet<> &fresh, unsigned index,
                                    bool &changed) {
  auto tc = cast<RelaxTensorType>(carried);
  auto ta = dyn_cast<RelaxTensorType>(actual);
  if (!ta || ta.getDtype() != tc.getDtype())
    return b.error() << "loop-carried value #" << index << " is " << carried
                     << " on entry but the body yields " << actual;
  if (!ta.hasRank() || ta.getRank() != tc.getRank())
    return b.error() << "loop-carried value #" << index << " is " << carried
                     << " on entry but the body yields " << actual
                     << ": its rank must not change";
  const sym::Context &ctx = defaultSymContext();
  SmallVector<Expr> dims(tc.getDims());
  for (auto [d, pair] : llvm::enumerate(llvm::zip(dims, ta.getDims()))) {
    auto &[dc, da] = pair;
    if (dc && dc.isVar() && fresh.contains(dc.getVarName()))
      continue;
    if (dc && da && ctx.provablyEqual(dc, da))
      continue;
    dc = Expr::var(b.getImporter().freshVar("carried"));
    fresh.insert(dc.getVarName());
    changed = true;
  }
  return Type(RelaxTensorType::get(SymShape(dims), tc.getDtype()));
}

/// Whether the loop runs an iteration with counter `counter`: `cond` (the
/// body's or the node's condition, null when there is none) and
/// `counter < tripCount` (null: no trip count); true when neither is given.
static FailureOr<Value> loopGoesOn(NodeBinder &b, Value counter,
                                   Value tripCount, Value cond) {
  if (tripCount) {
    FailureOr<Value> more = b.create<LessOp>({counter, tripCount});
    if (failed(more) || !cond)
      return more;
    return b.create<LogicalAndOp>({cond, *more});
  }
  if (cond)
    return cond;
  return b.scalar(1, b.getBuilder().getI1Type());
}

/// Builds the relax.while of an ONNX Loop or Scan (see the file comment).
FailureOr<LoopResults> onnx_import::buildLoop(NodeBinder &b, LoopSpec &spec) {
  OpBuilder &builder = b.getBuilder();
  Importer &importer = b.getImporter();
  Location loc = b.getLoc();
  Type i64 = builder.getI64Type(), i1 = builder.getI1Type();
  auto scalarType = [&](Type dtype) {
    return RelaxTensorType::get(SymShape(ArrayRef<Expr>{}), dtype);
  };
  unsigned condOffset = spec.condOutput ? 1 : 0;
  unsigned numValues = spec.carriedInits.size(); // ONNX carried values

  // Values before the loop.
  FailureOr<Value> zero = b.scalar(0, i64);
  FailureOr<Value> one = b.scalar(1, i64);
  if (failed(zero) || failed(one))
    return failure();
  FailureOr<Value> initCondOr =
      loopGoesOn(b, *zero, spec.tripCount, spec.initCond);
  if (failed(initCondOr))
    return failure();
  Value initCond = *initCondOr;

  // The carried values cross the loop as their schema's relax values
  // (sequences packed, optionals as flag and payload): `flatInits` on
  // entry, rebuilt (and the earlier ones erased) when the body yields a
  // value that only a wider schema holds.
  SmallVector<ValueSchema> schemas;
  for (const Slot &v : spec.carriedInits)
    schemas.push_back(importer.schemaOf(v));
  Block *outer = builder.getInsertionBlock();
  Operation *mark = outer->empty() ? nullptr : &outer->back();
  SmallVector<Value> flatInits;
  auto makeInits = [&]() -> LogicalResult {
    while (!outer->empty() && &outer->back() != mark)
      outer->back().erase();
    flatInits.clear();
    for (auto [v, schema] : llvm::zip(spec.carriedInits, schemas)) {
      FailureOr<SmallVector<Value>> values =
          importer.flatten(v, schema, loc, [&] { return b.error(); });
      if (failed(values))
        return failure();
      llvm::append_range(flatInits, *values);
    }
    for (Value v : flatInits) {
      RelaxTensorType t = NodeBinder::typeOf(v);
      if (!t.hasRank())
        return b.error() << "loop-carried values must have a known rank, got "
                         << t;
    }
    return success();
  };
  if (failed(makeInits()))
    return failure();

  // Import the body until the carried schemas and types hold what it
  // yields. An attempt that does not settle widens a schema (a phase: the
  // types start again from the inits) or, within a phase, at least one
  // carried dim to a fresh variable, which then stays; a chain of carried
  // values that pass their shapes on (v1 = v0, v2 = v1, ...) takes one
  // attempt per link.
  SmallVector<Type> carriedTypes(ValueRange(flatInits).getTypes());
  auto numDims = [&] {
    unsigned n = 0;
    for (Type t : carriedTypes)
      n += cast<RelaxTensorType>(t).getRank();
    return n;
  };
  llvm::StringSet<> fresh;
  std::unique_ptr<Block> body;
  SmallVector<Value> outs;
  unsigned numCarried, firstScan;
  for (unsigned phase = 0, attempt = 0;; ++attempt) {
    if (phase > 4 * numValues || attempt > numDims() + 1)
      // unreachable: a schema widens at most four times per value (tensor
      // or empty sequence, one rank, unknown rank, optional) and a phase
      // ends after at most one attempt per carried dim plus the one that
      // settles; the check bounds the loop should a join ever stop
      // growing.
      return b.error() << "the loop-carried shapes do not settle";
    body = std::make_unique<Block>();
    Value counter = body->addArgument(scalarType(i64), loc);
    SmallVector<Value> carriedArgs;
    for (Type t : carriedTypes)
      carriedArgs.push_back(body->addArgument(t, loc));
    auto discardBody = [&] {
      body->dropAllDefinedValueUses();
      body->dropAllReferences();
      body.reset();
    };
    bool changed = false;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(body.get());
      SmallVector<Slot> carriedSlots;
      ValueRange rest = carriedArgs;
      for (const ValueSchema &schema : schemas)
        carriedSlots.push_back(importer.unflatten(schema, rest));
      FailureOr<SmallVector<Slot>> inputs =
          spec.bodyInputs(counter, carriedSlots);
      if (failed(inputs))
        return failure();
      FailureOr<SmallVector<Slot>> results =
          spec.runBody
              ? spec.runBody(*inputs)
              : importer.importSubgraph(*spec.body, *inputs, loc, spec.what);
      if (failed(results))
        return failure();
      if (results->size() < condOffset + numValues)
        return b.error() << "the body has " << results->size()
                         << " outputs, expected at least "
                         << condOffset + numValues;
      for (unsigned i = 0; i < numValues; ++i) {
        std::string why;
        ValueSchema yielded = importer.schemaOf((*results)[condOffset + i]);
        std::optional<ValueSchema> joined =
            joinSchemas(schemas[i], yielded, why);
        if (!joined)
          return b.error() << "loop-carried value #" << i << " is "
                           << schemas[i].str() << " on entry but the body "
                           << "yields " << yielded.str();
        if (*joined != schemas[i]) {
          schemas[i] = *joined;
          changed = true;
        }
      }
      if (!changed) {
        // The body's outputs as relax values: [cond], the carried values'
        // schema values, the scan outputs (tensors).
        outs.clear();
        for (auto [k, slot] : llvm::enumerate(*results)) {
          bool carried = k >= condOffset && k < condOffset + numValues;
          if (!carried && slot.aggregate)
            return b.error() << "body output #" << k << " must be a "
                             << "tensor, got " << importer.schemaOf(slot).str();
          FailureOr<SmallVector<Value>> values = importer.flatten(
              slot, carried ? schemas[k - condOffset] : ValueSchema(), loc,
              [&] { return b.error() << "body output #" << k << ": "; });
          if (failed(values))
            return failure();
          llvm::append_range(outs, *values);
        }
      }
    }
    if (changed) {
      discardBody();
      if (failed(makeInits()))
        return failure();
      carriedTypes.assign(ValueRange(flatInits).getTypes().begin(),
                          ValueRange(flatInits).getTypes().end());
      ++phase;
      attempt = 0;
      continue;
    }
    numCarried = flatInits.size();
    firstScan = condOffset + numCarried;
    for (unsigned i = 0; i < numCarried; ++i) {
      FailureOr<Type> widened = widenCarried(
          b, carriedTypes[i], outs[firstScan - numCarried + i].getType(), fresh,
          i, changed);
      if (failed(widened))
        return failure();
      carriedTypes[i] = *widened;
    }
    if (!changed)
      break;
    discardBody();
  }

  // Finish the body: the counter, the accumulators, the next condition.
  Operation *func = builder.getInsertionBlock()->getParentOp();
  while (func && !isa<FuncOp>(func))
    func = func->getParentOp();
  llvm::StringSet<> known = func ? outerVars(func) : llvm::StringSet<>();
  SmallVector<Value> yieldValues, inits;
  SmallVector<Type> accTypes;
  SmallVector<bool> accRowsFresh; // the row dims are the loop's variables
  Value next;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(body.get());
    Value counter = body->getArgument(0);
    FailureOr<Value> nextCounter = b.create<AddOp>({counter, *one});
    if (failed(nextCounter))
      return failure();
    if (spec.useCondOutput) {
      FailureOr<Value> c = asScalar(b, outs[0], i1, "the body's condition");
      if (failed(c))
        return failure();
      next = *c;
    }
    FailureOr<Value> goesOn =
        loopGoesOn(b, *nextCounter, spec.tripCount, next);
    if (failed(goesOn))
      return failure();
    next = *goesOn;
    yieldValues.push_back(*nextCounter);
    for (unsigned i = 0; i < numCarried; ++i)
      yieldValues.push_back(outs[firstScan - numCarried + i]);
    for (unsigned j = firstScan; j < outs.size(); ++j) {
      Value s = outs[j];
      RelaxTensorType st = NodeBinder::typeOf(s);
      FailureOr<SmallVector<Expr>> dims = b.dimsOf(s);
      if (failed(dims))
        return failure();
      bool rowKnown = true;
      for (const Expr &d : *dims) {
        SmallVector<std::string> vars;
        d.collectVars(vars);
        for (const std::string &v : vars)
          rowKnown &= known.contains(v) && !fresh.contains(v);
      }
      bool prepend = spec.prependScan && spec.prependScan(j - firstScan);
      FailureOr<Value> row =
          b.create<ExpandDimsOp>(s, {b.named("axes", b.i64Array({0}))});
      if (failed(row))
        return failure();
      SmallVector<Expr> accDims{Expr::var(importer.freshVar("iters"))};
      if (rowKnown) {
        // A row whose shape is known before the loop: [iters, row dims].
        llvm::append_range(accDims, *dims);
        auto accType = RelaxTensorType::get(SymShape(accDims), st.getDtype());
        Value acc = body->addArgument(accType, loc);
        accTypes.push_back(accType);
        accRowsFresh.push_back(false);
        FailureOr<Value> grown = b.create<ConcatOp>(
            prepend ? ValueRange{*row, acc} : ValueRange{acc, *row},
            {b.named("axis", b.i64Attr(0))});
        if (failed(grown))
          return failure();
        yieldValues.push_back(*grown);
        continue;
      }
      // A row whose shape the body computes: the accumulator's row dims
      // are variables of the loop, and the first iteration starts it
      // (relax.if on counter == 0) from the row itself; later rows are
      // match_cast to the first one's shape (ONNX requires one shape).
      SmallVector<Expr> rowDims{Expr::constant(1)};
      for (const Expr &d : *dims) {
        // A constant dim stays; any other becomes a variable of the loop.
        Expr v = d.getConstant() ? d : Expr::var(importer.freshVar("row"));
        accDims.push_back(v);
        rowDims.push_back(v);
      }
      auto accType = RelaxTensorType::get(SymShape(accDims), st.getDtype());
      Value acc = body->addArgument(accType, loc);
      accTypes.push_back(accType);
      accRowsFresh.push_back(true);
      FailureOr<Value> first = b.create<EqualOp>({counter, *zero});
      if (failed(first))
        return failure();
      auto thenBlock = std::make_unique<Block>();
      auto elseBlock = std::make_unique<Block>();
      Value grown;
      {
        OpBuilder::InsertionGuard inner(builder);
        builder.setInsertionPointToEnd(elseBlock.get());
        auto cast = MatchCastOp::create(builder, loc,
                                        st.withShape(SymShape(rowDims)), *row);
        FailureOr<Value> g =
            b.create<ConcatOp>(prepend ? ValueRange{cast.getResult(), acc}
                                       : ValueRange{acc, cast.getResult()},
                               {b.named("axis", b.i64Attr(0))});
        if (failed(g))
          return failure();
        grown = *g;
      }
      Type joined = nameUnknownDims(
          importer,
          joinTypes(row->getType(), grown.getType(), defaultSymContext()),
          "scan");
      auto ifOp = IfOp::create(builder, loc, TypeRange{joined}, *first);
      {
        OpBuilder::InsertionGuard inner(builder);
        builder.setInsertionPointToEnd(thenBlock.get());
        YieldOp::create(builder, loc, ValueRange{*row});
        builder.setInsertionPointToEnd(elseBlock.get());
        YieldOp::create(builder, loc, ValueRange{grown});
      }
      ifOp.getThenRegion().push_back(thenBlock.release());
      ifOp.getElseRegion().push_back(elseBlock.release());
      yieldValues.push_back(ifOp.getResult(0));
    }
  }
  // The accumulators start empty: [0, dims of a scan row].
  for (auto [type, rowsFresh] : llvm::zip(accTypes, accRowsFresh)) {
    // Row dims that are the loop's own variables start at 0 too (the first
    // iteration replaces the empty accumulator).
    auto t = cast<RelaxTensorType>(type);
    SmallVector<Expr> dims(t.getDims());
    dims[0] = Expr::constant(0);
    if (rowsFresh)
      for (Expr &d : dims)
        if (!d.getConstant())
          d = Expr::constant(0);
    FailureOr<Value> empty =
        b.create<ZerosOp>({}, {b.named("shape", b.shapeAttr(dims)),
                               b.named("dtype", TypeAttr::get(t.getDtype()))});
    if (failed(empty))
      return failure();
    inits.push_back(*empty);
  }
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(body.get());
    LoopYieldOp::create(builder, loc, next, yieldValues);
  }
  SmallVector<Value> allInits{*zero};
  llvm::append_range(allInits, flatInits);
  llvm::append_range(allInits, inits);
  SmallVector<Type> allTypes{scalarType(i64)};
  llvm::append_range(allTypes, carriedTypes);
  llvm::append_range(allTypes, accTypes);
  auto loop = WhileOp::create(builder, loc, allTypes, initCond, allInits);
  loop.getBody().push_back(body.release());
  // As the relax.if above: the carried types are the joins of the values
  // on entry and as yielded (fresh variables for what they do not share),
  // the accumulators start as zeros of their types' shape, and the body's
  // arguments are those types. A failure has been reported by the verifier.
  if (failed(verifyAttached(loop)))
    return failure();
  LoopResults r;
  ValueRange carriedResults = loop.getResults().slice(1, numCarried);
  for (const ValueSchema &schema : schemas)
    r.carried.push_back(importer.unflatten(schema, carriedResults));
  for (unsigned j = 0; j < accTypes.size(); ++j)
    r.scans.push_back(loop.getResult(1 + numCarried + j));
  return r;
}

//===----------------------------------------------------------------------===//
// Loop
//===----------------------------------------------------------------------===//

static LogicalResult importLoop(NodeBinder &b) {
  if (b.numInputs() < 2)
    return b.error() << "expects at least 2 inputs (M, cond), got "
                     << b.numInputs();
  LoopSpec spec;
  spec.body = graphAttr(b, "body");
  if (!spec.body)
    return failure();
  spec.what = ("ONNX Loop node '" + b.getNode().name() + "': body");
  Type i64 = b.getBuilder().getI64Type(), i1 = b.getBuilder().getI1Type();
  if (b.hasInput(0)) {
    if (std::optional<KnownInts> m = b.knownInts(0);
        m && m->elems.size() == 1 && m->elems[0].getConstant() &&
        *m->elems[0].getConstant() < 0)
      return b.error() << "the trip count M is negative ("
                       << *m->elems[0].getConstant() << ")";
    FailureOr<Value> count = scalarInput(b, 0, i64, "the trip count M");
    if (failed(count))
      return failure();
    spec.tripCount = *count;
  }
  if (b.hasInput(1)) {
    FailureOr<Value> cond = scalarInput(b, 1, i1, "the condition");
    if (failed(cond))
      return failure();
    spec.initCond = *cond;
    spec.useCondOutput = true;
  }
  if (!spec.tripCount && !spec.initCond)
    return b.error() << "has neither a trip count M nor a condition: the "
                        "loop would never end";
  spec.condOutput = true;
  for (unsigned i = 2; i < b.numInputs(); ++i) {
    if (!b.hasInput(i))
      return b.error() << "loop-carried input #" << i << " is missing";
    Slot *v = b.inputSlot(i);
    if (!v)
      return failure();
    spec.carriedInits.push_back(*v);
  }
  unsigned numCarried = spec.carriedInits.size();
  if (spec.body->input_size() != static_cast<int>(numCarried) + 2)
    return b.error() << "the body has " << spec.body->input_size()
                     << " inputs, expected " << numCarried + 2
                     << " (iteration number, condition, " << numCarried
                     << " loop-carried values)";
  if (spec.body->output_size() < static_cast<int>(numCarried) + 1)
    return b.error() << "the body has " << spec.body->output_size()
                     << " outputs, expected at least " << numCarried + 1
                     << " (condition, " << numCarried
                     << " loop-carried values, scan outputs)";
  unsigned numScans = spec.body->output_size() - 1 - numCarried;
  if (b.getNode().output_size() > static_cast<int>(numCarried + numScans))
    return b.error() << "has " << b.getNode().output_size()
                     << " outputs, the body gives " << numCarried + numScans;
  spec.bodyInputs =
      [&](Value counter,
          ArrayRef<Slot> carried) -> FailureOr<SmallVector<Slot>> {
    // The body runs only while the condition holds: its cond input is true.
    FailureOr<Value> t = b.scalar(1, i1);
    if (failed(t))
      return failure();
    SmallVector<Slot> inputs{tensorSlot(counter), tensorSlot(*t)};
    llvm::append_range(inputs, carried);
    return inputs;
  };
  FailureOr<LoopResults> r = buildLoop(b, spec);
  if (failed(r))
    return failure();
  for (int i = 0; i < b.getNode().output_size(); ++i) {
    if (b.getNode().output(i).empty())
      continue;
    unsigned k = static_cast<unsigned>(i);
    b.setOutputSlot(i, k < numCarried ? r->carried[k]
                                      : tensorSlot(r->scans[k - numCarried]));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Scan (opset 9 on)
//===----------------------------------------------------------------------===//

/// The relax.while of a Scan over `scanInputs` (each along its axis in
/// `inAxes`, reversed where `inDirs` is 1) with state values `states`; scan
/// outputs stacked along axis 0 (prepended where `outDirs` is 1).
static FailureOr<LoopResults>
buildScan(NodeBinder &b, const onnx::GraphProto *body, const std::string &what,
          ArrayRef<Value> states, ArrayRef<Value> scanInputs,
          SmallVector<int64_t> inAxes, ArrayRef<int64_t> inDirs,
          ArrayRef<int64_t> outDirs) {
  LoopSpec spec;
  spec.body = body;
  spec.what = what;
  for (Value v : states)
    spec.carriedInits.push_back(tensorSlot(v));
  Expr length;
  for (auto [j, v] : llvm::enumerate(scanInputs)) {
    FailureOr<SmallVector<Expr>> dims = b.dimsOf(v);
    if (failed(dims))
      return failure();
    FailureOr<int64_t> axis =
        b.normalizeAxis(inAxes[j], static_cast<int64_t>(dims->size()));
    if (failed(axis))
      return failure();
    inAxes[j] = *axis;
    Expr l = (*dims)[*axis];
    if (!length)
      length = l;
    else if (!defaultSymContext().provablyEqual(length, l))
      return b.error() << "scan input #" << j << " has " << l.str()
                       << " iterations along its axis, scan input #0 "
                       << length.str();
  }
  Type i64 = b.getBuilder().getI64Type();
  FailureOr<Value> count = b.symScalar(length, i64);
  if (failed(count))
    return failure();
  spec.tripCount = *count;
  SmallVector<int64_t> outDirections(outDirs.begin(), outDirs.end());
  spec.prependScan = [outDirections](unsigned j) {
    return j < outDirections.size() && outDirections[j] == 1;
  };
  SmallVector<Value> inputsOfScan(scanInputs.begin(), scanInputs.end());
  SmallVector<int64_t> inDirections(inDirs.begin(), inDirs.end());
  spec.bodyInputs =
      [&, inputsOfScan, inDirections, inAxes,
       length](Value counter,
               ArrayRef<Slot> carried) -> FailureOr<SmallVector<Slot>> {
    SmallVector<Slot> inputs(carried.begin(), carried.end());
    // Iteration t reads element t (or length - 1 - t, reversed) along the
    // scan axis.
    Value reversed;
    for (unsigned j = 0; j < inputsOfScan.size(); ++j) {
      Value index = counter;
      if (inDirections[j] == 1) {
        if (!reversed) {
          FailureOr<Value> last = b.symScalar(length - Expr::constant(1), i64);
          if (failed(last))
            return failure();
          FailureOr<Value> r = b.create<SubtractOp>({*last, counter});
          if (failed(r))
            return failure();
          reversed = *r;
        }
        index = reversed;
      }
      FailureOr<Value> elem = b.create<TakeOp>(
          {inputsOfScan[j], index}, {b.named("axis", b.i64Attr(inAxes[j]))});
      if (failed(elem))
        return failure();
      inputs.push_back(tensorSlot(*elem));
    }
    return inputs;
  };
  return buildLoop(b, spec);
}

/// The attribute `name`, a list of `count` integers (default all 0).
static FailureOr<SmallVector<int64_t>> intList(NodeBinder &b, StringRef name,
                                               unsigned count) {
  std::optional<SmallVector<int64_t>> v = b.attrInts(name);
  if (b.hasBadAttr())
    return failure();
  if (!v)
    return SmallVector<int64_t>(count, 0);
  if (v->size() != count)
    return b.error() << "attribute '" << name << "' has " << v->size()
                     << " values, expected " << count;
  for (int64_t d : *v)
    if (name.ends_with("directions") && d != 0 && d != 1)
      return b.error() << "attribute '" << name
                       << "': scan directions must be 0 or 1, got " << d;
  return *v;
}

/// The counts of a Scan node with `numInputs` inputs (after sequence_lens
/// in opset 8): state values and scan outputs, checked against the body.
static LogicalResult scanCounts(NodeBinder &b, const onnx::GraphProto *body,
                                unsigned numInputs, int64_t numScanInputs,
                                unsigned &numState, unsigned &numScans) {
  if (numScanInputs < 1 || numScanInputs > static_cast<int64_t>(numInputs))
    return b.error() << "attribute 'num_scan_inputs' must be 1 to the "
                        "number of inputs ("
                     << numInputs << "), got " << numScanInputs;
  numState = numInputs - numScanInputs;
  numScans = body->output_size() > static_cast<int>(numState)
                 ? body->output_size() - numState
                 : 0;
  if (body->input_size() != static_cast<int>(numInputs))
    return b.error() << "the body has " << body->input_size()
                     << " inputs, expected " << numInputs << " (" << numState
                     << " state values, " << numScanInputs << " scan inputs)";
  if (body->output_size() < static_cast<int>(numState))
    return b.error() << "the body has " << body->output_size()
                     << " outputs, expected at least " << numState;
  if (b.getNode().output_size() > static_cast<int>(numState + numScans))
    return b.error() << "has " << b.getNode().output_size()
                     << " outputs, the body gives " << numState + numScans;
  return success();
}

static LogicalResult importScan(NodeBinder &b) {
  const onnx::GraphProto *body = graphAttr(b, "body");
  if (!body)
    return failure();
  int64_t numScanInputs = b.attrInt("num_scan_inputs", -1);
  unsigned numState, numScans;
  if (failed(scanCounts(b, body, b.numInputs(), numScanInputs, numState,
                        numScans)))
    return failure();
  FailureOr<SmallVector<int64_t>> inAxes =
      intList(b, "scan_input_axes", numScanInputs);
  FailureOr<SmallVector<int64_t>> inDirs =
      intList(b, "scan_input_directions", numScanInputs);
  FailureOr<SmallVector<int64_t>> outAxes =
      intList(b, "scan_output_axes", numScans);
  FailureOr<SmallVector<int64_t>> outDirs =
      intList(b, "scan_output_directions", numScans);
  if (failed(inAxes) || failed(inDirs) || failed(outAxes) || failed(outDirs))
    return failure();
  FailureOr<SmallVector<Value>> inputs = b.allInputs();
  if (failed(inputs))
    return failure();
  FailureOr<LoopResults> r = buildScan(
      b, body, "ONNX Scan node '" + b.getNode().name() + "': body",
      ArrayRef(*inputs).take_front(numState),
      ArrayRef(*inputs).drop_front(numState), *inAxes, *inDirs, *outDirs);
  if (failed(r))
    return failure();
  for (int i = 0; i < b.getNode().output_size(); ++i) {
    if (b.getNode().output(i).empty())
      continue;
    unsigned k = static_cast<unsigned>(i);
    if (k < numState) {
      b.setOutputSlot(i, r->carried[k]);
      continue;
    }
    // Stacked along axis 0; scan_output_axes moves that axis.
    Value stacked = r->scans[k - numState];
    int64_t rank = NodeBinder::typeOf(stacked).getRank();
    FailureOr<int64_t> axis = b.normalizeAxis((*outAxes)[k - numState], rank);
    if (failed(axis))
      return failure();
    if (*axis != 0) {
      SmallVector<int64_t> perm;
      for (int64_t d = 1; d < rank; ++d) {
        if (d - 1 == *axis)
          perm.push_back(0);
        perm.push_back(d);
      }
      if (static_cast<int64_t>(perm.size()) < rank)
        perm.push_back(0);
      FailureOr<Value> moved =
          b.create<PermuteDimsOp>(stacked, {b.named("axes", b.i64Array(perm))});
      if (failed(moved))
        return failure();
      stacked = *moved;
    }
    b.setOutput(i, stacked);
  }
  return success();
}

/// Scan of opset 8: every input has a batch axis 0 (the scan inputs scan
/// along axis 1), the body sees one batch element. An outer relax.while
/// over the batch runs the opset 9 scan of each element and stacks its
/// final states and scan outputs along the batch axis. `sequence_lens`
/// (per-element lengths) is not supported.
static LogicalResult importScanV8(NodeBinder &b) {
  const onnx::GraphProto *body = graphAttr(b, "body");
  if (!body)
    return failure();
  if (b.hasInput(0))
    return b.error() << "unsupported: Scan (opset 8) with sequence_lens";
  int64_t numScanInputs = b.attrInt("num_scan_inputs", -1);
  if (b.numInputs() < 2)
    return b.error() << "expects at least 2 inputs, got " << b.numInputs();
  unsigned numInputs = b.numInputs() - 1;
  unsigned numState, numScans;
  if (failed(scanCounts(b, body, numInputs, numScanInputs, numState, numScans)))
    return failure();
  FailureOr<SmallVector<int64_t>> dirs =
      intList(b, "directions", numScanInputs);
  if (failed(dirs))
    return failure();
  SmallVector<Value> inputs;
  for (unsigned i = 1; i < b.numInputs(); ++i) {
    FailureOr<Value> v = b.input(i);
    if (failed(v))
      return failure();
    inputs.push_back(*v);
  }
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(inputs.front());
  if (failed(dims))
    return failure();
  if (dims->empty())
    return b.error() << "inputs must have a batch axis";
  Type i64 = b.getBuilder().getI64Type();
  LoopSpec outer;
  outer.body = body;
  outer.what = "ONNX Scan node '" + b.getNode().name() + "': body";
  FailureOr<Value> batch = b.symScalar((*dims)[0], i64);
  if (failed(batch))
    return failure();
  outer.tripCount = *batch;
  outer.bodyInputs = [&](Value counter,
                         ArrayRef<Slot>) -> FailureOr<SmallVector<Slot>> {
    SmallVector<Slot> slices;
    for (Value v : inputs) {
      FailureOr<Value> e =
          b.create<TakeOp>({v, counter}, {b.named("axis", b.i64Attr(0))});
      if (failed(e))
        return failure();
      slices.push_back(tensorSlot(*e));
    }
    return slices;
  };
  outer.runBody =
      [&](ArrayRef<Slot> sliceSlots) -> FailureOr<SmallVector<Slot>> {
    SmallVector<Value> slices;
    for (const Slot &s : sliceSlots)
      slices.push_back(s.value);
    FailureOr<LoopResults> r =
        buildScan(b, body, outer.what, ArrayRef(slices).take_front(numState),
                  ArrayRef(slices).drop_front(numState),
                  SmallVector<int64_t>(numScanInputs, 0), *dirs,
                  SmallVector<int64_t>(numScans, 0));
    if (failed(r))
      return failure();
    SmallVector<Slot> outs(r->carried);
    for (Value v : r->scans)
      outs.push_back(tensorSlot(v));
    return outs;
  };
  FailureOr<LoopResults> r = buildLoop(b, outer);
  if (failed(r))
    return failure();
  for (int i = 0; i < b.getNode().output_size(); ++i)
    if (!b.getNode().output(i).empty())
      b.setOutput(i, r->scans[i]);
  return success();
}

void onnx_import::addControlFlowOps(OpHandlerTable &table) {
  table.add("If", importIf);
  table.add("Loop", importLoop);
  table.add("Scan", importScanV8, /*sinceVersion=*/8);
  table.add("Scan", importScan, /*sinceVersion=*/9);
}
