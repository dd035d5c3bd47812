#include "profana/passes/async_events.h"

#include <string_view>
#include <unordered_map>

namespace profana::passes {
namespace {

// The backends c10d names its Work profiling titles after ("<backend>:<collective>").
bool IsWorkTitle(std::string_view name) {
  for (std::string_view prefix : {"nccl:", "gloo:", "mpi:", "ucc:", "xccl:"})
    if (name.substr(0, prefix.size()) == prefix) return true;
  return false;
}

}  // namespace

std::vector<uint8_t> AsyncWorkAnnotations(const Trace& trace) {
  std::vector<uint8_t> out;
  const EventTable& ev = trace.events;
  std::unordered_map<uint32_t, uint8_t> title;  // name id -> IsWorkTitle
  // The latest end of a title event per (thread, name): events arrive in start order, so one
  // that ends no later lies inside it.
  std::unordered_map<uint64_t, int64_t> open_until;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.kind[i] != ActivityKind::kUserAnnotation) continue;
    StringId name = ev.name[i];
    auto [it, inserted] = title.try_emplace(name.value, 0);
    if (inserted) it->second = IsWorkTitle(trace.str(name));
    if (!it->second) continue;
    uint64_t key = (uint64_t{ev.thread[i].value} << 32) | name.value;
    auto [open, fresh] = open_until.try_emplace(key, ev.end_ns[i]);
    if (!fresh && ev.end_ns[i] <= open->second) continue;  // nested in a title of its name
    open->second = ev.end_ns[i];
    if (out.empty()) out.assign(ev.size(), 0);
    out[i] = 1;
  }
  return out;
}

}  // namespace profana::passes
