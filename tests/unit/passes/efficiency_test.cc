// How well the GPU is used: device args read by every importer, the TensorBoard plugin's SM
// efficiency and occupancy (on a hand-made trace and against the plugin's own formulas on real
// traces), copy bandwidth against the trace's own figure and nsys' byte totals, the device peaks
// table, and the budget metrics.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "profana/io/native_reader.h"
#include "profana/io/native_text.h"
#include "profana/io/native_writer.h"
#include "profana/model/activity_device.h"
#include "profana/passes/efficiency/device_efficiency.h"
#include "profana/passes/efficiency/device_peaks.h"
#include "simdjson.h"
#include "test_util.h"

using namespace profana;

namespace {

// The event named `name` starting at `start_ns` (the first, by start order).
uint32_t Find(const Trace& t, std::string_view name, int64_t start_ns) {
  for (uint32_t e = 0; e < t.events.size(); ++e)
    if (t.str(t.events.trace_name[e]) == name && t.events.start_ns[e] == start_ns) return e;
  FAIL("no event " << name << " at " << start_ns);
  return 0;
}

DeviceArgs ArgsOf(const Trace& t, uint32_t e) {
  REQUIRE(t.events.device_args[e] != kNoDeviceArgs);
  return t.device_args.Get(t.events.device_args[e]);
}

// The window from the first kernel start to the last kernel end of device `device`.
passes::TimeWindow KernelSpan(const Trace& t, int32_t device) {
  passes::TimeWindow w{INT64_MAX, INT64_MIN};
  for (uint32_t e = 0; e < t.events.size(); ++e) {
    if (t.events.kind[e] != ActivityKind::kKernel || ActivityDevice(t, e) != device) continue;
    w.start = std::min(w.start, t.events.start_ns[e]);
    w.end = std::max(w.end, t.events.end_ns[e]);
  }
  return w;
}

passes::DeviceUse Efficiency(const Trace& t, passes::TimeWindow w, int32_t device) {
  auto all = passes::ComputeWindowEfficiency(t, {w});
  REQUIRE(all.size() == 1);
  for (const passes::WindowEfficiency& e : all[0])
    if (e.device == device) return e.use;
  FAIL("no device " << device);
  return {};
}

}  // namespace

TEST_CASE("a Kineto trace's launch configuration, copy sizes and device properties",
          "[efficiency]") {
  // The first kernel and memset of testdata/live/mlp_train/all (PyTorch 2.11, H100), as written.
  Trace t = test::LoadTestTrace("live/mlp_train/all/trace.json.gz");
  uint32_t k = Find(t,
                    "void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_tn_align1>"
                    "(cutlass_80_simt_sgemm_64x64_8x5_tn_align1::Params)",
                    4851438484438860);
  DeviceArgs a = ArgsOf(t, k);
  CHECK(a.grid[0] == 8);
  CHECK(a.grid[1] == 1);
  CHECK(a.grid[2] == 4);
  CHECK(a.block[0] == 128);
  CHECK(a.block[1] == 1);
  CHECK(a.block[2] == 1);
  CHECK(a.registers == 74);
  CHECK(a.shared_memory == 20480);
  CHECK(a.blocks_per_sm == 0.242424);
  CHECK(a.warps_per_sm == 0.969697);
  CHECK(a.occupancy == 2);
  CHECK(a.bytes == -1);
  uint32_t m = Find(t, "Memset (Device)", 4851438484710352);
  DeviceArgs ms = ArgsOf(t, m);
  CHECK(ms.bytes == 16);
  CHECK(ms.bandwidth == 0.021739130434782608);
  CHECK(ms.copy_dst == MemoryKind::kDevice);
  CHECK(ms.grid[0] == -1);
  // CPU ops hold no device args.
  size_t cpu_ops_with_args = 0;
  for (uint32_t e = 0; e < t.events.size(); ++e)
    cpu_ops_with_args +=
        t.events.kind[e] == ActivityKind::kCpuOp && t.events.device_args[e] != kNoDeviceArgs;
  CHECK(cpu_ops_with_args == 0);
  REQUIRE(t.metadata.devices.size() == 1);
  REQUIRE(t.metadata.device_properties.size() == 1);
  const DeviceProperties& p = t.metadata.device_properties[0];
  CHECK(t.metadata.devices[0] == "NVIDIA H100 80GB HBM3");
  CHECK(p.id == 0);
  CHECK(p.num_sms == 132);
  CHECK(p.compute_major == 9);
  CHECK(p.compute_minor == 0);
  CHECK(p.total_global_mem == 85017493504);
  CHECK(p.max_threads_per_sm == 2048);
  CHECK(p.shared_mem_per_sm == 233472);
}

