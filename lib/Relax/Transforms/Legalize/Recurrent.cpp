//===- Recurrent.cpp - Legalization of rnn, gru and lstm ------------------===//
//
// relax.rnn, relax.gru and relax.lstm (ONNX semantics: gates, activations
// with alpha/beta, clip, bidirectional and reverse directions, sequence
// lengths) become one prim_func each: a parallel loop over (direction,
// batch) pairs running the sequence serially (legalizeRecurrence).
//
//===----------------------------------------------------------------------===//

#include "NNHelpers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::nn_legalize;

//===----------------------------------------------------------------------===//
// rnn, gru, lstm
//===----------------------------------------------------------------------===//

namespace {
/// One activation of a recurrent op with its alpha and beta.
struct Activation {
  std::string name;
  double alpha, beta;
};

/// What the recurrence body needs to know about the op.
struct RecurrenceSpec {
  enum Kind { RNN, GRU, LSTM } kind;
  unsigned gates;
  bool bidirectional, reverse;
  SmallVector<Activation> activations; // per direction, then in op order
  std::optional<double> clip;
  bool inputForget = false, linearBeforeReset = false;
};
} // namespace

/// ONNX's default alpha / beta of an activation used by a recurrence.
static std::pair<double, double> activationDefaults(StringRef name) {
  if (name == "HardSigmoid")
    return {0.2, 0.5};
  if (name == "LeakyRelu")
    return {0.01, 0.0};
  if (name == "Affine" || name == "ScaledTanh")
    return {1.0, name == "Affine" ? 0.0 : 1.0};
  return {1.0, 0.0};
}

/// Applies a recurrent activation to a scalar of float type.
static Value applyActivation(OpBuilder &b, Location l, const Activation &act,
                             Value x) {
  Type t = x.getType();
  auto c = [&](double v) { return createScalarConstant(b, l, t, v); };
  auto mul = [&](Value a, Value c2) {
    return arith::MulFOp::create(b, l, a, c2).getResult();
  };
  auto add = [&](Value a, Value c2) {
    return arith::AddFOp::create(b, l, a, c2).getResult();
  };
  auto lt0 = [&](Value v) {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, v, c(0.0))
        .getResult();
  };
  StringRef n = act.name;
  if (n == "Sigmoid")
    return arith::DivFOp::create(
        b, l, c(1.0),
        add(c(1.0), math::ExpOp::create(
                        b, l, arith::NegFOp::create(b, l, x))));
  if (n == "Tanh")
    return math::TanhOp::create(b, l, x);
  if (n == "Relu")
    return arith::MaximumFOp::create(b, l, x, c(0.0));
  if (n == "HardSigmoid")
    return arith::MinimumFOp::create(
        b, l,
        arith::MaximumFOp::create(b, l, add(mul(x, c(act.alpha)), c(act.beta)),
                                  c(0.0)),
        c(1.0));
  if (n == "LeakyRelu")
    return arith::SelectOp::create(b, l, lt0(x), mul(x, c(act.alpha)), x);
  if (n == "Affine")
    return add(mul(x, c(act.alpha)), c(act.beta));
  if (n == "ScaledTanh")
    return mul(math::TanhOp::create(b, l, mul(x, c(act.beta))), c(act.alpha));
  if (n == "Elu")
    return arith::SelectOp::create(
        b, l, lt0(x),
        mul(arith::SubFOp::create(b, l, math::ExpOp::create(b, l, x), c(1.0)),
            c(act.alpha)),
        x);
  if (n == "Softsign")
    return arith::DivFOp::create(b, l, x,
                                 add(c(1.0), math::AbsFOp::create(b, l, x)));
  if (n == "Softplus")
    return math::Log1pOp::create(b, l, math::ExpOp::create(b, l, x));
  // ThresholdedRelu (the verifier admits nothing else).
  Value above =
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x, c(act.alpha));
  return arith::SelectOp::create(b, l, above, x, c(0.0));
}

