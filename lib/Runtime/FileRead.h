//===- FileRead.h - Reading a file's bytes at an offset ---------*- C++ -*-===//
//
// Internal to the RelaxModule library: the module loader's checks of a
// shared library (ModuleLoader.cpp) and the parameter file's copy into huge
// pages (ParamFile.cpp) both read exact byte ranges with pread.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_FILEREAD_H
#define RELAX_RUNTIME_FILEREAD_H

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include <unistd.h>

namespace mlir::relax::rt {

/// Reads the `bytes` bytes of file `fd` at `offset` into `out`: 0, or the
/// errno of the failure (EIO for a file that ends before them). Retries
/// reads that a signal interrupted and reads that return fewer bytes.
inline int readFileAt(int fd, void *out, size_t bytes, uint64_t offset) {
  size_t done = 0;
  while (done < bytes) {
    ssize_t n = pread(fd, static_cast<char *>(out) + done, bytes - done,
                      static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return errno;
    if (n == 0)
      return EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

} // namespace mlir::relax::rt

#endif // RELAX_RUNTIME_FILEREAD_H
