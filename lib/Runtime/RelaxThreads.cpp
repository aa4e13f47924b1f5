//===- RelaxThreads.cpp - The runtime's thread pool -----------------------===//
//
// Compiled kernels (their outer parallel loops, outlined by
// --convert-parallel-loops-to-runtime) and the runtime's own kernels (GEMMs,
// attention: BlasGemm.cpp, Attention.cpp) run their parallel loops on this
// pool through relax_rt_parallel_for.
//
// Why not OpenMP: a parallel region of an OpenMP team ends in a barrier that
// every thread of the team must reach, its share of the loop done. On a
// machine whose cores are shared (another process, another pool) a worker
// that is not running when the region starts holds everyone up until the
// scheduler gives it a time slice, milliseconds for a kernel of
// microseconds; workers that spin between regions make that worse, since
// they take the core the others need, and sleeping workers pay a wake-up at
// every region (docs/perf.md measured both). This pool does what
// onnxruntime's does instead:
//
// - The loop is cut into more chunks than threads, and every thread,
//   the caller included, claims chunks from one atomic counter. The caller
//   never waits for a worker that has not started: it takes the chunks
//   itself, and waits only for chunks another thread is running.
// - Workers spin for a short while after their last chunk (RELAX_SPIN_US,
//   default 200 us, a little more than the serial code between two kernels
//   of a model), so that the next loop starts at once, and then sleep on a
//   futex; the caller wakes them only when one sleeps.
// - A loop started from inside a chunk, or while another thread of the
//   application is using the pool, runs on its calling thread.
//
// The OpenMP runtime (libomp) remains for kernels compiled with the
// pipelines' openmp=true, which fork its team (oneDNN's calls run with a
// team of one: the runtime cuts them into pieces itself): the runtime
// asks it for passive waits (KMP_BLOCKTIME=0) when it is loaded, before
// libomp initialises, unless the environment already chooses a policy
// (OMP_WAIT_POLICY or KMP_BLOCKTIME), which then wins, so that its sleeping
// workers leave the cores to this pool.
//
//===----------------------------------------------------------------------===//

#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

// libomp's extension (declared in its omp.h, not in GCC's): settings in
// environment-variable syntax, taken as defaults when libomp initialises.
extern "C" void kmp_set_defaults(char const *settings);
extern "C" void omp_set_num_threads(int);

namespace {
[[gnu::constructor]] void preferPassiveWaits() {
  if (!std::getenv("OMP_WAIT_POLICY") && !std::getenv("KMP_BLOCKTIME"))
    kmp_set_defaults("KMP_BLOCKTIME=0");
}

/// A positive integer from the environment, or 0.
int64_t positiveEnv(const char *name) {
  const char *text = std::getenv(name);
  if (!text)
    return 0;
  char *end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  // OMP_NUM_THREADS may be a list ("2,1"): its first entry counts.
  if (end == text || (*end && *end != ','))
    return 0;
  return value > 0 ? value : 0;
}

int configuredThreads() {
  int64_t threads = positiveEnv("RELAX_NUM_THREADS");
  if (!threads)
    threads = positiveEnv("OMP_NUM_THREADS");
  if (!threads) {
    cpu_set_t set;
    threads = sched_getaffinity(0, sizeof(set), &set) == 0
                  ? CPU_COUNT(&set)
                  : std::thread::hardware_concurrency();
  }
  return static_cast<int>(std::clamp<int64_t>(threads, 1, 256));
}

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

/// Sleeps while `word` holds `expected` (or returns at once if it does not).
void futexWait(std::atomic<uint32_t> &word, uint32_t expected) {
#ifdef __linux__
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAIT_PRIVATE,
          expected, nullptr, nullptr, 0);
#else
  while (word.load() == expected)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
#endif
}

void futexWakeAll(std::atomic<uint32_t> &word) {
#ifdef __linux__
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAKE_PRIVATE,
          INT32_MAX, nullptr, nullptr, 0);
#else
  (void)word;
#endif
}

