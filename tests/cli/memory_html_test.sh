#!/usr/bin/env bash
# The memory timeline page in a real browser: headless Chromium renders it (the screenshot's plot
# area is painted, in more than one colour: stacked categories) and runs its script (it counts the
# category areas it finds: as many as the page draws); the legend lists only the categories
# drawn; the header's allocated figure matches the plotted peak or names both; zooming into a
# time range stretches the areas and redraws the time axis for the range; a trace with several
# devices gets a device selector. On a PyTorch 2.x trace (times on the epoch clock, less
# baseTimeNanoseconds) the time axis counts from the trace's start in a unit that fits, with plain
# evenly stepped labels, the peak is marked at its time, and the legend's swatches have
# PyTorch's colours; an allocator snapshot's page is the same page. The page must be
# self-contained: no external scripts, styles, fonts or images (url(#id) names an element of the
# page itself). Skipped (exit 77) where Chromium is not installed.
# Usage: memory_html_test.sh PROFANA REPO_ROOT
set -euo pipefail
profana=$1 root=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then
  # scripts/test installs Chromium and sets PROFANA_REQUIRE_CHROMIUM: there, a missing browser fails.
  [[ "${PROFANA_REQUIRE_CHROMIUM:-0}" == 1 ]] && { echo "FAILED: chromium not installed"; exit 1; }
  echo "SKIPPED: chromium not installed"; exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check() {  # name, min colours, profana memory arguments...
  local name=$1 colours=$2; shift 2
  "$profana" memory "$@" --format html -o "$tmp/$name.html"
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,740 \
    --screenshot="$tmp/$name.png" "file://$tmp/$name.html" >/dev/null 2>&1
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --dump-dom "file://$tmp/$name.html" \
    > "$tmp/$name.dom" 2>/dev/null
  PYTHONPATH="$(dirname "$0")" /usr/bin/python3 - "$tmp/$name" "$colours" <<'PY'
import re, sys
from png_pixels import read_png
base, want_colours = sys.argv[1], int(sys.argv[2])
page = open(base + ".html").read()
for pattern in (r'<script[^>]+src=', r'<link', r'url\((?!#)', r'<img', r'@import', r'@font-face'):
    assert not re.search(pattern, page), f"not self-contained: {pattern}"
assert "Max memory allocated: " in page and "Max memory reserved: " in page
assert 'class="peak"' in page, "peak not marked"
# One block per device (the first shown); each plot's script ran and counted its areas.
blocks = page.split('<div class="device"')[1:]
drawn = [int(n) for n in re.findall(r'data-drawn="(\d+)"', open(base + ".dom").read())]
in_file = [b.count('<path class="area"') for b in blocks]
assert drawn == in_file and min(in_file) > 0, (drawn, in_file)
for block in blocks:
    # The legend names exactly the categories drawn, in the same order.
    legend = re.findall(r'class="legend">([^<]*)<', block)
    areas = re.findall(r'<path class="area"[^>]*><title>([^<]*)<', block)
    assert legend == areas, (legend, areas)
    # The header's allocated figure and the plotted peak: the same, or both given, labelled.
    header = re.search(r'Max memory allocated: ([^<]*)<', block).group(1)
    peak = re.search(r'class="peaklabel"[^>]*>peak ([^ ]+ [^ ]+) at', block).group(1)
    assert peak in header or "plotted peak: " + peak in header, (header, peak)
width, height, bpp, rows = read_png(base + ".png")
# The plot area (inside the axes frame at x 90..1160, y 130..650), away from grid lines' colour.
painted, total, colours = 0, 0, set()
for y in range(140, 640, 2):
    for x in range(100, 1150, 2):
        r, g, b = rows[y][x * bpp:x * bpp + 3]
        total += 1
        if abs(r - g) > 30 or abs(g - b) > 30 or abs(r - b) > 30 or max(r, g, b) < 200:
            painted += 1
            colours.add((r // 32, g // 32, b // 32))
share = painted / total
assert share > 0.05, f"plot area {share:.1%} painted: blank?"
assert len(colours) >= want_colours, f"{len(colours)} colours"
print(f"{base.rsplit('/', 1)[1]}: {drawn} category areas, plot area {share:.0%} painted, {len(colours)} colours")
PY
}
check df_index_resolver 2 "$root/testdata/traces/hta/df_index_resolver/df_index_resolver.json.gz"
check categories 4 "$root/testdata/memory/categories.json"
check mlp_train 2 "$root/testdata/oracle/mlp_train/all/trace.kineto_like.json"

# Zoom into a time range (PAGE.html?zoom=A:B runs what a drag across the plot runs): the middle
# fifth of the plotted span. The areas are stretched by span / (B - A), the time axis is redrawn
# with every tick inside A..B, and the Reset zoom button shows.
# zoomed PAGE FROM TO DOM: PAGE opened zoomed from FROM to TO of its plotted span (fractions), its
# DOM after the script ran written to DOM; prints the range "A:B" (in the axis's unit).
zoomed() {
  local range
  range=$(/usr/bin/python3 -c '
import re, sys
x0, x1 = map(float, re.search(r"X0:([-\d.e]+),X1:([-\d.e]+)", open(sys.argv[1]).read()).groups())
a, b = float(sys.argv[2]), float(sys.argv[3])
print(f"{x0 + a * (x1 - x0):.6f}:{x0 + b * (x1 - x0):.6f}")' "$1" "$2" "$3")
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --dump-dom "file://$1?zoom=$range" \
    > "$4" 2>/dev/null
  echo "$range"
}
page=$tmp/mlp_train.html
range=$(zoomed "$page" 0.4 0.6 "$tmp/zoom.dom")
/usr/bin/python3 - "$page" "$tmp/zoom.dom" "$range" <<'PY'
import re, sys
page, dom, rng = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
a, b = map(float, rng.split(":"))
x0, x1 = map(float, re.search(r"X0:([-\d.e]+),X1:([-\d.e]+)", page).groups())
assert re.search(r'data-view="([^"]*)"', dom).group(1) == f"{a:.6f}:{b:.6f}"
k = float(re.search(r'<g clip-path="url\(#plotclip0\)"><g transform="translate\([^,]*,0\) scale\(([\d.e]+),1\)"', dom).group(1))
assert abs(k - (x1 - x0) / (b - a)) < 1e-6 * k, (k, (x1 - x0) / (b - a))
ticks = [float(t) for t in re.findall(r'class="tick xt"[^>]*>([^<]*)<', dom)]
assert len(ticks) >= 3 and all(a - 1e-9 <= t <= b + 1e-9 for t in ticks), ticks
assert re.search(r'class="unzoom"[^>]*visibility="visible"', dom)
assert dom.count('<path class="area"') == page.count('<path class="area"')
print(f"zoom {a}:{b} ms: areas x{k:.2f}, {len(ticks)} ticks from {ticks[0]} to {ticks[-1]}")
PY
# Two devices (cuda:1 and cpu): a selector lists both; the default (the accelerator) is shown,
# and choosing the other (PAGE.html?device=cpu runs what the selector's change runs) shows only it.
page=$tmp/df_index_resolver.html
timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --dump-dom "file://$page?device=cpu" \
  > "$tmp/cpu.dom" 2>/dev/null
/usr/bin/python3 - "$page" "$tmp/df_index_resolver.dom" "$tmp/cpu.dom" <<'PY'
import re, sys
page, first, cpu = (open(f).read() for f in sys.argv[1:])
assert re.findall(r'<option>([^<]*)</option>', page) == ["cuda:1", "cpu"]
def shown(dom):
    return [d for d, style in re.findall(r'<div class="device" data-device="([^"]*)"( style="[^"]*")?', dom)
            if "display: none" not in style and "display:none" not in style]
assert shown(first) == ["cuda:1"], shown(first)
assert shown(cpu) == ["cpu"], shown(cpu)
print("device selector: cuda:1, cpu; cuda:1 shown first, cpu alone after choosing it")
PY
# PyTorch 2.11's trace: tick labels are plain numbers from the trace's start (not the epoch clock,
# 1.79086e+12), at one step, inside the trace's span; the peak sits at the time its label gives,
# inside that span; the legend's swatches are PyTorch's _CATEGORY_TO_COLORS. After a zoom the
# redrawn labels are plain too.
check live_mlp 2 "$root/testdata/live/mlp_train/all/trace.json.gz"
duration_us=$("$profana" info "$root/testdata/live/mlp_train/all/trace.json.gz" --format json |
  /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["span_us"])')
page=$tmp/live_mlp.html
zoomed "$page" 0.3 0.5 "$tmp/live_zoom.dom" >/dev/null
/usr/bin/python3 - "$page" "$tmp/live_zoom.dom" "$duration_us" <<'PY'
import re, sys
page, zoom, duration_us = open(sys.argv[1]).read(), open(sys.argv[2]).read(), float(sys.argv[3])
unit = re.search(r'class="label xlabel"[^>]*>Time \((us|ms|s)\)<', page).group(1)
per_us = {"us": 1, "ms": 1e3, "s": 1e6}[unit]
def plain(ticks):
    assert len(ticks) >= 3, ticks
    for t in ticks:
        assert re.fullmatch(r"\d{1,6}(\.\d{1,6})?", t), f"tick label {t!r}"
    values = [float(t) for t in ticks]
    steps = {round(b - a, 9) for a, b in zip(values, values[1:])}
    assert len(steps) == 1, steps
    return values
ticks = plain(re.findall(r'class="tick xt"[^>]*>([^<]*)<', page))
span = duration_us / per_us
assert 0 <= ticks[0] and ticks[-1] <= span * 1.05, (ticks, span)
x0, x1 = map(float, re.search(r"X0:([-\d.e]+),X1:([-\d.e]+)", page).groups())
assert 0 <= x0 < x1 <= span * 1.05, (x0, x1, span)
m = re.search(r'class="peaklabel"[^>]*>peak [^ ]+ [^ ]+ at ([\d.]+) (us|ms|s): ', page)
assert m and m.group(2) == unit, "peak label"
assert x0 <= float(m.group(1)) <= x1 + 1e-3, (m.group(1), x0, x1)
# The peak's dot sits at its time on the axis (x = L + (t - X0) / (X1 - X0) * W).
cx = float(re.search(r'class="peakdot"', page) and re.search(r'<circle cx="([\d.]+)"', page).group(1))
want = 90 + (float(m.group(1)) - x0) / (x1 - x0) * 1070
assert abs(cx - want) < 1.5, (cx, want)
colours = {"PARAMETER": "#006400", "OPTIMIZER_STATE": "#daa520", "INPUT": "#000000",
           "TEMPORARY": "#9370db", "ACTIVATION": "#ff0000", "GRADIENT": "#0000cd",
           "AUTOGRAD_DETAIL": "#4169e1", "Unknown": "#808080"}
legend = re.findall(r'fill="(#[0-9a-f]{6})" fill-opacity="0.7" class="swatch"/><text[^>]*class="legend">([^<]*)<', page)
assert legend and all(colours[name] == colour for colour, name in legend), legend
plain(re.findall(r'class="tick xt"[^>]*>([^<]*)<', zoom))
print(f"live mlp_train: {len(ticks)} ticks in {unit} from {ticks[0]} to {ticks[-1]} "
      f"(trace {span:.3f} {unit}), peak at {m.group(1)} {unit}, legend {[n for _, n in legend]}")
PY
# An allocator snapshot on the same page: the history's allocated and reserved bytes, the peak
# marked with its site, the time axis from the first entry.
check snapshot 2 "$root/testdata/live/snapshot_resnet_amp/snapshot.pickle.gz"
/usr/bin/python3 - "$tmp/snapshot.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
assert re.findall(r'class="legend">([^<]*)<', page) == ["allocated", "reserved, not allocated"]
assert re.search(r'class="label xlabel"[^>]*>Time \(ms\)<', page)
assert re.search(r'class="peaklabel"[^>]*>peak 312.45 MiB at 935.054 ms: most from ', page)
print("snapshot: allocated and reserved, peak 312.45 MiB at 935.054 ms")
PY
echo "7 passed, 0 failed"
