#include "profana/passes/function_events.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

namespace profana::passes {
namespace {

// Names parse_kineto_results drops (PyTorch 1.13's _filter_name).
constexpr std::string_view kFilteredNames[] = {
    "profiler::_record_function_enter", "profiler::_record_function_enter_new",
    "profiler::_record_function_exit",  "aten::is_leaf",
    "aten::output_nr",                  "aten::_version",
};

bool IsCpuFunctionEvent(ActivityKind kind) {
  return kind == ActivityKind::kCpuOp || kind == ActivityKind::kUserAnnotation ||
         kind == ActivityKind::kRuntime || kind == ActivityKind::kDriver;
}
bool IsDeviceFunctionEvent(ActivityKind kind) {
  return kind == ActivityKind::kKernel || kind == ActivityKind::kMemcpy || kind == ActivityKind::kMemset;
}

// The pre-dedup list, as parse_kineto_results leaves it.
struct Candidate {
  uint32_t source;      // trace event, or memory record index when synthetic
  bool synthetic;
  int64_t start_ns, end_ns;
};

// PyTorch's scope for backward functions is not in trace files; it is recognised by name
// (docs/semantics.md): a node wrapped by "autograd::engine::evaluate_function: <same name>",
// or a name ending in Backward<N> or starting with torch::autograd:: (AccumulateGrad runs unwrapped).
bool LooksLikeBackwardName(std::string_view name) {
  if (name.substr(0, 6) == "aten::" || name.substr(0, 10) == "autograd::") return false;
  if (name.substr(0, 17) == "torch::autograd::") return true;
  size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  return end >= 8 && name.substr(end - 8, 8) == "Backward";
}

class Builder {
 public:
  explicit Builder(const Trace& trace) : trace_(trace), ev_(trace.events) {}
  FunctionEventList Run();

 private:
  void SelectEvents();
  void AttributeMemory();
  void BuildTree();
  void AssignScopes();
  void AttributeKernels();
  void RemoveDuplicates();
  void Compact();
  void ComputeTotals();

  bool IsCpu(size_t i) const { return device_[i] == DeviceType::kCPU; }
  // In legacy-kernel traces launches and device activities only serve to attribute kernels.
  bool Hidden(size_t i) const {
    if (!trace_.metadata.legacy_kernels || cand_[i].synthetic) return false;
    ActivityKind k = ev_.kind[cand_[i].source];
    return k == ActivityKind::kRuntime || k == ActivityKind::kDriver || !IsCpu(i);
  }
  StringId NameOf(size_t i) const {
    return cand_[i].synthetic ? memory_name_ : ev_.name[cand_[i].source];
  }
  ThreadId ThreadOf(size_t i) const {
    return cand_[i].synthetic ? trace_.memory.thread[cand_[i].source] : ev_.thread[cand_[i].source];
  }

  const Trace& trace_;
  const EventTable& ev_;
  StringId memory_name_;

  // Per candidate (pre-dedup index).
  std::vector<Candidate> cand_;
  std::vector<DeviceType> device_;
  std::vector<int32_t> parent_;
  std::vector<uint8_t> scope_;
  std::vector<int64_t> cpu_mem_, cuda_mem_;
  std::vector<uint32_t> child_begin_, child_index_;  // original children (CSR)
  std::vector<uint32_t> list_owner_;                  // whose original child list i has now
  std::vector<uint32_t> kernel_owner_;                // whose kernel list i has now
  std::vector<std::vector<uint32_t>> kernels_;        // sparse: only events that launched kernels
  std::vector<uint32_t> kernel_slot_;                 // candidate -> index into kernels_ + 1
  std::vector<uint8_t> removed_;
  std::vector<uint32_t> new_index_;

