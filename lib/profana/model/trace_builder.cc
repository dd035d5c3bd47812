#include "profana/model/trace_builder.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "profana/base/memory_release.h"
#include "profana/base/parallel.h"
#include "profana/model/flop_inputs.h"

namespace profana {

bool KeepStackEntry(std::string_view entry) {
  static constexpr std::pair<std::string_view, std::string_view> kFiltered[] = {
      {"autograd/__init__", "_make_grads"},
      {"autograd/__init__", "backward"},
      {"torch/tensor", "backward"},
      {"_internal/common_utils", "prof_callable"},
      {"_internal/common_utils", "prof_func_call"},
      {"_internal/common_utils", "prof_meth_call"},
  };
  for (const auto& [a, b] : kFiltered)
    if (entry.find(a) != std::string_view::npos && entry.find(b) != std::string_view::npos)
      return false;
  return true;
}

namespace {

// Runs shorter than this on average (input in little order) are sorted instead of merged.
constexpr size_t kShortestRunsMerged = 16;

// Reorders a column by `order` (the value at k becomes the one at order[k]) through `scratch`,
// gathering there and copying back: the column's own pages are in memory already, where a new
// column would have the kernel fault and zero every page again. A column of one value (no stacks,
// no collectives in the trace) is already in every order.
template <typename T>
void Permute(std::vector<T>* column, const std::vector<uint32_t>& order,
             std::vector<unsigned char>* scratch) {
  // Bytes from operator new are aligned for any column's type, and hold its values as they are.
  static_assert(sizeof(T) <= 8 && alignof(T) <= alignof(std::max_align_t) &&
                std::is_trivially_copyable_v<T>);
  size_t n = column->size();
  T* values = column->data();
  if (std::all_of(values, values + n, [&](const T& v) { return v == values[0]; })) return;
  if (scratch->size() < n * sizeof(T)) scratch->resize(n * sizeof(T));
  T* sorted = reinterpret_cast<T*>(scratch->data());
  // The two halves of the gather at once, on two cores where there are: no more memory.
  InHalves(n, [&](size_t, size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) sorted[k] = values[order[k]];
  });
  // Copied back once both halves are gathered (each reads the whole column), also in halves.
  InHalves(n, [&](size_t, size_t begin, size_t end) {
    std::memcpy(values + begin, sorted + begin, (end - begin) * sizeof(T));
  });
}

// A stable sort of `order`; with two cores or more, its halves are sorted at once and merged.
template <typename Less>
void StableSort(std::vector<uint32_t>* order, Less less) {
  auto begin = order->begin(), end = order->end();
  if (!WorthTwoThreads(order->size())) {
    std::stable_sort(begin, end, less);
    return;
  }
  auto middle = begin + static_cast<std::ptrdiff_t>(order->size() / 2);
  ParallelFor(2, [&](size_t half) {
    if (half == 0)
      std::stable_sort(begin, middle, less);
    else
      std::stable_sort(middle, end, less);
  });
  std::inplace_merge(begin, middle, end, less);
}

// Merges the runs of `from` that start at bounds[0], bounds[1], ... (the last bound is the end),
// level by level, each level from one array into the other at the same positions; an already
// ordered pair is copied. Returns the array that holds the result.
template <typename Less>
uint32_t* MergeRuns(uint32_t* from, uint32_t* to, std::vector<size_t> bounds, Less less) {
  while (bounds.size() > 2) {
    std::vector<size_t> merged = {bounds[0]};
    for (size_t r = 0; r + 1 < bounds.size(); r += 2) {
      uint32_t *a = from + bounds[r], *mid = from + bounds[r + 1];
      uint32_t* end = r + 2 < bounds.size() ? from + bounds[r + 2] : mid;
      if (mid == end || !less(*mid, *(mid - 1)))
        std::copy(a, end, to + bounds[r]);
      else
        std::merge(a, mid, mid, end, to + bounds[r], less);
      merged.push_back(static_cast<size_t>(end - from));
    }
    bounds.swap(merged);
    std::swap(from, to);
  }
  return from;
}

// A stable merge of from[0, middle) and from[middle, n) into `to`, in two parts at once: the first
// n / 2 values of the result come from a front of each half, found by a binary search (the
// "merge path"), and each part is merged on its own core.
template <typename Less>
void MergeHalves(const uint32_t* from, size_t middle, size_t n, uint32_t* to, Less less) {
  const uint32_t *a = from, *b = from + middle;
  size_t a_size = middle, b_size = n - middle, k = n / 2;
  // The fewest of a's values among the first k: a[i] goes before b[k - i - 1] when b's is not
  // less (a stable merge takes a's value first on a tie), so i is too small while that holds.
  size_t lo = k > b_size ? k - b_size : 0, hi = std::min(k, a_size);
  while (lo < hi) {
    size_t i = lo + (hi - lo) / 2, j = k - i;
    if (j > 0 && !less(b[j - 1], a[i]))
      lo = i + 1;
    else
      hi = i;
  }
  size_t i = lo, j = k - lo;
  ParallelFor(2, [&](size_t part) {
    if (part == 0)
      std::merge(a, a + i, b, b + j, to, less);
    else
      std::merge(a + i, a + a_size, b + j, b + b_size, to + k, less);
  });
}

// A stable sort of `order` (the identity on entry) that takes the events as they come, in runs
// already in order: an importer that reads table by table hands over a few, and a Kineto file a
// thread's or a stream's stretch at a time. Merging runs costs a pass per halving of their number,
// where a sort costs log n passes. With two cores, the runs of each half are merged at once.
template <typename Less>
void SortRuns(std::vector<uint32_t>* order, Less less) {
  size_t n = order->size();
  // Where the runs start, looked for in two halves at once where there are two cores; more than
  // this many and the rows are sorted instead.
  const size_t most_runs = n / kShortestRunsMerged;
  std::vector<size_t> half_starts[2];
  InHalves(n, [&](size_t h, size_t begin, size_t end) {
    std::vector<size_t>& starts = half_starts[h];
    for (size_t i = std::max<size_t>(1, begin); i < end; ++i) {
      if (!less(static_cast<uint32_t>(i), static_cast<uint32_t>(i - 1))) continue;
      starts.push_back(i);
      if (starts.size() >= most_runs) return;  // too many already: no need for the rest
    }
  });
  if (1 + half_starts[0].size() + half_starts[1].size() > most_runs) return StableSort(order, less);
  std::vector<size_t> starts = {0};
  for (const std::vector<size_t>& half : half_starts)
    starts.insert(starts.end(), half.begin(), half.end());
  if (starts.size() == 1) return;
  std::vector<uint32_t> other(n);
  uint32_t *data = order->data(), *spare = other.data();
  size_t middle = starts[starts.size() / 2];
  if (!WorthTwoThreads(n) || starts.size() < 4) {
    starts.push_back(n);
    if (MergeRuns(data, spare, std::move(starts), less) == spare) order->swap(other);
    return;
  }
  // Each half's runs merged into `data`, then the halves merged into `spare`.
  ParallelFor(2, [&](size_t half) {
    auto first = starts.begin() + static_cast<std::ptrdiff_t>(starts.size() / 2);
    std::vector<size_t> bounds(half == 0 ? starts.begin() : first,
                               half == 0 ? first : starts.end());
    bounds.push_back(half == 0 ? middle : n);
    size_t begin = bounds.front(), end = bounds.back();
    if (MergeRuns(data, spare, std::move(bounds), less) == spare)
      std::copy(spare + begin, spare + end, data + begin);
  });
  MergeHalves(data, middle, n, spare, less);
  order->swap(other);
}

}  // namespace

