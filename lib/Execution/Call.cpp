//===- Call.cpp - One call of a compiled entry ----------------------------===//
//
// CompiledModule::prepareCall and Call: inputs bound to the entry's
// parameters (copied to the GPU once under Device::CUDA), the call itself,
// and its outputs read back from host or device memory.
//
//===----------------------------------------------------------------------===//

#include "CompiledModuleImpl.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::relax::exec;
using mlir::relax::exec::detail::error;
using mlir::relax::exec::detail::runtimeError;
namespace rt = mlir::relax::rt;

//===----------------------------------------------------------------------===//
// Memory of one call
//===----------------------------------------------------------------------===//

namespace {
/// A memref descriptor as the C interface lays it out: allocated and aligned
/// pointers, offset, sizes, strides (all 8 bytes wide).
struct Descriptor {
  static size_t wordsFor(int64_t rank) { return 3 + 2 * rank; }
};

/// Copies a (possibly strided) memref described by `words` into a tensor.
HostTensor readResult(const TensorInfo &info, const int64_t *words,
                      int64_t rank) {
  HostTensor t;
  t.dtype = info.dtype;
  t.shape.assign(words + 3, words + 3 + rank);
  t.data.resize(t.numElements() * dtypeSize(t.dtype));
  rt::copyToDense(words, rank, dtypeSize(t.dtype), t.data.data());
  return t;
}

/// Where tensors live during a call: host memory (CPU) or device buffers
/// (CUDA: inputs are copied in, results copied back, and every buffer is
/// freed with the CUDA runtime).
class DeviceMemory {
public:
  explicit DeviceMemory(bool onGPU) : onGPU(onGPU) {}
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;
  ~DeviceMemory() {
    for (void *p : uploads)
      release(p);
  }

  /// The address the compiled code reads `t` from.
  void *upload(HostTensor &t) {
    if (!onGPU)
      return t.data.data();
#ifdef RELAX_RUNTIME_HAS_CUDA
    void *p = mgpuMemAlloc(t.data.size(), nullptr, false);
    mgpuMemcpy(p, t.data.data(), t.data.size(), nullptr);
    uploads.push_back(p);
    return p;
#else
    return nullptr;
#endif
  }

  /// Reads a result descriptor, from the device when on the GPU.
  HostTensor download(const TensorInfo &info, const int64_t *words,
                      int64_t rank) {
    if (!onGPU)
      return readResult(info, words, rank);
    // Copy the span the descriptor covers, then read it like host memory.
    std::vector<int64_t> local(words, words + Descriptor::wordsFor(rank));
    int64_t span = 0;
    bool empty = false;
    for (int64_t d = 0; d < rank; ++d) {
      empty |= words[3 + d] == 0;
      span += (words[3 + d] - 1) * words[3 + rank + d];
    }
    size_t elem = dtypeSize(info.dtype);
    size_t bytes = empty ? 0 : (words[2] + span + 1) * elem;
    std::vector<uint8_t> host(std::max<size_t>(bytes, 1));
#ifdef RELAX_RUNTIME_HAS_CUDA
    mgpuMemcpy(host.data(), reinterpret_cast<void *>(words[1]), bytes, nullptr);
#endif
    local[0] = local[1] = reinterpret_cast<int64_t>(host.data());
    return readResult(info, local.data(), rank);
  }

  void release(void *p) {
    if (!onGPU) {
      std::free(p);
      return;
    }
#ifdef RELAX_RUNTIME_HAS_CUDA
    mgpuMemFree(p, nullptr);
#endif
  }

private:
  bool onGPU;
  std::vector<void *> uploads;
};
} // namespace

//===----------------------------------------------------------------------===//
// Call
//===----------------------------------------------------------------------===//

/// The packed call's view of a signature: which parameters are ranked, the
/// rank of each result.
static std::vector<bool> rankedParams(const EntrySignature &signature) {
  std::vector<bool> ranked;
  for (const TensorInfo &info : signature.params)
    ranked.push_back(info.ranked);
  return ranked;
}

static std::vector<int64_t> resultRanks(const EntrySignature &signature) {
  std::vector<int64_t> ranks;
  for (const TensorInfo &info : signature.results)
    ranks.push_back(info.staticSizes.size());
  return ranks;
}

