#include "profana/job/kernel_stats.h"

#include "fmt/format.h"
#include "profana/job/step_breakdown.h"

namespace profana::job {

const char* KernelCategoryName(KernelCategory c) {
  switch (c) {
    case KernelCategory::kComputation:
      return "computation";
    case KernelCategory::kCommunication:
      return "communication";
    case KernelCategory::kMemcpyHtoD:
      return "memcpy_htod";
    case KernelCategory::kMemcpyDtoH:
      return "memcpy_dtoh";
    case KernelCategory::kMemcpyDtoD:
      return "memcpy_dtod";
    case KernelCategory::kMemcpyHtoH:
      return "memcpy_htoh";
    case KernelCategory::kMemcpyPtoP:
      return "memcpy_ptop";
    case KernelCategory::kMemcpyOther:
      return "memcpy";
    case KernelCategory::kMemset:
      return "memset";
    case KernelCategory::kMixed:
      return "mixed";
  }
  return "computation";
}

bool IsTransfer(KernelCategory c) {
  return c >= KernelCategory::kMemcpyHtoD && c <= KernelCategory::kMemset;
}

bool KernelStat::Merge(const KernelStat& o) {
  KernelCategory merged = category;
  if (duration.count() == 0)
    merged = o.category;
  else if (o.duration.count() > 0 && o.category != category)
    merged = KernelCategory::kMixed;
  if (!duration.Merge(o.duration)) return false;
  category = merged;
  return true;
}

Status KernelStats::Merge(const KernelStats& o) {
  auto overflow = [](const char* what, const std::string& name) {
    return Status(ErrorCode::kMalformed,
                  fmt::format("{} \"{}\": its count, total or sum of squares passes what 64 "
                              "(128) bits hold once merged: the summaries' numbers cannot be right",
                              what, name));
  };
  for (const auto& [k, v] : o.kernels)
    if (!kernels[k].Merge(v)) return overflow("kernel", k);
  for (const auto& [k, v] : o.by_op)
    if (!by_op[k].Merge(v)) return overflow("the kernels of op", k);
  for (const auto& [k, v] : o.api)
    if (!api[k].Merge(v)) return overflow("call", k);
  return Status::Ok();
}

KernelCategory KernelCategoryOf(const Trace& t, uint32_t e) {
  std::string_view name = t.str(t.events.trace_name[e]);
  CopyKind copy = CopyKindOf(t, e);
  if (copy == CopyKind::kMemset) return KernelCategory::kMemset;
  if (copy == CopyKind::kMemcpy) {
    // Kineto: "Memcpy HtoD (Pinned -> Device)"; nvprof: "[CUDA memcpy HtoD]".
    if (name.find("HtoD") != std::string_view::npos) return KernelCategory::kMemcpyHtoD;
    if (name.find("DtoH") != std::string_view::npos) return KernelCategory::kMemcpyDtoH;
    if (name.find("DtoD") != std::string_view::npos) return KernelCategory::kMemcpyDtoD;
    if (name.find("HtoH") != std::string_view::npos) return KernelCategory::kMemcpyHtoH;
    if (name.find("PtoP") != std::string_view::npos) return KernelCategory::kMemcpyPtoP;
    return KernelCategory::kMemcpyOther;
  }
  return CategoryOf(t, e) == DeviceCategory::kCommunication ? KernelCategory::kCommunication
                                                            : KernelCategory::kComputation;
}

KernelStats ComputeKernelStats(const Trace& t, const passes::FunctionEventList& events) {
  const EventTable& ev = t.events;
  KernelStats out;
  // The launching op of each kernel: the FunctionEvent whose kernel list holds it.
  std::vector<int32_t> op_of(ev.size(), -1);
  for (uint32_t i = 0; i < events.size(); ++i) {
    if (events.device_type[i] != passes::DeviceType::kCPU) continue;
    for (uint32_t k = events.kernel_begin[i]; k < events.kernel_begin[i + 1]; ++k)
      op_of[events.kernel_index[k].value] = static_cast<int32_t>(i);
  }
  for (uint32_t e = 0; e < ev.size(); ++e) {
    ActivityKind k = ev.kind[e];
    int64_t dur = ev.end_ns[e] - ev.start_ns[e];
    if (IsRuntimeOrDriver(k)) {
      out.api[std::string(t.str(ev.trace_name[e]))].Add(dur);
      continue;
    }
    if (!IsDeviceWork(k)) continue;
    KernelStat item;
    item.category = KernelCategoryOf(t, e);
    item.duration.Add(dur);
    out.kernels[std::string(t.str(ev.trace_name[e]))].Merge(item);
    std::string op = op_of[e] >= 0 ? std::string(t.str(events.name[op_of[e]])) : "(no op)";
    out.by_op[op].Merge(item);
  }
  return out;
}

std::string ShortKernelName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  int angle = 0, paren = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    // "operator<" / "operator()" and the like are names, not brackets.
    if (angle == 0 && paren == 0 && name.substr(i, 8) == "operator") {
      size_t j = i + 8;
      while (j < name.size() &&
             (name[j] == '<' || name[j] == '>' || name[j] == '(' || name[j] == ')' ||
              name[j] == '=' || name[j] == '[' || name[j] == ']'))
        ++j;
      out.append(name.substr(i, j - i));
      i = j - 1;
      continue;
    }
    if (c == '<' && paren == 0) {
      if (angle++ == 0) out += "<...>";
      continue;
    }
    if (c == '>' && paren == 0 && angle > 0) {
      --angle;
      continue;
    }
    if (c == '(' && angle == 0) {
      if (paren++ == 0) out += "(...)";
      continue;
    }
    if (c == ')' && angle == 0 && paren > 0) {
      --paren;
      continue;
    }
    if (angle == 0 && paren == 0) out += c;
  }
  return out;
}

}  // namespace profana::job
