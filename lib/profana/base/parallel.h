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

// Below this many rows, work over them does not pay for a thread.
inline constexpr size_t kRowsWorthAThread = size_t{1} << 16;

// Whether work over `rows` is split between two threads: there are two cores, and the rows pay
// for a thread.
inline bool WorthTwoThreads(size_t rows) {
  return rows >= kRowsWorthAThread && AvailableCores() > 1;
}

// f(h, begin, end) for the two halves of rows [0, n) at once where WorthTwoThreads(n), else
// f(0, 0, n) alone.
template <typename F>
void InHalves(size_t n, F f) {
  size_t halves = WorthTwoThreads(n) ? 2 : 1;
  ParallelFor(halves, [&](size_t h) { f(h, h * n / halves, (h + 1) * n / halves); });
}

// f(0) and f(1): at once where there are two cores and `rows` (the rows both read) pay for a
// thread, else one after the other on the calling thread. Pass 0 rows when f(1) has nothing to do.
template <typename F>
void TwoAtOnce(size_t rows, F f) {
  if (rows >= kRowsWorthAThread) {
    ParallelFor(2, f);
  } else {
    f(0);
    f(1);
  }
}

}  // namespace profana
