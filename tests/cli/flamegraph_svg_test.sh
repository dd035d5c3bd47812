#!/usr/bin/env bash
# The flamegraph SVG in a real browser: headless Chromium renders it (the screenshot's plot area
# is not blank) and runs its script (it counts the frames it laid out: as many as the distinct
# stack prefixes of the merged stacks); zoom keeps the ancestor chain, search reports the
# matched share, a differential is coloured red and blue. Skipped (exit 77) where Chromium is not installed
# (scripts/bootstrap --chromium installs it). Usage: flamegraph_svg_test.sh PROFANA REPO_ROOT
set -euo pipefail
profana=$1 root=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then
  # scripts/test installs Chromium and sets PROFANA_REQUIRE_CHROMIUM: there, a missing browser fails.
  [[ "${PROFANA_REQUIRE_CHROMIUM:-0}" == 1 ]] && { echo "FAILED: chromium not installed"; exit 1; }
  echo "SKIPPED: chromium not installed"; exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check() {  # name, profana stacks arguments...
  local name=$1; shift
  "$profana" stacks "$@" --merge -o "$tmp/$name.folded" --svg "$tmp/$name.svg"
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,800 \
    --screenshot="$tmp/$name.png" "file://$tmp/$name.svg" >/dev/null 2>&1
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --dump-dom "file://$tmp/$name.svg" \
    > "$tmp/$name.dom" 2>/dev/null
  PYTHONPATH="$(dirname "$0")" /usr/bin/python3 - "$tmp/$name" <<'PY'
import re, sys
from png_pixels import read_png
base = sys.argv[1]
# Frames: the script's own count after it ran, the file's frame groups, the distinct prefixes.
dom = open(base + ".dom").read()
laid_out = int(re.search(r'data-frames="(\d+)"', dom).group(1))
in_file = open(base + ".svg").read().count('<g class="f"')
prefixes = set()
for line in open(base + ".folded"):
    frames = line.rsplit(" ", 1)[0].split(";")
    for i in range(1, len(frames) + 1):
        prefixes.add(tuple(frames[:i]))
assert laid_out == in_file == len(prefixes) > 0, (laid_out, in_file, len(prefixes))
width, height, bpp, rows = read_png(base + ".png")
painted = total = 0
for y in range(40, min(height, 400)):
    for x in range(10, min(width, 1190)):
        r, g, b = rows[y][x * bpp:x * bpp + 3]
        total += 1
        painted += not (r > 240 and g > 235 and b > 225)  # not the pale background or white
share = painted / total
assert share > 0.05, f"plot area {share:.1%} painted: blank?"
print(f"{base.rsplit('/', 1)[1]}: {laid_out} frames, plot area {share:.0%} painted")
PY
}
check dlrm_cuda "$root/testdata/traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz" --metric self_cuda --stacks ops
check cnn_python "$root/testdata/oracle/cnn_train/all/trace.kineto_like.json"

# Zoom and search, driven by the URL (FILE.svg?zoom=N&s=REGEX runs the same code as a click and
# the Search button). The zoomed frame is the deepest one with an ancestor that starts left of
# it: every ancestor must stay drawn full width, the frame itself full width, every frame that
# is neither an ancestor nor inside it hidden. The search's "Matched: P%" must equal the share of
# the folded weight whose stack has a frame matching, worked out here from the folded text.
zoom_search() {  # name (a case check drew above), search regex
  local base=$tmp/$1 term=$2 pick
  pick=$(/usr/bin/python3 - "$base.svg" <<'PY'
import re, sys
f = [(int(d), float(x), float(w)) for d, x, w in
     re.findall(r'<g class="f" data-d="(\d+)" data-x="([\d.]+)" data-w="([\d.]+)"', open(sys.argv[1]).read())]
def ancestors(i):
    d, x, w = f[i]
    return [j for j, (dj, xj, wj) in enumerate(f) if dj < d and xj <= x + 1e-6 and xj + wj >= x + w - 1e-6]
best = max((i for i in range(len(f)) if any(f[j][1] < f[i][1] - 1e-3 for j in ancestors(i))),
           key=lambda i: f[i][0])
print(best)
PY
)
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --dump-dom \
    "file://$base.svg?zoom=$pick&s=$term" > "$base.zoom.dom" 2>/dev/null
  PYTHONPATH="$(dirname "$0")" /usr/bin/python3 - "$base" "$pick" "$term" <<'PY'
import re, sys
base, pick, term = sys.argv[1], int(sys.argv[2]), sys.argv[3]
src = re.findall(r'<g class="f" data-d="(\d+)" data-x="([\d.]+)" data-w="([\d.]+)"', open(base + ".svg").read())
f = [(int(d), float(x), float(w)) for d, x, w in src]
dom = re.findall(r'<g class="f"[^>]*?(style="[^"]*")?>.*?<rect x="([\d.]+)" y="[^"]*" width="([\d.]+)"', open(base + ".zoom.dom").read())
assert len(dom) == len(f), (len(dom), len(f))
d0, x0, w0 = f[pick]
full = 1200 - 2 * 10
shown = 0
for i, ((d, x, w), (style, rx, rw)) in enumerate(zip(f, dom)):
    hidden = "display: none" in (style or "")
    ancestor = d < d0 and x <= x0 + 1e-6 and x + w >= x0 + w0 - 1e-6
    inside = d >= d0 and x >= x0 - 1e-6 and x + w <= x0 + w0 + 1e-6
    assert hidden == (not ancestor and not inside), (i, f[i], style)
    if ancestor or i == pick:
        assert abs(float(rw) - full) < 0.01 and abs(float(rx) - 10) < 0.01, (i, rx, rw)
    shown += not hidden
assert sum(1 for d, x, w in f if d < d0 and x < x0 - 1e-3) > 0  # an ancestor not left-aligned
# Matched share: weight of stacks with a frame matching the term, over the total.
total = hit = 0
for line in open(base + ".folded"):
    stack, weight = line.rsplit(" ", 1)
    total += int(weight)
    hit += int(weight) if any(re.search(term, fr) for fr in stack.split(";")) else 0
want = 100 * hit / total
got = float(re.search(r'<text id="matched"[^>]*>Matched: ([\d.]+)%<', open(base + ".zoom.dom").read()).group(1))
assert hit > 0 and abs(got - want) < 0.11, (got, want)
print(f"zoom to frame {pick} (depth {d0}): {shown} of {len(f)} frames shown; Matched {got}% (want {want:.2f}%)")
PY
}
zoom_search cnn_python conv
zoom_search dlrm_cuda embedding

