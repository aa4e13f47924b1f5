//===- DnnlGemm.cpp - GEMMs with a constant B on oneDNN -------------------===//
//
// GEMMs with a constant B: oneDNN, its weights packed once. The `_packed`
// entry points (BlasGemm.cpp) validate their operands and reach
// multiplyPacked here for f32, as do 1x1 convolutions with channels last
// (Convolution.cpp): B is multiplied as it is stored until it has been
// multiplied by kPackAfterRows rows, then through a copy reordered once
// into oneDNN's blocked layout, with the bias, the activation and the
// residual as post-ops where the matmul is brgemm; where it is gemm-based
// (below AVX-512), packed B runs as a 1x1 convolution, whose jit kernel
// applies the same post-ops.
// relax_rt_blas_release_constants forgets every packing of a module's
// constants (the fused convolutions' too).
//
//===----------------------------------------------------------------------===//

#include "BlasSupport.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

using namespace relax::runtime::blas;

#ifdef RELAX_RUNTIME_HAS_DNNL
namespace {

/// A module constant B (the weights of a linear layer), reordered once into
/// the layout oneDNN's matmul kernels read, with one primitive per shape of
/// A and C (the rows follow symbolic dims). Keyed by B's address and view:
/// constants stay where they are while their module is loaded, and
/// relax_rt_blas_release_constants forgets them when it is not.
struct PackedKey {
  const float *data;
  int64_t k, n, rowStride, colStride;
  bool operator<(const PackedKey &o) const {
    return std::tie(data, k, n, rowStride, colStride) <
           std::tie(o.data, o.k, o.n, o.rowStride, o.colStride);
  }
};
/// How one product shape runs: oneDNN's matmul on the packed weights with
/// the epilogue as post-ops where the matmul is brgemm (AVX-512 and up);
/// otherwise (oneDNN 2.6's gemm-based matmul, all it has below AVX-512)
/// dnnl_sgemm, then the bias, an eltwise primitive for the activation and
/// the residual. That matmul applies post-ops in reference code and is
/// dnnl_sgemm on B as it is: oneDNN 2.6's AVX2 sgemm takes twice its time
/// when B's rows are 64-byte aligned and a multiple of 4 KiB apart (128 x
/// 768 by 768 x 3072, a BERT-base FFN: 12 against 6 ms, measured on a Zen 4
/// capped at AVX2, 2026-12-06), so such a B is copied once with its rows
/// 64 bytes further apart, as the matmul would have packed it.
///
/// Where the matmul is gemm-based, a product whose B has been packed
/// (past kPackAfterRows) runs instead as a 1x1 convolution over C's rows
/// as pixels, channels last (convPrimitive): oneDNN 2.6 has a jit kernel
/// for it at AVX2 ("jit_1x1:avx2") that reads weights packed once and
/// applies the bias, GELU and the residual to each block of C in
/// registers. One Zen 4 core capped at AVX2, against dnnl_sgemm and the
/// epilogue passes (2026-12-07, docs/perf.md): 0.83-0.98 of the time on
/// the bench/peers models' products of 64 and 128 rows.
struct PackedPrimitive {
  dnnl::matmul matmul;              // null: C = A * B by dnnl_sgemm
  dnnl::convolution_forward conv;   // or by a 1x1 convolution on packed B
  dnnl::eltwise_forward activation; // with sgemm: the activation, if any
  bool viaSgemm = false;
  Matrix<float> b{}; // with sgemm: B or its padded copy
  explicit operator bool() const { return matmul || conv || viaSgemm; }
};
/// (rows, A's row stride, C's row stride, bias, activation, residual and
/// its row stride): what a primitive is made for besides B.
using ProductShape =
    std::tuple<int64_t, int64_t, int64_t, bool, int, bool, int64_t>;
struct PackedWeights {
  dnnl::memory weights;
  std::vector<float> padded; // sgemm's copy of B, if B needed one
  std::map<ProductShape, PackedPrimitive> primitives;
  /// Brgemm on B as it is stored (no weights): made by plainPrimitive; a
  /// null one records that oneDNN has none for the shape.
  std::map<ProductShape, PackedPrimitive> plainPrimitives;
  /// The 1x1 convolutions standing in for a gemm-based matmul (a null one
  /// records that oneDNN has no jit kernel for the shape), and B packed
  /// for them once.
  std::map<ProductShape, PackedPrimitive> convPrimitives;
  dnnl::memory convWeights;
  /// Rows of A multiplied by B as it is stored so far (runsOnPlainB).
  int64_t plainRows = 0;
};

/// Rows of A that a constant B is multiplied by as it is stored before it
/// is packed. Packing (a reorder into oneDNN's blocked layout) costs about
/// four 32-row products on the weights as they are (2048 x 5632, one Zen 4
/// core, 2026-12-07: 42 against 10-14 ms), and saves 5-30% of each product
/// after it (brgemm then need not copy blocks of B per call): the packing
/// is bought once its rent, about 10% of 1024 rows, has been paid. A
/// prompt's prefill (an LLM's first call, 32 rows) thus runs without the
/// 42 ms and without a second copy of the weights; repeated products of
/// the same weights (a served encoder) are packed after a few calls.
constexpr int64_t kPackAfterRows = 1024;

/// kPackAfterRows, or RELAX_PACK_AFTER_ROWS where set (0 packs at first
/// use: the tests of the packed kernels run both ways).
int64_t packAfterRows() {
  static const int64_t rows = [] {
    const char *v = std::getenv("RELAX_PACK_AFTER_ROWS");
    char *end = nullptr;
    long long parsed = v ? std::strtoll(v, &end, 10) : -1;
    return v && *v && !*end && parsed >= 0 ? int64_t(parsed) : kPackAfterRows;
  }();
  return rows;
}

} // namespace