  FunctionEventList out_;
};

void Builder::SelectEvents() {
  std::vector<StringId> filtered;
  for (std::string_view name : kFilteredNames) {
    StringId id;
    if (trace_.strings.Find(name, &id)) filtered.push_back(id);
  }
  cand_.reserve(ev_.size() + 16);
  for (uint32_t i = 0; i < ev_.size(); ++i) {
    ActivityKind kind = ev_.kind[i];
    bool cpu = IsCpuFunctionEvent(kind);
    if (!cpu && !IsDeviceFunctionEvent(kind)) continue;
    if (std::find(filtered.begin(), filtered.end(), ev_.trace_name[i]) != filtered.end()) continue;
    cand_.push_back({i, false, ev_.start_ns[i], ev_.end_ns[i]});
    device_.push_back(cpu ? DeviceType::kCPU : DeviceType::kCUDA);
  }
}

void Builder::AttributeMemory() {
  const MemoryTable& mem = trace_.memory;
  size_t n_events = cand_.size();
  cpu_mem_.assign(n_events, 0);
  cuda_mem_.assign(n_events, 0);
  if (mem.size() == 0) return;
  // Records sorted by time; prefix sums answer "bytes inside [start, end]" in two searches.
  std::vector<uint32_t> order(mem.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return mem.ts_ns[a] < mem.ts_ns[b]; });
  std::vector<int64_t> ts(mem.size()), cpu_prefix(mem.size() + 1, 0), cuda_prefix(mem.size() + 1, 0);
  for (size_t k = 0; k < order.size(); ++k) {
    uint32_t r = order[k];
    ts[k] = mem.ts_ns[r];
    int8_t dev = mem.device_type[r];
    cpu_prefix[k + 1] = cpu_prefix[k] + (dev == 0 ? mem.bytes[r] : 0);
    cuda_prefix[k + 1] = cuda_prefix[k] + (dev == 1 ? mem.bytes[r] : 0);
  }
  std::vector<int32_t> cover(mem.size() + 1, 0);  // difference array: records inside some event
  for (size_t i = 0; i < n_events; ++i) {
    if (!IsCpu(i)) continue;
    size_t lo = std::lower_bound(ts.begin(), ts.end(), cand_[i].start_ns) - ts.begin();
    size_t hi = std::upper_bound(ts.begin(), ts.end(), cand_[i].end_ns) - ts.begin();
    if (lo >= hi) continue;
    cpu_mem_[i] = cpu_prefix[hi] - cpu_prefix[lo];
    cuda_mem_[i] = cuda_prefix[hi] - cuda_prefix[lo];
    ++cover[lo];
    --cover[hi];
  }
  // Records inside no event become top-level [memory] events, appended in record order and
  // then merged by the same stable (start, -end) sort PyTorch applies.
  int32_t depth = 0;
  std::vector<uint32_t> uncovered;
  for (size_t k = 0; k < order.size(); ++k) {
    depth += cover[k];
    if (depth == 0) uncovered.push_back(order[k]);
  }
  std::sort(uncovered.begin(), uncovered.end());
  if (uncovered.empty()) return;
  // The importer interns "[memory]" with the records; a trace without it names them "".
  trace_.strings.Find("[memory]", &memory_name_);
  for (uint32_t r : uncovered) {
    cand_.push_back({r, true, mem.ts_ns[r], mem.ts_ns[r]});
    device_.push_back(DeviceType::kCPU);
    cpu_mem_.push_back(mem.device_type[r] == 0 ? mem.bytes[r] : 0);
    cuda_mem_.push_back(mem.device_type[r] == 1 ? mem.bytes[r] : 0);
  }
  std::vector<uint32_t> perm(cand_.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) {
    if (cand_[a].start_ns != cand_[b].start_ns) return cand_[a].start_ns < cand_[b].start_ns;
    return cand_[a].end_ns > cand_[b].end_ns;
  });
  auto permute = [&](auto& column) {
    std::remove_reference_t<decltype(column)> sorted;
    sorted.reserve(column.size());
    for (uint32_t p : perm) sorted.push_back(column[p]);
    column.swap(sorted);
  };
  permute(cand_);
  permute(device_);
  permute(cpu_mem_);
  permute(cuda_mem_);
}

