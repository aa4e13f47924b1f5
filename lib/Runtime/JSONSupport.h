//===- JSONSupport.h - nlohmann-json helpers of the runtime -----*- C++ -*-===//
//
// The runtime parses JSON (parameter file headers, module metadata) with
// nlohmann-json, a header-only library, instead of LLVM's. The project
// builds without C++ exceptions, under which nlohmann-json aborts where it
// would throw: these helpers parse without throwing and read values only
// after checking their type. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_LIB_RUNTIME_JSONSUPPORT_H
#define RELAX_LIB_RUNTIME_JSONSUPPORT_H

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace mlir::relax::rt::json {

using Value = nlohmann::json;

/// Parses `text`; on failure returns nullopt and sets `error` to the
/// parser's reason ("syntax error while parsing value ... at line 1,
/// column 2").
std::optional<Value> parse(std::string_view text, std::string &error);

/// `v` as an integer: an integer in int64's range, or a float with an
/// integral value in it (as LLVM's JSON reader accepts).
inline std::optional<int64_t> asInteger(const Value &v) {
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (v.is_number_integer())
    return v.get<int64_t>();
  if (v.is_number_float()) {
    double d = v.get<double>(), whole;
    if (std::modf(d, &whole) == 0.0 && d >= -0x1p63 && d < 0x1p63)
      return static_cast<int64_t>(d);
  }
  return std::nullopt;
}

/// The member `key` of object `o`, or null when absent.
inline const Value *member(const Value &o, const char *key) {
  auto it = o.find(key);
  return it == o.end() ? nullptr : &*it;
}

} // namespace mlir::relax::rt::json

#endif // RELAX_LIB_RUNTIME_JSONSUPPORT_H