/// The recurrence as one prim_func: a parallel loop over (direction,
/// batch) pairs, each running its sequence serially with its state (h, c)
/// and the step's gate pre-activations in local buffers. A step computes
/// the gates xw[t] + rb + h * R^T first and then updates the state, so h
/// is never overwritten while a gate still reads it. Lengths are clamped
/// to [0, seq]; steps from the length on are zero in y.
static LogicalResult legalizeRecurrence(Operation *op, LegalizeContext &ctx,
                                        RecurrenceSpec spec) {
  StringRef name = shortOpName(op);
  if (failed(requireKnownShapes(op)))
    return failure();
  auto xwT = cast<RelaxTensorType>(op->getOperand(0).getType());
  Type dtype = xwT.getDtype();
  // The ops' shared type inference (NNOps.cpp) requires a float xw.
  assert(isa<FloatType>(dtype) && "recurrence over a non-float xw");
  Type acc = dtype.getIntOrFloatBitWidth() < 32
                 ? Type(Float32Type::get(op->getContext()))
                 : dtype;
  bool isLSTM = spec.kind == RecurrenceSpec::LSTM;
  unsigned perDir = isLSTM ? 3 : spec.kind == RecurrenceSpec::GRU ? 2 : 1;
  sym::Expr hidden =
      cast<RelaxTensorType>(op->getOperand(1).getType()).getShape().getDim(2);
  // The loops index every operand with xw's seq, batch and directions and
  // r's hidden size: dims inference left undecided (xw's 9 against r's
  // 3 * h) are asserted at run time before the call (ShapeContracts.cpp).
  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location l, ValueRange in, ValueRange out) {
        MLIRContext *mctx = b.getContext();
        Value XW = in[0], R = in[1], RB = in[2], H0 = in[3];
        Value C0 = isLSTM ? in[4] : Value(), P = isLSTM ? in[5] : Value();
        Value LENS = in.back();
        Value Y = out[0], YH = out[1], YC = isLSTM ? out[2] : Value();
        Type xwType = op->getOperand(0).getType();
        Value seq = dimOf(b, l, xwType, 0), batch = dimOf(b, l, xwType, 1),
              dirs = dimOf(b, l, xwType, 2);
        Value H = tir::materializeDim(b, l, hidden);
        Value c0 = cIdx(b, l, 0), c1 = cIdx(b, l, 1);
        Value H2 = arith::MulIOp::create(b, l, H, cIdx(b, l, 2));
        Value H3 = arith::MulIOp::create(b, l, H, cIdx(b, l, 3));
        Value GH = arith::MulIOp::create(b, l, H, cIdx(b, l, spec.gates));
        auto ld = [&](OpBuilder &b, Location l, Value buf, ValueRange idx) {
          return tir::LoadOp::create(b, l, buf, idx).getResult();
        };
        auto ldAcc = [&](OpBuilder &b, Location l, Value buf,
                         ValueRange idx) {
          return castScalar(b, l, ld(b, l, buf, idx), acc);
        };
        auto st = [&](OpBuilder &b, Location l, Value x, Value buf,
                      ValueRange idx) {
          tir::StoreOp::create(b, l, x, buf, idx);
        };
        auto serial = [&](OpBuilder &b, Location l, Value lb, Value ub,
                          function_ref<void(OpBuilder &, Location, Value)>
                              body) {
          tir::ForOp::create(b, l, lb, ub, c1, tir::LoopKind::serial, body);
        };
        auto localBuf = [&](OpBuilder &b, Location l, sym::Expr size) {
          return tir::AllocOp::create(
                     b, l,
                     tir::BufferType::get(mctx,
                                          SymShape(ArrayRef<sym::Expr>{size}),
                                          acc, tir::MemoryScope::local))
              .getResult();
        };
        auto clip = [&](OpBuilder &b, Location l, Value x) -> Value {
          if (!spec.clip)
            return x;
          Value hi = createScalarConstant(b, l, acc, *spec.clip);
          Value lo = createScalarConstant(b, l, acc, -*spec.clip);
          return arith::MinimumFOp::create(
              b, l, arith::MaximumFOp::create(b, l, x, lo), hi);
        };
        auto add = [&](OpBuilder &b, Location l, Value x, Value y) {
          return arith::AddFOp::create(b, l, x, y).getResult();
        };
        auto mul = [&](OpBuilder &b, Location l, Value x, Value y) {
          return arith::MulFOp::create(b, l, x, y).getResult();
        };

        // One parallel iteration per (direction, batch element).
        Value pairs = arith::MulIOp::create(b, l, dirs, batch);
        tir::ForOp::create(
            b, l, c0, pairs, c1, tir::LoopKind::parallel,
            [&](OpBuilder &b, Location l, Value pr) {
              Value d = arith::DivUIOp::create(b, l, pr, batch);
              Value bi = arith::RemUIOp::create(b, l, pr, batch);
              Value hS = localBuf(b, l, hidden);
              Value cS = isLSTM ? localBuf(b, l, hidden) : Value();
              Value g = localBuf(b, l, hidden * int64_t(spec.gates));
              Value dot = localBuf(b, l, sym::Expr::constant(1));
              serial(b, l, c0, H, [&](OpBuilder &b, Location l, Value k) {
                st(b, l, ldAcc(b, l, H0, {d, bi, k}), hS, k);
                if (isLSTM)
                  st(b, l, ldAcc(b, l, C0, {d, bi, k}), cS, k);
              });
              Value rawLen = castScalar(b, l, ld(b, l, LENS, bi),
                                        b.getI64Type());
              Value len = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                     rawLen);
              len = arith::MinSIOp::create(
                  b, l, arith::MaxSIOp::create(b, l, len, c0), seq);
              Value zero = createScalarConstant(b, l, acc, 0.0);
              Value one = createScalarConstant(b, l, acc, 1.0);

              // gate[j] = xw[t, bi, d, j] + rb[d, j] + sum_k h[k] R[d, j, k]
              // for j in [lo, hi), the sum over `hv(k)` instead of h[k].
              auto gatesFrom =
                  [&](OpBuilder &b, Location l, Value t, Value lo, Value hi,
                      function_ref<Value(OpBuilder &, Location, Value)> hv,
                      function_ref<void(OpBuilder &, Location, Value, Value,
                                        Value)>
                          use) {
                    serial(b, l, lo, hi, [&](OpBuilder &b, Location l,
                                             Value j) {
                      st(b, l, zero, dot, c0);
                      // reassoc lets LLVM split the sum into partial sums
                      // and vectorize it (as attention's q.k).
                      serial(b, l, c0, H, [&](OpBuilder &b, Location l,
                                              Value k) {
                        st(b, l,
                           arith::AddFOp::create(
                               b, l, ld(b, l, dot, c0),
                               mul(b, l, hv(b, l, k),
                                   ldAcc(b, l, R, {d, j, k})),
                               arith::FastMathFlags::reassoc),
                           dot, c0);
                      });
                      use(b, l, j, ld(b, l, dot, c0),
                          ldAcc(b, l, XW, {t, bi, d, j}));
                    });
                  };
              auto hOf = [&](OpBuilder &b, Location l, Value k) {
                return ld(b, l, hS, k);
              };

              // The steps of one direction, its activations known.
              auto runDirection = [&](OpBuilder &b, Location l,
                                      unsigned dirIndex) {
                bool rev = spec.reverse || dirIndex == 1;
                ArrayRef<Activation> acts =
                    ArrayRef<Activation>(spec.activations)
                        .slice(dirIndex * perDir, perDir);
                serial(b, l, c0, len, [&](OpBuilder &b, Location l, Value s) {
                  Value t =
                      rev ? Value(arith::SubIOp::create(
                                b, l, arith::SubIOp::create(b, l, len, c1), s))
                          : s;
                  auto storeGate = [&](OpBuilder &b, Location l, Value j,
                                       Value sum, Value xw) {
                    st(b, l, add(b, l, add(b, l, xw, sum),
                                 ldAcc(b, l, RB, {d, j})),
                       g, j);
                  };
                  auto emit = [&](OpBuilder &b, Location l, Value k,
                                  Value hNew) {
                    st(b, l, hNew, hS, k);
                    st(b, l, castScalar(b, l, hNew, dtype), Y,
                       {t, d, bi, k});
                  };
                  switch (spec.kind) {
                  case RecurrenceSpec::RNN:
                    gatesFrom(b, l, t, c0, H, hOf, storeGate);
                    serial(b, l, c0, H, [&](OpBuilder &b, Location l,
                                            Value k) {
                      emit(b, l, k,
                           applyActivation(b, l, acts[0],
                                           clip(b, l, ld(b, l, g, k))));
                    });
                    break;
                  case RecurrenceSpec::LSTM:
                    gatesFrom(b, l, t, c0, GH, hOf, storeGate);
                    serial(b, l, c0, H, [&](OpBuilder &b, Location l,
                                            Value k) {
                      Value kO = arith::AddIOp::create(b, l, k, H);
                      Value kF = arith::AddIOp::create(b, l, k, H2);
                      Value kC = arith::AddIOp::create(b, l, k, H3);
                      Value c = ld(b, l, cS, k);
                      Value i = applyActivation(
                          b, l, acts[0],
                          clip(b, l, add(b, l, ld(b, l, g, k),
                                         mul(b, l, ldAcc(b, l, P, {d, k}),
                                             c))));
                      Value f =
                          spec.inputForget
                              ? Value(arith::SubFOp::create(b, l, one, i))
                              : applyActivation(
                                    b, l, acts[0],
                                    clip(b, l,
                                         add(b, l, ld(b, l, g, kF),
                                             mul(b, l,
                                                 ldAcc(b, l, P, {d, kF}),
                                                 c))));
                      Value cc = applyActivation(b, l, acts[1],
                                                 clip(b, l, ld(b, l, g, kC)));
                      Value cNew =
                          add(b, l, mul(b, l, f, c), mul(b, l, i, cc));
                      Value o = applyActivation(
                          b, l, acts[0],
                          clip(b, l, add(b, l, ld(b, l, g, kO),
                                         mul(b, l, ldAcc(b, l, P, {d, kO}),
                                             cNew))));
                      st(b, l, cNew, cS, k);
                      emit(b, l, k,
                           mul(b, l, o, applyActivation(b, l, acts[2], cNew)));
                    });
                    break;
                  case RecurrenceSpec::GRU: {
                    // z and r pre-activations, then r activated in place.
                    gatesFrom(b, l, t, c0, H2, hOf, storeGate);
                    serial(b, l, H, H2, [&](OpBuilder &b, Location l,
                                            Value j) {
                      st(b, l,
                         applyActivation(b, l, acts[0],
                                         clip(b, l, ld(b, l, g, j))),
                         g, j);
                    });
                    // The candidate: (r . h) R_h^T + Rb_h, or with
                    // linear_before_reset r . (h R_h^T + Rb_h).
                    auto rTimesH = [&](OpBuilder &b, Location l, Value k) {
                      Value kr = arith::AddIOp::create(b, l, k, H);
                      return mul(b, l, ld(b, l, g, kr), ld(b, l, hS, k));
                    };
                    auto storeCandidate = [&](OpBuilder &b, Location l,
                                              Value j, Value sum, Value xw) {
                      Value rec = add(b, l, sum, ldAcc(b, l, RB, {d, j}));
                      if (spec.linearBeforeReset) {
                        Value kr = arith::SubIOp::create(b, l, j, H);
                        rec = mul(b, l, ld(b, l, g, kr), rec);
                      }
                      st(b, l,
                         applyActivation(b, l, acts[1],
                                         clip(b, l, add(b, l, xw, rec))),
                         g, j);
                    };
                    if (spec.linearBeforeReset)
                      gatesFrom(b, l, t, H2, H3, hOf, storeCandidate);
                    else
                      gatesFrom(b, l, t, H2, H3, rTimesH, storeCandidate);
                    serial(b, l, c0, H, [&](OpBuilder &b, Location l,
                                            Value k) {
                      Value z = applyActivation(b, l, acts[0],
                                                clip(b, l, ld(b, l, g, k)));
                      Value cand =
                          ld(b, l, g, Value(arith::AddIOp::create(b, l, k, H2)));
                      Value hNew = add(
                          b, l,
                          mul(b, l, arith::SubFOp::create(b, l, one, z), cand),
                          mul(b, l, z, ld(b, l, hS, k)));
                      emit(b, l, k, hNew);
                    });
                    break;
                  }
                  }
                });
              };
              if (spec.bidirectional) {
                Value isFwd = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq, d, c0);
                scf::IfOp::create(
                    b, l, isFwd,
                    [&](OpBuilder &b, Location l) {
                      runDirection(b, l, 0);
                      scf::YieldOp::create(b, l);
                    },
                    [&](OpBuilder &b, Location l) {
                      runDirection(b, l, 1);
                      scf::YieldOp::create(b, l);
                    });
              } else {
                runDirection(b, l, 0);
              }
              // Steps from the length on are zero; the final state.
              serial(b, l, len, seq, [&](OpBuilder &b, Location l, Value t) {
                serial(b, l, c0, H, [&](OpBuilder &b, Location l, Value k) {
                  st(b, l, createScalarConstant(b, l, dtype, 0.0), Y,
                     {t, d, bi, k});
                });
              });
              serial(b, l, c0, H, [&](OpBuilder &b, Location l, Value k) {
                st(b, l, castScalar(b, l, ld(b, l, hS, k), dtype), YH,
                   {d, bi, k});
                if (isLSTM)
                  st(b, l, castScalar(b, l, ld(b, l, cS, k), dtype), YC,
                     {d, bi, k});
              });
            });
      },
      tir::OpPattern::Opaque, op->getAttrDictionary());
}

