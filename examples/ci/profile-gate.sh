#!/usr/bin/env bash
# A CI job's gate on a saved profiler trace: fail the build when the trace breaks its budget or is
# slower than the baseline. Usage: profile-gate.sh TRACE BUDGET [BASELINE]
# PROFANA names the binary (default: profana on PATH). Jobs that profile several steps add
# --skip-first-step to each command, to leave the warm-up step out.
set -u
profana=${PROFANA:-profana}
trace=$1 budget=$2 baseline=${3:-}

# 1. Where did the time go? A Markdown diff for the job summary (never fails the job).
if [ -n "$baseline" ]; then
  "$profana" diff "$baseline" "$trace" --format markdown --row-limit 15 \
    >> "${GITHUB_STEP_SUMMARY:-/dev/stdout}"
fi
# 2. The gates: exit 1 when a rule fails, 2 when the trace or the budget is broken.
"$profana" check "$trace" --budget "$budget" || exit 1
if [ -n "$baseline" ]; then
  "$profana" check "$trace" --baseline "$baseline" --max-regression 5% || exit 1
fi
echo "profile gate passed"
