#include "profana/job/collective_calls.h"

#include <algorithm>
#include <map>

#include "profana/job/step_breakdown.h"
#include "profana/passes/kernel_names.h"

namespace profana::job {

const char* CollectiveKindName(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::kAllReduce:
      return "allreduce";
    case CollectiveKind::kAllGather:
      return "allgather";
    case CollectiveKind::kReduceScatter:
      return "reducescatter";
    case CollectiveKind::kBroadcast:
      return "broadcast";
    case CollectiveKind::kReduce:
      return "reduce";
    case CollectiveKind::kSendRecv:
      return "sendrecv";
    case CollectiveKind::kAllToAll:
      return "alltoall";
    case CollectiveKind::kOther:
      return "other";
  }
  return "other";
}

CollectiveKind CollectiveKindOfKernel(std::string_view name) {
  // The word after "Kernel_" (ncclKernel_X_..., ncclDevKernel_X_...), up to '_' or '('.
  size_t at = name.find("Kernel_");
  if (at == std::string_view::npos) return CollectiveKind::kOther;
  std::string_view word = name.substr(at + 7);
  word = word.substr(0, std::min(word.find('_'), word.find('(')));
  static constexpr std::pair<std::string_view, CollectiveKind> kWords[] = {
      {"AllReduce", CollectiveKind::kAllReduce},
      {"AllGather", CollectiveKind::kAllGather},
      {"ReduceScatter", CollectiveKind::kReduceScatter},
      {"Broadcast", CollectiveKind::kBroadcast},
      {"Reduce", CollectiveKind::kReduce},
      {"SendRecv", CollectiveKind::kSendRecv},
      {"Send", CollectiveKind::kSendRecv},
      {"Recv", CollectiveKind::kSendRecv},
  };
  for (const auto& [w, kind] : kWords)
    if (word == w) return kind;
  return CollectiveKind::kOther;
}

CollectiveKind CollectiveKindOfName(std::string_view name) {
  // "_allgather_base", "all_gather_into_tensor_coalesced", "reduce_scatter_tensor": compare the
  // letters only, without underscores and the usual suffixes.
  std::string letters;
  for (char c : name)
    if (c != '_') letters += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (std::string_view suffix : {"coalesced", "intotensor", "tensor", "base"})
    if (letters.size() > suffix.size() &&
        letters.compare(letters.size() - suffix.size(), suffix.size(), suffix) == 0)
      letters.resize(letters.size() - suffix.size());
  static constexpr std::pair<std::string_view, CollectiveKind> kNames[] = {
      {"allreduce", CollectiveKind::kAllReduce},
      {"allgather", CollectiveKind::kAllGather},
      {"reducescatter", CollectiveKind::kReduceScatter},
      {"broadcast", CollectiveKind::kBroadcast},
      {"reduce", CollectiveKind::kReduce},
      {"send", CollectiveKind::kSendRecv},
      {"recv", CollectiveKind::kSendRecv},
      {"sendrecv", CollectiveKind::kSendRecv},
      {"alltoall", CollectiveKind::kAllToAll},
      {"alltoallv", CollectiveKind::kAllToAll},
      {"allgatherv", CollectiveKind::kAllGather},
  };
  for (const auto& [n, kind] : kNames)
    if (letters == n) return kind;
  return CollectiveKind::kOther;
}

int64_t DtypeBytes(std::string_view dtype) {
  static constexpr std::pair<std::string_view, int64_t> kSizes[] = {
      {"Float", 4},
      {"Double", 8},
      {"Half", 2},
      {"BFloat16", 2},
      {"Int", 4},
      {"Long", 8},
      {"Short", 2},
      {"Char", 1},
      {"Byte", 1},
      {"Bool", 1},
      {"ComplexHalf", 4},
      {"ComplexFloat", 8},
      {"ComplexDouble", 16},
      {"Float8_e4m3fn", 1},
      {"Float8_e5m2", 1},
      {"Float8_e4m3fnuz", 1},
      {"Float8_e5m2fnuz", 1},
      {"UInt16", 2},
      {"UInt32", 4},
      {"UInt64", 8},
  };
  for (const auto& [n, size] : kSizes)
    if (dtype == n) return size;
  return -1;
}

