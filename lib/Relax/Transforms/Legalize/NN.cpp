//===- NN.cpp - Legalization of the NN ops --------------------------===//
//
// Attention, NCHW conv2d and 2-D pooling become loop nests of tir.blocks
// over symbolic shapes (the norms live in Reduction.cpp, resize2d in
// Resize.cpp, rnn/gru/lstm in Recurrent.cpp):
//
// * attention: one prim_func in streaming ("online softmax") form, with no
//   [b, hq, s, skv] scores: one parallel loop over every (batch, head,
//   query row); per row a running max m, a running sum l of exp(x - m)
//   and an accumulator of dv weighted values (O(dv) local scratch, in f32
//   for narrower floats), rescaled by exp(m_old - m_new) when the max
//   grows, divided by l at the end. Causal is bottom-right aligned (key j
//   visible from query i iff j <= i + skv - s) and ends the key loop
//   early; a boolean mask skips the keys where it is false; any other mask
//   is added to the scores. A row with no visible key (causal or boolean
//   mask) is the uniform average of v over all skv keys, which is what
//   softmax gives when masked scores are the lowest finite value (as TVM);
//   a row whose visible scores are all -inf (an additive -inf mask) is
//   NaN, as numpy's and torch's softmax. hq must be a known multiple of
//   hkv.
// * conv2d: one block, spatial (n, o, y, x) and reduce (c / groups, kh,
//   kw); padding is a guarded load (scf.if) rather than a padded copy.
// * conv2d_transpose: the gather form of conv2d's, one block, spatial
//   (n, o, y, x) and reduce (c / groups, kh, kw): input row
//   (y + pad - ky * dilation) / stride where that divides exactly and lies
//   in the input (a guarded load), weight [ic, o mod (o / groups), ky, kx].
// * max_pool2d: one reduce block; padded positions are ignored.
// * avg_pool2d: a sum block and a divide block; the divisor counts only
//   the window positions inside the input (TVM's default
//   count_include_pad = false), at least 1.
// * adaptive_avg_pool2d / global_avg_pool2d: window [floor(y h / oh),
//   ceil((y + 1) h / oh)) per output row (global: oh = ow = 1); a sum
//   block whose reduce extents depend on the output position, then a
//   divide block.
//
//===----------------------------------------------------------------------===//

#include "NNHelpers.h"

#include "RelaxDialect/Relax/Transforms/Legalize.h"
#include "RelaxDialect/TIR/IR/OpPattern.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::nn_legalize;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The lowest finite value of a float type.
static Value lowestValue(OpBuilder &b, Location l, Type t) {
  auto f = cast<FloatType>(t);
  return arith::ConstantOp::create(
      b, l, b.getFloatAttr(f, APFloat::getLargest(f.getFloatSemantics(),
                                                  /*Negative=*/true)));
}

/// Loop nest over index-value extents (outermost parallel) around one block.
/// `extents` are in block-variable order; `loopOrder` (empty: identity)
/// lists the block variables from the outermost loop in.
static void buildBlockNest(
    OpBuilder &b, Location l, StringRef name, ValueRange extents,
    ArrayRef<tir::IterKind> iterKinds,
    function_ref<void(OpBuilder &, Location, ValueRange)> init,
    function_ref<void(OpBuilder &, Location, ValueRange)> body,
    ArrayRef<unsigned> loopOrder = {}) {
  SmallVector<unsigned> order(loopOrder);
  if (order.empty())
    for (unsigned i = 0; i < extents.size(); ++i)
      order.push_back(i);
  SmallVector<Value> loopExtents;
  for (unsigned i : order)
    loopExtents.push_back(extents[i]);
  SmallVector<tir::LoopKind> kinds(extents.size(), tir::LoopKind::serial);
  if (!kinds.empty())
    kinds.front() = tir::LoopKind::parallel;
  tir::buildLoopNest(b, l, loopExtents, kinds,
                     [&](OpBuilder &b, Location l, ValueRange ivs) {
                       SmallVector<Value> binds(ivs.size());
                       for (auto [loop, var] : llvm::enumerate(order))
                         binds[var] = ivs[loop];
                       tir::BlockOp::create(b, l, name, binds, iterKinds, init,
                                            body);
                     });
}

static SmallVector<tir::IterKind> iterKinds(unsigned spatial,
                                            unsigned reduce) {
  SmallVector<tir::IterKind> k(spatial, tir::IterKind::spatial);
  k.append(reduce, tir::IterKind::reduce);
  return k;
}

/// Whether `in` broadcasts to `out` in the sense of broadcastIndices.
static bool canBroadcast(const SymShape &in, const SymShape &out) {
  int64_t offset = out.getRank() - in.getRank();
  if (offset < 0)
    return false;
  for (int64_t i = 0; i < in.getRank(); ++i) {
    const sym::Expr &d = in.getDim(i), &o = out.getDim(offset + i);
    if (!(d == o || defaultSymContext().provablyEqual(d, o) ||
          d.getConstant() == 1))
      return false;
  }
  return true;
}

/// Window attributes of conv2d and the pools, expanded to two spatial dims.
struct Window {
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1};
  int64_t padBegin[2] = {0, 0}, padEnd[2] = {0, 0};
  bool hasPadding() const {
    return padBegin[0] || padBegin[1] || padEnd[0] || padEnd[1];
  }
};

