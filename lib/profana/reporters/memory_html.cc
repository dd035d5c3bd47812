#include "profana/reporters/memory_html.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"
#include "profana/reporters/json_writer.h"
#include "profana/reporters/memory_reporter.h"

namespace profana::report {
namespace {

// The reference's _CATEGORY_TO_COLORS, in category order (drawn bottom to top), alpha 0.7.
const char* const kColors[passes::kMemoryCategories] = {"#006400", "#daa520", "#000000", "#9370db",
                                                        "#ff0000", "#0000cd", "#4169e1", "#808080"};

constexpr double kWidth = 1200, kHeight = 720;
constexpr double kLeft = 90, kRight = 40, kTop = 130, kBottom = 70;
constexpr size_t kMaxColumns = 2400;  // more rows than pixels: keep each column's highest row

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
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

}  // namespace

std::string FormatMemoryHtml(const Trace& trace, const passes::FunctionEventList& ev,
                             const passes::MemoryTimeline& t, const passes::MemoryDeviceView& view,
                             const MemoryHtmlOptions& o) {
  uint32_t device = view.device;
  const passes::MemoryDeviceSummary& s = t.summary[device];
  const passes::MemoryDeviceReport& r = view.report;
  const passes::CoalescedTimeline& tl = view.timeline;
  size_t n = tl.times_us.size();

  // Columns to draw: all rows, or per pixel column the row with the highest total (keeps peaks).
  auto total = [&](size_t i) {
    int64_t sum = 0;
    for (int c = 1; c <= passes::kMemoryCategories; ++c) sum = passes::SatAdd(sum, tl.sizes[i][c]);
    return sum;
  };
  double t0 = static_cast<double>(o.origin_ns) / 1e3;
  double x_min = n ? tl.times_us.front() - t0 : 0, x_max = n ? tl.times_us.back() - t0 : 1;
  if (x_max <= x_min) x_max = x_min + 1;
  std::vector<size_t> rows;
  if (n <= kMaxColumns) {
    for (size_t i = 0; i < n; ++i) rows.push_back(i);
  } else {
    int64_t bucket = -1;
    for (size_t i = 0; i < n; ++i) {
      int64_t b =
          static_cast<int64_t>((tl.times_us[i] - t0 - x_min) / (x_max - x_min) * (kMaxColumns - 1));
      if (b != bucket)
        rows.push_back(i), bucket = b;
      else if (total(i) > total(rows.back()))
        rows.back() = i;
    }
  }
  int64_t y_peak = std::max<int64_t>(1, s.peak_bytes);
  for (size_t i : rows) y_peak = std::max(y_peak, total(i));
  const char* unit = y_peak >= (1LL << 30)   ? "GiB"
                     : y_peak >= (1LL << 20) ? "MiB"
                     : y_peak >= 1024        ? "KiB"
                                             : "B";
  double scale = y_peak >= (1LL << 30)   ? 1073741824.0
                 : y_peak >= (1LL << 20) ? 1048576.0
                 : y_peak >= 1024        ? 1024.0
                                         : 1;
  double y_top_units = y_peak / scale * 1.08;
  double y_step = NiceStep(y_top_units, 6);
  y_top_units = std::ceil(y_top_units / y_step) * y_step;
  double x_units_scale = 1e3;  // microseconds -> milliseconds
  double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
  auto X = [&](double us) { return kLeft + (us - x_min) / (x_max - x_min) * pw; };
  auto Y = [&](double bytes) { return kTop + ph - bytes / scale / y_top_units * ph; };

  std::string svg;
  // Stacked areas as step functions: the level holds from one time to the next.
  for (int c = 0; c < passes::kMemoryCategories; ++c) {
    bool any = false;
    for (size_t i : rows) any |= tl.sizes[i][c + 1] != 0;
    if (!any) continue;
    std::string upper, lower;
    for (size_t k = 0; k < rows.size(); ++k) {
      size_t i = rows[k];
      int64_t below = 0;
      for (int b = 0; b < c; ++b) below = passes::SatAdd(below, tl.sizes[i][b + 1]);
      int64_t above = passes::SatAdd(below, tl.sizes[i][c + 1]);
      double x1 = X(tl.times_us[i] - t0);
      double x2 = k + 1 < rows.size() ? X(tl.times_us[rows[k + 1]] - t0) : X(x_max);
      upper += fmt::format("{}{},{} {},{}", upper.empty() ? "M" : " L", Num(x1), Num(Y(above)),
                           Num(x2), Num(Y(above)));
      lower = fmt::format(" L{},{} {},{}", Num(x2), Num(Y(below)), Num(x1), Num(Y(below))) + lower;
    }
    svg += fmt::format(
        "<path class=\"area\" d=\"{}{} Z\" fill=\"{}\" "
        "fill-opacity=\"0.7\"><title>{}</title></path>\n",
        upper, lower, kColors[c],
        passes::MemoryCategoryName(static_cast<passes::MemoryCategory>(c)));
  }

  // Axes, grid and tick labels.
  std::string axes;
  // Ticks by count, not by repeated addition: a step too small for the magnitude must still end.
  for (int i = 0; i <= 20 && i * y_step <= y_top_units + y_step / 2; ++i) {
    double v = i * y_step;
    double y = kTop + ph - v / y_top_units * ph;
    axes += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>"
        "<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{:g}</text>\n",
        kLeft, Num(y), kLeft + pw, Num(y), kLeft - 8, Num(y + 4), v);
  }
  double xs = NiceStep((x_max - x_min) / x_units_scale, 8);
  double x_first = std::ceil(x_min / x_units_scale / xs) * xs;
  for (int i = 0; i <= 20 && x_first + i * xs <= x_max / x_units_scale + 1e-9; ++i) {
    double v = x_first + i * xs;
    double x = X(v * x_units_scale);
    axes += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>"
        "<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{:g}</text>\n",
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
      kTop + ph / 2, kTop + ph / 2, unit);