std::vector<StringId> Trace::StackFrames(StackId id) const {
  std::vector<StringId> frames;
  for (uint32_t n = id.value; n != 0; n = stacks.parent[n].value) frames.push_back(stacks.frame[n]);
  return frames;
}

void WorkOutTimeOrigin(Trace* trace) {
  TimeOrigin& origin = trace->metadata.origin;
  if (origin.kind == TimeOriginKind::kRelative) {
    origin.ns = 0;
    return;
  }
  const EventTable& ev = trace->events;
  origin = {TimeOriginKind::kFirstEvent, ev.size() ? ev.start_ns[0] : 0};  // sorted by start
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.kind[i] == ActivityKind::kTraceSpan) {
      origin = {TimeOriginKind::kTraceSpan, ev.start_ns[i]};
      return;
    }
  }
}

DeviceArgsTable EmptyDeviceArgs() {
  DeviceArgsTable t;
  const DeviceArgs absent;
  ForEachDeviceArg(t, absent, [](auto& column, const auto& value) {
    column = std::decay_t<decltype(column)>::Uniform(0, value);
  });
  return t;
}

void LeaveUnread(const UnreadColumns& unread, Trace* trace) {
  if (unread.flows) {
    FlowTable& f = trace->flows;
    size_t n = f.size();
    ForEachColumn(f, [&](const char*, auto& column) {
      column = std::decay_t<decltype(column)>::Uniform(n, {});
    });
  }
  EventTable* t = &trace->events;
  size_t n = t->size();
  if (unread.input_shapes) t->input_shapes = Column<StringId>::Uniform(n, StringId(0));
  if (unread.stacks) {
    t->stack = Column<StackId>::Uniform(n, StackId(0));
    t->sequence_nr = Column<int32_t>::Uniform(n, -1);
    t->fwd_thread = Column<int32_t>::Uniform(n, 0);
  }
  if (unread.collectives) t->comm = Column<StringId>::Uniform(n, StringId(0));
  if (unread.device_args) {
    t->device_args = Column<uint32_t>::Uniform(n, kNoDeviceArgs);
    trace->device_args = EmptyDeviceArgs();
  }
  if (unread.memory_details) {
    MemoryTable& m = trace->memory;
    size_t records = m.size();
    const TraceBuilder::Memory absent;
    m.addr = Column<int64_t>::Uniform(records, absent.addr);
    m.total_allocated = Column<int64_t>::Uniform(records, absent.total_allocated);
    m.total_reserved = Column<int64_t>::Uniform(records, absent.total_reserved);
    m.device_id = Column<int16_t>::Uniform(records, absent.device_id);
  }
}

