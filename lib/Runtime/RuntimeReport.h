//===- RuntimeReport.h - Error messages of the runtime's kernels -*- C++ -*-===//
//
// The formatted report into the runtime's error slot (relax_rt_error) and
// the shape text the kernels' messages quote, shared by the BLAS binding
// (BlasSupport.h) and the quantized products (RelaxQuant.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_RUNTIMEREPORT_H
#define RELAX_RUNTIME_RUNTIMEREPORT_H

#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <cstdarg>
#include <cstdio>
#include <string>

namespace relax::runtime {

/// Formats a message into the runtime's error slot (first error kept).
[[gnu::format(printf, 1, 2)]] inline void reportError(const char *format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  relax_rt_error(buffer);
}

/// `m`'s sizes as "[2, 3]".
template <typename T, int N>
std::string shapeString(const relax_rt::MemRef<T, N> *m) {
  std::string s = "[";
  for (int i = 0; i < N; ++i) {
    if (i)
      s += ", ";
    s += std::to_string(m->sizes[i]);
  }
  return s + "]";
}

} // namespace relax::runtime

#endif // RELAX_RUNTIME_RUNTIMEREPORT_H