void Builder::BuildTree() {
  // _populate_cpu_children: per thread, in (start, -end) order, a stack of open parents.
  size_t n = cand_.size();
  parent_.assign(n, -1);
  std::unordered_map<uint32_t, std::vector<uint32_t>> open;
  std::vector<uint32_t>* stack = nullptr;
  uint32_t stack_thread = UINT32_MAX;
  std::vector<uint32_t> child_count(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (!IsCpu(i)) continue;
    uint32_t thread = ThreadOf(i).value;
    if (thread != stack_thread) {
      stack = &open[thread];
      stack_thread = thread;
    }
    if (Hidden(i)) {
      // Find the innermost open event holding it without disturbing the stack: hidden events are
      // not part of the tree, they only need to know which op they ran in.
      for (auto it = stack->rbegin(); it != stack->rend(); ++it) {
        if (cand_[i].start_ns < cand_[*it].end_ns && cand_[i].end_ns <= cand_[*it].end_ns) {
          parent_[i] = static_cast<int32_t>(*it);
          break;
        }
      }
      continue;
    }
    while (!stack->empty()) {
      uint32_t p = stack->back();
      if (cand_[i].start_ns >= cand_[p].end_ns || cand_[i].end_ns > cand_[p].end_ns) {
        stack->pop_back();
      } else {
        parent_[i] = static_cast<int32_t>(p);
        ++child_count[p];
        break;
      }
    }
    stack->push_back(i);
  }
  child_begin_.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) child_begin_[i + 1] = child_begin_[i] + child_count[i];
  child_index_.resize(child_begin_[n]);
  std::vector<uint32_t> fill(child_begin_.begin(), child_begin_.end() - 1);
  for (uint32_t i = 0; i < n; ++i)
    if (parent_[i] >= 0 && !Hidden(i)) child_index_[fill[parent_[i]]++] = i;
}

void Builder::AssignScopes() {
  size_t n = cand_.size();
  scope_.assign(n, 0);
  std::unordered_map<uint32_t, uint8_t> by_name;  // name id -> LooksLikeBackwardName
  constexpr std::string_view kWrapper = "autograd::engine::evaluate_function: ";
  for (size_t i = 0; i < n; ++i) {
    if (!IsCpu(i) || cand_[i].synthetic) continue;
    StringId name = NameOf(i);
    if (parent_[i] >= 0) {
      std::string_view p = trace_.str(NameOf(parent_[i]));
      if (p.size() > kWrapper.size() && p.substr(0, kWrapper.size()) == kWrapper &&
          p.substr(kWrapper.size()) == trace_.str(name)) {
        scope_[i] = 1;
        continue;
      }
    }
    auto [it, inserted] = by_name.try_emplace(name.value, 0);
    if (inserted) it->second = LooksLikeBackwardName(trace_.str(name)) ? 1 : 0;
    scope_[i] = it->second;
  }
}

