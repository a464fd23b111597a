#!/usr/bin/env bash
# The release gate's run steps (called by .github/workflows/release-gate.yml; runs the same locally):
#   scripts/gate.sh MODEL [RUN_NAME] [BASELINE]
# 1. runs the probes on MODEL, saves the run in the results store as RUN_NAME (unless that name is
#    already there: a re-run of the same release keeps the first result), and compares it with the
#    saved run BASELINE, whatever the names (a missing baseline is reported with the command that
#    creates it; a BASELINE equal to RUN_NAME is the saved run of that name, which a re-run must reproduce);
# 2. writes the history of the last releases (table, Markdown, plot) into the report directory and,
#    on GitHub Actions, appends the summary tables and the comparison to the job summary;
# 3. exits with pytest's status: non-zero when a probe failed its threshold or a metric regressed
#    beyond the noise.
# Environment (all optional): PROFILE (default), PROBES (pytest arguments, split as a shell splits
# them, e.g. -k "winobias or pronoun_ratio"; default: every probe),
# STORE (.biascheck/results.sqlite), REPORT (bias-report), NOISE (a saved sweep: its spread per
# metric is the noise band), PYTEST (.venv/bin/pytest), BIASCHECK (.venv/bin/biascheck),
# GITHUB_STEP_SUMMARY (set by GitHub Actions).
set -euo pipefail
MODEL="${1:?usage: scripts/gate.sh MODEL [RUN_NAME] [BASELINE]}"
NAME="${2:-}"
BASELINE="${3:-}"
PROFILE="${PROFILE:-default}"
STORE="${STORE:-.biascheck/results.sqlite}"
REPORT="${REPORT:-bias-report}"
PYTEST="${PYTEST:-.venv/bin/pytest}"
BIASCHECK="${BIASCHECK:-.venv/bin/biascheck}"
source "$(dirname "${BASH_SOURCE[0]}")/split_words.sh"
probe_args=()
if ! split_words probe_args "${PROBES:-}"; then
  echo "gate: PROBES did not split into arguments (above); nothing was run" >&2
  exit 4  # pytest's usage error
fi

args=(--model "$MODEL" --bias-profile "$PROFILE" --bias-report "$REPORT" --bias-store "$STORE")
if [ -n "$NAME" ] && [ "$NAME" = "$BASELINE" ]; then
  # A re-run whose baseline resolved to its own name: compared with the saved run of that name (a re-run
  # must reproduce it), never saved over it; when no such run is saved the gate says so and fails.
  echo "gate: the baseline is this run's own name '$NAME': comparing with the saved run '$NAME', not saving"
elif [ -n "$NAME" ]; then
  if [ -f "$STORE" ] && $BIASCHECK runs --store "$STORE" --names | grep -qxF -- "$NAME"; then
    echo "gate: a run named '$NAME' is already in $STORE; not saving it again (compared with '${BASELINE:-nothing}')"
  else
    args+=(--bias-save "$NAME")
  fi
fi
if [ -n "$BASELINE" ]; then
  args+=(--bias-baseline "$BASELINE")
  [ -n "${NOISE:-}" ] && args+=(--bias-noise "$NOISE")
fi

status=0
$PYTEST "${args[@]}" "${probe_args[@]}" || status=$?

mkdir -p "$REPORT"
if [ -f "$STORE" ]; then
  $BIASCHECK history --store "$STORE" --last 10 --plot "$REPORT/history.png" > "$REPORT/history.txt" || true
  $BIASCHECK history --store "$STORE" --last 10 --markdown > "$REPORT/history.md" || true
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -s "$REPORT/history.md" ]; then
    cat "$REPORT/history.md" >> "$GITHUB_STEP_SUMMARY"
  fi
fi
echo "gate: pytest exit status $status"
exit "$status"
