#!/usr/bin/env python3
"""Writes a Kineto-like trace of N [memory] events for timing `profana memory`.

  scripts/gen_memory_trace.py --events 10000000 -o bench-out/memory-10000000.json

Two threads, each writing its own records after the other's (Kineto flushes per-thread buffers,
so a real file is not in time order); an op (aten::empty, inside a ProfilerStep) around every
eight records; allocations reuse freed addresses the way a caching allocator does, the live set
rises and falls per step, and every record carries Addr, Total Allocated and Total Reserved
consistent with the replay (plus 1 GiB allocated before the trace). Deterministic for a seed.
"""
import argparse
import os
import random

MEM = ('{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": %d, "ts": %d.%03d, '
       '"args": {"Device Type": 1, "Device Id": 0, "Addr": %d, "Bytes": %d, "Total Allocated": %d, '
       '"Total Reserved": %d}}')
OP = '{"ph": "X", "cat": "cpu_op", "name": "%s", "pid": 1, "tid": %d, "ts": %d.%03d, "dur": %d.%03d, "args": {}}'


def thread_records(rnd, tid, count, state):
    """Yields (lines) for one thread: ops and the records inside them, in time order."""
    free_addrs, live = [], []
    next_addr = 0x7f0000000000 + tid * 0x1000000000
    t = state["t"]
    emitted = 0
    step_len = 20000
    while emitted < count:
        in_step = emitted % step_len
        grow = in_step < step_len * 0.6  # forward: the live set grows; then it shrinks
        n = min(8, count - emitted)
        op_start = t
        lines = []
        for _ in range(n):
            t += rnd.randrange(200, 2000)
            if live and (not grow or rnd.random() < 0.35) and rnd.random() < 0.9:
                addr, size = live.pop(rnd.randrange(len(live)))
                free_addrs.append(addr)
                state["total"] -= size
                lines.append(MEM % (tid, t // 1000, t % 1000, addr, -size, state["total"], state["reserved"]))
            else:
                size = 512 << rnd.randrange(0, 14)
                addr = free_addrs.pop() if free_addrs else next_addr
                if addr == next_addr:
                    next_addr += 1 << 24
                live.append((addr, size))
                state["total"] += size
                state["reserved"] = max(state["reserved"], state["total"])
                lines.append(MEM % (tid, t // 1000, t % 1000, addr, size, state["total"], state["reserved"]))
        emitted += n
        t += 500
        d = t - op_start
        yield OP % ("aten::empty", tid, op_start // 1000, op_start % 1000, d // 1000, d % 1000)
        yield from lines
        t += rnd.randrange(100, 1000)
        state["t"] = t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    # Thread 1 runs first, then thread 2, so the totals (generated in time order) match the
    # replay; the file holds thread 2's buffer before thread 1's, as Kineto may write them.
    half = a.events // 2
    state = {"total": 1 << 30, "reserved": 1 << 31, "t": 1700000000000000000}
    parts = []
    for tid, count in ((1, half), (2, a.events - half)):
        path = "%s.part%d" % (a.output, tid)
        with open(path, "w") as f:
            buf = []
            for line in thread_records(rnd, tid, count, state):
                buf.append(line)
                if len(buf) >= 65536:
                    f.write(",\n".join(buf) + ",\n")
                    buf = []
            f.write(",\n".join(buf))
        parts.append(path)
    with open(a.output, "w") as out:
        out.write('{"schemaVersion": 1, "profile_memory": 1, "traceEvents": [\n')
        for i, path in enumerate(reversed(parts)):
            with open(path) as f:
                text = f.read().rstrip().rstrip(",")
            out.write(("" if i == 0 else ",\n") + text)
            os.remove(path)
        out.write('\n], "traceName": "memory-bench"}\n')


if __name__ == "__main__":
    main()