/// The window of conv2d, conv2d_transpose or a pool, from its typed
/// attributes. Their sizes and signs were checked by the op's type
/// inference (lib/Relax/IR/NNOps.cpp: strides and dilation 1 or 2 positive
/// values, padding 1, 2 or 4 non-negative ones), which every verified op
/// has passed.
static Window readWindow(std::optional<ArrayRef<int64_t>> strides,
                         std::optional<ArrayRef<int64_t>> dilation,
                         std::optional<ArrayRef<int64_t>> padding) {
  Window w;
  auto pair = [](std::optional<ArrayRef<int64_t>> v, int64_t *out) {
    if (!v || v->empty())
      return;
    out[0] = (*v)[0];
    out[1] = v->size() >= 2 ? (*v)[1] : (*v)[0];
  };
  pair(strides, w.stride);
  pair(dilation, w.dilation);
  if (padding) {
    ArrayRef<int64_t> p = *padding;
    if (p.size() == 1) {
      w.padBegin[0] = w.padBegin[1] = w.padEnd[0] = w.padEnd[1] = p[0];
    } else if (p.size() == 2) {
      w.padBegin[0] = w.padEnd[0] = p[0];
      w.padBegin[1] = w.padEnd[1] = p[1];
    } else if (p.size() == 4) {
      w.padBegin[0] = p[0];
      w.padBegin[1] = p[1];
      w.padEnd[0] = p[2];
      w.padEnd[1] = p[3];
    }
  }
  return w;
}

/// Input coordinate `y * stride + r * dilation - pad`.
static Value windowCoord(OpBuilder &b, Location l, Value y, Value r,
                         int64_t stride, int64_t dilation, int64_t pad) {
  Value v = y;
  if (stride != 1)
    v = arith::MulIOp::create(b, l, v, cIdx(b, l, stride));
  Value rr = r;
  if (dilation != 1)
    rr = arith::MulIOp::create(b, l, rr, cIdx(b, l, dilation));
  v = arith::AddIOp::create(b, l, v, rr);
  if (pad != 0)
    v = arith::SubIOp::create(b, l, v, cIdx(b, l, pad));
  return v;
}

/// 0 <= ih < h && 0 <= iw < w.
static Value inBounds(OpBuilder &b, Location l, Value ih, Value iw, Value h,
                      Value w) {
  Value zero = cIdx(b, l, 0);
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, l, p, x, y);
  };
  Value c = arith::AndIOp::create(b, l, cmp(arith::CmpIPredicate::sge, ih, zero),
                                  cmp(arith::CmpIPredicate::slt, ih, h));
  c = arith::AndIOp::create(b, l, c, cmp(arith::CmpIPredicate::sge, iw, zero));
  return arith::AndIOp::create(b, l, c, cmp(arith::CmpIPredicate::slt, iw, w));
}

/// `cond ? buf[idx] : fallback`, loading only when cond holds.
static Value guardedLoad(OpBuilder &b, Location l, Value cond, Value buf,
                         ValueRange idx, Value fallback) {
  auto ifOp = scf::IfOp::create(
      b, l, cond,
      [&](OpBuilder &b, Location l) {
        Value v = tir::LoadOp::create(b, l, buf, idx);
        scf::YieldOp::create(b, l, v);
      },
      [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, fallback); });
  return ifOp.getResult(0);
}

//===----------------------------------------------------------------------===//
// attention
//===----------------------------------------------------------------------===//