TEST_CASE("copy directions and memory kinds from the names profilers give copies", "[efficiency]") {
  auto kinds = [](std::string_view name) { return CopyKindsOfName(name); };
  CopyKinds pageable = kinds("Memcpy HtoD (Pageable -> Device)");
  CHECK(pageable.kind == CopyKind::kHtoD);
  CHECK(pageable.src == MemoryKind::kPageable);
  CHECK(pageable.dst == MemoryKind::kDevice);
  CopyKinds pinned = kinds("Memcpy DtoH (Device -> Pinned)");
  CHECK(pinned.kind == CopyKind::kDtoH);
  CHECK(pinned.src == MemoryKind::kDevice);
  CHECK(pinned.dst == MemoryKind::kPinned);
  CHECK(kinds("Memcpy PtoP (Device -> Device)").kind == CopyKind::kPtoP);
  CopyKinds rocm = kinds("Memcpy HtoD (Host -> Device)");  // ROCm: pageable or pinned unknown
  CHECK(rocm.kind == CopyKind::kHtoD);
  CHECK(rocm.src == MemoryKind::kHost);
  CopyKinds nvprof = kinds("[CUDA memcpy DtoD]");
  CHECK(nvprof.kind == CopyKind::kDtoD);
  CHECK(nvprof.src == MemoryKind::kUnknown);
  CopyKinds memset = kinds("Memset (Device Static)");
  CHECK(memset.kind == CopyKind::kUnknown);
  CHECK(memset.dst == MemoryKind::kDeviceStatic);
  CHECK(kinds("Memcpy Unknown (Unknown -> Unknown)").kind == CopyKind::kUnknown);
  CHECK(kinds("").kind == CopyKind::kUnknown);
  for (size_t k = 0; k <= static_cast<size_t>(kLastCopyKind); ++k)
    CHECK(CopyKindFromName(CopyKindName(static_cast<CopyKind>(k))) == static_cast<CopyKind>(k));
  for (size_t k = 0; k <= static_cast<size_t>(kLastMemoryKind); ++k)
    CHECK(MemoryKindFromName(MemoryKindName(static_cast<MemoryKind>(k))) ==
          static_cast<MemoryKind>(k));
}

TEST_CASE("the plugin's SM efficiency and occupancy on a hand-made trace", "[efficiency]") {
  // testdata/gpu/efficiency.json, device 0, the window of ProfilerStep#1: 1000 .. 1040 us.
  //   elementwise  1000-1010  blocks/SM 0.5   occupancy 40
  //   s16816gemm   1005-1015  blocks/SM 0.75  occupancy 60   (Tensor Cores: 16816)
  //   xmma ffma    1020-1025  blocks/SM 2     occupancy 10   (the FFMA path: no Tensor Cores)
  //   no occupancy 1030-1035  grid 66 / 132 SMs = 0.5 blocks per SM, worked out as Kineto does
  // Running sum of blocks per SM, capped at 1: 1000-1005 0.5, 1005-1010 1 (1.25), 1010-1015
  // 0.75, 1020-1025 1 (2), 1030-1035 0.5: 2.5 + 5 + 3.75 + 5 + 2.5 = 18.75 us of 40 us, 0.46875.
  // Occupancy: (40 x 10 + 60 x 10 + 10 x 5) / 25 = 42 %. Tensor Cores: 10 of 30 us of kernels.
  // Copies: HtoD 4096 B from pageable memory in 2 us, DtoH 1000 B to pinned in 1 us, a 64 B memset.
  Trace t = test::LoadTestTrace("gpu/efficiency.json");
  passes::DeviceUse w = Efficiency(t, {1000000, 1040000}, 0);
  CHECK(w.sm_busy_ns == Approx(18750).epsilon(1e-12));
  CHECK(w.occupancy_weight_ns == 25000);
  CHECK(w.occupancy_ns / static_cast<double>(w.occupancy_weight_ns) == Approx(42).epsilon(1e-12));
  CHECK(w.kernel_ns == 30000);
  CHECK(w.tensor_core_ns == 10000);
  auto d = [](passes::CopyDirection c) { return static_cast<size_t>(c); };
  const passes::CopyTotals& c = w.copies;
  CHECK(c.bytes[d(passes::CopyDirection::kHtoD)] == 4096);
  CHECK(c.ns[d(passes::CopyDirection::kHtoD)] == 2000);
  CHECK(c.bytes[d(passes::CopyDirection::kDtoH)] == 1000);
  CHECK(c.ns[d(passes::CopyDirection::kDtoH)] == 1000);
  CHECK(c.bytes[d(passes::CopyDirection::kMemset)] == 64);
  CHECK(c.count[d(passes::CopyDirection::kMemset)] == 1);
  CHECK(c.pageable_bytes == 4096);
  CHECK(c.pinned_bytes == 1000);
  // A window that cuts kernels counts the parts inside: 1007.5 .. 1022.5 us.
  passes::DeviceUse part = Efficiency(t, {1007500, 1022500}, 0);
  // 1007.5-1010 at 1 (2.5), 1010-1015 at 0.75 (3.75), 1020-1022.5 at 1 (2.5): 8.75 us.
  CHECK(part.sm_busy_ns == Approx(8750).epsilon(1e-12));
  CHECK(part.kernel_ns == 2500 + 7500 + 2500);
  CHECK(part.tensor_core_ns == 7500);
  // (40 x 2.5 + 60 x 7.5 + 10 x 2.5) / 12.5 = 46 %.
  CHECK(part.occupancy_ns / static_cast<double>(part.occupancy_weight_ns) ==
        Approx(46).epsilon(1e-12));
  CHECK(part.copies.count[d(passes::CopyDirection::kHtoD)] == 0);  // starts after the window
}

