#include "profana/passes/memory_timeline.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "profana/passes/innermost_op.h"
#include "profana/passes/memory/timeline_clock.h"
#include "profana/passes/memory_before_trace.h"
#include "profana/passes/memory_categories.h"

namespace profana::passes {
namespace {

// torch.device spellings of c10::DeviceType values.
const char* DeviceTypeSpelling(int type) {
  static const char* const kNames[] = {"cpu",  "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip",
                                       "fpga", "maia", "xla",    "vulkan", "metal",  "xpu",   "mps",
                                       "meta", "hpu",  "ve",     "lazy",   "ipu",    "mtia"};
  if (type >= 0 && type < static_cast<int>(sizeof(kNames) / sizeof(kNames[0]))) return kNames[type];
  return nullptr;
}

std::string DeviceSpelling(int type, int id) {
  const char* name = DeviceTypeSpelling(type);
  std::string base = name ? name : "device" + std::to_string(type);
  // CPU memory is recorded with Device Id -1 (or 0): torch.device("cpu") either way.
  if (type == 0 || id < 0) return base;
  return base + ":" + std::to_string(id);
}

// Open addressing with linear probing over (address, device) keys; the value is the latest block
// at that key. Entries are never erased (a freed block stays, so a second free is recognised as a
// double free); allocators reuse addresses, so the table grows with distinct addresses only.
class BlockMap {
 public:
  BlockMap() : slots_(1024) {}
  int32_t* Find(int64_t addr, uint32_t device) {
    for (size_t i = Hash(addr, device) & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.addr == kNoId) return nullptr;
      if (s.addr == addr && s.device == device) return &s.block;
    }
  }
  void Set(int64_t addr, uint32_t device, int32_t block) {
    if ((used_ + 1) * 2 > slots_.size()) Grow();
    for (size_t i = Hash(addr, device) & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.addr == kNoId) {
        s = {addr, device, block};
        ++used_;
        return;
      }
      if (s.addr == addr && s.device == device) {
        s.block = block;
        return;
      }
    }
  }

 private:
  struct Slot {
    int64_t addr = kNoId;
    uint32_t device = 0;
    int32_t block = -1;
  };
  size_t mask() const { return slots_.size() - 1; }
  static size_t Hash(int64_t addr, uint32_t device) {
    uint64_t x = static_cast<uint64_t>(addr) ^ (static_cast<uint64_t>(device) << 56);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;  // murmur3's finaliser: allocator addresses share low bits
    x ^= x >> 33;
    return static_cast<size_t>(x);
  }
  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    used_ = 0;
    for (const Slot& s : old)
      if (s.addr != kNoId) Set(s.addr, s.device, s.block);
  }
  std::vector<Slot> slots_;
  size_t used_ = 0;
};

// Time order, stable. Kineto writes one buffer per thread, each already in time order, so the
// file is a few sorted runs: a natural merge sort merges adjacent runs pairwise, O(n log runs),
// linear for a file already in order.
std::vector<uint32_t> TimeOrder(const MemoryTable& m) {
  size_t n = m.size();
  std::vector<uint32_t> order(n), other(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  std::vector<size_t> runs = {0};  // run starts, then n
  for (size_t i = 1; i < n; ++i)
    if (m.ts_ns[i] < m.ts_ns[i - 1]) runs.push_back(i);
  runs.push_back(n);
  auto earlier = [&](uint32_t a, uint32_t b) { return m.ts_ns[a] < m.ts_ns[b]; };
  while (runs.size() > 2) {
    std::vector<size_t> merged = {0};
    for (size_t r = 0; r + 1 < runs.size(); r += 2) {
      size_t lo = runs[r], mid = runs[r + 1], hi = r + 2 < runs.size() ? runs[r + 2] : runs[r + 1];
      std::merge(order.begin() + lo, order.begin() + mid, order.begin() + mid, order.begin() + hi,
                 other.begin() + lo, earlier);  // std::merge takes from the first range on ties
      merged.push_back(hi);
    }
    order.swap(other);
    runs.swap(merged);
  }
  return order;
}

bool IsCpuOp(const FunctionEventList& ev, size_t i) {
  return ev.device_type[i] == DeviceType::kCPU && ev.source[i] != kSynthetic;
}

// Threads by (pid, tid) value: Kineto of 2021 wrote the ops' tid as a string ("25738") and the
// [memory] records' as a number, which the model keeps as two threads. Digits-only text is the
// number it spells. Returns, per thread, the first thread with the same value.
std::vector<uint32_t> CanonicalThreads(const Trace& trace) {
  auto value = [&](int64_t number, StringId text) -> std::pair<bool, int64_t> {
    if (!text.value) return {true, number};
    std::string_view s = trace.str(text);
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string_view::npos)
      return {false, 0};
    return {true, std::stoll(std::string(s))};
  };
  std::map<std::pair<int64_t, int64_t>, uint32_t> first;
  std::vector<uint32_t> canonical(trace.threads.size());
  for (uint32_t i = 0; i < canonical.size(); ++i) {
    const ThreadInfo& th = trace.threads[i];
    auto [pid_ok, pid] = value(th.pid, th.pid_text);
    auto [tid_ok, tid] = value(th.tid, th.tid_text);
    canonical[i] = pid_ok && tid_ok ? first.emplace(std::make_pair(pid, tid), i).first->second : i;
  }
  return canonical;
}

