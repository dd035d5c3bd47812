#include "profana/passes/thread_roots.h"

#include <string>

namespace profana::passes {
namespace {

bool ThreadMatches(const Trace& t, ThreadId id, std::string_view wanted) {
  if (wanted.empty()) return true;
  const ThreadInfo& info = t.threads[id.value];
  std::string tid =
      info.tid_text.value ? std::string(t.str(info.tid_text)) : std::to_string(info.tid);
  return wanted == tid || (info.name.value && wanted == t.str(info.name));
}

}  // namespace

std::vector<ThreadRoots> RootsByThread(const Trace& t, const FunctionEventList& e,
                                       std::string_view thread) {
  std::vector<ThreadRoots> threads;
  std::vector<int32_t> slot(t.threads.size(), -1);
  for (uint32_t i = 0; i < e.size(); ++i) {
    if (e.device_type[i] != DeviceType::kCPU || e.parent[i].valid()) continue;
    if (!ThreadMatches(t, e.thread[i], thread)) continue;
    int32_t& s = slot[e.thread[i].value];
    if (s < 0) {
      s = static_cast<int32_t>(threads.size());
      threads.push_back({e.thread[i], {}});
    }
    threads[s].roots.push_back(i);
  }
  return threads;
}

}  // namespace profana::passes
