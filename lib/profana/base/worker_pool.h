// The cores this process may run on, and a bounded pool that hands out pieces of work to that
// many threads. Pool sizes follow the CPU affinity mask (sched_getaffinity), not the machine's
// core count: a Slurm task, a container or `taskset` gives a process fewer cores than the
// machine has, and hardware_concurrency() does not see that.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace profana {

// CPU_COUNT of the affinity mask; hardware_concurrency() where that is unavailable; at least 1.
size_t AvailableCores();

// f(0) .. f(n - 1) on at most `workers` threads (the calling thread among them). Pieces are taken
// in index order by whichever thread is free, so a worker holds one piece at a time: what a
// piece allocates is freed before its thread takes the next. f must not throw, and may only
// write what no other piece touches.
template <typename F>
void RunOnWorkers(size_t n, size_t workers, F f) {
  size_t threads = std::max<size_t>(1, std::min(n, workers));
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
