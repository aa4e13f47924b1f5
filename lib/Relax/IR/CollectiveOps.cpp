//===- CollectiveOps.cpp - shape inference of the collectives -------------===//
//
// relax.ccl.allreduce keeps its input's type; relax.ccl.allgather multiplies
// the gathered dim by the number of ranks, symbolically (`2 * v`). Both check
// their attributes here, so a malformed collective is a located error when
// it is built or parsed, never a mismatch between ranks at run time.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/RelaxCollectiveOps.h"

using namespace mlir;
using namespace mlir::relax;

#define GET_OP_CLASSES
#include "RelaxDialect/Relax/IR/RelaxCollectiveOps.cpp.inc"

/// The checks both collectives share: a floating-point dtype (what the
/// runtimes reduce and gather) and at least one rank.
static LogicalResult checkCollective(std::optional<Location> loc,
                                     StringRef opName, RelaxTensorType input,
                                     int64_t numRanks) {
  if (!isa<FloatType>(input.getDtype()))
    return inferFailure(loc, opName, "requires a floating-point input dtype");
  if (numRanks < 1)
    return inferFailure(loc, opName,
                        "num_ranks must be at least 1, got " +
                            Twine(numRanks));
  return success();
}

LogicalResult AllReduceOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  if (failed(checkCollective(loc, getOperationName(), input,
                             adaptor.getNumRanks())))
    return failure();
  StringRef op = adaptor.getOp();
  if (op != "sum" && op != "prod" && op != "max" && op != "min")
    return inferFailure(loc, getOperationName(),
                        "op must be sum, prod, max or min, got '" + op + "'");
  results.push_back(input);
  return success();
}

LogicalResult AllGatherOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  int64_t numRanks = adaptor.getNumRanks();
  if (failed(checkCollective(loc, getOperationName(), input, numRanks)))
    return failure();
  // The gathered dim must exist: an unknown rank gives no axis to grow.
  if (!input.hasRank())
    return inferFailure(loc, getOperationName(),
                        "requires an input of known rank");
  FailureOr<int64_t> axis = normalizeAxis(loc, getOperationName(),
                                          adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  SmallVector<sym::Expr> dims(input.getDims());
  // A `?` dim stays `?`: numRanks times an unknown is still unknown.
  if (dims[*axis])
    dims[*axis] = dims[*axis] * numRanks;
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}