// The innermost CPU FunctionEvent on the record's own thread whose [start, end] holds each
// record (threads that are one thread in fact see each other's events).
std::vector<FnEventId> AttributeOps(const Trace& trace, const FunctionEventList& ev,
                                    const MemoryTimeline& t) {
  InnermostOpFinder finder(trace, ev, InnermostOpFinder::Interval::kClosed,
                           CanonicalThreads(trace));
  std::vector<FnEventId> op(t.size(), FnEventId::None());
  for (uint32_t p = 0; p < t.size(); ++p) {
    uint32_t r = t.order[p];
    op[p] = finder.At(trace.memory.thread[r], trace.memory.ts_ns[r]).value_or(FnEventId::None());
  }
  return op;
}

// A FunctionEvent as an index into per-event vectors, or -1.

}  // namespace

const char* MemoryCategoryName(MemoryCategory c) {
  static const char* const kNames[] = {"PARAMETER",       "OPTIMIZER_STATE", "INPUT",
                                       "TEMPORARY",       "ACTIVATION",      "GRADIENT",
                                       "AUTOGRAD_DETAIL", "Unknown"};
  return kNames[static_cast<int>(c)];
}

MemoryTimeline BuildMemoryTimeline(const Trace& trace, const FunctionEventList& ev) {
  const MemoryTable& m = trace.memory;
  MemoryTimeline t;
  MemoryCounters& k = t.counters;
  t.order = TimeOrder(m);
  size_t n = t.size();
  k.records = n;
  t.device.resize(n);
  t.block.assign(n, -1);
  t.level.resize(n);

  // Replay: devices, pairing, running totals, the Total Allocated check.
  BlockMap by_device;  // (addr, device) -> latest block
  BlockMap by_addr;    // (addr, 0) -> latest block on any device
  std::vector<int64_t> running;
  uint32_t last_device = UINT32_MAX;
  for (size_t p = 0; p < n; ++p) {
    uint32_t r = t.order[p];
    uint32_t d = last_device;
    if (d == UINT32_MAX || t.devices[d].type != m.device_type[r] ||
        t.devices[d].id != m.device_id[r]) {
      d = 0;
      while (d < t.devices.size() &&
             (t.devices[d].type != m.device_type[r] || t.devices[d].id != m.device_id[r]))
        ++d;
      if (d == t.devices.size()) {
        t.devices.push_back(
            {m.device_type[r], m.device_id[r], DeviceSpelling(m.device_type[r], m.device_id[r])});
        t.summary.emplace_back();
        t.summary.back().first_ts_ns = m.ts_ns[r];
        running.push_back(0);
      }
      last_device = d;
    }
    t.device[p] = d;
    MemoryDeviceSummary& s = t.summary[d];
    ++s.records;
    s.last_ts_ns = m.ts_ns[r];
    int64_t bytes = m.bytes[r];
    if (!RecordBytesInRange(bytes)) {
      ++k.out_of_range;
      bytes = 0;
    }
    running[d] = SatAdd(running[d], bytes);
    t.level[p] = running[d];  // pre-existing bytes added below

    int64_t total = m.total_allocated[r], reserved = m.total_reserved[r];
    if ((total != kNoId && total < 0) || (reserved != kNoId && reserved < 0)) ++k.negative_totals;
    if (total != kNoId && total >= 0) {
      TotalAllocatedCheck& c = s.total_allocated;
      int64_t offset = SatAdd(total, running[d] == INT64_MIN ? INT64_MAX : -running[d]);
      if (c.compared++ == 0) c.offset = offset;
      if (offset == c.offset)
        ++c.agreeing;
      else if (c.first_disagreement < 0)
        c.first_disagreement = static_cast<int64_t>(p);
      if (s.max_total_allocated == kNoId || total > s.max_total_allocated) {
        s.max_total_allocated = total;
        s.max_allocated_pos = static_cast<int64_t>(p);
      }
    }
    if (reserved != kNoId && reserved >= 0 &&
        (s.max_total_reserved == kNoId || reserved > s.max_total_reserved)) {
      s.max_total_reserved = reserved;
      s.max_reserved_pos = static_cast<int64_t>(p);
    }

    if (bytes == 0) {
      if (m.bytes[r] == 0) ++k.zero_byte_records;
      continue;
    }
    bytes > 0 ? ++k.allocations : ++k.frees;
    int64_t addr = m.addr[r];
    if (addr == kNoId) {
      ++k.without_addr;
      ++s.without_addr;
      continue;
    }
    int32_t* other = by_addr.Find(addr, 0);
    bool live_elsewhere = other && t.blocks[*other].device != d && t.blocks[*other].free_pos < 0;
    if (live_elsewhere) ++k.address_on_two_devices;
    int32_t* found = by_device.Find(addr, d);
    if (bytes > 0) {
      // An allocation of a live address means its free was not recorded; the old block stays
      // live (the allocator's total still counts it) and shows among the blocks never freed.
      if (found && t.blocks[*found].free_pos < 0) ++k.alloc_on_live_address;
      int32_t b = static_cast<int32_t>(t.blocks.size());
      t.blocks.push_back({d, addr, bytes, static_cast<int64_t>(p), -1, MemoryCategory::kUnknown});
      by_device.Set(addr, d, b);
      by_addr.Set(addr, 0, b);
      t.block[p] = b;
      continue;
    }
    if (found && t.blocks[*found].free_pos < 0) {
      MemoryBlock& blk = t.blocks[*found];
      if (blk.bytes != -bytes) ++k.size_mismatches;
      blk.free_pos = static_cast<int64_t>(p);
      t.block[p] = *found;
      continue;
    }
    if (found) {  // freed already and not allocated again
      ++k.double_frees;
      continue;
    }
    // Memory allocated before the trace began (the reference's PREEXISTING).
    ++k.preexisting_frees;
    s.preexisting_bytes = SatAdd(s.preexisting_bytes, -bytes);
    int32_t b = static_cast<int32_t>(t.blocks.size());
    t.blocks.push_back({d, addr, -bytes, -1, static_cast<int64_t>(p), MemoryCategory::kUnknown});
    by_device.Set(addr, d, b);
    t.block[p] = b;
  }

  // Levels start at the pre-existing memory the trace freed; the peak is the highest level. What
  // the trace's own allocations hold is the running total plus the pre-existing memory freed so
  // far.
  std::vector<int64_t> freed_before(t.devices.size(), 0);
  for (size_t p = 0; p < n; ++p) {
    uint32_t d = t.device[p];
    MemoryDeviceSummary& s = t.summary[d];
    int32_t b = t.block[p];
    if (b >= 0 && t.blocks[b].alloc_pos < 0)
      freed_before[d] = SatAdd(freed_before[d], t.blocks[b].bytes);
    int64_t own = SatAdd(t.level[p], freed_before[d]);
    if (s.trace_peak_pos < 0 || own > s.trace_peak_bytes) {
      s.trace_peak_bytes = own;
      s.trace_peak_pos = static_cast<int64_t>(p);
    }
    t.level[p] = SatAdd(t.level[p], s.preexisting_bytes);
    if (s.peak_pos < 0 || t.level[p] > s.peak_bytes) {
      s.peak_bytes = t.level[p];
      s.peak_pos = static_cast<int64_t>(p);
    }
  }

  t.op = AttributeOps(trace, ev, t);
  for (FnEventId o : t.op) k.without_op += !o.valid();
  CategoriseMemoryBlocks(trace, ev, &t);
  IdentifyMemoryBeforeTrace(trace, ev, &t);
  return t;
}

