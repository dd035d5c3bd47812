#include "profana/passes/name_matcher.h"

#include <re2/re2.h>

#include "fmt/format.h"

namespace profana::passes {

NameMatcher::NameMatcher() = default;
NameMatcher::~NameMatcher() = default;
NameMatcher::NameMatcher(NameMatcher&&) noexcept = default;
NameMatcher& NameMatcher::operator=(NameMatcher&&) noexcept = default;

Status NameMatcher::Compile(const std::string& pattern, const char* option, size_t strings) {
  if (pattern.empty()) return Status::Ok();
  RE2::Options options;
  options.set_log_errors(false);  // the library never prints: the error goes in the Status
  re_ = std::make_unique<RE2>(pattern, options);
  if (!re_->ok())
    return Status(ErrorCode::kInvalidArgument, fmt::format("{} \"{}\": bad regular expression: {}",
                                                           option, pattern, re_->error()));
  cache_.assign(strings, -1);
  return Status::Ok();
}

bool NameMatcher::Matches(const Trace& t, StringId id) {
  int8_t& c = cache_[id.value];
  if (c < 0) {
    std::string_view s = t.str(id);
    c = RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re_) ? 1 : 0;
  }
  return c == 1;
}

}  // namespace profana::passes
