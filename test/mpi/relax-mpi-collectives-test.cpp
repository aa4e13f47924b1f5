//===- relax-mpi-collectives-test.cpp - libRelaxCollectives under mpirun --===//
//
// Calls the relax_mpi_* entries (RelaxCollectives.h) the way compiled code
// does, on data that differs per rank, and checks every element against the
// values computed here: sums and maxima, gathers along the first and an
// inner axis (the interleaving), strided descriptors (a transposed view in,
// a padded output), and the errors (another number of ranks, shapes, axis).
// Run by test/lit/Integration/mpi-collectives.test with 2 and 3 ranks; rank
// 0 prints one line per check, any rank prints FAIL lines.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxCollectives.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using relax_rt::MemRef;

extern "C" {
void _mlir_ciface_relax_mpi_allreduce_sum_r2_f32(MemRef<float, 2> *,
                                                 MemRef<int64_t, 1> *,
                                                 MemRef<float, 2> *);
void _mlir_ciface_relax_mpi_allreduce_max_r1_f64(MemRef<double, 1> *,
                                                 MemRef<int64_t, 1> *,
                                                 MemRef<double, 1> *);
void _mlir_ciface_relax_mpi_allgather_r3_f32(MemRef<float, 3> *,
                                             MemRef<int64_t, 1> *,
                                             MemRef<float, 3> *);
void _mlir_ciface_relax_mpi_allgather_r2_f32(MemRef<float, 2> *,
                                             MemRef<int64_t, 1> *,
                                             MemRef<float, 2> *);
}

namespace {
int rank = 0, size = 1, failures = 0;

template <typename T, int N>
MemRef<T, N> view(std::vector<T> &data, const int64_t (&sizes)[N]) {
  MemRef<T, N> m{data.data(), data.data(), 0, {}, {}};
  int64_t stride = 1;
  for (int i = N - 1; i >= 0; --i) {
    m.sizes[i] = sizes[i];
    m.strides[i] = stride;
    stride *= sizes[i];
  }
  return m;
}

MemRef<int64_t, 1> options(std::vector<int64_t> &values) {
  return view<int64_t, 1>(values, {int64_t(values.size())});
}

void expect(bool ok, const std::string &what) {
  if (!ok) {
    ++failures;
    printf("FAIL rank %d: %s\n", rank, what.c_str());
  }
}

/// The runtime's error, then cleared; empty when there is none.
std::string takeError() {
  std::string message = relax_rt_has_error() ? relax_rt_last_error() : "";
  relax_rt_clear_error();
  return message;
}

void report(const char *check) {
  expect(takeError().empty(), std::string(check) + ": unexpected error");
  if (rank == 0)
    printf("%s: ok\n", check);
}

// Element i of rank r's input: distinct per rank and per element.
float value(int r, int64_t i) { return float(r * 100 + i); }
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int64_t> ranks = {size};

