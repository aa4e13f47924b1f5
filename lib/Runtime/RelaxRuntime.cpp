//===- RelaxRuntime.cpp - relax-mlir CPU runtime --------------------------===//
//
// Errors live in a thread-local slot: compiled code records the first failed
// check and returns early, and the caller (relax-run, or an embedding
// application) decides what to do. Nothing here aborts the process.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <cstdio>
#include <string>

namespace {
thread_local std::string lastError;
thread_local bool hasError = false;
} // namespace

extern "C" void relax_rt_shape_error(const char *format, int64_t actual,
                                     int64_t expected) {
  if (hasError)
    return;
  char buffer[1024];
  std::snprintf(buffer, sizeof(buffer), format,
                static_cast<long long>(actual),
                static_cast<long long>(expected));
  lastError = buffer;
  hasError = true;
}

extern "C" void relax_rt_error(const char *message) {
  if (hasError)
    return;
  lastError = message ? message : "";
  hasError = true;
}

extern "C" int relax_rt_has_error(void) { return hasError ? 1 : 0; }

extern "C" const char *relax_rt_last_error(void) { return lastError.c_str(); }

extern "C" void relax_rt_clear_error(void) {
  lastError.clear();
  hasError = false;
}

#ifndef RELAX_RUNTIME_HAS_BLAS
// Without the BLAS binding nothing is kept about constants.
extern "C" void relax_rt_blas_release_constants(void) {}
extern "C" void relax_rt_blas_warm_up(void) {}
#endif
