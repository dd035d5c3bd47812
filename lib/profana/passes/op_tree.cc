// The op tree as PyTorch builds it (_populate_cpu_children): per thread, in (start, -end) order,
// half-open containment, partial overlaps ignored; backward functions recognised by name; and
// duplicate nodes (same name as a parent whose only child they are) removed (_remove_dup_nodes).
#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "profana/base/pipeline.h"
#include "profana/passes/function_event_candidates.h"

namespace profana::passes {
namespace {

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

// An event whose children are still coming, with its end (read once, not per child).
struct OpenEvent {
  uint32_t index;
  int64_t end_ns;
};

// _populate_cpu_children: per thread, in (start, -end) order, a stack of open parents. Rows are
// added in order, a run at a time.
class TreeBuilder {
 public:
  explicit TreeBuilder(Candidates* c) : c_(*c) {
    c_.parent.assign(c_.size(), -1);
    c_.child_count.assign(c_.size(), 0);
  }

  void Add(uint32_t begin, uint32_t end) {
    Candidates& c = c_;
    for (uint32_t i = begin; i < end; ++i) {
      // Async events stay out of the tree (PyTorch's _populate_cpu_children).
      if (!c.IsCpu(i) || c.IsAsync(i)) continue;
      uint32_t thread = c.ThreadOf(i).value;
      if (thread != stack_thread_) {
        stack_ = &open_[thread];
        stack_thread_ = thread;
      }
      std::vector<OpenEvent>& stack = *stack_;
      int64_t start = c.Start(i), end_ns = c.End(i);
      if (c.Hidden(i)) {
        // Find the innermost open event holding it without disturbing the stack: hidden events
        // are not part of the tree, they only need to know which op they ran in.
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
          if (start < it->end_ns && end_ns <= it->end_ns) {
            c.parent[i] = static_cast<int32_t>(it->index);
            break;
          }
        }
        continue;
      }
      while (!stack.empty()) {
        const OpenEvent& p = stack.back();
        if (start >= p.end_ns || end_ns > p.end_ns) {
          stack.pop_back();
        } else {
          c.parent[i] = static_cast<int32_t>(p.index);
          if (c.child_count[p.index] < 2) ++c.child_count[p.index];
          break;
        }
      }
      stack.push_back({i, end_ns});
    }
  }

 private:
  Candidates& c_;
  std::unordered_map<uint32_t, std::vector<OpenEvent>> open_;  // by thread
  std::vector<OpenEvent>* stack_ = nullptr;
  uint32_t stack_thread_ = UINT32_MAX;
};

// Backward functions, recognised from the tree and the names: rows in order, a run at a time,
// each needing only its own parent.
class ScopeAssigner {
 public:
  explicit ScopeAssigner(Candidates* c) : c_(*c) { c_.scope.assign(c_.size(), 0); }

  void Assign(uint32_t begin, uint32_t end) {
    Candidates& c = c_;
    constexpr std::string_view kWrapper = "autograd::engine::evaluate_function: ";
    for (uint32_t i = begin; i < end; ++i) {
      if (!c.IsCpu(i) || c.Synthetic(i)) continue;
      StringId name = c.NameOf(i);
      if (c.parent[i] >= 0) {
        std::string_view p = c.trace.str(c.NameOf(c.parent[i]));
        if (p.size() > kWrapper.size() && p.substr(0, kWrapper.size()) == kWrapper &&
            p.substr(kWrapper.size()) == c.trace.str(name)) {
          c.scope[i] = 1;
          continue;
        }
      }
      auto [it, inserted] = by_name_.try_emplace(name.value, 0);
      if (inserted) it->second = LooksLikeBackwardName(c.trace.str(name)) ? 1 : 0;
      c.scope[i] = it->second;
    }
  }

 private:
  Candidates& c_;
  std::unordered_map<uint32_t, uint8_t> by_name_;  // name id -> LooksLikeBackwardName
};

}  // namespace

void BuildOpTree(Candidates* c) {
  // A run of rows' scopes need only their parents: they are assigned a run behind the tree, on
  // the other core where there are two.
  constexpr uint32_t kRun = 1 << 16;
  uint32_t n = static_cast<uint32_t>(c->size());
  size_t runs = (n + kRun - 1) / kRun;
  TreeBuilder tree(c);
  ScopeAssigner scopes(c);
  auto rows_of = [&](size_t k) {
    uint32_t begin = static_cast<uint32_t>(k) * kRun;
    return std::pair<uint32_t, uint32_t>(begin, std::min(n, begin + kRun));
  };
  FollowInOrder(
      n, runs,
      [&](size_t k) {
        auto [begin, end] = rows_of(k);
        tree.Add(begin, end);
      },
      [&](size_t k) {
        auto [begin, end] = rows_of(k);
        scopes.Assign(begin, end);
      });
}

void RemoveDuplicates(Candidates* candidates) {
  Candidates& c = *candidates;
  // _remove_dup_nodes in one pass: parents precede children in this order, so a chain of
  // same-name single children collapses as it is walked, and a second pass would find nothing.
  // A removed node's children become its parent's as they are reached: their parent, removed,
  // was itself given a kept parent when it was reached.
  size_t n = c.size();
  c.removed.assign(n, 0);
  // Every node owns its own kernels until a duplicate is removed (most traces have none): only
  // then are the owners written out.
  c.kernel_owner.clear();
  for (uint32_t i = 0; i < n; ++i) {
    if (c.Hidden(i)) {
      c.removed[i] = 1;
      continue;
    }
    int32_t p = c.parent[i];
    if (p >= 0 && c.removed[p]) c.parent[i] = p = c.parent[p];
    if (p < 0 || c.NameOf(p) != c.NameOf(i) || c.child_count[p] != 1) continue;
    if (c.kernel_owner.empty()) {
      c.kernel_owner.resize(n);
      std::iota(c.kernel_owner.begin(), c.kernel_owner.end(), 0u);
    }
    c.child_count[p] = c.child_count[i];    // the parent takes the node's children
    c.kernel_owner[p] = c.kernel_owner[i];  // and its kernels (replacing its own, as PyTorch)
    c.removed[i] = 1;
    ++c.removed_duplicates;
  }
}

}  // namespace profana::passes