struct Call::Impl {
  Impl(rt::PackedFn fn, const EntrySignature &signature, bool onGPU)
      : signature(signature), onGPU(onGPU), device(onGPU),
        call(fn, signature.name, rankedParams(signature),
             resultRanks(signature)),
        graphKey(reinterpret_cast<const void *>(fn)) {}

  EntrySignature signature;
  bool onGPU;
  std::vector<HostTensor> inputs;
  DeviceMemory device;
  /// The descriptors and the packed arguments (shared with the C API).
  rt::PackedCall call;
  /// Whether the result descriptors hold outputs not yet freed.
  bool outputsLive = false;
  /// CUDA graphs (setCudaGraphs), kept apart per entry point.
  bool cudaGraphs = false;
  const void *graphKey;
};

Call::Call(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Call::~Call() { releaseOutputs(); }

const EntrySignature &Call::getSignature() const { return impl->signature; }
Device Call::getDevice() const {
  return impl->onGPU ? Device::CUDA : Device::CPU;
}

llvm::Expected<std::unique_ptr<Call>>
CompiledModule::prepareCall(llvm::StringRef entry,
                            std::vector<HostTensor> inputs) {
  auto signature = getSignature(entry);
  if (!signature)
    return signature.takeError();
  if (llvm::Error err = checkInputs(*signature, inputs))
    return std::move(err);
  if (llvm::Error err = jit())
    return std::move(err);
  rt::PackedFn fn = impl->lookupPacked(entry);
  if (!fn)
    return error("cannot call '" + entry + "': no entry point " +
                 rt::packedEntrySymbol(entry.str()));
  auto call = std::make_unique<Call::Impl>(
      fn, *signature, impl->options.device == Device::CUDA);
  call->inputs = std::move(inputs);

  // Argument descriptors point at the input data (row-major strides). An
  // error left by an earlier failed call must not be taken for a copy's.
  relax_rt_clear_error();
  for (auto [i, t] : llvm::enumerate(call->inputs)) {
    void *data = call->device.upload(t);
    if (call->onGPU && relax_rt_has_error())
      return runtimeError("copying input to the GPU: ");
    call->call.setInput(i, data, t.shape);
  }
  return std::unique_ptr<Call>(new Call(std::move(call)));
}

void Call::setCudaGraphs(bool on) { impl->cudaGraphs = on; }

llvm::Error Call::run() {
  releaseOutputs();
  [[maybe_unused]] bool graphs = false;
#ifdef RELAX_RUNTIME_HAS_CUDA
  graphs = impl->onGPU && impl->cudaGraphs &&
           relax_rt_cuda_graphs_begin(impl->graphKey);
#endif
  rt::Status s = impl->call.run();
#ifdef RELAX_RUNTIME_HAS_CUDA
  // The recorded launches run now; a kernel's failure shows here.
  if (graphs && !relax_rt_cuda_graphs_end() && !s)
    return runtimeError("");
#endif
  // After a failure the result descriptors may be partly written: they are
  // left alone rather than freed.
  if (s)
    return error(s.message());
  impl->outputsLive = true;
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>> Call::readOutputs() {
  if (!impl->outputsLive)
    return error("'" + impl->signature.name +
                 "' has no outputs to read: "
                 "it has not run successfully since they were freed");
  std::vector<HostTensor> outputs;
  relax_rt_clear_error();
  for (auto [i, info] : llvm::enumerate(impl->signature.results)) {
    int64_t rank = info.staticSizes.size();
    outputs.push_back(impl->device.download(info, impl->call.result(i), rank));
    if (impl->onGPU && relax_rt_has_error())
      return runtimeError("copying a result from the GPU: ");
  }
  return outputs;
}

void Call::releaseOutputs() {
  if (!impl->outputsLive)
    return;
  impl->outputsLive = false;
  for (void *block : impl->call.ownedResultBlocks())
    impl->device.release(block);
}

llvm::Expected<std::vector<HostTensor>>
CompiledModule::invoke(llvm::StringRef entry, std::vector<HostTensor> inputs) {
  auto call = prepareCall(entry, std::move(inputs));
  if (!call)
    return call.takeError();
  if (llvm::Error err = (*call)->run())
    return std::move(err);
  return (*call)->readOutputs();
}
