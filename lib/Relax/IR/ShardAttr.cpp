//===- ShardAttr.cpp - #relax.shard syntax and verifier
//--------------------===//
//
// `#relax.shard<replicated>` and `#relax.shard<split = a>`. The attribute
// alone does not know the tensor it annotates, so its verifier only rejects
// a negative axis; --relax-shard checks the axis against the rank of the
// parameter that carries it.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/RelaxShardAttr.h"

using namespace mlir;
using namespace mlir::relax;

LogicalResult ShardAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                std::optional<int64_t> split) {
  if (split && *split < 0)
    return emitError() << "#relax.shard: the split axis must be >= 0, got "
                       << *split;
  return success();
}

Attribute ShardAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  std::optional<int64_t> split;
  if (succeeded(parser.parseOptionalKeyword("split"))) {
    int64_t axis;
    if (parser.parseEqual() || parser.parseInteger(axis))
      return {};
    split = axis;
  } else if (failed(parser.parseOptionalKeyword("replicated"))) {
    parser.emitError(loc, "#relax.shard: expected 'replicated' or "
                          "'split = <axis>'");
    return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    split);
}

void ShardAttr::print(AsmPrinter &printer) const {
  if (std::optional<int64_t> split = getSplit())
    printer << "<split = " << *split << ">";
  else
    printer << "<replicated>";
}
