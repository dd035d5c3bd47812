#include "profana/job/job_inputs.h"

#include <glob.h>
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <system_error>

#include "fmt/format.h"
#include "profana/base/input_buffer.h"
#include "profana/base/input_file.h"
#include "profana/importers/importer.h"
#include "profana/job/input_kind.h"
#include "profana/job/summary_file.h"

namespace profana::job {
namespace fs = std::filesystem;

namespace {

bool HasGlobChars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

// How much of an input's head is read before the job: distributedInfo sits near the top.
constexpr size_t kPeekBytes = 256 * 1024;

// An input as the expansion finds it. Its head is read once, for both questions asked of it
// there: whether a listed file is a trace, and the rank its header names.
struct Listed {
  std::string path;
  bool peeked = false;
  std::optional<int64_t> header_rank;
  std::shared_ptr<InputFile> file;  // open, its head forgotten; null when it could not be opened
};

// The inputs found so far, and how many more files may stay open until their load.
struct Listing {
  std::vector<Listed> inputs;
  size_t open_left = 0;
  std::string head;  // the head of the file being listed, one buffer for all (InputFile::HeadInto)
};

// Adds an input whose head (`head`, its first kPeekBytes) was read; its file stays open while the
// listing may hold more.
void AddPeeked(std::string path, std::shared_ptr<InputFile> file, std::string_view head,
               Listing* out) {
  Listed l{std::move(path), true, std::nullopt, nullptr};
  if (file) {
    l.header_rank = PeekHeaderRank(head);
    file->ForgetHead();  // what a sniff kept: a job's thousand heads would be 256 MB
    if (out->open_left > 0) {
      --out->open_left;
      l.file = std::move(file);
    }
  }
  out->inputs.push_back(std::move(l));
}

// The same for a named file, whose head is read here.
void AddNamed(std::string path, std::shared_ptr<InputFile> file, Listing* out) {
  std::string_view head = file ? file->HeadInto(kPeekBytes, &out->head) : std::string_view();
  AddPeeked(std::move(path), std::move(file), head, out);
}

// How many inputs stay open from the expansion to their load: half the descriptors this process
// may open, the rest left for the loads and outputs. A larger job's files past that are closed
// after their head is read, and opened again to load: the listing holds no more at any time, so a
// directory of thousands of traces never runs out of descriptors while it is read.
size_t FilesHeldOpen() {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 512;
  return limit.rlim_cur > 128 ? static_cast<size_t>(limit.rlim_cur - 128) / 2 : 0;
}

// What a directory or a glob names: its regular files (a FIFO would block the run, a device never
// end), sorted, that an importer claims or that are summaries. Returns how many were regular.
size_t AddListedTraces(std::vector<std::string> names, Listing* out) {
  std::vector<std::string> files;
  for (std::string& name : names) {
    std::error_code ec;
    if (fs::is_regular_file(name, ec)) files.push_back(std::move(name));  // links followed
  }
  std::sort(files.begin(), files.end());
  for (std::string& f : files) {
    Result<InputFile> file = InputFile::Open(f);
    if (!file.ok()) continue;
    std::string_view head = file->HeadInto(kPeekBytes, &out->head);
    std::string_view first = head.substr(0, kSniffBytes);
    if (DetectFormat(first) != nullptr || LooksLikeSummary(first))  // a trace, or a summary
      AddPeeked(std::move(f), std::make_shared<InputFile>(std::move(*file)), head, out);
  }
  return files.size();
}

Status ExpandDirectory(const std::string& dir, Listing* out) {
  std::error_code ec;
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec))
    names.push_back(entry.path().string());
  if (ec) return Status(ErrorCode::kIo, fmt::format("{}: cannot list: {}", dir, ec.message()));
  size_t before = out->inputs.size(), files = AddListedTraces(std::move(names), out);
  if (out->inputs.size() == before)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: no trace in this directory (looked at {} file{})", dir, files,
                              files == 1 ? "" : "s"));
  return Status::Ok();
}

