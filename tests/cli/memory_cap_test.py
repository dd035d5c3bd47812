#!/usr/bin/env python3
"""--max-memory caps the whole process, not only the content it reads.

Generates a 50 MB trace (scripts/gen_trace.py), runs `profana table` on it without a limit, then
twice what that run needed (its peak RSS) plus 64 MiB for the address space the data limit counts
beside the memory the run touches, each as its own child so that its peak RSS (wait4) is its own.
A 60 MB trace of the smallest events (about 80 bytes each, so the most events a byte can hold)
is run under 64M, the smallest cap: its content fits, the run does not (it needs 72-80 MiB on
one CPU, more with a parser thread per core). Under a cap too small the run must stop with exit
2, the message naming the limit and how to raise it, no output file left, and a peak RSS under
the limit; under a cap large enough the output must be the unlimited run's, byte for byte. Under a caller's `ulimit -d` from
24 to 192 MiB, `table` and `tree` either finish or stop with the same message (never an
internal error, whichever thread or allocation meets the limit). A build with AddressSanitizer has
no cap (its shadow memory is far past any), so there the test is skipped (77).

Usage: memory_cap_test.py PROFANA REPO_ROOT [--sanitized]
"""
import os
import subprocess
import sys
import tempfile

MIB = 1 << 20


def run(argv):
    """(exit code, stdout, stderr, peak RSS in bytes) of one child."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return child.returncode, out.read(), err.read().decode(), usage.ru_maxrss * 1024


def write_dense_trace(path, size):
    """A Kineto trace of about `size` bytes of the smallest complete events: one thread, four
    names. Written a chunk at a time: the peak RSS of a child starts at this process's (vfork)."""
    names = ("aten::add", "aten::mul", "aten::mm", "aten::relu")
    event = '{"ph":"X","cat":"cpu_op","name":"%s","pid":1,"tid":1,"ts":%d,"dur":2}'
    with open(path, "w") as f:
        f.write('{"traceEvents": [\n' + event % (names[0], 0))
        written, n = 0, 1
        while written < size:
            chunk = "".join(",\n" + event % (names[i % 4], 3 * i) for i in range(n, n + 10000))
            f.write(chunk)
            written += len(chunk)
            n += 10000
        f.write("\n]}\n")


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    profana, root = sys.argv[1], sys.argv[2]
    if "--sanitized" in sys.argv[3:]:
        print("skipped: a build with AddressSanitizer has no memory cap")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "t.json")
        subprocess.run([sys.executable, os.path.join(root, "scripts/gen_trace.py"), "--size-mb",
                        "50", "--seed", "3", "-o", trace], check=True, capture_output=True)
        code, want, err, free_rss = run([profana, "table", trace, "--max-memory", "0"])
        if code != 0:
            fail(f"unlimited run: exit {code}: {err}")
        dense = os.path.join(tmp, "dense.json")
        write_dense_trace(dense, 60_000_000)

        # Under what the run needs: stopped, said, nothing written, peak RSS under the cap.
        limit_mib = 64
        out_file = os.path.join(tmp, "out.txt")
        code, out, err, rss = run([profana, "table", dense, "--max-memory", f"{limit_mib}M",
                                   "-o", out_file])
        if code != 2:
            fail(f"--max-memory {limit_mib}M: exit {code}, want 2; stderr: {err}")
        expected = (f"profana: error: the run needs more memory than the limit of "
                    f"{limit_mib}.00 MiB (--max-memory); if the input is genuine, raise the "
                    f"limit, e.g. --max-memory {4 * limit_mib}M, or 0 for none\n")
        if err != expected:
            fail(f"--max-memory {limit_mib}M: stderr {err!r}, want {expected!r}")
        if rss > limit_mib * MIB:
            fail(f"--max-memory {limit_mib}M: peak RSS {rss / MIB:.1f} MiB, past the limit")
        if sorted(os.listdir(tmp)) != ["dense.json", "t.json"]:
            fail(f"--max-memory {limit_mib}M left files behind: {os.listdir(tmp)}")

        # Twice what it needed, and room for what the data limit counts beside the touched memory
        # (the threads' stacks, column reservations not yet written): the same table.
        limit_mib = 2 * free_rss // MIB + 64
        code, out, err, rss = run([profana, "table", trace, "--max-memory", f"{limit_mib}M"])
        if code != 0 or out != want:
            fail(f"--max-memory {limit_mib}M: exit {code}, output differs: {out == want}; {err}")

        # A limit the caller set (ulimit -d) is never raised, and is named when reached.
        code, out, err, rss = run(["bash", "-c", f'ulimit -d {64 * 1024}; exec "$0" "$@"',
                                   profana, "table", dense, "--max-memory", "1G"])
        expected = ("profana: error: the run needs more memory than the data limit of 64.00 MiB "
                    "its caller set (ulimit -d)\n")
        if code != 2 or err != expected:
            fail(f"ulimit -d 64M: exit {code}, stderr {err!r}, want 2 and {expected!r}")

        # Tighter and looser caller limits, where the limit may be reached by a thread that
        # cannot get its stack rather than by an allocation: the same message, or the table.
        for limit_mib in (24, 32, 40, 48, 56, 72, 96, 128, 192):
            for command in (["table", trace], ["tree", trace, "-o", os.path.join(tmp, "tree.txt")]):
                code, out, err, _ = run(["bash", "-c", f'ulimit -d {limit_mib * 1024}; exec "$0" "$@"',
                                         profana] + command)
                expected = ("profana: error: the run needs more memory than the data limit of "
                            f"{limit_mib}.00 MiB its caller set (ulimit -d)\n")
                if not ((code == 2 and err == expected) or (code == 0 and err == "")):
                    fail(f"ulimit -d {limit_mib}M, {command[0]}: exit {code}, stderr {err!r}")
                if command[0] == "table" and code == 0 and out != want:
                    fail(f"ulimit -d {limit_mib}M: the table differs from the unlimited run's")
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
