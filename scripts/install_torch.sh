#!/usr/bin/env bash
# install_torch.sh [REQUIREMENT]: torch's CPU build, from PyTorch's own CPU wheel index. The package
# index's Linux wheel of torch is the CUDA build, with several GB of CUDA packages; the CPU index has the
# same version without them. Where that index cannot be reached (a machine that reaches only the package
# index), it says so and installs REQUIREMENT from the configured index instead.
#   TORCH_INDEX_URL  the index to try first (default: PyTorch's CPU index; "none": the configured index only)
#   PIP              the pip to run (default: pip)
set -euo pipefail
requirement="${1:-torch==2.13.0}"
index="${TORCH_INDEX_URL:-https://download.pytorch.org/whl/cpu}"
pip="${PIP:-pip}"
if [ "$index" != none ]; then
  if "$pip" install -q --retries 1 --timeout 20 --index-url "$index" "$requirement"; then
    exit 0
  fi
  echo "install_torch.sh: $requirement could not be installed from $index (unreachable, or no such" \
    "release there); installing it from the configured package index instead. On Linux that is the CUDA" \
    "build (several GB) unless your pip configuration finds a CPU wheel. TORCH_INDEX_URL=<a mirror of the" \
    "CPU index> tries another; TORCH_INDEX_URL=none skips this step." >&2
fi
exec "$pip" install -q "$requirement"