  { // Sum of [3, 4].
    std::vector<float> x(12), y(12, -1);
    for (int i = 0; i < 12; ++i)
      x[i] = value(rank, i);
    auto xm = view<float, 2>(x, {3, 4}), ym = view<float, 2>(y, {3, 4});
    auto om = options(ranks);
    _mlir_ciface_relax_mpi_allreduce_sum_r2_f32(&xm, &om, &ym);
    for (int i = 0; i < 12; ++i) {
      float sum = 0;
      for (int r = 0; r < size; ++r)
        sum += value(r, i);
      expect(y[i] == sum, "sum element " + std::to_string(i));
    }
    report("allreduce sum [3, 4]");
  }
  { // Sum of a transposed view into a padded output: strided both ways.
    std::vector<float> x(12), y(3 * 5, -1);
    for (int i = 0; i < 12; ++i)
      x[i] = value(rank, i);
    // X is [4, 3] row-major read as [3, 4] with strides (1, 3).
    MemRef<float, 2> xm{x.data(), x.data(), 0, {3, 4}, {1, 3}};
    MemRef<float, 2> ym{y.data(), y.data(), 1, {3, 4}, {5, 1}};
    auto om = options(ranks);
    _mlir_ciface_relax_mpi_allreduce_sum_r2_f32(&xm, &om, &ym);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) {
        float sum = 0;
        for (int r = 0; r < size; ++r)
          sum += value(r, j * 3 + i);
        expect(y[1 + i * 5 + j] == sum, "strided sum (" + std::to_string(i) +
                                            ", " + std::to_string(j) + ")");
      }
    for (int i = 0; i < 3; ++i)
      expect(y[i * 5] == -1, "padding untouched");
    report("allreduce sum, strided views");
  }
  { // Max of f64 [5].
    std::vector<double> x(5), y(5);
    for (int i = 0; i < 5; ++i)
      x[i] = (rank % 2 ? -1.0 : 1.0) * (rank + i);
    auto xm = view<double, 1>(x, {5}), ym = view<double, 1>(y, {5});
    auto om = options(ranks);
    _mlir_ciface_relax_mpi_allreduce_max_r1_f64(&xm, &om, &ym);
    for (int i = 0; i < 5; ++i) {
      double best = x[i];
      for (int r = 0; r < size; ++r)
        best = std::max(best, (r % 2 ? -1.0 : 1.0) * (r + i));
      expect(y[i] == best, "max element " + std::to_string(i));
    }
    report("allreduce max f64 [5]");
  }
  { // Gather [2, 3, 2] along axis 1 -> [2, 3 * size, 2]: interleaved.
    std::vector<float> x(12), y(12 * size, -1);
    for (int i = 0; i < 12; ++i)
      x[i] = value(rank, i);
    std::vector<int64_t> opts = {size, 1};
    auto xm = view<float, 3>(x, {2, 3, 2});
    auto ym = view<float, 3>(y, {2, 3 * size, 2});
    auto om = options(opts);
    _mlir_ciface_relax_mpi_allgather_r3_f32(&xm, &om, &ym);
    for (int a = 0; a < 2; ++a)
      for (int r = 0; r < size; ++r)
        for (int b = 0; b < 3; ++b)
          for (int c = 0; c < 2; ++c)
            expect(y[(a * 3 * size + r * 3 + b) * 2 + c] ==
                       value(r, (a * 3 + b) * 2 + c),
                   "gather axis 1 element");
    report("allgather [2, 3, 2] axis 1");
  }
  { // Gather [2, 2] along axis 0 -> [2 * size, 2]: the ranks in order.
    std::vector<float> x(4), y(4 * size, -1);
    for (int i = 0; i < 4; ++i)
      x[i] = value(rank, i);
    std::vector<int64_t> opts = {size, 0};
    auto xm = view<float, 2>(x, {2, 2});
    auto ym = view<float, 2>(y, {2 * size, 2});
    auto om = options(opts);
    _mlir_ciface_relax_mpi_allgather_r2_f32(&xm, &om, &ym);
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < 4; ++i)
        expect(y[r * 4 + i] == value(r, i), "gather axis 0 element");
    report("allgather [2, 2] axis 0");
  }
  { // Errors: each leaves Y untouched and names the function.
    std::vector<float> x(4, 1), y(4, -1);
    auto xm = view<float, 2>(x, {2, 2}), ym = view<float, 2>(y, {2, 2});
    std::vector<int64_t> other = {size + 1};
    auto om = options(other);
    _mlir_ciface_relax_mpi_allreduce_sum_r2_f32(&xm, &om, &ym);
    std::string e1 = takeError();
    auto wrong = view<float, 2>(y, {4, 1});
    auto okRanks = options(ranks);
    _mlir_ciface_relax_mpi_allreduce_sum_r2_f32(&xm, &okRanks, &wrong);
    std::string e2 = takeError();
    std::vector<int64_t> badAxis = {size, 2};
    auto am = options(badAxis);
    _mlir_ciface_relax_mpi_allgather_r2_f32(&xm, &am, &ym);
    std::string e3 = takeError();
    // Y [2, 2] is what a gather along axis 1 of one rank writes.
    std::string e4 = "(one rank: Y fits)";
    if (size > 1) {
      std::vector<int64_t> gather = {size, 1};
      auto gm = options(gather);
      _mlir_ciface_relax_mpi_allgather_r2_f32(&xm, &gm, &ym);
      e4 = takeError();
    }
    expect(y == std::vector<float>(4, -1), "Y untouched by the errors");
    if (rank == 0)
      printf("error: %s\nerror: %s\nerror: %s\nerror: %s\n", e1.c_str(),
             e2.c_str(), e3.c_str(), e4.c_str());
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d ranks, %d failures\n", size, total);
  MPI_Finalize();
  return total ? 1 : 0;
}
