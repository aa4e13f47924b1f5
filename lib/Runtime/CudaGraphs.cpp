//===- CudaGraphs.cpp - Replaying a call's kernel launches as CUDA graphs -===//
//
// See CudaGraphs.h. The driver-independent part: deferring launches,
// matching segments against the graphs of a key, capturing new ones.
//
//===----------------------------------------------------------------------===//

#include "CudaGraphs.h"

#include <algorithm>
#include <cstring>

using namespace relax_rt;

GraphDriver::~GraphDriver() = default;

bool KernelLaunch::sameKernel(const KernelLaunch &other) const {
  return function == other.function &&
         std::memcmp(grid, other.grid, sizeof(grid)) == 0 &&
         std::memcmp(block, other.block, sizeof(block)) == 0 &&
         sharedBytes == other.sharedBytes && offsets == other.offsets;
}

bool KernelLaunch::operator==(const KernelLaunch &other) const {
  return sameKernel(other) && args == other.args;
}

std::vector<void *> KernelLaunch::argPointers() const {
  std::vector<void *> pointers;
  pointers.reserve(offsets.size());
  for (size_t offset : offsets)
    pointers.push_back(
        const_cast<void *>(static_cast<const void *>(args.data() + offset)));
  return pointers;
}

LaunchGraphs::~LaunchGraphs() { clear(); }

bool LaunchGraphs::begin(const void *callKey) {
  bool ok = !active || end();
  active = true;
  key = callKey;
  return ok;
}

bool LaunchGraphs::end() {
  bool ok = flush();
  active = false;
  return ok;
}

bool LaunchGraphs::defer(void *function, const int64_t grid[3],
                         const int64_t block[3], int32_t sharedBytes,
                         void *stream, void **params, size_t paramCount) {
  if (!active)
    return false;
  auto cached = paramSizeCache.find(function);
  if (cached == paramSizeCache.end()) {
    ParamSizes entry;
    entry.known = driver.paramSizes(function, paramCount, entry.sizes) &&
                  entry.sizes.size() == paramCount;
    cached = paramSizeCache.emplace(function, std::move(entry)).first;
  }
  const ParamSizes &sizes = cached->second;
  bool recordable = sizes.known && sizes.sizes.size() == paramCount;
  // A launch that cannot be recorded, or one on another stream, is issued
  // after what is pending, in order.
  if (!recordable || (!pending.empty() && stream != pendingStream)) {
    if (!flush())
      return true; // Dropped with the segment: the error is recorded.
    if (!recordable)
      return false;
  }
  KernelLaunch launch;
  launch.function = function;
  for (int i = 0; i < 3; ++i) {
    launch.grid[i] = grid[i];
    launch.block[i] = block[i];
  }
  launch.sharedBytes = sharedBytes;
  for (size_t i = 0; i < paramCount; ++i) {
    // Arguments at 8-byte aligned offsets: every kernel parameter type fits.
    size_t offset = (launch.args.size() + 7) / 8 * 8;
    launch.offsets.push_back(offset);
    launch.args.resize(offset + sizes.sizes[i]);
    std::memcpy(launch.args.data() + offset, params[i], sizes.sizes[i]);
  }
  pendingStream = stream;
  pending.push_back(std::move(launch));
  return true;
}

bool LaunchGraphs::launchPlain(void *stream) {
  for (const KernelLaunch &launch : pending)
    if (!driver.launch(launch, stream))
      return false;
  ++stats.plainSegments;
  return true;
}

bool LaunchGraphs::capture(void *stream, std::vector<Graph> &keyGraphs) {
  if (!driver.beginCapture(stream))
    return false;
  bool launched = true, nodesKnown = true;
  std::vector<void *> nodes;
  for (const KernelLaunch &launch : pending) {
    if (!(launched = driver.launch(launch, stream)))
      break;
    void *node = nullptr;
    nodesKnown = nodesKnown && driver.capturedNode(stream, node) && node;
    nodes.push_back(node);
  }
  if (!nodesKnown)
    nodes.clear();
  // The capture is ended even after a failed launch, so that the stream
  // leaves capture mode.
  void *graph = nullptr;
  bool ended = driver.endCapture(stream, graph);
  void *exec = nullptr;
  bool ok = launched && ended && graph && driver.instantiate(graph, exec);
  if (graph)
    driver.destroyGraph(graph);
  if (!ok)
    return false;
  keyGraphs.push_back(Graph{std::move(pending), exec, std::move(nodes)});
  pending.clear();
  ++stats.captures;
  return driver.launchGraph(exec, stream);
}

bool LaunchGraphs::update(Graph &graph, void *stream) {
  for (size_t i = 0; i < pending.size(); ++i)
    if (!(graph.launches[i] == pending[i]) &&
        !driver.updateKernel(graph.exec, graph.nodes[i], pending[i]))
      return false;
  graph.launches = std::move(pending);
  pending.clear();
  ++stats.updates;
  return driver.launchGraph(graph.exec, stream);
}

bool LaunchGraphs::flush() {
  if (pending.empty())
    return true;
  void *stream = pendingStream;
  std::vector<Graph> &keyGraphs = graphs[key];
  bool ok;
  auto same = [&](const Graph &g) { return g.launches == pending; };
  // Same kernels and grids, other arguments, and the nodes to update known.
  auto updatable = [&](const Graph &g) {
    return g.nodes.size() == pending.size() &&
           std::equal(g.launches.begin(), g.launches.end(), pending.begin(),
                      pending.end(),
                      [](const KernelLaunch &a, const KernelLaunch &b) {
                        return a.sameKernel(b);
                      });
  };
  auto match = std::find_if(keyGraphs.begin(), keyGraphs.end(), same);
  auto similar =
      match != keyGraphs.end()
          ? keyGraphs.end()
          : std::find_if(keyGraphs.begin(), keyGraphs.end(), updatable);
  if (match != keyGraphs.end()) {
    ok = driver.launchGraph(match->exec, stream);
    if (ok)
      ++stats.replays;
  } else if (similar != keyGraphs.end()) {
    ok = update(*similar, stream);
    // A graph whose update failed part way holds arguments no record
    // describes: it goes.
    if (!ok) {
      driver.destroyExec(similar->exec);
      keyGraphs.erase(similar);
    }
  } else if (keyGraphs.size() < maxGraphsPerKey) {
    ok = capture(stream, keyGraphs);
  } else {
    ok = launchPlain(stream);
  }
  pending.clear();
  return ok;
}

void LaunchGraphs::clear() {
  pending.clear();
  for (auto &entry : graphs)
    for (Graph &g : entry.second)
      driver.destroyExec(g.exec);
  graphs.clear();
  paramSizeCache.clear();
}

size_t LaunchGraphs::numGraphs(const void *callKey) const {
  auto it = graphs.find(callKey);
  return it == graphs.end() ? 0 : it->second.size();
}
