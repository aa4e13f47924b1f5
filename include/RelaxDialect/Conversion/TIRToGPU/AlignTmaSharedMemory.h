//===- AlignTmaSharedMemory.h - Shared tiles aligned for TMA ---*- C++ -*-===//
//
// The workgroup attributions of a kernel that loads with TMA are aligned to
// 1024 bytes, so that TMA's swizzle (which works on shared-memory address
// bits) gives the layout the kernel's readers expect.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_TIRTOGPU_ALIGNTMASHAREDMEMORY_H
#define RELAXDIALECT_CONVERSION_TIRTOGPU_ALIGNTMASHAREDMEMORY_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_RELAXALIGNTMASHAREDMEMORY
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_TIRTOGPU_ALIGNTMASHAREDMEMORY_H
