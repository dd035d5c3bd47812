#include "profana/passes/memory_categories.h"

#include <algorithm>
#include <string_view>

#include "profana/base/flat_hash_map.h"

namespace profana::passes {
namespace {

constexpr std::string_view kEvaluateFunction = "autograd::engine::evaluate_function:";
constexpr std::string_view kZeroGrad = "Optimizer.zero_grad#";

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// A FunctionEvent as an index into per-event vectors, or -1.

// What the op tree says about each FunctionEvent, inherited from its parents.
struct OpContext {
  std::vector<uint8_t> backward;   // under a backward function or the engine's evaluate_function
  std::vector<uint8_t> zero_grad;  // under Optimizer.zero_grad#...
  std::vector<int32_t> step;       // the enclosing Optimizer.step#... annotation, or -1
  // The outermost operator on the path from the root (the reference's data-flow node: the topmost
  // op that matches an operator schema, or a backward function), or -1.
  std::vector<int32_t> node;
};

// Stands in for the reference's leaf_op (a backward function, or an op matching a registered
// schema): a backward function, or a cpu_op with a namespaced name other than the engine's own
// autograd:: labels. record_function labels are user annotations and never match a schema.
bool IsOperator(const Trace& trace, const FunctionEventList& ev, size_t i, std::string_view name) {
  if (ev.scope[i] == 1) return true;
  EventId src = ev.source[i];
  return src != kSynthetic && trace.events.kind[src.value] == ActivityKind::kCpuOp &&
         name.find("::") != std::string_view::npos && !StartsWith(name, "autograd::");
}

OpContext BuildOpContext(const Trace& trace, const FunctionEventList& ev) {
  OpContext c;
  size_t n = ev.size();
  c.backward.assign(n, 0);
  c.zero_grad.assign(n, 0);
  c.step.assign(n, -1);
  c.node.assign(n, -1);
  // Parents come before their children in function_events order.
  for (size_t i = 0; i < n; ++i) {
    if (ev.device_type[i] != DeviceType::kCPU) continue;
    std::string_view name = trace.str(ev.name[i]);
    int32_t p = OpIndex(ev.parent[i]);
    bool has_parent = p >= 0 && static_cast<size_t>(p) < i;
    c.backward[i] =
        ev.scope[i] == 1 || StartsWith(name, kEvaluateFunction) || (has_parent && c.backward[p]);
    c.zero_grad[i] = StartsWith(name, kZeroGrad) || (has_parent && c.zero_grad[p]);
    c.step[i] = StartsWith(name, kOptimizerStepPrefix) ? static_cast<int32_t>(i)
                : has_parent                           ? c.step[p]
                                                       : -1;
    c.node[i] = has_parent && c.node[p] >= 0     ? c.node[p]
                : IsOperator(trace, ev, i, name) ? static_cast<int32_t>(i)
                                                 : -1;
  }
  return c;
}

// The training loop's phases, on the trace's one clock (the backward pass may run on the autograd
// engine's threads): where each backward pass and each optimizer step starts, and the spans the
// outermost backward events cover.
struct Phases {
  std::vector<int64_t> backward_starts;               // sorted
  std::vector<int64_t> step_starts;                   // sorted
  std::vector<std::pair<int64_t, int64_t>> backward;  // disjoint [start, end], sorted

  // Forward: the next phase to start after t is a backward pass, not an optimizer step.
  bool InForward(int64_t t) const {
    auto b = std::upper_bound(backward_starts.begin(), backward_starts.end(), t);
    auto s = std::upper_bound(step_starts.begin(), step_starts.end(), t);
    return b != backward_starts.end() && (s == step_starts.end() || *b < *s);
  }
  bool InBackward(int64_t t) const {
    auto it = std::upper_bound(backward.begin(), backward.end(), std::make_pair(t, INT64_MAX));
    return it != backward.begin() && std::prev(it)->second >= t;
  }
};

Phases FindPhases(const FunctionEventList& ev, const OpContext& c) {
  Phases p;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.device_type[i] != DeviceType::kCPU) continue;
    int32_t parent = OpIndex(ev.parent[i]);
    if (c.backward[i] && !(parent >= 0 && c.backward[parent])) {
      p.backward_starts.push_back(ev.start_ns[i]);
      p.backward.emplace_back(ev.start_ns[i], ev.end_ns[i]);
    }
    if (c.step[i] == static_cast<int32_t>(i)) p.step_starts.push_back(ev.start_ns[i]);
  }
  std::sort(p.backward_starts.begin(), p.backward_starts.end());
  std::sort(p.step_starts.begin(), p.step_starts.end());
  std::sort(p.backward.begin(), p.backward.end());
  std::vector<std::pair<int64_t, int64_t>> merged;
  for (const auto& span : p.backward) {
    if (!merged.empty() && span.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, span.second);
    else
      merged.push_back(span);
  }
  p.backward.swap(merged);
  return p;
}

