//===- RecurrentOps.cpp - ONNX RNN, GRU, LSTM ------------------------------===//
//
// The recurrent layers split in two: the input projection X * W^T + Wb of
// every step is one ordinary relax.matmul over [seq * batch, input_size]
// (the fast GEMM paths), and the sequential part is relax.rnn / gru / lstm
// (legalized to a serial loop over time, lib/Relax/Transforms/Legalize/NN.cpp)
// with the recurrence bias Rb, the initial states, the peepholes and the
// sequence lengths as operands. Missing optional inputs become zeros (the
// lengths: the sequence length). layout = 1 (batch first) is permuted to
// ONNX's layout 0 around the op. activation_alpha / activation_beta are
// handed to each activation that takes them, in order, as onnxruntime does,
// and the ONNX defaults fill the rest.
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
#include "Importer.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

namespace {
enum class Cell { RNN, GRU, LSTM };
} // namespace

static unsigned numGates(Cell c) {
  return c == Cell::LSTM ? 4 : c == Cell::GRU ? 3 : 1;
}
static unsigned activationsPerDirection(Cell c) {
  return c == Cell::LSTM ? 3 : c == Cell::GRU ? 2 : 1;
}

/// Whether an activation reads alpha / beta (onnxruntime's consumption
/// order of activation_alpha / activation_beta).
static bool takesAlpha(StringRef n) {
  return n == "LeakyRelu" || n == "ThresholdedRelu" || n == "Elu" ||
         n == "HardSigmoid" || n == "ScaledTanh" || n == "Affine";
}
static bool takesBeta(StringRef n) {
  return n == "HardSigmoid" || n == "ScaledTanh" || n == "Affine";
}
static std::pair<double, double> defaultAlphaBeta(StringRef n) {
  if (n == "HardSigmoid")
    return {0.2, 0.5};
  if (n == "LeakyRelu")
    return {0.01, 0.0};
  if (n == "Affine")
    return {1.0, 0.0};
  return {1.0, 1.0};
}

/// The canonical spelling of an activation name (ONNX compares them
/// case-insensitively), or "" when relax does not have it.
static StringRef canonicalActivation(StringRef name) {
  for (StringRef n :
       {"Sigmoid", "Tanh", "Relu", "HardSigmoid", "LeakyRelu", "Affine",
        "ScaledTanh", "Elu", "Softsign", "Softplus", "ThresholdedRelu"})
    if (n.equals_insensitive(name))
      return n;
  return "";
}

/// An ONNX float attribute as the double it was written as (0.1f as 0.1,
/// not 0.10000000149011612): the shortest decimal that reads back as `f`.
static double shortestDouble(float f) {
  for (int digits = 1; digits < 9; ++digits) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.*g", digits, static_cast<double>(f));
    double d = std::strtod(text, nullptr);
    if (static_cast<float>(d) == f)
      return d;
  }
  return f;
}

/// `v` permuted by `axes`.
static FailureOr<Value> permute(NodeBinder &b, Value v,
                                ArrayRef<int64_t> axes) {
  return b.create<PermuteDimsOp>(v, {b.named("axes", b.i64Array(axes))});
}

/// Fails with a located error unless `v` has rank `rank` and known dims.
static FailureOr<SmallVector<Expr>> dimsOfRank(NodeBinder &b, Value v,
                                               int64_t rank, StringRef what) {
  RelaxTensorType t = NodeBinder::typeOf(v);
  if (!t.hasRank() || t.getRank() != rank) {
    (void)(b.error() << what << " must have rank " << rank << ", got type "
                     << v.getType());
    return failure();
  }
  return b.dimsOf(v);
}

/// Fails when dims `a` and `b` are provably different.
static LogicalResult checkDim(NodeBinder &b, const Expr &have,
                              const Expr &want, const Twine &what) {
  if (have && want &&
      defaultSymContext().isEQ(have, want) == sym::Truth::False)
    return b.error() << what << " is " << have.str() << ", expected "
                     << want.str();
  return success();
}

