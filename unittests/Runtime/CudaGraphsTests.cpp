//===- CudaGraphsTests.cpp - CUDA graph decisions with a fake driver ------===//
//
// The decisions of relax_rt::LaunchGraphs (lib/Runtime/CudaGraphs.h) need
// no GPU: a fake driver logs each call. Checked: a first segment is
// captured, instantiated and launched as a graph; an identical one replays
// it with no kernel launch; new arguments (buffers) update the nodes whose
// arguments differ (or capture again when the driver gave no nodes); new
// grids capture again up to the bound, then launch plainly; a failed update
// drops the graph; keys are separate; arguments
// are copied at record time; a launch that cannot be recorded runs after
// the recorded ones; driver failures end the capture and are reported.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CudaGraphs.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

using relax_rt::GraphDriver;
using relax_rt::KernelLaunch;
using relax_rt::LaunchGraphs;

namespace {

/// Logs every call as a line; `failOn` names a call that fails.
struct FakeDriver : GraphDriver {
  std::vector<std::string> log;
  std::string failOn;
  int liveGraphs = 0, liveExecs = 0;
  /// Functions whose parameter sizes are unknown.
  void *opaque = nullptr;
  /// Whether capturedNode tells the nodes (launches since beginCapture).
  bool nodesKnown = true;
  uintptr_t captured = 0;

  static int64_t firstArg(const KernelLaunch &l) {
    int64_t first = 0;
    if (!l.offsets.empty())
      std::memcpy(&first, l.args.data() + l.offsets[0], sizeof(first));
    return first;
  }