int FindMemoryDevice(const MemoryTimeline& t, const std::string& name) {
  // A bare index ("0") names the accelerator with that index when only one has it.
  if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos) {
    int found = -1;
    for (size_t d = 0; d < t.devices.size(); ++d) {
      const std::string& n = t.devices[d].name;
      size_t colon = n.find(':');
      if (n != "cpu" && colon != std::string::npos &&
          n.compare(colon + 1, std::string::npos, name) == 0) {
        if (found >= 0) return -1;  // cuda:0 and another type's 0: say which
        found = static_cast<int>(d);
      }
    }
    return found;
  }
  std::string want = name.find(':') == std::string::npos && name != "cpu" ? name + ":0" : name;
  for (size_t d = 0; d < t.devices.size(); ++d)
    if (t.devices[d].name == want) return static_cast<int>(d);
  return -1;
}

std::vector<RawMemoryEvent> RawTimeline(const Trace& trace, const MemoryTimeline& t,
                                        uint32_t device) {
  std::vector<RawMemoryEvent> out;
  const int64_t base = EpochShiftNs(trace);
  // Pre-existing blocks first, at time -1, as the reference's timeline lists them, then what the
  // trace identifies of the memory it never frees.
  for (const MemoryBlock& b : t.blocks)
    if (b.device == device && b.alloc_pos < 0)
      out.push_back({-1, MemoryAction::kPreexisting, b.bytes, b.category});
  const MemoryBeforeTrace& before = t.summary[device].before_trace;
  if (before.parameters > 0)
    out.push_back({-1, MemoryAction::kPreexisting, before.parameters, MemoryCategory::kParameter});
  if (before.optimizer_state > 0)
    out.push_back(
        {-1, MemoryAction::kPreexisting, before.optimizer_state, MemoryCategory::kOptimizerState});
  for (size_t p = 0; p < t.size(); ++p) {
    if (t.device[p] != device) continue;
    int64_t bytes = trace.memory.bytes[t.order[p]];
    if (bytes == 0 || !RecordBytesInRange(bytes)) continue;
    MemoryCategory c = t.block[p] >= 0 ? t.blocks[t.block[p]].category : MemoryCategory::kUnknown;
    out.push_back({trace.memory.ts_ns[t.order[p]] + base,
                   bytes > 0 ? MemoryAction::kCreate : MemoryAction::kDestroy, bytes, c});
  }
  return out;
}