// The columns of args start as one absent value each: a trace that never writes an arg (no
// stacks, no collectives) holds none of its values. The first other value makes the column an
// array.
TraceBuilder::TraceBuilder() {
  EventTable& t = trace_.events;
  t.external_id = Column<int64_t>::Uniform(0, kNoId);
  t.correlation = Column<int64_t>::Uniform(0, kNoId);
  t.external_id.NarrowWhenArray();
  t.correlation.NarrowWhenArray();
  t.sequence_nr = Column<int32_t>::Uniform(0, -1);
  t.fwd_thread = Column<int32_t>::Uniform(0, 0);
  t.input_shapes = Column<StringId>::Uniform(0, StringId(0));
  t.stack = Column<StackId>::Uniform(0, StackId(0));
  t.device = Column<int32_t>::Uniform(0, -1);
  t.comm = Column<StringId>::Uniform(0, StringId(0));
  t.flop_inputs = Column<StringId>::Uniform(0, StringId(0));
  t.device_args = Column<uint32_t>::Uniform(0, kNoDeviceArgs);
  trace_.device_args = EmptyDeviceArgs();
}

void TraceBuilder::LeaveUnread(const UnreadColumns& unread) {
  unread_ = unread;
  profana::LeaveUnread(unread, &trace_);
}

uint64_t TraceBuilder::ThreadKeyHash::operator()(const ThreadKey& k) const {
  uint64_t texts = (uint64_t{k.pid_text.value} << 32) | k.tid_text.value;
  return MixHash64(static_cast<uint64_t>(k.pid) * 0x9e3779b97f4a7c15ull ^
                   MixHash64(static_cast<uint64_t>(k.tid) ^ texts));
}

ThreadId TraceBuilder::Thread(int64_t pid, int64_t tid, StringId pid_text, StringId tid_text) {
  // A string pid or tid is its text alone (the number read for it means nothing).
  ThreadKey key{pid_text.value ? 0 : pid, tid_text.value ? 0 : tid, pid_text, tid_text};
  if (last_thread_ != UINT32_MAX && key == last_thread_key_) return ThreadId(last_thread_);
  auto [index, inserted] =
      thread_index_.try_emplace(key, static_cast<uint32_t>(trace_.threads.size()));
  if (inserted) {
    ThreadInfo info;
    info.pid = key.pid;
    info.tid = key.tid;
    info.pid_text = pid_text;
    info.tid_text = tid_text;
    trace_.threads.push_back(info);
  }
  last_thread_key_ = key;
  last_thread_ = *index;
  return ThreadId(*index);
}

