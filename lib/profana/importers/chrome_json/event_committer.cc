#include "profana/importers/chrome_json/event_committer.h"

#include <cstring>

#include "fmt/format.h"

namespace profana::json {
namespace {

// Kineto's category names over the years, and what they mean.
ActivityKind KindOfCategory(std::string_view cat, bool* known) {
  struct Entry {
    std::string_view name;
    ActivityKind kind;
  };
  static constexpr Entry kCategories[] = {
      {"cpu_op", ActivityKind::kCpuOp},
      {"Operator", ActivityKind::kCpuOp},
      {"operator", ActivityKind::kCpuOp},
      {"user_annotation", ActivityKind::kUserAnnotation},
      {"cuda_runtime", ActivityKind::kRuntime},
      {"Runtime", ActivityKind::kRuntime},
      {"runtime", ActivityKind::kRuntime},
      {"mtia_runtime", ActivityKind::kRuntime},
      {"cuda_driver", ActivityKind::kDriver},
      {"cpu_instant_event", ActivityKind::kCpuInstant},
      {"python_function", ActivityKind::kPythonFunction},
      {"kernel", ActivityKind::kKernel},
      {"Kernel", ActivityKind::kKernel},
      {"gpu_memcpy", ActivityKind::kMemcpy},
      {"Memcpy", ActivityKind::kMemcpy},
      {"gpu_memset", ActivityKind::kMemset},
      {"Memset", ActivityKind::kMemset},
      {"gpu_user_annotation", ActivityKind::kGpuUserAnnotation},
      {"Trace", ActivityKind::kTraceSpan},
      {"mtia_ccp_events", ActivityKind::kDeviceOther},
      {"cuda_profiler_range", ActivityKind::kDeviceOther},
      {"cuda_sync", ActivityKind::kDeviceOther},
      {"overhead", ActivityKind::kCpuOther},
  };
  *known = true;
  // No category: the bare-array export writes none, and its events are all CPU ops.
  if (cat.empty()) return ActivityKind::kCpuOp;
  for (const Entry& e : kCategories)
    if (e.name == cat) return e.kind;
  *known = false;
  return ActivityKind::kCpuOther;
}

}  // namespace

ActivityKind EventCommitter::Kind(StringId cat, uint64_t offset, int64_t index) {
  if (kind_cache_.size() <= cat.value) kind_cache_.resize(cat.value + 64, 0);
  if (kind_cache_[cat.value] == 0) {
    bool known;
    ActivityKind kind = KindOfCategory(b_->str(cat), &known);
    if (!known)
      b_->diagnostics().Add(DiagnosticKind::kUnknownCategory, offset, index,
                            std::string(b_->str(cat)));
    kind_cache_[cat.value] = static_cast<int8_t>(static_cast<int>(kind) + 1);
  }
  return static_cast<ActivityKind>(kind_cache_[cat.value] - 1);
}

void EventCommitter::Commit(const StagedEvent& s, int64_t index, uint64_t offset) {
  Diagnostics& diag = b_->diagnostics();
  if (s.bad_field) {
    diag.Add(DiagnosticKind::kWrongFieldType, offset, index,
             fmt::format("field \"{}\" has the wrong JSON type; event skipped", s.bad_field));
    return;
  }
  if (s.bad_number) {
    bool time = std::strcmp(s.bad_number, "ts") == 0 || std::strcmp(s.bad_number, "dur") == 0;
    if (s.bad_number_why == NumberError::kRange)
      diag.Add(DiagnosticKind::kBadNumber, offset, index,
               fmt::format(
                   "field \"{}\" is out of range{}; event skipped", s.bad_number,
                   time ? " (times must be within +-146 years of 0 in 64-bit nanoseconds)" : ""));
    else
      diag.Add(DiagnosticKind::kBadNumber, offset, index,
               fmt::format("field \"{}\" {}; event skipped", s.bad_number,
                           NumberErrorText(s.bad_number_why)));
    return;
  }
  if (s.dropped_arg) {
    if (s.dropped_arg_why == NumberError::kRange)
      diag.Add(DiagnosticKind::kDroppedField, offset, index,
               fmt::format("field \"{}\" does not fit in a signed 64-bit integer; field dropped, "
                           "event kept",
                           s.dropped_arg));
    else
      diag.Add(DiagnosticKind::kDroppedField, offset, index,
               fmt::format("field \"{}\" {}; field dropped, event kept", s.dropped_arg,
                           NumberErrorText(s.dropped_arg_why)));
  }
  if (s.replaced_string)
    diag.Add(DiagnosticKind::kInvalidString, offset, index,
             fmt::format("field \"{}\" has a \\u escape of a lone UTF-16 surrogate, which no "
                         "character encodes; kept with U+FFFD in its place",
                         s.replaced_string));
  if (s.ph == 0) {
    diag.Add(DiagnosticKind::kMissingField, offset, index, "no \"ph\"; event skipped");
    return;
  }
  if (s.ph == 'M') {
    ++b_->metadata().metadata_events;
    if (!process_name_key_.value) {
      process_name_key_ = b_->Intern("process_name");
      thread_name_key_ = b_->Intern("thread_name");
    }
    if (s.name == thread_name_key_)
      b_->SetThreadName(b_->Thread(s.pid, s.tid, s.pid_text, s.tid_text), s.arg_name);
    else if (s.name == process_name_key_)
      b_->SetProcessName(s.pid, s.pid_text, s.arg_name);
    return;
  }
  if (!s.has_ts) {
    diag.Add(DiagnosticKind::kMissingField, offset, index, "no \"ts\"; event skipped");
    return;
  }
  ThreadId thread = b_->Thread(s.pid, s.tid, s.pid_text, s.tid_text);
  switch (s.ph) {
    case 'X':
    case 'B': {
      if (s.ph == 'X' && !s.has_dur) {
        diag.Add(DiagnosticKind::kMissingField, offset, index,
                 "complete event (ph X) without \"dur\"; event skipped");
        return;
      }
      TraceBuilder::Event e;
      e.trace_name = s.name;
      e.category = s.cat;
      e.kind = Kind(s.cat, offset, index);
      e.thread = thread;
      e.start_ns = s.ts_ns;
      int64_t dur = s.dur_ns;
      if (dur < 0) {
        diag.Add(
            DiagnosticKind::kNegativeDuration, offset, index,
            fmt::format("\"{}\" has dur {} us; kept with dur 0", b_->str(s.name), dur / 1000.0));
        dur = 0;
      }
      if (__builtin_add_overflow(s.ts_ns, dur, &e.end_ns) || !TimeInRange(e.end_ns)) {
        diag.Add(DiagnosticKind::kBadNumber, offset, index,
                 "ts + dur is out of range (times must be within +-146 years of 0 in 64-bit "
                 "nanoseconds); "
                 "event skipped");
        return;
      }
      e.external_id = s.external_id;
      e.correlation = s.correlation;
      e.sequence_nr = static_cast<int32_t>(s.sequence_nr);
      e.fwd_thread = static_cast<int32_t>(s.fwd_thread);
      e.input_shapes = s.input_shapes;
      e.stack = b_->InternCallStack(s.call_stack);
      e.device = static_cast<int32_t>(s.device);
      e.comm = s.comm;
      e.flop_inputs = s.flop_inputs;
      if (s.has_device_args || e.kind == ActivityKind::kMemcpy || e.kind == ActivityKind::kMemset) {
        e.has_device_args = true;
        e.device_args = s.device_args;
        // A copy's direction and memory kinds are in its name: "Memcpy HtoD (Pinned -> Device)".
        if (e.kind == ActivityKind::kMemcpy || e.kind == ActivityKind::kMemset)
          e.device_args.SetCopyKindsFromName(b_->str(s.name));
      }
      if (s.ph == 'X')
        b_->AddEvent(e);
      else
        b_->Begin(e, offset, index);
      return;
    }
    case 'E':
      if (!b_->End(thread, s.ts_ns, s.name, offset, index))
        diag.Add(DiagnosticKind::kUnmatchedEnd, offset, index,
                 "E event with no open B event on its thread; ignored");
      return;
    case 'i':
    case 'I': {
      if (!memory_name_.value) memory_name_ = b_->Intern("[memory]");
      if (s.name != memory_name_ || !s.has_bytes) {
        ++b_->metadata().instant_events;
        return;
      }
      TraceBuilder::Memory m;
      m.ts_ns = s.ts_ns;
      m.thread = thread;
      m.bytes = s.bytes;
      m.addr = s.addr;
      m.total_allocated = s.total_allocated;
      m.total_reserved = s.total_reserved;
      m.device_type = static_cast<int8_t>(s.device_type);
      m.device_id = static_cast<int16_t>(s.device_id);
      b_->AddMemory(m);
      return;
    }
    case 's':
    case 'f':
    case 't':
      if (s.flow_id != kNoId) b_->AddFlow(s.flow_id, s.ts_ns, thread, s.cat, s.ph == 's');
      return;
    default: {
      // A phase of other than one character is named whole (its first 32 bytes).
      std::string_view ph =
          s.ph_is_text ? b_->str(s.ph_text).substr(0, 32) : std::string_view(&s.ph, 1);
      diag.Add(DiagnosticKind::kUnknownPhase, offset, index, fmt::format("ph \"{}\"", ph));
      return;
    }
  }
}

}  // namespace profana::json