static LogicalResult legalizeAttention(Operation *op0, LegalizeContext &ctx) {
  auto op = cast<AttentionOp>(op0);
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue(),
        mask = op.getMask();
  if (failed(checkRank(op, q, 4, "query")) ||
      failed(checkRank(op, k, 4, "key")) ||
      failed(checkRank(op, v, 4, "value")) ||
      failed(checkRank(op, op.getResult(), 4, "result")))
    return failure();
  auto qT = cast<RelaxTensorType>(q.getType());
  auto kT = cast<RelaxTensorType>(k.getType());
  Type dtype = qT.getDtype();
  if (!isa<FloatType>(dtype))
    // unreachable: the relax.attention verifier requires a float query.
    return op.emitOpError("cannot be legalized: attention needs a float "
                          "dtype, got ")
           << dtype;
  // Narrow floats accumulate in f32.
  Type acc = dtype.getIntOrFloatBitWidth() < 32 ? Type(Float32Type::get(
                                                      op.getContext()))
                                                : dtype;
  const SymShape &qs = qT.getShape();
  SymShape scoreShape({qs.getDim(0), qs.getDim(2), qs.getDim(1),
                       kT.getShape().getDim(1)});
  {
    // Query head h reads kv head h floordiv (hq floordiv hkv): only sound
    // when hkv divides hq, which must be known here (a runtime mismatch
    // would read out of bounds).
    const sym::Expr &hq = qs.getDim(2), &hkv = kT.getShape().getDim(2);
    auto cq = hq.getConstant(), ckv = hkv.getConstant();
    bool divides = (cq && ckv && *ckv > 0 && *cq % *ckv == 0) || hq == hkv ||
                   defaultSymContext().provablyEqual(hq, hkv);
    if (!divides)
      return op.emitOpError("cannot be legalized: the number of query heads ")
             << "must be a known multiple of the number of key/value heads";
  }
  Type maskDtype;
  if (mask) {
    auto mT = dyn_cast<RelaxTensorType>(mask.getType());
    if (!mT || !mT.getShape().isFullyKnown())
      return op.emitOpError("cannot be legalized: mask has type ")
             << mask.getType()
             << "; every dim must be known (refine it with relax.match_cast)";
    if (!canBroadcast(mT.getShape(), scoreShape))
      return op.emitOpError("cannot be legalized: mask shape ")
             << mT.getShape().str() << " does not provably broadcast to "
             << scoreShape.str();
    maskDtype = mT.getDtype();
    if (!isa<FloatType>(maskDtype) && !maskDtype.isInteger(1))
      return op.emitOpError("cannot be legalized: mask must be boolean (i1) "
                            "or float, got ")
             << maskDtype;
  }
  std::optional<double> scaleAttr;
  if (auto s = op.getScaleAttr())
    scaleAttr = s.getValueAsDouble();
  bool causal = op.getCausal();
  const SymShape &maskShape =
      mask ? cast<RelaxTensorType>(mask.getType()).getShape() : SymShape();
  const SymShape &vs = cast<RelaxTensorType>(v.getType()).getShape();

  return ctx.replaceWithCallTIR(
      op, "attention", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location l, ValueRange in, ValueRange out) {
        MLIRContext *mctx = b.getContext();
        // Without a mask, the hint lets the GPU schedule build the
        // flash-attention kernel (tir::flashAttention) for this program.
        if (!mask) {
          SmallVector<NamedAttribute> hint{
              b.getNamedAttr("causal", b.getBoolAttr(causal))};
          if (scaleAttr)
            hint.push_back(
                b.getNamedAttr("scale", b.getF64FloatAttr(*scaleAttr)));
          b.getBlock()->getParentOp()->setAttr(tir::kAttentionAttrName,
                                               b.getDictionaryAttr(hint));
        }
        Value Q = in[0], K = in[1], V = in[2], M = mask ? in[3] : Value(),
              O = out[0];
        Value nb = dimOf(b, l, q.getType(), 0), s = dimOf(b, l, q.getType(), 1),
              hq = dimOf(b, l, q.getType(), 2),
              d = dimOf(b, l, q.getType(), 3),
              skv = dimOf(b, l, k.getType(), 1),
              hkv = dimOf(b, l, k.getType(), 2),
              dv = dimOf(b, l, v.getType(), 3);
        Value c0 = cIdx(b, l, 0), c1 = cIdx(b, l, 1), c2 = cIdx(b, l, 2);
        Value group = arith::DivUIOp::create(b, l, hq, hkv);
        Value scale;
        if (scaleAttr) {
          scale = createScalarConstant(b, l, acc, *scaleAttr);
        } else if (auto dc = qs.getDim(3).getConstant()) {
          scale = createScalarConstant(b, l, acc, 1.0 / std::sqrt(double(*dc)));
        } else {
          Value df = indexToFloat(b, l, d, acc);
          scale = arith::DivFOp::create(b, l, createScalarConstant(b, l, acc, 1.0),
                                        math::SqrtOp::create(b, l, df));
        }
        Value zero = createScalarConstant(b, l, acc, 0.0);
        Value negInf = arith::ConstantOp::create(
            b, l,
            b.getFloatAttr(acc, APFloat::getInf(cast<FloatType>(acc)
                                                    .getFloatSemantics(),
                                                /*Negative=*/true)));
        Value falseV = arith::ConstantIntOp::create(b, l, 0, 1);
        Value trueV = arith::ConstantIntOp::create(b, l, 1, 1);
        auto ld = [&](OpBuilder &b, Location l, Value buf, ValueRange idx) {
          return tir::LoadOp::create(b, l, buf, idx).getResult();
        };
        auto st = [&](OpBuilder &b, Location l, Value x, Value buf,
                      ValueRange idx) {
          tir::StoreOp::create(b, l, x, buf, idx);
        };
        auto ifThen = [&](OpBuilder &b, Location l, Value cond,
                          function_ref<void(OpBuilder &, Location)> then) {
          scf::IfOp::create(b, l, cond, [&](OpBuilder &b, Location l) {
            then(b, l);
            scf::YieldOp::create(b, l);
          });
        };
        auto serial = [&](OpBuilder &b, Location l, Value lb, Value ub,
                          function_ref<void(OpBuilder &, Location, Value)>
                              body) {
          tir::ForOp::create(b, l, lb, ub, c1, tir::LoopKind::serial, body);
        };

        // One parallel loop over every (batch, head, query row): batch-1
        // decoding with a single row still has a thread per head, and the
        // GPU schedule gets one flat spatial loop to bind.
        Value rows = arith::MulIOp::create(
            b, l, arith::MulIOp::create(b, l, nb, hq), s);
        tir::ForOp::create(
            b, l, c0, rows, c1, tir::LoopKind::parallel,
            [&](OpBuilder &b, Location l, Value r) {
              Value i = arith::RemUIOp::create(b, l, r, s);
              Value bh = arith::DivUIOp::create(b, l, r, s);
              Value h = arith::RemUIOp::create(b, l, bh, hq);
              Value bi = arith::DivUIOp::create(b, l, bh, hq);
              Value kvh = arith::DivUIOp::create(b, l, h, group);
              // The row's whole state, O(dv): the running max m, the
              // running sum l of exp(x - m), a dot-product accumulator, and
              // the weighted sum of values scaled by exp(-m).
              Value accBuf =
                  tir::AllocOp::create(
                      b, l,
                      tir::BufferType::get(mctx, SymShape(ArrayRef<sym::Expr>{vs.getDim(3)}), acc,
                                           tir::MemoryScope::local))
                      .getResult();
              Value stat =
                  tir::AllocOp::create(
                      b, l,
                      tir::BufferType::get(mctx, SymShape(ArrayRef<sym::Expr>{sym::Expr::constant(3)}), acc,
                                           tir::MemoryScope::local))
                      .getResult();
              // Whether any key survived causal and the boolean mask.
              Value seenBuf =
                  tir::AllocOp::create(
                      b, l,
                      tir::BufferType::get(mctx, SymShape(ArrayRef<sym::Expr>{sym::Expr::constant(1)}),
                                           b.getI1Type(),
                                           tir::MemoryScope::local))
                      .getResult();
              st(b, l, negInf, stat, c0);
              st(b, l, zero, stat, c1);
              st(b, l, falseV, seenBuf, c0);
              serial(b, l, c0, dv, [&](OpBuilder &b, Location l, Value e) {
                st(b, l, zero, accBuf, e);
              });

              // Causal, bottom-right aligned: key j is visible from query i
              // when j <= i + skv - s, so the keys end at
              // max(0, i + skv + 1 - s) (never above skv as i < s).
              Value end = skv;
              if (causal) {
                Value a = arith::AddIOp::create(
                    b, l, arith::AddIOp::create(b, l, i, skv), c1);
                Value pos = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ugt, a, s);
                end = arith::SelectOp::create(
                    b, l, pos, arith::SubIOp::create(b, l, a, s), c0);
              }

              auto visitKey = [&](OpBuilder &b, Location l, Value j) {
                st(b, l, trueV, seenBuf, c0);
                // x = (q_i . k_j) * scale [+ mask]
                st(b, l, zero, stat, c2);
                serial(b, l, c0, d, [&](OpBuilder &b, Location l, Value e) {
                  Value qv = ld(b, l, Q, {bi, i, h, e});
                  Value kv = ld(b, l, K, {bi, j, kvh, e});
                  Value prod = arith::MulFOp::create(
                      b, l, castScalar(b, l, qv, acc),
                      castScalar(b, l, kv, acc));
                  // reassoc: the sum may be split into partial sums,
                  // which lets LLVM vectorize this loop (a strict
                  // left-to-right chain of adds runs at one add per add
                  // latency: a third of a decode step at 1024 keys).
                  st(b, l,
                     arith::AddFOp::create(b, l, ld(b, l, stat, c2), prod,
                                           arith::FastMathFlags::reassoc),
                     stat, c2);
                });
                Value x =
                    arith::MulFOp::create(b, l, ld(b, l, stat, c2), scale);
                if (M && !maskDtype.isInteger(1)) {
                  SmallVector<Value> idx =
                      *broadcastIndices(b, l, maskShape, scoreShape,
                                        ValueRange{bi, h, i, j});
                  x = arith::AddFOp::create(
                      b, l, x, castScalar(b, l, ld(b, l, M, idx), acc));
                }
                // A score of -inf adds exp(-inf - m) = 0; skipping it also
                // avoids exp(-inf - (-inf)) = NaN while m is still -inf.
                Value finite = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::UNE, x, negInf);
                ifThen(b, l, finite, [&](OpBuilder &b, Location l) {
                  // A new maximum rescales l and the accumulator by
                  // exp(m_old - m_new) (0 for the first finite score).
                  Value m = ld(b, l, stat, c0);
                  Value grows = arith::CmpFOp::create(
                      b, l, arith::CmpFPredicate::OGT, x, m);
                  ifThen(b, l, grows, [&](OpBuilder &b, Location l) {
                    Value alpha = math::ExpOp::create(
                        b, l, arith::SubFOp::create(b, l, m, x));
                    st(b, l,
                       arith::MulFOp::create(b, l, ld(b, l, stat, c1), alpha),
                       stat, c1);
                    serial(b, l, c0, dv,
                           [&](OpBuilder &b, Location l, Value e) {
                             st(b, l,
                                arith::MulFOp::create(
                                    b, l, ld(b, l, accBuf, e), alpha),
                                accBuf, e);
                           });
                    st(b, l, x, stat, c0);
                  });
                  Value p = math::ExpOp::create(
                      b, l, arith::SubFOp::create(b, l, x, ld(b, l, stat, c0)));
                  st(b, l, arith::AddFOp::create(b, l, ld(b, l, stat, c1), p),
                     stat, c1);
                  serial(b, l, c0, dv, [&](OpBuilder &b, Location l, Value e) {
                    Value vv = castScalar(b, l, ld(b, l, V, {bi, j, kvh, e}),
                                          acc);
                    st(b, l,
                       arith::AddFOp::create(
                           b, l, ld(b, l, accBuf, e),
                           arith::MulFOp::create(b, l, p, vv)),
                       accBuf, e);
                  });
                });
              };
              serial(b, l, c0, end, [&](OpBuilder &b, Location l, Value j) {
                if (M && maskDtype.isInteger(1)) {
                  SmallVector<Value> idx =
                      *broadcastIndices(b, l, maskShape, scoreShape,
                                        ValueRange{bi, h, i, j});
                  ifThen(b, l, ld(b, l, M, idx), [&](OpBuilder &b, Location l) {
                    visitKey(b, l, j);
                  });
                } else {
                  visitKey(b, l, j);
                }
              });

              // Every key masked (causal and boolean masks only): every
              // score is the same lowest value, so softmax is uniform over
              // all skv keys, as in the reference semantics.
              Value none = arith::XOrIOp::create(b, l, ld(b, l, seenBuf, c0),
                                                 trueV);
              ifThen(b, l, none, [&](OpBuilder &b, Location l) {
                serial(b, l, c0, skv, [&](OpBuilder &b, Location l, Value j) {
                  serial(b, l, c0, dv, [&](OpBuilder &b, Location l, Value e) {
                    Value vv = castScalar(b, l, ld(b, l, V, {bi, j, kvh, e}),
                                          acc);
                    st(b, l,
                       arith::AddFOp::create(b, l, ld(b, l, accBuf, e), vv),
                       accBuf, e);
                  });
                });
                st(b, l, indexToFloat(b, l, skv, acc), stat, c1);
              });

              // out = acc / l: a row whose every visible score is -inf has
              // l = 0 and gives NaN, as numpy's softmax does.
              Value sum = ld(b, l, stat, c1);
              serial(b, l, c0, dv, [&](OpBuilder &b, Location l, Value e) {
                Value y =
                    arith::DivFOp::create(b, l, ld(b, l, accBuf, e), sum);
                st(b, l, castScalar(b, l, y, dtype), O, {bi, i, h, e});
              });
            });
      },
      tir::OpPattern::Opaque, op->getAttrDictionary());
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

