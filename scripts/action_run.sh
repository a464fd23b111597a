#!/usr/bin/env bash
# The run step of the biascheck GitHub Action (action.yml), a script so that it runs the same locally and
# in biascheck's tests. Reads its inputs from the environment:
#   BIASCHECK (the command), MODEL, MODEL_ARGS (space-separated KEY=VALUE), PROFILE, LANGUAGE, DEVICE, TIER,
#   STORE, SAVE_AS, BASELINE, PYTEST_ARGS (split as a shell splits it), REPORT; GITHUB_OUTPUT (set by Actions: verdict, report-path).
# The plugin appends the summary tables to $GITHUB_STEP_SUMMARY itself. Exits 0: the verdict is an
# output, and the action's last step fails on it after the report is uploaded.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/split_words.sh"
BIASCHECK="${BIASCHECK:-biascheck}"
args=(run "--model=${MODEL:-smollm2-135m}" "--bias-profile=${PROFILE:-default}" "--device=${DEVICE:-auto}"
      "--bias-tier=${TIER:-auto}"
      "--bias-report=${REPORT:-bias-report}" "--bias-store=${STORE:-.biascheck/results.sqlite}" -p no:cacheprovider)
read -ra model_args <<< "${MODEL_ARGS:-}"
for kv in "${model_args[@]}"; do args+=("--model-arg=$kv"); done
[ -n "${LANGUAGE:-}" ] && args+=("--bias-language=$LANGUAGE")
[ -n "${SAVE_AS:-}" ] && args+=("--bias-save=$SAVE_AS")
[ -n "${BASELINE:-}" ] && args+=("--bias-baseline=$BASELINE")
status=0
extra=()
if split_words extra "${PYTEST_ARGS:-}"; then  # as a shell would: -k "winobias or pronoun_ratio" is two words
  "$BIASCHECK" "${args[@]}" "${extra[@]}" || status=$?
else
  echo "biascheck: pytest-args did not split into arguments (above); nothing was run" >&2
  status=4  # pytest's usage error
fi
verdict=$([ "$status" -eq 0 ] && echo pass || echo fail)
echo "biascheck: pytest exit status $status, verdict $verdict"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "verdict=$verdict" >> "$GITHUB_OUTPUT"
  echo "report-path=${REPORT:-bias-report}" >> "$GITHUB_OUTPUT"
fi
exit 0
