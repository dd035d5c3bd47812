// Worker threads that parse batches of whole events ("[ev,ev,...]") into StagedEvents, each with
// its own simdjson parser and string pool. Batches come back in submission order; the caller
// commits them. Batches are recycled, so after the first few no memory is allocated per batch.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "profana/base/byte_source.h"
#include "profana/importers/chrome_json/event_parser.h"

namespace profana::json {

struct Batch {
  // '[' + the separator before the events (spaces, then a comma unless they are the array's first)
  // + events + ']' + simdjson's padding. The worker turns the comma into a space.
  std::vector<char> text;
  size_t text_size = 0;  // bytes before the padding
  uint64_t offset = 0;   // input offset of text[1]
  bool first = false;    // the events begin the array: no comma before them
  // Filled by the worker:
  int worker = -1;
  bool done = false;
  bool failed = false;
  std::vector<StagedEvent> events;
  std::vector<uint64_t> offsets;  // per event: input offset of its '{'
  // Strings the worker's pool first saw in this batch, in order (their local ids follow on from
  // first_new_id), and per event how many of them had been seen once the event was read.
  uint32_t first_new_id = 0;
  std::string new_text;
  std::vector<uint32_t> new_length;
  std::vector<uint32_t> new_seen_after;

  // The text (separator and events) from input_offset on: copied now (Fill), or read from a plain
  // file by the worker that parses it (ReadLater), so that this thread never touches it.
  void Fill(const char* separator_and_events, size_t size, uint64_t input_offset, bool first);
  void ReadLater(const ByteSource* file, uint64_t file_offset, size_t size, uint64_t input_offset,
                 bool first);
  const ByteSource* read_from = nullptr;  // the file the worker reads the text from, or null
  uint64_t read_at = 0;                   // where in it (the input offset and a byte order mark)
  size_t read_size = 0;
  // Cut where the text looked like an event ended, without a scan of it: the worker first checks
  // that it is whole elements of the array, none nested deeper than max_depth, or fails the batch.
  bool unscanned = false;
  int64_t max_depth = 0;
  uint64_t cut_from = 0;  // the cutter's own position where this batch began (before its comma)
};

class ParsePipeline {
 public:
  ParsePipeline(int workers, int batches);
  ~ParsePipeline();

  // A batch to fill, or null when every batch is in flight (commit the oldest first).
  Batch* Free();
  void Submit(Batch* batch);
  // The oldest batch in flight once parsed (waits for it); null when none is in flight.
  Batch* Oldest(bool wait);
  // Gives back the batch Oldest returned.
  void Recycle(Batch* batch);

 private:
  struct Worker;
  void Run(Worker* worker);

  std::vector<std::unique_ptr<Batch>> storage_;
  std::vector<Batch*> free_;
  std::deque<Batch*> in_flight_;  // submission order
  std::deque<Batch*> todo_;       // not yet taken by a worker
  std::mutex mutex_;
  std::condition_variable work_ready_, batch_done_;
  bool stopping_ = false;
  std::vector<std::unique_ptr<Worker>> worker_state_;
  std::vector<std::thread> threads_;
};

}  // namespace profana::json
