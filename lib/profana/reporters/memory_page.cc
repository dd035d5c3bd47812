#include "profana/reporters/memory_page.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"
#include "profana/base/int_sum.h"
#include "profana/base/json_writer.h"
#include "profana/reporters/assets.h"
#include "profana/reporters/markup_text.h"
#include "profana/reporters/number_format.h"

namespace profana::report {
namespace {

constexpr double kWidth = 1200, kHeight = 720;
constexpr double kLeft = 90, kRight = 40, kTop = 130, kBottom = 70;
constexpr double kPlotWidth = kWidth - kLeft - kRight, kPlotHeight = kHeight - kTop - kBottom;
constexpr size_t kMaxColumns = 2400;  // more rows than pixels: keep each column's highest row

// A "nice" step (1, 2 or 5 times a power of ten) giving about `ticks` intervals over span.
double NiceStep(double span, int ticks) {
  if (!(span > 0)) return 1;
  double raw = span / ticks, p = std::pow(10, std::floor(std::log10(raw)));
  double m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

// Digits after the point that show every multiple of a nice step exactly.
int Decimals(double step) {
  return std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
}

std::string Num(double v) { return fmt::format("{:.1f}", v); }

// The time axis's unit: the largest of us, ms and s in which the plot's end is at least 1, so
// labels have a few digits before the point (entries when the plot is not timed).
struct XUnit {
  const char* name;  // "ms"
  double ns;         // nanoseconds per unit
  const char* label;
};
XUnit UnitFor(const MemoryPlot& m, int64_t end_ns) {
  if (!m.timed) return {"", 1, "Entry"};
  if (end_ns >= 1000000000) return {"s", 1e9, "Time (s)"};
  if (end_ns >= 1000000) return {"ms", 1e6, "Time (ms)"};
  return {"us", 1e3, "Time (us)"};
}

int64_t RowTotal(const MemoryPlot& m, size_t row) {
  int64_t sum = 0;
  for (size_t k = 0; k < m.series.size(); ++k) sum = SatAdd(sum, m.value(row, k));
  return sum;
}

// The plot's coordinates: x in the time unit from the origin, bytes on y.
struct Plot {
  explicit Plot(const MemoryPlot& m) : data(m) {}

  const MemoryPlot& data;
  XUnit unit{"ms", 1e6, "Time (ms)"};
  double x_min = 0, x_max = 1;   // the span drawn, in the unit
  std::vector<size_t> rows;      // the rows drawn, in time order
  std::vector<bool> drawn;       // per series: non-zero somewhere
  const char* y_unit = "B";      // of the y axis
  double scale = 1;              // bytes per y unit
  double y_top = 1, y_step = 1;  // in y units

  double At(size_t row) const { return data.times_ns[row] / unit.ns; }
  double X(double v) const { return kLeft + (v - x_min) / (x_max - x_min) * kPlotWidth; }
  double Y(double bytes) const { return kTop + kPlotHeight - bytes / scale / y_top * kPlotHeight; }
};

// All rows, or per pixel column the row with the highest total (keeps the peaks), and a y axis
// that holds the highest of them and the peak.
Plot MakePlot(const MemoryPlot& m) {
  Plot p(m);
  size_t n = m.rows();
  p.unit = UnitFor(m, n ? m.times_ns.back() : 0);
  p.x_min = n ? p.At(0) : 0;
  p.x_max = n ? p.At(n - 1) : 1;
  if (p.x_max <= p.x_min) p.x_max = p.x_min + (m.timed ? 1e3 / p.unit.ns : 1);
  if (n <= kMaxColumns) {
    for (size_t i = 0; i < n; ++i) p.rows.push_back(i);
  } else {
    int64_t bucket = -1;
    for (size_t i = 0; i < n; ++i) {
      auto b = static_cast<int64_t>((p.At(i) - p.x_min) / (p.x_max - p.x_min) * (kMaxColumns - 1));
      if (b != bucket)
        p.rows.push_back(i), bucket = b;
      else if (RowTotal(m, i) > RowTotal(m, p.rows.back()))
        p.rows.back() = i;
    }
  }
  p.drawn.assign(m.series.size(), false);
  int64_t y_peak = std::max<int64_t>(1, m.has_peak ? m.peak_bytes : 0);
  for (size_t i : p.rows) {
    y_peak = std::max(y_peak, RowTotal(m, i));
    for (size_t k = 0; k < m.series.size(); ++k)
      if (m.value(i, k) != 0) p.drawn[k] = true;
  }
  const int64_t kKiB = 1024, kMiB = kKiB << 10, kGiB = kMiB << 10;
  p.y_unit = y_peak >= kGiB ? "GiB" : y_peak >= kMiB ? "MiB" : y_peak >= kKiB ? "KiB" : "B";
  p.scale = static_cast<double>(y_peak >= kGiB   ? kGiB
                                : y_peak >= kMiB ? kMiB
                                : y_peak >= kKiB ? kKiB
                                                 : 1);
  p.y_top = y_peak / p.scale * 1.08;
  p.y_step = NiceStep(p.y_top, 6);
  p.y_top = std::ceil(p.y_top / p.y_step) * p.y_step;
  return p;
}

// Stacked areas as step functions: the level holds from one row's time to the next.
std::string Areas(const Plot& p) {
  const MemoryPlot& m = p.data;
  std::string svg;
  for (size_t c = 0; c < m.series.size(); ++c) {
    if (!p.drawn[c]) continue;
    std::string upper, lower;
    for (size_t k = 0; k < p.rows.size(); ++k) {
      size_t i = p.rows[k];
      int64_t below = 0;
      for (size_t b = 0; b < c; ++b) below = SatAdd(below, m.value(i, b));
      int64_t above = SatAdd(below, m.value(i, c));
      double x1 = p.X(p.At(i));
      double x2 = k + 1 < p.rows.size() ? p.X(p.At(p.rows[k + 1])) : p.X(p.x_max);
      upper += fmt::format("{}{},{} {},{}", upper.empty() ? "M" : " L", Num(x1), Num(p.Y(above)),
                           Num(x2), Num(p.Y(above)));
      lower =
          fmt::format(" L{},{} {},{}", Num(x2), Num(p.Y(below)), Num(x1), Num(p.Y(below))) + lower;
    }
    svg += fmt::format(
        "<path class=\"area\" d=\"{}{} Z\" fill=\"{}\" "
        "fill-opacity=\"0.7\"><title>{}</title></path>\n",
        upper, lower, MarkupText(m.series[c].colour), MarkupText(m.series[c].name));
  }
  return svg;
}

std::string TimeText(double v, const XUnit& unit, int decimals) {
  return fmt::format("{:.{}f}{}{}", v, decimals, *unit.name ? " " : "", unit.name);
}

// Axes, grid and tick labels. Time ticks are multiples of a nice step, with the digits after the
// point that step needs.
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
  double xs = NiceStep(p.x_max - p.x_min, 8);
  if (!p.data.timed) xs = std::max(1.0, xs);
  int decimals = Decimals(xs);
  double x_first = std::ceil(p.x_min / xs - 1e-9) * xs;
  for (int i = 0; i <= 20 && x_first + i * xs <= p.x_max + xs * 1e-9; ++i) {
    double v = x_first + i * xs;
    double x = p.X(v);
    axes += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid xt\"/>"
        "<text x=\"{}\" y=\"{}\" class=\"tick xt\" text-anchor=\"middle\">{:.{}f}</text>\n",
        Num(x), kTop, Num(x), kTop + ph, Num(x), kTop + ph + 18, v, decimals);
  }
  axes += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame\"/>\n",
                      kLeft, kTop, pw, ph);
  axes += fmt::format(
      "<text x=\"{}\" y=\"{}\" class=\"label xlabel\" text-anchor=\"middle\">{}</text>\n",
      kLeft + pw / 2, kHeight - 22, p.unit.label);
  axes += fmt::format(
      "<text x=\"24\" y=\"{}\" class=\"label\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 24 {})\">Memory ({})</text>\n",
      kTop + ph / 2, kTop + ph / 2, p.y_unit);
  return axes;
}

