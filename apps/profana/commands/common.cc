#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <system_error>

#include "fmt/format.h"
#include "profana/base/input_buffer.h"
#include "profana/base/input_name.h"
#include "profana/base/memory_limit.h"
#include "profana/base/output_file.h"
#include "profana/base/progress_meter.h"
#include "profana/base/streamed_output.h"
#include "profana/base/terminal_text.h"
#include "profana/base/worker_pool.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/importers/importer.h"
#include "profana/job/load_input.h"
#include "profana/job/trace_events.h"
#include "profana/passes/trace_filter.h"

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

Result<passes::FunctionEventList> BuildEventsForCommand(
    const Trace& trace, const std::optional<FunctionEventIndex>& index, const std::string& input,
    const CommonOptions& options, Context& ctx, bool counts) {
  std::vector<job::LoadNote> notes;
  Result<passes::FunctionEventList> events =
      job::BuildTraceEvents(trace, index, input, options.link, &notes, counts);
  PrintNotes(notes, ctx);
  return events;
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

bool UseColor(const std::string& mode, const CommonOptions& o) {
  if (mode == "always") return true;
  if (mode == "never" || !(o.output.empty() || o.output == "-")) return false;
  const char* no_color = std::getenv("NO_COLOR");
  return (no_color == nullptr || *no_color == '\0') && isatty(STDOUT_FILENO);
}

void WarnWithoutDeviceActivity(const Trace& t, const std::string& path, Context& ctx) {
  for (ActivityKind k : t.events.kind)
    if (IsDeviceWork(k)) return;
  ctx.log.Warn("{}: no device activity (no kernel, memcpy or memset)", InputName(path));
}

job::LoadRequest LoadRequestFor(const CommonOptions& o, DiagnosticWarning warning) {
  job::LoadRequest request;
  request.filter = o.filter;
  if (o.max_memory) request.load.limits.max_bytes = *o.max_memory;
  request.load.unread = o.unread;
  request.load.unread.flows = !o.keeps_flows;
  request.step_marker = o.step_marker;
  request.strict = o.strict;
  request.warn = warning == DiagnosticWarning::kWarn;
  return request;
}

void PrintNotes(const std::vector<job::LoadNote>& notes, Context& ctx) {
  for (const job::LoadNote& note : notes) {
    if (note.level == job::LoadNote::Level::kWarning)
      ctx.log.Warn("{}", note.text);
    else
      ctx.log.Debug("{}", note.text);
  }
}

job::ProgressFor ShowLoadProgress(const CommonOptions& o, Context& ctx) {
  OutputSink* terminal = o.quiet ? nullptr : ctx.progress_terminal;
  if (!terminal) return {};
  return [terminal](const std::string& path) -> ProgressFn {
    auto meter = std::make_shared<ProgressMeter>(terminal, InputName(path));
    return [meter](uint64_t done, uint64_t total) { meter->Update(done, total); };
  };
}

job::LoadRequest LoadRequestWithProgress(const CommonOptions& o, Context& ctx) {
  job::LoadRequest request = LoadRequestFor(o);
  request.progress = ShowLoadProgress(o, ctx);
  return request;
}

Result<Trace> LoadForCommand(const std::string& path, const CommonOptions& o, Context& ctx,
                             std::optional<FunctionEventIndex>* function_index,
                             DiagnosticWarning warning) {
  job::JobInput input;
  input.path = path;
  return LoadForCommand(input, o, ctx, function_index, warning);
}

Result<Trace> LoadForCommand(const job::JobInput& input, const CommonOptions& o, Context& ctx,
                             std::optional<FunctionEventIndex>* function_index,
                             DiagnosticWarning warning) {
  const std::string& path = input.path;
  job::LoadRequest request = LoadRequestFor(o, warning);
  request.progress = ShowLoadProgress(o, ctx);
  ctx.inputs.push_back(path);
  std::vector<job::LoadNote> notes;
  Result<job::LoadedInput> read = job::LoadInput(input, request, &notes);
  PrintNotes(notes, ctx);
  PROFANA_ASSIGN_OR_RETURN(job::LoadedInput loaded, std::move(read));
  if (function_index) *function_index = std::move(loaded.function_index);
  return std::move(loaded.trace);
}

Result<std::string> ReadTextFile(const std::string& path, const CommonOptions& o,
                                 bool (*could_start)(std::string_view)) {
  InputLimits limits;
  if (o.max_memory) limits.max_bytes = *o.max_memory;
  limits.could_start = could_start;
  PROFANA_ASSIGN_OR_RETURN(InputBuffer input, ReadInput(path, limits));
  return std::string(input.view());
}

namespace {

// Reporters show the names they print visibly; this catches any they miss (colours stay).
bool MakesPrintable(const CommonOptions& o) {
  return !o.data_output && (o.format == OutputFormat::kText || o.format == OutputFormat::kMarkdown);
}

}  // namespace

Status RefuseToOverwriteInput(const CommonOptions& o, const Context& ctx) {
  for (const std::string& input : ctx.inputs)
    if (input != "-" && IsSameFile(o.output, input))
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}: refusing to write over an input of this command; choose "
                                "another output file",
                                o.output));
  return Status::Ok();
}

Status Emit(std::string text, const CommonOptions& o, Context& ctx) {
  if (MakesPrintable(o)) MakePrintable(&text, /*keep_colors=*/true);
  if (o.output.empty() || o.output == "-") {
    // Outputs run to hundreds of MB (a tree, stacks): hand the text over rather than copy it.
    if (ctx.out->empty())
      *ctx.out = std::move(text);
    else
      ctx.out->append(text);
    return Status::Ok();
  }
  PROFANA_RETURN_IF_ERROR(RefuseToOverwriteInput(o, ctx));
  return WriteFileReplacing(o.output, text);
}

Status EmitStreamed(const CommonOptions& o, Context& ctx, const WriteOutput& write) {
  bool printable = MakesPrintable(o);
  if (!o.output.empty() && o.output != "-") {
    PROFANA_RETURN_IF_ERROR(RefuseToOverwriteInput(o, ctx));
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