void TraceBuilder::SetProcessName(int64_t pid, StringId pid_text, StringId name) {
  for (ThreadInfo& t : trace_.threads)
    if (t.pid == (pid_text.value ? 0 : pid) && t.pid_text == pid_text) t.process_name = name;
}

StackId TraceBuilder::InternFrame(StackId parent, StringId frame) {
  uint64_t key = (static_cast<uint64_t>(parent.value) << 32) | frame.value;
  auto [it, inserted] =
      stack_nodes_.try_emplace(key, StackId(static_cast<uint32_t>(trace_.stacks.size())));
  if (inserted) {
    trace_.stacks.parent.push_back(parent);
    trace_.stacks.frame.push_back(frame);
    trace_.stacks.depth.push_back(trace_.stacks.depth[parent.value] + 1);
  }
  return it->second;
}

StackId TraceBuilder::InternCallStack(StringId call_stack) {
  if (call_stack.value == 0) return StackId(0);
  if (stack_cache_.size() <= call_stack.value)
    stack_cache_.resize(trace_.strings.size(), StackId(0));
  if (stack_cache_[call_stack.value].value)
    return StackId(stack_cache_[call_stack.value].value - 1);
  // Frames are written innermost first; the trie is built from the outermost.
  std::string_view text = trace_.strings.Get(call_stack);
  std::vector<std::string_view> frames;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(';', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view frame = text.substr(pos, end - pos);
    if (!frame.empty() && KeepStackEntry(frame)) frames.push_back(frame);
    pos = end + 1;
  }
  StackId node(0);
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) node = InternFrame(node, Intern(*it));
  if (stack_cache_.size() <= call_stack.value)
    stack_cache_.resize(call_stack.value + 1, StackId(0));
  stack_cache_[call_stack.value] = StackId(node.value + 1);
  return node;
}

StringId TraceBuilder::Rewrite(StringId trace_name) {
  if (rewritten_.size() <= trace_name.value)
    rewritten_.resize(trace_.strings.size() + 1, StringId(0));
  StringId& cached = rewritten_[trace_name.value];
  if (cached.value == 0) {
    // PyTorch's rewrite_name(with_wildcard=True): every ProfilerStep#N aggregates as ProfilerStep*.
    std::string_view name = trace_.strings.Get(trace_name);
    cached = name.substr(0, 13) == "ProfilerStep#" ? Intern("ProfilerStep*") : trace_name;
    if (cached.value == 0) return cached;  // the empty name stays empty
  }
  return cached;
}

void TraceBuilder::AddEvent(const Event& e) {
  EventTable& t = trace_.events;
  t.name.push_back(Rewrite(e.trace_name));
  t.trace_name.push_back(e.trace_name);
  t.category.push_back(e.category);
  t.kind.push_back(e.kind);
  t.thread.push_back(e.thread);
  t.start_ns.push_back(e.start_ns);
  t.end_ns.push_back(e.end_ns);
  t.external_id.push_back(e.external_id);
  t.correlation.push_back(e.correlation);
  // An unread column counts its absent value: it stays uniform.
  t.sequence_nr.push_back(unread_.stacks ? -1 : e.sequence_nr);
  t.fwd_thread.push_back(unread_.stacks ? 0 : e.fwd_thread);
  t.input_shapes.push_back(unread_.input_shapes ? StringId(0) : e.input_shapes);
  t.stack.push_back(unread_.stacks ? StackId(0) : e.stack);
  t.device.push_back(e.device);
  t.comm.push_back(unread_.collectives ? StringId(0) : e.comm);
  t.flop_inputs.push_back(e.flop_inputs.value ? e.flop_inputs : FlopInputsFromShapes(e));
  if (!e.has_device_args || unread_.device_args) {
    t.device_args.push_back(kNoDeviceArgs);
    return;
  }
  DeviceArgsTable& d = trace_.device_args;
  t.device_args.push_back(static_cast<uint32_t>(d.size()));
  ForEachDeviceArg(d, e.device_args,
                   [](auto& column, const auto& value) { column.push_back(value); });
}

