#!/usr/bin/env python3
"""Runs every shell example of README.md and docs/*.md and compares what it prints.

An example is a fenced block whose first line starts with "$ ". Each "$ COMMAND" line is run with
bash from the repository root, with the directory of the profana under test first on PATH (so
"profana" in the example is that binary), standard error merged into standard output; the lines
after it, up to the next "$ " line or the end of the block, are its expected output, compared
exactly (trailing spaces included). Examples write their files under /tmp/; the test gives each run
a private folder in its place (the path is swapped in the command and back in the output), so that
runs side by side do not share files. A block that cannot run here (it needs a GPU, a cluster, a
file a user has but the repository does not) is marked on the line just before its fence:

    <!-- example: not checked (the reason) -->

Any other fenced block with a "$ " line not at its start is an error, so an example cannot be
skipped by accident.

Usage: doc_examples_test.py PROFANA REPO_ROOT [--update]
  --update rewrites each checked block's output with what the command printed (review the diff).
"""
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP_MARKER = re.compile(r"^<!-- example: not checked \(.+\) -->$")
FENCE = re.compile(r"^```")


def doc_files(root):
    files = [os.path.join(root, "README.md")]
    docs = os.path.join(root, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return files


def blocks(lines):
    """Yields (first line index inside the fence, end index, skipped) for each fenced block."""
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            start = i + 1
            end = start
            while end < len(lines) and not FENCE.match(lines[end]):
                end += 1
            skipped = i > 0 and SKIP_MARKER.match(lines[i - 1]) is not None
            yield start, end, skipped
            i = end + 1
        else:
            i += 1


def run(command, root, env, tmp):
    command = command.replace("/tmp/", tmp + "/")
    result = subprocess.run(["bash", "-c", command], cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, timeout=120)
    output = result.stdout.decode("utf-8", errors="replace").replace(tmp + "/", "/tmp/")
    return output.splitlines()


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    profana, root = os.path.abspath(args[0]), os.path.abspath(args[1])
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(profana) + os.pathsep + env.get("PATH", "")
    env["NO_COLOR"] = "1"
    env.pop("PROFANA_COLOR", None)
    if os.path.basename(profana) != "profana":
        sys.exit("doc_examples_test: the binary must be named profana: " + profana)

    tmp = tempfile.mkdtemp(prefix="profana-doc-examples-")
    try:
        return check_all(root, env, tmp, update)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check_all(root, env, tmp, update):
    checked = skipped_count = failures = 0
    for path in doc_files(root):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        out = []  # the file rewritten, for --update
        last = 0
        for start, end, skipped in blocks(lines):
            body = lines[start:end]
            dollar = [k for k, line in enumerate(body) if line.startswith("$ ")]
            if not dollar:
                continue
            if dollar[0] != 0:
                print(f"{rel}:{start + 1}: a block with '$ ' lines must start with one")
                failures += 1
                continue
            if skipped:
                skipped_count += 1
                continue
            new_body = []
            for n, k in enumerate(dollar):
                stop = dollar[n + 1] if n + 1 < len(dollar) else len(body)
                command = body[k][2:]
                expected = body[k + 1:stop]
                actual = run(command, root, env, tmp)
                checked += 1
                new_body.append(body[k])
                new_body += actual
                if actual != expected:
                    failures += 1
                    print(f"{rel}:{start + k + 1}: output differs: $ {command}")
                    for d in difflines(expected, actual):
                        print("    " + d)
            out += lines[last:start] + new_body
            last = end
        out += lines[last:]
        if update and out != lines:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(out))
    print(f"doc examples: {checked} commands checked, {skipped_count} blocks marked not checked, "
          f"{failures} failed")
    if checked == 0:
        print("doc_examples_test: no example found")
        return 1
    return 1 if failures and not update else 0


def difflines(expected, actual):
    return list(difflib.unified_diff(expected, actual, "documented", "printed", lineterm="", n=1))


if __name__ == "__main__":
    sys.exit(main())