dnnl::engine &relax::runtime::blas::cpuEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

std::mutex relax::runtime::blas::packedMutex;

std::unordered_map<int, dnnl::memory> relax::runtime::blas::withScratchpad(
    const dnnl::primitive &primitive,
    std::unordered_map<int, dnnl::memory> args) {
  static thread_local std::vector<char> scratchpad;
  dnnl::memory::desc desc(*dnnl_primitive_desc_query_md(
      primitive.get_primitive_desc(), dnnl_query_scratchpad_md, 0));
  if (desc.get_size() == 0)
    return args;
  scratchpad.resize(std::max(scratchpad.size(), desc.get_size()));
  args.emplace(DNNL_ARG_SCRATCHPAD,
               dnnl::memory(desc, cpuEngine(), scratchpad.data()));
  return args;
}

namespace {

std::map<PackedKey, std::unique_ptr<PackedWeights>> packedCache;

/// Whether a matmul implementation is oneDNN's gemm-based one ("gemm:jit",
/// "gemm:blas"...), not brgemm.
bool isGemmBased(const dnnl::matmul::primitive_desc &pd) {
  return std::strncmp(pd.impl_info_str(), "gemm:", 5) == 0;
}

dnnl::algorithm eltwiseOf(GemmActivation activation) {
  return activation == GemmActivation::Gelu ? dnnl::algorithm::eltwise_gelu_erf
                                            : dnnl::algorithm::eltwise_relu;
}

/// The cache entry of this view of a constant B, made empty on first use.
/// The caller holds packedMutex.
PackedWeights &entryFor(Matrix<float> b) {
  std::unique_ptr<PackedWeights> &entry =
      packedCache[PackedKey{b.data, b.rows, b.cols, b.rowStride, b.colStride}];
  if (!entry)
    entry = std::make_unique<PackedWeights>();
  return *entry;
}

/// A product C = A * B + epilogue as its primitives see it besides B:
/// A's and C's views, the bias (or none), the activation and the residual
/// (or none) with its row stride.
struct Product {
  Matrix<float> a, c;
  bool bias;
  GemmActivation activation;
  bool residual;
  int64_t residualRowStride;
  ProductShape shape() const {
    return std::make_tuple(a.rows, a.rowStride, c.rowStride, bias,
                           static_cast<int>(activation), residual,
                           residualRowStride);
  }
};

/// A matrix as the pixels of a 1x1 convolution's NHWC tensor: one image,
/// a row per pixel (H = rows, W = 1), a column per channel.
dnnl::memory::desc rowsAsPixels(Matrix<float> m) {
  return dnnl::memory::desc(
      {1, m.cols, m.rows, 1}, dnnl::memory::data_type::f32,
      dnnl::memory::dims{m.rows * m.rowStride, 1, m.rowStride, m.rowStride});
}

/// The post-ops of a product's epilogue but the bias (the primitive's
/// own): the activation, then the residual added from a tensor of
/// `residualDesc`.
dnnl::primitive_attr epilogueAttr(GemmActivation activation, bool residual,
                                  const dnnl::memory::desc &residualDesc) {
  dnnl::post_ops ops;
  if (activation != GemmActivation::None)
    ops.append_eltwise(1.0f, eltwiseOf(activation), 0.0f, 0.0f);
  if (residual)
    ops.append_binary(dnnl::algorithm::binary_add, residualDesc);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  // Pieces of products run at once on the pool's threads: each thread
  // passes its own scratchpad (withScratchpad).
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

/// The run-time arguments of epilogueAttr's epilogue: the bias as a
/// tensor of `biasDesc` and the residual `r` as one of `residualDesc`,
/// whose binary post-op follows the activation's eltwise one when there is
/// one.
void addEpilogueArgs(std::unordered_map<int, dnnl::memory> &args,
                     const GemmEpilogue<float> &epilogue,
                     const dnnl::memory::desc &biasDesc,
                     const dnnl::memory::desc &residualDesc, const float *r) {
  if (epilogue.bias)
    args.emplace(DNNL_ARG_BIAS,
                 dnnl::memory(biasDesc, cpuEngine(),
                              const_cast<float *>(epilogue.bias)));
  if (epilogue.residual)
    args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(
                     epilogue.activation == GemmActivation::None ? 0 : 1) |
                     DNNL_ARG_SRC_1,
                 dnnl::memory(residualDesc, cpuEngine(),
                              const_cast<float *>(r)));
}

/// oneDNN's matmul computing C = A * B + epilogue for B described by
/// `bDesc` (its stored layout, or `any` to let oneDNN choose a packing).
/// The bias and activation are the primitive's bias and an eltwise
/// post-op, the residual a binary post-op over a tensor of C's shape: each
/// applied to a block of C while it is in registers.
dnnl::matmul::primitive_desc matmulDesc(const Product &p,
                                        const dnnl::memory::desc &bDesc) {
  using dnnl::memory;
  memory::desc aDesc({p.a.rows, p.a.cols}, memory::data_type::f32,
                     memory::dims{p.a.rowStride, 1});
  memory::desc cDesc({p.c.rows, p.c.cols}, memory::data_type::f32,
                     memory::dims{p.c.rowStride, 1});
  memory::desc biasDesc({1, p.c.cols}, memory::data_type::f32,
                        memory::format_tag::ab);
  dnnl::primitive_attr attr =
      epilogueAttr(p.activation, p.residual,
                   memory::desc({p.c.rows, p.c.cols}, memory::data_type::f32,
                                memory::dims{p.residualRowStride, 1}));
  return dnnl::matmul::primitive_desc(
      p.bias ? dnnl::matmul::desc(aDesc, bDesc, biasDesc, cDesc)
             : dnnl::matmul::desc(aDesc, bDesc, cDesc),
      attr, cpuEngine());
}

/// Whether a product of `rows` rows by the constant B runs on B as it is
/// stored (plainPrimitive) rather than on a packed copy: while the rows B
/// was multiplied by so far stay under kPackAfterRows. Counts the rows.
bool runsOnPlainB(Matrix<float> b, int64_t rows) {
  std::lock_guard<std::mutex> lock(packedMutex);
  PackedWeights &entry = entryFor(b);
  if (entry.plainRows + rows > packAfterRows())
    return false;
  entry.plainRows += rows;
  return true;
}

/// The primitive `primitives` holds for `shape`, made by `make` on first
/// use; one oneDNN refuses (it throws) is recorded null, so it is asked
/// once. The caller holds packedMutex.
template <typename Make>
const PackedPrimitive &
cachedPrimitive(std::map<ProductShape, PackedPrimitive> &primitives,
                const ProductShape &shape, Make make) {
  auto found = primitives.find(shape);
  if (found == primitives.end()) {
    PackedPrimitive made;
    try {
      made = make();
    } catch (const dnnl::error &) {
    }
    found = primitives.emplace(shape, made).first;
  }
  return found->second;
}

/// The primitive computing C = A * B for this view of a constant B as it is
/// stored, brgemm copying the blocks of B it needs per call; null when
/// oneDNN has no brgemm kernel for it (below AVX-512 its matmul is
/// gemm-based: packedPrimitive's sgemm path then runs it).
PackedPrimitive plainPrimitive(const Product &p, Matrix<float> b,
                               dnnl::memory &weights) {
  using dnnl::memory;
  memory::desc bDesc({b.rows, b.cols}, memory::data_type::f32,
                     memory::dims{b.rowStride, b.colStride});
  std::lock_guard<std::mutex> lock(packedMutex);
  const PackedPrimitive &primitive =
      cachedPrimitive(entryFor(b).plainPrimitives, p.shape(), [&] {
        PackedPrimitive made;
        dnnl::matmul::primitive_desc pd = matmulDesc(p, bDesc);
        if (!isGemmBased(pd))
          made.matmul = dnnl::matmul(pd);
        return made;
      });
  if (primitive)
    weights = memory(bDesc, cpuEngine(), const_cast<float *>(b.data));
  return primitive;
}

/// The primitives computing C = A * B for this view of a constant B,
/// packing B on first use; null when oneDNN has no kernel for these
/// layouts.
PackedPrimitive packedPrimitive(const Product &p, Matrix<float> b,
                                dnnl::memory &weights) {
  using dnnl::memory;
  memory::dims bStrides = {b.rowStride, b.colStride};
  std::lock_guard<std::mutex> lock(packedMutex);
  PackedWeights &entry = entryFor(b);
  ProductShape shape = p.shape();
  auto found = entry.primitives.find(shape);
  if (found != entry.primitives.end()) {
    weights = entry.weights;
    return found->second;
  }
  try {
    memory::desc bAny({b.rows, b.cols}, memory::data_type::f32,
                      memory::format_tag::any);
    memory::desc cDesc({p.c.rows, p.c.cols}, memory::data_type::f32,
                       memory::dims{p.c.rowStride, 1});
    dnnl::matmul::primitive_desc pd = matmulDesc(p, bAny);
    PackedPrimitive made;
    if (isGemmBased(pd)) {
      made.viaSgemm = true;
      if (p.activation != GemmActivation::None)
        made.activation =
            dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(
                dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference,
                                            eltwiseOf(p.activation), cDesc,
                                            0.0f, 0.0f),
                cpuEngine()));
      made.b = b;
      constexpr int64_t kPad = 64 / sizeof(float);
      if (b.colStride == 1 && b.rows > 1 &&
          (b.rowStride * int64_t(sizeof(float))) % 4096 == 0) {
        if (entry.padded.empty()) {
          entry.padded.resize(b.rows * (b.cols + kPad));
          for (int64_t i = 0; i < b.rows; ++i)
            std::copy(b.data + i * b.rowStride,
                      b.data + i * b.rowStride + b.cols,
                      entry.padded.data() + i * (b.cols + kPad));
        }
        made.b = {entry.padded.data(), b.rows, b.cols, b.cols + kPad, 1};
      }
      entry.primitives.emplace(shape, made);
      return made;
    }
    if (!entry.weights) {
      memory::desc bDesc({b.rows, b.cols}, memory::data_type::f32, bStrides);
      memory plain(bDesc, cpuEngine(), const_cast<float *>(b.data));
      memory packed(pd.weights_desc(), cpuEngine());
      dnnl::stream stream(cpuEngine());
      dnnl::reorder(plain, packed).execute(stream, plain, packed);
      stream.wait();
      entry.weights = packed;
    } else if (pd.weights_desc() != entry.weights.get_desc()) {
      // A kernel for these rows that wants another packing: not worth a
      // second copy of the weights.
      return PackedPrimitive();
    }
    made.matmul = dnnl::matmul(pd);
    entry.primitives.emplace(shape, made);
    weights = entry.weights;
    return made;
  } catch (const dnnl::error &) {
    // The entry keeps what it had: packed weights are set only once filled.
    return PackedPrimitive();
  }
}