void Builder::AttributeKernels() {
  size_t n = cand_.size();
  kernel_slot_.assign(n, 0);
  std::unordered_map<int64_t, uint32_t> launch_by_correlation;
  std::unordered_map<int64_t, uint32_t> op_by_external_id;
  for (uint32_t i = 0; i < n; ++i) {
    if (cand_[i].synthetic || !IsCpu(i)) continue;
    uint32_t e = cand_[i].source;
    ActivityKind kind = ev_.kind[e];
    if ((kind == ActivityKind::kRuntime || kind == ActivityKind::kDriver) && ev_.correlation[e] != kNoId)
      launch_by_correlation.try_emplace(ev_.correlation[e], i);
    if ((kind == ActivityKind::kCpuOp || kind == ActivityKind::kUserAnnotation) && ev_.external_id[e] != kNoId)
      op_by_external_id.try_emplace(ev_.external_id[e], i);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (IsCpu(i)) continue;
    uint32_t e = cand_[i].source;
    int64_t corr = ev_.correlation[e];
    int64_t ext = ev_.external_id[e];
    int32_t owner = -1;
    auto launch = corr != kNoId ? launch_by_correlation.find(corr) : launch_by_correlation.end();
    if (launch != launch_by_correlation.end()) {
      owner = parent_[launch->second];
      if (owner < 0) {
        // A launch outside every op on its thread (old Kineto wrote ops and launches on different
        // tids): the launch's own External id names its op; 0 or its correlation means none.
        int64_t launch_ext = ev_.external_id[cand_[launch->second].source];
        auto op = launch_ext > 0 && launch_ext != corr ? op_by_external_id.find(launch_ext) : op_by_external_id.end();
        if (op != op_by_external_id.end()) owner = static_cast<int32_t>(op->second);
      }
      if (owner >= 0 && ext != kNoId && ext != corr) {
        int64_t owner_ext = ev_.external_id[cand_[owner].source];
        if (owner_ext != kNoId && owner_ext != ext) ++out_.external_id_mismatches;
      }
    } else if (ext != kNoId && ext != corr) {
      // No launch in the trace (sampled or trimmed): trust External id only when it cannot be
      // the activity's own correlation id, which Kineto writes when no op was linked.
      auto op = op_by_external_id.find(ext);
      if (op != op_by_external_id.end()) owner = static_cast<int32_t>(op->second);
    }
    if (owner < 0) {
      ++out_.kernels_unattributed;
      continue;
    }
    ++out_.kernels_attributed;
    if (!kernel_slot_[owner]) {
      kernels_.emplace_back();
      kernel_slot_[owner] = static_cast<uint32_t>(kernels_.size());
    }
    kernels_[kernel_slot_[owner] - 1].push_back(e);
  }
}

void Builder::RemoveDuplicates() {
  // _remove_dup_nodes in one pass: parents precede children in this order, so a chain of
  // same-name single children collapses as it is walked, and a second pass would find nothing.
  size_t n = cand_.size();
  removed_.assign(n, 0);
  list_owner_.resize(n);
  kernel_owner_.resize(n);
  std::iota(list_owner_.begin(), list_owner_.end(), 0u);
  std::iota(kernel_owner_.begin(), kernel_owner_.end(), 0u);
  auto list_size = [&](uint32_t i) { return child_begin_[list_owner_[i] + 1] - child_begin_[list_owner_[i]]; };
  for (uint32_t i = 0; i < n; ++i) {
    if (Hidden(i)) {
      removed_[i] = 1;
      continue;
    }
    int32_t p = parent_[i];
    if (p < 0 || NameOf(p) != NameOf(i) || list_size(p) != 1) continue;
    list_owner_[p] = list_owner_[i];
    kernel_owner_[p] = kernel_owner_[i];  // lift kernels up (replacing the parent's, as PyTorch)
    uint32_t owner = list_owner_[i];
    for (uint32_t k = child_begin_[owner]; k < child_begin_[owner + 1]; ++k) parent_[child_index_[k]] = p;
    removed_[i] = 1;
    ++out_.removed_duplicates;
  }
}

