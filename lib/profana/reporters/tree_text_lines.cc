#include "profana/reporters/tree_text_lines.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iterator>
#include <system_error>

#include "fmt/format.h"
#include "profana/base/terminal_text.h"
#include "profana/base/worker_pool.h"
#include "profana/passes/kernel_names.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/track_labels.h"

namespace profana::report {
namespace {

// A record in the queue: a group is [depth, count, k, k members]; a label is [kLabel, thread].
constexpr uint32_t kLabel = UINT32_MAX;
// Words of records in a batch (about 300 KB of text), and batches in flight at most.
constexpr size_t kBatchWords = size_t{1} << 14;
constexpr size_t kBatches = 4;
constexpr size_t kFormatters = 2;

// A batch's text, written in place: the string grows by doubling and is cut to what was written
// at the end, so each piece of a line is one copy rather than an append with its own checks (a
// line has about ten pieces, and a tree millions of lines).
class DirectText {
 public:
  explicit DirectText(std::string* out) : out_(*out), used_(out->size()) {}
  ~DirectText() { out_.resize(used_); }
  DirectText(const DirectText&) = delete;
  DirectText& operator=(const DirectText&) = delete;

  void Put(std::string_view s) {
    if (s.empty()) return;  // its data() may be null, which memcpy must not be given
    std::memcpy(Room(s.size()), s.data(), s.size());
    used_ += s.size();
  }
  void Spaces(size_t n) {
    std::memset(Room(n), ' ', n);
    used_ += n;
  }
  void Number(uint64_t n) {
    char* at = Room(20);
    used_ += static_cast<size_t>(std::to_chars(at, at + 20, n).ptr - at);
  }
  void Time(double time_us) {
    char* at = Room(kTimeTextRoom);
    if (char* end = WriteTime(at, time_us)) {
      used_ += static_cast<size_t>(end - at);
      return;
    }
    std::string text;  // the rare time fmt writes
    AppendTime(&text, time_us);
    Put(text);
  }

 private:
  char* Room(size_t n) {
    if (out_.size() - used_ < n) out_.resize(std::max(used_ + n, out_.size() * 2));
    return out_.data() + used_;
  }

  std::string& out_;
  size_t used_;  // out_'s bytes written; the rest is room
};

// Indentation stops growing at kMaxIndent levels and deeper lines say their depth, so a trace
// nested 100,000 ops deep prints in linear, not quadratic, space.
constexpr int kMaxIndent = 64;
void PutIndent(DirectText* out, int depth) {
  out->Spaces(static_cast<size_t>(std::min(depth, kMaxIndent)) * 2);
  if (depth > kMaxIndent) out->Put(fmt::format("[depth {}] ", depth));
}

void PutCount(DirectText* out, uint32_t count) {
  if (count <= 1) return;
  out->Put(" x");
  out->Number(count);
}

// Strings of the trace's pool as lines show them, made once per distinct string rather than once
// per line: printable, and kernel names shortened unless --full-names. A string that shows as it
// is is not copied.
class ShownStrings {
 public:
  ShownStrings(const StringPool& strings, bool shorten)
      : strings_(strings), shorten_(shorten), made_(strings.size(), kNotMade) {}
  std::string_view operator()(StringId id) {
    uint32_t& made = made_[id.value];
    if (made == kNotMade) {
      std::string_view text = strings_.Get(id);
      std::string shown = Printable(shorten_ ? passes::ShortKernelName(text) : std::string(text));
      if (shown == text) {
        made = kAsIs;
      } else {
        made = static_cast<uint32_t>(shown_.size());
        shown_.push_back(std::move(shown));
      }
    }
    return made == kAsIs ? strings_.Get(id) : shown_[made];
  }

 private:
  static constexpr uint32_t kNotMade = UINT32_MAX, kAsIs = UINT32_MAX - 1;
  const StringPool& strings_;
  bool shorten_;
  std::vector<uint32_t> made_;  // per string of the pool: kNotMade, kAsIs or its index in shown_
  std::vector<std::string> shown_;
};

// Stream labels as text shows them ("device 0 stream 7"), made once per (stream, device).
class StreamLabels {
 public:
  explicit StreamLabels(TraceNames t) : t_(t) {}
  std::string_view operator()(uint32_t ev) {
    uint64_t key =
        (uint64_t{t_.events.thread[ev].value} << 32) | static_cast<uint32_t>(t_.events.device[ev]);
    auto [it, inserted] = labels_.try_emplace(key);
    if (inserted) it->second = Printable(StreamLabel(t_, ev));
    return it->second;
  }

