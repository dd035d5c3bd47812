#include "profana/passes/event_sums.h"

#include "fmt/format.h"
#include "profana/model/trace_sums.h"
#include "profana/passes/event_times.h"

namespace profana::passes {

Status CheckEventSumsFit(const Trace& trace, const FunctionEventList& e, const std::string& name) {
  EventTimes times(trace, e);
  __int128 cuda = 0, memory = 0;
  uint32_t largest_cuda = 0, largest_memory = 0;
  int64_t most_cuda = -1;
  __int128 most_memory = -1;
  bool bytes = e.HasMemoryBytes();
  for (uint32_t i = 0; i < e.size(); ++i) {
    int64_t ns = times.CudaTotalNs(i);
    cuda += ns;
    if (ns > most_cuda) most_cuda = ns, largest_cuda = i;
    if (!bytes) continue;
    __int128 cpu = e.CpuMemory(i), device = e.CudaMemory(i);
    __int128 held = (cpu < 0 ? -cpu : cpu) + (device < 0 ? -device : device);
    memory += held;
    if (held > most_memory) most_memory = held, largest_memory = i;
  }
  auto event = [&](uint32_t i) {
    return fmt::format("\"{}\" at {} ns", trace.str(e.name[i]), e.start_ns[i]);
  };
  if (cuda > kMaxTraceTotal)
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: the events' CUDA totals (each op's holds its children's) add up "
                              "past the 2^61 ns (73 years) that profana's sums hold: the device "
                              "times cannot be right (the largest: {}, {} ns)",
                              name, event(largest_cuda), most_cuda));
  if (memory > kMaxTraceTotal)
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: the events' memory (each counting the [memory] records inside "
                              "it) adds up past the 2^61 bytes (2 EiB) that profana's sums hold: "
                              "the sizes cannot be right (the largest: {})",
                              name, event(largest_memory)));
  return Status::Ok();
}

}  // namespace profana::passes