/// What conv2d and conv2d_transpose check before building their loops:
/// rank-4 operands and result with known dims, a float dtype and positive
/// groups.
static FailureOr<Type> checkConvolution(Operation *op, int64_t groups) {
  Value x = op->getOperand(0), wt = op->getOperand(1);
  if (failed(checkRank(op, x, 4, "input")) ||
      failed(checkRank(op, wt, 4, "weight")) ||
      failed(checkRank(op, op->getResult(0), 4, "result")))
    return failure();
  Type dtype = cast<RelaxTensorType>(x.getType()).getDtype();
  if (!isa<FloatType>(dtype))
    return op->emitOpError("cannot be legalized: only float ")
           << shortOpName(op) << " is supported, got " << dtype;
  if (groups <= 0)
    // unreachable: the conv2d and conv2d_transpose type inference requires
    // positive groups.
    return op->emitOpError("cannot be legalized: groups must be positive");
  return dtype;
}

static LogicalResult legalizeConv2D(Conv2DOp op, LegalizeContext &ctx) {
  Value x = op.getInput(), wt = op.getWeight();
  Window win = readWindow(op.getStrides(), op.getDilation(), op.getPadding());
  int64_t groups = op.getGroups();
  FailureOr<Type> dtypeOr = checkConvolution(op, groups);
  if (failed(dtypeOr))
    return failure();
  Type dtype = *dtypeOr;
  Type resultType = op.getResult().getType();

  return ctx.replaceWithCallTIR(
      op, "conv2d_nchw", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location l, ValueRange in, ValueRange out) {
        Value X = in[0], W = in[1], Y = out[0];
        Value n = dimOf(b, l, resultType, 0), o = dimOf(b, l, resultType, 1),
              oh = dimOf(b, l, resultType, 2), ow = dimOf(b, l, resultType, 3);
        Value h = dimOf(b, l, x.getType(), 2), w = dimOf(b, l, x.getType(), 3);
        Value cpg = dimOf(b, l, wt.getType(), 1),
              kh = dimOf(b, l, wt.getType(), 2),
              kw = dimOf(b, l, wt.getType(), 3);
        Value opg;
        if (groups != 1)
          opg = arith::DivUIOp::create(b, l, o, cIdx(b, l, groups));
        Value zero = createScalarConstant(b, l, dtype, 0.0);
        buildBlockNest(
            b, l, "conv2d_nchw", {n, o, oh, ow, cpg, kh, kw}, iterKinds(4, 3),
            [&](OpBuilder &b, Location l, ValueRange iv) {
              tir::StoreOp::create(b, l, zero, Y, iv.take_front(4));
            },
            [&](OpBuilder &b, Location l, ValueRange iv) {
              Value ic = iv[4];
              if (groups != 1) {
                Value g = arith::DivUIOp::create(b, l, iv[1], opg);
                ic = arith::AddIOp::create(
                    b, l, arith::MulIOp::create(b, l, g, cpg), iv[4]);
              }
              Value ih = windowCoord(b, l, iv[2], iv[5], win.stride[0],
                                     win.dilation[0], win.padBegin[0]);
              Value iw = windowCoord(b, l, iv[3], iv[6], win.stride[1],
                                     win.dilation[1], win.padBegin[1]);
              SmallVector<Value> xi{iv[0], ic, ih, iw};
              Value xv;
              if (win.hasPadding())
                xv = guardedLoad(b, l, inBounds(b, l, ih, iw, h, w), X, xi,
                                 zero);
              else
                xv = tir::LoadOp::create(b, l, X, xi);
              Value wv = tir::LoadOp::create(
                  b, l, W, ValueRange{iv[1], iv[4], iv[5], iv[6]});
              Value cur = tir::LoadOp::create(b, l, Y, iv.take_front(4));
              Value r = arith::AddFOp::create(
                  b, l, cur, arith::MulFOp::create(b, l, xv, wv));
              tir::StoreOp::create(b, l, r, Y, iv.take_front(4));
            });
      },
      tir::OpPattern::OutEwiseFusable, op->getAttrDictionary());
}