/// The spec shared by the three ops from their attributes.
template <typename OpTy>
static RecurrenceSpec recurrenceSpec(OpTy op, RecurrenceSpec::Kind kind,
                                     unsigned gates) {
  RecurrenceSpec spec;
  spec.kind = kind;
  spec.gates = gates;
  spec.bidirectional = op.getDirection() == "bidirectional";
  spec.reverse = op.getDirection() == "reverse";
  SmallVector<StringRef> names;
  if (auto acts = op.getActivations())
    for (Attribute a : *acts)
      names.push_back(cast<StringAttr>(a).getValue());
  else
    names = defaultRecurrentActivations(op->getName().getStringRef(),
                                        spec.bidirectional ? 2 : 1);
  std::optional<ArrayRef<double>> alpha = op.getActivationAlpha(),
                                  beta = op.getActivationBeta();
  for (auto [i, n] : llvm::enumerate(names)) {
    auto [da, db] = activationDefaults(n);
    spec.activations.push_back(
        {n.str(), alpha && i < alpha->size() ? (*alpha)[i] : da,
         beta && i < beta->size() ? (*beta)[i] : db});
  }
  if (auto c = op.getClipAttr())
    spec.clip = c.getValueAsDouble();
  return spec;
}

void relax::addRecurrentLegalizers(LegalizerTable &table) {
  registerLegalizer<RNNOp>(table, [](RNNOp op, LegalizeContext &ctx) {
    return legalizeRecurrence(op, ctx,
                              recurrenceSpec(op, RecurrenceSpec::RNN, 1));
  });
  registerLegalizer<GRUOp>(table, [](GRUOp op, LegalizeContext &ctx) {
    RecurrenceSpec spec = recurrenceSpec(op, RecurrenceSpec::GRU, 3);
    spec.linearBeforeReset = op.getLinearBeforeReset();
    return legalizeRecurrence(op, ctx, spec);
  });
  registerLegalizer<LSTMOp>(table, [](LSTMOp op, LegalizeContext &ctx) {
    RecurrenceSpec spec = recurrenceSpec(op, RecurrenceSpec::LSTM, 4);
    spec.inputForget = op.getInputForget();
    return legalizeRecurrence(op, ctx, spec);
  });
}