  // The peak: a dashed line and a label naming the op.
  std::string peak;
  if (s.peak_pos >= 0) {
    double px = X(static_cast<double>(r.peak_ts_ns / 1000) - t0),
           py = Y(static_cast<double>(s.peak_bytes));
    std::string op = r.peak_op >= 0 ? std::string(trace.str(ev.name[r.peak_op])) : "no op";
    if (op.size() > 60) op = op.substr(0, 57) + "...";
    bool right = px < kLeft + pw * 0.6;
    peak = fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"peak\"/>"
        "<circle cx=\"{0}\" cy=\"{1}\" r=\"5\" class=\"peakdot\"/>"
        "<text x=\"{3}\" y=\"{4}\" class=\"peaklabel\" text-anchor=\"{5}\">peak {6} at {7:.3f} ms: "
        "{8}</text>\n",
        Num(px), Num(py), kTop + ph, Num(px + (right ? 10 : -10)), Num(std::max(kTop + 14, py - 8)),
        right ? "start" : "end", FormatBytes(s.peak_bytes), (r.peak_ts_ns - o.origin_ns) / 1e6,
        Escape(op));
  }

  // Legend: every category, as the reference's figure legend.
  std::string legend;
  double lx = kLeft;
  for (int c = 0; c < passes::kMemoryCategories; ++c) {
    std::string name = passes::MemoryCategoryName(static_cast<passes::MemoryCategory>(c));
    legend += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" fill-opacity=\"0.7\"/>"
        "<text x=\"{}\" y=\"{}\" class=\"legend\">{}</text>\n",
        Num(lx), kTop - 24, kColors[c], Num(lx + 19), kTop - 13, name);
    lx += 34 + name.size() * 9.0;  // 13px capitals are about 9px wide
  }

  // Title lines as the reference's: max allocated, max reserved (the allocator's when recorded).
  int64_t max_alloc = s.max_total_allocated != kNoId ? s.max_total_allocated : s.peak_bytes;
  // The reference's GiB with two decimals; small values also in a unit that shows them.
  auto gib = [](int64_t bytes) {
    std::string text = fmt::format("{:.2f} GiB", bytes / 1073741824.0);
    return bytes > 0 && bytes < (int64_t{10} << 20) ? text + " (" + FormatBytes(bytes) + ")" : text;
  };
  std::string reserved =
      s.max_total_reserved != kNoId ? gib(s.max_total_reserved) : std::string("not recorded");
  std::string title = fmt::format(
      "<text x=\"{0}\" y=\"30\" class=\"title\" text-anchor=\"middle\">{1} ({2})</text>"
      "<text x=\"{0}\" y=\"56\" class=\"subtitle\" text-anchor=\"middle\">Max memory allocated: "
      "{3}</text>"
      "<text x=\"{0}\" y=\"78\" class=\"subtitle\" text-anchor=\"middle\">Max memory reserved: "
      "{4}</text>\n",
      kWidth / 2, Escape(o.title), Escape(t.devices[device].name), gib(max_alloc), reserved);
  // The plot is the replay: say what it leaves out, so the axis and the title lines agree.
  int64_t before =
      s.total_allocated.compared > 0 ? s.total_allocated.offset - s.preexisting_bytes : 0;
  std::string note =
      before > 0 ? fmt::format(
                       "Plotted: memory the trace allocates or frees; {} more was allocated "
                       "before the trace and not freed in it",
                       FormatBytes(before))
                 : std::string("Plotted: memory the trace allocates or frees");
  title += fmt::format("<text x=\"{}\" y=\"98\" class=\"note\" text-anchor=\"middle\">{}</text>\n",
                       kWidth / 2, Escape(note));

  // Data for the hover readout: the drawn rows, times in ms and per-category bytes.
  std::string data;
  JsonWriter w(&data, false);
  w.BeginArray();
  for (size_t i : rows) {
    w.BeginArray().Double((tl.times_us[i] - t0) / x_units_scale);
    for (int c = 1; c <= passes::kMemoryCategories; ++c) w.Int(tl.sizes[i][c]);
    w.EndArray();
  }
  w.EndArray();

  std::string page =
      "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\" /><title>Memory Timeline: ";
  page += Escape(o.title) + " (" + Escape(t.devices[device].name) + ")</title>\n<style>\n";
  page +=
      "body{margin:0;background:#fff;font-family:sans-serif;color:#222}"
      "svg text{font-family:sans-serif} .title{font-size:20px;font-weight:bold} "
      ".subtitle{font-size:16px}"
      ".tick{font-size:12px;fill:#444} .label{font-size:14px} .legend{font-size:13px} "
      ".note{font-size:12px;fill:#555}"
      ".grid{stroke:#e4e4e4;stroke-width:1} .frame{fill:none;stroke:#888}"
      ".peak{stroke:#c00;stroke-width:1.5;stroke-dasharray:6 4} .peakdot{fill:#c00}"
      ".peaklabel{font-size:13px;fill:#c00;font-weight:bold} "
      "#cursor{stroke:#333;stroke-width:1;pointer-events:none}"
      "#readout{position:absolute;background:rgba(255,255,255,.95);border:1px solid "
      "#999;padding:6px 8px;"
      "font-size:12px;pointer-events:none;display:none;white-space:pre}\n</style>\n</"
      "head>\n<body>\n";
  page += fmt::format(
      "<svg id=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" data-rows=\"{}\">\n",
      kWidth, kHeight, kWidth, kHeight, rows.size());
  page += title + legend + axes + svg + peak;
  page += fmt::format(
      "<line id=\"cursor\" x1=\"0\" y1=\"{}\" x2=\"0\" y2=\"{}\" visibility=\"hidden\"/>\n", kTop,
      kTop + ph);
  page += "</svg>\n<div id=\"readout\"></div>\n<script>\n";
  page += fmt::format(
      "const rows={};\nconst names={};\nconst L={},W={},X0={},X1={},unit=\"{}\",scale={};\n", data,
      "[\"PARAMETER\",\"OPTIMIZER_STATE\",\"INPUT\",\"TEMPORARY\",\"ACTIVATION\",\"GRADIENT\","
      "\"AUTOGRAD_DETAIL\",\"Unknown\"]",
      kLeft, pw, x_min / x_units_scale, x_max / x_units_scale, unit, scale);
  page +=
      R"JS(const svg=document.getElementById('plot'),cur=document.getElementById('cursor'),box=document.getElementById('readout');
