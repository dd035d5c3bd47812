#include "profana/passes/function_events.h"

#include <unordered_map>

#include "profana/base/id_index.h"
#include "profana/base/memory_release.h"
#include "profana/base/nearest_names.h"
#include "profana/base/parallel.h"
#include "profana/passes/backward_stacks.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_event_candidates.h"
#include "profana/passes/indexed_function_events.h"
#include "profana/passes/kineto_placement.h"
#include "profana/passes/python_calls.h"

namespace profana::passes {
namespace {

// The list worked out from the trace's events, step by step, but for its memory bytes: the
// [memory] records in time order for them go to *memory.
FunctionEventList FromEvents(const Trace& trace, const KinetoRules& rules, LinkRule link,
                             MemoryRecordsByTime* memory) {
  // The candidates' columns are freed as the list is made from them, before its memory bytes
  // and times are worked out.
  Candidates c(trace, rules);
  c.link = link;
  c.memory = SortMemoryRecords(trace.memory);
  SelectCandidates(&c);
  AddMemoryEvents(&c);
  BuildOpTree(&c);
  AttributeKernels(&c);
  // Its indexes by id, freed, would stay resident beside the list made next.
  ReleaseFreedMemory();
  RemoveDuplicates(&c);
  FunctionEventList list = CompactCandidates(&c);
  *memory = std::move(c.memory);
  return list;
}

// The list's memory bytes and its CUDA totals, side by side on two cores where there are: each
// reads the list's columns alone and writes its own. The totals need the list's times bound and
// corrected, and its origin.
void MemoryBytesAndCudaTotals(const Trace& trace, const MemoryRecordsByTime& memory,
                              FunctionEventList* list) {
  // The candidates' columns, freed, leave holes the byte columns (8 bytes an event) and the
  // totals do not fit in.
  ReleaseFreedMemory();
  CudaTotals totals;
  auto work = [&](size_t k) {
    if (k == 0)
      AttributeMemoryBytes(trace, memory, list);
    else
      totals = ComputeCudaTotals(trace, *list);
  };
  // Without [memory] records the bytes are none: no thread for them.
  TwoAtOnce(trace.memory.size() > 0 ? list->size() : 0, work);
  list->cuda_totals = std::move(totals);
  list->cuda_totals_made = true;
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
    field = EventField<T>(o.source.data(), o.source.size(), events, synthetic, records, constant);
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

// GPU user annotations get PyTorch's span back (KinetoAnnotationCorrection): the list's times then
// own their values, so this is done only for traces that have annotations to correct.
void CorrectAnnotationTimes(const Trace& trace, const AnnotationCorrection& fix,
                            FunctionEventList* list) {
  if (fix.start_ns == 0 && fix.end_ns == 0) return;
  FunctionEventList& o = *list;
  std::vector<int64_t>& start = o.start_ns.owned();
  std::vector<int64_t>& end = o.end_ns.owned();
  for (size_t j = 0; j < o.size(); ++j) {
    EventId s = o.source[j];
    if (s == kSynthetic || trace.events.kind[s.value] != ActivityKind::kGpuUserAnnotation) continue;
    start[j] += fix.start_ns;
    end[j] += fix.end_ns;
  }
}

// Kineto events that PyTorch puts on the profiler's main thread (kineto_placement.h) have that
// thread, so that a parent and its children share one.
void MoveToMainThread(const KinetoPlacement& placement, FunctionEventList* list) {
  if (placement.of.empty()) return;
  FunctionEventList& o = *list;
  std::vector<ThreadId>& thread = o.thread.owned();
  for (size_t j = 0; j < o.size(); ++j)
    if (o.source[j] != kSynthetic && placement.of[o.source[j].value] != KinetoPlacement::kOwnThread)
      thread[j] = placement.to[o.source[j].value];
}

void MarkAsyncEvents(const std::vector<uint8_t>& async, FunctionEventList* list) {
  if (async.empty()) return;
  FunctionEventList& o = *list;
  auto& flags = o.is_async.owned();
  flags.assign(o.size(), 0);
  for (size_t j = 0; j < o.size(); ++j)
    if (o.source[j] != kSynthetic) flags[j] = async[o.source[j].value];
}

// Kineto writes no "Call stack" on runtime and driver calls; PyTorch 2.x gives a call the stack
// of the op it ran in (live 2.11 sessions, testdata/live/mlp_train/verbose): the innermost
// cpu_op above it in the tree.
void LendOpStacksToCalls(const Trace& trace, FunctionEventList* list) {
  FunctionEventList& o = *list;
  const EventTable& ev = trace.events;
  std::vector<StackId>* stacks = nullptr;
  for (size_t j = 0; j < o.size(); ++j) {
    EventId s = o.source[j];
    if (s == kSynthetic || !IsRuntimeOrDriver(ev.kind[s.value]) || o.stack[j].value != 0) continue;
    for (FnEventId up = o.parent[j]; up.valid(); up = o.parent[up.value]) {
      EventId u = o.source[up.value];
      if (u == kSynthetic || ev.kind[u.value] != ActivityKind::kCpuOp) continue;
      if (!stacks) stacks = &o.stack.owned();
      (*stacks)[j] = (*stacks)[up.value];
      break;
    }
  }
}

// PyTorch 2.x writes "Call stack" on ops only with verbose=True, and then with_stack has written
// python_function events too; 1.x wrote "Call stack" with with_stack alone, and gave device events
// no stack.
bool RecordedVerboseStacks(const Trace& trace) {
  for (ActivityKind k : trace.events.kind)
    if (k == ActivityKind::kPythonFunction) return true;
  return false;
}

// With verbose=True PyTorch 2.x gives device work a stack too: the Python frames above its
// parent in its event tree (collection.cpp setParents), which is the call that launched it (the
// flow), whose parent is the op it is linked to. So a kernel, memcpy or memset has the "Call
// stack" of its launch's linked op as written, not the stack backward propagation lends that op
// (device events are outside the CPU tree it walks). Work whose launch no op links has the
// Python frames open on the main thread when it started, which the file does not give: none.
void LendOpStacksToDeviceWork(const Trace& trace, FunctionEventList* list) {
  FunctionEventList& o = *list;
  const EventTable& ev = trace.events;
  IdIndex op_by_external_id, launch_by_correlation;
  op_by_external_id.Build(ev.size(), [&](uint32_t e, int64_t* id) {
    if (ev.kind[e] != ActivityKind::kCpuOp || ev.external_id[e] == kNoId) return false;
    *id = ev.external_id[e];
    return true;
  });
  launch_by_correlation.Build(ev.size(), [&](uint32_t e, int64_t* id) {
    if (!IsRuntimeOrDriver(ev.kind[e]) || ev.correlation[e] == kNoId) return false;
    *id = ev.correlation[e];
    return true;
  });
  std::vector<StackId>* stacks = nullptr;
  for (size_t j = 0; j < o.size(); ++j) {
    EventId s = o.source[j];
    if (s == kSynthetic || !IsDeviceWork(ev.kind[s.value]) || o.stack[j].value != 0) continue;
    int64_t corr = ev.correlation[s.value];
    const uint32_t* launch = corr != kNoId ? launch_by_correlation.find(corr) : nullptr;
    uint32_t op;
    if (!launch || !CallIsLinked(ev, op_by_external_id, *launch, &op) || !ev.stack[op].value)
      continue;
    if (!stacks) stacks = &o.stack.owned();
    (*stacks)[j] = ev.stack[op];
  }
}

// With verbose=True PyTorch gives the events no op links the Python frames open on their thread
// when they started (their parent in its event tree is whatever ran there then): a runtime call
// outside every op, a GPU user annotation (on its CPU label's thread, at its device start), and
// device work launched by such a call (its parent is the call, by flow). The file has those
// frames as python_function events (python_calls.h); stacks the trace's trie lacks are added to
// the list's own (FunctionEventList::added_stacks).
void LendOpenCallStacks(const Trace& trace, FunctionEventList* list) {
  FunctionEventList& o = *list;
  const EventTable& ev = trace.events;
  StackTable chains;
  FrameTrie chain_trie(&chains);
  const std::vector<StackId> open = OpenPythonCalls(trace, o, &chain_trie);
  // (parent, frame) -> node, over the trace's trie and the added stacks.
  const uint32_t base = static_cast<uint32_t>(trace.stacks.size());
  std::unordered_map<uint64_t, StackId> child;
  auto key = [](StackId parent, StringId frame) {
    return (uint64_t{parent.value} << 32) | frame.value;
  };
  for (uint32_t n = 1; n < base; ++n)
    child.emplace(key(trace.stacks.parent[n], trace.stacks.frame[n]), StackId(n));
  std::vector<StackId> converted(chains.size(), StackId(0));  // chain node -> list id
  for (uint32_t n = 1; n < chains.size(); ++n) {              // parents come before children
    StackId parent = converted[chains.parent[n].value];
    StringId frame = chains.frame[n];
    auto [it, added] = child.try_emplace(key(parent, frame), StackId(0));
    if (added) {
      StackTable& t = o.added_stacks;
      it->second = StackId(base + static_cast<uint32_t>(t.size()) - 1);
      t.parent.push_back(parent);
      t.frame.push_back(frame);
      t.depth.push_back(0);  // unused: frames are read by walking parents
    }
    converted[n] = it->second;
  }
  std::vector<StackId>& stacks = o.stack.owned();
  for (size_t j = 0; j < o.size(); ++j) {
    EventId s = o.source[j];
    if (s == kSynthetic || stacks[j].value != 0) continue;
    ActivityKind kind = ev.kind[s.value];
    if (IsRuntimeOrDriver(kind) || kind == ActivityKind::kGpuUserAnnotation)
      stacks[j] = converted[open[j].value];
  }
  IdIndex call_by_correlation;
  call_by_correlation.Build(o.size(), [&](uint32_t j, int64_t* id) {
    EventId s = o.source[j];
    if (s == kSynthetic || !IsRuntimeOrDriver(ev.kind[s.value])) return false;
    *id = ev.correlation[s.value];
    return *id != kNoId;
  });
  for (size_t j = 0; j < o.size(); ++j) {
    EventId s = o.source[j];
    if (s == kSynthetic || !IsDeviceWork(ev.kind[s.value]) || stacks[j].value != 0) continue;
    const uint32_t* call = call_by_correlation.find(ev.correlation[s.value]);
    if (call) stacks[j] = stacks[*call];
  }
}

}  // namespace

std::vector<StringId> FunctionEventList::StackFrames(const Trace& trace, StackId id) const {
  std::vector<StringId> frames;
  const uint32_t base = static_cast<uint32_t>(trace.stacks.size());
  for (uint32_t n = id.value; n != 0;) {
    if (n < base) {
      frames.push_back(trace.stacks.frame[n]);
      n = trace.stacks.parent[n].value;
    } else {
      uint32_t k = n - base + 1;
      frames.push_back(added_stacks.frame[k]);
      n = added_stacks.parent[k].value;
    }
  }
  return frames;
}

bool RecordsMemory(const Trace& trace) {
  return trace.memory.size() > 0 || trace.metadata.profile_memory;
}

FunctionEventList BuildFunctionEvents(const Trace& trace,
                                      const std::optional<FunctionEventIndex>& index, LinkRule link,
                                      bool counts) {
  const KinetoRules rules = WorkOutKinetoRules(trace, link);
  bool indexed = index && index->version == kFunctionEventIndexVersion && link == LinkRule::kAuto &&
                 !counts && rules.records_links;
  MemoryRecordsByTime memory;
  FunctionEventList out = indexed ? ListFromIndex(*index) : FromEvents(trace, rules, link, &memory);
  // Without [memory] records every byte count is 0, and the list keeps none (an index keeps a row
  // per event).
  if (trace.memory.size() == 0) out.cpu_memory.clear(), out.cuda_memory.clear();
  BindEventFields(trace, &out);
  CorrectAnnotationTimes(trace, rules.annotation_fix, &out);
  MoveToMainThread(rules.placement, &out);
  MarkAsyncEvents(rules.async_event, &out);
  // Without stacks in the trace (or read for this command) every event's is empty: nothing to
  // lend.
  const Column<StackId>& stacks = trace.events.stack;
  if (trace.stacks.size() > 1 && !(stacks.is_uniform() && stacks[0].value == 0)) {
    bool verbose = RecordedVerboseStacks(trace);
    if (verbose) LendOpStacksToDeviceWork(trace, &out);
    LendOpStacksToCalls(trace, &out);
    if (verbose) LendOpenCallStacks(trace, &out);
    PropagateBackwardStacks(trace, out, &out.stack.owned());
  }
  out.has_memory_records = RecordsMemory(trace);
  out.legacy = trace.metadata.legacy_kernels;
  out.origin_ns = trace.metadata.origin.ns;
  if (!indexed) {
    MemoryBytesAndCudaTotals(trace, memory, &out);
    // The candidates' columns are freed by now: their holes would stay beside the analyses'
    // buffers.
    ReleaseFreedMemory();
  }
  if (indexed) out.trace_has_links = true;
  out.id_collisions = rules.placement.id_collisions;
  return out;
}

const char* LinkRuleName(LinkRule rule) {
  switch (rule) {
    case LinkRule::kAuto:
      return "auto";
    case LinkRule::kPyTorch:
      return "pytorch";
    case LinkRule::kEnclosing:
      return "enclosing";
  }
  return "auto";
}

Result<LinkRule> ParseLinkRule(std::string_view name) {
  std::vector<std::string> names;
  for (LinkRule r : {LinkRule::kAuto, LinkRule::kPyTorch, LinkRule::kEnclosing}) {
    if (name == LinkRuleName(r)) return r;
    names.emplace_back(LinkRuleName(r));
  }
  return Status(ErrorCode::kInvalidArgument, UnknownNameMessage("rule", name, names));
}

}  // namespace profana::passes