TEST_CASE("SM efficiency and occupancy agree with the TensorBoard plugin on real traces",
          "[efficiency]") {
  // The expected values are the plugin's own functions (merge_ranges_with_value,
  // intersection_ranges_lists_with_value, calculate_avg and calculate_occupancy of
  // tb_plugin/torch_tb_profiler/profiler, pytorch/kineto) run in Python on each file, with the
  // window from the first kernel start to the last kernel end of device 0 in place of the steps'
  // span, and the times read as exact integer nanoseconds (the plugin reads microseconds into
  // floats, whose rounding moves its figures in the fifth digit on these epoch-scale times).
  struct Case {
    const char* file;
    double sm_efficiency, occupancy;
  };
  const Case cases[] = {
      {"live/mlp_train/all/trace.json.gz", 0.010438705990730195, 2.364497546204938},
      {"traces/tracelens/b200/eager_trace.json.gz", 0.09495905408116805, 12.694634847586045},
      {"traces/param/dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json.gz",
       0.06696898421304417, 3.901053864168618},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    Trace t = test::LoadTestTrace(c.file);
    passes::TimeWindow span = KernelSpan(t, 0);
    passes::DeviceUse w = Efficiency(t, span, 0);
    CHECK(w.sm_busy_ns / static_cast<double>(span.end - span.start) ==
          Approx(c.sm_efficiency).epsilon(1e-12));
    CHECK(w.occupancy_ns / static_cast<double>(w.occupancy_weight_ns) ==
          Approx(c.occupancy).epsilon(1e-12));
  }
}

TEST_CASE("copy bandwidth is the trace's own figure on every copy that records one",
          "[efficiency]") {
  // Kineto writes bytes / duration in ns (GB/s); profana keeps both and the duration exactly.
  // Not in the list: traces whose times are whole microseconds (traces/kineto of 2021, HTA's
  // samples) while their bandwidth used the nanoseconds; and ROCm's (traces/tracelens/mi300), whose
  // bandwidth comes from the GPU's clock before its times were moved to the host's (0.02% apart,
  // and a nanosecond of rounding on copies of 1 us): there the figures agree to 0.2%.
  struct Case {
    const char* file;
    double epsilon;
  };
  const Case cases[] = {{"live/mlp_train/all/trace.json.gz", 1e-12},
                        {"live/multistream/plain/trace.json.gz", 1e-12},
                        {"live/gpt_train/all/trace.json.gz", 1e-12},
                        {"live/pin_memory_loader/plain/trace.json.gz", 1e-12},
                        {"traces/tracelens/b200/eager_trace.json.gz", 1e-12},
                        {"traces/tracelens/mi300/resnet_act_checkpoint.json.gz", 2e-3}};
  size_t copies = 0;
  for (const auto& [file, epsilon] : cases) {
    INFO(file);
    Trace t = test::LoadTestTrace(file);
    size_t here = 0;
    for (uint32_t e = 0; e < t.events.size(); ++e) {
      uint32_t row = t.events.device_args[e];
      if (row == kNoDeviceArgs || t.device_args.bandwidth[row] < 0) continue;
      int64_t ns = t.events.end_ns[e] - t.events.start_ns[e];
      if (ns <= 0) continue;  // Kineto writes 0 for a copy of no duration
      INFO(t.str(t.events.trace_name[e]) << " at " << t.events.start_ns[e]);
      CHECK(static_cast<double>(t.device_args.bytes[row]) / static_cast<double>(ns) ==
            Approx(t.device_args.bandwidth[row]).epsilon(epsilon));
      ++here;
    }
    CHECK(here > 0);
    copies += here;
  }
  CHECK(copies > 300);
}