//===----------------------------------------------------------------------===//
// conv2d_transpose
//===----------------------------------------------------------------------===//

/// The input row read by output row `y` through kernel row `r` of a
/// transposed convolution: `t = y + pad - r * dilation` must be a multiple
/// of the stride, and the row is `t / stride`. Returns the row and the
/// divisibility condition (null for stride 1).
static std::pair<Value, Value> transposedCoord(OpBuilder &b, Location l,
                                               Value y, Value r, int64_t stride,
                                               int64_t dilation, int64_t pad) {
  Value t = y;
  if (pad != 0)
    t = arith::AddIOp::create(b, l, t, cIdx(b, l, pad));
  Value rr = r;
  if (dilation != 1)
    rr = arith::MulIOp::create(b, l, rr, cIdx(b, l, dilation));
  t = arith::SubIOp::create(b, l, t, rr);
  if (stride == 1)
    return {t, Value()};
  Value s = cIdx(b, l, stride);
  Value divisible =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                            arith::RemSIOp::create(b, l, t, s), cIdx(b, l, 0));
  return {arith::DivSIOp::create(b, l, t, s), divisible};
}

static LogicalResult legalizeConv2DTranspose(Conv2DTransposeOp op,
                                             LegalizeContext &ctx) {
  Value x = op.getInput(), wt = op.getWeight();
  Window win = readWindow(op.getStrides(), op.getDilation(), op.getPadding());
  int64_t groups = op.getGroups();
  FailureOr<Type> dtypeOr = checkConvolution(op, groups);
  if (failed(dtypeOr))
    return failure();
  Type dtype = *dtypeOr;
  Type resultType = op.getResult().getType();

  return ctx.replaceWithCallTIR(
      op, "conv2d_transpose_nchw", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location l, ValueRange in, ValueRange out) {
        Value X = in[0], W = in[1], Y = out[0];
        Value n = dimOf(b, l, resultType, 0), o = dimOf(b, l, resultType, 1),
              oh = dimOf(b, l, resultType, 2), ow = dimOf(b, l, resultType, 3);
        Value c = dimOf(b, l, x.getType(), 1), h = dimOf(b, l, x.getType(), 2),
              w = dimOf(b, l, x.getType(), 3);
        Value opg = dimOf(b, l, wt.getType(), 1),
              kh = dimOf(b, l, wt.getType(), 2),
              kw = dimOf(b, l, wt.getType(), 3);
        Value cpg = c;
        if (groups != 1)
          cpg = arith::DivUIOp::create(b, l, c, cIdx(b, l, groups));
        Value zero = createScalarConstant(b, l, dtype, 0.0);
        // Gather form: each output element sums the input positions whose
        // scattered kernel window covers it.
        buildBlockNest(
            b, l, "conv2d_transpose_nchw", {n, o, oh, ow, cpg, kh, kw},
            iterKinds(4, 3),
            [&](OpBuilder &b, Location l, ValueRange iv) {
              tir::StoreOp::create(b, l, zero, Y, iv.take_front(4));
            },
            [&](OpBuilder &b, Location l, ValueRange iv) {
              Value ic = iv[4], oc = iv[1];
              if (groups != 1) {
                Value g = arith::DivUIOp::create(b, l, iv[1], opg);
                ic = arith::AddIOp::create(
                    b, l, arith::MulIOp::create(b, l, g, cpg), iv[4]);
                oc = arith::RemUIOp::create(b, l, iv[1], opg);
              }
              auto [ih, hOk] =
                  transposedCoord(b, l, iv[2], iv[5], win.stride[0],
                                  win.dilation[0], win.padBegin[0]);
              auto [iw, wOk] =
                  transposedCoord(b, l, iv[3], iv[6], win.stride[1],
                                  win.dilation[1], win.padBegin[1]);
              Value cond = inBounds(b, l, ih, iw, h, w);
              for (Value ok : {hOk, wOk})
                if (ok)
                  cond = arith::AndIOp::create(b, l, cond, ok);
              Value xv = guardedLoad(b, l, cond, X,
                                     ValueRange{iv[0], ic, ih, iw}, zero);
              Value wv = tir::LoadOp::create(b, l, W,
                                             ValueRange{ic, oc, iv[5], iv[6]});
              Value cur = tir::LoadOp::create(b, l, Y, iv.take_front(4));
              Value r = arith::AddFOp::create(
                  b, l, cur, arith::MulFOp::create(b, l, xv, wv));
              tir::StoreOp::create(b, l, r, Y, iv.take_front(4));
            });
      },
      tir::OpPattern::OutEwiseFusable, op->getAttrDictionary());
}

