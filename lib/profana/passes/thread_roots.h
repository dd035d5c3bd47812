// The top-level CPU ops of each thread: where a walk of the op tree starts, thread by thread.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "profana/passes/function_events.h"

namespace profana::passes {

struct ThreadRoots {
  ThreadId thread;
  std::vector<uint32_t> roots;  // FunctionEvents without a parent, in list order
};

// Threads in the order of their first top-level op. `thread` keeps one thread, named by its tid
// as written or by its name; empty keeps all.
std::vector<ThreadRoots> RootsByThread(const Trace& trace, const FunctionEventList& events,
                                       std::string_view thread);

}  // namespace profana::passes
