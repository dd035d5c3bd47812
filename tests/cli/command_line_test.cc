// The command line around the commands: unknown commands suggest the nearest, `help COMMAND`,
// common options before the command, the help text (FILE..., the input formats from the importer
// table), and --version.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "catch2/catch.hpp"
#include "profana/importers/importer.h"
#include "test_util.h"

namespace profana {
namespace {

using test::Run;

const std::string kTrace = test::TestData("oracle/cnn_train/all/trace.kineto_like.json");

// The commands `profana --help` lists (CLI11's Subcommands section).
std::vector<std::string> ListedCommands() {
  std::istringstream help(Run({"--help"}).out);
  std::vector<std::string> names;
  bool in_list = false;
  for (std::string line; std::getline(help, line);) {
    if (line == "Subcommands:") {
      in_list = true;
    } else if (in_list && line.empty()) {
      break;
    } else if (in_list) {
      std::istringstream words(line);
      std::string name;
      words >> name;
      names.push_back(name);
    }
  }
  return names;
}

TEST_CASE("a misspelt command suggests the nearest one, exit 2", "[cli]") {
  test::CliRun r = Run({"tabel", kTrace});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("profana: error: unknown command \"tabel\"; did you mean \"table\"?") == 0);
  // One letter missing, a prefix, and a word near nothing (then the list of commands).
  CHECK(Run({"stack", kTrace}).err.find("did you mean \"stacks\"?") != std::string::npos);
  CHECK(Run({"opt", kTrace}).err.find("did you mean \"optimizable\"?") != std::string::npos);
  test::CliRun far = Run({"xyzzy", kTrace});
  CHECK(far.code == 2);
  CHECK(far.err.find("unknown command \"xyzzy\" (commands: table, ") != std::string::npos);
  // Common options before the misspelt command do not hide it.
  CHECK(Run({"-q", "--format", "json", "tabel", kTrace}).err.find("did you mean \"table\"?") !=
        std::string::npos);
}

TEST_CASE("profana help COMMAND prints what COMMAND --help prints", "[cli]") {
  std::vector<std::string> commands = ListedCommands();
  REQUIRE(commands.size() >= 13);  // 11 trace commands, help, completion
  for (const std::string& command : commands) {
    INFO(command);
    test::CliRun help = Run({"help", command});
    test::CliRun flag = Run({command, "--help"});
    CHECK(help.code == 0);
    CHECK(flag.code == 0);
    CHECK(help.out == flag.out);
    CHECK(help.out.find("Usage: profana " + command + " ") != std::string::npos);
  }
  CHECK(Run({"help"}).out == Run({"--help"}).out);
  test::CliRun unknown = Run({"help", "tabel"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("did you mean \"table\"?") != std::string::npos);
}

// The options `COMMAND --help` lists: names ("-n,--row-limit") -> the rest of the line, its runs of
// spaces made one.
std::map<std::string, std::string> HelpOptions(const std::string& command) {
  std::istringstream help(Run({command, "--help"}).out);
  std::map<std::string, std::string> options;
  for (std::string line; std::getline(help, line);) {
    size_t at = line.find_first_not_of(' ');
    if (at == std::string::npos || at == 0 || line[at] != '-') continue;
    std::istringstream words(line.substr(at));
    std::string names, word, rest;
    words >> names;
    while (words >> word) rest += (rest.empty() ? "" : " ") + word;
    options[names] = rest;
  }
  return options;
}

TEST_CASE("an option shared by commands means the same in each command's --help", "[cli]") {
  // Where a command's own option of the same name differs, on purpose: convert's -o picks the
  // output format by extension, tree --thread selects what to print, memory --device names a
  // memory device, check and diff --ranks select the ranks of two jobs and diff --by-rank pairs
  // them.
  const std::set<std::pair<std::string, std::string>> own = {
      {"convert", "-o,--output"}, {"tree", "--thread"}, {"memory", "--device"},
      {"check", "--ranks"},       {"diff", "--ranks"},  {"diff", "--full-names"},
      {"diff", "--by-rank"}};
  const std::vector<std::string> shared = {
      "-o,--output", "--strict",          "-v,--verbose",  "-q,--quiet",  "--max-memory",
      "--steps",     "--skip-first-step", "--step-marker", "--window",    "--thread",
      "--device",    "--stream",          "--name",        "--exclude",   "--link",
      "--jobs",      "--ranks",           "--by-rank",     "--full-names"};
  std::map<std::string, std::map<std::string, std::string>> by_option;  // option -> command -> line
  size_t commands = 0;
  for (const std::string& command : ListedCommands()) {
    if (command == "help" || command == "completion") continue;
    ++commands;
    for (const auto& [names, line] : HelpOptions(command)) {
      // -n is the row limit in every command that has it.
      if (names.rfind("-n,", 0) == 0) CHECK(names == "-n,--row-limit");
      if (!own.count({command, names})) by_option[names][command] = line;
    }
  }
  REQUIRE(commands >= 19);
  for (const std::string& option : shared) {
    INFO(option);
    const auto& lines = by_option[option];
    REQUIRE(lines.size() >= 2);
    for (const auto& [command, line] : lines) {
      INFO(command);
      CHECK(line == lines.begin()->second);
    }
  }
  // Every command takes the same output and loading options (convert its own -o).
  CHECK(by_option["-o,--output"].size() + 1 == commands);
  for (const char* option : {"--strict", "-v,--verbose", "-q,--quiet", "--max-memory"})
    CHECK(by_option[option].size() == commands);
}

TEST_CASE("every command's default row limit follows one rule, which its --help names", "[cli]") {
  // docs/commands.md "One vocabulary": rows of sums show 100 (PyTorch's table(row_limit=100)),
  // ranked lists of instances their top 10, optimizable PyTorch's length=1.
  const std::map<std::string, std::pair<std::string, std::string>> rule = {
      {"table", {"100", "rows of sums: 100 by default, as PyTorch's table"}},
      {"diff", {"100", "rows of sums: 100 by default, as PyTorch's table"}},
      {"kernels", {"100", "rows of sums: 100 by default, as PyTorch's table"}},
      {"collectives", {"10", "a ranked list: its top 10 by default"}},
      {"advise", {"10", "a ranked list: its top 10 by default"}},
      {"idle", {"10", "a ranked list: its top 10 by default"}},
      {"memory", {"10", "a ranked list: its top 10 by default"}},
      {"critical-path", {"10", "a ranked list: its top 10 by default"}},
      {"optimizable", {"1", "1 by default, as PyTorch's"}}};
  std::set<std::string> limited;
  for (const std::string& command : ListedCommands()) {
    if (command == "help" || command == "completion") continue;
    std::map<std::string, std::string> options = HelpOptions(command);
    auto n = options.find("-n,--row-limit");
    if (n == options.end()) continue;
    INFO(command << ": " << n->second);
    limited.insert(command);
    REQUIRE(rule.count(command));  // a command that limits rows says which kind they are
    const auto& [rows, words] = rule.at(command);
    CHECK(n->second.rfind("INT=" + rows + " ", 0) == 0);
    CHECK(n->second.size() >= words.size());
    CHECK(n->second.compare(n->second.size() - words.size(), words.size(), words) == 0);
  }
  CHECK(limited.size() == rule.size());
  // The default is what runs, not only what the help shows: kernels lists 100 of the job's 199
  // rows, critical-path 10 of the path's events.
  const std::string job = test::TestData("traces/hta/trace_filter");
  std::string kernels = Run({"kernels", job, "-q", "--format", "csv"}).out;
  CHECK(std::count(kernels.begin(), kernels.end(), '\n') == 101);  // the header and 100 rows
  CHECK(kernels == Run({"kernels", job, "-q", "--format", "csv", "-n", "100"}).out);
  const std::string step = test::TestData(
      "traces/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
  auto path = [&](std::vector<std::string> more) {
    std::vector<std::string> args = {"critical-path",   step,         "-q", "--annotation",
                                     "measure|forward", "--instance", "1"};
    args.insert(args.end(), more.begin(), more.end());
    return Run(args).out;
  };
  std::string path_text = path({});
  CHECK(path_text.find("Top 10 events on the path") != std::string::npos);
  CHECK(path_text == path({"-n", "10"}));
}

TEST_CASE("every sort key and metric the vocabulary table names is accepted", "[cli]") {
  // docs/commands.md "One vocabulary", "a sort key or metric": each spelling, per command.
  const std::string job = test::TestData("job/two_ranks");
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> uses = {
      {{"table", kTrace, "-n", "1", "--sort"},
       {"self_cpu", "self_cuda", "self_device", "cpu_total", "cuda_total", "device_total",
        "cpu_mem", "cuda_mem", "calls", "count", "flops", "self_cuda_time_total",
        "self_device_time_total", "cpu_time_total"}},
      {{"diff", kTrace, kTrace, "-n", "1", "--sort"},
       {"self", "self_cpu", "self_device", "cpu_total", "device_total", "count",
        "self_cuda_time_total", "cuda_total", "calls"}},
      {{"kernels", job, "-n", "1", "--sort"},
       {"total", "time", "total_time", "count", "calls", "mean", "min", "max", "name"}},
      {{"stacks", kTrace, "--metric"},
       {"self_cpu", "self_cuda", "self_device", "self_cpu_time_total", "self_cuda_time_total",
        "self_device_time_total"}}};
  for (const auto& [command, keys] : uses)
    for (const std::string& key : keys) {
      std::vector<std::string> args = command;
      args.push_back(key);
      args.push_back("-q");
      INFO(args.front() << " " << key);
      CHECK(Run(args).code == 0);
    }
  // A mistyped key gets the nearest.
  CHECK(Run({"kernels", job, "--sort", "totl"}).err.find("did you mean \"total\"?") !=
        std::string::npos);
}

TEST_CASE("common options are accepted before the command", "[cli]") {
  test::CliRun after = Run({"table", kTrace, "--format", "json", "-q"});
  REQUIRE(after.code == 0);
  REQUIRE(after.out.find("\"schema\": \"profana.table/") != std::string::npos);
  CHECK(Run({"--format", "json", "-q", "table", kTrace}).out == after.out);
  CHECK(Run({"--format=json", "table", kTrace}).out == after.out);
  CHECK(Run({"-qv", "--format", "csv", "table", kTrace}).out ==
        Run({"table", kTrace, "--format", "csv"}).out);
  // --verbose before the command turns on the import diagnostics.
  test::CliRun verbose = Run({"-v", "table", kTrace});
  CHECK(verbose.err.find("events read in") != std::string::npos);
  CHECK(Run({"--verbose", "table", kTrace}).err.find("events read in") != std::string::npos);
  // --max-memory before the command limits the load: 1K is far below the 107 KiB trace.
  test::CliRun small = Run({"--max-memory", "1K", "table", kTrace});
  CHECK(small.code == 2);
  CHECK(small.err == Run({"table", kTrace, "--max-memory", "1K"}).err);
  // -o FILE before the command writes the file, not stdout.
  std::string path = (std::filesystem::temp_directory_path() /
                      ("profana_leading_o_" + std::to_string(getpid()) + ".txt"))
                         .string();
  test::CliRun to_file = Run({"-o", path, "table", kTrace});
  CHECK(to_file.code == 0);
  CHECK(to_file.out.empty());
  CHECK(test::ReadFile(path) == Run({"table", kTrace}).out);
  std::filesystem::remove(path);
  // A command that has no --format says so, as it does with the option after it.
  test::CliRun convert = Run({"--format", "json", "convert", kTrace});
  CHECK(convert.code == 2);
  // The option's value is not taken for the command: `-o table` writes a file named "table".
  test::CliRun value = Run({"-o", "table"});
  CHECK(value.code == 2);
  CHECK(value.err.find("unknown command") == std::string::npos);
}

TEST_CASE("mistyped names, options and inputs get the nearest and where to look", "[cli]") {
  // A sort key, a metric, a format: the nearest name, then the whole list.
  test::CliRun key = Run({"table", kTrace, "--sort", "self_cud"});
  CHECK(key.code == 2);
  CHECK(key.err.find("profana: error: --sort: unknown key \"self_cud\"; did you mean "
                     "\"self_cuda\"") == 0);
  CHECK(key.err.find("(expected one of: ") != std::string::npos);
  CHECK(Run({"stacks", kTrace, "--metric", "self_cup"}).err.find("did you mean \"self_cpu\"") !=
        std::string::npos);
  CHECK(Run({"table", kTrace, "--format", "jsno"}).err.find("did you mean \"json\"?") !=
        std::string::npos);
  CHECK(Run({"stacks", kTrace, "--unit", "nss"}).err.find("did you mean \"ns\"") !=
        std::string::npos);
  // Nothing near: the list alone.
  CHECK(Run({"table", kTrace, "--sort", "zzzzzz"}).err.find("did you mean") == std::string::npos);
  // An option the command does not take: the command and its nearest option.
  test::CliRun option = Run({"table", kTrace, "--srot", "count"});
  CHECK(option.code == 2);
  CHECK(option.err == "profana: error: table has no option \"--srot\"; did you mean \"--sort\"?\n");
  CHECK(Run({"table", kTrace, "--row-limt=5"}).err.find("did you mean \"--row-limit\"?") !=
        std::string::npos);
  CHECK(Run({"info", kTrace, "--frobnicate"}).err ==
        "profana: error: info has no option \"--frobnicate\"; see 'profana info --help'\n");
  // A directory given to a command that reads one trace: which commands take directories.
  test::CliRun dir = Run({"optimizable", test::TestData("job/two_ranks")});
  CHECK(dir.code == 2);
  CHECK(dir.err.find(": is a directory (optimizable reads trace files; a directory of rank "
                     "traces is read by: table, stacks, ") != std::string::npos);
  CHECK(dir.err.find("optimizable,") == std::string::npos);
}

TEST_CASE("help shows FILE... and every input format of the importer table", "[cli]") {
  std::string top = Run({"--help"}).out;
  for (const ImporterInfo& info : Importers())
    CHECK(top.find(info.description) != std::string::npos);
  CHECK(top.find("-q,--quiet") != std::string::npos);  // common options listed at the top
  std::string line = "Input formats: " + FormatsSummary() + ", recognised by content";
  int with_file = 0;
  for (const std::string& command : ListedCommands()) {
    INFO(command);
    std::string help = Run({command, "--help"}).out;
    CHECK(help.find("(1x)") == std::string::npos);
    CHECK(help.find("(2x)") == std::string::npos);
    if (command == "help" || command == "completion") continue;
    if (command == "merge") {  // reads summary files only: no trace formats, no trace filters
      CHECK(help.find("Usage: profana merge [OPTIONS] SUMMARY...\n") != std::string::npos);
      CHECK(help.find("Input formats") == std::string::npos);
      CHECK(help.find("--window") == std::string::npos);
      continue;
    }
    ++with_file;
    CHECK(help.find(line) != std::string::npos);
    // No command names formats by hand any more.
    CHECK(help.find("Chrome-trace JSON, plain or gzip)") == std::string::npos);
    CHECK(help.find("Kineto JSON or nvprof)") == std::string::npos);
  }
  CHECK(with_file == 18);  // every command but help, completion and merge
  std::string stacks = Run({"stacks", "--help"}).out;
  CHECK(stacks.find("Usage: profana stacks [OPTIONS] FILE...\n") != std::string::npos);
}

TEST_CASE("the version line names the version and the git commit", "[cli]") {
  test::CliRun r = Run({"--version"});
  CHECK(r.code == 0);
  // A 12-digit commit (maybe "-dirty"), or "unknown" outside a git checkout.
  CHECK(std::regex_match(r.out, std::regex("profana [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit "
                                           "([0-9a-f]{12}(-dirty)?|unknown)\\)\n")));
}

}  // namespace
}  // namespace profana

namespace profana {

TEST_CASE("every command that limits rows takes -n and --row-limit; --top and --limit stay",
          "[cli]") {
  // table: 3 rows, written four ways, print the same table (the header, 3 rows, the footer).
  std::string table = test::Run({"table", kTrace, "--row-limit", "3"}).out;
  CHECK(!table.empty());
  for (const char* option : {"-n", "--top", "--limit"})
    CHECK(test::Run({"table", kTrace, option, "3"}).out == table);
  CHECK(table != test::Run({"table", kTrace, "-n", "4"}).out);
  // optimizable: --top was its name (get_optimizable_events(length=N)).
  std::string two = test::Run({"optimizable", kTrace, "--top", "2"}).out;
  CHECK(test::Run({"optimizable", kTrace, "-n", "2"}).out == two);
  CHECK(test::Run({"optimizable", kTrace, "--row-limit", "2"}).out == two);
  auto zero = test::Run({"optimizable", kTrace, "-n", "0"});
  CHECK(zero.code == 2);
  CHECK(zero.err == "profana: error: --row-limit 0: expected a whole number, 1 or more\n");
  // Aliases are hidden: --help shows the one name.
  for (const char* command : {"table", "diff", "kernels", "memory", "optimizable"}) {
    INFO(command);
    std::string help = test::Run({command, "--help"}).out;
    CHECK(help.find("-n,--row-limit") != std::string::npos);
    CHECK(help.find("  --top ") == std::string::npos);
    CHECK(help.find("  --limit ") == std::string::npos);
  }
}

}  // namespace profana
