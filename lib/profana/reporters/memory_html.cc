#include "profana/reporters/memory_html.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"
#include "profana/reporters/assets.h"
#include "profana/reporters/json_writer.h"
#include "profana/reporters/memory_reporter.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/terminal_text.h"

namespace profana::report {
namespace {

// The reference's _CATEGORY_TO_COLORS, in category order (drawn bottom to top), alpha 0.7.
const char* const kColors[passes::kMemoryCategories] = {"#006400", "#daa520", "#000000", "#9370db",
                                                        "#ff0000", "#0000cd", "#4169e1", "#808080"};

constexpr double kWidth = 1200, kHeight = 720;
constexpr double kLeft = 90, kRight = 40, kTop = 130, kBottom = 70;
constexpr double kPlotWidth = kWidth - kLeft - kRight, kPlotHeight = kHeight - kTop - kBottom;
constexpr size_t kMaxColumns = 2400;  // more rows than pixels: keep each column's highest row
constexpr double kMsPerUs = 1e3;      // the x axis is in milliseconds

// Text for HTML; control characters shown visibly.
std::string Escape(std::string_view s) {
  std::string out;
  for (char c : Printable(s)) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A "nice" step (1, 2 or 5 times a power of ten) giving about `ticks` intervals over span.
double NiceStep(double span, int ticks) {
  if (span <= 0) return 1;
  double raw = span / ticks, p = std::pow(10, std::floor(std::log10(raw)));
  double m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

std::string Num(double v) { return fmt::format("{:.1f}", v); }

// The plot's coordinates: times in microseconds from the origin on x, bytes on y.
struct Plot {
  explicit Plot(const passes::CoalescedTimeline& tl) : timeline(tl) {}

  const passes::CoalescedTimeline& timeline;
  double t0 = 0;                 // the origin, in the timeline's microseconds
  double x_min = 0, x_max = 1;   // the span drawn, relative to t0
  std::vector<size_t> rows;      // the timeline rows drawn, in time order
  const char* unit = "B";        // of the y axis
  double scale = 1;              // bytes per unit
  double y_top = 1, y_step = 1;  // in units

  double X(double us) const { return kLeft + (us - x_min) / (x_max - x_min) * kPlotWidth; }
  double Y(double bytes) const { return kTop + kPlotHeight - bytes / scale / y_top * kPlotHeight; }
  int64_t Total(size_t row) const {
    int64_t sum = 0;
    for (int c = 1; c <= passes::kMemoryCategories; ++c) sum = SatAdd(sum, timeline.sizes[row][c]);
    return sum;
  }
};

// All rows, or per pixel column the row with the highest total (keeps the peaks), and a y axis
// that holds the highest of them and the device's peak.
Plot MakePlot(const passes::CoalescedTimeline& tl, int64_t peak_bytes, int64_t origin_ns) {
  Plot p(tl);
  size_t n = tl.times_us.size();
  p.t0 = static_cast<double>(origin_ns) / 1e3;
  p.x_min = n ? tl.times_us.front() - p.t0 : 0;
  p.x_max = n ? tl.times_us.back() - p.t0 : 1;
  if (p.x_max <= p.x_min) p.x_max = p.x_min + 1;
  if (n <= kMaxColumns) {
    for (size_t i = 0; i < n; ++i) p.rows.push_back(i);
  } else {
    int64_t bucket = -1;
    for (size_t i = 0; i < n; ++i) {
      int64_t b = static_cast<int64_t>((tl.times_us[i] - p.t0 - p.x_min) / (p.x_max - p.x_min) *
                                       (kMaxColumns - 1));
      if (b != bucket)
        p.rows.push_back(i), bucket = b;
      else if (p.Total(i) > p.Total(p.rows.back()))
        p.rows.back() = i;
    }
  }
  int64_t y_peak = std::max<int64_t>(1, peak_bytes);
  for (size_t i : p.rows) y_peak = std::max(y_peak, p.Total(i));
  p.unit = y_peak >= (1LL << 30)   ? "GiB"
           : y_peak >= (1LL << 20) ? "MiB"
           : y_peak >= 1024        ? "KiB"
                                   : "B";
  p.scale = y_peak >= (1LL << 30)   ? 1073741824.0
            : y_peak >= (1LL << 20) ? 1048576.0
            : y_peak >= 1024        ? 1024.0
                                    : 1;
  p.y_top = y_peak / p.scale * 1.08;
  p.y_step = NiceStep(p.y_top, 6);
  p.y_top = std::ceil(p.y_top / p.y_step) * p.y_step;
  return p;
}

// Stacked areas as step functions: the level holds from one time to the next.
std::string Areas(const Plot& p) {
  const passes::CoalescedTimeline& tl = p.timeline;
  std::string svg;
  for (int c = 0; c < passes::kMemoryCategories; ++c) {
    bool any = false;
    for (size_t i : p.rows) any |= tl.sizes[i][c + 1] != 0;
    if (!any) continue;
    std::string upper, lower;
    for (size_t k = 0; k < p.rows.size(); ++k) {
      size_t i = p.rows[k];
      int64_t below = 0;
      for (int b = 0; b < c; ++b) below = SatAdd(below, tl.sizes[i][b + 1]);
      int64_t above = SatAdd(below, tl.sizes[i][c + 1]);
      double x1 = p.X(tl.times_us[i] - p.t0);
      double x2 = k + 1 < p.rows.size() ? p.X(tl.times_us[p.rows[k + 1]] - p.t0) : p.X(p.x_max);
      upper += fmt::format("{}{},{} {},{}", upper.empty() ? "M" : " L", Num(x1), Num(p.Y(above)),
                           Num(x2), Num(p.Y(above)));
      lower =
          fmt::format(" L{},{} {},{}", Num(x2), Num(p.Y(below)), Num(x1), Num(p.Y(below))) + lower;
    }
    svg += fmt::format(
        "<path class=\"area\" d=\"{}{} Z\" fill=\"{}\" "
        "fill-opacity=\"0.7\"><title>{}</title></path>\n",
        upper, lower, kColors[c],
        passes::MemoryCategoryName(static_cast<passes::MemoryCategory>(c)));
  }
  return svg;
}

// Axes, grid and tick labels.
std::string Axes(const Plot& p) {
  std::string axes;
  double ph = kPlotHeight, pw = kPlotWidth;
  // Ticks by count, not by repeated addition: a step too small for the magnitude must still end.
  for (int i = 0; i <= 20 && i * p.y_step <= p.y_top + p.y_step / 2; ++i) {
    double v = i * p.y_step;
    double y = kTop + ph - v / p.y_top * ph;
    axes += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>"
        "<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{:g}</text>\n",
        kLeft, Num(y), kLeft + pw, Num(y), kLeft - 8, Num(y + 4), v);
  }
  double xs = NiceStep((p.x_max - p.x_min) / kMsPerUs, 8);
  double x_first = std::ceil(p.x_min / kMsPerUs / xs) * xs;
  for (int i = 0; i <= 20 && x_first + i * xs <= p.x_max / kMsPerUs + 1e-9; ++i) {
    double v = x_first + i * xs;
    double x = p.X(v * kMsPerUs);
    axes += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid xt\"/>"
        "<text x=\"{}\" y=\"{}\" class=\"tick xt\" text-anchor=\"middle\">{:g}</text>\n",
        Num(x), kTop, Num(x), kTop + ph, Num(x), kTop + ph + 18, v);
  }
  axes += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame\"/>\n",
                      kLeft, kTop, pw, ph);
  axes += fmt::format(
      "<text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"middle\">Time (ms)</text>\n",
      kLeft + pw / 2, kHeight - 22);
  axes += fmt::format(
      "<text x=\"24\" y=\"{}\" class=\"label\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 24 {})\">Memory ({})</text>\n",
      kTop + ph / 2, kTop + ph / 2, p.unit);
  return axes;
}

// The peak: a dashed line and a label naming the op.
std::string PeakMarker(const Plot& p, const Trace& trace, const passes::FunctionEventList& ev,
                       const passes::MemoryDeviceSummary& s, const passes::MemoryDeviceReport& r,
                       int64_t origin_ns) {
  if (s.peak_pos < 0) return "";
  double px = p.X(static_cast<double>(r.peak_ts_ns / 1000) - p.t0),
         py = p.Y(static_cast<double>(s.plotted_peak_bytes()));
  std::string op = r.peak_op ? std::string(trace.str(ev.name[r.peak_op->value])) : "no op";
  if (op.size() > 60) op = op.substr(0, 57) + "...";
  bool right = px < kLeft + kPlotWidth * 0.6;
  return fmt::format(
      "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"peak\"/>"
      "<circle cx=\"{0}\" cy=\"{1}\" r=\"5\" class=\"peakdot\"/>"
      "<text x=\"{3}\" y=\"{4}\" class=\"peaklabel\" text-anchor=\"{5}\">peak {6} at {7:.3f} ms: "
      "{8}</text>\n",
      Num(px), Num(py), kTop + kPlotHeight, Num(px + (right ? 10 : -10)),
      Num(std::max(kTop + 14, py - 8)), right ? "start" : "end",
      FormatBytes(s.plotted_peak_bytes()), (r.peak_ts_ns - origin_ns) / 1e6, Escape(op));
}

// The categories the plot draws (an area), in the reference's order, as its figure legend.
std::string Legend(const Plot& p) {
  std::string legend;
  double lx = kLeft;
  for (int c = 0; c < passes::kMemoryCategories; ++c) {
    bool any = false;
    for (size_t i : p.rows) any |= p.timeline.sizes[i][c + 1] != 0;
    if (!any) continue;
    std::string name = passes::MemoryCategoryName(static_cast<passes::MemoryCategory>(c));
    legend += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" fill-opacity=\"0.7\"/>"
        "<text x=\"{}\" y=\"{}\" class=\"legend\">{}</text>\n",
        Num(lx), kTop - 24, kColors[c], Num(lx + 19), kTop - 13, name);
    lx += 34 + name.size() * 9.0;  // 13px capitals are about 9px wide
  }
  return legend;
}