/// The 1x1 convolution computing C = A * B + epilogue on B packed once
/// (see PackedPrimitive), for a product whose matmul is gemm-based; null
/// when oneDNN picks no jit 1x1 kernel for it (C's or A's rows not dense,
/// or a CPU without one) or wants B packed otherwise than for the shapes
/// before. Reorders B on first use.
PackedPrimitive convPrimitive(const Product &p, Matrix<float> b,
                              dnnl::memory &weights) {
  using dnnl::memory;
  std::lock_guard<std::mutex> lock(packedMutex);
  PackedWeights &entry = entryFor(b);
  auto make = [&] {
    PackedPrimitive made;
    memory::desc wAny({b.cols, b.rows, 1, 1}, memory::data_type::f32,
                      memory::format_tag::any);
    memory::desc biasDesc({p.c.cols}, memory::data_type::f32,
                          memory::format_tag::a);
    Matrix<float> r = p.c;
    r.rowStride = p.residualRowStride;
    dnnl::convolution_forward::desc desc =
        p.bias ? dnnl::convolution_forward::desc(
                     dnnl::prop_kind::forward_inference,
                     dnnl::algorithm::convolution_direct, rowsAsPixels(p.a),
                     wAny, biasDesc, rowsAsPixels(p.c), {1, 1}, {0, 0}, {0, 0})
               : dnnl::convolution_forward::desc(
                     dnnl::prop_kind::forward_inference,
                     dnnl::algorithm::convolution_direct, rowsAsPixels(p.a),
                     wAny, rowsAsPixels(p.c), {1, 1}, {0, 0}, {0, 0});
    dnnl::convolution_forward::primitive_desc pd(
        desc, epilogueAttr(p.activation, p.residual, rowsAsPixels(r)),
        cpuEngine());
    if (std::strncmp(pd.impl_info_str(), "jit_1x1:", 8) != 0)
      return made;
    if (!entry.convWeights) {
      // B [k, n] is the convolution's weights [o = n, i = k, 1, 1].
      memory::desc plainDesc({b.cols, b.rows, 1, 1}, memory::data_type::f32,
                             memory::dims{b.colStride, b.rowStride, 1, 1});
      memory plain(plainDesc, cpuEngine(), const_cast<float *>(b.data));
      memory packed(pd.weights_desc(), cpuEngine());
      runOnStream([&](dnnl::stream &stream) {
        dnnl::reorder(plain, packed).execute(stream, plain, packed);
      });
      entry.convWeights = packed;
    }
    if (pd.weights_desc() == entry.convWeights.get_desc())
      made.conv = dnnl::convolution_forward(pd);
    return made;
  };
  const PackedPrimitive &primitive =
      cachedPrimitive(entry.convPrimitives, p.shape(), make);
  if (primitive)
    weights = entry.convWeights;
  return primitive;
}

