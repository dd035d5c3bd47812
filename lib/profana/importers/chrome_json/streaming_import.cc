#include "profana/importers/chrome_json/streaming_import.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "profana/base/byte_source.h"
#include "profana/base/memory_release.h"
#include "profana/base/worker_pool.h"
#include "profana/importers/chrome_json/batch_pipeline.h"
#include "profana/importers/chrome_json/event_committer.h"
#include "profana/importers/chrome_json/header_reader.h"
#include "profana/importers/chrome_json/json_errors.h"
#include "profana/importers/chrome_json/row_forecast.h"
#include "profana/importers/chrome_json/structure_scan.h"
#include "profana/importers/chrome_json/top_level_scan.h"
#include "profana/model/trace_builder.h"

namespace profana::json {
namespace {

namespace od = simdjson::ondemand;

constexpr size_t kPadding = 64;
constexpr size_t kMaxOutside = 64 << 20;  // bytes outside the events array we are willing to hold
constexpr size_t kGuessReach = 64 << 10;  // how far past a batch's size its end is looked for
constexpr size_t kFirstRead = 64 << 10;   // the first read's size, after which reads double
constexpr size_t kPeekRead = 4 << 10;     // the first read after a seek: a likely end is near

// One past the first '}' in data[0, to) that is followed, after spaces, by a comma and, after
// more spaces, by a '{': where an event likely ends and the next begins. 0 when there is none.
// Only likely: the text may be inside a string or deeper in an event; the batch's check says.
size_t LikelyElementEnd(const char* data, size_t to) {
  for (size_t p = 0; p < to;) {
    const char* brace = static_cast<const char*>(std::memchr(data + p, '}', to - p));
    if (!brace) return 0;
    size_t end = static_cast<size_t>(brace - data) + 1, q = end;
    while (q < to && IsJsonSpace(data[q])) ++q;
    if (q < to && data[q] == ',') {
      ++q;
      while (q < to && IsJsonSpace(data[q])) ++q;
      if (q < to && data[q] == '{') return end;
    }
    p = end;
  }
  return 0;
}

// The input as a sliding window: bytes [base, end) of the (gunzipped) input, read into one
// reused buffer. Positions are input offsets (the byte order mark included). A plain file's
// window may also jump (Seek): the streamed passes read only where batches may end, and each
// batch's parser thread reads the batch itself.
class Window {
 public:
  // Reads start at 64 KiB and double up to read_bytes: a small file, or one that turns out not
  // to be JSON (an nvprof database), costs one small read, not a zero-filled full window.
  Window(ByteSource* source, size_t read_bytes, const ProgressFn& progress)
      : source_(source),
        progress_(progress),
        read_bytes_(read_bytes),
        next_read_(std::min(read_bytes, kFirstRead)) {
    buf_.resize(kPadding);
  }
  // The byte at `offset`, one of [base(), end()); valid until the next Advance or Seek. Past
  // end(), kPadding zeros.
  const char* At(uint64_t offset) const { return buf_.data() + (offset - base_); }
  uint64_t base() const { return base_; }
  uint64_t end() const { return base_ + size_; }
  bool eof() const { return eof_; }
  // Whether Seek may be called: a plain file's bytes can be read anywhere, gunzipped ones cannot.
  bool seekable() const { return !source_->gzipped(); }
  // A read or gunzip failed, or the plain file was cut short.
  bool failed() const { return cut_short_ || source_->failed(); }
  const char* failure() const {
    return cut_short_ ? "the file was cut short while it was read" : "read or gunzip failed";
  }
  // Drops the bytes before `keep` (those already dropped stay so), then reads more.
  void Advance(uint64_t keep) {
    keep = std::clamp(keep, base_, end());
    size_t shift = static_cast<size_t>(keep - base_);
    if (shift) {
      std::memmove(buf_.data(), buf_.data() + shift, size_ - shift);
      size_ -= shift;
      base_ += shift;
    }
    size_t want = next_read_;
    next_read_ = std::min(next_read_ * 2, read_bytes_);
    // A plain file is read up to the size it had when opened; less than that is a cut-short file.
    if (seekable()) want = static_cast<size_t>(std::min<uint64_t>(want, Left()));
    if (buf_.size() - kPadding - size_ < want) buf_.resize(size_ + want + kPadding);
    size_t got = want ? source_->Read(buf_.data() + size_, want) : 0;
    if (got == 0) {
      eof_ = true;
      if (seekable() && Left() > 0) cut_short_ = true;
    }
    size_ += got;
    std::memset(buf_.data() + size_, 0, kPadding);
    // Reading again what a guess passed over is no progress, nor is a seek past the end.
    if (got) furthest_ = std::max(furthest_, end());
    // Gzipped content's progress is the file's compressed bytes, as the whole-file reader gives.
    if (progress_)
      progress_(seekable() ? furthest_ : source_->compressed_bytes_used(), source_->file_bytes());
  }
  // A plain file's window starts again at `offset`, empty, its next read small.
  void Seek(uint64_t offset) {
    base_ = offset;
    size_ = 0;
    eof_ = false;
    next_read_ = std::min(read_bytes_, kPeekRead);
    source_->Seek(offset);
    std::memset(buf_.data(), 0, kPadding);
  }

