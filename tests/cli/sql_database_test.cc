// The database of `profana convert -o trace.sqlite` and `profana sql` checked against the other
// commands on the same traces: key_averages by SQL equals `profana table`'s rows (every column,
// in the same order), the rows per table equal `info`'s counts per kind, and PyTorch's own count
// of FunctionEvents (the oracle sessions' index) is the function_event view's.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "simdjson.h"
#include "test_util.h"

using profana::test::ReadFile;
using profana::test::Run;
using profana::test::TestData;

namespace {

// Traces of every importer kind that holds host ops: CPU-only oracle sessions, GPU sessions of
// PyTorch 2.x (live H100 and the pytorch2 corpus), a ROCm trace and an Nsight Systems database.
const std::vector<std::string>& Traces() {
  static const std::vector<std::string> traces = {
      TestData("oracle/cnn_train/memory/trace.json"),
      TestData("oracle/lstm_forward/all/trace.kineto_like.json"),
      TestData("oracle/nested_labels/all/trace.json"),
      TestData("live/gpt_train/all/trace.json.gz"),
      TestData("live/cnn_memory/memory/trace.json.gz"),
      TestData("live/multistream/plain/trace.json.gz"),
      TestData(
          "traces/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz"),
      TestData("traces/tracelens/perf_model/normalization/normalization_layer_test.json.gz"),
      TestData("traces/nsys/fuser-matmul/report1.sqlite.gz"),
      TestData("traces/rocpd/rocmprofiledata/matmul_result.rpd.gz"),
  };
  return traces;
}

// Micros as the JSON reports write them, back to nanoseconds (they are exact: ns / 1000 with at
// most three decimals).
int64_t Nanos(simdjson::dom::element us) {
  double v = us.is_int64() ? static_cast<double>(int64_t(us)) : double(us);
  return static_cast<int64_t>(v * 1000 + (v < 0 ? -0.5 : 0.5));
}

simdjson::dom::element Sql(simdjson::dom::parser& parser, const std::string& input,
                           const std::string& query, std::string* keep) {
  profana::test::CliRun r = Run({"sql", input, query, "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  *keep = r.out;
  return parser.parse(*keep);
}

// The one row of a query that returns one.
simdjson::dom::array SqlRow(simdjson::dom::parser& parser, const std::string& input,
                            const std::string& query, std::string* keep) {
  simdjson::dom::array rows = Sql(parser, input, query, keep)["rows"];
  REQUIRE(rows.size() == 1);
  return rows.at(0);
}

}  // namespace

TEST_CASE("key_averages by SQL is profana table's rows", "[sql]") {
  for (const std::string& trace : Traces()) {
    INFO(trace);
    profana::test::CliRun table = Run({"table", trace, "-n", "-1", "--format", "json"});
    REQUIRE(table.code == 0);
    simdjson::dom::parser tp, sp;
    simdjson::dom::array expected = tp.parse(table.out)["rows"];
    std::string keep;
    simdjson::dom::array rows =
        Sql(sp, trace,
            "SELECT name, device_type, count, self_cpu_ns, cpu_total_ns, self_device_ns, "
            "device_total_ns, cpu_memory, self_cpu_memory, device_memory, self_device_memory "
            "FROM key_averages",
            &keep)["rows"];
    REQUIRE(rows.size() == expected.size());
    REQUIRE(rows.size() > 0);
    size_t i = 0;
    for (simdjson::dom::element want : expected) {
      simdjson::dom::array got = rows.at(i++);
      INFO("row " << i << ": " << std::string_view(want["name"]));
      CHECK(std::string_view(got.at(0)) == std::string_view(want["name"]));
      CHECK(std::string_view(got.at(1)) == std::string_view(want["device_type"]));
      CHECK(int64_t(got.at(2)) == int64_t(want["count"]));
      CHECK(int64_t(got.at(3)) == Nanos(want["self_cpu_time_total_us"]));
      CHECK(int64_t(got.at(4)) == Nanos(want["cpu_time_total_us"]));
      CHECK(int64_t(got.at(5)) == Nanos(want["self_cuda_time_total_us"]));
      CHECK(int64_t(got.at(6)) == Nanos(want["cuda_time_total_us"]));
      CHECK(int64_t(got.at(7)) == int64_t(want["cpu_memory_usage"]));
      CHECK(int64_t(got.at(8)) == int64_t(want["self_cpu_memory_usage"]));
      CHECK(int64_t(got.at(9)) == int64_t(want["cuda_memory_usage"]));
      CHECK(int64_t(got.at(10)) == int64_t(want["self_cuda_memory_usage"]));
    }
  }
}

// The tables are written as SQLite pages by profana itself (sql_page_file.h): SQLite's own check
// of every page, B-tree, index entry and NOT NULL column passes on each trace's database.
TEST_CASE("every trace's database passes SQLite's integrity check", "[sql]") {
  for (const std::string& trace : Traces()) {
    INFO(trace);
    simdjson::dom::parser parser;
    std::string keep;
    simdjson::dom::array row = SqlRow(parser, trace, "PRAGMA integrity_check", &keep);
    CHECK(std::string_view(row.at(0)) == "ok");
  }
}

TEST_CASE("rows per table are info's counts per kind", "[sql]") {
  for (const std::string& trace : Traces()) {
    INFO(trace);
    profana::test::CliRun info = Run({"info", trace, "--format", "json"});
    REQUIRE(info.code == 0);
    simdjson::dom::parser ip, sp;
    simdjson::dom::element want = ip.parse(info.out);
    std::map<std::string, int64_t> by_kind;
    for (auto [kind, n] : simdjson::dom::object(want["by_kind"]))
      by_kind[std::string(kind)] = int64_t(n);
    std::string keep;
    simdjson::dom::array rows =
        Sql(sp, trace,
            "SELECT kind, COUNT(*) FROM (SELECT kind FROM op WHERE kind <> 'memory' "
            "UNION ALL SELECT kind FROM runtime UNION ALL SELECT 'kernel' FROM kernel "
            "UNION ALL SELECT kind FROM copy UNION ALL SELECT kind FROM device_range) "
            "GROUP BY kind",
            &keep)["rows"];
    std::map<std::string, int64_t> got;
    for (simdjson::dom::array row : rows) got[std::string(row.at(0))] = int64_t(row.at(1));
    CHECK(got == by_kind);

    std::string keep2;
    simdjson::dom::array c = SqlRow(
        sp, trace, "SELECT (SELECT COUNT(*) FROM function_event), (SELECT COUNT(*) FROM memory)",
        &keep2);
    CHECK(int64_t(c.at(0)) == int64_t(want["function_events"]));
    CHECK(int64_t(c.at(1)) == int64_t(want["memory_events"]));
  }
}

TEST_CASE("the function_event view counts PyTorch's FunctionEvents", "[sql]") {
  // testdata/oracle/index.json: len(prof.function_events) of each session, as PyTorch counted.
  simdjson::dom::parser ip;
  simdjson::dom::element index = ip.load(TestData("oracle/index.json"));
  std::map<std::string, int64_t> want;
  for (simdjson::dom::element s : simdjson::dom::array(index["sessions"]))
    want[std::string(std::string_view(s["session"]))] = int64_t(s["num_function_events"]);
  for (const char* session : {"cnn_train/all", "lstm_forward/memory", "nested_labels/shapes"}) {
    INFO(session);
    // The Kineto-like file: it keeps the [memory] records, which are FunctionEvents too.
    std::string trace = TestData(std::string("oracle/") + session + "/trace.kineto_like.json");
    simdjson::dom::parser sp;
    std::string keep;
    simdjson::dom::array row = SqlRow(sp, trace, "SELECT COUNT(*) FROM function_event", &keep);
    CHECK(int64_t(row.at(0)) == want.at(session));
  }
}

TEST_CASE("a database convert wrote answers as the trace does, and opens read-only", "[sql]") {
  std::string trace = TestData("live/gpt_train/all/trace.json.gz");
  std::string db = (std::filesystem::temp_directory_path() /
                    ("profana-sql-" + std::to_string(::getpid()) + ".sqlite"))
                       .string();
  profana::test::CliRun conv = Run({"convert", trace, "-o", db});
  INFO(conv.err);
  REQUIRE(conv.code == 0);
  const char* query =
      "SELECT short_name, COUNT(*), SUM(dur_ns) FROM kernel GROUP BY short_name "
      "ORDER BY SUM(dur_ns) DESC, short_name LIMIT 5";
  profana::test::CliRun from_db = Run({"sql", db, query, "--format", "csv"});
  profana::test::CliRun from_trace = Run({"sql", trace, query, "--format", "csv"});
  REQUIRE(from_db.code == 0);
  CHECK(from_db.out == from_trace.out);
  CHECK(from_db.out.find("short_name") == 0);
  // Other commands read traces; they name the command that reads the database.
  profana::test::CliRun table = Run({"table", db});
  CHECK(table.code == 2);
  CHECK(table.err.find("a database profana wrote (docs/sql.md), not a trace: query it with "
                       "profana sql") != std::string::npos);
  // A query never changes the file.
  profana::test::CliRun write = Run({"sql", db, "DELETE FROM kernel"});
  CHECK(write.code == 2);
  profana::test::CliRun two = Run({"sql", db, "SELECT 1; SELECT 2"});
  CHECK(two.code == 2);
  CHECK(two.err.find("one statement") != std::string::npos);
  profana::test::CliRun bad = Run({"sql", db, "SELECT nope FROM kernel"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("no such column: nope") != std::string::npos);
  std::remove(db.c_str());
}

TEST_CASE("sql and convert to a database refuse what they cannot do, exit 2 with the reason",
          "[sql]") {
  std::string trace = TestData("job/two_ranks/rank0.json");
  profana::test::CliRun to_stdout = Run({"convert", trace, "--to", "sqlite"});
  CHECK(to_stdout.code == 2);
  CHECK(to_stdout.err.find("-o FILE.sqlite") != std::string::npos);
  profana::test::CliRun no_query = Run({"sql", trace});
  CHECK(no_query.code == 2);
  profana::test::CliRun broken = Run({"sql", TestData("bad/syntax_error.json"), "SELECT 1"});
  CHECK(broken.code == 2);
  CHECK(broken.err.find("syntax_error.json: byte 393") != std::string::npos);
  profana::test::CliRun twice = Run({"sql", trace, trace, "SELECT 1"});
  CHECK(twice.code == 2);
  CHECK(twice.err.find("rank 0 is in the database already") != std::string::npos);
  profana::test::CliRun not_json = Run({"convert", trace, "-o", "/tmp/x.pfa", "--annotate"});
  CHECK(not_json.code == 2);
  CHECK(not_json.err.find("--annotate writes a Chrome trace") != std::string::npos);
}

TEST_CASE("a job's directory is one database: step and step_device are profana steps' rows",
          "[sql]") {
  std::string job = TestData("job/two_ranks");
  profana::test::CliRun steps = Run({"steps", job, "--format", "json"});
  REQUIRE(steps.code == 0);
  simdjson::dom::parser tp, sp;
  simdjson::dom::array expected = tp.parse(steps.out)["steps"];
  std::string keep;
  simdjson::dom::array rows =
      Sql(sp, job,
          "SELECT s.rank, s.step, d.device, s.dur_ns, d.compute_ns, d.comm_exposed_ns, "
          "d.memory_exposed_ns, d.idle_ns, d.comm_ns, d.comm_hidden_ns, s.host_ns, "
          "s.host_untraced_ns, s.host_dataloader_ns, s.host_optimizer_ns, s.host_sync_ns "
          "FROM step s JOIN step_device d USING (rank, step) ORDER BY s.rank, s.step, d.device",
          &keep)["rows"];
  REQUIRE(expected.size() == 4);
  REQUIRE(rows.size() == expected.size());
  const char* keys[] = {"rank",
                        "step",
                        "device",
                        "wall",
                        "compute",
                        "comm_exposed",
                        "memory_exposed",
                        "idle",
                        "comm",
                        "comm_hidden",
                        "host",
                        "host_untraced",
                        "host_dataloader",
                        "host_optimizer",
                        "host_sync"};
  size_t i = 0;
  for (simdjson::dom::element want : expected) {
    simdjson::dom::array got = rows.at(i++);
    for (size_t k = 0; k < 15; ++k) {
      INFO("row " << i << " " << keys[k]);
      int64_t w = k < 3 ? int64_t(want[keys[k]]) : Nanos(want[keys[k]]);
      CHECK(int64_t(got.at(k)) == w);
    }
  }
  // One rank's file from the directory as its rank: the header's rank 0, the file name's 1.
  std::string ranks;
  simdjson::dom::array files =
      Sql(sp, job, "SELECT rank, file FROM rank ORDER BY rank", &ranks)["rows"];
  REQUIRE(files.size() == 2);
  CHECK(std::string_view(simdjson::dom::array(files.at(1)).at(1)).find("worker1.json") !=
        std::string_view::npos);
}

TEST_CASE("docs/sql.md names every table, view and column of the schema", "[sql]") {
  std::string doc = ReadFile(TestData("../docs/sql.md"));
  simdjson::dom::parser sp;
  std::string keep;
  simdjson::dom::array rows =
      Sql(sp, TestData("live/mlp_train/all/trace.json.gz"),
          "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
          "WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid",
          &keep)["rows"];
  REQUIRE(rows.size() > 200);
  for (simdjson::dom::array row : rows) {
    std::string table(std::string_view(row.at(0))), column(std::string_view(row.at(1)));
    INFO(table << "." << column);
    CHECK(doc.find("`" + table + "`") != std::string::npos);
    CHECK(doc.find("`" + column + "`") != std::string::npos);
  }
}

TEST_CASE("convert --annotate: the analyses as tracks, the critical path marked, the rest kept",
          "[sql][overlay]") {
  std::string trace = TestData("live/mlp_train/all/trace.json.gz");
  std::string base =
      (std::filesystem::temp_directory_path() / ("profana-overlay-" + std::to_string(::getpid())))
          .string();
  std::string annotated = base + ".annotated.json", overlay = base + ".overlay.json";
  profana::test::CliRun conv = Run({"convert", trace, "-o", annotated, "--annotate", "-q"});
  INFO(conv.err);
  REQUIRE(conv.code == 0);
  REQUIRE(Run({"critical-path", trace, "--overlay", overlay, "-q"}).code == 0);
  simdjson::dom::parser ap, op, sp;
  simdjson::dom::array events = ap.load(annotated)["traceEvents"];
  simdjson::dom::array overlay_events = op.load(overlay)["traceEvents"];
  std::map<std::string, int64_t> added;   // ph and cat (or counter or rule name) of the tracks
  std::map<std::string, int64_t> saving;  // each finding's, in its instant's args
  int64_t critical = 0, critical_in_overlay = 0;
  for (simdjson::dom::object e : events) {
    int64_t pid = 0;
    if (e["pid"].get(pid) == simdjson::SUCCESS && pid == 999'999'999) {
      std::string_view ph = e["ph"], what;
      // Trace Event Format: every event has ph, pid, tid; all but metadata a ts; a complete
      // event a dur; a counter numeric args; an instant a scope.
      CHECK((ph == "X" || ph == "C" || ph == "i" || ph == "M"));
      CHECK(e["tid"].is_int64());
      if (ph != "M") CHECK(e["ts"].is_number());
      if (ph == "X") CHECK(double(e["dur"]) >= 0);
      if (ph == "C")
        for (auto [k, v] : simdjson::dom::object(e["args"])) CHECK(v.is_int64());
      if (ph == "i") CHECK(std::string_view(e["s"]) == "t");
      if (ph == "X") what = e["cat"];
      if (ph == "C" || ph == "i") what = e["name"];
      if (ph == "i") saving[std::string(what)] = Nanos(e["args"]["saving_us"]);
      ++added[std::string(ph) + " " + std::string(what)];
    }
    int64_t c = 0;
    if (e["args"]["critical"].get(c) == simdjson::SUCCESS && c == 1) ++critical;
  }
  for (simdjson::dom::object e : overlay_events) {
    int64_t c = 0;
    if (e["args"]["critical"].get(c) == simdjson::SUCCESS && c == 1) ++critical_in_overlay;
  }
  // The same trace as a database: the tracks hold its rows.
  std::string keep;
  simdjson::dom::array counts =
      SqlRow(sp, trace,
             "SELECT (SELECT COUNT(*) FROM step), (SELECT COUNT(*) FROM idle_interval), "
             "(SELECT COUNT(*) FROM queue_depth), (SELECT COUNT(*) FROM memory)",
             &keep);
  CHECK(int64_t(counts.at(0)) == 2);
  CHECK(added["X profana_step"] == 2);
  CHECK(added["X profana_idle"] == int64_t(counts.at(1)));
  CHECK(added["C queue depth GPU 0 stream 7"] == int64_t(counts.at(2)));
  CHECK(added["C memory device 1.0 allocated"] == int64_t(counts.at(3)));
  CHECK(added["C memory device 1.0 reserved"] == int64_t(counts.at(3)));
  CHECK(added["M "] == 4);  // the process and three thread names
  // Each advise finding is an instant with its saving: profana advise's.
  simdjson::dom::parser vp;
  profana::test::CliRun advise = Run({"advise", trace, "--format", "json", "-q"});
  REQUIRE(advise.code == 0);
  std::map<std::string, int64_t> advised;
  for (simdjson::dom::element f : simdjson::dom::array(vp.parse(advise.out)["findings"]))
    advised[std::string(std::string_view(f["rule"]))] = Nanos(f["saving"]);
  CHECK(advised.size() == 3);  // gpu-idle, launch-bound, fp32-matmul (an fp32 run)
  CHECK(saving == advised);
  // The critical path is marked as critical-path --overlay marks it, and every event of that
  // overlay (the trace's own, every field kept) is here too.
  CHECK(critical > 0);
  CHECK(critical == critical_in_overlay);
  int64_t ours = 0;
  for (auto& [k, v] : added) ours += v;
  CHECK(int64_t(events.size()) == int64_t(overlay_events.size()) + ours);
  // Round trip: the annotated trace's table is the trace's.
  profana::test::CliRun t1 = Run({"table", trace, "-q"});
  profana::test::CliRun t2 = Run({"table", annotated, "-q"});
  CHECK(t1.out == t2.out);
  std::remove(annotated.c_str());
  std::remove(overlay.c_str());
}

TEST_CASE("kernels' launch configuration, copies' sizes and ops' FLOPs are columns", "[sql]") {
  // mlp_train/all as Kineto wrote it: 60 kernels, each with its grid (2038 blocks in all) and
  // registers per thread (2548 in all); two 16-byte memsets of device memory with their recorded
  // bandwidth; aten::addmm's "Input type" as written.
  std::string mlp = TestData("live/mlp_train/all/trace.json.gz");
  simdjson::dom::parser parser;
  std::string keep;
  simdjson::dom::array k = SqlRow(parser, mlp,
                                  "SELECT COUNT(*), COUNT(grid_x), SUM(grid_x * grid_y * grid_z), "
                                  "SUM(registers), COUNT(flops) FROM kernel",
                                  &keep);
  CHECK(int64_t(k.at(0)) == 60);
  CHECK(int64_t(k.at(1)) == 60);
  CHECK(int64_t(k.at(2)) == 2038);
  CHECK(int64_t(k.at(3)) == 2548);
  CHECK(int64_t(k.at(4)) == 0);
  simdjson::dom::array c = SqlRow(parser, mlp,
                                  "SELECT COUNT(*), SUM(bytes), MIN(dst_memory), COUNT(copy_kind), "
                                  "MIN(bandwidth_gbps) FROM copy WHERE kind = 'memset'",
                                  &keep);
  CHECK(int64_t(c.at(0)) == 2);
  CHECK(int64_t(c.at(1)) == 32);
  CHECK(std::string_view(c.at(2)) == "Device");
  CHECK(int64_t(c.at(3)) == 0);
  CHECK(double(c.at(4)) == 0.021739130434782608);
  simdjson::dom::array o =
      SqlRow(parser, mlp, "SELECT input_types FROM op WHERE name = 'aten::addmm' LIMIT 1", &keep);
  CHECK(std::string_view(o.at(0)) == R"(["float", "float", "float", "Scalar", "Scalar"])");
  // flops_zoo: op.flops summed per name is PyTorch's Total KFLOPs (table_flops.txt), and NULL for
  // the ops it counts none for.
  std::string zoo = TestData("live/flops_zoo/flops/trace.json.gz");
  simdjson::dom::array f = SqlRow(parser, zoo,
                                  "SELECT SUM(flops) FILTER (WHERE name = 'aten::conv2d'), "
                                  "SUM(flops) FILTER (WHERE name = 'aten::addmm'), "
                                  "COUNT(flops) FILTER (WHERE name = 'aten::convolution') FROM op",
                                  &keep);
  CHECK(int64_t(f.at(0)) == 37748736);
  CHECK(int64_t(f.at(1)) == 11534336);
  CHECK(int64_t(f.at(2)) == 0);
}
