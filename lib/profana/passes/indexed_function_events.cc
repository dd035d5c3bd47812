#include "profana/passes/indexed_function_events.h"

#include <tuple>
#include <utility>
#include <vector>

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

// Two columns of n values: pair(i) gives the values at i.
template <typename A, typename B, typename Pair>
void FillPair(size_t n, Column<A>* a, Column<B>* b, Pair pair) {
  std::vector<A>& as = a->owned();
  std::vector<B>& bs = b->owned();
  as.resize(n);
  bs.resize(n);
  for (uint32_t i = 0; i < n; ++i) std::tie(as[i], bs[i]) = pair(i);
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
  // The index has a value per event, 0 included, where the list keeps the events that have one.
  if (x.cuda_total_ns.size() != events.size()) {
    EventTimes times(trace, events);
    FillPair(events.size(), &x.cuda_total_ns, &x.cuda_total_us, [&](uint32_t i) {
      return std::make_pair(times.CudaTotalNs(i), times.CudaTotalUs(i));
    });
  }
  if (events.cpu_memory.empty())
    FillPair(events.size(), &x.cpu_memory, &x.cuda_memory,
             [&](uint32_t i) { return std::make_pair(events.CpuMemory(i), events.CudaMemory(i)); });
  auto& device = x.device_type.owned();
  for (DeviceType d : events.device_type) device.push_back(static_cast<uint8_t>(d));
  return x;
}

}  // namespace profana::passes