 private:
  uint64_t Left() const {
    uint64_t file = source_->file_bytes();
    return file > end() ? file - end() : 0;
  }

  ByteSource* source_;
  const ProgressFn& progress_;
  size_t read_bytes_;
  size_t next_read_;
  std::vector<char> buf_;
  size_t size_ = 0;
  uint64_t base_ = 0;
  uint64_t furthest_ = 0;  // the end of the furthest read
  bool eof_ = false;
  bool cut_short_ = false;
};

// Commits parsed batches in input order. The string ids: each worker interned into its own pool;
// the commit interns each event's new strings into the trace's pool just before committing the
// event, in the order the worker met them. A string new to the trace is necessarily new to the
// worker that meets it first, so the trace's pool sees the same first occurrences in the same
// order as the whole-file importer, and assigns the same ids.
class Merger {
 public:
  Merger(TraceBuilder* builder, int workers) : b_(builder), committer_(builder), remap_(workers) {
    for (auto& r : remap_) r.push_back(StringId(0));
  }

  // The workers' pools are new: their local ids start again.
  void ForgetWorkerStrings() {
    for (auto& r : remap_) r.assign(1, StringId(0));
  }

  // Renames the batch's string ids in place (the batch is recycled after), then commits it.
  void Commit(Batch& batch) {
    std::vector<StringId>& remap = remap_[batch.worker];
    size_t next_new = 0, text_at = 0;
    for (size_t i = 0; i < batch.events.size(); ++i) {
      for (; next_new < batch.new_seen_after[i]; ++next_new) {
        uint32_t length = batch.new_length[next_new];
        remap.push_back(b_->Intern(std::string_view(batch.new_text.data() + text_at, length)));
        text_at += length;
      }
      StagedEvent& s = batch.events[i];
      for (StringId* id : {&s.name, &s.cat, &s.ph_text, &s.pid_text, &s.tid_text, &s.input_shapes,
                           &s.call_stack, &s.arg_name, &s.comm, &s.flop_inputs})
        *id = remap[id->value];
      ++b_->metadata().raw_events;
      committer_.Commit(s, index_++, batch.offsets[i]);
    }
  }

