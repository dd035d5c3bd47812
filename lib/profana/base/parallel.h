// ParallelFor: f(0) .. f(n - 1) spread over the cores this process may use (AvailableCores), for
// the few places where one command's work splits into independent pieces (checking a native file's
// sections). Pieces are handed out in index order to whichever thread is free, the calling thread
// among them, so list the big ones first.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

#include "profana/base/worker_pool.h"

namespace profana {

// f must not throw; it runs on other threads, so it may only write what no other piece touches.
template <typename F>
void ParallelFor(size_t n, F f) {
  size_t threads = std::min<size_t>(n, AvailableCores());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) f(i);
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads to be had (a caller's tight limits): those started do the work
    }
  }
  work();
  for (std::thread& t : helpers) t.join();
}

}  // namespace profana
