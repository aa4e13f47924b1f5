//===- RelaxCollectives.cpp - allreduce and allgather over MPI ------------===//
//
// The CPU runtime of relax.ccl.allreduce and relax.ccl.allgather
// (RelaxCollectives.h): MPI_Allreduce and MPI_Allgather on MPI_COMM_WORLD.
// A library of its own, so that only the programs that run tensor-parallel
// models link MPI. Descriptors with row-major contiguous data are handed
// to MPI in place; others are packed into a contiguous copy first (and the
// output scattered back). An allgather along an inner axis receives the
// ranks' blocks one after the other and interleaves them into Y.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxCollectives.h"
#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

using relax_rt::MemRef;

namespace {

struct Stats {
  double seconds = 0;
  int64_t calls = 0, bytes = 0;
};
Stats stats;

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <typename T> MPI_Datatype mpiType();
template <> MPI_Datatype mpiType<float>() { return MPI_FLOAT; }
template <> MPI_Datatype mpiType<double>() { return MPI_DOUBLE; }

void fail(const char *fn, const std::string &message) {
  relax_rt_error((std::string(fn) + ": " + message).c_str());
}

template <int N> std::string shapeText(const int64_t (&sizes)[N]) {
  std::string s = "[";
  for (int i = 0; i < N; ++i)
    s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

/// The world's size, after checking that MPI runs and has the ranks the
/// program was sharded for; -1 after recording an error.
int worldSize(const char *fn, int64_t expected) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    fail(fn, "MPI is not running (start the program with mpirun, through a "
             "driver that initializes MPI such as llama-generate-tp)");
    return -1;
  }
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (expected != size) {
    fail(fn, "the program was sharded for " + std::to_string(expected) +
                 " ranks, this run has " + std::to_string(size) +
                 " (mpirun -np)");
    return -1;
  }
  return size;
}

template <typename T, int N> int64_t numElements(const MemRef<T, N> *m) {
  int64_t count = 1;
  for (int i = 0; i < N; ++i)
    count *= m->sizes[i];
  return count;
}

/// Whether the elements lie row-major one after the other (strides of
/// extent-1 dims do not matter).
template <typename T, int N> bool isContiguous(const MemRef<T, N> *m) {
  int64_t expected = 1;
  for (int i = N - 1; i >= 0; --i) {
    if (m->sizes[i] != 1 && m->strides[i] != expected)
      return false;
    expected *= m->sizes[i];
  }
  return true;
}

/// Calls `f(element offset)` for each element of `m` in row-major order.
template <typename T, int N, typename F>
void forEachOffset(const MemRef<T, N> *m, F f) {
  int64_t index[N] = {};
  int64_t count = numElements(m);
  for (int64_t e = 0; e < count; ++e) {
    int64_t offset = m->offset;
    for (int i = 0; i < N; ++i)
      offset += index[i] * m->strides[i];
    f(offset);
    for (int i = N - 1; i >= 0 && ++index[i] == m->sizes[i]; --i)
      index[i] = 0;
  }
}

/// X's elements as one row-major run: in place, or copied into `copy`.
template <typename T, int N>
const T *contiguousInput(const MemRef<T, N> *x, std::vector<T> &copy) {
  if (isContiguous(x))
    return x->aligned + x->offset;
  copy.clear();
  copy.reserve(numElements(x));
  forEachOffset(x, [&](int64_t o) { copy.push_back(x->aligned[o]); });
  return copy.data();
}

/// Where Y's elements are written row-major: in place, or into `copy`
/// (scattered by finishOutput).
template <typename T, int N>
T *contiguousOutput(MemRef<T, N> *y, std::vector<T> &copy) {
  if (isContiguous(y))
    return y->aligned + y->offset;
  copy.resize(numElements(y));
  return copy.data();
}

template <typename T, int N>
void finishOutput(MemRef<T, N> *y, const std::vector<T> &copy) {
  if (isContiguous(y))
    return;
  size_t next = 0;
  forEachOffset(y, [&](int64_t o) { y->aligned[o] = copy[next++]; });
}

/// The checks every entry shares; false after recording an error.
template <typename T, int N>
bool checkOperands(const char *fn, const MemRef<T, N> *x,
                   const MemRef<int64_t, 1> *options, int64_t numOptions,
                   const MemRef<T, N> *y) {
  if (!x || !options || !y || !x->aligned || !y->aligned ||
      !options->aligned) {
    fail(fn, "null descriptor");
    return false;
  }
  if (options->sizes[0] != numOptions) {
    fail(fn, "options has " + std::to_string(options->sizes[0]) +
                 " elements, expected " + std::to_string(numOptions));
    return false;
  }
  for (int i = 0; i < N; ++i)
    if (x->sizes[i] < 0 || y->sizes[i] < 0) {
      fail(fn, "negative size");
      return false;
    }
  int64_t count = numElements(y);
  if (count > INT_MAX) {
    fail(fn, "Y has " + std::to_string(count) +
                 " elements, more than one MPI call takes (INT_MAX)");
    return false;
  }
  return true;
}

int64_t option(const MemRef<int64_t, 1> *options, int i) {
  return options->aligned[options->offset + i * options->strides[0]];
}

