#include "profana/passes/function_events.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "profana/base/flat_hash_map.h"
#include "profana/base/id_index.h"
#include "profana/passes/event_times.h"

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

// The pre-dedup list, as parse_kineto_results leaves it.
struct Candidate {
  uint32_t source;  // trace event, or memory record index when synthetic
  bool synthetic;
  int64_t start_ns, end_ns;
};

// PyTorch's scope for backward functions is not in trace files; it is recognised by name
// (docs/semantics.md): a node wrapped by "autograd::engine::evaluate_function: <same name>",
// or a name ending in Backward<N> or starting with torch::autograd:: (AccumulateGrad runs
// unwrapped).
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
  // The per-candidate columns are done with once the list is compacted; freeing them before the
  // totals are allocated lowers the peak (the freed blocks are reused), by about 75 bytes an event.
  void ReleaseWorkingColumns() {
    auto release = [](auto&... v) { ((std::decay_t<decltype(v)>().swap(v)), ...); };
    release(cand_, device_, parent_, scope_, cpu_mem_, cuda_mem_, child_begin_, child_index_,
            list_owner_, kernel_owner_, kernel_begin_, kernel_index_, removed_, new_index_);
  }

  bool IsCpu(size_t i) const { return device_[i] == DeviceType::kCPU; }
  // In legacy-kernel traces launches and device activities only serve to attribute kernels.
  bool Hidden(size_t i) const {
    if (!trace_.metadata.legacy_kernels || cand_[i].synthetic) return false;
    return IsRuntimeOrDriver(ev_.kind[cand_[i].source]) || !IsCpu(i);
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
  std::vector<uint32_t> list_owner_;                 // whose original child list i has now
  std::vector<uint32_t> kernel_owner_;               // whose kernel list i has now
  std::vector<uint32_t> kernel_begin_;               // kernels each candidate launched (CSR)
  std::vector<EventId> kernel_index_;
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
    if (!cpu && !IsDeviceWork(kind)) continue;
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
  // Prefix sums wrap (unsigned) so that damaged byte counts near the int64 limit cannot overflow;
  // a range's difference is still exact whenever its true sum fits in int64.
  std::vector<int64_t> ts(mem.size());
  std::vector<uint64_t> cpu_prefix(mem.size() + 1, 0), cuda_prefix(mem.size() + 1, 0);
  for (size_t k = 0; k < order.size(); ++k) {
    uint32_t r = order[k];
    ts[k] = mem.ts_ns[r];
    int8_t dev = mem.device_type[r];
    cpu_prefix[k + 1] = cpu_prefix[k] + static_cast<uint64_t>(dev == 0 ? mem.bytes[r] : 0);
    cuda_prefix[k + 1] = cuda_prefix[k] + static_cast<uint64_t>(dev == 1 ? mem.bytes[r] : 0);
  }
  std::vector<int32_t> cover(mem.size() + 1, 0);  // difference array: records inside some event
  // Events come by start time, so the first record of each only moves forward; the last is
  // found by galloping from there (events are short: a few records at most).
  size_t lo = 0;
  for (size_t i = 0; i < n_events; ++i) {
    if (!IsCpu(i)) continue;
    while (lo < ts.size() && ts[lo] < cand_[i].start_ns) ++lo;
    size_t step = 1, hi = lo;
    while (hi + step < ts.size() && ts[hi + step] <= cand_[i].end_ns) hi += step, step *= 2;
    hi = std::upper_bound(ts.begin() + hi, ts.begin() + std::min(ts.size(), hi + step),
                          cand_[i].end_ns) -
         ts.begin();
    if (lo >= hi) continue;
    cpu_mem_[i] = static_cast<int64_t>(cpu_prefix[hi] - cpu_prefix[lo]);
    cuda_mem_[i] = static_cast<int64_t>(cuda_prefix[hi] - cuda_prefix[lo]);
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
  // The events are already in (start, -end) order; a stable sort of the whole equals a stable
  // merge of them with the sorted [memory] events, which is linear.
  auto before = [&](uint32_t a, uint32_t b) {
    if (cand_[a].start_ns != cand_[b].start_ns) return cand_[a].start_ns < cand_[b].start_ns;
    return cand_[a].end_ns > cand_[b].end_ns;
  };
  std::vector<uint32_t> tail(cand_.size() - n_events);
  std::iota(tail.begin(), tail.end(), static_cast<uint32_t>(n_events));
  std::stable_sort(tail.begin(), tail.end(), before);
  std::vector<uint32_t> perm;
  perm.reserve(cand_.size());
  uint32_t head = 0;
  for (uint32_t t : tail) {
    while (head < n_events && !before(t, head)) perm.push_back(head++);
    perm.push_back(t);
  }
  while (head < n_events) perm.push_back(head++);
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
  IdIndex launch_by_correlation, op_by_external_id;
  auto is_launch = [&](uint32_t i, uint32_t e) {
    return !cand_[i].synthetic && IsCpu(i) && IsRuntimeOrDriver(ev_.kind[e]) &&
           ev_.correlation[e] != kNoId;
  };
  auto is_op = [&](uint32_t i, uint32_t e) {
    return !cand_[i].synthetic && IsCpu(i) && IsOpOrAnnotation(ev_.kind[e]) &&
           ev_.external_id[e] != kNoId;
  };
  // A synthetic [memory] candidate's source indexes the memory table, not the events: test first.
  launch_by_correlation.Build(n, [&](uint32_t i, int64_t* id) {
    uint32_t e = cand_[i].source;
    if (cand_[i].synthetic || !is_launch(i, e)) return false;
    *id = ev_.correlation[e];
    return true;
  });
  op_by_external_id.Build(n, [&](uint32_t i, int64_t* id) {
    uint32_t e = cand_[i].source;
    if (cand_[i].synthetic || !is_op(i, e)) return false;
    *id = ev_.external_id[e];
    return true;
  });
  std::vector<std::pair<uint32_t, EventId>> owned;  // (owner candidate, kernel), in kernel order
  for (uint32_t i = 0; i < n; ++i) {
    if (IsCpu(i)) continue;
    uint32_t e = cand_[i].source;
    int64_t corr = ev_.correlation[e];
    int64_t ext = ev_.external_id[e];
    int32_t owner = -1;
    const uint32_t* launch = corr != kNoId ? launch_by_correlation.find(corr) : nullptr;
    if (launch) {
      owner = parent_[*launch];
      if (owner < 0) {
        // A launch outside every op on its thread (old Kineto wrote ops and launches on different
        // tids): the launch's own External id names its op; 0 or its correlation means none.
        int64_t launch_ext = ev_.external_id[cand_[*launch].source];
        const uint32_t* op =
            launch_ext > 0 && launch_ext != corr ? op_by_external_id.find(launch_ext) : nullptr;
        if (op) owner = static_cast<int32_t>(*op);
      }
      if (owner >= 0 && ext != kNoId && ext != corr) {
        int64_t owner_ext = ev_.external_id[cand_[owner].source];
        if (owner_ext != kNoId && owner_ext != ext) ++out_.external_id_mismatches;
      }
    } else if (ext != kNoId && ext != corr) {
      // No launch in the trace (sampled or trimmed): trust External id only when it cannot be
      // the activity's own correlation id, which Kineto writes when no op was linked.
      const uint32_t* op = op_by_external_id.find(ext);
      if (op) owner = static_cast<int32_t>(*op);
    }
    if (owner < 0) {
      ++out_.kernels_unattributed;
      continue;
    }
    ++out_.kernels_attributed;
    owned.emplace_back(static_cast<uint32_t>(owner), EventId(e));
  }
  // Counting sort by owner keeps each owner's kernels in kernel order.
  kernel_begin_.assign(n + 1, 0);
  for (const auto& [owner, e] : owned) ++kernel_begin_[owner + 1];
  for (size_t i = 0; i < n; ++i) kernel_begin_[i + 1] += kernel_begin_[i];
  kernel_index_.resize(owned.size());
  std::vector<uint32_t> fill(kernel_begin_.begin(), kernel_begin_.end() - 1);
  for (const auto& [owner, e] : owned) kernel_index_[fill[owner]++] = e;
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
  auto list_size = [&](uint32_t i) {
    return child_begin_[list_owner_[i] + 1] - child_begin_[list_owner_[i]];
  };
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
    for (uint32_t k = child_begin_[owner]; k < child_begin_[owner + 1]; ++k)
      parent_[child_index_[k]] = p;
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
  child_index.reserve(child_index_.size());
  kernel_index.reserve(kernel_index_.size());
  for (size_t i = 0; i < n; ++i) {
    if (removed_[i]) continue;
    uint32_t j = new_index_[i];
    const Candidate& c = cand_[i];
    source[j] = c.synthetic ? kSynthetic : EventId(c.source);
    if (c.synthetic) o.synthetic_record.push_back(c.source);
    device_type[j] = device_[i];
    scope[j] = scope_[i];
    parent[j] = parent_[i] < 0 ? FnEventId::None() : FnEventId(new_index_[parent_[i]]);
    cpu_memory[j] = cpu_mem_[i];
    cuda_memory[j] = cuda_mem_[i];
    uint32_t owner = list_owner_[i];
    for (uint32_t k = child_begin_[owner]; k < child_begin_[owner + 1]; ++k)
      child_index.push_back(FnEventId(new_index_[child_index_[k]]));
    child_begin[j + 1] = static_cast<uint32_t>(child_index.size());
    uint32_t ko = kernel_owner_[i];
    kernel_index.insert(kernel_index.end(), kernel_index_.begin() + kernel_begin_[ko],
                        kernel_index_.begin() + kernel_begin_[ko + 1]);
    kernel_begin[j + 1] = static_cast<uint32_t>(kernel_index.size());
  }
}

}  // namespace