//===----------------------------------------------------------------------===//
// max_pool2d / avg_pool2d
//===----------------------------------------------------------------------===//

/// Number of r in [0, k) with 0 <= base + r * dil < size.
static Value validCount(OpBuilder &b, Location l, Value base, Value k,
                        int64_t dil, Value size) {
  Value zero = cIdx(b, l, 0), one = cIdx(b, l, 1), d = cIdx(b, l, dil);
  Value negBase = arith::SubIOp::create(b, l, zero, base);
  Value lo = arith::MaxSIOp::create(
      b, l, zero, arith::CeilDivSIOp::create(b, l, negBase, d));
  Value last = arith::SubIOp::create(
      b, l, arith::SubIOp::create(b, l, size, one), base);
  Value hi = arith::MinSIOp::create(b, l, arith::SubIOp::create(b, l, k, one),
                                    arith::FloorDivSIOp::create(b, l, last, d));
  Value cnt = arith::AddIOp::create(b, l, arith::SubIOp::create(b, l, hi, lo),
                                    one);
  return arith::MaxSIOp::create(b, l, zero, cnt);
}

template <typename PoolOp>
static LogicalResult legalizePool2D(PoolOp op, LegalizeContext &ctx,
                                    bool isMax) {
  Value x = op->getOperand(0);
  if (failed(checkRank(op, x, 4, "input")) ||
      failed(checkRank(op, op->getResult(0), 4, "result")))
    return failure();
  Type dtype = cast<RelaxTensorType>(x.getType()).getDtype();
  if (!isa<FloatType>(dtype))
    return op->emitOpError("cannot be legalized: only float pooling is "
                           "supported, got ")
           << dtype;
  Window win = readWindow(op.getStrides(), op.getDilation(), op.getPadding());
  // One or two positive sizes (checked by type inference, as the window).
  ArrayRef<int64_t> ps = op.getPoolSize();
  int64_t k[2] = {ps[0], ps.size() == 2 ? ps[1] : ps[0]};
  // With ceil_mode a last window may run past the input even unpadded.
  bool guard = win.hasPadding() || op.getCeilMode();
  Type resultType = op->getResult(0).getType();
  std::string name = isMax ? "max_pool2d" : "avg_pool2d";

  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location l, ValueRange in, ValueRange out) {
        Value X = in[0], Y = out[0];
        Value n = dimOf(b, l, resultType, 0), c = dimOf(b, l, resultType, 1),
              oh = dimOf(b, l, resultType, 2), ow = dimOf(b, l, resultType, 3);
        Value h = dimOf(b, l, x.getType(), 2), w = dimOf(b, l, x.getType(), 3);
        Value kh = cIdx(b, l, k[0]), kw = cIdx(b, l, k[1]);
        Value initV = isMax ? lowestValue(b, l, dtype)
                            : createScalarConstant(b, l, dtype, 0.0);
        buildBlockNest(
            b, l, isMax ? name : name + "_sum", {n, c, oh, ow, kh, kw},
            iterKinds(4, 2),
            [&](OpBuilder &b, Location l, ValueRange iv) {
              tir::StoreOp::create(b, l, initV, Y, iv.take_front(4));
            },
            [&](OpBuilder &b, Location l, ValueRange iv) {
              Value ih = windowCoord(b, l, iv[2], iv[4], win.stride[0],
                                     win.dilation[0], win.padBegin[0]);
              Value iw = windowCoord(b, l, iv[3], iv[5], win.stride[1],
                                     win.dilation[1], win.padBegin[1]);
              SmallVector<Value> xi{iv[0], iv[1], ih, iw};
              Value xv = guard ? guardedLoad(b, l, inBounds(b, l, ih, iw, h, w),
                                             X, xi, initV)
                               : Value(tir::LoadOp::create(b, l, X, xi));
              Value cur = tir::LoadOp::create(b, l, Y, iv.take_front(4));
              Value r = isMax ? Value(arith::MaximumFOp::create(b, l, cur, xv))
                              : Value(arith::AddFOp::create(b, l, cur, xv));
              tir::StoreOp::create(b, l, r, Y, iv.take_front(4));
            });
        if (isMax)
          return;
        // Divide by the number of window positions inside the input.
        buildBlockNest(
            b, l, name + "_div", {n, c, oh, ow}, iterKinds(4, 0), nullptr,
            [&](OpBuilder &b, Location l, ValueRange iv) {
              Value zero = cIdx(b, l, 0);
              Value bh = windowCoord(b, l, iv[2], zero, win.stride[0], 1,
                                     win.padBegin[0]);
              Value bw = windowCoord(b, l, iv[3], zero, win.stride[1], 1,
                                     win.padBegin[1]);
              Value cnt = arith::MulIOp::create(
                  b, l, validCount(b, l, bh, kh, win.dilation[0], h),
                  validCount(b, l, bw, kw, win.dilation[1], w));
              cnt = arith::MaxSIOp::create(b, l, cnt, cIdx(b, l, 1));
              Value cur = tir::LoadOp::create(b, l, Y, iv);
              tir::StoreOp::create(
                  b, l,
                  arith::DivFOp::create(b, l, cur,
                                        indexToFloat(b, l, cnt, dtype)),
                  Y, iv);
            });
      },
      tir::OpPattern::OutEwiseFusable, op->getAttrDictionary());
}

