// TraceBuilder is the only write API of the model. Importers call it per event; it interns,
// keeps diagnostics, matches B/E pairs, and in Finish() sorts once and freezes the Trace.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profana/base/flat_hash_map.h"
#include "profana/model/trace.h"

namespace profana {

// PyTorch's _filter_stack_entry: frames of autograd and test machinery are not shown.
bool KeepStackEntry(std::string_view frame);

class TraceBuilder {
 public:
  // A duration event as the importer read it; trace_name is the name as written.
  struct Event {
    StringId trace_name;
    StringId category;
    ActivityKind kind = ActivityKind::kCpuOp;
    ThreadId thread;
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    int64_t external_id = kNoId;
    int64_t correlation = kNoId;
    int32_t sequence_nr = -1;
    int32_t fwd_thread = 0;
    StringId input_shapes;
    StackId stack;
    int32_t device = -1;
    StringId comm;
    StringId flop_inputs;  // model/flop_inputs.h
    // What a device activity recorded about itself, kept when has_device_args.
    bool has_device_args = false;
    DeviceArgs device_args;
  };
  struct Memory {
    int64_t ts_ns = 0;
    ThreadId thread;
    int64_t bytes = 0;
    int64_t addr = kNoId;
    int64_t total_allocated = kNoId;
    int64_t total_reserved = kNoId;
    int8_t device_type = 0;
    int16_t device_id = -1;
  };

  TraceBuilder();

  StringId Intern(std::string_view s) { return trace_.strings.Intern(s); }
  StringPool& strings() { return trace_.strings; }
  std::string_view str(StringId id) const { return trace_.strings.Get(id); }
  // Threads are keyed by (pid, tid), each a number or, when the trace wrote a string, its
  // interned text: one thread per distinct pair, whatever the values.
  ThreadId Thread(int64_t pid, int64_t tid, StringId pid_text = {}, StringId tid_text = {});
  void SetThreadName(ThreadId thread, StringId name) { trace_.threads[thread.value].name = name; }
  void SetProcessName(int64_t pid, StringId pid_text, StringId name);
  // Splits a "Call stack" string (frames joined by ';', innermost first), drops the frames
  // PyTorch's _filter_stack_entry drops, and interns the rest. Cached per distinct string.
  StackId InternCallStack(StringId call_stack);
  StackId InternFrame(StackId parent, StringId frame);

  // Columns the command will not read: each keeps its absent value alone (UnreadColumns).
  void LeaveUnread(const UnreadColumns& unread);
  // The rows of the tables importers add to.
  struct Rows {
    size_t events = 0, memory = 0, flows = 0, device_args = 0;
  };
  Rows rows() const;
  // The rows ReserveRows has made room for so far.
  const Rows& reserved() const { return reserved_; }
  // Room for at least `rows` rows in every column of each table, a table that has less grown in one
  // step, so that the columns need not grow by doubling (whose copies fault fresh pages in and
  // whose unused half raises the peak); pages not written are never resident.
  void ReserveRows(const Rows& rows);
  void AddEvent(const Event& e);
  void AddMemory(const Memory& m);
  void AddFlow(int64_t id, int64_t ts_ns, ThreadId thread, StringId category, bool is_start);
  // B/E pairs become events when the E arrives: an E closes the innermost open B of its thread,
  // as Chrome's trace viewer does. `byte_offset` / `event_index` locate each in the input, for the
  // diagnostics: a B never ended (kUnmatchedBegin, at the B), an E that names another event
  // (`name`, 0 when the E has none; it still closes the B: kMismatchedEnd, at the E), an E earlier
  // than its B (kNegativeDuration, at the E; kept with duration 0). Returns false, closing
  // nothing, when the thread has no open B.
  void Begin(const Event& e, uint64_t byte_offset = UINT64_MAX, int64_t event_index = -1) {
    open_[e.thread.value].push_back({e, byte_offset, event_index});
  }
  bool End(ThreadId thread, int64_t end_ns, StringId name = {}, uint64_t byte_offset = UINT64_MAX,
           int64_t event_index = -1);

  // Numbers the threads in the order they first appear in the sorted events, then in the memory
  // records and flows: the order the Chrome-trace writer's output, read back, numbers them in.
  // Importers that read table by table call it, so that a trace and its converted JSON list
  // threads and streams alike.
  void NumberThreadsByFirstUse() { renumber_threads_ = true; }

  TraceMetadata& metadata() { return trace_.metadata; }
  Diagnostics& diagnostics() { return trace_.diagnostics; }

  // Sorts events into PyTorch's function_events order and hands the Trace over.
  Trace Finish() &&;

 private:
  StringId FlopInputsFromShapes(const Event& e);
  StringId Rewrite(StringId trace_name);
  void RenumberThreads();
  void ReleaseSpareRows();

  // A thread's identity: the pid and tid numbers, or their texts when they were strings.
  struct ThreadKey {
    int64_t pid = 0, tid = 0;
    StringId pid_text, tid_text;
    bool operator==(const ThreadKey& o) const {
      return pid == o.pid && tid == o.tid && pid_text == o.pid_text && tid_text == o.tid_text;
    }
  };
  struct ThreadKeyHash {
    uint64_t operator()(const ThreadKey& k) const;
  };

  Trace trace_;
  FlatHashMap<ThreadKey, uint32_t, ThreadKeyHash> thread_index_;  // -> ThreadId
  ThreadKey last_thread_key_;  // the last Thread() asked for, and its answer
  uint32_t last_thread_ = UINT32_MAX;
  std::vector<StringId> rewritten_;   // trace_name id -> name id (0 = not yet computed)
  std::vector<StackId> stack_cache_;  // call-stack string id -> StackId + 1 (0 = not computed)
  // trace_name id -> whether PyTorch counts its FLOPs (-1: not yet asked)
  std::vector<int8_t> counts_flops_;
  std::string flop_joined_;  // FlopInputsFromShapes' text, its memory reused
  std::unordered_map<uint64_t, StackId> stack_nodes_;  // (parent, frame) -> node
  struct OpenBegin {
    Event event;
    uint64_t byte_offset;
    int64_t event_index;
  };
  std::unordered_map<uint32_t, std::vector<OpenBegin>> open_;  // B events per thread
  bool renumber_threads_ = false;
  UnreadColumns unread_;
  Rows reserved_;
};

}  // namespace profana