void Builder::Compact() {
  size_t n = cand_.size();
  new_index_.assign(n, UINT32_MAX);
  uint32_t m = 0;
  for (size_t i = 0; i < n; ++i)
    if (!removed_[i]) new_index_[i] = m++;
  FunctionEventList& o = out_;
  auto reserve = [m](auto&... v) { (v.reserve(m), ...); };
  reserve(o.source, o.name, o.trace_name, o.thread, o.start_ns, o.end_ns, o.device_type, o.scope,
          o.sequence_nr, o.fwd_thread, o.input_shapes, o.stack, o.parent, o.cpu_memory, o.cuda_memory);
  o.child_begin.reserve(m + 1);
  o.kernel_begin.reserve(m + 1);
  o.child_begin.push_back(0);
  o.kernel_begin.push_back(0);
  const MemoryTable& mem = trace_.memory;
  for (size_t i = 0; i < n; ++i) {
    if (removed_[i]) continue;
    const Candidate& c = cand_[i];
    uint32_t e = c.source;
    o.source.push_back(c.synthetic ? kSynthetic : e);
    o.name.push_back(NameOf(i));
    o.trace_name.push_back(c.synthetic ? StringId(0) : ev_.trace_name[e]);
    o.thread.push_back(c.synthetic ? mem.thread[e] : ev_.thread[e]);
    o.start_ns.push_back(c.start_ns);
    o.end_ns.push_back(c.end_ns);
    o.device_type.push_back(device_[i]);
    o.scope.push_back(scope_[i]);
    o.sequence_nr.push_back(c.synthetic ? -1 : ev_.sequence_nr[e]);
    o.fwd_thread.push_back(c.synthetic ? 0 : ev_.fwd_thread[e]);
    o.input_shapes.push_back(c.synthetic ? StringId(0) : ev_.input_shapes[e]);
    o.stack.push_back(c.synthetic ? StackId(0) : ev_.stack[e]);
    o.parent.push_back(parent_[i] < 0 ? -1 : static_cast<int32_t>(new_index_[parent_[i]]));
    o.cpu_memory.push_back(cpu_mem_[i]);
    o.cuda_memory.push_back(cuda_mem_[i]);
    uint32_t owner = list_owner_[i];
    for (uint32_t k = child_begin_[owner]; k < child_begin_[owner + 1]; ++k)
      o.child_index.push_back(new_index_[child_index_[k]]);
    o.child_begin.push_back(static_cast<uint32_t>(o.child_index.size()));
    uint32_t slot = kernel_slot_[kernel_owner_[i]];
    if (slot) o.kernel_index.insert(o.kernel_index.end(), kernels_[slot - 1].begin(), kernels_[slot - 1].end());
    o.kernel_begin.push_back(static_cast<uint32_t>(o.kernel_index.size()));
  }
}

}  // namespace

void PropagateBackwardStacks(const Trace& trace, const FunctionEventList& o, std::vector<StackId>* stacks) {
  // _set_backward_stacktraces: the first non-backward event per (sequence_nr, thread) lends its
  // stack (possibly empty) to every event under a backward function of that (sequence_nr,
  // forward thread).
  size_t m = o.size();
  using Key = std::pair<int64_t, int64_t>;
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<int64_t>()(k.first * 0x9e3779b97f4a7c15ll) ^ std::hash<int64_t>()(k.second);
    }
  };
  auto key = [](int64_t seq, int64_t thread) { return Key(seq, thread); };
  std::vector<int32_t> bw(m, -1);
  std::unordered_map<Key, StackId, KeyHash> fwd_stacks;
  std::unordered_map<int64_t, StackId> fwd_by_seq;
  bool any_backward = false;
  for (size_t i = 0; i < m; ++i) {
    if (o.scope[i] == 1) bw[i] = static_cast<int32_t>(i);
    else if (o.parent[i] >= 0) bw[i] = bw[o.parent[i]];
    if (bw[i] >= 0) {
      any_backward = true;
      continue;
    }
    const ThreadInfo& t = trace.threads[o.thread[i].value];
    fwd_stacks.try_emplace(key(o.sequence_nr[i], t.tid), (*stacks)[i]);
    fwd_by_seq.try_emplace(o.sequence_nr[i], (*stacks)[i]);
  }
  if (!any_backward) return;
  // Kineto files write OS thread ids as tid but RecordFunction ids as "Fwd thread id". When no
  // CPU thread has the forward thread's number, match on the sequence number alone.
  std::vector<int64_t> tids;
  for (const ThreadInfo& t : trace.threads) tids.push_back(t.tid);
  std::sort(tids.begin(), tids.end());
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] < 0) continue;
    int32_t p = bw[i];
    auto it = fwd_stacks.find(key(o.sequence_nr[p], o.fwd_thread[p]));
    if (it != fwd_stacks.end()) {
      (*stacks)[i] = it->second;
    } else if (o.sequence_nr[p] >= 0 && o.fwd_thread[p] > 0 &&
               !std::binary_search(tids.begin(), tids.end(), int64_t{o.fwd_thread[p]})) {
      auto s = fwd_by_seq.find(o.sequence_nr[p]);
      (*stacks)[i] = s != fwd_by_seq.end() ? s->second : StackId(0);
    } else {
      (*stacks)[i] = StackId(0);
    }
  }
}

