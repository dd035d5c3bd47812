// ParallelFor: f(0) .. f(n - 1) spread over the cores this process may use (AvailableCores), for
// the few places where one command's work splits into independent pieces (checking a native file's
// sections). Pieces are handed out in index order to whichever thread is free, the calling thread
// among them, so list the big ones first.
#pragma once

#include <cstddef>

#include "profana/base/worker_pool.h"

namespace profana {

// f must not throw; it runs on other threads, so it may only write what no other piece touches.
template <typename F>
void ParallelFor(size_t n, F f) {
  RunOnWorkers(n, AvailableCores(), f);
}

}  // namespace profana