template <typename T, int N>
void allreduce(const char *fn, MPI_Op op, MemRef<T, N> *x,
               MemRef<int64_t, 1> *options, MemRef<T, N> *y) {
  if (!checkOperands(fn, x, options, 1, y))
    return;
  for (int i = 0; i < N; ++i)
    if (x->sizes[i] != y->sizes[i]) {
      fail(fn, "X is " + shapeText(x->sizes) + " and Y is " +
                   shapeText(y->sizes) + ": the shapes differ");
      return;
    }
  if (worldSize(fn, option(options, 0)) < 0)
    return;
  double start = now();
  std::vector<T> inCopy, outCopy;
  const T *in = contiguousInput(x, inCopy);
  T *out = contiguousOutput(y, outCopy);
  int count = static_cast<int>(numElements(x));
  int rc = MPI_Allreduce(in, out, count, mpiType<T>(), op, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) {
    fail(fn, "MPI_Allreduce failed (error " + std::to_string(rc) + ")");
    return;
  }
  finishOutput(y, outCopy);
  stats.seconds += now() - start;
  ++stats.calls;
  stats.bytes += int64_t(count) * sizeof(T);
}

template <typename T, int N>
void allgather(const char *fn, MemRef<T, N> *x, MemRef<int64_t, 1> *options,
               MemRef<T, N> *y) {
  if (!checkOperands(fn, x, options, 2, y))
    return;
  int64_t ranks = option(options, 0), axis = option(options, 1);
  if (axis < 0 || axis >= N) {
    fail(fn, "axis " + std::to_string(axis) + " is not a dim of rank " +
                 std::to_string(N));
    return;
  }
  for (int i = 0; i < N; ++i) {
    int64_t expected = i == axis ? ranks * x->sizes[i] : x->sizes[i];
    if (y->sizes[i] != expected) {
      fail(fn, "X is " + shapeText(x->sizes) + " and Y is " +
                   shapeText(y->sizes) + ": expected Y dim " +
                   std::to_string(i) + " = " + std::to_string(expected) +
                   " (" + std::to_string(ranks) + " ranks along axis " +
                   std::to_string(axis) + ")");
      return;
    }
  }
  if (worldSize(fn, ranks) < 0)
    return;
  double start = now();
  std::vector<T> inCopy, outCopy;
  const T *in = contiguousInput(x, inCopy);
  T *out = contiguousOutput(y, outCopy);
  // X as [outer, block]: `block` elements from the axis on. Y is then
  // [outer, ranks, block], MPI's receive order [ranks, outer, block].
  int64_t outer = 1;
  for (int i = 0; i < axis; ++i)
    outer *= x->sizes[i];
  int64_t count = numElements(x);
  int64_t block = outer ? count / outer : 0;
  std::vector<T> received;
  T *gathered = out;
  if (outer != 1) {
    received.resize(count * ranks);
    gathered = received.data();
  }
  int rc = MPI_Allgather(in, static_cast<int>(count), mpiType<T>(), gathered,
                         static_cast<int>(count), mpiType<T>(),
                         MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) {
    fail(fn, "MPI_Allgather failed (error " + std::to_string(rc) + ")");
    return;
  }
  if (outer != 1)
    for (int64_t r = 0; r < ranks; ++r)
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(out + (o * ranks + r) * block,
                    gathered + (r * outer + o) * block, block * sizeof(T));
  finishOutput(y, outCopy);
  stats.seconds += now() - start;
  ++stats.calls;
  stats.bytes += count * sizeof(T);
}

} // namespace

extern "C" {

void relax_mpi_stats(double *seconds, int64_t *calls, int64_t *bytes) {
  if (seconds)
    *seconds = stats.seconds;
  if (calls)
    *calls = stats.calls;
  if (bytes)
    *bytes = stats.bytes;
}

void relax_mpi_reset_stats(void) { stats = Stats(); }

// One entry per (operation, rank, dtype): the link names of Builtins.cpp.
#define RELAX_MPI_ALLREDUCE(OP, MPIOP, N, T, DT)                               \
  void _mlir_ciface_relax_mpi_allreduce_##OP##_r##N##_##DT(                    \
      MemRef<T, N> *x, MemRef<int64_t, 1> *options, MemRef<T, N> *y) {         \
    allreduce<T, N>("relax_mpi_allreduce_" #OP "_r" #N "_" #DT, MPIOP, x,      \
                    options, y);                                               \
  }
#define RELAX_MPI_ALLGATHER(N, T, DT)                                          \
  void _mlir_ciface_relax_mpi_allgather_r##N##_##DT(                           \
      MemRef<T, N> *x, MemRef<int64_t, 1> *options, MemRef<T, N> *y) {         \
    allgather<T, N>("relax_mpi_allgather_r" #N "_" #DT, x, options, y);        \
  }
#define RELAX_MPI_RANK(N, T, DT)                                               \
  RELAX_MPI_ALLREDUCE(sum, MPI_SUM, N, T, DT)                                  \
  RELAX_MPI_ALLREDUCE(prod, MPI_PROD, N, T, DT)                                \
  RELAX_MPI_ALLREDUCE(max, MPI_MAX, N, T, DT)                                  \
  RELAX_MPI_ALLREDUCE(min, MPI_MIN, N, T, DT)                                  \
  RELAX_MPI_ALLGATHER(N, T, DT)
#define RELAX_MPI_DTYPE(T, DT)                                                 \
  RELAX_MPI_RANK(1, T, DT)                                                     \
  RELAX_MPI_RANK(2, T, DT)                                                     \
  RELAX_MPI_RANK(3, T, DT) RELAX_MPI_RANK(4, T, DT)

RELAX_MPI_DTYPE(float, f32)
RELAX_MPI_DTYPE(double, f64)

} // extern "C"
