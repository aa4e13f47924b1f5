//===- Npy.h - The .npy file format -----------------------------*- C++ -*-===//
//
// Tensors are exchanged with numpy through .npy files (format 1.0, 2.0 and
// 3.0, C order, little endian). The header is parsed as the Python dict
// literal numpy writes, with exactly the keys descr, fortran_order and shape,
// each once. Malformed or truncated files are reported with a message naming
// the file and the problem, never by crashing.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_NPY_H
#define RELAXDIALECT_EXECUTION_NPY_H

#include "RelaxDialect/Execution/HostIO.h"
#include "RelaxDialect/Execution/HostTensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::relax::exec {

/// Reads the .npy file at `path`.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);
/// Decodes the bytes of a .npy file; `name` names it in error messages.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes,
                                    llvm::StringRef name);

/// Writes `tensor` to `path` (format 1.0, or 2.0 when the header needs it).
/// bf16 is written as its uint16 bit pattern ('<u2').
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);
// encodeNpy (HostIO.h) gives the bytes writeNpy writes.

} // namespace mlir::relax::exec

#endif // RELAXDIALECT_EXECUTION_NPY_H
