#include "profana/reporters/collectives_reporter.h"

#include <algorithm>

#include "fmt/format.h"
#include "profana/job/rank_summary.h"
#include "profana/reporters/grid.h"
#include "profana/reporters/job_header.h"

namespace profana::report {
namespace {

using job::MatchedCollective;
using job::RankStraggling;

// The collectives to show: most total wait first, then the widest skew, then time order.
std::vector<const MatchedCollective*> Shown(const CollectivesReport& r) {
  std::vector<const MatchedCollective*> out;
  for (const MatchedCollective& c : r.result->collectives) out.push_back(&c);
  std::stable_sort(
      out.begin(), out.end(), [](const MatchedCollective* a, const MatchedCollective* b) {
        return a->wait_ns != b->wait_ns ? a->wait_ns > b->wait_ns : a->skew_ns > b->skew_ns;
      });
  if (r.row_limit >= 0 && static_cast<size_t>(r.row_limit) < out.size()) out.resize(r.row_limit);
  return out;
}

std::string OrDash(const std::string& s) { return s.empty() ? "-" : s; }
std::string Bandwidth(double gbps) { return gbps < 0 ? "-" : Fixed(gbps, 2); }

int64_t MaxWait(const MatchedCollective& c) {
  int64_t w = 0;
  for (const job::CollectiveRankTimes& t : c.ranks) w = std::max(w, t.wait_ns);
  return w;
}

Grid CollectivesGrid(const CollectivesReport& r, bool csv) {
  Grid g;
  if (csv)
    g.headers = {"collective",  "group",   "index",       "ranks", "last_rank",  "skew_us",
                 "transfer_us", "wait_us", "max_wait_us", "bytes", "algbw_gbps", "busbw_gbps"};
  else
    g.headers = {"Collective", "Group", "Index",    "Ranks", "Last",         "Skew",
                 "Transfer",   "Wait",  "Max wait", "Bytes", "algbw (GB/s)", "busbw (GB/s)"};
  g.left = {true, true};
  for (const MatchedCollective* c : Shown(r)) {
    std::string group = csv ? c->group : OrDash(c->group);
    std::string bytes = c->bytes < 0 ? (csv ? "" : "-") : SizeCell(c->bytes, csv);
    std::string alg = csv && c->algbw_gbps < 0 ? "" : Bandwidth(c->algbw_gbps);
    std::string bus = csv && c->busbw_gbps < 0 ? "" : Bandwidth(c->busbw_gbps);
    g.AddRow({c->label, group, fmt::format("{}", c->index), fmt::format("{}", c->ranks.size()),
              fmt::format("{}", c->last_rank), DurationCell(c->skew_ns, csv),
              DurationCell(c->transfer_ns, csv), DurationCell(c->wait_ns, csv),
              DurationCell(MaxWait(*c), csv), bytes, alg, bus});
  }
  return g;
}

std::string MeanStep(const RankStraggling& s, bool csv) {
  return s.steps == 0 ? "-"
                      : DurationCellUs(static_cast<double>(s.step_wall_ns) / s.steps / 1000.0, csv);
}

std::string Offset(const CollectivesReport& r, const RankStraggling& s, bool csv) {
  if (!r.result->align) return "-";
  if (s.clock_of >= 0)
    return fmt::format("{} (rank {}'s clock)", DurationCell(s.offset_ns, csv), s.clock_of);
  return s.aligned ? DurationCell(s.offset_ns, csv) : "none shared";
}

Grid StragglerGrid(const CollectivesReport& r, bool csv) {
  Grid g;
  if (csv)
    g.headers = {"rank",           "collectives",      "arrived_last",
                 "caused_wait_us", "suffered_wait_us", "mean_step_us",
                 "clock_offset_us"};
  else
    g.headers = {"Rank",          "Collectives", "Arrived last", "Caused wait",
                 "Suffered wait", "Mean step",   "Clock offset"};
  for (const RankStraggling& s : r.result->ranks) {
    // In CSV a rank without steps, or without an offset (--no-align, or no collective shared
    // with the reference rank), has an empty cell.
    std::string step = csv && s.steps == 0 ? "" : MeanStep(s, csv);
    std::string offset = csv && !(r.result->align && s.aligned) ? "" : Offset(r, s, csv);
    g.AddRow({fmt::format("{}", s.rank), fmt::format("{}", s.collectives),
              fmt::format("{}", s.arrived_last), DurationCell(s.wait_caused_ns, csv),
              DurationCell(s.wait_suffered_ns, csv), step, offset});
  }
  return g;
}

std::string Heading(const CollectivesReport& r) {
  const job::CollectivesResult& c = *r.result;
  return fmt::format("Collectives: {} matched on {} rank{} ({})", c.collectives.size(),
                     r.ranks.size(), r.ranks.size() == 1 ? "" : "s", job::FormatRankList(r.ranks));
}

// Why there is nothing to show, or an empty string.
std::string NothingText(const CollectivesReport& r) {
  if (r.calls == 0)
    return "No communication kernels (NCCL or RCCL) or gloo collectives in any rank: no "
           "collectives.\n";
  if (r.ranks.size() < 2)
    return "One rank: a collective is matched across two or more ranks; nothing to compare.\n";
  if (r.result->collectives.empty())
    return fmt::format("None of the {} communication kernels matches one on another rank.\n",
                       r.calls);
  return "";
}

std::string ClockText(const CollectivesReport& r) {
  if (!r.result->align) return "Clocks: each rank's own (--no-align).\n";
  return fmt::format(
      "Clocks: aligned on the ends of matched collectives; offsets against rank {} (the median "
      "difference of ends) are added to each rank's times.\n",
      r.result->reference_rank);
}

std::string Notes(const CollectivesReport& r) {
  std::string out;
  size_t shown = Shown(r).size();
  if (shown < r.result->collectives.size())
    out +=
        fmt::format("The {} of {} collectives with the most wait shown (--row-limit -1 for all).\n",
                    shown, r.result->collectives.size());
  if (r.result->unmatched_calls > 0)
    out += fmt::format("{} communication kernel{} matched none on another rank.\n",
                       r.result->unmatched_calls, r.result->unmatched_calls == 1 ? "" : "s");
  return out + ClockText(r);
}

}  // namespace

std::string FormatCollectivesText(const CollectivesReport& r) {
  std::string out = Heading(r) + "\n\n";
  if (std::string nothing = NothingText(r); !nothing.empty()) return out + nothing;
  out += CollectivesGrid(r, false).Text();
  out += "\nStragglers:\n";
  out += StragglerGrid(r, false).Text();
  out += "\n" + Notes(r);
  return out;
}

std::string FormatCollectivesMarkdown(const CollectivesReport& r) {
  std::string out = "### " + Heading(r) + "\n\n";
  if (std::string nothing = NothingText(r); !nothing.empty()) return out + nothing;
  out += CollectivesGrid(r, false).Markdown();
  out += "\n#### Stragglers\n\n";
  out += StragglerGrid(r, false).Markdown();
  out += "\n" + Notes(r);
  return out;
}

std::string FormatCollectivesCsv(const CollectivesReport& r) {
  return CollectivesGrid(r, true).Csv();
}

std::string FormatStragglersCsv(const CollectivesReport& r) { return StragglerGrid(r, true).Csv(); }

std::string FormatCollectivesJson(const CollectivesReport& r) {
  const job::CollectivesResult& res = *r.result;
  std::string out;
  JsonWriter w(&out);
  WriteJobHeader(w, "profana.collectives/1", r.inputs, r.ranks);
  w.Key("aligned").Bool(res.align);
  w.Key("reference_rank");
  res.align&& res.reference_rank >= 0 ? w.Int(res.reference_rank) : w.Null();
  w.Key("communication_kernels").Int(r.calls);
  w.Key("matched").Int(static_cast<int64_t>(res.collectives.size()));
  w.Key("unmatched_kernels").Int(res.unmatched_calls);
  w.Key("collectives").BeginArray();
  for (const MatchedCollective* c : Shown(r)) {
    w.BeginObject();
    w.Key("collective").String(c->label);
    w.Key("kind").String(job::CollectiveKindName(c->kind));
    w.Key("group");
    c->group.empty() ? w.Null() : w.String(c->group);
    w.Key("index").Int(c->index);
    w.Key("last_rank").Int(c->last_rank);
    w.Key("skew").Micros(c->skew_ns);
    w.Key("transfer").Micros(c->transfer_ns);
    w.Key("wait").Micros(c->wait_ns);
    w.Key("bytes");
    c->bytes < 0 ? w.Null() : w.Int(c->bytes);
    w.Key("group_size").Int(c->group_size);
    w.Key("algbw_gbps");
    c->algbw_gbps < 0 ? w.Null() : w.Double(c->algbw_gbps);
    w.Key("busbw_gbps");
    c->busbw_gbps < 0 ? w.Null() : w.Double(c->busbw_gbps);
    w.Key("per_rank").BeginArray();
    for (const job::CollectiveRankTimes& t : c->ranks) {
      w.BeginObject();
      w.Key("rank").Int(t.rank);
      w.Key("start").Micros(t.start_ns);
      w.Key("end").Micros(t.end_ns);
      w.Key("wait").Micros(t.wait_ns);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("stragglers").BeginArray();
  for (const RankStraggling& s : res.ranks) {
    w.BeginObject();
    w.Key("rank").Int(s.rank);
    w.Key("collectives").Int(s.collectives);
    w.Key("arrived_last").Int(s.arrived_last);
    w.Key("wait_caused").Micros(s.wait_caused_ns);
    w.Key("wait_suffered").Micros(s.wait_suffered_ns);
    w.Key("steps").Int(s.steps);
    w.Key("mean_step");
    s.steps == 0 ? w.Null() : w.Double(static_cast<double>(s.step_wall_ns) / s.steps / 1000.0);
    w.Key("clock_offset");
    res.align&& s.aligned ? w.Micros(s.offset_ns) : w.Null();
    w.Key("clock_of");
    res.align&& s.clock_of >= 0 ? w.Int(s.clock_of) : w.Null();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

std::string FormatCollectivesAs(OutputFormat format, const CollectivesReport& r, bool stragglers) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatCollectivesJson(r);
    case OutputFormat::kCsv:
      return stragglers ? FormatStragglersCsv(r) : FormatCollectivesCsv(r);
    case OutputFormat::kMarkdown:
      return FormatCollectivesMarkdown(r);
    default:
      return FormatCollectivesText(r);
  }
}

}  // namespace profana::report