TEST_CASE("device peaks: the table matches the names traces give their devices", "[efficiency]") {
  struct Case {
    const char* name;
    const char* model;  // null: unknown
  };
  const Case cases[] = {
      {"NVIDIA H100 80GB HBM3", "H100 SXM"},
      {"NVIDIA H100 PCIe", "H100 PCIe"},
      {"NVIDIA H100 NVL", "H100 NVL"},
      {"NVIDIA H200", "H200 SXM"},
      {"NVIDIA H200 NVL", "H200 NVL"},
      {"NVIDIA B200", "B200"},
      {"NVIDIA A100-SXM4-80GB", "A100"},
      {"NVIDIA A100-PG509-200", "A100"},
      {"NVIDIA A100 80GB PCIe", "A100"},
      {"NVIDIA A10", "A10"},
      {"NVIDIA L4", "L4"},
      {"NVIDIA L40S", "L40S"},
      {"Tesla V100-SXM2-32GB", "V100 SXM2"},
      {"Tesla V100-DGXS-32GB", "V100 SXM2"},
      {"Tesla V100-PCIE-16GB", "V100 PCIe"},
      {"Tesla V100S-PCIE-32GB", "V100S PCIe"},
      {"Tesla T4", "T4"},
      {"AMD Instinct MI300X", "MI300X"},
      {"AMD Instinct MI250X / MI250", "MI250X"},
      {"AMD Instinct MI210", "MI210"},
      {"Quadro GP100", nullptr},
      {"NVIDIA GeForce RTX 2080 Ti", nullptr},
      {"AMD Radeon Graphics", nullptr},
      {"", nullptr},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const passes::DevicePeak* p = passes::PeakOfDevice(c.name);
    if (!c.model) {
      CHECK(p == nullptr);
      continue;
    }
    REQUIRE(p != nullptr);
    CHECK(p->model == c.model);
  }
  const passes::DevicePeak* h100 = passes::PeakOfDevice("NVIDIA H100 80GB HBM3");
  passes::PeakType type;
  REQUIRE(passes::PeakTypeOf("c10::BFloat16", false, &type));
  CHECK(passes::PeakFlops(*h100, type) == 989.5e12);  // the data sheet's 1,979 with sparsity
  REQUIRE(passes::PeakTypeOf("float", true, &type));
  CHECK(type == passes::PeakType::kTf32);
  REQUIRE(passes::PeakTypeOf("float", false, &type));
  CHECK(passes::PeakFlops(*h100, type) == 67e12);
  CHECK_FALSE(passes::PeakTypeOf("long int", false, &type));
  for (const passes::DevicePeak& row : passes::DevicePeaks()) {
    INFO(row.model);
    CHECK(!row.source.empty());
    CHECK(row.tflops[static_cast<size_t>(passes::PeakType::kFp32)] > 0);
  }
}