 private:
  TraceBuilder* b_;
  EventCommitter committer_;
  std::vector<std::vector<StringId>> remap_;  // per worker: local string id -> trace string id
  int64_t index_ = 0;
};

// Parses the object members outside the events array ("key":value,...) as metadata.
bool ReadMembers(const std::string& members, TraceBuilder* builder) {
  if (members.empty()) return true;
  std::string doc_text = "{" + members + "}";
  size_t size = doc_text.size();
  doc_text.append(simdjson::SIMDJSON_PADDING, '\0');
  // Too deep: the whole-file reader says where (On-Demand would skip it).
  if (NestsDeeperThan(doc_text.data(), size, kMaxJsonDepth)) return false;
  od::parser parser;
  od::document doc;
  od::object top;
  if (parser.iterate(doc_text.data(), size, doc_text.size()).get(doc) || doc.get_object().get(top))
    return false;
  EventParser reader(&builder->strings());
  for (auto f : top) {
    od::field field;
    std::string_view key;
    if (std::move(f).get(field) || field.unescaped_key().get(key)) return false;
    if (ReadHeaderField(&reader, &builder->metadata(), key, field.value())) return false;
  }
  return true;
}

int WorkerCount(int asked) {
  if (asked > 0) return asked;
  // The cores this process may use (a Slurm task's, a container's), not the machine's.
  return static_cast<int>(std::clamp<size_t>(AvailableCores(), 1, 8));
}

// Why a stage hands the file back to the whole-file importer (StreamAttempt::fallback_reason), or
// nothing when it went through.
using StreamProblem = std::optional<std::string>;

// One attempt to stream a file (an object per attempt). The stages run in order, each on the
// state the one before left: Open, ReadOpening (the text before the events array, up to its '['),
// ReadEvents (inside the array), ReadEnding (the text after it), Finish. A stage that meets
// anything unusual returns a problem, and the attempt ends with no trace.
//
// Inside the array, a pass cuts the events into batches that parser threads turn into staged
// events, committed in file order. Each batch's end is found one of two ways (Cutting). A mapped
// file's passes guess first, without this thread reading every byte: the batch ends at the first
// likely event end past its size (LikelyElementEnd), and the parser thread checks the guess
// (Batch::unscanned). Once a batch is right, so is where the next begins, the first beginning
// where the array does. At the first guess that is wrong the pass ends (kGuessedWrong): the
// batches after it are dropped, and a new pass scans the rest from where that batch began.
class ChromeJsonStream {
 public:
  ChromeJsonStream(const InputFile& file, const StreamOptions& options)
      : file_(file), options_(options) {}
  StreamAttempt Run();

 private:
  // How the end of the batch being cut is found.
  enum class Cutting {
    kGuessing,  // the first likely event end past the batch's size, checked by the parser thread
    kScanning,  // the structure scanner's last element end, every byte read
  };
  // How a pass over the events array stands.
  enum class PassOutcome {
    kGoing,         // every batch parsed so far is committed
    kBatchFailed,   // a scanned batch did not parse: the whole-file importer must run
    kGuessedWrong,  // a guessed batch failed its check: a scanning pass goes on from its beginning
  };
  // Where a pass stands in the text; positions are input offsets (Window). Each pass starts from
  // a fresh one (StartPass), so nothing carries over from a pass that ended on a wrong guess.
  struct Pass {
    bool guesses = false;  // whether its batches are guessed first (Cutting::kGuessing)
    Cutting cutting = Cutting::kScanning;
    PassOutcome outcome = PassOutcome::kGoing;
    uint64_t rescan_from = 0;  // kGuessedWrong: where the batch that failed its check began
    uint64_t batch_begin = 0;  // where the batch being cut begins (before its comma, if any)
    bool first_batch = false;  // the batch being cut begins where the array does: no comma
    uint64_t scan_at = 0;      // where the scanner goes on
    uint64_t last_end = 0;     // one past the last element end the scanner found (0: none)
    uint64_t array_close = 0;  // one past the array's closing bracket, once seen
    ScanState scan;            // the scanner's state at scan_at
  };

  // The stages, in order.
  StreamProblem Open();
  StreamProblem ReadOpening();
  StreamProblem ReadEvents();
  StreamProblem ReadEnding();
  StreamAttempt Finish();

  // Within a pass.
  void StartPass(uint64_t from, bool guesses);
  StreamProblem CutBatches();
  StreamProblem CutGuessed();
  StreamProblem CutScanned();
  StreamProblem Submit(uint64_t end, bool unscanned);
  bool CommitOldest(bool wait);
  void CommitFinished();
  StreamProblem Advance();
  bool OverLimit() const;