// The peak: a dashed line, a dot and a label with its size, time and what the caller names.
std::string PeakMarker(const Plot& p) {
  const MemoryPlot& m = p.data;
  if (!m.has_peak) return "";
  double v = m.peak_ns / p.unit.ns;
  double px = p.X(v), py = p.Y(static_cast<double>(m.peak_bytes));
  std::string label = m.peak_label;
  if (label.size() > 60) label = label.substr(0, 57) + "...";
  bool right = px < kLeft + kPlotWidth * 0.6;
  int decimals = m.timed ? 3 : 0;
  return fmt::format(
      "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"peak\"/>"
      "<circle cx=\"{0}\" cy=\"{1}\" r=\"5\" class=\"peakdot\"/>"
      "<text x=\"{3}\" y=\"{4}\" class=\"peaklabel\" text-anchor=\"{5}\">peak {6} at {7}{8}{9}{10}"
      "</text>\n",
      Num(px), Num(py), kTop + kPlotHeight, Num(px + (right ? 10 : -10)),
      Num(std::max(kTop + 14, py - 8)), right ? "start" : "end", FormatBytes(m.peak_bytes),
      m.timed ? "" : "entry ", TimeText(v, p.unit, decimals), label.empty() ? "" : ": ",
      MarkupText(label));
}

