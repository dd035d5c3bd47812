// The options of `profana convert`; the run they make is lib/profana/run/convert.h.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/run/convert.h"

namespace profana::app {

void RegisterConvertCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::ConvertArgs>();
  CLI::App* cmd = AddCommand(app, ctx, args, run::RunConvert, "convert",
                             "Convert a trace: to profana's native file (.pfa, fast to "
                             "load), its text twin (.txt), Chrome-trace JSON "
                             "(.json, .json.gz) for Perfetto and chrome://tracing, or a "
                             "SQLite database (.sqlite: docs/sql.md)");
  cmd->add_option("FILE", args->file,
                  "Trace file (any format profana reads); - reads standard input. A directory or "
                  "a glob: a job, into one database")
      ->required();
  cmd->add_option("--to", args->to, "Output format; default: from the -o file's extension")
      ->check(OneOf("--to", "format", {"native", "text", "json", "json.gz", "sqlite"}));
  CommonOptions& o = args->common;
  o.data_output = true;
  o.keeps_flows = true;
  cmd->add_flag("--annotate", args->annotate,
                "Chrome JSON: write the trace's own JSON back (every field kept) with the analyses "
                "as tracks (steps, GPU idle gaps by cause, queue depth and memory counters) and "
                "the critical path marked, for Perfetto and chrome://tracing");
  cmd->add_flag("--no-index", args->no_index,
                "Native files: leave out the function event index (about 40 % smaller; every "
                "analysis then rebuilds the op tree and sums the CUDA totals)");
  cmd->add_option("-o,--output", o.output,
                  "Write to FILE (its extension picks the format) instead of standard output");
  cmd->add_flag("--strict", o.strict, "Treat damaged events (counted warnings) as fatal: exit 2");
  cmd->add_flag("-v,--verbose", o.verbose, "Print diagnostics of the import on standard error");
  cmd->add_flag("-q,--quiet", o.quiet, "Do not print warnings");
  AddMaxMemoryOption(cmd, &o);
  cmd->footer(
      "What is kept: what profana analyses. Every duration event (name, category, thread, times, "
      "External id, correlation, Sequence number, Fwd thread id, Input Dims, Call stack, device), "
      "[memory] records, flow events, thread and process names, and the trace's rank, world size, "
      "backend and device names. Everything else is dropped, also when writing JSON again: other "
      "args (grid, block, registers per thread, shared memory, occupancy, memcpy bytes, Module "
      "Hierarchy, Input type, ...), instant events other than [memory] (only counted), counter "
      "events and device properties other than the name. Keep the original for those "
      "(docs/native-format.md, \"What a conversion keeps\").");
}

}  // namespace profana::app