TEST_CASE("device args through the native file, its text twin and Chrome JSON", "[efficiency]") {
  Trace t = test::LoadTestTrace("gpu/efficiency.json");
  REQUIRE(t.device_args.size() == 7);  // four kernels, two copies, a memset
  auto native = native::ReadNative(native::WriteNative(t), "n.pfa", nullptr);
  REQUIRE(native.ok());
  auto twin = native::ReadNativeText(native::WriteNativeText(t), "t.txt");
  REQUIRE(twin.ok());
  for (const Trace* back : {&native->trace, &*twin}) {
    REQUIRE(back->device_args.size() == t.device_args.size());
    CHECK(back->events.device_args == t.events.device_args);
    for (size_t r = 0; r < t.device_args.size(); ++r) {
      DeviceArgs a = t.device_args.Get(r), b = back->device_args.Get(r);
      CHECK(std::equal(a.grid, a.grid + 3, b.grid));
      CHECK(std::equal(a.block, a.block + 3, b.block));
      CHECK(a.registers == b.registers);
      CHECK(a.shared_memory == b.shared_memory);
      CHECK(a.blocks_per_sm == b.blocks_per_sm);
      CHECK(a.warps_per_sm == b.warps_per_sm);
      CHECK(a.occupancy == b.occupancy);
      CHECK(a.bytes == b.bytes);
      CHECK(a.bandwidth == b.bandwidth);
      CHECK(a.copy == b.copy);
      CHECK(a.copy_src == b.copy_src);
      CHECK(a.copy_dst == b.copy_dst);
    }
    REQUIRE(back->metadata.device_properties.size() == 1);
    CHECK(back->metadata.device_properties[0].num_sms == 132);
    CHECK(back->metadata.device_properties[0].shared_mem_per_block_optin == 232448);
  }
  // A text twin of version 1 (no device args) still reads.
  auto old = native::ReadNativeText(test::ReadFile(test::TestData("native/gpu_launch.txt")),
                                    "gpu_launch.txt");
  REQUIRE(old.ok());
  CHECK(old->device_args.size() == 0);
  for (uint32_t row : old->events.device_args) CHECK(row == kNoDeviceArgs);
  CHECK(old->metadata.device_properties.size() == old->metadata.devices.size());
}

TEST_CASE("the importers of nsys, rocpd, rocprofv3 and rpd keep launches and copy sizes",
          "[efficiency]") {
  // Real Nsight Systems export: TARGET_INFO_GPU and the kernels' configuration.
  Trace nsys = test::LoadTestTrace("traces/nsys/fuser-matmul/report1.sqlite.gz");
  REQUIRE(!nsys.metadata.device_properties.empty());
  CHECK(nsys.metadata.devices[0] == "NVIDIA H200");
  CHECK(nsys.metadata.device_properties[0].num_sms == 132);
  CHECK(nsys.metadata.device_properties[0].compute_major == 9);
  size_t kernels = 0, with_grid = 0;
  for (uint32_t e = 0; e < nsys.events.size(); ++e) {
    if (nsys.events.kind[e] != ActivityKind::kKernel) continue;
    ++kernels;
    with_grid += nsys.events.device_args[e] != kNoDeviceArgs &&
                 nsys.device_args.grid_x[nsys.events.device_args[e]] > 0 &&
                 nsys.device_args.registers[nsys.events.device_args[e]] > 0;
  }
  CHECK(kernels == 19);
  CHECK(with_grid == kernels);
  // rocprofv3's hand-made file: a 4096-byte copy to the device.
  Trace v3 = test::LoadTestTrace("rocprofv3/small.json");
  size_t copies = 0;
  for (uint32_t e = 0; e < v3.events.size(); ++e) {
    if (v3.events.kind[e] != ActivityKind::kMemcpy) continue;
    DeviceArgs a = ArgsOf(v3, e);
    CHECK(a.bytes == 4096);
    CHECK(a.copy == CopyKind::kHtoD);
    ++copies;
  }
  CHECK(copies == 1);
  // Real rocmProfileData file: Tensile's hipExtModuleLaunchKernel counts work-items; kept as
  // blocks.
  Trace rpd = test::LoadTestTrace("traces/rocpd/rocmprofiledata/matmul_result.rpd.gz");
  size_t tensile = 0;
  for (uint32_t e = 0; e < rpd.events.size(); ++e) {
    std::string_view name = rpd.str(rpd.events.trace_name[e]);
    if (rpd.events.kind[e] != ActivityKind::kKernel || name.substr(0, 5) != "Cijk_") continue;
    DeviceArgs a = ArgsOf(rpd, e);
    CHECK(a.block[0] == 256);
    CHECK(a.grid[0] == 7);  // 1792 work-items / 256
    CHECK(a.grid[1] == 782);
    ++tensile;
  }
  CHECK(tensile > 0);
}