svg.addEventListener('mousemove',e=>{
  const p=svg.createSVGPoint();p.x=e.clientX;p.y=e.clientY;const q=p.matrixTransform(svg.getScreenCTM().inverse());
  if(q.x<L||q.x>L+W||!rows.length){cur.setAttribute('visibility','hidden');box.style.display='none';return;}
  const ms=X0+(q.x-L)/W*(X1-X0);let lo=0,hi=rows.length-1;
  while(lo<hi){const m=(lo+hi+1)>>1;if(rows[m][0]<=ms)lo=m;else hi=m-1;}
  const r=rows[lo];let total=0,lines=[];
  for(let c=7;c>=0;c--){total+=r[c+1];if(r[c+1])lines.push(names[c]+': '+(r[c+1]/scale).toFixed(3)+' '+unit);}
  box.textContent=ms.toFixed(3)+' ms\ntotal: '+(total/scale).toFixed(3)+' '+unit+'\n'+lines.join('\n');
  cur.setAttribute('x1',q.x);cur.setAttribute('x2',q.x);cur.setAttribute('visibility','visible');
  box.style.display='block';box.style.left=(e.pageX+14)+'px';box.style.top=(e.pageY+14)+'px';});
svg.addEventListener('mouseleave',()=>{cur.setAttribute('visibility','hidden');box.style.display='none';});
svg.setAttribute('data-drawn',svg.querySelectorAll('path.area').length);
</script>
</body>
</html>
)JS";
  return page;
}

}  // namespace profana::report