Status ExpandGlob(const std::string& pattern, Listing* out) {
  glob_t g{};
  int rc = glob(pattern.c_str(), 0, nullptr, &g);
  if (rc != 0) {
    globfree(&g);
    return Status(ErrorCode::kIo, fmt::format("{}: no such file, and no file matches it", pattern));
  }
  std::vector<std::string> names(g.gl_pathv, g.gl_pathv + g.gl_pathc);
  globfree(&g);
  size_t before = out->inputs.size(), matched = names.size(),
         files = AddListedTraces(std::move(names), out);
  if (out->inputs.size() == before)
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("{}: no trace matches it ({} match{}, {} of them regular file{})", pattern,
                    matched, matched == 1 ? "" : "es", files, files == 1 ? "" : "s"));
  return Status::Ok();
}

// Digits starting at s[i]; nullopt when there are none (or too many for a rank).
std::optional<int64_t> DigitsAt(std::string_view s, size_t i, size_t* end = nullptr) {
  size_t j = i;
  while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
  if (j == i || j - i > 9) return std::nullopt;
  if (end) *end = j;
  int64_t v = 0;
  for (size_t k = i; k < j; ++k) v = v * 10 + (s[k] - '0');
  return v;
}

}  // namespace

SniffedInputs SniffInputs(const std::vector<std::string>& args) {
  SniffedInputs out;
  if (args.size() != 1) return out;
  JobInput in;
  in.path = args[0];
  std::error_code ec;
  if (in.path != "-") {
    if (fs::is_directory(in.path, ec)) return out;
    if (!fs::exists(in.path, ec)) {
      if (HasGlobChars(in.path)) return out;
    } else if (Result<InputFile> file = InputFile::Open(in.path); file.ok()) {
      in.file = std::make_shared<InputFile>(std::move(*file));
      if (InputKindOf(*in.file) == InputKind::kSummary) {  // a summary is a job
        out.summary = std::move(in.file);
        return out;
      }
    }
  }
  out.single = std::move(in);  // a missing file too: the load says so
  return out;
}

std::optional<JobInput> SingleTraceInput(const std::vector<std::string>& args) {
  return SniffInputs(args).single;
}

Result<std::shared_ptr<InputFile>> OpenJobInput(const JobInput& input) {
  if (input.file) return input.file;
  PROFANA_ASSIGN_OR_RETURN(InputFile opened, InputFile::Open(input.path));
  return std::make_shared<InputFile>(std::move(opened));
}