 private:
  TraceNames t_;
  std::unordered_map<uint64_t, std::string> labels_;
};

}  // namespace

StringId StepNameId(const StringPool& strings) {
  StringId id;
  return strings.Find("ProfilerStep*", &id) ? id : StringId(0);
}

struct TreeTextLines::Text {
  Text(TraceNames t, const passes::FunctionEventList& e, const passes::EventTimes& times,
       const TreeReportOptions& a)
      : t(t),
        e(e),
        times(times),
        a(a),
        shown(t.strings, /*shorten=*/false),
        kernel_name(t.strings, /*shorten=*/!a.full_names),
        stream_label(t),
        step_name(StepNameId(t.strings)) {}

  // One group's lines, appended in place: millions of lines, so no string is made per line.
  void PutGroup(const uint32_t* members, uint32_t k, uint32_t count, int depth, DirectText* out);

  TraceNames t;
  const passes::FunctionEventList& e;
  const passes::EventTimes& times;
  const TreeReportOptions& a;
  ShownStrings shown;  // op names and shapes
  ShownStrings kernel_name;
  StreamLabels stream_label;
  StringId step_name;
  std::vector<int64_t> kernel_ns;
  std::vector<uint32_t> kernel_ev;
};

void TreeTextLines::Text::PutGroup(const uint32_t* members, uint32_t k, uint32_t count, int depth,
                                   DirectText* text) {
  DirectText& out = *text;
  auto us = [](int64_t ns) { return ns / 1000.0; };
  uint32_t rep = members[0];
  passes::EventTime sum;
  for (uint32_t m = 0; m < k; ++m) {
    passes::EventTime x;
    times.Exact(members[m], &x);
    sum.cpu_total_ns += x.cpu_total_ns;
    sum.self_cpu_ns += x.self_cpu_ns;
    sum.cuda_total_ns += x.cuda_total_ns;
  }
  PutIndent(&out, depth);
  out.Put(shown(TreeOpNameId(t, e, rep, step_name)));
  PutCount(&out, count);
  out.Put("  total ");
  out.Time(us(sum.cpu_total_ns));
  out.Put(", self ");
  out.Time(us(sum.self_cpu_ns));
  if (sum.cuda_total_ns) {
    out.Put(", device ");
    out.Time(us(sum.cuda_total_ns));
  }
  if (e.input_shapes[rep].value) {
    out.Put("  ");
    out.Put(shown(e.input_shapes[rep]));
  }
  out.Put("\n");
  // The shown kernels of the representative, with durations summed over the members at each
  // position (the members show the same kernels in the same order).
  kernel_ev.clear();
  kernel_ns.clear();
  for (uint32_t m = 0; m < k; ++m) {
    uint32_t member = members[m];
    size_t q = 0;
    for (uint32_t kk = e.kernel_begin[member]; kk < e.kernel_begin[member + 1]; ++kk) {
      uint32_t ev = e.kernel_index[kk].value;
      if (!TreeKernelShown(t, ev, a)) continue;
      if (m == 0) {
        kernel_ev.push_back(ev);
        kernel_ns.push_back(0);
      }
      kernel_ns[q++] += t.events.end_ns[ev] - t.events.start_ns[ev];
    }
  }
  for (size_t q = 0; q < kernel_ev.size();) {
    uint32_t ev = kernel_ev[q];
    size_t run = 1;
    int64_t ns = kernel_ns[q];
    while (a.fold && q + run < kernel_ev.size() &&
           t.events.name[kernel_ev[q + run]] == t.events.name[ev] &&
           t.events.thread[kernel_ev[q + run]] == t.events.thread[ev] &&
           t.events.device[kernel_ev[q + run]] == t.events.device[ev])
      ns += kernel_ns[q + run++];
    PutIndent(&out, depth);
    out.Put("  -> ");
    out.Put(kernel_name(t.events.name[ev]));
    PutCount(&out, static_cast<uint32_t>(run));
    out.Put("  ");
    out.Time(us(ns));
    out.Put(" on ");
    out.Put(stream_label(ev));
    out.Put("\n");
    q += run;
  }
}

TreeTextLines::TreeTextLines(TraceNames t, const passes::FunctionEventList& e,
                             const passes::EventTimes& times, const TreeReportOptions& a,
                             OutputSink* sink)
    : sink_(sink) {
  for (size_t b = 0; b < kBatches; ++b) {
    storage_.push_back(std::make_unique<Batch>());
    free_.push_back(storage_.back().get());
  }
  current_ = free_.back();
  free_.pop_back();
  current_->records.reserve(kBatchWords + 64);
  size_t formatters = AvailableCores() > 1 ? kFormatters : 0;
  for (size_t f = 0; f < std::max<size_t>(formatters, 1); ++f)
    texts_.push_back(std::make_unique<Text>(t, e, times, a));
  for (size_t f = 0; f < formatters; ++f) {
    try {
      threads_.emplace_back(&TreeTextLines::Run, this, texts_[f].get());
    } catch (const std::system_error&) {
      break;  // no more threads to be had: those started do the work, or this one
    }
  }
}

TreeTextLines::~TreeTextLines() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    todo_.clear();
  }
  changed_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void TreeTextLines::Group(const uint32_t* members, uint32_t k, uint32_t count, int depth) {
  std::vector<uint32_t>& r = current_->records;
  r.push_back(static_cast<uint32_t>(depth));
  r.push_back(count);
  r.push_back(k);
  r.insert(r.end(), members, members + k);
  if (r.size() >= kBatchWords) Hand();
}

