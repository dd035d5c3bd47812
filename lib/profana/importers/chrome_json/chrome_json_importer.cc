#include "profana/importers/chrome_json/chrome_json_importer.h"

#include <cstring>
#include <string>

#include "fmt/format.h"
#include "profana/importers/chrome_json/event_committer.h"
#include "profana/importers/chrome_json/event_parser.h"
#include "profana/importers/chrome_json/header_reader.h"
#include "profana/importers/chrome_json/json_errors.h"
#include "profana/importers/chrome_json/streaming_import.h"
#include "profana/importers/chrome_json/structure_scan.h"
#include "profana/importers/chrome_json/truncation.h"
#include "profana/model/trace_builder.h"
#include "simdjson.h"

namespace profana::json {
namespace {

namespace od = simdjson::ondemand;
using simdjson::error_code;

class Reader {
 public:
  Reader(std::string_view text, const std::string& name, TraceBuilder* builder)
      : text_(text), name_(name), b_(builder), parser_(&builder->strings()), committer_(builder) {}

  error_code ReadTopLevel(od::document& doc, bool* is_object);
  const std::string& fatal() const { return parser_.fatal(); }
  const char* last_location() const { return location_; }

 private:
  error_code ReadEvents(od::array events);

  uint64_t OffsetOf(const char* p) const {
    return p ? static_cast<uint64_t>(p - text_.data()) : UINT64_MAX;
  }