// Calls f(numel) for each tensor of a Python-printed Input Dims list ("[[64, 256], [512], []]"):
// every list of numbers below the top level. An empty list (a 0-dim tensor, a Scalar argument, a
// TensorList, which PyTorch 2.x prints as []) and a tensor with no elements name no size. Stops at
// anything but digits, brackets, commas and spaces.
template <typename F>
void ForEachInputNumel(std::string_view s, F&& f) {
  constexpr uint64_t kMaxNumel = uint64_t{1} << 48;
  int depth = 0;
  bool numbers = false, in_number = false;
  uint64_t numel = 1, value = 0;
  for (char ch : s) {
    if (ch >= '0' && ch <= '9') {
      value = std::min<uint64_t>(value * 10 + static_cast<uint64_t>(ch - '0'), kMaxNumel);
      in_number = true;
      continue;
    }
    if (in_number) {  // a dimension ends: numel *= value, held at kMaxNumel
      numel = value != 0 && numel > kMaxNumel / value ? kMaxNumel : numel * value;
      numbers = true;
      value = 0;
      in_number = false;
    }
    if (ch == '[') {
      ++depth;
      numbers = false;
      numel = 1;
    } else if (ch == ']') {
      if (depth >= 2 && numbers && numel > 0) f(numel);
      numbers = false;
      numel = 1;
      if (--depth <= 0) return;
    } else if (ch != ',' && ch != ' ') {
      return;
    }
  }
}

// The allocator sizes a tensor of `numel` elements can have: numel times an element size of 1, 2,
// 4 or 8 bytes (a trace keeps the shapes of an op's inputs, not their dtypes), as asked or rounded
// up to the CUDA caching allocator's 512-byte blocks.
template <typename F>
void ForEachTensorSize(uint64_t numel, F&& f) {
  for (uint64_t element : {1, 2, 4, 8}) {
    auto bytes = static_cast<int64_t>(numel * element);
    f(bytes);
    int64_t rounded = std::max<int64_t>(512, (bytes + 511) / 512 * 512);
    if (rounded != bytes) f(rounded);
  }
}

// Whether a block could be a tensor: an op that starts while it is live takes an input of its
// size. The reference gives an allocation a tensor id only when its storage is an op's input
// (torch/csrc/profiler/data_flow.cpp, calculateUniqueTensorIDs: "allocation events which we
// cannot prove are for Tensor storage" have none) and leaves those without one Unknown: a cuDNN
// workspace, a kernel's scratch buffer.
class TensorSizes {
 public:
  TensorSizes(const Trace& trace, const FunctionEventList& ev, const MemoryTimeline& t) {
    for (const MemoryBlock& b : t.blocks) {
      auto [slot, added] = index_.try_emplace(b.bytes, static_cast<uint32_t>(starts_.size()));
      if (added) starts_.emplace_back();
      (void)slot;
    }
    FlatHashMap<uint32_t, uint8_t> parsed_none;  // shapes strings naming no block size
    for (size_t i = 0; i < ev.size(); ++i) {
      StringId shapes = ev.input_shapes[i];
      if (!shapes.value || ev.device_type[i] != DeviceType::kCPU) continue;
      recorded_ = true;
      if (parsed_none.find(shapes.value)) continue;
      bool any = false;
      ForEachInputNumel(trace.str(shapes), [&](uint64_t numel) {
        ForEachTensorSize(numel, [&](int64_t bytes) {
          if (const uint32_t* s = index_.find(bytes)) {
            starts_[*s].push_back(ev.start_ns[i]);
            any = true;
          }
        });
      });
      if (!any) parsed_none.try_emplace(shapes.value, 1);
    }
    for (auto& v : starts_) std::sort(v.begin(), v.end());
  }

