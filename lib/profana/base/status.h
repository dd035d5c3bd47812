// Status and Result<T>: how every library function reports failure. The library never throws
// across its API and never prints; apps/ maps a Status to a message and an exit code.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace profana {

// Error categories, after LLVM's instrprof_error. The CLI maps every one of them to exit code 2
// except kCheckFailed (1).
enum class ErrorCode {
  kOk = 0,
  kIo,                  // cannot open / read / write
  kUnrecognizedFormat,  // no importer claims the bytes
  kBadMagic,
  kUnsupportedVersion,
  kTruncated,  // input ends early (fatal only when nothing usable is left, or --strict)
  kMalformed,  // structure broken
  kTooLarge,
  kInvalidArgument,  // bad option value
  kCheckFailed,      // a CI gate failed
  kInternal,
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  // "<where>: <what>", where is a file and a position (byte offset, event index, table:row).
  const std::string& message() const { return message_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : value_(std::move(status)) {}  // NOLINT: must not be Ok

  bool ok() const { return std::holds_alternative<T>(value_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(value_);
  }
  T& value() & { return std::get<T>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> value_;
};

}  // namespace profana

#define PROFANA_RETURN_IF_ERROR(expr) \
  do {                                \
    ::profana::Status _st = (expr);   \
    if (!_st.ok()) return _st;        \
  } while (0)

#define PROFANA_CONCAT_INNER(a, b) a##b
#define PROFANA_CONCAT(a, b) PROFANA_CONCAT_INNER(a, b)
#define PROFANA_ASSIGN_OR_RETURN(lhs, expr)                                                   \
  auto PROFANA_CONCAT(_res_, __LINE__) = (expr);                                              \
  if (!PROFANA_CONCAT(_res_, __LINE__).ok()) return PROFANA_CONCAT(_res_, __LINE__).status(); \
  lhs = std::move(PROFANA_CONCAT(_res_, __LINE__)).value()
