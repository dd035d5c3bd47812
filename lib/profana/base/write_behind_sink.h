// WriteBehindSink hands each chunk of a streamed output to a thread of its own, which writes it
// to the next sink while the reporter makes the next chunk: on two cores, writing (and checking)
// a 280 MB op tree overlaps making it instead of following it.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "profana/base/output_sink.h"

namespace profana {

class WriteBehindSink final : public OutputSink {
 public:
  explicit WriteBehindSink(OutputSink* next);
  ~WriteBehindSink() override;  // writes what is left and waits for the thread
  WriteBehindSink(const WriteBehindSink&) = delete;
  WriteBehindSink& operator=(const WriteBehindSink&) = delete;

  // Copies `bytes` and returns, once the thread has taken the chunk before (so at most two are
  // held). A failure of an earlier chunk comes back here, and later chunks are not written.
  Status Write(std::string_view bytes) override;
  // The same without the copy: the chunk is swapped for the buffer the thread wrote last.
  Status Take(std::string* chunk) override;
  // Waits until every chunk is written: the first failure, or ok. No Write may follow.
  Status Finish();

 private:
  // Waits until the thread has taken the chunk before, then fill() makes pending_ the next one.
  template <typename Fill>
  Status Hand(Fill fill);
  void Work();

  OutputSink* next_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string pending_;  // the chunk the thread takes next
  bool has_pending_ = false;
  bool finishing_ = false;
  Status status_;
  std::thread thread_;
};

}  // namespace profana