namespace {

int64_t ParseCount(std::string_view text) {
  if (text.empty() || text.size() > 18) return -1;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Fills what the kernel's collective args say.
void ReadCommArgs(std::string_view joined, CollectiveCall* c) {
  std::string_view f[kCommFields];
  SplitComm(joined, f);
  auto field = [&](CommField k) { return f[static_cast<size_t>(k)]; };
  if (std::string_view name = field(CommField::kCollectiveName); !name.empty()) {
    CollectiveKind kind = CollectiveKindOfName(name);
    if (kind != CollectiveKind::kOther || c->kind == CollectiveKind::kOther) {
      c->kind = kind;
      c->label = kind == CollectiveKind::kOther ? std::string(name) : CollectiveKindName(kind);
    }
  }
  c->group = std::string(field(CommField::kGroupName));
  c->group_size = ParseCount(field(CommField::kGroupSize));
  if (c->group_size == 0) c->group_size = -1;
  int64_t in = ParseCount(field(CommField::kInNelems));
  int64_t out = ParseCount(field(CommField::kOutNelems));
  c->dtype = std::string(field(CommField::kDtype));
  int64_t size = DtypeBytes(c->dtype);
  int64_t nelems = std::max(in, out);
  if (nelems >= 0 && size > 0 && nelems <= INT64_MAX / size) c->bytes = nelems * size;
}

}  // namespace

std::vector<CollectiveCall> FindCollectiveCalls(const Trace& t) {
  std::vector<CollectiveCall> out;
  const EventTable& ev = t.events;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (CategoryOf(t, e) != DeviceCategory::kCommunication) continue;
    CollectiveCall c;
    std::string_view name = t.str(ev.trace_name[e]);
    c.kind = CollectiveKindOfKernel(name);
    c.label = c.kind == CollectiveKind::kOther ? passes::ShortKernelName(name)
                                               : CollectiveKindName(c.kind);
    if (ev.comm[e].value) ReadCommArgs(t.str(ev.comm[e]), &c);
    c.start_ns = ev.start_ns[e];
    c.end_ns = ev.end_ns[e];
    out.push_back(std::move(c));
  }
  // Without communication kernels, gloo's collectives, which run on the host: the ranges c10d
  // records for them ("gloo:all_reduce", its profiling title), else record_param_comms ops that
  // carry a collective's args.
  if (out.empty()) {
    constexpr std::string_view kGloo = "gloo:";
    for (int pass = 0; pass < 2 && out.empty(); ++pass)
      for (uint32_t e = 0; e < ev.size(); ++e) {
        if (!IsOpOrAnnotation(ev.kind[e])) continue;
        std::string_view name = t.str(ev.trace_name[e]);
        CollectiveCall c;
        if (pass == 0) {
          if (name.substr(0, kGloo.size()) != kGloo) continue;
          c.kind = CollectiveKindOfName(name.substr(kGloo.size()));
          c.label =
              c.kind == CollectiveKind::kOther ? std::string(name) : CollectiveKindName(c.kind);
        } else {
          if (name != "record_param_comms" || !ev.comm[e].value) continue;
          c.label = std::string(name);
        }
        if (ev.comm[e].value) ReadCommArgs(t.str(ev.comm[e]), &c);
        c.start_ns = ev.start_ns[e];
        c.end_ns = ev.end_ns[e];
        out.push_back(std::move(c));
      }
  }
  // Events are sorted by (start, -end) already; a stable sort keeps that for equal starts.
  std::stable_sort(out.begin(), out.end(), [](const CollectiveCall& a, const CollectiveCall& b) {
    return a.start_ns < b.start_ns;
  });
  return out;
}

std::vector<ProcessGroup> FindProcessGroups(const Trace& t) {
  std::map<std::string, ProcessGroup, std::less<>> groups;
  const EventTable& ev = t.events;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!ev.comm[e].value) continue;
    std::string_view f[kCommFields];
    SplitComm(t.str(ev.comm[e]), f);
    std::string_view name = f[static_cast<size_t>(CommField::kGroupName)];
    if (name.empty()) continue;
    auto it = groups.find(name);
    if (it == groups.end()) {
      it = groups.emplace(std::string(name), ProcessGroup{}).first;
      it->second.name = std::string(name);
    }
    ProcessGroup& g = it->second;
    if (g.ranks.empty()) g.ranks = std::string(f[static_cast<size_t>(CommField::kGroupRanks)]);
    if (g.size <= 0) {
      g.size = ParseCount(f[static_cast<size_t>(CommField::kGroupSize)]);
      if (g.size == 0) g.size = -1;
    }
    if (CategoryOf(t, e) == DeviceCategory::kCommunication) ++g.calls;
  }
  std::vector<ProcessGroup> out;
  out.reserve(groups.size());
  for (auto& [name, g] : groups) out.push_back(std::move(g));
  return out;
}

}  // namespace profana::job
