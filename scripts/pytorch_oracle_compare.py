#!/usr/bin/env python3
"""Compares profana with the PyTorch 2.x oracle outputs in testdata/pytorch2/<case>/.

  scripts/pytorch_oracle_compare.py [--profana build/profana] [CASE ...]

For every table file of a case, runs `profana table` with the same options on the case's trace
and reports: identical, or which rows (by name) differ and in which columns, which rows only one
side prints, and the footers. Also compares export_stacks files (as multisets of lines) and the
optimizable text. A development aid for the conformance work; it changes nothing.
"""
import argparse
import collections
import gzip
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# oracle file -> profana table options (the same key_averages()/table() call)
TABLE_FLAGS = {
    "table_default.txt": [],
    "table_self_cpu.txt": ["--sort", "self_cpu_time_total", "--row-limit", "-1"],
    "table_cpu_total_top10.txt": ["--sort", "cpu_time_total", "--row-limit", "10"],
    "table_count_top15.txt": ["--sort", "count", "--row-limit", "15"],
    "table_self_cuda.txt": ["--sort", "self_cuda_time_total", "--row-limit", "-1"],
    "table_cuda_total_top20.txt": ["--sort", "cuda_time_total", "--row-limit", "20"],
    "table_by_input_shape.txt": ["--group-by-input-shape", "--sort", "cpu_time_total",
                                 "--row-limit", "-1"],
    "table_top_level.txt": ["--sort", "cpu_time_total", "--row-limit", "-1", "--top-level-only"],
    "table_self_cpu_mem.txt": ["--sort", "self_cpu_memory_usage", "--row-limit", "-1"],
    "table_self_cuda_mem.txt": ["--sort", "self_cuda_memory_usage", "--row-limit", "-1"],
    "table_by_stack_n5.txt": ["--group-by-stack", "5", "--sort", "self_cpu_time_total",
                              "--row-limit", "-1"],
    "table_raw_events_top25.txt": ["--raw", "--sort", "self_cpu_time_total", "--row-limit", "25"],
}


MEMORY_UNITS_113 = re.compile(r"(\d) (Gb|Mb|Kb|b)(?=  )")


def units_as_2x(text):
    """1.13 spelt memory sizes Gb/Mb/Kb/b, 2.x spells GB/MB/KB/B."""
    return MEMORY_UNITS_113.sub(lambda m: m.group(1) + " " + m.group(2).upper(), text)


def read(path):
    if os.path.exists(path):
        return open(path, encoding="utf-8").read()
    if os.path.exists(path + ".gz"):
        return gzip.decompress(open(path + ".gz", "rb").read()).decode("utf-8")
    return None