  bool paramSizes(void *function, size_t count,
                  std::vector<size_t> &sizes) override {
    if (function == opaque)
      return false;
    sizes.assign(count, 8);
    return true;
  }
  bool launch(const KernelLaunch &l, void *) override {
    log.push_back("launch " + std::to_string(l.grid[0]) + " arg " +
                  std::to_string(firstArg(l)));
    ++captured;
    return failOn != "launch";
  }
  bool beginCapture(void *) override {
    log.push_back("begin capture");
    captured = 0;
    return failOn != "beginCapture";
  }
  bool endCapture(void *, void *&graph) override {
    log.push_back("end capture");
    graph = &liveGraphs;
    ++liveGraphs;
    return failOn != "endCapture";
  }
  bool instantiate(void *, void *&exec) override {
    log.push_back("instantiate");
    if (failOn == "instantiate")
      return false;
    exec = &liveExecs;
    ++liveExecs;
    return true;
  }
  void destroyGraph(void *) override {
    log.push_back("destroy graph");
    --liveGraphs;
  }
  bool launchGraph(void *, void *) override {
    log.push_back("launch graph");
    return failOn != "launchGraph";
  }
  void destroyExec(void *) override { --liveExecs; }
  bool capturedNode(void *, void *&node) override {
    node = reinterpret_cast<void *>(captured);
    return nodesKnown;
  }
  bool updateKernel(void *, void *node, const KernelLaunch &l) override {
    log.push_back("update node " +
                  std::to_string(reinterpret_cast<uintptr_t>(node)) + " arg " +
                  std::to_string(firstArg(l)));
    return failOn != "updateKernel";
  }
};

/// Two kernels with one pointer-sized argument each.
int kernelA, kernelB;
const int64_t kBlock[3] = {128, 1, 1};

void deferLaunch(LaunchGraphs &graphs, void *kernel, int64_t gridX, int64_t arg,
                 bool expectDeferred = true) {
  const int64_t grid[3] = {gridX, 1, 1};
  void *params[] = {&arg};
  EXPECT_EQ(graphs.defer(kernel, grid, kBlock, 0, nullptr, params, 1),
            expectDeferred);
}

/// One call of the given (kernel, argument) launches over 4 blocks; what
/// LaunchGraphs::end returned.
bool oneCall(LaunchGraphs &graphs, const void *key,
             std::initializer_list<std::pair<void *, int64_t>> launches) {
  EXPECT_TRUE(graphs.begin(key));
  for (auto [kernel, arg] : launches)
    deferLaunch(graphs, kernel, 4, arg);
  return graphs.end();
}

/// One call: kernel A over `grid` blocks and kernel B, reading `buffer`.
void decodeStep(LaunchGraphs &graphs, const void *key, int64_t grid,
                int64_t buffer) {
  ASSERT_TRUE(graphs.begin(key));
  deferLaunch(graphs, &kernelA, grid, buffer);
  deferLaunch(graphs, &kernelB, grid, buffer + 64);
  EXPECT_TRUE(graphs.end());
}

/// A decode step at grid 4 reading buffer 1000, then one at `grid` and
/// `buffer`; the driver's log holds only the second step's calls.
void secondStep(FakeDriver &driver, LaunchGraphs &graphs, const void *key,
                int64_t grid, int64_t buffer) {
  decodeStep(graphs, key, 4, 1000);
  driver.log.clear();
  decodeStep(graphs, key, grid, buffer);
}

const std::vector<std::string> kCapture = {
    "begin capture", "launch 4 arg 1000", "launch 4 arg 1064", "end capture",
    "instantiate",   "destroy graph",     "launch graph"};

TEST(CudaGraphsTest, NothingIsDeferredOutsideACall) {
  FakeDriver driver;
  LaunchGraphs graphs(driver);
  deferLaunch(graphs, &kernelA, 4, 1000, /*expectDeferred=*/false);
  EXPECT_TRUE(graphs.flush());
  EXPECT_TRUE(driver.log.empty());
}

TEST(CudaGraphsTest, FirstCallIsCapturedThenReplayed) {
  FakeDriver driver;
  LaunchGraphs graphs(driver);
  int key = 0;
  decodeStep(graphs, &key, 4, 1000);
  EXPECT_EQ(driver.log, kCapture);
  EXPECT_EQ(graphs.getStats().captures, 1);
  EXPECT_EQ(driver.liveGraphs, 0); // Destroyed once instantiated.
  EXPECT_EQ(driver.liveExecs, 1);

  // The same shapes and buffers: one graph launch, no kernel launch.
  for (int call = 0; call < 3; ++call) {
    driver.log.clear();
    decodeStep(graphs, &key, 4, 1000);
    EXPECT_EQ(driver.log, std::vector<std::string>{"launch graph"});
  }
  EXPECT_EQ(graphs.getStats().replays, 3);
  EXPECT_EQ(graphs.getStats().captures, 1);
  EXPECT_EQ(graphs.numGraphs(&key), 1u);
  graphs.clear();
  EXPECT_EQ(driver.liveExecs, 0);
}

TEST(CudaGraphsTest, NewArgumentsUpdateTheGraphsNodes) {
  FakeDriver driver;
  LaunchGraphs graphs(driver);
  int key = 0;
  // Other buffers, same kernels and grids: both nodes get the new
  // arguments, no capture.
  secondStep(driver, graphs, &key, 4, 2000);
  EXPECT_EQ(driver.log, (std::vector<std::string>{"update node 1 arg 2000",
                                                  "update node 2 arg 2064",
                                                  "launch graph"}));
  // Only kernel B's argument differs: only its node.
  driver.log.clear();
  EXPECT_TRUE(oneCall(graphs, &key, {{&kernelA, 2000}, {&kernelB, 7}}));
  EXPECT_EQ(driver.log,
            (std::vector<std::string>{"update node 2 arg 7", "launch graph"}));
  // The updated arguments replay as they are.
  driver.log.clear();
  EXPECT_TRUE(oneCall(graphs, &key, {{&kernelA, 2000}, {&kernelB, 7}}));
  EXPECT_EQ(driver.log, std::vector<std::string>{"launch graph"});
  EXPECT_EQ(graphs.getStats().captures, 1);
  EXPECT_EQ(graphs.getStats().updates, 2);
  EXPECT_EQ(graphs.getStats().replays, 1);
  EXPECT_EQ(graphs.numGraphs(&key), 1u);
}

TEST(CudaGraphsTest, WithoutNodesNewArgumentsCaptureAgain) {
  FakeDriver driver;
  driver.nodesKnown = false;
  LaunchGraphs graphs(driver);
  int key = 0;
  secondStep(driver, graphs, &key, 4, 2000);
  EXPECT_EQ(driver.log.front(), "begin capture");
  EXPECT_EQ(graphs.getStats().captures, 2);
  EXPECT_EQ(graphs.getStats().updates, 0);
}

TEST(CudaGraphsTest, NewShapesCaptureUpToTheBoundThenLaunchPlainly) {
  FakeDriver driver;
  LaunchGraphs graphs(driver, /*maxGraphsPerKey=*/2);
  int key = 0;
  // Another grid: not the first graph's kernels.
  secondStep(driver, graphs, &key, 6, 1000);
  EXPECT_EQ(driver.log.front(), "begin capture");
  EXPECT_EQ(graphs.getStats().captures, 2);
  // A third shape: the key is full, kernel by kernel.
  driver.log.clear();
  decodeStep(graphs, &key, 9, 1000);
  EXPECT_EQ(driver.log, (std::vector<std::string>{"launch 9 arg 1000",
                                                  "launch 9 arg 1064"}));
  EXPECT_EQ(graphs.getStats().plainSegments, 1);
  // Both graphs still replay.
  driver.log.clear();
  decodeStep(graphs, &key, 6, 1000);
  decodeStep(graphs, &key, 4, 1000);
  EXPECT_EQ(driver.log,
            (std::vector<std::string>{"launch graph", "launch graph"}));
  EXPECT_EQ(graphs.getStats().replays, 2);
  EXPECT_EQ(graphs.numGraphs(&key), 2u);
}

TEST(CudaGraphsTest, KeysHaveTheirOwnGraphs) {
  FakeDriver driver;
  LaunchGraphs graphs(driver);
  int first = 0, second = 0;
  decodeStep(graphs, &first, 4, 1000);
  driver.log.clear();
  decodeStep(graphs, &second, 4, 1000);
  EXPECT_EQ(driver.log, kCapture);
  EXPECT_EQ(graphs.numGraphs(&first), 1u);
  EXPECT_EQ(graphs.numGraphs(&second), 1u);
}

TEST(CudaGraphsTest, ArgumentsAreCopiedWhenRecorded) {
  FakeDriver driver;
  LaunchGraphs graphs(driver);
  int key = 0;
  ASSERT_TRUE(graphs.begin(&key));
  int64_t arg = 1000;
  void *params[] = {&arg};
  const int64_t grid[3] = {4, 1, 1};
  ASSERT_TRUE(graphs.defer(&kernelA, grid, kBlock, 0, nullptr, params, 1));
  arg = 7; // The caller's argument storage is gone after the launch call.
  EXPECT_TRUE(graphs.end());
  EXPECT_EQ(driver.log[1], "launch 4 arg 1000");
}

TEST(CudaGraphsTest, AnUnrecordableLaunchRunsAfterTheRecordedOnes) {
  FakeDriver driver;
  driver.opaque = &kernelB;
  LaunchGraphs graphs(driver);
  int key = 0;
  ASSERT_TRUE(graphs.begin(&key));
  deferLaunch(graphs, &kernelA, 4, 1000);
  // The caller launches B itself, after A's segment was issued.
  deferLaunch(graphs, &kernelB, 4, 1064, /*expectDeferred=*/false);
  EXPECT_EQ(driver.log.back(), "launch graph");
  // A's next segment: the first graph with A's new argument.
  deferLaunch(graphs, &kernelA, 4, 3000);
  EXPECT_TRUE(graphs.end());
  EXPECT_EQ(driver.log.back(), "launch graph");
  EXPECT_EQ(graphs.getStats().captures, 1);
  EXPECT_EQ(graphs.getStats().updates, 1);
}

/// A failing driver call during a capture: the call fails, the capture is
/// still ended and its graph destroyed, and the key keeps no graph.
TEST(CudaGraphsTest, AFailedCaptureIsReportedAndLeavesNoGraph) {
  struct Case {
    const char *failOn;
    std::vector<std::string> log;
  };
  const Case cases[] = {
      {"instantiate",
       {"begin capture", "launch 4 arg 1000", "launch 4 arg 1064",
        "end capture", "instantiate", "destroy graph"}},
      // A failed launch stops the capture at once.
      {"launch",
       {"begin capture", "launch 4 arg 1000", "end capture", "destroy graph"}}};
  for (const Case &c : cases) {
    FakeDriver driver;
    driver.failOn = c.failOn;
    LaunchGraphs graphs(driver);
    int key = 0;
    EXPECT_FALSE(oneCall(graphs, &key, {{&kernelA, 1000}, {&kernelB, 1064}}));
    EXPECT_EQ(driver.log, c.log) << c.failOn;
    EXPECT_EQ(driver.liveGraphs, 0) << c.failOn;
    EXPECT_EQ(graphs.numGraphs(&key), 0u) << c.failOn;
    EXPECT_EQ(graphs.getStats().captures, 0) << c.failOn;
    // The next call tries again, and succeeds once the driver does.
    driver.failOn.clear();
    EXPECT_TRUE(oneCall(graphs, &key, {{&kernelA, 1000}}));
    EXPECT_EQ(graphs.getStats().captures, 1) << c.failOn;
  }
}

/// A graph launch or an update that fails: the call fails; a graph whose
/// update failed part way is dropped (its nodes hold arguments no record
/// describes), one whose launch failed stays.
TEST(CudaGraphsTest, AFailedReplayOrUpdateIsReported) {
  struct Case {
    const char *failOn;
    int64_t buffer; // The second call's (1000: the graph's own).
    size_t graphsLeft;
  };
  for (Case c : {Case{"launchGraph", 1000, 1}, Case{"updateKernel", 2000, 0}}) {
    FakeDriver driver;
    LaunchGraphs graphs(driver);
    int key = 0;
    decodeStep(graphs, &key, 4, 1000);
    driver.failOn = c.failOn;
    EXPECT_FALSE(oneCall(graphs, &key,
                         {{&kernelA, c.buffer}, {&kernelB, c.buffer + 64}}));
    EXPECT_EQ(graphs.numGraphs(&key), c.graphsLeft) << c.failOn;
    EXPECT_EQ(driver.liveExecs, static_cast<int>(c.graphsLeft)) << c.failOn;
    EXPECT_EQ(graphs.getStats().replays + graphs.getStats().updates, 0)
        << c.failOn;
  }
}

} // namespace