Result<std::vector<JobInput>> ExpandInputs(const std::vector<std::string>& args,
                                           std::shared_ptr<InputFile> opened) {
  Listing listing;
  listing.open_left = FilesHeldOpen();
  for (const std::string& arg : args) {
    std::error_code ec;
    if (arg == "-") {
      listing.inputs.push_back(Listed{arg, false, std::nullopt, nullptr});
    } else if (fs::is_directory(arg, ec)) {
      PROFANA_RETURN_IF_ERROR(ExpandDirectory(arg, &listing));
    } else if (fs::exists(arg, ec) || !HasGlobChars(arg)) {
      // A missing file is reported by the load, with its usual message.
      listing.inputs.push_back(Listed{arg, false, std::nullopt, nullptr});
    } else {
      PROFANA_RETURN_IF_ERROR(ExpandGlob(arg, &listing));
    }
  }
  // Named files are read here, in order, as listed ones were.
  Listing named;
  named.open_left = listing.open_left;
  for (Listed& listed : listing.inputs) {
    if (listed.peeked || listed.path == "-") {
      named.inputs.push_back(std::move(listed));
    } else if (opened && listed.path == opened->path()) {
      AddNamed(std::move(listed.path), std::move(opened), &named);
    } else {
      Result<InputFile> file = InputFile::Open(listed.path);
      AddNamed(std::move(listed.path),
               file.ok() ? std::make_shared<InputFile>(std::move(*file)) : nullptr, &named);
    }
  }
  std::vector<JobInput> inputs;
  inputs.reserve(named.inputs.size());
  for (size_t i = 0; i < named.inputs.size(); ++i) {
    Listed& listed = named.inputs[i];
    JobInput in;
    in.path = std::move(listed.path);
    in.order = i;
    in.file = std::move(listed.file);
    if (in.path != "-") {
      in.header_rank = listed.header_rank;
      in.name_rank = RankFromFileName(in.path);
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

std::optional<int64_t> RankFromFileName(std::string_view path) {
  size_t slash = path.find_last_of('/');
  std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view s(name);
  for (size_t i = 0; i < s.size(); ++i) {
    for (std::string_view word : {std::string_view("rank"), std::string_view("worker")}) {
      if (s.substr(i, word.size()) != word) continue;
      // The word must start the name or follow a separator ("myrank3" is not a rank word).
      if (i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))) continue;
      size_t j = i + word.size();
      if (j < s.size() && (s[j] == '-' || s[j] == '_')) ++j;
      if (auto v = DigitsAt(s, j)) return v;
    }
  }
  // "trace_3.json": the last separator-delimited number followed by a dot.
  std::optional<int64_t> found;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '_' && s[i] != '-') continue;
    size_t end = 0;
    if (auto v = DigitsAt(s, i + 1, &end); v && end < s.size() && s[end] == '.') found = v;
  }
  return found;
}

std::optional<int64_t> PeekHeaderRank(std::string_view head) {
  size_t at = head.find("\"distributedInfo\"");
  if (at == std::string::npos) return std::nullopt;
  size_t open = head.find('{', at);
  size_t close = open == std::string::npos ? open : head.find('}', open);
  if (close == std::string::npos) return std::nullopt;
  std::string_view obj = std::string_view(head).substr(open, close - open);
  size_t key = obj.find("\"rank\"");
  if (key == std::string_view::npos) return std::nullopt;
  size_t i = obj.find(':', key);
  if (i == std::string_view::npos) return std::nullopt;
  ++i;
  while (i < obj.size() && std::isspace(static_cast<unsigned char>(obj[i]))) ++i;
  return DigitsAt(obj, i);
}

Result<RankSelection> RankSelection::Parse(std::string_view text) {
  RankSelection sel;
  auto bad = [&](std::string_view why) {
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("--ranks {}: {} (expected ranks and ranges such as 0-3,7)", text, why));
  };
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view part = text.substr(pos, comma - pos);
    size_t end = 0;
    auto lo = DigitsAt(part, 0, &end);
    if (!lo) return bad(part.empty() ? "an empty item" : fmt::format("\"{}\" is not a rank", part));
    int64_t hi = *lo;
    if (end < part.size()) {
      size_t end2 = 0;
      auto h = part[end] == '-' ? DigitsAt(part, end + 1, &end2) : std::nullopt;
      if (!h || end2 != part.size()) return bad(fmt::format("\"{}\" is not a rank", part));
      hi = *h;
      if (hi < *lo) return bad(fmt::format("\"{}\" ends before it starts", part));
    }
    sel.ranges_.emplace_back(*lo, hi);
    pos = comma + 1;
  }
  return sel;
}

bool RankSelection::Contains(int64_t rank) const {
  if (ranges_.empty()) return true;
  for (const auto& [lo, hi] : ranges_)
    if (rank >= lo && rank <= hi) return true;
  return false;
}

int64_t ResolveRank(const JobInput& input, int64_t metadata_rank) {
  if (metadata_rank >= 0) return metadata_rank;
  if (input.header_rank) return *input.header_rank;
  if (input.name_rank) return *input.name_rank;
  return static_cast<int64_t>(input.order);
}

}  // namespace profana::job
