//===- Status.h - Results of the runtime's C++ layer ------------*- C++ -*-===//
//
// The runtime libraries (libRelaxRuntime, libRelaxModule) link no LLVM, so
// their C++ functions report failures with these two small types instead of
// llvm::Error / llvm::Expected: a Status is success or a one-line message for
// the user, a Result<T> a value or such a failure. Code that does link LLVM
// (lib/Execution) turns them into llvm::Error at the call site.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RUNTIME_STATUS_H
#define RELAXDIALECT_RUNTIME_STATUS_H

#include <optional>
#include <string>
#include <utility>

namespace mlir::relax::rt {

/// Success, or a failure with its message. Like llvm::Error, it converts to
/// true when it holds a failure: `if (Status s = f()) return s;`.
class [[nodiscard]] Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.failed = true;
    s.text = std::move(message);
    return s;
  }
  explicit operator bool() const { return failed; }
  const std::string &message() const { return text; }

private:
  bool failed = false;
  std::string text;
};

/// A value, or the failed Status that prevented it. Like llvm::Expected, it
/// converts to true when it holds a value.
template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : value(std::move(value)) {}
  /// `failure` must hold a failure.
  Result(Status failure) : failure(std::move(failure)) {}
  explicit operator bool() const { return value.has_value(); }
  T &operator*() { return *value; }
  const T &operator*() const { return *value; }
  T *operator->() { return &*value; }
  const T *operator->() const { return &*value; }
  /// The failure (success when there is a value).
  const Status &status() const { return failure; }
  const std::string &message() const { return failure.message(); }

private:
  std::optional<T> value;
  Status failure;
};

} // namespace mlir::relax::rt

#endif // RELAXDIALECT_RUNTIME_STATUS_H
