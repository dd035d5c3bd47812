#include "profana/passes/memory_before_trace.h"

#include <algorithm>
#include <string_view>

#include "profana/passes/memory_categories.h"
#include "profana/passes/memory_device_types.h"

namespace profana::passes {
namespace {

// What the trace's optimizer steps say: the class of the first (Optimizer.step#Adam.step: "Adam"),
// and whether any step multiplies or takes a maximum.
struct OptimizerSteps {
  std::string_view optimizer;
  bool multiplies = false;
  bool takes_maximum = false;
};

OptimizerSteps FindOptimizerSteps(const Trace& trace, const FunctionEventList& ev) {
  OptimizerSteps out;
  std::vector<uint32_t> todo;
  for (size_t i = 0; i < ev.size(); ++i) {
    std::string_view name = trace.str(ev.name[i]);
    if (ev.device_type[i] != DeviceType::kCPU ||
        name.substr(0, kOptimizerStepPrefix.size()) != kOptimizerStepPrefix)
      continue;
    if (out.optimizer.empty()) {
      std::string_view rest = name.substr(kOptimizerStepPrefix.size());
      out.optimizer = rest.substr(0, rest.find('.'));
    }
    todo.assign(1, static_cast<uint32_t>(i));
    while (!todo.empty()) {
      uint32_t j = todo.back();
      todo.pop_back();
      std::string_view op = trace.str(ev.name[j]);
      out.multiplies |=
          op.find("mul") != std::string_view::npos && op.find("addcmul") == std::string_view::npos;
      out.takes_maximum |= op.find("maximum") != std::string_view::npos;
      for (uint32_t k = ev.child_begin[j]; k < ev.child_begin[j + 1]; ++k)
        todo.push_back(ev.child_index[k].value);
    }
  }
  return out;
}

}  // namespace

int OptimizerStatesPerParameter(std::string_view optimizer, bool step_multiplies,
                                bool step_takes_maximum) {
  // The tensors each class's _init_group creates per parameter (torch/optim/<name>.py), leaving
  // out the scalar `step` (and ASGD's eta and mu), which live on the CPU unless the optimizer is
  // capturable or fused.
  struct Known {
    std::string_view name;
    int states;
  };
  static constexpr Known kKnown[] = {
      {"Adam", 2},      // exp_avg, exp_avg_sq (+ max_exp_avg_sq with amsgrad)
      {"AdamW", 2},     // as Adam
      {"Adamax", 2},    // exp_avg, exp_inf
      {"NAdam", 2},     // exp_avg, exp_avg_sq
      {"RAdam", 2},     // exp_avg, exp_avg_sq
      {"Adadelta", 2},  // square_avg, acc_delta
      {"Rprop", 2},     // prev, step_size
      {"Adagrad", 1},   // sum
      {"RMSprop", 1},   // square_avg (momentum_buffer and grad_avg only with options)
      {"ASGD", 1},      // ax
      {"SGD", 0},       // momentum_buffer with momentum != 0
  };
  for (const Known& k : kKnown) {
    if (k.name != optimizer) continue;
    if (optimizer == "SGD") return step_multiplies ? 1 : 0;
    if (optimizer == "Adam" || optimizer == "AdamW") return k.states + (step_takes_maximum ? 1 : 0);
    return k.states;
  }
  return -1;
}

void IdentifyMemoryBeforeTrace(const Trace& trace, const FunctionEventList& ev,
                               MemoryTimeline* out) {
  MemoryTimeline& t = *out;
  size_t devices = t.devices.size();
  // Per device: the GRADIENT blocks' highest level, and the optimizer state the trace allocates.
  std::vector<int64_t> gradients(devices, 0), peak_gradients(devices, 0), state(devices, 0);
  for (const MemoryBlock& b : t.blocks) {
    if (b.category == MemoryCategory::kGradient && b.alloc_pos < 0)
      gradients[b.device] = SatAdd(gradients[b.device], b.bytes);  // live from the start
    if (b.category == MemoryCategory::kOptimizerState && b.alloc_pos >= 0)
      state[b.device] = SatAdd(state[b.device], b.bytes);
  }
  peak_gradients = gradients;
  for (size_t p = 0; p < t.size(); ++p) {
    if (t.block[p] < 0) continue;
    const MemoryBlock& b = t.blocks[t.block[p]];
    if (b.category != MemoryCategory::kGradient) continue;
    int64_t& level = gradients[b.device];
    level = SatAdd(level, static_cast<int64_t>(p) == b.alloc_pos ? b.bytes : -b.bytes);
    peak_gradients[b.device] = std::max(peak_gradients[b.device], level);
  }
  OptimizerSteps steps = FindOptimizerSteps(trace, ev);
  int states =
      steps.optimizer.empty()
          ? -1
          : OptimizerStatesPerParameter(steps.optimizer, steps.multiplies, steps.takes_maximum);
  for (size_t d = 0; d < devices; ++d) {
    MemoryDeviceSummary& s = t.summary[d];
    MemoryBeforeTrace& before = s.before_trace;
    before = MemoryBeforeTrace{};
    before.freed_in_trace = s.preexisting_bytes;
    before.parameters = peak_gradients[d];
    // State the trace's own steps allocate is in the trace; otherwise it was there before.
    if (before.parameters > 0 && states > 0 && state[d] == 0)
      before.optimizer_state = before.parameters > INT64_MAX / states
                                   ? INT64_MAX
                                   : before.parameters * static_cast<int64_t>(states);
    if (s.total_allocated.compared == 0) continue;
    before.bytes = s.total_allocated.offset;
    int64_t room = std::max<int64_t>(0, SatAdd(before.bytes, -before.freed_in_trace));
    if (IsCpuMemory(t.devices[d].type)) {
      // The CPU's total counts only what was allocated while memory profiling was on: it does not
      // bound what was allocated before (the model's parameters, most often).
      before.unidentified = std::max<int64_t>(0, SatAdd(room, -before.identified()));
      continue;
    }
    // A caching allocator's total knows what was there: what the estimates claim beyond it is
    // dropped, optimizer state first.
    before.parameters = std::min(before.parameters, room);
    before.optimizer_state = std::min(before.optimizer_state, room - before.parameters);
    before.unidentified = room - before.parameters - before.optimizer_state;
  }
}

}  // namespace profana::passes