/// One piece of C = A * B through oneDNN, on B as it is stored (`plain`,
/// where brgemm runs it) or packed once, on the calling thread, whose
/// OpenMP team is one (multiplyPacked); false when oneDNN has no kernel for
/// it.
bool multiplyPackedPiece(Matrix<float> a, Matrix<float> b, Matrix<float> c,
                         const GemmEpilogue<float> &epilogue, Matrix<float> r,
                         bool plain) {
  Product product{a,
                  c,
                  epilogue.bias != nullptr,
                  epilogue.activation,
                  epilogue.residual,
                  epilogue.residual ? r.rowStride : 0};
  dnnl::memory weights;
  PackedPrimitive primitive;
  if (plain)
    primitive = plainPrimitive(product, b, weights);
  if (!primitive)
    primitive = packedPrimitive(product, b, weights);
  if (!primitive)
    return false;
  if (primitive.viaSgemm && !plain)
    if (PackedPrimitive conv = convPrimitive(product, b, weights))
      primitive = conv;
  using dnnl::memory;
  if (primitive.conv) {
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, memory(rowsAsPixels(a), cpuEngine(), a.data)},
        {DNNL_ARG_WEIGHTS, weights},
        {DNNL_ARG_DST, memory(rowsAsPixels(c), cpuEngine(), c.data)}};
    addEpilogueArgs(args, epilogue,
                    memory::desc({c.cols}, memory::data_type::f32,
                                 memory::format_tag::a),
                    rowsAsPixels(r), r.data);
    runOnStream([&](dnnl::stream &stream) {
      primitive.conv.execute(stream,
                             withScratchpad(primitive.conv, std::move(args)));
    });
    return true;
  }
  memory::desc cDesc({c.rows, c.cols}, memory::data_type::f32,
                     memory::dims{c.rowStride, 1});
  if (primitive.viaSgemm) {
    multiply(a, primitive.b, c);
    if (!primitive.activation) {
      applyEpilogue(c, epilogue, r);
      return true;
    }
    // The eltwise primitive between the bias and the residual.
    GemmEpilogue<float> bias = epilogue;
    bias.activation = GemmActivation::None;
    bias.residual = false;
    applyEpilogue(c, bias, r);
    memory cMem(cDesc, cpuEngine(), c.data);
    runOnStream([&](dnnl::stream &stream) {
      primitive.activation.execute(
          stream, {{DNNL_ARG_SRC, cMem}, {DNNL_ARG_DST, cMem}});
    });
    GemmEpilogue<float> residual;
    residual.residual = epilogue.residual;
    applyEpilogue(c, residual, r);
    return true;
  }
  memory aMem(memory::desc({a.rows, a.cols}, memory::data_type::f32,
                           memory::dims{a.rowStride, 1}),
              cpuEngine(), a.data);
  memory cMem(cDesc, cpuEngine(), c.data);
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, aMem}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, cMem}};
  addEpilogueArgs(args, epilogue,
                  memory::desc({1, c.cols}, memory::data_type::f32,
                               memory::format_tag::ab),
                  memory::desc({r.rows, r.cols}, memory::data_type::f32,
                               memory::dims{r.rowStride, 1}),
                  r.data);
  runOnStream([&](dnnl::stream &stream) {
    primitive.matmul.execute(stream,
                             withScratchpad(primitive.matmul, std::move(args)));
  });
  return true;
}

} // namespace

