#include "profana/importers/chrome_json/batch_pipeline.h"

#include <cstring>
#include <system_error>

#include "profana/base/string_pool.h"
#include "profana/importers/chrome_json/structure_scan.h"
#include "profana/importers/chrome_json/top_level_scan.h"

namespace profana::json {

namespace od = simdjson::ondemand;

namespace {

// Room for the text between '[' and ']', and simdjson's padding after them.
char* MakeRoom(size_t size, Batch* b) {
  b->text_size = size + 2;
  if (b->text.size() < b->text_size + simdjson::SIMDJSON_PADDING)
    b->text.resize(b->text_size + simdjson::SIMDJSON_PADDING);
  b->text[0] = '[';
  b->text[size + 1] = ']';
  std::memset(b->text.data() + b->text_size, 0, simdjson::SIMDJSON_PADDING);
  return b->text.data() + 1;
}

void Reset(Batch* b, uint64_t input_offset, bool first) {
  b->offset = input_offset;
  b->first = first;
  b->read_from = nullptr;
  b->unscanned = false;
  b->worker = -1;
  b->done = b->failed = false;
  b->events.clear();
  b->offsets.clear();
  b->new_text.clear();
  b->new_length.clear();
  b->new_seen_after.clear();
}

// Turns the separator into spaces: the text is then one array. False when it is not one comma
// (none before the array's first events) between spaces.
bool OpenArray(Batch* b) {
  char* p = b->text.data() + 1;
  char* end = b->text.data() + b->text_size - 1;
  while (p < end && IsJsonSpace(*p)) ++p;
  if (b->first) return true;  // a stray comma there fails the parse
  if (p == end || *p != ',') return false;
  *p = ' ';
  return true;
}

}  // namespace

void Batch::Fill(const char* separator_and_events, size_t size, uint64_t input_offset, bool first) {
  Reset(this, input_offset, first);
  std::memcpy(MakeRoom(size, this), separator_and_events, size);
}

void Batch::ReadLater(const ByteSource* file, uint64_t file_offset, size_t size,
                      uint64_t input_offset, bool first) {
  Reset(this, input_offset, first);
  read_from = file;
  read_at = file_offset;
  read_size = size;
}

struct ParsePipeline::Worker {
  int id = 0;
  od::parser parser;
  StringPool pool;
  EventParser events{&pool};
  std::vector<uint32_t> opens_before;  // NestsTooDeep's counts, kept for the next batch
};

namespace {

// Whether an event of an unscanned batch nests deeper than its max_depth, which the cutter's
// scan would have found (On-Demand skips what it does not read without counting levels). An event
// nests no deeper than it has opening brackets: only one with more than max_depth in the blocks
// it spans is scanned.
bool NestsTooDeep(const Batch& b, std::vector<uint32_t>* opens_before) {
  const char* text = b.text.data();
  size_t end = b.text_size - 1;  // the ']' the batch was given
  CountOpeningBrackets(text, end, opens_before);
  const std::vector<uint32_t>& before = *opens_before;
  for (size_t i = 0; i < b.offsets.size(); ++i) {
    size_t from = static_cast<size_t>(b.offsets[i] - b.offset) + 1;
    size_t to =
        i + 1 < b.offsets.size() ? static_cast<size_t>(b.offsets[i + 1] - b.offset) + 1 : end;
    uint32_t at_most = before[(to + 63) / 64] - before[from / 64];
    if (at_most > b.max_depth && NestsDeeperThan(text + from, to - from, b.max_depth)) return true;
  }
  return false;
}

// Parses one batch; any JSON problem marks it failed (the caller then falls back).
void ParseBatch(int worker_id, od::parser& parser, StringPool& pool, EventParser& reader,
                std::vector<uint32_t>* opens_before, Batch& b) {
  b.worker = worker_id;
  b.first_new_id = static_cast<uint32_t>(pool.size());
  if (b.read_from && !b.read_from->ReadAt(MakeRoom(b.read_size, &b), b.read_size, b.read_at)) {
    b.failed = true;  // cut short since it was cut into batches
    return;
  }
  if (!OpenArray(&b)) {
    b.failed = true;
    return;
  }
  od::document doc;
  od::array array;
  if (parser.iterate(b.text.data(), b.text_size, b.text.size()).get(doc) ||
      doc.get_array().get(array)) {
    b.failed = true;
    return;
  }
  const char* first = b.text.data() + 1;
  for (auto element : array) {
    const char* where = nullptr;
    if (element.error()) {
      b.failed = true;
      return;
    }
    od::value& value = InPlace(element);
    if (value.current_location().get(where)) {
      b.failed = true;
      return;
    }
    size_t seen_before = pool.size();
    b.events.push_back(kFreshEvent);
    if (reader.Read(value, static_cast<int64_t>(b.events.size() - 1), &b.events.back())) {
      b.failed = true;
      return;
    }
    b.offsets.push_back(b.offset + static_cast<uint64_t>(where - first));
    for (size_t id = seen_before; id < pool.size(); ++id) {
      std::string_view s = pool.Get(StringId(static_cast<uint32_t>(id)));
      b.new_text.append(s);
      b.new_length.push_back(static_cast<uint32_t>(s.size()));
    }
    b.new_seen_after.push_back(static_cast<uint32_t>(b.new_length.size()));
  }
  // A batch cut without a scan must be whole events and nothing after them: its array ends with
  // the text, and no event is nested too deep.
  const char* rest = nullptr;
  if (b.unscanned && (doc.current_location().get(rest) != simdjson::OUT_OF_BOUNDS ||
                      NestsTooDeep(b, opens_before)))
    b.failed = true;
}

}  // namespace

ParsePipeline::ParsePipeline(int workers, int batches) {
  for (int i = 0; i < batches; ++i) {
    storage_.push_back(std::make_unique<Batch>());
    free_.push_back(storage_.back().get());
  }
  for (int i = 0; i < workers; ++i) {
    worker_state_.push_back(std::make_unique<Worker>());
    worker_state_.back()->id = i;
  }
  for (int i = 0; i < workers; ++i) {
    try {
      threads_.emplace_back(&ParsePipeline::Run, this, worker_state_[i].get());
    } catch (const std::system_error&) {
      // No more threads to be had (a caller's tight limits): the ones started do the work.
      if (threads_.empty()) throw;
      break;
    }
  }
}

ParsePipeline::~ParsePipeline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    todo_.clear();
  }
  work_ready_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ParsePipeline::Run(Worker* w) {
  for (;;) {
    Batch* b;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || !todo_.empty(); });
      if (stopping_) return;
      b = todo_.front();
      todo_.pop_front();
    }
    ParseBatch(w->id, w->parser, w->pool, w->events, &w->opens_before, *b);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      b->done = true;
    }
    batch_done_.notify_all();
  }
}

Batch* ParsePipeline::Free() {
  if (free_.empty()) return nullptr;
  Batch* b = free_.back();
  free_.pop_back();
  return b;
}

void ParsePipeline::Submit(Batch* b) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    todo_.push_back(b);
    in_flight_.push_back(b);
  }
  work_ready_.notify_one();
}

Batch* ParsePipeline::Oldest(bool wait) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (in_flight_.empty()) return nullptr;
  Batch* b = in_flight_.front();
  if (!b->done) {
    if (!wait) return nullptr;
    batch_done_.wait(lock, [&] { return b->done; });
  }
  in_flight_.pop_front();
  return b;
}

void ParsePipeline::Recycle(Batch* b) { free_.push_back(b); }

}  // namespace profana::json
