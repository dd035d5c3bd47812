#!/usr/bin/env python3
"""What profana writes, profana reads back, and it gives the same answers.

For each input below (representative traces of every format in testdata/, chosen so the test
runs in about a minute on two cores: every trace of testdata/ would take far longer), plus a
trace of hostile names and one near the limit of profana's sums, both written here:

* convert to Chrome-trace JSON, to the native file and to its text twin; every command then
  prints on the converted file what it prints on the original (stdout; the input's name, where
  an output quotes it, replaced by INPUT);
* summarize, then merge in several tree shapes (the same bytes whatever the shape), then table,
  steps, kernels and collectives on the merged summary print what they print on the traces;
* every JSON output (the commands', summaries, converted traces) parses as strict JSON (UTF-8,
  no NaN or Infinity, no repeated key) and validates against its schema in docs/schema
  (with python3-jsonschema, which scripts/bootstrap installs; without it, parsing only).

Usage: round_trip_test.py PROFANA REPO_ROOT
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

PROFANA, ROOT = sys.argv[1], sys.argv[2]
TESTDATA = os.path.join(ROOT, "testdata")
try:
    import jsonschema
except ImportError:  # parsing is still checked
    jsonschema = None

TMP = tempfile.mkdtemp(prefix="profana_round_trip_")
failures = []
checked = {"runs": 0, "json": 0, "schemas": 0}


def run(*args, ok=(0,)):
    p = subprocess.run([PROFANA, *args], capture_output=True)
    checked["runs"] += 1
    if p.returncode not in ok:
        failures.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p


def reject_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def unique_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError(f"repeated key in {keys}")
    return dict(pairs)


def strict_json(data, what):
    """Parses bytes as strict JSON and validates each profana document against its schema."""
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=reject_constant,
                         object_pairs_hook=unique_keys)
    except (UnicodeDecodeError, ValueError) as e:
        failures.append(f"{what}: not strict JSON: {e}")
        return None
    checked["json"] += 1
    for d in doc if isinstance(doc, list) else [doc]:
        if not isinstance(d, dict) or "schema" not in d or jsonschema is None:
            continue
        name = d["schema"].split(".", 1)[1].split("/")[0]
        with open(os.path.join(ROOT, "docs", "schema", f"{name}-1.json")) as f:
            schema = json.load(f)
        try:
            jsonschema.validate(d, schema, cls=jsonschema.Draft202012Validator)
            checked["schemas"] += 1
        except jsonschema.ValidationError as e:
            failures.append(f"{what}: {d['schema']}: {e.message} at {list(e.absolute_path)}")
    return doc


def database(sql_file, name, extra_sql=""):
    path = os.path.join(TMP, name)
    with open(os.path.join(TESTDATA, sql_file)) as f:
        sql = f.read() + extra_sql
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.commit()
    db.close()
    return path


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return path


def hostile_names_trace():
    """A GPU trace whose names hold what each output kind must escape."""
    tail = "\\nFORGED | row \\u001b[2J\\t|`x`\\\"q\\\" \\\\ <b>&amp; caf\u00e9"
    name = lambda base: "=" + base + tail
    events = [
        '{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000}',
        '{"ph": "X", "cat": "cpu_op", "name": "%s", "pid": 1, "tid": 1, "ts": 10, "dur": 500}' % name("op"),
        '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"correlation": 1}}',
        '{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, "ts": 100, "dur": 50, "args": {"device": 0, "stream": 7, "correlation": 1}}' % name("kernel"),
        '{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 4096, "Addr": 64}}',
    ]
    return write("hostile_names.json", '{"traceEvents": [\n' + ",\n".join(events) + "\n]}\n")


def near_limit_trace():
    """Durations and bytes just under what profana's sums hold (2^61): they must round-trip."""
    events = [
        '{"ph": "X", "cat": "cpu_op", "name": "long", "pid": 1, "tid": 1, "ts": 0, "dur": 1000000000000000}',
        '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"correlation": 1}}',
        '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 2, "dur": 1000000000000000, "args": {"device": 0, "stream": 7, "correlation": 1}}',
        '{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 3, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 1000000000000000000, "Addr": 64}}',
    ]
    return write("near_limit.json", '{"traceEvents": [\n' + ",\n".join(events) + "\n]}\n")


# One trace of each format and kind: CPU with memory records (PyTorch 1.13's oracle), a real GPU
# rank with collectives (gzipped), a legacy float-time trace, each database format from its SQL
# fixture (one with text that is not UTF-8), rocprofv3 JSON, and the two written here.
TRACES = [
    os.path.join(TESTDATA, "oracle/cnn_train/all/trace.kineto_like.json"),
    os.path.join(TESTDATA, "traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz"),
    os.path.join(TESTDATA, "oracle/nested_labels/legacy_plain/trace.json"),
    database("nvprof/small.sql", "nvprof.nvvp"),
    database("nsys/schema_3_25.sql", "nsys.sqlite"),
    # Names that are not UTF-8 (a kernel's and an NVTX range's): read with U+FFFD.
    database("nsys/schema_3_25.sql", "nsys_not_utf8.sqlite",
             "UPDATE StringIds SET value = CAST(x'6b65726e656cff' AS TEXT) WHERE id = 6;"
             "UPDATE NVTX_EVENTS SET text = CAST(x'53746570ff2031' AS TEXT) WHERE text = 'Step 1';"),
    database("rpd/small.sql", "rpd.rpd"),
    database("rocpd/small.sql", "rocpd.db"),
    os.path.join(TESTDATA, "rocprofv3/small.json"),
    hostile_names_trace(),
    near_limit_trace(),
]

