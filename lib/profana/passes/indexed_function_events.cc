#include "profana/passes/indexed_function_events.h"

#include "profana/passes/event_times.h"

namespace profana::passes {
namespace {

// The fields FunctionEventIndex shares with FunctionEventList, name for name: f(index's, list's).
// device_type is not among them (the model stores it as a byte, the list as DeviceType).
template <typename Index, typename List, typename F>
void ForEachIndexedField(Index& x, List& o, F f) {
  f(x.source, o.source);
  f(x.synthetic_record, o.synthetic_record);
  f(x.scope, o.scope);
  f(x.parent, o.parent);
  f(x.child_begin, o.child_begin);
  f(x.child_index, o.child_index);
  f(x.kernel_begin, o.kernel_begin);
  f(x.kernel_index, o.kernel_index);
  f(x.cpu_memory, o.cpu_memory);
  f(x.cuda_memory, o.cuda_memory);
  f(x.cuda_total_ns, o.cuda_total_ns);
  f(x.cuda_total_us, o.cuda_total_us);
  f(x.removed_duplicates, o.removed_duplicates);
  f(x.kernels_attributed, o.kernels_attributed);
  f(x.kernels_unattributed, o.kernels_unattributed);
  f(x.external_id_mismatches, o.external_id_mismatches);
}

}  // namespace

// The list's structure from a native file's index: its columns are used as they are (views of the
// file).
FunctionEventList ListFromIndex(const FunctionEventIndex& x) {
  FunctionEventList o;
  ForEachIndexedField(x, o, [](const auto& from, auto& to) { to = from; });
  o.device_type = Column<DeviceType>::View(
      reinterpret_cast<const DeviceType*>(x.device_type.data()), x.device_type.size());
  return o;
}

FunctionEventIndex MakeFunctionEventIndex(const Trace& trace, const FunctionEventList& events) {
  FunctionEventIndex x;
  x.version = kFunctionEventIndexVersion;
  ForEachIndexedField(x, events, [](auto& to, const auto& from) { to = from; });
  if (x.cuda_total_ns.size() != events.size()) {
    CudaTotals totals = ComputeCudaTotals(trace, events);
    if (totals.ns.empty()) {  // none has one: the index still has a row per event
      totals.ns.assign(events.size(), 0);
      totals.us.assign(events.size(), 0.0);
    }
    x.cuda_total_ns.owned() = std::move(totals.ns);
    x.cuda_total_us.owned() = std::move(totals.us);
  }
  if (events.cpu_memory.empty()) {  // no [memory] record: the index still has a row per event
    x.cpu_memory.assign(events.size(), 0);
    x.cuda_memory.assign(events.size(), 0);
  }
  auto& device = x.device_type.owned();
  for (DeviceType d : events.device_type) device.push_back(static_cast<uint8_t>(d));
  return x;
}

}  // namespace profana::passes
