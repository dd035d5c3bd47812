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
  /usr/bin/python3 - "$tmp/$name" <<'PY'
import re, struct, sys, zlib
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
# The screenshot: decode the PNG (8-bit RGB/RGBA) and count painted pixels in the plot area.
data = open(base + ".png", "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, width, height, ctype = 8, b"", 0, 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    chunk = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, ctype = struct.unpack(">IIBB", chunk[:10])
        assert depth == 8 and ctype in (2, 6)
    elif kind == b"IDAT":
        idat += chunk
    pos += 12 + length
bpp = 3 if ctype == 2 else 4
raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
for y in range(height):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
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
