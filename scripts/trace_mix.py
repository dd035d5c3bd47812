#!/usr/bin/env python3
"""Prints what a Kineto (PyTorch profiler) Chrome trace is made of: the share of each kind of event,
by count and by bytes of JSON text, one column pair per file, so a generated trace can be set beside
the real trace it imitates.

  scripts/trace_mix.py TRACE.json[.gz] ...            # a markdown table, one column pair per file
  scripts/trace_mix.py --limit-mb 20 big.json         # only the events in the first 20 MB
  scripts/trace_mix.py --json TRACE...                # the same numbers as JSON (scripts/bench reads it)

Kinds (the first that matches): flows by category (`ph` s/t/f: "flow ac2g", "flow fwdbwd", others
"flow <cat>"), "[memory]" (instant events of that name, what profile_memory records), "metadata"
(`ph` M), then by category: python_function (with_stack), cpu_op (also the old "Operator"),
user_annotation, runtime (cuda_runtime, cuda_driver, old "Runtime"), kernel, gpu_memcpy/memset,
gpu_user_annotation; anything else is "other". An event's bytes are its object's text, from `{` to
`}` in the one-line form Kineto writes (a file re-indented after the profiler wrote it, one field
a line, is measured as if written that way); separators and the header are not counted, so the byte
shares add up to 100 % of the event text.

Events are decoded one by one from a stream (bounded memory), so a 1 GB trace takes a while in
Python; --limit-mb reads the front of a file, which for a generated trace (every step the same
shape) has the whole file's shares.
"""
import argparse
import collections
import gzip
import json
import re
import sys

KINDS = ["python_function", "cpu_op", "user_annotation", "runtime", "kernel", "gpu_memcpy/memset",
         "gpu_user_annotation", "[memory]", "flow ac2g", "flow fwdbwd", "metadata", "other"]
BY_CAT = {"python_function": "python_function", "cpu_op": "cpu_op", "Operator": "cpu_op",
          "user_annotation": "user_annotation", "cuda_runtime": "runtime", "cuda_driver": "runtime",
          "Runtime": "runtime", "kernel": "kernel", "Kernel": "kernel", "gpu_memcpy": "gpu_memcpy/memset",
          "gpu_memset": "gpu_memcpy/memset", "Memcpy": "gpu_memcpy/memset", "Memset": "gpu_memcpy/memset",
          "gpu_user_annotation": "gpu_user_annotation"}
READ = 4 << 20


def kind(e):
    ph = e.get("ph")
    if ph in ("s", "t", "f"):
        return "flow %s" % e.get("cat", "")
    if e.get("name") == "[memory]":
        return "[memory]"
    if ph == "M":
        return "metadata"
    return BY_CAT.get(e.get("cat"), "other")


def one_line(text):
    """An event's text in the one-line form Kineto writes (`{"ph": "X", "args": {"a": 1}}`), for files
    that were re-indented after the profiler wrote them, so their byte shares compare with others."""
    text = re.sub(r"\s*\n\s*", " ", text)
    return re.sub(r"([\[{]) | ([\]}])", r"\1\2", text)


