//===- CudaGraphs.h - Replaying a call's kernel launches as CUDA graphs ---===//
//
// A decode step is a few dozen short kernels; launched one by one, the CPU
// cost of each launch (a few microseconds) is a large part of the step.
// With graphs on (relax_rt_cuda_graphs_begin/end around a call, RelaxCUDA.h)
// the runtime defers the call's launches instead of issuing them, copying
// their argument bytes. At the next operation that must see their effects
// (a copy, a free, a synchronisation, the call's end) the deferred run of
// launches, a segment, is issued:
//
//   - a segment equal to one captured before under the same key (same
//     kernels, grids, blocks and argument bytes: so the same shapes, whose
//     dims are kernel arguments, and the same buffers) replays that graph:
//     one cuGraphLaunch;
//   - a segment with the same kernels, grids and blocks as a graph but
//     other arguments (a buffer at a new address, such as an output the
//     call allocates) updates that graph's kernel nodes whose arguments
//     differ (cuGraphExecKernelNodeSetParams) and replays it;
//   - a new segment, while the key has fewer than `maxGraphsPerKey` graphs
//     (the buckets of distinct shapes), is captured (cuStreamBeginCapture,
//     the launches, cuStreamEndCapture), instantiated and launched: the
//     first call of a shape runs through its graph;
//   - past that bound, plain launches (no unbounded growth for a model
//     called at ever new shapes).
//
// Replay is exact by construction: a graph only runs with the arguments just
// recorded (identical, or set node by node first). The logic is independent of the
// driver (GraphDriver), so it is unit-tested with a fake one.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RUNTIME_CUDAGRAPHS_H
#define LIB_RUNTIME_CUDAGRAPHS_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace relax_rt {

/// One kernel launch as the compiled code issued it, its arguments copied.
struct KernelLaunch {
  void *function = nullptr;
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int32_t sharedBytes = 0;
  /// Argument i lives at args.data() + offsets[i].
  std::vector<size_t> offsets;
  std::vector<unsigned char> args;

  bool operator==(const KernelLaunch &other) const;
  /// The same kernel, grid, block and argument layout (values may differ).
  bool sameKernel(const KernelLaunch &other) const;
  /// Pointers to each argument, as cuLaunchKernel takes them (valid while
  /// this launch is).
  std::vector<void *> argPointers() const;
};

/// The driver calls the graph logic makes. Each returns false when the call
/// failed (the implementation records why: the runtime's error slot).
class GraphDriver {
public:
  virtual ~GraphDriver();
  /// The byte size of each of `function`'s `count` parameters; false when
  /// the driver cannot tell (then the launch is not deferred).
  virtual bool paramSizes(void *function, size_t count,
                          std::vector<size_t> &sizes) = 0;
  virtual bool launch(const KernelLaunch &launch, void *stream) = 0;
  virtual bool beginCapture(void *stream) = 0;
  /// Ends the capture on `stream`; `graph` is the captured graph.
  virtual bool endCapture(void *stream, void *&graph) = 0;
  virtual bool instantiate(void *graph, void *&exec) = 0;
  virtual void destroyGraph(void *graph) = 0;
  virtual bool launchGraph(void *exec, void *stream) = 0;
  virtual void destroyExec(void *exec) = 0;
  /// The kernel node the last launch on the capturing `stream` added; false
  /// (nothing recorded) when the driver cannot tell: that graph is then
  /// only replayed as it is.
  virtual bool capturedNode(void *stream, void *&node) = 0;
  /// Gives kernel node `node` of `exec` the arguments of `launch`.
  virtual bool updateKernel(void *exec, void *node,
                            const KernelLaunch &launch) = 0;
};

/// Counters of what the segments became.
struct GraphStats {
  int64_t captures = 0; ///< Segments captured and instantiated.
  int64_t replays = 0;  ///< Segments replayed from a graph as it was.
  int64_t updates = 0;  ///< Segments replayed after new arguments were set.
  int64_t plainSegments = 0; ///< Segments launched kernel by kernel.
};

class LaunchGraphs {
public:
  explicit LaunchGraphs(GraphDriver &driver, size_t maxGraphsPerKey = 8)
      : driver(driver), maxGraphsPerKey(maxGraphsPerKey) {}
  ~LaunchGraphs();

  /// A call under `key` (its graphs are kept apart from other keys') starts:
  /// launches are deferred until it ends. A call already active ends first.
  bool begin(const void *key);
  /// Flushes and stops deferring.
  bool end();
  bool isActive() const { return active; }

  /// Records the launch for the active call; false when the caller must
  /// launch it itself (no active call, or parameter sizes unknown: then
  /// what was deferred is issued first, keeping the order).
  bool defer(void *function, const int64_t grid[3], const int64_t block[3],
             int32_t sharedBytes, void *stream, void **params,
             size_t paramCount);
  /// Issues the deferred segment (replay, capture or plain launches).
  /// False when a driver call failed; the segment is dropped then.
  bool flush();
  /// Drops the deferred launches without issuing them (after an error).
  void discard() { pending.clear(); }

  /// Destroys every graph (their kernels' modules are being unloaded).
  void clear();
  const GraphStats &getStats() const { return stats; }
  size_t numGraphs(const void *key) const;

private:
  struct Graph {
    std::vector<KernelLaunch> launches;
    void *exec = nullptr;
    /// The kernel node of each launch; empty when the driver did not tell.
    std::vector<void *> nodes;
  };
  bool launchPlain(void *stream);
  bool capture(void *stream, std::vector<Graph> &graphs);
  bool update(Graph &graph, void *stream);

  GraphDriver &driver;
  size_t maxGraphsPerKey;
  bool active = false;
  const void *key = nullptr;
  void *pendingStream = nullptr;
  std::vector<KernelLaunch> pending;
  std::map<const void *, std::vector<Graph>> graphs;
  struct ParamSizes {
    bool known = false;
    std::vector<size_t> sizes;
  };
  std::unordered_map<void *, ParamSizes> paramSizeCache;
  GraphStats stats;
};

} // namespace relax_rt

#endif // LIB_RUNTIME_CUDAGRAPHS_H