// Title lines as the reference's: max allocated, max reserved (the allocator's when recorded),
// and what the plot leaves out, so the axis and the title lines agree.
std::string TitleLines(const std::string& title, const std::string& device,
                       const passes::MemoryDeviceSummary& s) {
  int64_t max_alloc =
      s.max_total_allocated != kNoId ? s.max_total_allocated : s.plotted_peak_bytes();
  // The reference's GiB with two decimals; small values also in a unit that shows them.
  auto gib = [](int64_t bytes) {
    std::string text = fmt::format("{:.2f} GiB", bytes / 1073741824.0);
    return bytes > 0 && bytes < (int64_t{10} << 20) ? text + " (" + FormatBytes(bytes) + ")" : text;
  };
  // The allocator's total counts memory allocated before the trace; the plot (and its peak
  // marker) only what the trace allocates: when they differ, both are given, labelled.
  std::string plotted = max_alloc != s.plotted_peak_bytes()
                            ? fmt::format(", the allocator's total; plotted peak: {}",
                                          FormatBytes(s.plotted_peak_bytes()))
                            : std::string();
  std::string reserved =
      s.max_total_reserved != kNoId ? gib(s.max_total_reserved) : std::string("not recorded");
  std::string out = fmt::format(
      "<text x=\"{0}\" y=\"30\" class=\"title\" text-anchor=\"middle\">{1} ({2})</text>"
      "<text x=\"{0}\" y=\"56\" class=\"subtitle\" text-anchor=\"middle\">Max memory allocated: "
      "{3}{5}</text>"
      "<text x=\"{0}\" y=\"78\" class=\"subtitle\" text-anchor=\"middle\">Max memory reserved: "
      "{4}</text>\n",
      kWidth / 2, Escape(title), Escape(device), gib(max_alloc), reserved, plotted);
  int64_t before = std::max<int64_t>(0, s.before_trace.unidentified);
  std::string plotted_what = s.before_trace.identified() > 0
                                 ? "memory the trace allocates or frees, and the parameters and "
                                   "optimizer state from before it"
                                 : "memory the trace allocates or frees";
  std::string note = before > 0
                         ? fmt::format(
                               "Plotted: {}; {} more was allocated before the trace and is not "
                               "identified",
                               plotted_what, FormatBytes(before))
                         : "Plotted: " + plotted_what;
  out += fmt::format("<text x=\"{}\" y=\"98\" class=\"note\" text-anchor=\"middle\">{}</text>\n",
                     kWidth / 2, Escape(note));
  return out;
}

