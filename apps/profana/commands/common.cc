#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <system_error>

#include "fmt/format.h"
#include "profana/base/input_name.h"
#include "profana/base/output_file.h"
#include "profana/base/progress_meter.h"
#include "profana/base/streamed_output.h"
#include "profana/base/terminal_text.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"

namespace profana::app {

void AddCommonOptions(CLI::App* command, CommonOptions* o,
                      const std::vector<OutputFormat>& formats) {
  AddOutputOptions(command, o, formats);
  AddFilterOptions(command, o);
}

void AddOutputOptions(CLI::App* command, CommonOptions* o,
                      const std::vector<OutputFormat>& formats) {
  command
      ->add_option("-o,--output", o->output, "Write the result to FILE instead of standard output")
      ->type_name("FILE");
  AddChoiceOption(command, "--format", "format", &o->format, formats, report::OutputFormatName,
                  "Output format");
  command->add_flag("--strict", o->strict,
                    "Treat damaged events (counted warnings) as fatal: exit 2");
  command->add_flag("-v,--verbose", o->verbose,
                    "Print diagnostics of the import on standard error");
  command->add_flag("-q,--quiet", o->quiet, "Do not print warnings");
  AddMaxMemoryOption(command, o);
}

void AddMaxMemoryOption(CLI::App* command, CommonOptions* o) {
  AddParsedOption(
      command, "--max-memory",
      [o](const std::string& size) -> Status {
        PROFANA_ASSIGN_OR_RETURN(o->max_memory, ParseByteSize(size));
        return Status::Ok();
      },
      "The most memory the run may use, e.g. 512M, 16G: an input whose content (after gunzip) "
      "passes SIZE is refused, and the run stops when it needs more; 0 = no limit (default: half "
      "the physical memory)")
      ->type_name("SIZE");
}

namespace {

// The words that end -n's help: what the rows are, and so their default.
std::string RowLimitRule(RowKind kind) {
  int64_t rows = DefaultRowLimit(kind);
  switch (kind) {
    case RowKind::kSums:
      return fmt::format("rows of sums: {} by default, as PyTorch's table", rows);
    case RowKind::kRanked:
      return fmt::format("a ranked list: its top {} by default", rows);
    case RowKind::kOptimizable:
      return fmt::format("{} by default, as PyTorch's", rows);
  }
  return "";
}

}  // namespace

CLI::Option* AddRowLimitOption(CLI::App* command, int64_t* rows, RowKind kind, int64_t min,
                               const std::string& help) {
  *rows = DefaultRowLimit(kind);  // CLI11 writes the default only to show it
  CLI::Option* main = command->add_option("-n,--row-limit", *rows, help + "; " + RowLimitRule(kind))
                          ->default_val(*rows)
                          ->check(WholeNumber("--row-limit", min).description(""));
  for (const char* alias : {"--top", "--limit"})
    command->add_option(alias, *rows, help)->check(WholeNumber(alias, min))->group("");
  return main;
}

void AddLinkOption(CLI::App* command, CommonOptions* o) {
  AddChoiceOption(
      command, "--link", "rule", &o->link,
      {passes::LinkRule::kAuto, passes::LinkRule::kPyTorch, passes::LinkRule::kEnclosing},
      passes::LinkRuleName,
      "How a kernel finds its op: auto (the link Kineto recorded, else the innermost cpu_op "
      "enclosing its launch), pytorch (recorded links only, and PyTorch's id collisions), "
      "enclosing (enclosure only)");
}

void AddFilterOptions(CLI::App* command, CommonOptions* o) {
  const char* group = "Filters (applied before the analysis; README \"Filters\")";
  passes::TraceFilter* f = &o->filter;
  // A command's own option of the same name wins: `tree --thread` (which threads to print, the
  // same selection) and `memory --device cuda:0` (a memory device by name).
  auto has = [command](const char* name) { return command->get_option_no_throw(name) != nullptr; };
  AddParsedOption(
      command, "--steps",
      [f](const std::string& s) -> Status {
        PROFANA_ASSIGN_OR_RETURN(f->steps, passes::ParseStepRanges(s));
        return Status::Ok();
      },
      "Keep ProfilerStep#N windows: 3-5, 7 or 3-5,9")
      ->type_name("STEPS")
      ->group(group);
  command
      ->add_flag("--skip-first-step", f->skip_first_step, "Drop the first ProfilerStep (warm-up)")
      ->group(group);
  command
      ->add_option("--step-marker", o->step_marker,
                   "Steps are the outermost ranges whose name matches REGEX (a record_function "
                   "or NVTX range such as train_step), numbered from 0, in place of "
                   "ProfilerStep#N: for --steps and every step analysis")
      ->type_name("REGEX")
      ->group(group);
  AddParsedOption(
      command, "--window",
      [f](const std::string& s) -> Status {
        PROFANA_ASSIGN_OR_RETURN(passes::FilterWindow w, passes::ParseWindow(s));
        f->window_start_ns = w.start_ns;
        f->window_end_ns = w.end_ns;
        f->window = s;
        return Status::Ok();
      },
      "Keep START:END from the trace start: 100ms:200ms, 1.5ms: (a bare number is "
      "microseconds; either may be empty)")
      ->type_name("START:END")
      ->group(group);
  if (!has("--thread"))
    command
        ->add_option("--thread", f->threads,
                     "Keep host events of this thread (tid or name); repeatable")
        ->type_name("THREAD")
        ->group(group);
  if (!has("--device"))
    AddParsedOption(
        command, "--device",
        [f](const std::string& s) -> Status {
          PROFANA_ASSIGN_OR_RETURN(int32_t index, passes::ParseDeviceIndex(s));
          f->devices.push_back(index);
          return Status::Ok();
        },
        "Keep device activity of this device: cuda:0, hip:1 or a bare index 0; repeatable", true)
        ->type_name("DEVICE")
        ->group(group);
  command
      ->add_option("--stream", f->streams,
                   "Keep device activity of this stream (7 or \"stream 7\"); repeatable")
      ->type_name("STREAM")
      ->group(group);
  command
      ->add_option("--name", f->name,
                   "Keep events whose name matches REGEX, with what they enclose and launch")
      ->type_name("REGEX")
      ->group(group);
  command
      ->add_option("--exclude", f->exclude,
                   "Drop events whose name matches REGEX, with what they enclose and launch")
      ->type_name("REGEX")
      ->group(group);
}

void CliSession::Note(job::LoadNote note) {
  if (note.level == job::LoadNote::Level::kWarning)
    ctx_.log.Warn("{}", note.text);
  else
    ctx_.log.Debug("{}", note.text);
}

bool CliSession::ColorsWanted() const {
  if (!(options_.output.empty() || options_.output == "-")) return false;
  const char* no_color = std::getenv("NO_COLOR");
  return (no_color == nullptr || *no_color == '\0') && isatty(STDOUT_FILENO);
}

job::ProgressFor CliSession::Progress() const {
  OutputSink* terminal = options_.quiet ? nullptr : ctx_.progress_terminal;
  if (!terminal) return {};
  return [terminal](const std::string& path) -> ProgressFn {
    auto meter = std::make_shared<ProgressMeter>(terminal, InputName(path));
    return [meter](uint64_t done, uint64_t total) { meter->Update(done, total); };
  };
}

namespace {

// Reporters show the names they print visibly; this catches any they miss (colours stay).
bool MakesPrintable(const CommonOptions& o) {
  return !o.data_output && (o.format == OutputFormat::kText || o.format == OutputFormat::kMarkdown);
}

}  // namespace

Status CliSession::RefuseToOverwriteInput() const {
  const CommonOptions& o = options_;
  for (const std::string& input : ctx_.inputs)
    if (input != "-" && IsSameFile(o.output, input))
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}: refusing to write over an input of this command; choose "
                                "another output file",
                                o.output));
  return Status::Ok();
}