//===----------------------------------------------------------------------===//
// adaptive_avg_pool2d / global_avg_pool2d
//===----------------------------------------------------------------------===//

static LogicalResult legalizeAdaptivePool(Operation *op, LegalizeContext &ctx,
                                          StringRef name,
                                          tir::OpPattern opPattern) {
  Value x = op->getOperand(0);
  if (failed(checkRank(op, x, 4, "input")) ||
      failed(checkRank(op, op->getResult(0), 4, "result")))
    return failure();
  Type dtype = cast<RelaxTensorType>(x.getType()).getDtype();
  if (!isa<FloatType>(dtype))
    return op->emitOpError("cannot be legalized: only float pooling is "
                           "supported, got ")
           << dtype;
  Type resultType = op->getResult(0).getType();

  return ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location l, ValueRange in, ValueRange out) {
        Value X = in[0], Y = out[0];
        Value n = dimOf(b, l, resultType, 0), c = dimOf(b, l, resultType, 1),
              oh = dimOf(b, l, resultType, 2), ow = dimOf(b, l, resultType, 3);
        Value h = dimOf(b, l, x.getType(), 2), w = dimOf(b, l, x.getType(), 3);
        Value zero = createScalarConstant(b, l, dtype, 0.0);
        // Window [floor(y * size / osize), ceil((y + 1) * size / osize)).
        auto start = [](OpBuilder &b, Location l, Value y, Value size,
                        Value osize) -> Value {
          return arith::FloorDivSIOp::create(
              b, l, arith::MulIOp::create(b, l, y, size), osize);
        };
        auto end = [](OpBuilder &b, Location l, Value y, Value size,
                      Value osize) -> Value {
          Value y1 = arith::AddIOp::create(b, l, y, cIdx(b, l, 1));
          return arith::CeilDivSIOp::create(
              b, l, arith::MulIOp::create(b, l, y1, size), osize);
        };
        SmallVector<tir::LoopKind> kinds(4, tir::LoopKind::serial);
        kinds[0] = tir::LoopKind::parallel;
        tir::buildLoopNest(
            b, l, ValueRange{n, c, oh, ow}, kinds,
            [&](OpBuilder &b, Location l, ValueRange ov) {
              Value eh = arith::SubIOp::create(b, l, end(b, l, ov[2], h, oh),
                                               start(b, l, ov[2], h, oh));
              Value ew = arith::SubIOp::create(b, l, end(b, l, ov[3], w, ow),
                                               start(b, l, ov[3], w, ow));
              tir::buildLoopNest(
                  b, l, ValueRange{eh, ew}, {},
                  [&](OpBuilder &b, Location l, ValueRange rv) {
                    SmallVector<Value> binds(ov);
                    binds.append(rv.begin(), rv.end());
                    tir::BlockOp::create(
                        b, l, (name + "_sum").str(), binds, iterKinds(4, 2),
                        [&](OpBuilder &b, Location l, ValueRange iv) {
                          tir::StoreOp::create(b, l, zero, Y,
                                               iv.take_front(4));
                        },
                        [&](OpBuilder &b, Location l, ValueRange iv) {
                          Value ih = arith::AddIOp::create(
                              b, l, start(b, l, iv[2], h, oh), iv[4]);
                          Value iw = arith::AddIOp::create(
                              b, l, start(b, l, iv[3], w, ow), iv[5]);
                          Value xv = tir::LoadOp::create(
                              b, l, X, ValueRange{iv[0], iv[1], ih, iw});
                          Value cur =
                              tir::LoadOp::create(b, l, Y, iv.take_front(4));
                          tir::StoreOp::create(
                              b, l, arith::AddFOp::create(b, l, cur, xv), Y,
                              iv.take_front(4));
                        });
                  });
            });
        buildBlockNest(
            b, l, (name + "_div").str(), {n, c, oh, ow}, iterKinds(4, 0),
            nullptr, [&](OpBuilder &b, Location l, ValueRange iv) {
              Value eh = arith::SubIOp::create(b, l, end(b, l, iv[2], h, oh),
                                               start(b, l, iv[2], h, oh));
              Value ew = arith::SubIOp::create(b, l, end(b, l, iv[3], w, ow),
                                               start(b, l, iv[3], w, ow));
              Value cnt = arith::MulIOp::create(b, l, eh, ew);
              Value cur = tir::LoadOp::create(b, l, Y, iv);
              tir::StoreOp::create(
                  b, l,
                  arith::DivFOp::create(b, l, cur,
                                        indexToFloat(b, l, cnt, dtype)),
                  Y, iv);
            });
      },
      opPattern, op->getAttrDictionary());
}

void relax::addNNLegalizers(LegalizerTable &table) {
  registerLegalizer<AttentionOp>(table, legalizeAttention);
  registerLegalizer<Conv2DOp>(table, legalizeConv2D);
  registerLegalizer<Conv2DTransposeOp>(table, legalizeConv2DTranspose);
  registerLegalizer<MaxPool2DOp>(
      table, [](MaxPool2DOp op, LegalizeContext &ctx) {
        return legalizePool2D(op, ctx, /*isMax=*/true);
      });
  registerLegalizer<AvgPool2DOp>(
      table, [](AvgPool2DOp op, LegalizeContext &ctx) {
        return legalizePool2D(op, ctx, /*isMax=*/false);
      });
  registerLegalizer<AdaptiveAvgPool2DOp>(
      table, [](Operation *op, LegalizeContext &ctx) {
        return legalizeAdaptivePool(op, ctx, "adaptive_avg_pool2d",
                                    tir::OpPattern::OutEwiseFusable);
      });
  registerLegalizer<GlobalAvgPool2DOp>(
      table, [](Operation *op, LegalizeContext &ctx) {
        return legalizeAdaptivePool(op, ctx, "global_avg_pool2d",
                                    tir::OpPattern::Reduction);
      });
}
