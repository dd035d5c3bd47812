#!/usr/bin/env python3
"""Holistic Trace Analysis' per-stream idle breakdown and queue length, re-derived with the
standard library only (no pandas), to work out the values the tests expect from profana.

It follows the rules of HTA's `Trace.load_traces`, `BreakdownAnalysis.get_idle_time_breakdown`
and `TraceCounters.get_queue_length_time_series` / `get_queue_length_summary` /
`get_time_spent_blocked_on_full_queue` (facebookresearch/HolisticTraceAnalysis, hta/):

* Loading: events without `dur` or `cat`, and the profiler's own `Trace` span, are dropped.
  Fractional timestamps are rounded inwards (start up, end down), in microseconds.
* Window: with two or more `ProfilerStep#N`, host events starting at or after the last step's
  start are dropped (`include_last_profiler_step=False`), and device events are kept only when
  a kept host event has their correlation id.
* Idle, per stream: device events (those with a stream) in start order; the gap to the previous
  one (its start minus the previous end) is host wait when the launch call started after the
  previous end, else kernel wait when shorter than `consecutive_kernel_delay` (30, in the
  trace's microseconds), else other.
* Queue, per stream: +1 at the start of each launch call of HTA's list that has a device event,
  -1 at the start of that event; one row per change, sorted by time; the summary is over the
  rows (count, plain mean, max); blocked time sums, over rows at or above the limit, the time to
  the next row.

At equal timestamps HTA's sort is not stable; this script keeps HTA's concatenation order
(launch calls first, then device events, each in file order), as profana's `--model hta` does.

Usage: scripts/hta_rules.py TRACE [--delay US] [--include-last-step] [--queue-limit N]
"""
import argparse
import gzip
import json
import math

LAUNCHES = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
    "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
    "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
    "runFunction - job_prep_and_submit_for_execution",
}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    rows = []
    for e in events:
        if "dur" not in e or e.get("cat") is None or e.get("cat") == "Trace":
            continue
        args = e.get("args") or {}
        try:
            stream = int(args.get("stream", -1))
        except (TypeError, ValueError):
            stream = -1
        ts, end = e["ts"], e["ts"] + e["dur"]
        if isinstance(ts, float) or isinstance(end, float):
            ts, end = math.ceil(ts), math.floor(end)
        rows.append({"name": e.get("name", ""), "ts": ts, "end": end, "stream": stream,
                     "corr": args.get("correlation", -1)})
    return rows


def window(rows, include_last):
    host = [r for r in rows if not (r["stream"] >= 0 and r["corr"] >= 0)]
    dev = [r for r in rows if r["stream"] >= 0 and r["corr"] >= 0]
    steps = {r["name"] for r in host if r["name"].startswith("ProfilerStep#")}
    if len(steps) >= 2 and not include_last:
        last = max(r["ts"] for r in host if r["name"] in steps)
        host = [r for r in host if r["ts"] < last]
    corr = {r["corr"] for r in host}
    return host, [r for r in dev if r["corr"] in corr]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--delay", type=float, default=30)
    ap.add_argument("--include-last-step", action="store_true")
    ap.add_argument("--queue-limit", type=int, default=1024)
    a = ap.parse_args()
    host, dev = window(load(a.trace), a.include_last_step)
    launch_of = {}
    for r in host:
        if r["corr"] >= 0:
            launch_of.setdefault(r["corr"], r)
    for stream in sorted({r["stream"] for r in dev}):
        ks = sorted((r for r in dev if r["stream"] == stream), key=lambda r: r["ts"])
        idle = {"host_wait": 0, "kernel_wait": 0, "other": 0}
        for prev, k in zip(ks, ks[1:]):
            gap = k["ts"] - prev["end"]
            launch = launch_of.get(k["corr"])
            if launch is not None and launch["ts"] > prev["end"]:
                idle["host_wait"] += gap
            elif gap < a.delay:
                idle["kernel_wait"] += gap
            else:
                idle["other"] += gap
        # Queue rows: launch calls of the list whose device event is on this stream, then the
        # device events, then a stable sort by time (equal times keep launches first).
        queued = [r for r in ks if r["corr"] in launch_of and
                  launch_of[r["corr"]]["name"] in LAUNCHES]
        # (The order among rows of the same sign at one time does not change the values.)
        changes = [(launch_of[r["corr"]]["ts"], +1) for r in queued]
        changes += [(r["ts"], -1) for r in queued]
        changes.sort(key=lambda c: c[0])
        length, values = 0, []
        for ts, d in changes:
            length += d
            values.append((ts, length))
        blocked = sum(values[i + 1][0] - values[i][0] for i in range(len(values) - 1)
                      if values[i][1] >= a.queue_limit)
        mean = sum(v for _, v in values) / len(values) if values else 0
        print(f"stream {stream}: kernels {len(ks)} host_wait {idle['host_wait']} "
              f"kernel_wait {idle['kernel_wait']} other {idle['other']} | queue rows "
              f"{len(values)} max {max((v for _, v in values), default=0)} mean {mean:.6f} "
              f"blocked {blocked}")


if __name__ == "__main__":
    main()