// Kineto's importer keeps a counted op's "Input Dims", "Input type" and "Concrete Inputs" as
// flop_inputs; the other formats record input shapes only. Their counted ops get the shapes as
// the dims (no types, no concrete inputs: conv2d counts nothing), so that a trace, its native
// file and its Chrome-JSON conversion (which writes the shapes as "Input Dims") count the same.
StringId TraceBuilder::FlopInputsFromShapes(const Event& e) {
  if (!e.input_shapes.value) return StringId(0);
  if (e.trace_name.value >= counts_flops_.size()) counts_flops_.resize(e.trace_name.value + 1, -1);
  int8_t& counts = counts_flops_[e.trace_name.value];  // -1 not yet asked, 0 no, 1 yes
  if (counts < 0) counts = CountsFlops(str(e.trace_name)) ? 1 : 0;
  if (!counts) return StringId(0);
  JoinFlopInputs(str(e.input_shapes), {}, {}, &flop_joined_);
  return Intern(flop_joined_);
}

TraceBuilder::Rows TraceBuilder::rows() const {
  return {trace_.events.size(), trace_.memory.size(), trace_.flows.size(),
          trace_.device_args.size()};
}

void TraceBuilder::ReserveRows(const Rows& rows) {
  auto reserve = [](auto& table, size_t have, size_t want) {
    if (want <= have) return have;
    ForEachColumn(table, [want](const char*, auto& column) { column.reserve(want); });
    return want;
  };
  reserved_.events = reserve(trace_.events, reserved_.events, rows.events);
  reserved_.memory = reserve(trace_.memory, reserved_.memory, rows.memory);
  reserved_.flows = reserve(trace_.flows, reserved_.flows, rows.flows);
  reserved_.device_args = reserve(trace_.device_args, reserved_.device_args, rows.device_args);
}

void TraceBuilder::AddMemory(const Memory& m) {
  MemoryTable& t = trace_.memory;
  t.ts_ns.push_back(m.ts_ns);
  t.thread.push_back(m.thread);
  t.bytes.push_back(m.bytes);
  t.device_type.push_back(m.device_type);
  // An unread column counts its absent value: it stays uniform.
  const Memory& absent = unread_.memory_details ? Memory{} : m;
  t.addr.push_back(absent.addr);
  t.total_allocated.push_back(absent.total_allocated);
  t.total_reserved.push_back(absent.total_reserved);
  t.device_id.push_back(absent.device_id);
}

void TraceBuilder::AddFlow(int64_t id, int64_t ts_ns, ThreadId thread, StringId category,
                           bool is_start) {
  FlowTable& t = trace_.flows;
  if (unread_.flows) {  // counted: each column stays one value
    t.id.push_back(0), t.ts_ns.push_back(0), t.thread.push_back({}), t.category.push_back({});
    t.is_start.push_back(0);
    return;
  }
  t.id.push_back(id);
  t.ts_ns.push_back(ts_ns);
  t.thread.push_back(thread);
  t.category.push_back(category);
  t.is_start.push_back(is_start ? 1 : 0);
}

bool TraceBuilder::End(ThreadId thread, int64_t end_ns, StringId name, uint64_t byte_offset,
                       int64_t event_index) {
  auto it = open_.find(thread.value);
  if (it == open_.end() || it->second.empty()) return false;
  Event e = it->second.back().event;
  it->second.pop_back();
  if (end_ns < e.start_ns)
    trace_.diagnostics.Add(DiagnosticKind::kNegativeDuration, byte_offset, event_index,
                           "E event " + std::to_string(e.start_ns - end_ns) +
                               " ns before its B \"" + std::string(str(e.trace_name)) +
                               "\"; kept with dur 0");
  if (name.value && name != e.trace_name)
    trace_.diagnostics.Add(DiagnosticKind::kMismatchedEnd, byte_offset, event_index,
                           "E \"" + std::string(str(name)) + "\" closes B \"" +
                               std::string(str(e.trace_name)) + "\" on its thread");
  e.end_ns = std::max(end_ns, e.start_ns);
  AddEvent(e);
  return true;
}

