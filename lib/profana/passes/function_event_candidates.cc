#include "profana/passes/function_event_candidates.h"

#include <algorithm>
#include <string_view>

namespace profana::passes {
namespace {

// Names parse_kineto_results drops (PyTorch 1.13's _filter_name).
constexpr std::string_view kFilteredNames[] = {
    "profiler::_record_function_enter",
    "profiler::_record_function_enter_new",
    "profiler::_record_function_exit",
    "aten::is_leaf",
    "aten::output_nr",
    "aten::_version",
};

}  // namespace

void SelectCandidates(Candidates* candidates) {
  Candidates& c = *candidates;
  std::vector<StringId> filtered;
  for (std::string_view name : kFilteredNames) {
    StringId id;
    if (c.trace.strings.Find(name, &id)) filtered.push_back(id);
  }
  c.cand.reserve(c.ev.size() + 16);
  for (uint32_t i = 0; i < c.ev.size(); ++i) {
    ActivityKind kind = c.ev.kind[i];
    bool cpu = IsCpuFunctionEvent(kind);
    if (!cpu && !IsDeviceWork(kind)) continue;
    if (std::find(filtered.begin(), filtered.end(), c.ev.trace_name[i]) != filtered.end()) continue;
    c.cand.push_back({i, false, c.ev.start_ns[i], c.ev.end_ns[i]});
    c.device.push_back(cpu ? DeviceType::kCPU : DeviceType::kCUDA);
  }
}

FunctionEventList CompactCandidates(const Candidates& c) {
  size_t n = c.cand.size();
  std::vector<uint32_t> new_index(n, UINT32_MAX);
  uint32_t m = 0;
  for (size_t i = 0; i < n; ++i)
    if (!c.removed[i]) new_index[i] = m++;
  FunctionEventList o;
  o.removed_duplicates = c.removed_duplicates;
  o.kernels_attributed = c.kernels_attributed;
  o.kernels_unattributed = c.kernels_unattributed;
  o.external_id_mismatches = c.external_id_mismatches;
  o.launches_linked = c.launches_linked;
  o.launches_enclosed = c.launches_enclosed;
  o.launches_unattributed = c.launches_unattributed;
  o.trace_has_links = c.trace_has_links;
  o.link = c.link;
  auto& source = o.source.owned();
  auto& device_type = o.device_type.owned();
  auto& scope = o.scope.owned();
  auto& parent = o.parent.owned();
  auto& cpu_memory = o.cpu_memory.owned();
  auto& cuda_memory = o.cuda_memory.owned();
  auto& child_begin = o.child_begin.owned();
  auto& child_index = o.child_index.owned();
  auto& kernel_begin = o.kernel_begin.owned();
  auto& kernel_index = o.kernel_index.owned();
  auto resize = [m](auto&... v) { (v.resize(m), ...); };
  resize(source, device_type, scope, parent, cpu_memory, cuda_memory);
  child_begin.resize(m + 1);
  kernel_begin.resize(m + 1);
  child_begin[0] = kernel_begin[0] = 0;
  child_index.reserve(c.child_index.size());
  kernel_index.reserve(c.kernel_index.size());
  for (size_t i = 0; i < n; ++i) {
    if (c.removed[i]) continue;
    uint32_t j = new_index[i];
    const Candidate& e = c.cand[i];
    source[j] = e.synthetic ? kSynthetic : EventId(e.source);
    if (e.synthetic) o.synthetic_record.push_back(e.source);
    device_type[j] = c.device[i];
    scope[j] = c.scope[i];
    parent[j] = c.parent[i] < 0 ? FnEventId::None() : FnEventId(new_index[c.parent[i]]);
    cpu_memory[j] = c.cpu_mem[i];
    cuda_memory[j] = c.cuda_mem[i];
    uint32_t owner = c.list_owner[i];
    for (uint32_t k = c.child_begin[owner]; k < c.child_begin[owner + 1]; ++k)
      child_index.push_back(FnEventId(new_index[c.child_index[k]]));
    child_begin[j + 1] = static_cast<uint32_t>(child_index.size());
    uint32_t ko = c.kernel_owner[i];
    kernel_index.insert(kernel_index.end(), c.kernel_index.begin() + c.kernel_begin[ko],
                        c.kernel_index.begin() + c.kernel_begin[ko + 1]);
    kernel_begin[j + 1] = static_cast<uint32_t>(kernel_index.size());
  }
  return o;
}

}  // namespace profana::passes
