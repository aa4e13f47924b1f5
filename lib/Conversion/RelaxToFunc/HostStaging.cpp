//===- HostStaging.cpp - device buffers read on the host ------------------===//
//
// --relax-lower-shapes: the values host code reads from tensors (a
// condition, tensor_to_shape's dims, indices to check) are read from a
// host copy, which under --relax-lower-to-gpu is a device-to-host
// transfer.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "RelaxDialect/Conversion/HostMemoryToGPU/HostMemoryToGPU.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::lower_shapes;

/// A host copy of `tensor` for host code that reads its values: under
/// --relax-lower-to-gpu convert-host-memory-to-gpu turns the copy into a
/// device-to-host transfer (kHostStagingAttrName). Free it with
/// freeStaging.
Value FunctionLowering::stageOnHost(Value tensor, Location loc) {
  flushChecks(); // checks pending before the copy decide first
  memref::AllocOp staging = allocLike(tensor, loc);
  staging->setAttr(kHostStagingAttrName, builder.getUnitAttr());
  // A failed allocation is an error, not a copy into null (the indices of
  // a take at k = 2^31 under a 4 GiB ulimit crashed; found by
  // scripts/mutate-run.py).
  Type i64 = builder.getI64Type();
  Value elements = arith::ConstantIntOp::create(builder, loc, i64, 1);
  auto type = cast<MemRefType>(tensor.getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    elements = arith::MulIOp::create(
        builder, loc, elements,
        arith::IndexCastOp::create(builder, loc, i64, dimValue(tensor, d)));
  failIfNull(staging, loc,
             escapePercent(src.getSymName().str() + ": cannot allocate ") +
                 "a host copy of %lld elements" +
                 escapePercent(" at " + describeLoc(loc) + ": out of memory"),
             elements);
  memref::CopyOp::create(builder, loc, tensor, staging);
  return staging;
}
void FunctionLowering::freeStaging(Value staging, Location loc) {
  memref::DeallocOp::create(builder, loc, staging)
      ->setAttr(kHostStagingAttrName, builder.getUnitAttr());
}
/// Loads element `indices` of an integer buffer as i64 (sign- or
/// zero-extended as its dtype says).
Value FunctionLowering::loadAsI64(Value buffer, ValueRange indices,
                                  Location loc) {
  auto elementType =
      cast<IntegerType>(cast<MemRefType>(buffer.getType()).getElementType());
  Value raw = memref::LoadOp::create(builder, loc, buffer, indices);
  if (!elementType.isSignless())
    raw = UnrealizedConversionCastOp::create(
              builder, loc, builder.getIntegerType(elementType.getWidth()),
              raw)
              .getResult(0);
  Type i64 = builder.getI64Type();
  if (elementType.getWidth() == 64)
    return raw;
  if (elementType.isUnsigned())
    return arith::ExtUIOp::create(builder, loc, i64, raw);
  return arith::ExtSIOp::create(builder, loc, i64, raw);
}
