// Work over rows in order, split between the calling thread and one helper where there are two
// cores and rows enough to pay for a thread (WorthTwoThreads); done in turn on the calling thread
// otherwise. Two shapes:
//
// UseInOrder: each chunk of rows is made (the part of the work free of order, such as an event's
// times) and then used in order (the part that must take the rows in turn, such as a float sum).
// The helper makes the chunks ahead; the calling thread makes one itself only when it is the next
// to use and the helper has not taken it, so a helper that falls behind (or is preempted) holds
// the sums back by one chunk at most. Both making chunks side by side was slower: on the 1 GB
// flows mix, key averages took 83-93 ms that way, against 71-76 ms on one core.
//
// FollowInOrder: the calling thread leads through the runs of rows in order (building the op tree)
// and the helper follows a run behind (assigning what needs the tree of those rows).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "profana/base/parallel.h"

namespace profana {

// make(k, slot) for chunks 0 .. chunks - 1, on either thread, into `slots` buffers used in turn;
// use(k, slot) on the calling thread, k in order, once chunk k is made. make must not throw, and
// may only write its slot; what use throws reaches the caller once the helper has stopped. In turn,
// every chunk is made in slot 0.
template <typename Make, typename Use>
void UseInOrder(size_t rows, size_t chunks, size_t slots, Make make, Use use) {
  auto in_turn = [&] {
    for (size_t k = 0; k < chunks; ++k) {
      make(k, 0);
      use(k, 0);
    }
  };
  if (!WorthTwoThreads(rows) || chunks < 2 || slots < 2) return in_turn();
  std::mutex mutex;
  std::condition_variable changed;
  size_t taken = 0, used = 0;               // chunks taken to be made, and used
  std::vector<size_t> made(slots, chunks);  // the chunk each slot holds, once made
  bool stop = false;
  // The next chunk nobody has taken, if its slot is free (with the lock held), else `chunks`.
  auto take = [&]() { return taken < chunks && taken - used < slots ? taken++ : chunks; };
  auto make_taken = [&](std::unique_lock<std::mutex>& lock, size_t k) {
    lock.unlock();
    make(k, k % slots);
    lock.lock();
    made[k % slots] = k;
    changed.notify_all();
  };
  std::thread helper;
  try {
    helper = std::thread([&] {
      std::unique_lock<std::mutex> lock(mutex);
      for (;;) {
        changed.wait(lock, [&] { return stop || taken == chunks || taken - used < slots; });
        if (stop || taken == chunks) return;
        make_taken(lock, take());
      }
    });
  } catch (const std::system_error&) {
    return in_turn();  // no thread to be had
  }
  auto stop_helper = [&] {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    changed.notify_all();
    helper.join();
  };
  try {
    std::unique_lock<std::mutex> lock(mutex);
    for (size_t k = 0; k < chunks; ++k) {
      // Chunk k made here when the helper has not taken it yet, else waited for.
      while (made[k % slots] != k) {
        if (taken == k)
          make_taken(lock, take());
        else
          changed.wait(lock);
      }
      lock.unlock();
      use(k, k % slots);
      lock.lock();
      used = k + 1;
      changed.notify_all();
    }
  } catch (...) {
    stop_helper();
    throw;
  }
  stop_helper();
}

// lead(k) for runs 0 .. runs - 1 in order on the calling thread; follow(k) in order on the helper,
// each once lead(k) is done. follow must not throw; what lead throws reaches the caller once the
// helper has stopped.
template <typename Lead, typename Follow>
void FollowInOrder(size_t rows, size_t runs, Lead lead, Follow follow) {
  auto in_turn = [&] {
    for (size_t k = 0; k < runs; ++k) {
      lead(k);
      follow(k);
    }
  };
  if (!WorthTwoThreads(rows) || runs < 2) return in_turn();
  std::mutex mutex;
  std::condition_variable changed;
  size_t led = 0;
  bool stop = false;
  std::thread helper;
  try {
    helper = std::thread([&] {
      for (size_t k = 0; k < runs; ++k) {
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] { return stop || led > k; });
          if (stop) return;
        }
        follow(k);
      }
    });
  } catch (const std::system_error&) {
    return in_turn();  // no thread to be had
  }
  try {
    for (size_t k = 0; k < runs; ++k) {
      lead(k);
      std::lock_guard<std::mutex> lock(mutex);
      led = k + 1;
      changed.notify_all();
    }
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    changed.notify_all();
    helper.join();
    throw;
  }
  helper.join();
}

}  // namespace profana