  std::string_view text_;
  const std::string& name_;
  TraceBuilder* b_;
  EventParser parser_;
  EventCommitter committer_;
  StagedEvent staged_;
  const char* location_ = nullptr;
};

error_code Reader::ReadEvents(od::array events) {
  int64_t index = 0;
  for (auto element : events) {
    if (auto err = element.error()) return err;
    od::value& value = InPlace(element);
    const char* where = nullptr;
    if (value.current_location().get(where)) where = nullptr;
    location_ = where;
    ++b_->metadata().raw_events;
    staged_ = kFreshEvent;
    if (auto err = parser_.Read(value, index, &staged_)) return err;
    committer_.Commit(staged_, index, OffsetOf(where));
    ++index;
  }
  return simdjson::SUCCESS;
}

error_code Reader::ReadTopLevel(od::document& doc, bool* is_object) {
  od::json_type type;
  if (auto err = doc.type().get(type)) return err;
  if (type == od::json_type::array) {
    *is_object = false;
    od::array events;
    if (auto err = doc.get_array().get(events)) return err;
    return ReadEvents(events);
  }
  if (type != od::json_type::object) {
    parser_.set_fatal("top-level JSON value is neither an object nor an array: not a Chrome trace");
    return simdjson::INCORRECT_TYPE;
  }
  *is_object = true;
  od::object top;
  if (auto err = doc.get_object().get(top)) return err;
  bool saw_events = false;
  for (auto f : top) {
    od::field field;
    if (auto err = std::move(f).get(field)) return err;
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return err;
    if (key == "traceEvents") {
      od::array events;
      if (auto err = field.value().get_array().get(events)) {
        if (err == simdjson::INCORRECT_TYPE) parser_.set_fatal("\"traceEvents\" is not an array");
        return err;
      }
      saw_events = true;
      if (auto err = ReadEvents(events)) return err;
    } else {
      if (auto err = ReadHeaderField(&parser_, &b_->metadata(), key, field.value())) return err;
    }
  }
  if (!saw_events) {
    parser_.set_fatal("JSON object has no \"traceEvents\" array: not a Chrome trace");
    return simdjson::NO_SUCH_FIELD;
  }
  return simdjson::SUCCESS;
}

std::string TooDeepMessage() {
  return fmt::format(
      "JSON nested deeper than {} levels: no profiler writes that; the file is damaged or not a "
      "trace",
      kMaxJsonDepth);
}

struct Attempt {
  Result<Trace> trace = Status(ErrorCode::kInternal, "not run");
  bool structural_error = false;  // a JSON syntax error, which truncation may explain
  bool trailing = false;          // read, but bytes other than spaces follow the value
};

// Counts the bytes after the top-level value (a second trace appended, a stray '}'): only the
// first value was read, which the user must hear about.
void AddTrailingContent(std::string_view text, size_t end, Trace* trace) {
  size_t line, column;
  LineAndColumn(text, end, &line, &column);
  trace->diagnostics.Add(
      DiagnosticKind::kTrailingContent, end, -1,
      fmt::format("{} bytes follow the end of the JSON value (line {}, column {}); ignored",
                  text.size() - end, line, column));
}

Attempt Parse(std::string_view padded_text, const InputBuffer& input, bool is_gzip_or_repaired) {
  Attempt attempt;
  TraceBuilder builder;
  builder.metadata().input_bytes = input.size;
  builder.metadata().compressed_bytes = input.gzipped ? input.compressed_size : 0;
  Reader reader(padded_text, input.name, &builder);
  od::parser parser;
  od::document doc;
  bool is_object = false;
  error_code err =
      parser.iterate(padded_text.data(), padded_text.size(), padded_text.size() + kInputPadding)
          .get(doc);
  bool iterating = !err;
  if (!err) err = reader.ReadTopLevel(doc, &is_object);
  if (err) {
    // The document's position is only meaningful once iteration has started.
    const char* where = nullptr;
    if (!iterating || doc.current_location().get(where)) where = reader.last_location();
    uint64_t offset = where ? static_cast<uint64_t>(where - padded_text.data()) : 0;
    std::string what = reader.fatal().empty() ? simdjson::error_message(err) : reader.fatal();
    // simdjson finds these before iterating, without a position: find it, and say what it means.
    if (err == simdjson::UTF8_ERROR) {
      offset = FirstInvalidUtf8(padded_text);
      what =
          "invalid UTF-8 (JSON text must be UTF-8): the file is damaged, or was saved in another "
          "encoding";
    } else if (err == simdjson::DEPTH_ERROR) {
      offset = FirstTooDeep(padded_text, kMaxJsonDepth);
      what = TooDeepMessage();
    }
    size_t line, column;
    LineAndColumn(padded_text, offset, &line, &column);
    attempt.structural_error = reader.fatal().empty();
    attempt.trace = Status(reader.fatal().empty() ? ErrorCode::kMalformed : ErrorCode::kMalformed,
                           fmt::format("{}: byte {} (line {}, column {}): {}", input.name, offset,
                                       line, column, what));
    return attempt;
  }
  // On-Demand stops reading after the value; simdjson's stage 1 has already indexed what
  // follows, and the document has a position only when something does.
  const char* next = nullptr;
  attempt.trailing = !doc.current_location().get(next);
  builder.metadata().format = is_object ? TraceFormat::kKinetoJson : TraceFormat::kChromeJsonArray;
  // PyTorch's bare-array export writes times relative to the profiler's start.
  if (!is_object) builder.metadata().origin.kind = TimeOriginKind::kRelative;
  (void)is_gzip_or_repaired;
  attempt.trace = std::move(builder).Finish();
  return attempt;
}

}  // namespace

bool SniffChromeJson(std::string_view bytes) {
  size_t i = 0;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // UTF-8 byte order mark
  while (i < bytes.size() &&
         (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t'))
    ++i;
  return i < bytes.size() && (bytes[i] == '{' || bytes[i] == '[');
}

Result<Trace> ImportChromeJson(const InputBuffer& input) {
  std::string_view text = input.view();
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // simdjson counts the depth of what it reads, but On-Demand skips the values profana does not
  // read (unknown args) without counting: the documented limit is checked here, for all of it.
  if (NestsDeeperThan(text.data(), text.size(), kMaxJsonDepth)) {
    size_t offset = FirstTooDeep(text, kMaxJsonDepth), line, column;
    LineAndColumn(text, offset, &line, &column);
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: byte {} (line {}, column {}): {}", input.name, offset, line,
                              column, TooDeepMessage()));
  }
  Attempt first = Parse(text, input, false);
  if (first.trace.ok() && first.trailing) {
    size_t end = EndOfTopLevelValue(text);
    if (end != std::string_view::npos) AddTrailingContent(text, end, &first.trace.value());
  }
  if (first.trace.ok() && !input.gzip_truncated) return std::move(first.trace);

  // A whole JSON value and then other bytes (a log appended to the file): read the value.
  size_t end = first.trace.ok() ? std::string_view::npos : EndOfTopLevelValue(text);
  if (end != std::string_view::npos &&
      text.find_first_not_of(" \t\r\n", end) != std::string_view::npos) {
    std::string value(text.substr(0, end));
    value.append(kInputPadding, '\0');
    Attempt whole = Parse(std::string_view(value.data(), end), input, true);
    if (whole.trace.ok()) {
      AddTrailingContent(text, end, &whole.trace.value());
      return std::move(whole.trace);
    }
  }

  // A syntax error may be a file cut short: recover every complete event and say what was lost.
  TruncationRepair repair = FindTruncationRepair(text);
  if (!repair.truncated) {
    if (first.trace.ok()) return std::move(first.trace);
    return first.trace.status();
  }
  std::string gzip_note =
      input.gzip_truncated
          ? fmt::format(" (the gzip stream ends at compressed byte {})", input.gzip_truncated_at)
          : "";
  if (repair.cut == 0) {
    return Status(ErrorCode::kTruncated,
                  fmt::format("{}: byte {}: input ends before the first complete event{}",
                              input.name, text.size(), gzip_note));
  }
  std::string repaired;
  repaired.reserve(repair.cut + repair.closers.size() + kInputPadding);
  repaired.append(text.substr(0, repair.cut));
  repaired.append(repair.closers);
  size_t repaired_size = repaired.size();
  repaired.append(kInputPadding, '\0');
  Attempt second = Parse(std::string_view(repaired.data(), repaired_size), input, true);
  if (!second.trace.ok()) return first.trace.ok() ? std::move(first.trace) : first.trace.status();
  Trace& trace = second.trace.value();
  uint64_t lost = text.size() - repair.cut;
  trace.metadata.lost_bytes = lost;
  size_t line, column;
  LineAndColumn(text, repair.cut, &line, &column);
  trace.diagnostics.Add(
      DiagnosticKind::kTruncatedInput, repair.cut, -1,
      fmt::format("input ends inside an event{}: kept the {} events up to byte {} (line {}), "
                  "dropped the last {} bytes",
                  gzip_note, trace.metadata.raw_events, repair.cut, line, lost));
  return std::move(second.trace);
}

Result<std::optional<Trace>> OpenChromeJson(InputFile& file, const LoadOptions& options) {
  StreamOptions stream;
  stream.max_bytes = options.limits.max_bytes;
  stream.progress = options.limits.progress;
  stream.unread = options.unread;
  stream.workers = options.parse_threads;
  StreamAttempt streamed = StreamChromeJson(file, stream);
  return std::move(streamed.trace);
}

}  // namespace profana::json