void TreeTextLines::Label(ThreadId thread) {
  current_->records.push_back(kLabel);
  current_->records.push_back(thread.value);
}

void TreeTextLines::Format(Text* x, Batch* batch) {
  const std::vector<uint32_t>& records = batch->records;
  batch->text.clear();
  DirectText out(&batch->text);
  for (size_t at = 0; at < records.size();) {
    if (records[at] == kLabel) {
      out.Put(Printable(ThreadLabel(x->t, ThreadId(records[at + 1]))));
      out.Put("\n");
      at += 2;
      continue;
    }
    int depth = static_cast<int>(records[at]);
    uint32_t count = records[at + 1], k = records[at + 2];
    x->PutGroup(&records[at + 3], k, count, depth, &out);
    at += 3 + k;
  }
}

// Writes the batches at the front that are done, in order, and frees them. Called locked; the
// lock is let go while writing.
void TreeTextLines::WriteDone(std::unique_lock<std::mutex>* lock) {
  while (!in_flight_.empty() && in_flight_.front()->done) {
    Batch* b = in_flight_.front();
    in_flight_.pop_front();
    lock->unlock();
    if (status_.ok() && !b->text.empty()) status_ = sink_->Take(&b->text);
    b->records.clear();
    b->done = false;
    lock->lock();
    free_.push_back(b);
  }
}

// Hands the batch being recorded to the formatters (or formats it here, without them), writes
// what is done, and takes a free batch, waiting for one while all are in flight.
void TreeTextLines::Hand() {
  if (threads_.empty()) {
    Format(texts_[0].get(), current_);
    if (status_.ok() && !current_->text.empty()) status_ = sink_->Take(&current_->text);
    current_->records.clear();
    return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  in_flight_.push_back(current_);
  todo_.push_back(current_);
  changed_.notify_all();
  for (;;) {
    WriteDone(&lock);
    if (!free_.empty()) break;
    changed_.wait(lock);
  }
  current_ = free_.back();
  free_.pop_back();
}

void TreeTextLines::Run(Text* text) {
  for (;;) {
    Batch* b;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !todo_.empty(); });
      if (todo_.empty()) return;  // stopping, and nothing left to do
      b = todo_.front();
      todo_.pop_front();
    }
    Format(text, b);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      b->done = true;
    }
    changed_.notify_all();
  }
}

Status TreeTextLines::Finish() {
  Hand();
  if (!threads_.empty()) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      WriteDone(&lock);
      if (in_flight_.empty()) break;
      changed_.wait(lock);
    }
  }
  return status_;
}

}  // namespace profana::report
