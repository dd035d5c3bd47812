#include "profana/base/status.h"

namespace profana {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "ok";
    case ErrorCode::kIo:
      return "io error";
    case ErrorCode::kUnrecognizedFormat:
      return "unrecognized format";
    case ErrorCode::kBadMagic:
      return "bad magic";
    case ErrorCode::kUnsupportedVersion:
      return "unsupported version";
    case ErrorCode::kTruncated:
      return "truncated";
    case ErrorCode::kMalformed:
      return "malformed";
    case ErrorCode::kTooLarge:
      return "too large";
    case ErrorCode::kInvalidArgument:
      return "invalid argument";
    case ErrorCode::kCheckFailed:
      return "check failed";
    case ErrorCode::kInternal:
      return "internal error";
  }
  return "unknown";
}

}  // namespace profana
