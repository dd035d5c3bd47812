#include "profana/reporters/flamegraph_svg.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "fmt/format.h"
#include "profana/base/int_sum.h"
#include "profana/reporters/assets.h"
#include "profana/reporters/markup_text.h"
#include "profana/reporters/number_format.h"

namespace profana::report {
namespace {

struct Node {
  std::string name;
  int64_t self = 0;
  int64_t total = 0;
  int64_t base_self = 0;  // a differential's weights in the base run
  int64_t base_total = 0;
  std::map<std::string, std::unique_ptr<Node>> children;  // sorted, as flamegraph.pl draws them
};

int64_t Sum(Node* n) {
  n->total = n->self;
  n->base_total = n->base_self;
  for (auto& [name, child] : n->children) {
    n->total = SatAdd(n->total, Sum(child.get()));
    n->base_total = SatAdd(n->base_total, child->base_total);
  }
  return n->total;
}

// Adds one folded stack's weight to the tree (to the base run's weights when `base`).
void Add(Node* root, const std::string& stack, int64_t weight, bool base) {
  Node* n = root;
  size_t pos = 0;
  while (pos <= stack.size()) {
    size_t end = stack.find(';', pos);
    if (end == std::string::npos) end = stack.size();
    std::string frame = stack.substr(pos, end - pos);
    auto& child = n->children[frame];
    if (!child) {
      child = std::make_unique<Node>();
      child->name = frame;
    }
    n = child.get();
    pos = end + 1;
  }
  int64_t& sum = base ? n->base_self : n->self;
  sum = SatAdd(sum, weight);
}

// Warm colours, stable per name (flamegraph.pl's "hot" palette, hashed instead of random).
std::string Colour(std::string_view name) {
  uint32_t h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  int r = 205 + static_cast<int>(h % 50), g = static_cast<int>((h >> 8) % 230),
      b = static_cast<int>((h >> 16) % 55);
  return fmt::format("rgb({},{},{})", r, g, b);
}

// "+12.5%" / "-3.0%" / "new" / "gone": a differential frame's change, for its hover text.
std::string Change(int64_t base, int64_t next) {
  if (base == 0) return next == 0 ? "+0.0%" : "new";
  if (next == 0) return "gone";
  return fmt::format("{:+.1f}%", 100.0 * (next - base) / base);
}

constexpr int kWidth = 1200, kFrameHeight = 16, kPad = 10, kTop = 48;

struct Layout {
  std::string frames;
  int max_depth = 0;
  size_t count = 0;
  bool diff = false;
  size_t only_base = 0;  // frames of a differential with weight in base only (not drawn)
  int64_t only_base_weight = 0;
};

// A weight (nanoseconds) as the tables print times: "574.484us".
std::string Time(int64_t ns) { return FormatTime(static_cast<double>(ns) / 1000.0); }

void Emit(const Node& n, int depth, double x, double scale, int64_t root_total, Layout* out) {
  if (depth > 0 && out->diff && n.total == 0) {
    // Only in the base run: no width in the new one. Counted once at its top frame.
    ++out->only_base;
    out->only_base_weight = SatAdd(out->only_base_weight, n.base_total);
    return;
  }
  if (depth > 0) {
    double width = n.total * scale;
    out->max_depth = std::max(out->max_depth, depth);
    ++out->count;
    std::string change =
        out->diff ? fmt::format(", base {}, {}", Time(n.base_total), Change(n.base_total, n.total))
                  : "";
    out->frames += fmt::format(
        "<g class=\"f\" data-d=\"{}\" data-x=\"{:.3f}\" data-w=\"{:.3f}\"><title>{} ({}, "
        "{:.2f}%{})</title>"
        "<rect x=\"{:.3f}\" y=\"0\" width=\"{:.3f}\" height=\"{}\" fill=\"{}\" rx=\"2\"/><text "
        "x=\"0\" y=\"0\"></text></g>\n",
        depth, x, width, MarkupText(n.name), Time(n.total), 100.0 * n.total / root_total, change, x,
        width, kFrameHeight - 1, out->diff ? DiffColour(n.base_total, n.total) : Colour(n.name));
  }
  double child_x = x;
  for (const auto& [name, child] : n.children) {
    Emit(*child, depth + 1, child_x, scale, root_total, out);
    child_x += child->total * scale;
  }
}

}  // namespace

std::string DiffColour(int64_t base, int64_t next) {
  if (base == next) return "rgb(250,250,250)";
  double change = static_cast<double>(std::abs(next - base)) / std::max(base, next);
  int other = static_cast<int>(210 * (1 - change));
  return next > base ? fmt::format("rgb(255,{0},{0})", other)
                     : fmt::format("rgb({0},{0},255)", other);
}

std::string FormatFlamegraphSvg(const std::map<std::string, int64_t>& merged,
                                const std::string& title,
                                const std::map<std::string, int64_t>* base) {
  Node root;
  for (const auto& [stack, weight] : merged) Add(&root, stack, weight, false);
  if (base)
    for (const auto& [stack, weight] : *base) Add(&root, stack, weight, true);
  int64_t total = Sum(&root);
  Layout layout;
  layout.diff = base != nullptr;
  double scale = total > 0 ? static_cast<double>(kWidth - 2 * kPad) / total : 0;
  Emit(root, 0, kPad, scale, std::max<int64_t>(total, 1), &layout);
  int height = kTop + (layout.max_depth + 1) * kFrameHeight + 24;
  std::string out = fmt::format(
      "<?xml version=\"1.0\" standalone=\"no\"?>\n"
      "<svg version=\"1.1\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" "
      "data-width=\"{w}\" data-height=\"{h}\" data-frames=\"{n}\">\n"
      "<style>text {{ font-family: Verdana, sans-serif; font-size: 12px; fill: #000; "
      "pointer-events: none; }}\n"
      "g.f:hover rect {{ stroke: #000; stroke-width: 0.5; cursor: pointer; }} .ui {{ cursor: "
      "pointer; fill: #333; }}</style>\n"
      "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#fdf8f0\"/>\n"
      "<text x=\"{cx}\" y=\"24\" text-anchor=\"middle\" style=\"font-size:17px\">{title}</text>\n"
      "<text id=\"unzoom\" class=\"ui\" x=\"{pad}\" y=\"42\" style=\"display:none\">Reset "
      "zoom</text>\n"
      "<text id=\"search\" class=\"ui\" x=\"{sx}\" y=\"42\">Search</text>\n"
      "<text id=\"matched\" x=\"{sx}\" y=\"{dy}\"></text>\n"
      "<text id=\"details\" x=\"{pad}\" y=\"{dy}\"></text>\n",
      fmt::arg("w", kWidth), fmt::arg("h", height), fmt::arg("n", layout.count),
      fmt::arg("cx", kWidth / 2), fmt::arg("title", MarkupText(title)), fmt::arg("pad", kPad),
      fmt::arg("sx", kWidth - 120), fmt::arg("dy", height - 6));
  if (layout.diff) {
    std::string gone = layout.only_base == 0
                           ? ""
                           : fmt::format(" {} frame(s) only in base, {}, not drawn.",
                                         layout.only_base, Time(layout.only_base_weight));
    out += fmt::format(
        "<text id=\"note\" x=\"{}\" y=\"42\" text-anchor=\"middle\">Widths: new run. Red grew, "
        "blue shrank (darker: larger relative change).{}</text>\n",
        kWidth / 2, MarkupText(gone));
  }
  out += layout.frames;
  // Zoom on click, reset on Escape or the "Reset zoom" button, search by regular expression,
  // labels clipped to their frame (assets/flamegraph.js). No external assets.
  out += "<script><![CDATA[\n";
  out += assets::kFlamegraphJs;
  out += "]]></script>\n</svg>\n";
  return out;
}

}  // namespace profana::report
