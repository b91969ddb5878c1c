#!/usr/bin/env bash
# GPU check (≤ 5 minutes): on a machine with an NVIDIA GPU, checks that the gpu scoring backend gives the CPU backend's
# bits and prints chair / 18-part / per-step-curve timings for cpu and gpu side by side. Needs no network when
# node_modules is present (npm ci otherwise). `--software` forces the SwiftShader path (thinned clouds) anywhere.
# Usage: bench/gpu-check.sh [--software] [--points <per part>] [--budget-s <seconds, default 200>]
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT_S=300

command -v node >/dev/null || { echo "gpu-check: Node 20 is needed (node not on PATH)" >&2; exit 2; }
if [ ! -d node_modules/gpu.js ]; then
  echo "gpu-check: installing dependencies (npm ci)" >&2
  npm ci --prefer-offline --no-audit --no-fund >&2
fi
if [ -z "${AWB_CHROMIUM:-}" ] && ! command -v chromium >/dev/null && ! command -v google-chrome >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "gpu-check: installing Chromium (apt-get)" >&2
    apt-get install -y chromium >&2 || { echo "gpu-check: no Chromium; set AWB_CHROMIUM to a Chromium binary" >&2; exit 2; }
  else
    echo "gpu-check: no Chromium found; install it or set AWB_CHROMIUM" >&2; exit 2
  fi
fi
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >&2 || true
else
  echo "gpu-check: no nvidia-smi: expect the software renderer" >&2
fi
ls /dev/nvidia* /dev/dri 2>/dev/null | tr '\n' ' ' >&2 || true
echo >&2
exec timeout "$LIMIT_S" npx tsx bench/gpu-check.ts "$@"