// Event markers (out-of-memory errors): a dotted line each, named on hover.
std::string Markers(const Plot& p) {
  std::string out;
  for (const MemoryMarker& mk : p.data.markers) {
    double x = p.X(mk.time_ns / p.unit.ns);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"marker\"><title>{3}</title>"
        "</line>\n",
        Num(x), kTop, kTop + kPlotHeight, MarkupText(mk.label));
  }
  return out;
}

// The series the plot draws, in order, as its legend.
std::string Legend(const Plot& p) {
  std::string legend;
  double lx = kLeft;
  for (size_t c = 0; c < p.data.series.size(); ++c) {
    if (!p.drawn[c]) continue;
    const MemorySeries& s = p.data.series[c];
    legend += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" fill-opacity=\"0.7\" "
        "class=\"swatch\"/><text x=\"{}\" y=\"{}\" class=\"legend\">{}</text>\n",
        Num(lx), kTop - 24, MarkupText(s.colour), Num(lx + 19), kTop - 13, MarkupText(s.name));
    lx += 34 + s.name.size() * 8.0;  // 13px text is about 8px a character
  }
  return legend;
}

std::string TitleLines(const std::string& title, const MemoryPlot& m) {
  std::string out =
      fmt::format("<text x=\"{}\" y=\"30\" class=\"title\" text-anchor=\"middle\">{} ({})</text>",
                  kWidth / 2, MarkupText(title), MarkupText(m.name));
  for (size_t i = 0; i < m.headers.size() && i < 2; ++i)
    out +=
        fmt::format("<text x=\"{}\" y=\"{}\" class=\"subtitle\" text-anchor=\"middle\">{}</text>",
                    kWidth / 2, 56 + 22 * i, MarkupText(m.headers[i]));
  if (!m.note.empty())
    out += fmt::format("<text x=\"{}\" y=\"98\" class=\"note\" text-anchor=\"middle\">{}</text>",
                       kWidth / 2, MarkupText(m.note));
  return out + "\n";
}

// The data of the readout and zoom (assets/memory_timeline.js): the drawn rows (time in the unit,
// then bytes per series), the series' names, and the plot's geometry.
std::string HoverData(const Plot& p) {
  const MemoryPlot& m = p.data;
  std::string rows, names;
  JsonWriter w(&rows, JsonLayout::kCompact);
  w.BeginArray();
  for (size_t i : p.rows) {
    w.BeginArray().Double(p.At(i));
    for (size_t k = 0; k < m.series.size(); ++k) w.Int(m.value(i, k));
    w.EndArray();
  }
  w.EndArray();
  JsonWriter n(&names, JsonLayout::kCompact);
  n.BeginArray();
  for (const MemorySeries& s : m.series) n.String(s.name);
  n.EndArray();
  return fmt::format(
      "{{rows:{},names:{},L:{},W:{},X0:{},X1:{},T:{},PH:{},unit:\"{}\",scale:{},xunit:\"{}\","
      "xdecimals:{}}}",
      rows, names, kLeft, kPlotWidth, p.x_min, p.x_max, kTop, kPlotHeight, p.y_unit, p.scale,
      p.unit.name, m.timed ? 3 : 0);
}

// One plot in its own block (hidden unless `shown`), with the script call that wires its readout
// and zoom.
std::string PlotBlock(const std::string& title, const MemoryPlot& m, bool shown) {
  Plot plot = MakePlot(m);
  std::string page = fmt::format("<div class=\"device\" data-device=\"{}\"{}>\n",
                                 MarkupText(m.name), shown ? "" : " style=\"display:none\"");
  page += fmt::format(
      "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" data-rows=\"{}\" data-xunit=\"{}\">\n",
      kWidth, kHeight, kWidth, kHeight, plot.rows.size(), plot.unit.name);
  page += TitleLines(title, m) + Legend(plot) + Axes(plot) + Areas(plot) + Markers(plot) +
          PeakMarker(plot);
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

std::string FormatMemoryPage(const std::string& title, const std::vector<MemoryPlot>& plots) {
  std::string page =
      "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\" /><title>Memory Timeline: ";
  page += MarkupText(title);
  if (!plots.empty()) page += " (" + MarkupText(plots.front().name) + ")";
  page += "</title>\n<style>\n";
  page += assets::kMemoryTimelineCss;
  page += "</style>\n<script>\n";
  page += assets::kMemoryTimelineJs;
  page += "</script>\n</head>\n<body>\n<div id=\"readout\"></div>\n";
  if (plots.size() > 1) {
    // Several plots: a selector shows one at a time.
    page += "<div class=\"picker\"><label>Device <select id=\"device\">";
    for (const MemoryPlot& m : plots)
      page += fmt::format("<option>{}</option>", MarkupText(m.name));
    page += "</select></label></div>\n";
  }
  for (size_t i = 0; i < plots.size(); ++i) page += PlotBlock(title, plots[i], i == 0);
  page += "</body>\n</html>\n";
  return page;
}

}  // namespace profana::report