def events(path, limit_bytes=None):
    """Yields (event, bytes of its text) for each event of traceEvents (or of a bare array), reading
    the file in chunks. Stops after the event that crosses limit_bytes (of decompressed text)."""
    fh = gzip.open(path, "rb") if open(path, "rb").read(2) == b"\x1f\x8b" else open(path, "rb")
    dec = json.JSONDecoder()
    buf, pos, eof, consumed = "", 0, False, 0

    def more():
        nonlocal buf, pos, eof, consumed
        data = fh.read(READ)
        eof = not data
        consumed += pos
        buf = buf[pos:] + data.decode("utf-8", errors="replace")
        pos = 0

    more()
    # Find the array: the file's first non-space character, or the value of "traceEvents".
    while not buf.lstrip() and not eof:
        more()
    if buf.lstrip().startswith("["):
        pos = buf.index("[") + 1
    else:
        while True:
            at = buf.find('"traceEvents"')
            if at >= 0:
                bracket = buf.find("[", at)
                if bracket >= 0:
                    pos = bracket + 1
                    break
            if eof:
                raise ValueError("%s: no traceEvents array" % path)
            keep = max(0, len(buf) - 64)  # the key may straddle two reads
            consumed += keep
            buf, pos = buf[keep:], 0
            more()
    while True:
        while True:  # skip separators
            while pos < len(buf) and buf[pos] in " \t\r\n,":
                pos += 1
            if pos < len(buf) or eof:
                break
            more()
        if pos >= len(buf) or buf[pos] == "]":
            return
        while True:
            try:
                e, end = dec.raw_decode(buf, pos)
                break
            except json.JSONDecodeError:
                if eof:
                    raise ValueError("%s: bad or truncated event at character %d" % (path, consumed + pos))
                more()
        nbytes = end - pos
        if "\n" in buf[pos:end]:
            nbytes = len(one_line(buf[pos:end]))
        yield e, nbytes
        pos = end
        if limit_bytes is not None and consumed + pos >= limit_bytes:
            return
        if len(buf) - pos < 65536 and not eof:
            more()


def mix(path, limit_mb=None):
    """{"events": n, "bytes": text bytes of the events, "count": {kind: n}, "size": {kind: bytes}}"""
    count, size = collections.Counter(), collections.Counter()
    for e, nbytes in events(path, None if limit_mb is None else int(limit_mb * 1e6)):
        k = kind(e)
        count[k] += 1
        size[k] += nbytes
    return {"path": path, "events": sum(count.values()), "bytes": sum(size.values()),
            "count": dict(count), "size": dict(size)}


def shares(m):
    """{kind: (% of events, % of bytes)}"""
    n, b = max(1, m["events"]), max(1, m["bytes"])
    return {k: (100.0 * m["count"].get(k, 0) / n, 100.0 * m["size"].get(k, 0) / b) for k in m["count"]}


def ordered_kinds(mixes):
    seen = set().union(*(m["count"] for m in mixes))
    return [k for k in KINDS if k in seen] + sorted(seen - set(KINDS))


def label(path):
    """The file's folder and name, the name cut short: a column heading."""
    parts = path.split("/")
    name = parts[-1]
    for ext in (".gz", ".json", ".pt.trace"):
        name = name[:-len(ext)] if name.endswith(ext) else name
    name = name if len(name) <= 24 else name[:22] + ".."
    return "/".join(parts[-2:-1] + [name])


def print_table(mixes, labels=None, out=sys.stdout):
    """One markdown table: a row per kind, "% events / % bytes" per file."""
    labels = labels or [label(m["path"]) for m in mixes]
    print("| kind | " + " | ".join(labels) + " |", file=out)
    print("|---" * (len(mixes) + 1) + "|", file=out)
    print("| events | " + " | ".join("{:,}".format(m["events"]) for m in mixes) + " |", file=out)
    print("| bytes/event | " + " | ".join("%.0f" % (m["bytes"] / max(1, m["events"])) for m in mixes) + " |", file=out)
    sh = [shares(m) for m in mixes]
    for k in ordered_kinds(mixes):
        cells = ["%.1f / %.1f" % s[k] if k in s else "-" for s in sh]
        print("| %% %s (events / bytes) | %s |" % (k, " | ".join(cells)), file=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", metavar="TRACE")
    ap.add_argument("--limit-mb", type=float, help="only the events in the first N MB (decompressed)")
    ap.add_argument("--json", action="store_true", help="print the counts and bytes per kind as JSON")
    a = ap.parse_args()
    try:
        mixes = [mix(p, a.limit_mb) for p in a.files]
    except (OSError, ValueError) as e:
        print("trace_mix: %s" % e, file=sys.stderr)
        return 2
    if a.json:
        json.dump(mixes, sys.stdout, indent=1)
        print()
    else:
        print_table(mixes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
