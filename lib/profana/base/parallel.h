// ParallelFor: f(0) .. f(n - 1) spread over the cores this process may use (AvailableCores), for
// the few places where one command's work splits into independent pieces (checking a native file's
// sections). Pieces are handed out in index order to whichever thread is free, the calling thread
// among them, so list the big ones first.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <system_error>
#include <thread>

#include "profana/base/worker_pool.h"

namespace profana {

// f must not throw; it runs on other threads, so it may only write what no other piece touches.
template <typename F>
void ParallelFor(size_t n, F f) {
  RunOnWorkers(n, AvailableCores(), f);
}

// Below this many rows, work over them does not pay for a thread.
inline constexpr size_t kRowsWorthAThread = size_t{1} << 16;

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

// Chunks 0 .. chunks - 1 made on a helper thread (produce(k, slot)) and used in order on the
// calling thread (consume(k, slot)), with `slots` buffers between them: for a pass whose work per
// row splits into a part free of order (worked out ahead) and a part that must follow the rows in
// turn (a float sum). With one core, or too few rows to pay for a thread, each chunk is made and
// used in turn on the calling thread (slot 0). produce must not throw, and may only write its
// slot; what consume throws reaches the caller once the helper has stopped.
template <typename Produce, typename Consume>
void Pipelined(size_t rows, size_t chunks, size_t slots, Produce produce, Consume consume) {
  bool helper = rows >= kRowsWorthAThread && chunks > 1 && slots > 1 && AvailableCores() > 1;
  std::mutex mutex;
  std::condition_variable changed;
  size_t made = 0, used = 0;
  bool stop = false;
  std::thread maker;
  if (helper) {
    try {
      maker = std::thread([&] {
        for (size_t k = 0; k < chunks; ++k) {
          {
            std::unique_lock<std::mutex> lock(mutex);
            changed.wait(lock, [&] { return stop || k - used < slots; });
            if (stop) return;
          }
          produce(k, k % slots);
          std::lock_guard<std::mutex> lock(mutex);
          made = k + 1;
          changed.notify_all();
        }
      });
    } catch (const std::system_error&) {
      helper = false;  // no thread to be had: each chunk made here, in turn
    }
  }
  auto finish = [&] {
    if (!maker.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    changed.notify_all();
    maker.join();
  };
  try {
    for (size_t k = 0; k < chunks; ++k) {
      if (helper) {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return made > k; });
      } else {
        produce(k, 0);
      }
      consume(k, helper ? k % slots : 0);
      if (helper) {
        std::lock_guard<std::mutex> lock(mutex);
        used = k + 1;
        changed.notify_all();
      }
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
}

}  // namespace profana