/// One parallel loop: [0, n) cut into `chunks` near-equal chunks.
struct Job {
  relax_rt_task_fn fn;
  void *context;
  int64_t n, chunks;
  std::atomic<int64_t> next{0}, done{0};

  /// Where chunk `c` starts: the first n % chunks chunks have one more
  /// iteration (no product that could overflow).
  int64_t start(int64_t c) const {
    return c * (n / chunks) + std::min(c, n % chunks);
  }

  /// Claims and runs chunks until none is left.
  void run() {
    for (int64_t c; (c = next.fetch_add(1, std::memory_order_relaxed)) <
                    chunks;) {
      fn(context, start(c), start(c + 1));
      done.fetch_add(1, std::memory_order_release);
    }
  }
};

/// Set while a thread runs chunks: a loop started there runs inline.
thread_local bool insideTask = false;

class Pool {
public:
  explicit Pool(int threads)
      : threads(threads),
        spin(std::getenv("RELAX_SPIN_US") ? positiveEnv("RELAX_SPIN_US")
                                          : 200) {}

  int size() const { return threads; }

  void parallelFor(relax_rt_task_fn fn, void *context, int64_t n,
                   int64_t chunks) {
    std::unique_lock<std::mutex> owner(submitting, std::try_to_lock);
    if (!owner.owns_lock() || chunks <= 1 || insideTask) {
      fn(context, 0, n);
      return;
    }
    startWorkers();
    keepCallerApart();
    auto job = std::make_shared<Job>();
    job->fn = fn;
    job->context = context;
    job->n = n;
    job->chunks = chunks;
    {
      std::lock_guard<std::mutex> lock(jobMutex);
      current = job;
    }
    // Dekker with the workers' `sleepers` increment: either a worker about
    // to sleep sees the new epoch, or this sees it sleeping and wakes it.
    epoch.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers.load(std::memory_order_seq_cst) > 0)
      futexWakeAll(epoch);
    insideTask = true;
    job->run();
    insideTask = false;
    // Only chunks that a running worker claimed are left.
    for (int spins = 0;
         job->done.load(std::memory_order_acquire) < job->chunks; ++spins) {
      if (spins < 4096)
        cpuRelax();
      else
        std::this_thread::yield();
    }
    std::lock_guard<std::mutex> lock(jobMutex);
    current.reset();
  }