# (command and options, formats): what runs on each trace and on its conversions.
COMMANDS = [
    (["table"], ["text", "json", "csv"]),
    (["table", "--raw", "--row-limit", "-1"], ["text", "json"]),
    (["tree"], ["text", "json"]),
    (["stacks"], ["text", "json"]),
    (["optimizable"], ["text", "json"]),
    (["queue"], ["text", "json"]),
    (["idle"], ["text", "json"]),
    (["memory"], ["text", "json"]),
    (["kernels"], ["text", "json"]),
    (["steps"], ["text", "json"]),
]


def normalized(data, path):
    return data.replace(path.encode(), b"INPUT")


def without_input(doc):
    """A JSON output without what names its input: the file and the format it was read as."""
    for d in doc if isinstance(doc, list) else [doc]:
        if isinstance(d, dict):
            for key in ("input", "inputs", "format"):
                d.pop(key, None)
    return doc


def job_header(text):
    """A job's table starts with a line naming its ranks ("1 rank (0), summed"): left out."""
    first, _, rest = text.partition(b"\n")
    return rest if first.endswith(b", summed") else text


def outputs(path):
    out = {}
    for command, formats in COMMANDS:
        for fmt in formats:
            p = run(command[0], path, *command[1:], "--format", fmt, "-q")
            if fmt == "json":
                out[(tuple(command), fmt)] = without_input(strict_json(p.stdout, f"{command[0]} {path}"))
            else:
                out[(tuple(command), fmt)] = normalized(p.stdout, path)
    return out


for trace in TRACES:
    original = outputs(trace)
    base = os.path.join(TMP, os.path.basename(trace))
    for ext in [".converted.json", ".converted.pfa", ".converted.txt"]:
        converted = base + ext
        run("convert", trace, "-o", converted, "-q")
        if ext == ".converted.json":
            with open(converted, "rb") as f:
                strict_json(f.read(), f"convert {trace}")
        again = outputs(converted)
        for key, data in original.items():
            if again[key] != data:
                failures.append(f"{' '.join(key[0])} --format {key[1]}: {trace} and its {ext} differ")
    # A summary of the trace alone, merged with nothing: table, steps and kernels as on the trace
    # read as a job (--ranks: a file of several processes is then one rank per process, as its
    # summary holds it; a single trace's table prints the file as one).
    summary = base + ".pfs"
    run("summarize", trace, "-o", summary, "-q")
    with open(summary, "rb") as f:
        strict_json(f.read(), f"summarize {trace}")
    merged = base + ".merged.pfs"
    run("merge", summary, "-o", merged)
    for command in ["table", "steps", "kernels"]:
        a = run(command, trace, "--ranks", "0-999999", "-q").stdout
        b = run(command, merged, "-q").stdout
        if job_header(normalized(a, trace)) != job_header(normalized(b, merged)):
            failures.append(f"{command}: {trace} and its merged summary differ")

# Jobs: each rank summarised alone, then merged as three trees; the same bytes from each, and
# table, steps, kernels and collectives on the merged file as on the traces.
for job in ["job/collectives_three_ranks", "job/two_ranks", "traces/param/dlrm_kineto"]:
    directory = os.path.join(TESTDATA, job)
    ranks = sorted(f for f in os.listdir(directory) if ".json" in f)
    parts = []
    for i, rank in enumerate(ranks):
        part = os.path.join(TMP, f"{job.replace('/', '_')}.{i}.pfs")
        run("summarize", os.path.join(directory, rank), "-o", part, "-q")
        parts.append(part)
    trees = []
    flat = os.path.join(TMP, "flat.pfs")
    run("merge", *parts, "-o", flat)
    trees.append(flat)
    left = os.path.join(TMP, "left.pfs")
    run("merge", *parts[:2], "-o", left)
    run("merge", left, *parts[2:], "-o", os.path.join(TMP, "left_all.pfs"))
    trees.append(os.path.join(TMP, "left_all.pfs"))
    right = os.path.join(TMP, "right.pfs")
    run("merge", *parts[1:], "-o", right)
    run("merge", parts[0], right, "-o", os.path.join(TMP, "right_all.pfs"))
    trees.append(os.path.join(TMP, "right_all.pfs"))
    whole = os.path.join(TMP, "whole.pfs")
    run("summarize", directory, "-o", whole, "-q")
    trees.append(whole)
    contents = []
    for t in trees:
        with open(t, "rb") as f:
            contents.append(f.read())
        strict_json(contents[-1], f"merge {job}")
    if len(set(contents)) != 1:
        failures.append(f"{job}: merge trees give different bytes")
    for command, extra in [("table", []), ("steps", []), ("kernels", []), ("collectives", ["-n", "-1"])]:
        for fmt in ["text", "json"]:
            a = run(command, directory, *extra, "--format", fmt, "-q", ok=(0, 2))
            b = run(command, flat, *extra, "--format", fmt, "-q", ok=(0, 2))
            if a.returncode != b.returncode:
                failures.append(f"{command} {job}: exit {a.returncode} on the traces, {b.returncode} merged")
            elif fmt == "json" and a.returncode == 0:
                da, db = strict_json(a.stdout, f"{command} {job}"), strict_json(b.stdout, f"{command} {flat}")
                for d in (da, db):  # the inputs are named as given
                    if isinstance(d, dict):
                        d.pop("inputs", None)
                        d.pop("input", None)
                if da != db:
                    failures.append(f"{command} --format json: {job} and its merged summary differ")
            elif a.returncode == 0 and a.stdout.replace(directory.encode(), b"INPUT") != b.stdout.replace(flat.encode(), b"INPUT"):
                failures.append(f"{command} --format {fmt}: {job} and its merged summary differ")

print(f"{checked['runs']} runs, {checked['json']} JSON documents parsed, {checked['schemas']} validated"
      + ("" if jsonschema else " (python3-jsonschema missing: schemas not checked)"))
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
