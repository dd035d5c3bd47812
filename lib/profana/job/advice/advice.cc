#include "profana/job/advice/advice.h"

#include <algorithm>
#include <unordered_map>

#include "fmt/format.h"
#include "profana/job/advice/advice_rules.h"

namespace profana::job {

namespace advice {

void Items::Add(std::string_view name, int64_t ns, int64_t count) {
  for (FindingItem& i : items_)
    if (i.name == name) {
      i.ns += ns;
      i.count += count;
      return;
    }
  items_.push_back({std::string(name), count, ns});
}

std::vector<FindingItem> Items::Top(int64_t max) const {
  std::vector<FindingItem> out = items_;
  std::stable_sort(out.begin(), out.end(), [](const FindingItem& a, const FindingItem& b) {
    return a.ns != b.ns ? a.ns > b.ns : a.count > b.count;
  });
  if (static_cast<int64_t>(out.size()) > max) out.resize(static_cast<size_t>(max));
  return out;
}

std::string TimeText(int64_t ns) {
  double us = static_cast<double>(ns) / 1000.0;
  if (us >= 1e6) return fmt::format("{:.3f}s", us / 1e6);
  if (us >= 1e3) return fmt::format("{:.3f}ms", us / 1e3);
  return fmt::format("{:.3f}us", us);
}

double Share(int64_t part, int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0;
}

bool LaunchedInSteps(const AdviceContext& c, uint32_t e) {
  const EventTable& ev = c.trace->events;
  std::optional<EventId> l = c.launches->Launch(ev.correlation[e]);
  return c.InSteps(l ? ev.start_ns[l->value] : ev.start_ns[e]);
}

std::vector<int64_t> StepsOf(const AdviceContext& c, const std::vector<int64_t>& times) {
  std::vector<int64_t> out;
  for (int64_t ts : times)
    if (int64_t s = c.StepAt(ts); s >= 0) out.push_back(s);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace advice

const std::vector<AdviceRule>& AdviceRules() {
  using namespace advice;
  static const std::vector<AdviceRule> kRules = {
      {"host-sync", "device synchronisations inside steps",
       "Remove .item()/.cpu()/torch.cuda.synchronize() from the step, or defer them (log every N "
       "steps, keep values on the device)",
       "Nsight Systems cuda_api_sync; TensorBoard plugin (synchronisation)", HostSync},
      {"launch-bound", "the GPU waits for the host to launch short kernels",
       "Capture the step in a CUDA graph (torch.cuda.graphs, "
       "torch.compile(mode=\"reduce-overhead\")) "
       "or fuse ops with torch.compile",
       "HTA critical path (gpu_kernel_launch_overhead); TensorBoard plugin", LaunchBound},
      {"small-kernels", "much device time in very short kernels",
       "Fuse the ops that launch them (torch.compile, fused or foreach variants); batch small "
       "tensors together",
       "HTA kernel breakdown; Nsight Systems gpu_time_util", SmallKernels},
      {"pageable-memcpy", "copies from or to pageable host memory",
       "Pin the host tensors (pin_memory=True in the DataLoader, tensor.pin_memory()) and copy "
       "with "
       "non_blocking=True",
       "Nsight Systems cuda_memcpy_async (pageable memory)", PageableMemcpy},
      {"sync-memcpy", "synchronous memory copies",
       "Use cudaMemcpyAsync on a stream (tensor.to(device, non_blocking=True) from pinned memory)",
       "Nsight Systems cuda_memcpy_sync", SyncMemcpy},
      {"sync-memset", "synchronous memsets",
       "Use cudaMemsetAsync (torch.zeros on the device, tensor.zero_()) instead of cudaMemset",
       "Nsight Systems cuda_memset_sync", SyncMemset},
      {"unoverlapped-copy", "host-device copies on the compute stream",
       "Issue the copies on a side stream (torch.cuda.Stream) from pinned memory so they overlap "
       "compute; prefetch the next batch",
       "HTA temporal breakdown (exposed memcpy); TensorBoard plugin (memcpy)", UnoverlappedCopy},
      {"dataloader", "step time spent waiting for data",
       "Raise DataLoader num_workers, set pin_memory=True and persistent_workers=True, prefetch",
       "TensorBoard plugin (DataLoader time); HTA data_load_events", Dataloader},
      {"no-tensor-cores", "matmuls and convolutions that do not use Tensor Cores",
       "Use bf16/fp16 autocast or TF32 (torch.backends.cuda.matmul.allow_tf32) and shapes that "
       "are multiples of 8",
       "TensorBoard plugin (Tensor Cores); Nsight Compute", NoTensorCores},
      {"fp32-matmul", "matmuls in fp32",
       "Enable TF32 (torch.set_float32_matmul_precision(\"high\")) or autocast to bf16",
       "TensorBoard plugin (Tensor Cores)", Fp32Matmul},
      {"unfused-optimizer", "many small optimizer kernels per step",
       "Construct the optimizer with foreach=True or fused=True (Adam, AdamW, SGD)",
       "PyTorch optimizer docs (foreach / fused implementations)", UnfusedOptimizer},
      {"exposed-comm", "communication not hidden by compute",
       "Overlap communication with compute: DDP bucket_cap_mb, FSDP prefetching, "
       "gradient accumulation with no_sync(), fewer and larger collectives",
       "HTA comm_comp_overlap; TensorBoard plugin distributed view", ExposedComm},
      {"straggler", "ranks that arrive late at collectives",
       "Balance the work across ranks (data, pipeline stages); check the late rank's host for "
       "contention",
       "HTA comm_comp_overlap and straggler analysis", nullptr},
      {"memory-headroom", "allocator churn, fragmentation, memory near the device's total",
       "Keep tensor shapes stable across steps, avoid torch.cuda.empty_cache() in the loop, set "
       "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; near the device's total, shrink the "
       "batch or checkpoint activations",
       "PyTorch CUDA caching allocator docs; HTA memory analysis", MemoryHeadroom},
      {"gpu-idle", "idle GPU time inside steps",
       "See the idle breakdown (profana idle): host wait means the CPU is the bottleneck, kernel "
       "wait means launch overhead, other means synchronisation or data",
       "HTA get_idle_time_breakdown; Nsight Systems gpu_gaps", GpuIdle},
  };
  return kRules;
}

const AdviceRule* FindAdviceRule(const std::string& id) {
  for (const AdviceRule& r : AdviceRules())
    if (id == r.id) return &r;
  return nullptr;
}

bool AdviceContext::InSteps(int64_t ts) const { return steps.empty() || StepAt(ts) >= 0; }

int64_t AdviceContext::StepAt(int64_t ts) const {
  for (const StepRow& s : steps)
    if (ts >= s.start_ns && ts < s.start_ns + s.wall_ns) return s.step;
  return -1;
}

AdviceContext MakeAdviceContext(const Trace& trace, const passes::FunctionEventList& events,
                                const LaunchIndex& launches, const SourceEvents* source,
                                const AdviceOptions& options) {
  AdviceContext c;
  c.trace = &trace;
  c.events = &events;
  c.launches = &launches;
  c.options = options;
  c.steps = ComputeStepBreakdown(trace);
  c.idle = passes::ComputeIdleBreakdown(trace, events, launches,
                                        passes::kHtaConsecutiveKernelDelayNs, 0);
  passes::CpRequest request;
  // The data loader's waits are ops on the path, so a step bound by its data shows it.
  request.data_load = "^enumerate\\(DataLoader\\)";
  request.top_events = 0;
  auto cp = passes::ComputeCriticalPaths(trace, source, request);
  if (cp.ok()) c.critical_path = std::move(*cp);
  // Only the numbers are kept: the graphs are large.
  for (passes::CpWindowResult& w : c.critical_path.windows) {
    c.critical_path_ns += w.length_ns;
    w.graph = {};
    w.path = {};
  }
  for (const StepRow& s : c.steps) c.steps_wall_ns += s.wall_ns;
  if (c.steps.empty()) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t e = 0; e < trace.events.size(); ++e) {
      lo = std::min(lo, trace.events.start_ns[e]);
      hi = std::max(hi, trace.events.end_ns[e]);
    }
    c.steps_wall_ns = lo <= hi ? hi - lo : 0;
  }
  return c;
}

std::vector<Finding> AdviseTrace(const AdviceContext& c, int64_t rank) {
  std::vector<Finding> out;
  // Without a path (no device activity, no ops), the steps' wall time is the bound.
  int64_t bound = c.critical_path_ns > 0 ? c.critical_path_ns : c.steps_wall_ns;
  for (const AdviceRule& r : AdviceRules()) {
    if (!r.run) continue;
    Finding f;
    f.rule = r.id;
    f.rank = rank;
    if (!r.run(c, &f)) continue;
    f.raw_saving_ns = std::max<int64_t>(0, f.raw_saving_ns);
    f.saving_ns = std::min(f.raw_saving_ns, bound);
    out.push_back(std::move(f));
  }
  RankFindings(&out);
  return out;
}

std::vector<Finding> AdviseJob(const CollectivesResult& collectives, int64_t critical_path_ns) {
  std::vector<Finding> out;
  const RankStraggling* worst = nullptr;
  for (const RankStraggling& r : collectives.ranks)
    if (r.wait_caused_ns > 0 && (!worst || r.wait_caused_ns > worst->wait_caused_ns)) worst = &r;
  if (!worst) return out;
  Finding f;
  f.rule = "straggler";
  f.rank = worst->rank;
  f.count = worst->arrived_last;
  f.raw_saving_ns = worst->wait_caused_ns;
  f.saving_ns =
      critical_path_ns > 0 ? std::min(f.raw_saving_ns, critical_path_ns) : f.raw_saving_ns;
  f.evidence = fmt::format(
      "rank {} started last at {} of its {} collectives; the other ranks waited {} for it "
      "(it waited {} itself)",
      worst->rank, worst->arrived_last, worst->collectives, advice::TimeText(worst->wait_caused_ns),
      advice::TimeText(worst->wait_suffered_ns));
  for (const RankStraggling& r : collectives.ranks)
    if (r.wait_caused_ns > 0)
      f.items.push_back({fmt::format("rank {}", r.rank), r.arrived_last, r.wait_caused_ns});
  std::stable_sort(f.items.begin(), f.items.end(),
                   [](const FindingItem& a, const FindingItem& b) { return a.ns > b.ns; });
  out.push_back(std::move(f));
  return out;
}

void RankFindings(std::vector<Finding>* findings) {
  std::stable_sort(findings->begin(), findings->end(), [](const Finding& a, const Finding& b) {
    if (a.saving_ns != b.saving_ns) return a.saving_ns > b.saving_ns;
    if (a.rule != b.rule) return a.rule < b.rule;
    return a.rank < b.rank;
  });
}

Result<std::vector<passes::RuleResult>> EvaluateAdviceRules(
    const std::vector<Finding>& findings, const std::vector<passes::BudgetRule>& rules) {
  std::vector<passes::RuleResult> out;
  for (const passes::BudgetRule& r : rules) {
    const AdviceRule* rule = FindAdviceRule(r.advice);
    if (!rule) {
      std::string ids;
      for (const AdviceRule& a : AdviceRules())
        ids += (ids.empty() ? "" : ", ") + std::string(a.id);
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("rules[{}] ({}): no advice rule \"{}\" (expected one of: {})",
                                r.index, r.name, r.advice, ids));
    }
    passes::RuleResult res;
    res.rule = r;
    int64_t saving = 0, count = 0;
    bool fired = false;
    for (const Finding& f : findings)
      if (f.rule == r.advice) {
        saving += f.saving_ns;
        count += f.count;
        fired = true;
      }
    res.value = r.metric == passes::BudgetMetric::kAdviceSaving ? static_cast<double>(saving) / 1e6
                                                                : static_cast<double>(count);
    if (!fired) res.note = "did not fire";
    res.passed = passes::RuleHolds(r, res.value);
    out.push_back(std::move(res));
  }
  return out;
}

}  // namespace profana::job