void PropagateBackwardStacks(const Trace& trace, const FunctionEventList& o,
                             std::vector<StackId>* stacks) {
  // _set_backward_stacktraces: the first non-backward event per (sequence_nr, thread) lends its
  // stack (possibly empty) to every event under a backward function of that (sequence_nr,
  // forward thread).
  size_t m = o.size();
  // When no event has a stack, every event keeps the empty one: nothing to lend.
  if (std::all_of(stacks->begin(), stacks->end(), [](StackId s) { return s.value == 0; })) return;
  struct Key {
    int64_t seq, thread;
    bool operator==(const Key& k) const { return seq == k.seq && thread == k.thread; }
  };
  struct KeyHash {
    uint64_t operator()(const Key& k) const {
      return MixHash64(static_cast<uint64_t>(k.seq) * 0x9e3779b97f4a7c15ull ^
                       static_cast<uint64_t>(k.thread));
    }
  };
  // Which backward function each event is under (-1: none); the keys those will ask for.
  std::vector<int32_t> bw(m, -1);
  FlatHashMap<Key, uint32_t, KeyHash> fwd_stacks(1024);  // key -> stack id + 1 (0: not seen yet)
  FlatHashMap<int64_t, uint32_t> fwd_by_seq(1024);
  for (size_t i = 0; i < m; ++i) {
    if (o.scope[i] == 1) {
      bw[i] = static_cast<int32_t>(i);
      fwd_stacks.try_emplace(Key{o.sequence_nr[i], o.fwd_thread[i]}, 0);
      fwd_by_seq.try_emplace(o.sequence_nr[i], 0);
    } else if (o.parent[i].valid()) {
      bw[i] = bw[o.parent[i].value];
    }
  }
  if (fwd_by_seq.size() == 0) return;
  // The first forward event per key lends its stack; only keys a backward function asks for are
  // kept, so the maps stay as small as the backward pass.
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] >= 0) continue;
    int64_t tid = trace.threads[o.thread[i].value].tid;
    uint32_t* s = fwd_stacks.find(Key{o.sequence_nr[i], tid});
    if (s && *s == 0) *s = (*stacks)[i].value + 1;
    uint32_t* q = fwd_by_seq.find(o.sequence_nr[i]);
    if (q && *q == 0) *q = (*stacks)[i].value + 1;
  }
  // Kineto files write OS thread ids as tid but RecordFunction ids as "Fwd thread id". When no
  // CPU thread has the forward thread's number, match on the sequence number alone.
  std::vector<int64_t> tids;
  for (const ThreadInfo& t : trace.threads) tids.push_back(t.tid);
  std::sort(tids.begin(), tids.end());
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] < 0) continue;
    int32_t p = bw[i];
    const uint32_t* it = fwd_stacks.find(Key{o.sequence_nr[p], o.fwd_thread[p]});
    if (it && *it) {
      (*stacks)[i] = StackId(*it - 1);
    } else if (o.sequence_nr[p] >= 0 && o.fwd_thread[p] > 0 &&
               !std::binary_search(tids.begin(), tids.end(), int64_t{o.fwd_thread[p]})) {
      const uint32_t* s = fwd_by_seq.find(o.sequence_nr[p]);
      (*stacks)[i] = s && *s ? StackId(*s - 1) : StackId(0);
    } else {
      (*stacks)[i] = StackId(0);
    }
  }
}