private:
  void startWorkers() {
    if (started)
      return;
    started = true;
    // Each worker keeps to one CPU of those the process may use, other
    // than the caller's: an unbound worker woken from a futex may be
    // placed on a CPU that another process holds, or on its waker's, and
    // wait there until the load balancer moves it, milliseconds later.
    // Measured beside a busy loop on this two-core machine: a Llama block
    // at sequence 128 took 0.83-0.85 ms on two threads with bound workers,
    // 1.3-2.2 ms with unbound ones (alone, the two measured the same). Only
    // when the pool has every CPU of the process's mask: a smaller pool
    // (several processes sharing a machine) would bind each process's
    // workers to the same first CPUs. RELAX_BIND_THREADS=0 leaves them
    // unbound.
    std::vector<int> &cpus = allowedCpus;
    cpu_set_t allowed;
    const char *bind = std::getenv("RELAX_BIND_THREADS");
    if ((!bind || std::string(bind) != "0") &&
        sched_getaffinity(0, sizeof(allowed), &allowed) == 0 &&
        CPU_COUNT(&allowed) == threads) {
      int caller = sched_getcpu();
      for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &allowed))
          cpus.push_back(cpu);
      // The caller's CPU last: the workers take the others first.
      std::stable_partition(cpus.begin(), cpus.end(),
                            [&](int cpu) { return cpu != caller; });
    }
    moveTo = std::make_unique<std::atomic<int>[]>(threads - 1);
    for (int i = 1; i < threads; ++i) {
      int cpu = size_t(i - 1) < cpus.size() ? cpus[i - 1] : -1;
      workerCpu.push_back(cpu);
      moveTo[i - 1].store(-1);
      std::thread([this, i, cpu] {
        pinTo(cpu);
        work(i - 1);
      }).detach();
    }
  }

  static void pinTo(int cpu) {
    if (cpu < 0)
      return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof(one), &one);
  }

  /// The caller is not bound: the scheduler may move it onto a bound
  /// worker's CPU, where the two then share one CPU while another idles
  /// (llama-generate's two-thread prefill and decode at a third of their
  /// speed in some runs, 2026-12-06). Checked at each parallel loop (a vDSO
  /// call): such a worker is asked to move to a CPU nobody holds.
  void keepCallerApart() {
    if (allowedCpus.empty())
      return;
    int caller = sched_getcpu();
    for (size_t w = 0; w < workerCpu.size(); ++w) {
      if (workerCpu[w] != caller)
        continue;
      for (int cpu : allowedCpus) {
        if (cpu == caller || std::find(workerCpu.begin(), workerCpu.end(),
                                       cpu) != workerCpu.end())
          continue;
        workerCpu[w] = cpu;
        moveTo[w].store(cpu, std::memory_order_release);
        break;
      }
    }
  }

  void work(size_t index) {
    // oneDNN calls made from a chunk run on this thread alone: the pool
    // already splits them.
    omp_set_num_threads(1);
    uint32_t seen = epoch.load(std::memory_order_acquire);
    for (;;) {
      auto deadline = std::chrono::steady_clock::now() + spin;
      for (int spins = 0; epoch.load(std::memory_order_acquire) == seen;
           ++spins) {
        if ((spins & 63) != 63) {
          cpuRelax();
          continue;
        }
        if (std::chrono::steady_clock::now() < deadline)
          continue;
        sleepers.fetch_add(1, std::memory_order_seq_cst);
        futexWait(epoch, seen);
        sleepers.fetch_sub(1, std::memory_order_seq_cst);
      }
      seen = epoch.load(std::memory_order_acquire);
      int cpu = moveTo[index].exchange(-1, std::memory_order_acquire);
      pinTo(cpu);
      std::shared_ptr<Job> job;
      {
        std::lock_guard<std::mutex> lock(jobMutex);
        job = current;
      }
      if (job) {
        insideTask = true;
        job->run();
        insideTask = false;
      }
    }
  }

  const int threads;
  std::chrono::microseconds spin;
  std::mutex submitting, jobMutex;
  std::shared_ptr<Job> current;
  std::atomic<uint32_t> epoch{0};
  std::atomic<int> sleepers{0};
  bool started = false;
  /// The CPUs the workers may be bound to (empty: unbound); each worker's
  /// CPU (-1: unbound), kept by the submitting thread, and a CPU it is
  /// asked to move to (-1: none).
  std::vector<int> allowedCpus, workerCpu;
  std::unique_ptr<std::atomic<int>[]> moveTo;
};

Pool &pool() {
  // Never destroyed: workers may still spin when the process exits, and a
  // module's static destructors may still run kernels.
  static Pool *instance = new Pool(configuredThreads());
  return *instance;
}
} // namespace

int relax::runtime::poolThreads() {
  return insideTask ? 1 : pool().size();
}

extern "C" int relax_rt_num_threads(void) { return pool().size(); }

extern "C" void relax_rt_parallel_for(relax_rt_task_fn fn, void *context,
                                      int64_t n, int64_t chunks,
                                      int64_t work) {
  if (n <= 0)
    return;
  Pool &p = pool();
  if (chunks <= 0) {
    // About four chunks per thread, so that a thread that starts late (its
    // core was taken) leaves its share to the others; fewer when the work
    // is known to be small.
    chunks = 4 * int64_t(p.size());
    if (work >= 0)
      chunks = std::min<int64_t>(chunks, std::max<int64_t>(work / 8192, 1));
  }
  chunks = std::min(chunks, n);
  if (p.size() == 1 || chunks <= 1) {
    fn(context, 0, n);
    return;
  }
  p.parallelFor(fn, context, n, chunks);
}
