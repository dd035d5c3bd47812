// NameMatcher: a regular expression (RE2) matched against a trace's interned names, once per
// distinct name rather than once per event. RE2 runs in time linear in the name, with no
// recursion: a 30,000-character name cannot blow the stack (std::regex's backtracking did).
// The filters (--name, --exclude), the critical path's what-if rules and data-load annotations
// use it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace re2 {
class RE2;
}

namespace profana::passes {

class NameMatcher {
 public:
  NameMatcher();
  ~NameMatcher();
  NameMatcher(NameMatcher&&) noexcept;
  NameMatcher& operator=(NameMatcher&&) noexcept;

  // An empty pattern leaves the matcher inactive. `option` names it in the error ("--name");
  // `strings` is the size of the trace's string pool, which the cache is indexed by.
  Status Compile(const std::string& pattern, const char* option, size_t strings);
  bool active() const { return re_ != nullptr; }
  // Whether the pattern is found anywhere in the string (RE2::PartialMatch).
  bool Matches(const Trace& t, StringId id);

 private:
  std::unique_ptr<re2::RE2> re_;
  std::vector<int8_t> cache_;  // per StringId: -1 not yet asked, 0 no, 1 yes
};

}  // namespace profana::passes