namespace {

void Builder::ComputeTotals() {
  FunctionEventList& o = out_;
  size_t m = o.size();
  o.cpu_total_ns.assign(m, 0);
  o.self_cpu_ns.assign(m, 0);
  o.cuda_total_ns.assign(m, 0);
  o.self_cuda_ns.assign(m, 0);
  o.self_cpu_memory.assign(m, 0);
  o.self_cuda_memory.assign(m, 0);
  // Children follow their parents, so one backward sweep sees every child before its parent.
  for (size_t r = m; r-- > 0;) {
    if (o.device_type[r] != DeviceType::kCPU) {
      o.cuda_total_ns[r] = o.self_cuda_ns[r] = o.end_ns[r] - o.start_ns[r];
      continue;
    }
    int64_t kernel_ns = 0;
    for (uint32_t k = o.kernel_begin[r]; k < o.kernel_begin[r + 1]; ++k) {
      uint32_t e = o.kernel_index[k];
      kernel_ns += trace_.events.end_ns[e] - trace_.events.start_ns[e];
    }
    int64_t children_cpu = 0, children_cuda = 0, children_cpu_mem = 0, children_cuda_mem = 0;
    for (uint32_t k = o.child_begin[r]; k < o.child_begin[r + 1]; ++k) {
      uint32_t c = o.child_index[k];
      children_cpu += o.cpu_total_ns[c];
      children_cuda += o.cuda_total_ns[c];
      children_cpu_mem += o.cpu_memory[c];
      children_cuda_mem += o.cuda_memory[c];
    }
    o.cpu_total_ns[r] = o.end_ns[r] - o.start_ns[r];
    o.self_cpu_ns[r] = o.cpu_total_ns[r] - children_cpu;
    o.cuda_total_ns[r] = kernel_ns + children_cuda;
    o.self_cuda_ns[r] = kernel_ns;
    o.self_cpu_memory[r] = o.cpu_memory[r] - children_cpu_mem;
    o.self_cuda_memory[r] = o.cuda_memory[r] - children_cuda_mem;
  }
}

FunctionEventList Builder::Run() {
  SelectEvents();
  AttributeMemory();
  BuildTree();
  AssignScopes();
  AttributeKernels();
  RemoveDuplicates();
  Compact();
  PropagateBackwardStacks(trace_, out_, &out_.stack);
  ComputeTotals();
  out_.has_memory_records = trace_.memory.size() > 0 || trace_.metadata.profile_memory;
  out_.legacy = trace_.metadata.legacy_kernels;
  if (trace_.metadata.format != "chrome-json-array" && ev_.size() > 0) {
    out_.origin_ns = ev_.start_ns[0];  // events are sorted by start
    for (size_t i = 0; i < ev_.size(); ++i) {
      if (ev_.kind[i] == ActivityKind::kTraceSpan) {
        out_.origin_ns = ev_.start_ns[i];
        break;
      }
    }
  }
  return std::move(out_);
}

}  // namespace

const char* DeviceTypeName(DeviceType type) {
  return type == DeviceType::kCPU ? "DeviceType.CPU" : "DeviceType.CUDA";
}

FunctionEventList BuildFunctionEvents(const Trace& trace) { return Builder(trace).Run(); }

}  // namespace profana::passes