static LogicalResult importRecurrent(NodeBinder &b, Cell cell) {
  unsigned maxInputs = cell == Cell::LSTM ? 8 : 6;
  unsigned maxOutputs = cell == Cell::LSTM ? 3 : 2;
  if (failed(b.requireInputs(3, maxInputs)) ||
      (b.numOutputs() > 0 && failed(b.requireOutputs(maxOutputs))))
    return failure();
  unsigned gates = numGates(cell), perDir = activationsPerDirection(cell);
  std::string direction = b.attrString("direction", "forward");
  int64_t layout = b.opset() >= 14 ? b.attrInt("layout", 0) : 0;
  int64_t hiddenAttr = b.attrInt("hidden_size", -1);
  if (b.attr("hidden_size") && hiddenAttr < 1)
    return b.badAttr("hidden_size",
                     "must be positive, got " + Twine(hiddenAttr));
  std::optional<double> clip;
  if (b.attr("clip"))
    clip = shortestDouble(b.attrFloat("clip", 0.0f));
  bool inputForget = cell == Cell::LSTM && attrFlag(b, "input_forget", false);
  bool linearBeforeReset =
      cell == Cell::GRU && attrFlag(b, "linear_before_reset", false);
  if (b.opset() < 7)
    b.acceptAttr("output_sequence"); // Y is always computed
  SmallVector<std::string> actNames;
  SmallVector<float> alphas, betas;
  if (const onnx::AttributeProto *a = b.attr("activations"))
    for (const std::string &s : a->strings())
      actNames.push_back(s);
  if (const onnx::AttributeProto *a = b.attr("activation_alpha"))
    alphas.assign(a->floats().begin(), a->floats().end());
  if (const onnx::AttributeProto *a = b.attr("activation_beta"))
    betas.assign(a->floats().begin(), a->floats().end());
  if (b.hasBadAttr())
    return failure();
  int64_t numDirections;
  if (direction == "forward" || direction == "reverse")
    numDirections = 1;
  else if (direction == "bidirectional")
    numDirections = 2;
  else
    return b.error() << "direction must be forward, reverse or bidirectional, "
                        "got '"
                     << direction << "'";
  if (layout != 0 && layout != 1)
    return b.error() << "layout must be 0 or 1, got " << layout;
  if (clip && *clip < 0)
    return b.error() << "clip must be non-negative, got " << *clip;

  // Activations: one list per direction (a single list is used for both).
  SmallVector<StringRef> acts;
  if (actNames.empty()) {
    acts = defaultRecurrentActivations(
        cell == Cell::LSTM ? "lstm" : cell == Cell::GRU ? "gru" : "rnn",
        numDirections);
  } else {
    for (const std::string &n : actNames) {
      StringRef c = canonicalActivation(n);
      if (c.empty())
        return b.error() << "unsupported activation '" << n
                         << "' (supported: Sigmoid, Tanh, Relu, HardSigmoid, "
                            "LeakyRelu, Affine, ScaledTanh, Elu, Softsign, "
                            "Softplus, ThresholdedRelu)";
      acts.push_back(c);
    }
    if (acts.size() == perDir && numDirections == 2)
      acts.append(SmallVector<StringRef>(acts));
    size_t wanted = perDir * static_cast<size_t>(numDirections);
    if (acts.size() != wanted)
      return b.error() << "expects " << wanted
                       << " activations for direction " << direction
                       << ", got " << actNames.size();
  }
  SmallVector<double> alpha, beta;
  size_t ai = 0, bi = 0;
  for (StringRef n : acts) {
    auto [da, db] = defaultAlphaBeta(n);
    alpha.push_back(takesAlpha(n) && ai < alphas.size()
                        ? shortestDouble(alphas[ai++])
                        : da);
    beta.push_back(takesBeta(n) && bi < betas.size()
                       ? shortestDouble(betas[bi++])
                       : db);
  }

  FailureOr<Value> x = b.input(0), w = b.input(1), r = b.input(2);
  if (failed(x) || failed(w) || failed(r))
    return failure();
  if (layout == 1) {
    if (failed(dimsOfRank(b, *x, 3, "X")) ||
        failed(x = permute(b, *x, {1, 0, 2})))
      return failure();
  }
  FailureOr<SmallVector<Expr>> xd = dimsOfRank(b, *x, 3, "X");
  FailureOr<SmallVector<Expr>> wd = dimsOfRank(b, *w, 3, "W");
  FailureOr<SmallVector<Expr>> rd = dimsOfRank(b, *r, 3, "R");
  if (failed(xd) || failed(wd) || failed(rd))
    return failure();
  Type dtype = NodeBinder::typeOf(*x).getDtype();
  if (!isa<FloatType>(dtype))
    return b.error() << "X must have a floating-point dtype, got " << dtype;
  Expr seq = (*xd)[0], batch = (*xd)[1], inSize = (*xd)[2];
  Expr hidden = (*rd)[2];
  if (hiddenAttr >= 0 &&
      failed(checkDim(b, hidden, Expr::constant(hiddenAttr),
                      "R's last dim (hidden_size)")))
    return failure();
  if (hiddenAttr >= 0)
    hidden = Expr::constant(hiddenAttr);
  Expr gh = hidden * static_cast<int64_t>(gates);
  Expr d = Expr::constant(numDirections);
  if (failed(checkDim(b, (*wd)[0], d, "W's dim 0 (directions)")) ||
      failed(checkDim(b, (*rd)[0], d, "R's dim 0 (directions)")) ||
      failed(checkDim(b, (*wd)[1], gh,
                      Twine("W's dim 1 (") + Twine(gates) +
                          " * hidden_size)")) ||
      failed(checkDim(b, (*rd)[1], gh,
                      Twine("R's dim 1 (") + Twine(gates) +
                          " * hidden_size)")) ||
      failed(checkDim(b, (*wd)[2], inSize, "W's dim 2 (input_size)")))
    return failure();

  // xw = X * W^T over every step at once: [seq * batch, I] x [I, D * G * H].
  FailureOr<Value> x2 = b.reshape(*x, {seq * batch, inSize});
  FailureOr<Value> w2 = b.reshape(*w, {d * gh, inSize});
  if (failed(x2) || failed(w2) || failed(w2 = permute(b, *w2, {1, 0})))
    return failure();
  FailureOr<Value> xw = b.create<MatmulOp>({*x2, *w2});
  if (failed(xw) || failed(xw = b.reshape(*xw, {seq, batch, d, gh})))
    return failure();

  auto zeros = [&](ArrayRef<Expr> shape) {
    return b.create<ZerosOp>({}, {b.named("shape", b.shapeAttr(shape)),
                                  b.named("dtype", TypeAttr::get(dtype))});
  };
  // B = [Wb, Rb] per direction: Wb joins the projection, Rb the op.
  FailureOr<Value> rb;
  if (b.hasInput(3)) {
    FailureOr<Value> bias = b.input(3);
    if (failed(bias) || failed(dimsOfRank(b, *bias, 2, "B")))
      return failure();
    FailureOr<SmallVector<Expr>> bd = b.dimsOf(*bias);
    if (failed(checkDim(b, (*bd)[0], d, "B's dim 0 (directions)")) ||
        failed(checkDim(b, (*bd)[1], gh * 2,
                        Twine("B's dim 1 (2 * ") + Twine(gates) +
                            " * hidden_size)")))
      return failure();
    auto half = [&](Expr lo, Expr hi) {
      return b.create<StridedSliceOp>(
          *bias, {b.named("axes", b.i64Array({1})),
                  b.named("begin", b.shapeAttr({lo})),
                  b.named("end", b.shapeAttr({hi}))});
    };
    FailureOr<Value> wb = half(Expr::constant(0), gh);
    rb = half(gh, gh * 2);
    if (failed(wb) || failed(rb) || failed(wb = b.reshape(*wb, {d, gh})) ||
        failed(rb = b.reshape(*rb, {d, gh})) ||
        failed(xw = b.create<AddOp>({*xw, *wb})))
      return failure();
  } else {
    rb = zeros({d, gh});
  }

  FailureOr<Value> lens;
  if (b.hasInput(4)) {
    lens = b.input(4);
    if (failed(lens) || failed(dimsOfRank(b, *lens, 1, "sequence_lens")))
      return failure();
    if (!isa<IntegerType>(NodeBinder::typeOf(*lens).getDtype()))
      return b.error() << "sequence_lens must be an integer tensor";
  } else {
    FailureOr<Value> s = b.symScalar(seq, b.getBuilder().getI64Type());
    if (failed(s))
      return failure();
    lens = b.create<BroadcastToOp>(
        *s, {b.named("shape", b.shapeAttr({batch}))});
  }
  // An initial state [D, batch, H] ([batch, D, H] with layout 1), or zeros.
  auto state = [&](unsigned i, StringRef what) -> FailureOr<Value> {
    if (!b.hasInput(i))
      return zeros({d, batch, hidden});
    FailureOr<Value> v = b.input(i);
    if (failed(v) || failed(dimsOfRank(b, *v, 3, what)))
      return failure();
    if (layout == 1)
      return permute(b, *v, {1, 0, 2});
    return v;
  };
  FailureOr<Value> h0 = state(5, "initial_h");
  if (failed(rb) || failed(lens) || failed(h0))
    return failure();

  Builder &builder = b.getBuilder();
  SmallVector<NamedAttribute> attrs = {
      b.named("direction", builder.getStringAttr(direction)),
      b.named("activations",
              builder.getStrArrayAttr(SmallVector<StringRef>(acts))),
      b.named("activation_alpha", builder.getDenseF64ArrayAttr(alpha)),
      b.named("activation_beta", builder.getDenseF64ArrayAttr(beta))};
  if (clip)
    attrs.push_back(b.named("clip", b.f64Attr(*clip)));
  FailureOr<SmallVector<Value>> results;
  if (cell == Cell::LSTM) {
    FailureOr<Value> c0 = state(6, "initial_c");
    FailureOr<Value> p = b.hasInput(7) ? b.input(7) : zeros({d, hidden * 3});
    if (failed(c0) || failed(p) ||
        (b.hasInput(7) && failed(dimsOfRank(b, *p, 2, "P"))))
      return failure();
    attrs.push_back(b.named("input_forget", b.boolAttr(inputForget)));
    results = b.createN<LSTMOp>({*xw, *r, *rb, *h0, *c0, *p, *lens}, attrs, 3);
  } else if (cell == Cell::GRU) {
    attrs.push_back(
        b.named("linear_before_reset", b.boolAttr(linearBeforeReset)));
    results = b.createN<GRUOp>({*xw, *r, *rb, *h0, *lens}, attrs, 2);
  } else {
    results = b.createN<RNNOp>({*xw, *r, *rb, *h0, *lens}, attrs, 2);
  }
  if (failed(results))
    return failure();
  for (unsigned i = 0; i < results->size(); ++i) {
    if (!b.hasOutput(i))
      continue;
    FailureOr<Value> v = (*results)[i];
    if (layout == 1 &&
        failed(v = permute(b, *v, i == 0 ? ArrayRef<int64_t>{2, 0, 1, 3}
                                         : ArrayRef<int64_t>{1, 0, 2})))
      return failure();
    b.setOutput(i, *v);
  }
  return success();
}

void mlir::relax::onnx_import::addRecurrentOps(OpHandlerTable &table) {
  table.add("RNN", [](NodeBinder &b) { return importRecurrent(b, Cell::RNN); });
  table.add("GRU", [](NodeBinder &b) { return importRecurrent(b, Cell::GRU); });
  table.add("LSTM",
            [](NodeBinder &b) { return importRecurrent(b, Cell::LSTM); });
}
