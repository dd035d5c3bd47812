#include "profana/passes/memory/allocation_site.h"

#include <string_view>

namespace profana::passes {
namespace {

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

bool IsPythonFrame(std::string_view filename) {
  return filename.size() > 3 && filename.substr(filename.size() - 3) == ".py";
}

// torch/cuda/_memory_viz.py's _frame_filter: frames it leaves out of every stack it prints.
bool MemoryVizOmits(std::string_view name, std::string_view filename) {
  for (std::string_view f : {"unwind::unwind", "CapturedTraceback::gather", "gather_with_cpp",
                             "_start", "__libc_start_main", "PyEval_", "PyObject_", "PyFunction_"})
    if (Contains(name, f)) return true;
  for (std::string_view f : {"core/boxing", "/Register", "/Redispatch", "pythonrun.c",
                             "Modules/main.c", "Objects/call.c", "Objects/methodobject.c",
                             "pycore_ceval.h", "ceval.c", "cpython/abstract.h"})
    if (Contains(filename, f)) return true;
  return false;
}

// The allocator, the tensor factories that call it, and the dispatcher's generated layers
// between an op and its implementation. Names as the snapshot's symbolizer writes them.
bool IsAllocatorOrDispatch(std::string_view name, std::string_view filename) {
  for (std::string_view f :
       {"CachingAllocator", "c10::cuda::", "at::detail::empty", "at::native::empty", "at::empty",
        "at::_ops::", "c10::impl::", "c10::Dispatcher", "c10::KernelFunction", "::wrapper_",
        "torch::autograd::VariableType", "torch::ADInplaceOrView"})
    if (Contains(name, f)) return true;
  return Contains(filename, "Register") && Contains(filename, ".cpp");
}

// Interpreter and C library frames with no source ("??"): not a place in anyone's code.
bool IsRuntimePlumbing(std::string_view name, std::string_view filename) {
  if (filename != "??" && !filename.empty()) return false;
  return name.substr(0, 2) == "Py" || name.substr(0, 3) == "_Py" || name.substr(0, 2) == "__" ||
         name.substr(0, 7) == "pthread" || name.substr(0, 5) == "std::";
}

bool IsTorchPython(std::string_view filename) {
  return Contains(filename, "/torch/") || filename.substr(0, 6) == "torch/";
}

// What a frame can be in a site, worked out once per frame (stacks repeat frames thousands of
// times).
enum class FrameRole : uint8_t { kUserPython, kTorchPython, kNative, kNone };

FrameRole RoleOf(const AllocatorSnapshot& s, const SnapshotFrame& f) {
  std::string_view name = s.str(f.name), file = s.str(f.filename);
  if (IsPythonFrame(file))
    return IsTorchPython(file) ? FrameRole::kTorchPython : FrameRole::kUserPython;
  if (MemoryVizOmits(name, file) || IsAllocatorOrDispatch(name, file) ||
      IsRuntimePlumbing(name, file))
    return FrameRole::kNone;
  return FrameRole::kNative;
}

}  // namespace

AllocationSites::AllocationSites(const AllocatorSnapshot& snapshot) {
  std::vector<FrameRole> roles;
  roles.reserve(snapshot.frames.size());
  for (const SnapshotFrame& f : snapshot.frames) roles.push_back(RoleOf(snapshot, f));
  size_t stacks = snapshot.stack_offsets.size() - 1;
  sites_.reserve(stacks);
  for (size_t i = 0; i < stacks; ++i) {
    AllocationSite site;
    uint32_t any_python = kNoFrame;
    for (uint32_t k = snapshot.stack_offsets[i]; k < snapshot.stack_offsets[i + 1]; ++k) {
      uint32_t f = snapshot.stack_frames[k];
      FrameRole role = roles[f];
      if (role == FrameRole::kUserPython || role == FrameRole::kTorchPython) {
        if (any_python == kNoFrame) any_python = f;
        if (site.python == kNoFrame && role == FrameRole::kUserPython) site.python = f;
      } else if (role == FrameRole::kNative && site.frame == kNoFrame) {
        site.frame = f;
      }
    }
    if (site.python == kNoFrame) site.python = any_python;
    sites_.push_back(site);
  }
}

}  // namespace profana::passes
