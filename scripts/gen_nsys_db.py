#!/usr/bin/env python3
"""Writes an Nsight Systems SQLite export for benchmarks, with python3's sqlite3.

  gen_nsys_db.py --kernels 1000000 [--seed 1] -o out.sqlite

The tables are nsys's export schema 3.25, taken from testdata/nsys/schema_3_25.sql (its CREATE
statements). One process runs a loop of PyTorch ops as `nsys profile --pytorch=autograd-nvtx`
records them: per kernel, an NVTX range "aten::linear, seq = N, op_id = M, sizes = [...]" around
"aten::addmm, seq = N, op_id = M+1", a cudaLaunchKernel inside it and the kernel it launched on
one of four streams (names from a pool of 64). So --kernels N gives 2N NVTX ranges, N runtime
calls and N kernels: 4N rows. Output is a pure function of (--seed, --kernels).
"""
import argparse
import os
import random
import re
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernels", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if os.path.exists(a.output):
        os.remove(a.output)
    db = sqlite3.connect(a.output)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    schema = (ROOT / "testdata/nsys/schema_3_25.sql").read_text()
    for statement in re.findall(r"^CREATE TABLE .*?;$", schema, re.M | re.S):
        db.execute(statement)

    pid, tid = 4242, 4242
    global_pid = (1 << 48) | (pid << 24)
    global_tid = global_pid + tid
    kernel_names = ["void at::native::elementwise_kernel<128, 4, gemm_variant_%d>(int, float*)" % i
                    for i in range(64)]
    strings = ["cudaLaunchKernel_v7000", "pt_main_thread"] + kernel_names
    db.executemany("INSERT INTO StringIds VALUES (?, ?)", list(enumerate(strings, start=1)))
    kernel_id = {name: i for i, name in enumerate(strings, start=1)}

    def ranges():
        t = 1_000_000
        for n in range(a.kernels):
            shapes = "[[%d, %d], [%d, %d], [%d]]" % (rng.choice((8, 16, 32)), 64, 128, 64, 128)
            yield (t, t + 10_000, 59, "aten::linear, seq = %d, op_id = %d, sizes = %s" % (n, 2 * n, shapes),
                   global_tid, None, 0)
            yield (t + 1_000, t + 9_000, 59, "aten::addmm, seq = %d, op_id = %d" % (n, 2 * n + 1),
                   global_tid, None, 0)
            t += 12_000

    db.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)", ranges())

    def launches():
        t = 1_000_000
        for n in range(a.kernels):
            yield (t + 2_000, t + 4_000, 1, global_tid, n + 1, 1, 0)
            t += 12_000

    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, "
                   "correlationId, nameId, returnValue) VALUES (?, ?, ?, ?, ?, ?, ?)", launches())

    def kernels():
        t = 1_000_000
        for n in range(a.kernels):
            name = kernel_id[rng.choice(kernel_names)]
            yield (t + 5_000, t + 5_000 + rng.randint(1_000, 3_000), 0, 1, 7 + 4 * (n % 4), n + 1,
                   global_pid, name, name, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, n + 1, "[]")
            t += 12_000

    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
                   "correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY, "
                   "gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
                   "localMemoryPerThread, localMemoryTotal, gridId, tensorSizeMinusOneElements) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", kernels())
    db.execute("INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (2, 20, ?)", (global_tid,))
    db.execute("INSERT INTO PROCESSES VALUES (?, ?, 'python3')", (global_pid, pid))
    db.execute("INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.25.0')")
    db.commit()
    db.close()
    print("%s: %d kernels, %d NVTX ranges, %d runtime calls, %.0f MB" % (
        a.output, a.kernels, 2 * a.kernels, a.kernels, os.path.getsize(a.output) / 1e6), file=sys.stderr)


if __name__ == "__main__":
    main()