bool relax::runtime::blas::multiplyPacked(Matrix<float> a, Matrix<float> b,
                                          Matrix<float> c, int threads,
                                          const GemmEpilogue<float> &epilogue,
                                          Matrix<float> r) {
  a = normalise(a);
  c = normalise(c);
  r = normalise(r);
  if (a.rows == 0 || b.cols == 0 || a.cols == 0 || a.colStride != 1 ||
      c.colStride != 1 ||
      (epilogue.bias && b.cols > 1 && epilogue.biasStride != 1) ||
      (epilogue.residual && r.colStride != 1))
    return false;
  // The pool splits the product: oneDNN plans and runs each piece on one
  // thread (pool workers' teams are one already). A primitive made for the
  // team would fork it on every call.
  TeamSize team(1);
  bool plain = runsOnPlainB(b, c.rows);
  auto piece = [plain](Matrix<float> pa, Matrix<float> pb, Matrix<float> pc,
                       const GemmEpilogue<float> &pe, Matrix<float> pr) {
    if (multiplyPackedPiece(pa, pb, pc, pe, pr, plain))
      return;
    multiply(pa, pb, pc);
    applyEpilogue(pc, pe, pr);
  };
  // Columns in multiples of 16, a vector register's worth in oneDNN's
  // packed layouts.
  constexpr int64_t kColumnGrain = 16;
  bool byRows = c.rows >= 8 * int64_t(threads);
  bool byColumns = !byRows && c.cols >= 8 * kColumnGrain * int64_t(threads);
  if (threads <= 1 || (!byRows && !byColumns)) {
    piece(a, b, c, epilogue, r);
    return true;
  }
  int64_t parts = threads;
  parallelFor(parts, threads, [&](int64_t p) {
    if (byRows) {
      int64_t begin = pieceStart(c.rows, parts, p),
              end = pieceStart(c.rows, parts, p + 1);
      piece(rowsOf(a, begin, end), b, rowsOf(c, begin, end), epilogue,
            epilogue.residual ? rowsOf(r, begin, end) : r);
      return;
    }
    int64_t begin = pieceStart(c.cols, parts, p, kColumnGrain),
            end = pieceStart(c.cols, parts, p + 1, kColumnGrain);
    GemmEpilogue<float> pe = epilogue;
    if (pe.bias)
      pe.bias += begin * pe.biasStride;
    piece(a, colsOf(b, begin, end), colsOf(c, begin, end), pe,
          epilogue.residual ? colsOf(r, begin, end) : r);
  });
  return true;
}
#endif

extern "C" void relax_rt_blas_release_constants(void) {
#ifdef RELAX_RUNTIME_HAS_DNNL
  std::lock_guard<std::mutex> lock(packedMutex);
  packedCache.clear();
  releaseFusedConvs();
#endif
}