CoalescedTimeline CoalesceTimeline(const Trace& trace, const MemoryTimeline& t, uint32_t device) {
  CoalescedTimeline out;
  int64_t t_min = -1;
  for (const RawMemoryEvent& e : RawTimeline(trace, t, device)) {
    int64_t us = e.ts_ns == -1 ? -1 : e.ts_ns / 1000;
    if (t_min == -1 || (us < t_min && us > 0)) t_min = us;
    if (out.times_us.empty()) {
      out.times_us.push_back(us);
      out.sizes.emplace_back();
      out.sizes.back().fill(0);
    } else if (us != out.times_us.back()) {
      out.times_us.push_back(us);
      out.sizes.push_back(out.sizes.back());
    }
    int64_t& size = out.sizes.back()[static_cast<int>(e.category) + 1];
    size = SatAdd(size, e.bytes);
  }
  for (int64_t& us : out.times_us)
    if (us < 0) us = t_min;
  return out;
}

namespace {

// A record's bytes counted into allocations or frees, as a MemoryOpRow counts them.
struct OpBytes {
  uint64_t alloc_count = 0;
  int64_t alloc_bytes = 0, freed_bytes = 0;
  void Add(int64_t bytes) {
    if (bytes > 0) {
      ++alloc_count;
      alloc_bytes = SatAdd(alloc_bytes, bytes);
    } else {
      freed_bytes = SatAdd(freed_bytes, -bytes);
    }
  }
  void Add(const OpBytes& o) {
    alloc_count += o.alloc_count;
    alloc_bytes = SatAdd(alloc_bytes, o.alloc_bytes);
    freed_bytes = SatAdd(freed_bytes, o.freed_bytes);
  }
};

}  // namespace

