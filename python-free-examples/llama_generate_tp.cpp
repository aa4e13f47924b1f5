//===- llama_generate_tp.cpp - One rank of a tensor-parallel Llama --------===//
//
// llama-generate-tp: llama-generate as one rank of a model that
// scripts/gen-llama-model.py --tensor-parallel N split over N ranks, started
// by `mpirun -np N`. Every rank opens the same library, binds its slice of
// the weights (cut at load time from the full tensors of --weights or the
// random-weight generator: the same numbers as a single-process run) and
// runs prefill and the decode steps; the model's collectives
// (relax.ccl.allreduce, lowered to relax_mpi_* calls) meet in
// libRelaxCollectives. Rank 0 chooses each greedy token and shares it, and
// is the only one that prints: the tokens, tokens/s and the time spent in
// the collectives. The options are llama-generate's (docs/llm.md, "Tensor
// parallel").
//
//===----------------------------------------------------------------------===//

#include "llama_generate.h"

#include "RelaxDialect/Runtime/RelaxCollectives.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

using namespace llama_generate;

namespace {

void shareToken(int64_t &token) {
  MPI_Bcast(&token, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
}

double collectiveSeconds() {
  double seconds = 0;
  relax_mpi_stats(&seconds, nullptr, nullptr);
  return seconds;
}

/// A rank that fails (fail() exits) takes the job down with it: the others
/// would wait in their next collective forever. What it printed goes out
/// first (MPI_Abort ends the process before exit() would flush it).
void abortUnlessFinalized() {
  std::fflush(nullptr);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Abort(MPI_COMM_WORLD, 1);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // Every rank parses the same arguments, so a bad one stops each rank
  // alike and --help exits 0 with its usage; from here on a rank's failure
  // aborts the job.
  Options opts = parseOptions(argc, argv);
  std::atexit(abortUnlessFinalized);
  MPI_Comm_rank(MPI_COMM_WORLD, &opts.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &opts.ranks);
  if (!opts.saveWeights.empty())
    fail("--save-weights: run llama-generate (one process) to save the "
         "generated weights");
  opts.shareToken = shareToken;
  opts.collectiveSeconds = collectiveSeconds;
  // Only rank 0 prints (the streamed text and the summary); the others'
  // errors still reach stderr.
  if (opts.rank != 0 && !std::freopen("/dev/null", "w", stdout))
    fail("cannot silence rank " + std::to_string(opts.rank) + "'s output");
  std::vector<int64_t> prompt;
  Generation gen = generateAndSummarize(opts, prompt);
  size_t decoded = gen.tokens.empty() ? 0 : gen.tokens.size() - 1;
  printf("ranks: %d; in the collectives: prefill %.2f ms (%.1f%%), decode "
         "%.3f ms a token (%.1f%%)\n",
         opts.ranks, gen.prefillCollectiveSeconds * 1e3,
         gen.prefillSeconds > 0
             ? 100 * gen.prefillCollectiveSeconds / gen.prefillSeconds
             : 0.0,
         decoded ? gen.decodeCollectiveSeconds * 1e3 / decoded : 0.0,
         gen.decodeSeconds > 0
             ? 100 * gen.decodeCollectiveSeconds / gen.decodeSeconds
             : 0.0);
  fflush(stdout);
  // Rank 0 compares with the references; its verdict is everyone's.
  int status = opts.rank == 0 ? compareWithReferences(opts, gen) : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