Status CliSession::Emit(std::string text) {
  const CommonOptions& o = options_;
  Context& ctx = ctx_;
  if (MakesPrintable(o)) MakePrintable(&text, /*keep_colors=*/true);
  if (o.output.empty() || o.output == "-") {
    // Outputs run to hundreds of MB (a tree, stacks): hand the text over rather than copy it.
    if (ctx.out->empty())
      *ctx.out = std::move(text);
    else
      ctx.out->append(text);
    return Status::Ok();
  }
  PROFANA_RETURN_IF_ERROR(RefuseToOverwriteInput());
  return WriteFileReplacing(o.output, text);
}

Status CliSession::EmitFile(const std::string& path, std::string text) {
  CommonOptions file = options_;
  file.output = path;
  return CliSession(ctx_, file).Emit(std::move(text));
}

Status CliSession::EmitStreamed(const WriteOutput& write) {
  const CommonOptions& o = options_;
  Context& ctx = ctx_;
  bool printable = MakesPrintable(o);
  if (!o.output.empty() && o.output != "-") {
    PROFANA_RETURN_IF_ERROR(RefuseToOverwriteInput());
    return WriteFileStreamed(o.output, printable, write);
  }
  if (!ctx.stdout_stream) {
    StringSink collect(ctx.out);
    return WriteStreamed(&collect, printable, write);
  }
  if (!ctx.out->empty()) {  // what came before goes first
    PROFANA_RETURN_IF_ERROR(ctx.stdout_stream->Write(*ctx.out));
    ctx.out->clear();
  }
  return WriteStreamed(ctx.stdout_stream, printable, write);
}

}  // namespace profana::app
