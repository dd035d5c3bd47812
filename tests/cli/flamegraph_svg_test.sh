#!/usr/bin/env bash
# The flamegraph SVG in a real browser: headless Chromium renders it (the screenshot's plot area
# is not blank) and runs its script (it counts the frames it laid out: as many as the distinct
# stack prefixes of the merged stacks). Skipped (exit 77) where Chromium is not installed
# (scripts/bootstrap --chromium installs it). Usage: flamegraph_svg_test.sh PROFANA REPO_ROOT
set -euo pipefail
profana=$1 root=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then echo "SKIPPED: chromium not installed"; exit 77; fi
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
echo "2 passed, 0 failed"
