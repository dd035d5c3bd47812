// The rules' functions, for the one table in advice.cc. Each returns whether it found
// something, and fills the finding's count, raw saving, evidence, steps and items.
#pragma once

#include "profana/job/advice/advice.h"

namespace profana::job::advice {

bool HostSync(const AdviceContext& c, Finding* f);
bool LaunchBound(const AdviceContext& c, Finding* f);
bool SmallKernels(const AdviceContext& c, Finding* f);
bool PageableMemcpy(const AdviceContext& c, Finding* f);
bool SyncMemcpy(const AdviceContext& c, Finding* f);
bool SyncMemset(const AdviceContext& c, Finding* f);
bool UnoverlappedCopy(const AdviceContext& c, Finding* f);
bool Dataloader(const AdviceContext& c, Finding* f);
bool UnfusedOptimizer(const AdviceContext& c, Finding* f);
bool ExposedComm(const AdviceContext& c, Finding* f);
bool MemoryHeadroom(const AdviceContext& c, Finding* f);
bool GpuIdle(const AdviceContext& c, Finding* f);
bool NoTensorCores(const AdviceContext& c, Finding* f);
bool Fp32Matmul(const AdviceContext& c, Finding* f);

// Shared by the rules: contributors by name, largest time first, cut to `max`.
class Items {
 public:
  void Add(std::string_view name, int64_t ns, int64_t count = 1);
  std::vector<FindingItem> Top(int64_t max) const;

 private:
  std::vector<FindingItem> items_;
};

// "1.234ms"
std::string TimeText(int64_t ns);

// An event's name as the trace recorded it.
inline std::string_view NameOf(const Trace& t, uint32_t e) { return t.str(t.events.trace_name[e]); }

// part / whole, 0 when whole is not above 0.
double Share(int64_t part, int64_t whole);

// Whether device work `e` ran for the steps: its launch, or its own start when it has no launch,
// falls in one.
bool LaunchedInSteps(const AdviceContext& c, uint32_t e);

// The steps a set of host or device times fell in, in order, each once.
std::vector<int64_t> StepsOf(const AdviceContext& c, const std::vector<int64_t>& times);

}  // namespace profana::job::advice