Trace TraceBuilder::Finish() && {
  EventTable& t = trace_.events;
  ReleaseSpareRows();  // before the sort's buffers join them
  // B events never ended are closed at the last timestamp seen, and said so.
  bool unended = std::any_of(open_.begin(), open_.end(),
                             [](const auto& thread_stack) { return !thread_stack.second.empty(); });
  int64_t last_ns = 0;
  for (size_t i = 0; unended && i < t.size(); ++i) last_ns = std::max(last_ns, t.end_ns[i]);
  for (auto& [thread, stack] : open_) {
    while (!stack.empty()) {
      const OpenBegin& b = stack.back();
      trace_.diagnostics.Add(DiagnosticKind::kUnmatchedBegin, b.byte_offset, b.event_index,
                             "B event \"" + std::string(str(b.event.trace_name)) +
                                 "\" never ended; closed at the trace's last time");
      End(ThreadId(thread), std::max(last_ns, b.event.start_ns));
    }
  }
  // PyTorch sorts function_events by (start, -end) with Python's stable sort.
  bool sorted = true;
  for (size_t i = 1; i < t.size() && sorted; ++i)
    sorted = t.start_ns[i - 1] < t.start_ns[i] ||
             (t.start_ns[i - 1] == t.start_ns[i] && t.end_ns[i - 1] >= t.end_ns[i]);
  if (!sorted) {
    auto earlier = [&](uint32_t a, uint32_t b) {
      if (t.start_ns[a] != t.start_ns[b]) return t.start_ns[a] < t.start_ns[b];
      return t.end_ns[a] > t.end_ns[b];
    };
    std::vector<uint32_t> order(t.size());
    std::iota(order.begin(), order.end(), 0u);
    SortRuns(&order, earlier);
    // The merge's buffer (a row index each) is freed, and it is too small for the scratch below:
    // given back, it is not resident beside it at the finish's peak (the stack mix at 1 GB: 251
    // MB, 232 MB with it given back).
    ReleaseFreedMemory();
    std::vector<unsigned char> scratch;
    scratch.reserve(t.size() * 8);  // the widest column's, once
    ForEachColumn(t, [&](const char*, auto& column) {
      column.ForStoredValues([&](auto& values) { Permute(&values, order, &scratch); });
    });
  }
  if (renumber_threads_) RenumberThreads();
  WorkOutTimeOrigin(&trace_);
  return std::move(trace_);
}

// The columns were reserved for the rows the importer expected (ReserveRows), which may be more
// than it found: the room left over goes back, while it is still only room (base/memory_release.h).
void TraceBuilder::ReleaseSpareRows() {
  auto release = [](const char*, auto& column) {
    column.ForStoredValues([](auto& values) { ReleaseSpareCapacity(&values); });
  };
  ForEachColumn(trace_.events, release);
  ForEachColumn(trace_.memory, release);
  ForEachColumn(trace_.flows, release);
  ForEachColumn(trace_.stacks, release);
  ForEachColumn(trace_.device_args, release);
}

void TraceBuilder::RenumberThreads() {
  std::vector<uint32_t> new_id(trace_.threads.size(), UINT32_MAX);
  std::vector<ThreadInfo> threads;
  threads.reserve(trace_.threads.size());
  auto visit = [&](ThreadId id) {
    if (new_id[id.value] != UINT32_MAX) return;
    new_id[id.value] = static_cast<uint32_t>(threads.size());
    threads.push_back(trace_.threads[id.value]);
  };
  for (ThreadId id : trace_.events.thread) visit(id);
  for (ThreadId id : trace_.memory.thread) visit(id);
  if (!unread_.flows)
    for (ThreadId id : trace_.flows.thread) visit(id);
  for (uint32_t i = 0; i < trace_.threads.size(); ++i) visit(ThreadId(i));
  auto remap = [&](Column<ThreadId>* column) {
    for (ThreadId& id : column->owned()) id = ThreadId(new_id[id.value]);
  };
  remap(&trace_.events.thread);
  remap(&trace_.memory.thread);
  if (!unread_.flows) remap(&trace_.flows.thread);
  trace_.threads = std::move(threads);
}

}  // namespace profana