  const InputFile& file_;
  const StreamOptions& options_;
  // Declared in the order they are made: the parser threads (pipeline_), which may read the file,
  // end before it.
  std::unique_ptr<ByteSource> source_;
  std::optional<Window> window_;  // optional, to end it before the time sort
  TraceBuilder builder_;
  EventsStart start_;
  size_t bom_ = 0;             // the byte order mark's bytes at the input's start
  uint64_t events_begin_ = 0;  // where the array's first element may begin
  ScanState fresh_scan_;       // the scanner's state at the array's inside
  int workers_ = 0;
  // Optional, to end them (their threads and buffers) before the time sort.
  std::optional<ParsePipeline> pipeline_;
  std::optional<Merger> merger_;
  std::optional<RowForecast> forecast_;
  Pass pass_;
  bool guessed_wrong_ = false;  // a pass ended on a wrong guess (StreamAttempt::guessed_wrong)
};

StreamAttempt ChromeJsonStream::Run() {
  StreamProblem problem = Open();
  if (!problem) problem = ReadOpening();
  if (!problem) problem = ReadEvents();
  if (!problem) problem = ReadEnding();
  if (!problem) return Finish();
  StreamAttempt attempt;
  attempt.fallback_reason = std::move(*problem);
  return attempt;
}

bool ChromeJsonStream::OverLimit() const {
  uint64_t content = source_->gzipped() ? source_->content_bytes() : source_->file_bytes();
  return options_.max_bytes && content > options_.max_bytes;
}

StreamProblem ChromeJsonStream::Open() {
  source_ = ByteSource::Open(file_);
  if (!source_) return "not a regular file";
  if (OverLimit()) return "larger than --max-memory";
  window_.emplace(source_.get(), options_.read_bytes, options_.progress);
  return std::nullopt;
}

// The opening, up to the '[' of the events, and the members before it.
StreamProblem ChromeJsonStream::ReadOpening() {
  for (;;) {
    window_->Advance(0);
    if (window_->failed()) return window_->failure();
    if (bom_ == 0 && window_->end() >= 3 && std::memcmp(window_->At(0), "\xEF\xBB\xBF", 3) == 0)
      bom_ = 3;
    std::string_view text(window_->At(bom_), window_->end() - bom_);
    TopScan scan = FindEventsStart(text, &start_);
    if (scan == TopScan::kOk) break;
    if (scan == TopScan::kUnsupported) return "not a well-formed Chrome trace opening";
    if (window_->eof() || window_->end() > kMaxOutside) return "no events array in the first bytes";
  }
  events_begin_ = bom_ + start_.events_begin;
  // simdjson's limit counts from the document's top: the array is at level 1 in a bare array,
  // level 2 in a Kineto object. On-Demand skips the values profana does not read without
  // counting, so the limit is kept here.
  fresh_scan_.max_depth = static_cast<int64_t>(kMaxJsonDepth) - (start_.is_object ? 2 : 1);
  builder_.LeaveUnread(options_.unread);
  if (!ReadMembers(start_.members, &builder_)) return "header members do not parse";
  return std::nullopt;
}

// The events array, in passes until one reads it whole: a plain file's first pass guesses where
// batches end, and a wrong guess makes a scanning pass go on from the batch that failed its check.
StreamProblem ChromeJsonStream::ReadEvents() {
  workers_ = WorkerCount(options_.workers);
  pipeline_.emplace(workers_, 3 * workers_);
  merger_.emplace(&builder_, workers_);
  forecast_.emplace(events_begin_);
  StartPass(events_begin_, /*guesses=*/window_->seekable());
  for (;;) {
    StreamProblem problem = CutBatches();
    // Every batch is committed, or dropped after one that failed: a problem the cutting met may
    // come of a wrong guess before it, which its batch's check then tells.
    while (CommitOldest(true)) {
    }
    if (pass_.outcome == PassOutcome::kBatchFailed) return "a batch of events does not parse";
    if (pass_.outcome == PassOutcome::kGoing) {
      if (problem) return problem;
      break;
    }
    // Again from the batch that failed its check, scanned. The dropped batches' strings went into
    // their workers' pools: new workers start from empty ones.
    guessed_wrong_ = true;
    pipeline_.reset();
    pipeline_.emplace(workers_, 3 * workers_);
    merger_->ForgetWorkerStrings();
    StartPass(pass_.rescan_from, /*guesses=*/false);
  }
  // The parser threads' buffers go back before the sort makes its own: freed in the threads' heaps,
  // they would stay resident beside the sort's and the function events' buffers.
  merger_.reset();
  pipeline_.reset();
  ReleaseFreedMemory();
  return std::nullopt;
}

void ChromeJsonStream::StartPass(uint64_t from, bool guesses) {
  pass_ = Pass();
  pass_.guesses = guesses;
  pass_.cutting = guesses ? Cutting::kGuessing : Cutting::kScanning;
  pass_.batch_begin = pass_.scan_at = from;
  pass_.first_batch = from == events_begin_;
  pass_.scan = fresh_scan_;
}

// Cuts and submits every batch up to the array's close, committing batches as they come back. It
// stops early when a batch fails or fails its check (pass_.outcome).
StreamProblem ChromeJsonStream::CutBatches() {
  while (pass_.outcome == PassOutcome::kGoing && !pass_.array_close) {
    StreamProblem problem = pass_.cutting == Cutting::kGuessing ? CutGuessed() : CutScanned();
    if (problem) return problem;
  }
  if (pass_.outcome != PassOutcome::kGoing) return std::nullopt;
  if (pass_.last_end > pass_.batch_begin) {
    if (StreamProblem problem = Submit(pass_.last_end, /*unscanned=*/false)) return problem;
  }
  // Between the last event and the ']' only spaces (a trailing comma is an error to report).
  for (uint64_t p = pass_.batch_begin; p + 1 < pass_.array_close; ++p)
    if (!IsJsonSpace(*window_->At(p))) return "something other than an event in the array";
  return std::nullopt;
}

// One step of guessing: looks for the first likely event end past the batch's size, reading on up
// to the reach past it. The batch's own text is not read here: its parser thread reads it from the
// file, so this thread jumps to where the batch may end. With no likely end near (the array's
// end, or an event longer than the reach), the scanner finds this batch's end, from where it
// begins.
StreamProblem ChromeJsonStream::CutGuessed() {
  uint64_t target = pass_.batch_begin + options_.batch_bytes;
  uint64_t reach = target + kGuessReach;
  if (window_->end() < target) window_->Seek(target);
  uint64_t to = std::min(window_->end(), reach);
  size_t end = to > target ? LikelyElementEnd(window_->At(target), to - target) : 0;
  if (!end && to < reach && !window_->eof()) return Advance();
  if (end) {
    if (StreamProblem problem = Submit(target + end, /*unscanned=*/true)) return problem;
    CommitFinished();
    return std::nullopt;
  }
  pass_.cutting = Cutting::kScanning;
  pass_.scan_at = pass_.batch_begin;
  pass_.last_end = 0;
  pass_.scan = fresh_scan_;
  return std::nullopt;
}

// One step of scanning: up to the batch's size past an element end, the array's close, or the end
// of what is read (then reads on).
StreamProblem ChromeJsonStream::CutScanned() {
  // A scan starts where its batch does; a guess may have left the window past there.
  if (pass_.batch_begin < window_->base()) window_->Seek(pass_.batch_begin);
  uint64_t base = window_->base();
  ScanResult r = ScanArrayElements(window_->At(base), pass_.scan_at - base, window_->end() - base,
                                   !window_->eof(), pass_.batch_begin + options_.batch_bytes - base,
                                   &pass_.scan);
  if (r.maybe_too_deep) return "nested deeper than the JSON limit";
  pass_.scan_at = base + r.next;
  if (r.last_element_end) pass_.last_end = base + r.last_element_end;
  if (r.array_close) {
    // The scanner counts brackets of both kinds; the one that closes the array must be ']'
    // (a '}' there is a structure error the whole-file parser reports with its position).
    if (*window_->At(base + r.array_close - 1) != ']') return "the events array is closed by '}'";
    pass_.array_close = base + r.array_close;
    return std::nullopt;
  }
  if (pass_.last_end > pass_.batch_begin &&
      pass_.scan_at >= pass_.batch_begin + options_.batch_bytes) {
    if (StreamProblem problem = Submit(pass_.last_end, /*unscanned=*/false)) return problem;
    CommitFinished();
    pass_.cutting = pass_.guesses ? Cutting::kGuessing : Cutting::kScanning;
    return std::nullopt;
  }
  if (window_->eof()) return "input ends inside the events array";
  return Advance();
}

// Hands the text from the batch's beginning (its comma, unless it is the first) to `end` to a
// parser thread, and begins the next. A plain file's batch is read by the parser thread itself.
StreamProblem ChromeJsonStream::Submit(uint64_t end, bool unscanned) {
  Batch* b;
  while (!(b = pipeline_->Free())) CommitOldest(true);
  uint64_t from = pass_.batch_begin;
  size_t size = static_cast<size_t>(end - from);
  if (window_->seekable())
    b->ReadLater(source_.get(), from, size, from - bom_, pass_.first_batch);
  else
    b->Fill(window_->At(from), size, from - bom_, pass_.first_batch);
  pass_.first_batch = false;
  b->unscanned = unscanned;
  b->max_depth = pass_.scan.max_depth;
  b->cut_from = from;
  pipeline_->Submit(b);
  pass_.batch_begin = end;
  return std::nullopt;
}

// Takes back the oldest batch in flight (waits for it to be parsed); false when there is none. It
// is committed while the pass goes well; the first to fail ends the pass.
bool ChromeJsonStream::CommitOldest(bool wait) {
  Batch* b = pipeline_->Oldest(wait);
  if (!b) return false;
  if (b->failed && pass_.outcome == PassOutcome::kGoing) {
    pass_.outcome = b->unscanned ? PassOutcome::kGuessedWrong : PassOutcome::kBatchFailed;
    if (b->unscanned) pass_.rescan_from = b->cut_from;
  }
  if (pass_.outcome == PassOutcome::kGoing) {
    merger_->Commit(*b);
    if (!b->offsets.empty())
      forecast_->AfterBatch(b->offsets.back(), source_->content_estimate(), &builder_);
  }
  pipeline_->Recycle(b);
  return true;
}

// Commits the batches already parsed, without waiting.
void ChromeJsonStream::CommitFinished() {
  while (CommitOldest(false)) {
  }
}

// Lets the window go on past what is read, keeping the batch being cut.
StreamProblem ChromeJsonStream::Advance() {
  window_->Advance(pass_.batch_begin);
  if (window_->failed()) return window_->failure();
  if (OverLimit()) return "inflates past --max-memory";
  return std::nullopt;
}

// What follows the array: more members, the closing brace, spaces.
StreamProblem ChromeJsonStream::ReadEnding() {
  std::string after(window_->At(pass_.array_close), window_->end() - pass_.array_close);
  while (!window_->eof()) {
    uint64_t from = window_->end();
    window_->Advance(from);
    if (window_->failed()) return window_->failure();
    after.append(window_->At(from), window_->end() - from);
    if (after.size() > kMaxOutside) return "too much text after the events array";
  }
  std::string members;
  if (ReadAfterEvents(after, start_.is_object, &members) != TopScan::kOk)
    return "not a well-formed Chrome trace ending";
  if (!ReadMembers(members, &builder_)) return "header members do not parse";
  return std::nullopt;
}

StreamAttempt ChromeJsonStream::Finish() {
  TraceMetadata& meta = builder_.metadata();
  meta.input_bytes = window_->end();
  meta.compressed_bytes = source_->gzipped() ? source_->file_bytes() : 0;
  meta.format = start_.is_object ? TraceFormat::kKinetoJson : TraceFormat::kChromeJsonArray;
  // PyTorch's bare-array export writes times relative to the profiler's start.
  if (!start_.is_object) meta.origin.kind = TimeOriginKind::kRelative;
  window_.reset();  // the read buffer, before the sort makes its own
  source_.reset();
  StreamAttempt attempt;
  attempt.guessed_wrong = guessed_wrong_;
  attempt.trace = std::move(builder_).Finish();
  ReleaseFreedMemory();  // the sort's buffers, before the analyses make theirs
  return attempt;
}

}  // namespace

StreamAttempt StreamChromeJson(const InputFile& file, const StreamOptions& options) {
  return ChromeJsonStream(file, options).Run();
}

StreamAttempt StreamChromeJson(const std::string& path, const StreamOptions& options) {
  Result<InputFile> file = InputFile::Open(path);
  if (!file.ok()) {
    StreamAttempt attempt;
    attempt.fallback_reason = "not a regular file";
    return attempt;
  }
  return StreamChromeJson(*file, options);
}

}  // namespace profana::json
