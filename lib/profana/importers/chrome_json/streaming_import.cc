#include "profana/importers/chrome_json/streaming_import.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "profana/base/byte_source.h"
#include "profana/base/mapped_file.h"
#include "profana/base/memory_release.h"
#include "profana/base/worker_pool.h"
#include "profana/importers/chrome_json/batch_pipeline.h"
#include "profana/importers/chrome_json/event_committer.h"
#include "profana/importers/chrome_json/header_reader.h"
#include "profana/importers/chrome_json/json_errors.h"
#include "profana/importers/chrome_json/structure_scan.h"
#include "profana/importers/chrome_json/top_level_scan.h"
#include "profana/model/trace_builder.h"

namespace profana::json {
namespace {

namespace od = simdjson::ondemand;

constexpr size_t kPadding = 64;
constexpr size_t kMaxOutside = 64 << 20;  // bytes outside the events array we are willing to hold
constexpr size_t kMappedStep = 1 << 20;   // bytes a map's window grows by at a time, at most
constexpr size_t kGuessReach = 64 << 10;  // how far past a batch's size its end is looked for

// One past the first '}' in data[from, to) that is followed, after spaces, by a comma and, after
// more spaces, by a '{': where an event likely ends and the next begins. 0 when there is none.
// Only likely: the text may be inside a string or deeper in an event; the batch's check says.
size_t LikelyElementEnd(const char* data, size_t from, size_t to) {
  for (size_t p = from; p < to;) {
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

// The input as a sliding window: bytes [base, base + size) of the (gunzipped) input. A plain
// file is mapped, and the window is a view of the map that grows as it is read (base stays 0): no
// copy into a buffer, and the pages behind the window are let go. A gzipped file (or one that
// cannot be mapped) is read into a buffer instead, and what is dropped from its front goes.
class Window {
 public:
  // Reads start at 64 KiB and double up to read_bytes: a small file, or one that turns out not
  // to be JSON (an nvprof database), costs one small read, not a zero-filled full window.
  Window(ByteSource* source, MappedFile* mapped, size_t read_bytes, const ProgressFn& progress)
      : source_(source),
        mapped_(mapped),
        progress_(progress),
        // A map's steps are only pages mapped in: small ones keep fewer of them resident ahead.
        read_bytes_(mapped ? std::min<size_t>(read_bytes, kMappedStep) : read_bytes),
        next_read_(std::min<size_t>(read_bytes, 64 << 10)) {
    buf_.resize(kPadding);
  }
  const char* data() const { return mapped_ ? mapped_->bytes().data() : buf_.data(); }
  size_t size() const { return size_; }
  uint64_t base() const { return base_; }
  bool eof() const { return eof_; }
  // A read or gunzip failed, or the mapped file was cut short.
  bool failed() const { return cut_short_ || source_->failed(); }
  const char* failure() const {
    return cut_short_ ? "the file was cut short while it was read" : "read or gunzip failed";
  }
  // Bytes of content so far (after gunzip).
  uint64_t content_bytes() const { return mapped_ ? size_ : source_->content_bytes(); }
  // Drops the bytes before `keep` (an index into the window), then reads more. Indexes into the
  // window shift by the returned amount.
  size_t Advance(size_t keep) {
    size_t want = next_read_;
    next_read_ = std::min(next_read_ * 2, read_bytes_);
    if (mapped_) {
      mapped_->Release(keep);
      size_t got = std::min(want, mapped_->bytes().size() - size_);
      if (got && !mapped_->Populate(size_, got)) cut_short_ = true, got = 0;
      if (got == 0) eof_ = true;
      size_ += got;
      Report();
      return 0;  // the padding past the file's end reads as zeros, as the buffer's does
    }
    size_t shift = keep;
    if (shift) {
      std::memmove(buf_.data(), buf_.data() + shift, size_ - shift);
      size_ -= shift;
      base_ += shift;
    }
    if (buf_.size() - kPadding - size_ < want) buf_.resize(size_ + want + kPadding);
    size_t got = source_->Read(buf_.data() + size_, buf_.size() - kPadding - size_);
    if (got == 0) eof_ = true;
    size_ += got;
    Report();
    std::memset(buf_.data() + size_, 0, kPadding);
    return shift;
  }

 private:
  void Report() {
    if (progress_) progress_(content_bytes(), source_->gzipped() ? 0 : source_->file_bytes());
  }

  ByteSource* source_;
  MappedFile* mapped_;
  const ProgressFn& progress_;
  size_t read_bytes_;
  size_t next_read_;
  std::vector<char> buf_;
  size_t size_ = 0;
  uint64_t base_ = 0;
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

StreamAttempt Fallback(std::string reason) {
  StreamAttempt attempt;
  attempt.fallback_reason = std::move(reason);
  return attempt;
}

}  // namespace

StreamAttempt StreamChromeJson(const std::string& path, const StreamOptions& options) {
  std::unique_ptr<ByteSource> source = ByteSource::Open(path);
  if (!source) return Fallback("not a regular file");
  auto over_limit = [&] {
    uint64_t content = source->gzipped() ? source->content_bytes() : source->file_bytes();
    return options.max_bytes && content > options.max_bytes;
  };
  if (over_limit()) return Fallback("larger than --max-memory");
  // A plain file is read through a map (Window), with the padding the block scanner reads past
  // the end. A file of the same size is the one ByteSource opened, to all purposes.
  std::optional<MappedFile> mapped;
  if (!source->gzipped()) {
    auto map = MappedFile::Open(path, kPadding, /*read_ahead=*/false);
    if (map.ok() && map->bytes().size() == source->file_bytes()) mapped = std::move(*map);
  }
  // Optional, to end it before the time sort.
  std::optional<Window> window(std::in_place, source.get(), mapped ? &*mapped : nullptr,
                               options.read_bytes, options.progress);

  // The opening, up to the '[' of the events.
  size_t bom = 0;
  EventsStart start;
  for (;;) {
    window->Advance(0);
    if (window->failed()) return Fallback(window->failure());
    if (bom == 0 && window->size() >= 3 && std::memcmp(window->data(), "\xEF\xBB\xBF", 3) == 0)
      bom = 3;
    std::string_view text(window->data() + bom, window->size() - bom);
    TopScan scan = FindEventsStart(text, &start);
    if (scan == TopScan::kOk) break;
    if (scan == TopScan::kUnsupported) return Fallback("not a well-formed Chrome trace opening");
    if (window->eof() || window->size() > kMaxOutside)
      return Fallback("no events array in the first bytes");
  }

  TraceBuilder builder;
  builder.LeaveUnread(options.unread);
  if (!source->gzipped()) builder.ReserveEvents(source->file_bytes() / 200);
  if (!ReadMembers(start.members, &builder)) return Fallback("header members do not parse");
  int workers = WorkerCount(options.workers);
  // Optional, to end them (their threads and buffers) before the time sort.
  std::optional<ParsePipeline> pipeline(std::in_place, workers, 3 * workers);
  std::optional<Merger> merger(std::in_place, &builder, workers);
  bool failed = false;
  // A mapped file's events are cut where the text looks like one event ends and the next begins
  // (LikelyElementEnd), without this thread scanning every byte: the worker checks each such batch
  // (Batch::unscanned). Once a batch is right, so is where the next begins, the first batch
  // beginning where the array does. At the first that is not, the batches after it are dropped,
  // and the rest of the file is scanned from where that batch began.
  bool guesses = mapped.has_value(), guessed_wrong = false;
  std::optional<size_t> rescan_from;  // where the batch that failed its check began
  auto commit_oldest = [&](bool wait) {
    Batch* b = pipeline->Oldest(wait);
    if (!b) return false;
    if (b->failed && b->unscanned && !failed && !rescan_from) rescan_from = b->cut_from;
    if (b->failed && !rescan_from) failed = true;
    if (!failed && !rescan_from) merger->Commit(*b);
    pipeline->Recycle(b);
    return true;
  };

  // The events: cut into batches of whole events at element ends found by the scanner, or
  // guessed and checked.
  const size_t events_begin = bom + start.events_begin;  // index into the window
  size_t batch_begin = events_begin;
  size_t scan_at = batch_begin, last_end = 0;
  bool first_batch = true;
  ScanState state;
  // simdjson's limit counts from the document's top: the array is at level 1 in a bare array,
  // level 2 in a Kineto object. On-Demand skips the values profana does not read without
  // counting, so the limit is kept here.
  state.max_depth = static_cast<int64_t>(kMaxJsonDepth) - (start.is_object ? 2 : 1);
  const ScanState fresh = state;
  size_t array_close = 0;
  auto submit = [&](size_t end, bool unscanned) {
    // Between batches there is exactly one comma (the parser checks the commas inside).
    size_t p = batch_begin;
    while (p < end && IsJsonSpace(window->data()[p])) ++p;
    if (!first_batch) {
      if (p >= end || window->data()[p] != ',') return false;
      ++p;
      while (p < end && IsJsonSpace(window->data()[p])) ++p;
    }
    first_batch = false;
    Batch* b;
    while (!(b = pipeline->Free())) commit_oldest(true);
    // A mapped file's text stays where it is: the worker copies it, not this thread.
    if (mapped)
      b->Borrow(window->data() + p, end - p, window->base() + p - bom);
    else
      b->Fill(window->data() + p, end - p, window->base() + p - bom);
    b->unscanned = unscanned;
    b->max_depth = state.max_depth;
    b->cut_from = batch_begin;
    pipeline->Submit(b);
    batch_begin = end;
    return true;
  };
  // Lets the window go on past what is read, keeping the batch being cut and the text the workers
  // have yet to copy. A problem comes back as its text.
  auto advance = [&]() -> std::optional<std::string> {
    size_t keep = batch_begin;
    if (const char* borrowed = pipeline->OldestBorrowed())
      keep = std::min(keep, static_cast<size_t>(borrowed - window->data()));
    size_t shift = window->Advance(keep);
    batch_begin -= shift;
    scan_at -= shift;
    if (last_end) last_end -= shift;
    if (window->failed()) return window->failure();
    if (over_limit()) return "inflates past --max-memory";
    return std::nullopt;
  };
  // Cuts and submits every batch up to the array's close; a problem comes back as its text. It
  // stops early when a batch fails (failed) or fails its check (rescan_from).
  auto cut = [&]() -> std::optional<std::string> {
    bool scanning = !guesses;  // the end of the batch being cut is found by the scanner
    while (!failed && !rescan_from) {
      if (!scanning) {
        size_t target = batch_begin + options.batch_bytes;
        if (window->size() < target + kGuessReach && !window->eof()) {
          if (auto why = advance()) return why;
          continue;
        }
        size_t end = LikelyElementEnd(window->data(), target,
                                      std::min(window->size(), target + kGuessReach));
        if (end) {
          if (!submit(end, /*unscanned=*/true)) return "events not separated by one comma";
          while (commit_oldest(false)) {
          }
          continue;
        }
        // No likely end near: the array's end, or an event longer than the reach. The scanner
        // finds this batch's end, from where it begins.
        scanning = true;
        scan_at = batch_begin;
        last_end = 0;
        state = fresh;
      }
      ScanResult r = ScanArrayElements(window->data(), scan_at, window->size(), !window->eof(),
                                       batch_begin + options.batch_bytes, &state);
      if (r.maybe_too_deep) return "nested deeper than the JSON limit";
      scan_at = r.next;
      if (r.last_element_end) last_end = r.last_element_end;
      if (r.array_close) {
        // The scanner counts brackets of both kinds; the one that closes the array must be ']'
        // (a '}' there is a structure error the whole-file parser reports with its position).
        if (window->data()[r.array_close - 1] != ']') return "the events array is closed by '}'";
        array_close = r.array_close;
        break;
      }
      if (last_end > batch_begin && scan_at >= batch_begin + options.batch_bytes) {
        if (!submit(last_end, /*unscanned=*/false)) return "events not separated by one comma";
        while (commit_oldest(false)) {
        }
        scanning = !guesses;
        continue;
      }
      if (window->eof()) return "input ends inside the events array";
      if (auto why = advance()) return why;
    }
    if (failed || rescan_from) return std::nullopt;
    if (last_end > batch_begin && !submit(last_end, /*unscanned=*/false))
      return "events not separated by one comma";
    // Between the last event and the ']' only spaces (a trailing comma is an error to report).
    for (size_t p = batch_begin; p + 1 < array_close; ++p)
      if (!IsJsonSpace(window->data()[p])) return "something other than an event in the array";
    return std::nullopt;
  };
  for (;;) {
    std::optional<std::string> problem = cut();
    // Every batch is committed, or dropped after one that failed: a problem the cutting met may
    // come of a wrong guess before it, which its batch's check then tells.
    while (commit_oldest(true)) {
    }
    if (failed) return Fallback("a batch of events does not parse");
    if (!rescan_from) {
      if (problem) return Fallback(*problem);
      break;
    }
    // Again from the batch that failed its check, scanned. The dropped batches' strings went into
    // their workers' pools: new workers start from empty ones.
    pipeline.reset();
    pipeline.emplace(workers, 3 * workers);
    merger->ForgetWorkerStrings();
    batch_begin = scan_at = *rescan_from;
    first_batch = batch_begin == events_begin;
    last_end = array_close = 0;
    state = fresh;
    guesses = false;
    guessed_wrong = true;
    rescan_from.reset();
  }
  // The parser threads' buffers go back before the sort makes its own: freed in the threads' heaps,
  // they would stay resident beside the sort's and the function events' buffers.
  merger.reset();
  pipeline.reset();
  ReleaseFreedMemory();

  // What follows the array: more members, the closing brace, spaces.
  std::string after(window->data() + array_close, window->size() - array_close);
  while (!window->eof()) {
    size_t from = window->size();
    from -= window->Advance(from);
    if (window->failed()) return Fallback(window->failure());
    after.append(window->data() + from, window->size() - from);
    if (after.size() > kMaxOutside) return Fallback("too much text after the events array");
  }
  std::string members;
  if (ReadAfterEvents(after, start.is_object, &members) != TopScan::kOk)
    return Fallback("not a well-formed Chrome trace ending");
  if (!ReadMembers(members, &builder)) return Fallback("header members do not parse");

  TraceMetadata& meta = builder.metadata();
  meta.input_bytes = window->content_bytes();
  meta.compressed_bytes = source->gzipped() ? source->file_bytes() : 0;
  meta.format = start.is_object ? TraceFormat::kKinetoJson : TraceFormat::kChromeJsonArray;
  // PyTorch's bare-array export writes times relative to the profiler's start.
  if (!start.is_object) meta.origin.kind = TimeOriginKind::kRelative;
  window.reset();  // the read buffers and the map, before the sort makes its own
  mapped.reset();
  source.reset();
  StreamAttempt attempt;
  attempt.guessed_wrong = guessed_wrong;
  attempt.trace = std::move(builder).Finish();
  ReleaseFreedMemory();  // the sort's buffers, before the analyses make theirs
  return attempt;
}

}  // namespace profana::json