def cases():
    out = []
    for line in open(os.path.join(ROOT, "testdata/pytorch2/CASES"), encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        out.append((f[0], f[1]))
    return out


def split_table(text):
    """-> (headers, rows, footer): rows as lists of stripped cells, by the separator widths."""
    lines = text.split("\n")
    seps = [i for i, l in enumerate(lines) if l.startswith("---")]
    if len(seps) < 3:
        return [], [], lines
    widths = [len(w) for w in lines[seps[0]].split("  ") if w]

    def cells(line):
        out, pos = [], 0
        for w in widths:
            out.append(line[pos:pos + w].strip())
            pos += w + 2
        return out

    headers = cells(lines[seps[0] + 1])
    rows = [cells(l) for l in lines[seps[1] + 1:seps[2]] if l.strip()]
    footer = [l for l in lines[seps[2] + 1:] if l]
    return headers, rows, footer


def compare_table(name, oracle, mine):
    if oracle == mine:
        return [f"  {name}: identical"]
    oh, orows, ofoot = split_table(oracle)
    mh, mrows, mfoot = split_table(mine)
    out = [f"  {name}: DIFFERS ({len(orows)} PyTorch rows, {len(mrows)} profana rows)"]
    if oh != mh:
        out.append(f"    headers: PyTorch {oh} / profana {mh}")
    by_o = collections.defaultdict(list)
    by_m = collections.defaultdict(list)
    for r in orows:
        by_o[r[0]].append(r)
    for r in mrows:
        by_m[r[0]].append(r)
    only_o = [k for k in by_o if k not in by_m]
    only_m = [k for k in by_m if k not in by_o]
    if only_o:
        out.append(f"    only PyTorch: {only_o[:8]}{' ...' if len(only_o) > 8 else ''} ({len(only_o)})")
    if only_m:
        out.append(f"    only profana: {only_m[:8]}{' ...' if len(only_m) > 8 else ''} ({len(only_m)})")
    diffs = 0
    extra = []
    for k, ors in by_o.items():
        ms = by_m.get(k, [])
        if not ms:
            continue
        # same-name rows (a label and its GPU annotation): pair the most similar first
        sims = sorted(((sum(x == y for x, y in zip(a, b)), i, j) for i, a in enumerate(ors)
                       for j, b in enumerate(ms)), reverse=True)
        used_i, used_j, pairs = set(), set(), []
        for _, i, j in sims:
            if i not in used_i and j not in used_j:
                used_i.add(i)
                used_j.add(j)
                pairs.append((ors[i], ms[j]))
        extra += [f"PyTorch {k}" for i in range(len(ors)) if i not in used_i]
        extra += [f"profana {k}" for j in range(len(ms)) if j not in used_j]
        for a, b in pairs:
            if a != b and oh == mh:
                cols = [f"{oh[i]}: {a[i]} vs {b[i]}" for i in range(1, min(len(a), len(b))) if a[i] != b[i]]
                if diffs < 12:
                    out.append(f"    {k[:50]}: " + "; ".join(cols[:4]))
                diffs += 1
    if extra:
        out.append(f"    extra same-name rows: {extra[:6]}")
    if diffs > 12:
        out.append(f"    ... {diffs - 12} more differing rows")
    first = next((i for i, (a, b) in enumerate(zip(orows, mrows)) if a[0] != b[0]), None)
    if first is not None:
        out.append(f"    order differs from row {first}: PyTorch {orows[first][0]!r} / profana {mrows[first][0]!r}")
    if ofoot != mfoot:
        out.append(f"    footer: PyTorch {ofoot} / profana {mfoot}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profana", default=os.path.join(ROOT, "build/profana"))
    ap.add_argument("--keep-units", action="store_true",
                    help="do not respell profana's 1.13 memory units (Kb, b) as 2.x's (KB, B)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    for name, trace in cases():
        if args.names and name not in args.names:
            continue
        d = os.path.join(ROOT, "testdata/pytorch2", name)
        if not os.path.isdir(d):
            continue
        tpath = os.path.join(ROOT, "testdata/traces", trace)
        print(f"== {name} ({trace})")
        for fname, flags in TABLE_FLAGS.items():
            oracle = read(os.path.join(d, fname))
            if oracle is None:
                continue
            r = subprocess.run([args.profana, "table", "-q", tpath] + flags, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"  {fname}: profana exit {r.returncode}: {r.stderr.strip()[:200]}")
                continue
            mine = r.stdout if args.keep_units else units_as_2x(r.stdout)
            print("\n".join(compare_table(fname, oracle, mine)))
        for metric in ("self_cpu_time_total", "self_cuda_time_total"):
            for prefix in ("stacks_", "stacks_verbose_"):
                oracle = read(os.path.join(d, f"{prefix}{metric}.txt"))
                if oracle is None:
                    continue
                r = subprocess.run([args.profana, "stacks", "-q", "--stacks", "python", "--metric", metric, tpath],
                                   capture_output=True, text=True)
                a = collections.Counter(oracle.splitlines())
                b = collections.Counter(r.stdout.splitlines())
                same = sum((a & b).values())
                print(f"  {prefix}{metric}: PyTorch {sum(a.values())} lines, profana {sum(b.values())},"
                      f" common {same}" + (" (identical)" if oracle == r.stdout else ""))
        for mode in ("intended", "literal"):
            oracle = read(os.path.join(d, f"optimizable_{mode}.txt"))
            if oracle is None:
                continue
            r = subprocess.run([args.profana, "optimizable", "-q", "--top", "5", tpath], capture_output=True, text=True)
            print(f"  optimizable ({mode}): " + ("identical" if oracle == r.stdout else
                  f"PyTorch {oracle.splitlines()[:1]}... / profana {r.stdout.splitlines()[:1]}..."))
            first = [l for l in oracle.splitlines() if l.startswith("Event:")]
            mine = [l for l in r.stdout.splitlines() if l.startswith("Event:")]
            if first or mine:
                print(f"    PyTorch events {[l[22:] for l in first]} / profana {[l[22:] for l in mine]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