# A differential flamegraph of two ranks of one job: reds (grew) and blues (shrank) in the file's
# fills and on the screen, and both files in the title.
dlrm=$root/testdata/traces/param/dlrm_kineto
"$profana" stacks --diff "$dlrm/worker0_step_12.1694128201545.pt.trace.json.gz" \
  "$dlrm/worker5_step_12.1694128201549.pt.trace.json.gz" --metric self_cuda --stacks ops \
  -o "$tmp/diff.folded" --svg "$tmp/diff.svg" 2>/dev/null
timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,800 \
  --screenshot="$tmp/diff.png" "file://$tmp/diff.svg" >/dev/null 2>&1
PYTHONPATH="$(dirname "$0")" /usr/bin/python3 - "$tmp/diff" <<'PY'
import re, sys
from png_pixels import read_png
base = sys.argv[1]
svg = open(base + ".svg").read()
title = re.search(r'<text x="600" y="24"[^>]*>([^<]*)<', svg).group(1)
assert "worker0_step_12" in title and "worker5_step_12" in title, title
fills = re.findall(r'<rect x="[^"]*" y="0" width="[^"]*" height="15" fill="rgb\((\d+),(\d+),(\d+)\)"', svg)
reds = sum(1 for r, g, b in fills if int(r) == 255 and int(g) == int(b) < 250)
blues = sum(1 for r, g, b in fills if int(b) == 255 and int(r) == int(g) < 250)
assert reds > 0 and blues > 0, (reds, blues)
# Frames with a differential's hover text: "(new us, share%, base N us, change)".
assert svg.count(", base ") == len(fills), (svg.count(", base "), len(fills))
width, height, bpp, rows = read_png(base + ".png")
red_px = blue_px = 0
for y in range(50, min(height, 300)):
    for x in range(10, min(width, 1190)):
        r, g, b = rows[y][x * bpp:x * bpp + 3]
        red_px += r > 200 and g < 180 and b < 180
        blue_px += b > 200 and r < 180 and g < 180
assert red_px > 100 and blue_px > 100, (red_px, blue_px)
print(f"diff: {reds} red and {blues} blue frames; {red_px} red, {blue_px} blue pixels")
PY
# Frame names on a real trace recorded in a conda environment under /home: the SVG shows
# "torch/utils/data/dataloader.py(518): __next__" (prefix stripped, real space), --full-paths keeps
# "/home/yangu/anaconda3/.../site-packages/torch/...", and the folded text stays export_stacks'.
resnet=$root/testdata/traces/kineto/be239c04/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
"$profana" stacks "$resnet" --merge -o "$tmp/resnet.folded" --svg "$tmp/resnet.svg"
"$profana" stacks "$resnet" --full-paths --svg "$tmp/resnet_full.svg"
grep -q '<title>torch/utils/data/dataloader.py(518): __next__ (' "$tmp/resnet.svg"
if grep -q 'site-packages' "$tmp/resnet.svg"; then echo "FAILED: site-packages in the SVG"; exit 1; fi
grep -q '<title>/home/yangu/anaconda3/envs/kineto/lib/python3.7/site-packages/torch/utils/data/dataloader.py(518): __next__ (' "$tmp/resnet_full.svg"
grep -q '/site-packages/torch/utils/data/dataloader.py(518):___next__;' "$tmp/resnet.folded"
echo "resnet50: SVG names shortened with real spaces, --full-paths keeps them, folded text unchanged"
echo "6 passed, 0 failed"