  // Without input shapes (record_shapes=False) every block may be a tensor.
  bool Seen(int64_t bytes, int64_t from_ns, int64_t to_ns) const {
    if (!recorded_) return true;
    const uint32_t* s = index_.find(bytes);
    if (!s) return false;
    const std::vector<int64_t>& v = starts_[*s];
    auto it = std::lower_bound(v.begin(), v.end(), from_ns);
    return it != v.end() && *it <= to_ns;
  }

 private:
  bool recorded_ = false;
  FlatHashMap<int64_t, uint32_t> index_;      // block size -> starts_ entry
  std::vector<std::vector<int64_t>> starts_;  // start times of ops with an input of that size
};

// Whether an operator copies from the host: a host-to-device memcpy runs under it (x.to("cuda"):
// the batch arriving from the data loader).
class HostCopies {
 public:
  HostCopies(const Trace& trace, const FunctionEventList& ev) : trace_(trace), ev_(ev) {}
  bool Under(int32_t op) {
    if (uint8_t* known = cache_.find(op)) return *known;
    bool found = false;
    std::vector<int32_t> todo = {op};
    while (!todo.empty() && !found) {
      int32_t i = todo.back();
      todo.pop_back();
      for (uint32_t k = ev_.kernel_begin[i]; k < ev_.kernel_begin[i + 1] && !found; ++k) {
        EventId e = ev_.kernel_index[k];
        found = trace_.events.kind[e.value] == ActivityKind::kMemcpy &&
                trace_.str(trace_.events.name[e.value]).find("HtoD") != std::string_view::npos;
      }
      for (uint32_t k = ev_.child_begin[i]; k < ev_.child_begin[i + 1]; ++k)
        todo.push_back(static_cast<int32_t>(ev_.child_index[k].value));
    }
    cache_.try_emplace(op, found ? 1 : 0);
    return found;
  }

 private:
  const Trace& trace_;
  const FunctionEventList& ev_;
  FlatHashMap<int32_t, uint8_t> cache_;
};

}  // namespace

void CategoriseMemoryBlocks(const Trace& trace, const FunctionEventList& ev, MemoryTimeline* out) {
  MemoryTimeline& t = *out;
  const MemoryTable& m = trace.memory;
  OpContext c = BuildOpContext(trace, ev);
  Phases phases = FindPhases(ev, c);
  TensorSizes sizes(trace, ev, t);
  HostCopies host_copies(trace, ev);
  auto ts = [&](int64_t pos) { return m.ts_ns[t.order[pos]]; };
  for (MemoryBlock& b : t.blocks) {
    int32_t a = b.alloc_pos >= 0 ? OpIndex(t.op[b.alloc_pos]) : -1;
    int32_t f = b.free_pos >= 0 ? OpIndex(t.op[b.free_pos]) : -1;
    bool freed = b.free_pos >= 0;
    int64_t free_ts = freed ? ts(b.free_pos) : INT64_MAX;
    bool freed_in_backward = freed && (f >= 0 ? c.backward[f] != 0 : phases.InBackward(free_ts));
    b.category = [&] {
      if (b.alloc_pos < 0) {  // allocated before the trace
        if (f >= 0 && c.zero_grad[f]) return MemoryCategory::kGradient;
        if (freed_in_backward) return MemoryCategory::kActivation;
        return MemoryCategory::kUnknown;
      }
      if (a < 0) return MemoryCategory::kUnknown;
      int64_t alloc_ts = ts(b.alloc_pos);
      if (!sizes.Seen(b.bytes, alloc_ts, free_ts)) return MemoryCategory::kUnknown;
      if (c.node[a] >= 0 && f >= 0 && c.node[f] == c.node[a]) return MemoryCategory::kTemporary;
      if (c.backward[a])
        return freed_in_backward ? MemoryCategory::kAutogradDetail : MemoryCategory::kGradient;
      if (c.step[a] >= 0)
        return free_ts > ev.end_ns[c.step[a]] ? MemoryCategory::kOptimizerState
                                              : MemoryCategory::kUnknown;
      if (c.zero_grad[a] || !phases.InForward(alloc_ts)) return MemoryCategory::kUnknown;
      if (c.node[a] >= 0 && host_copies.Under(c.node[a])) return MemoryCategory::kInput;
      return MemoryCategory::kActivation;
    }();
  }
}

}  // namespace profana::passes