namespace {

FunctionEventList Builder::Run() {
  SelectEvents();
  AttributeMemory();
  BuildTree();
  AssignScopes();
  AttributeKernels();
  RemoveDuplicates();
  Compact();
  ReleaseWorkingColumns();
  return std::move(out_);
}

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

// The list's structure from a native file's index: its columns are used as they are (views of the
// file).
FunctionEventList FromIndex(const FunctionEventIndex& x) {
  FunctionEventList o;
  ForEachIndexedField(x, o, [](const auto& from, auto& to) { to = from; });
  o.device_type = Column<DeviceType>::View(
      reinterpret_cast<const DeviceType*>(x.device_type.data()), x.device_type.size());
  return o;
}

// The fields each FunctionEvent takes from its trace event, or from the memory record of a [memory]
// event: a function of `source` and `synthetic_record` alone, whichever way those were found. They
// read the trace's columns through `source` (event_field.h) instead of copying them.
void BindEventFields(const Trace& trace, FunctionEventList* list) {
  FunctionEventList& o = *list;
  const EventTable& ev = trace.events;
  const MemoryTable& mem = trace.memory;
  if (!o.synthetic_record.empty()) {
    auto& rows = o.synthetic_row.owned();
    rows.clear();
    for (uint32_t j = 0; j < o.source.size(); ++j)
      if (o.source[j] == kSynthetic) rows.push_back(FnEventId(j));
  }
  // The importer interns "[memory]" with the records; a trace without it names them "".
  StringId memory_name;
  trace.strings.Find("[memory]", &memory_name);
  SyntheticRows synthetic{o.synthetic_row.data(), o.synthetic_record.data(),
                          o.synthetic_row.size()};
  auto bind = [&](auto& field, const auto& events, const auto* records, auto constant) {
    using T = std::decay_t<decltype(events[0])>;
    field = EventField<T>(o.source.data(), o.source.size(), events.data(), synthetic, records,
                          constant);
  };
  bind(o.name, ev.name, static_cast<const StringId*>(nullptr), memory_name);
  bind(o.trace_name, ev.trace_name, static_cast<const StringId*>(nullptr), StringId(0));
  bind(o.thread, ev.thread, mem.thread.data(), ThreadId(0));
  bind(o.start_ns, ev.start_ns, mem.ts_ns.data(), int64_t{0});
  bind(o.end_ns, ev.end_ns, mem.ts_ns.data(), int64_t{0});
  bind(o.sequence_nr, ev.sequence_nr, static_cast<const int32_t*>(nullptr), int32_t{-1});
  bind(o.fwd_thread, ev.fwd_thread, static_cast<const int32_t*>(nullptr), int32_t{0});
  bind(o.input_shapes, ev.input_shapes, static_cast<const StringId*>(nullptr), StringId(0));
  bind(o.stack, ev.stack, static_cast<const StackId*>(nullptr), StackId(0));
}

}  // namespace

FunctionEventList BuildFunctionEvents(const Trace& trace,
                                      const std::optional<FunctionEventIndex>& index) {
  bool indexed = index && index->version == kFunctionEventIndexVersion;
  FunctionEventList out = indexed ? FromIndex(*index) : Builder(trace).Run();
  BindEventFields(trace, &out);
  // Without stacks in the trace every event's is empty: nothing to lend.
  if (trace.stacks.size() > 1) PropagateBackwardStacks(trace, out, &out.stack.owned());
  out.has_memory_records = trace.memory.size() > 0 || trace.metadata.profile_memory;
  out.legacy = trace.metadata.legacy_kernels;
  out.origin_ns = trace.metadata.origin.ns;
  return out;
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
  auto& device = x.device_type.owned();
  for (DeviceType d : events.device_type) device.push_back(static_cast<uint8_t>(d));
  return x;
}

}  // namespace profana::passes