std::vector<MemoryOpRow> MemoryByOp(const Trace& trace, const FunctionEventList& ev,
                                    const MemoryTimeline& t, int device) {
  size_t n = ev.size();
  // Sums only for the ops that hold a record or enclose one (a slot each): a trace has millions
  // of ops and far fewer records.
  struct Sums {
    OpBytes self, total;
  };
  std::vector<int32_t> slot(n, -1);
  std::vector<Sums> sums;
  auto sums_of = [&](size_t i) -> Sums& {
    if (slot[i] < 0) {
      slot[i] = static_cast<int32_t>(sums.size());
      sums.emplace_back();
    }
    return sums[static_cast<size_t>(slot[i])];
  };
  OpBytes outside;  // records inside no op: PyTorch's "[memory]" events
  for (size_t p = 0; p < t.size(); ++p) {
    if (device >= 0 && t.device[p] != static_cast<uint32_t>(device)) continue;
    int64_t bytes = trace.memory.bytes[t.order[p]];
    if (bytes == 0 || !RecordBytesInRange(bytes)) continue;
    if (!t.op[p].valid()) {
      outside.Add(bytes);
      continue;
    }
    sums_of(t.op[p].value).self.Add(bytes);
  }
  for (size_t i = n; i-- > 0;) {  // children after parents: each op's total into its parent's
    if (slot[i] < 0) continue;
    Sums& s = sums[static_cast<size_t>(slot[i])];
    s.total.Add(s.self);
    OpBytes total = s.total;  // sums_of may move `s`
    int32_t parent = OpIndex(ev.parent[i]);
    if (parent >= 0 && static_cast<size_t>(parent) < i)
      sums_of(static_cast<size_t>(parent)).total.Add(total);
  }
  std::unordered_map<uint32_t, size_t> index;
  std::vector<MemoryOpRow> rows;
  for (size_t i = 0; i < n; ++i) {
    if (!IsCpuOp(ev, i)) continue;
    auto [it, added] = index.emplace(ev.name[i].value, rows.size());
    if (added) {
      rows.emplace_back();
      rows.back().name = ev.name[i];
    }
    MemoryOpRow& r = rows[it->second];
    ++r.calls;
    if (slot[i] < 0) continue;
    const Sums& e = sums[static_cast<size_t>(slot[i])];
    r.alloc_count += e.total.alloc_count;
    r.alloc_bytes = SatAdd(r.alloc_bytes, e.total.alloc_bytes);
    r.freed_bytes = SatAdd(r.freed_bytes, e.total.freed_bytes);
    r.self_alloc_count += e.self.alloc_count;
    r.self_alloc_bytes = SatAdd(r.self_alloc_bytes, e.self.alloc_bytes);
    r.self_freed_bytes = SatAdd(r.self_freed_bytes, e.self.freed_bytes);
  }
  rows.erase(
      std::remove_if(rows.begin(), rows.end(),
                     [](const MemoryOpRow& r) { return r.alloc_count == 0 && r.freed_bytes == 0; }),
      rows.end());
  if (outside.alloc_count > 0 || outside.freed_bytes > 0) {
    MemoryOpRow r;
    r.name = StringId(0);
    r.alloc_count = r.self_alloc_count = outside.alloc_count;
    r.alloc_bytes = r.self_alloc_bytes = outside.alloc_bytes;
    r.freed_bytes = r.self_freed_bytes = outside.freed_bytes;
    rows.push_back(r);
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const MemoryOpRow& a, const MemoryOpRow& b) {
    if (a.alloc_bytes != b.alloc_bytes) return a.alloc_bytes > b.alloc_bytes;
    return trace.str(a.name) < trace.str(b.name);
  });
  return rows;
}

}  // namespace profana::passes