// The data of the hover readout (assets/memory_timeline.js): the drawn rows, times in ms and
// per-category bytes, and the plot's geometry.
std::string HoverData(const Plot& p) {
  std::string data;
  JsonWriter w(&data, false);
  w.BeginArray();
  for (size_t i : p.rows) {
    w.BeginArray().Double((p.timeline.times_us[i] - p.t0) / kMsPerUs);
    for (int c = 1; c <= passes::kMemoryCategories; ++c) w.Int(p.timeline.sizes[i][c]);
    w.EndArray();
  }
  w.EndArray();
  return fmt::format(
      "{{rows:{},names:{},L:{},W:{},X0:{},X1:{},T:{},PH:{},unit:\"{}\",scale:{}}}", data,
      "[\"PARAMETER\",\"OPTIMIZER_STATE\",\"INPUT\",\"TEMPORARY\",\"ACTIVATION\",\"GRADIENT\","
      "\"AUTOGRAD_DETAIL\",\"Unknown\"]",
      kLeft, kPlotWidth, p.x_min / kMsPerUs, p.x_max / kMsPerUs, kTop, kPlotHeight, p.unit,
      p.scale);
}

// One device's plot in its own block (hidden unless `shown`), with the script call that wires
// its hover readout and zoom.
std::string DevicePlot(const Trace& trace, const passes::FunctionEventList& ev,
                       const passes::MemoryTimeline& t, const passes::MemoryDeviceView& view,
                       const MemoryHtmlOptions& o, bool shown) {
  const passes::MemoryDeviceSummary& s = t.summary[view.device];
  const std::string& device = t.devices[view.device].name;
  Plot plot = MakePlot(view.timeline, s.plotted_peak_bytes(), o.origin_ns);
  std::string page = fmt::format("<div class=\"device\" data-device=\"{}\"{}>\n", Escape(device),
                                 shown ? "" : " style=\"display:none\"");
  page += fmt::format(
      "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" data-rows=\"{}\">\n",
      kWidth, kHeight, kWidth, kHeight, plot.rows.size());
  page += TitleLines(o.title, device, s) + Legend(plot) + Axes(plot) + Areas(plot) +
          PeakMarker(plot, trace, ev, s, view.report, o.origin_ns);
  page += fmt::format(
      "<line class=\"cursor\" x1=\"0\" y1=\"{}\" x2=\"0\" y2=\"{}\" visibility=\"hidden\"/>\n",
      kTop, kTop + kPlotHeight);
  // Drag across the plot to zoom into a time range; the button or Escape shows it all again.
  page += fmt::format(
      "<rect class=\"selection\" x=\"0\" y=\"{}\" width=\"0\" height=\"{}\" "
      "visibility=\"hidden\"/>\n<text class=\"unzoom\" x=\"{}\" y=\"{}\" text-anchor=\"end\" "
      "visibility=\"hidden\">Reset zoom</text>\n",
      kTop, kPlotHeight, kWidth - kRight, kHeight - 22);
  page += "</svg>\n<script>\nsetupPlot(document.currentScript.parentNode,";
  page += HoverData(plot);
  page += ");\n</script>\n</div>\n";
  return page;
}

}  // namespace

std::string FormatMemoryHtml(const Trace& trace, const passes::FunctionEventList& ev,
                             const passes::MemoryTimeline& t,
                             const std::vector<passes::MemoryDeviceView>& views,
                             const MemoryHtmlOptions& o) {
  const std::string& first = t.devices[views.front().device].name;
  std::string page =
      "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\" /><title>Memory Timeline: ";
  page += Escape(o.title) + " (" + Escape(first) + ")</title>\n<style>\n";
  page += assets::kMemoryTimelineCss;
  page += "</style>\n<script>\n";
  page += assets::kMemoryTimelineJs;
  page += "</script>\n</head>\n<body>\n<div id=\"readout\"></div>\n";
  if (views.size() > 1) {
    // Several devices: a selector shows one plot at a time.
    page += "<div class=\"picker\"><label>Device <select id=\"device\">";
    for (const passes::MemoryDeviceView& v : views)
      page += fmt::format("<option>{}</option>", Escape(t.devices[v.device].name));
    page += "</select></label></div>\n";
  }
  for (size_t i = 0; i < views.size(); ++i) page += DevicePlot(trace, ev, t, views[i], o, i == 0);
  page += "</body>\n</html>\n";
  return page;
}

}  // namespace profana::report
