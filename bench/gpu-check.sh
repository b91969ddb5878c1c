#!/usr/bin/env bash
# GPU check (≤ 5 minutes): on a machine with an NVIDIA GPU, checks that the gpu scoring backend gives the CPU backend's
# bits and prints chair / 18-part / per-step-curve / awb-mini timings for cpu and gpu side by side.
# What it runs with, first found: the bundle of bench/gpu-bundle.sh (for a machine with nothing installed and no
# network: its parts in .gpu-bundle/, or already collected in $AWB_GPU_PARTS), else the machine's own Node, Chromium
# and node_modules (npm ci when node_modules is missing). A bundle whose parts are not all there yet is collected and
# the script exits 3 naming the missing parts, so parts can arrive one call at a time.
# `--software` forces the SwiftShader path (thinned clouds) anywhere.
# Usage: bench/gpu-check.sh [--software] [--points <per part>] [--budget-s <seconds, default 200>]
# Environment: AWB_GPU_PARTS (default /tmp/awb-gpu-parts), AWB_GPU_HOME (where the bundle is unpacked, default
# /tmp/awb-gpu), AWB_GPU_BUNDLE_ONLY=1 (fail rather than use an installed Node or Chromium), AWB_GPU_CHECK_LOG (a file
# that gets the whole run and the browsers' own stderr), AWB_CHROMIUM.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/sbin:/sbin" # ldconfig
LIMIT_S=300
PARTS=${AWB_GPU_PARTS:-/tmp/awb-gpu-parts}
GPU_HOME=${AWB_GPU_HOME:-/tmp/awb-gpu}
fail() { echo "gpu-check: $*" >&2; exit 2; }
log() { echo "gpu-check: $*" >&2; }

# xz, or Python's lzma where xz-utils is not installed (a bare container image often lacks it).
unxz_stream() {
  if command -v xz >/dev/null; then xz -d
  elif command -v python3 >/dev/null; then python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.stdin.buffer), sys.stdout.buffer)'
  else fail "neither xz nor python3 is installed: cannot unpack the bundle"; fi
}

# Collects the parts found in .gpu-bundle/ into $PARTS (the checksums decide which copy is whole) and unpacks the
# bundle once all are there; sets HAS_BUNDLE. Exits 3 while parts are missing. (Called as a plain command, not in an
# `if`, so that `set -e` stays on inside it.)
use_bundle() {
  if [ -f .gpu-bundle/SHA256SUMS ]; then
    mkdir -p "$PARTS"
    if ! cmp -s .gpu-bundle/SHA256SUMS "$PARTS/SHA256SUMS" 2>/dev/null; then
      rm -f "$PARTS"/awb-gpu.tar.xz.* && cp .gpu-bundle/SHA256SUMS "$PARTS/"
    fi
    for part in .gpu-bundle/awb-gpu.tar.xz.*; do
      [ -f "$part" ] || continue
      name=$(basename "$part")
      expected=$(awk -v n="$name" '$2 == n { print $1 }' "$PARTS/SHA256SUMS")
      [ -n "$expected" ] || fail "$part is not listed in .gpu-bundle/SHA256SUMS: parts of two bundles are mixed; rebuild with bench/gpu-bundle.sh"
      [ "$(sha256sum < "$part" | cut -d' ' -f1)" = "$expected" ] || fail "$part does not match its checksum (cut short in transit?); send it again"
      if ! cmp -s "$part" "$PARTS/$name"; then cp "$part" "$PARTS/$name.tmp" && mv "$PARTS/$name.tmp" "$PARTS/$name"; fi
    done
  fi
  HAS_BUNDLE=0
  [ -f "$PARTS/SHA256SUMS" ] || return 0
  local missing=()
  while read -r _ name; do [ -f "$PARTS/$name" ] || missing+=("$name"); done < "$PARTS/SHA256SUMS"
  if [ ${#missing[@]} -gt 0 ]; then
    log "bundle parts collected in $PARTS: $(cd "$PARTS" && ls awb-gpu.tar.xz.* 2>/dev/null | tr '\n' ' ')"
    log "still missing: ${missing[*]} (carry them next; see docs/scoring.md, GPU scoring)"
    exit 3
  fi
  if ! cmp -s "$PARTS/SHA256SUMS" "$GPU_HOME/.sums" 2>/dev/null; then
    (cd "$PARTS" && sha256sum --quiet -c SHA256SUMS) >&2 || fail "bundle parts in $PARTS do not match their checksums; send them again"
    log "unpacking the bundle into $GPU_HOME"
    rm -rf "$GPU_HOME" && mkdir -p "$GPU_HOME"
    (cd "$PARTS" && while read -r _ name; do cat "$name"; done < SHA256SUMS) | unxz_stream | tar -x -C "$GPU_HOME" --strip-components=1
    cp "$PARTS/SHA256SUMS" "$GPU_HOME/.sums"
  fi
  glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')
  if [ -n "$glibc" ] && [ "$(printf '%s\n2.36\n' "$glibc" | sort -V | head -1)" != 2.36 ]; then
    fail "the bundle's Chromium needs glibc >= 2.36; this machine has $glibc"
  fi
  export PATH="$GPU_HOME/bin:$PATH" AWB_CHROMIUM="$GPU_HOME/chromium/run"
  # Vite serves gpu.js to the page only from inside the checkout, so the packages are copied, not linked.
  [ -d node_modules ] || cp -a "$GPU_HOME/node_modules" node_modules
  # On the GPU machine only: the GL/Vulkan loaders through which Chromium reaches the NVIDIA driver.
  if [ -d /usr/local/nvidia ] || command -v nvidia-smi >/dev/null; then
    if [ "$(id -u)" = 0 ] && ! ldconfig -p | grep 'libEGL\.so\.1 ' >/dev/null; then
      log "installing the GL/Vulkan loader libraries from the bundle"
      for deb in "$GPU_HOME"/debs/*.deb; do dpkg -x "$deb" /; done
      ldconfig
    fi
    local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
    if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; fi
    if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$egl" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$egl; fi
    # The vendor files name the driver's libraries without a folder: make sure the loader can find them.
    for lib in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
      if [ -e "$lib/libEGL_nvidia.so.0" ] && ! ldconfig -p | grep 'libEGL_nvidia\.so\.0 ' >/dev/null; then
        export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      fi
    done
  fi
  HAS_BUNDLE=1
}

use_bundle
if [ "$HAS_BUNDLE" = 1 ]; then
  log "using the bundle in $GPU_HOME"
elif [ "${AWB_GPU_BUNDLE_ONLY:-}" = 1 ]; then
  fail "AWB_GPU_BUNDLE_ONLY=1 but no bundle was found in .gpu-bundle/ or $PARTS (build one with bench/gpu-bundle.sh)"
else
  command -v node >/dev/null || fail "Node 20 is needed (node not on PATH); on a machine with nothing installed, use bench/gpu-bundle.sh"
  if [ ! -d node_modules/gpu.js ]; then
    log "installing dependencies (npm ci)"
    npm ci --prefer-offline --no-audit --no-fund >&2
  fi
  if [ -z "${AWB_CHROMIUM:-}" ] && ! command -v chromium >/dev/null && ! command -v google-chrome >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      log "installing Chromium (apt-get)"
      apt-get install -y chromium >&2 || fail "no Chromium; set AWB_CHROMIUM to a Chromium binary"
    else
      fail "no Chromium found; install it or set AWB_CHROMIUM"
    fi
  fi
fi

if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >&2 || true
else
  log "no nvidia-smi: expect the software renderer"
fi
ls /dev/nvidia* /dev/dri 2>/dev/null | tr '\n' ' ' >&2 || true
echo >&2
if [ -n "${AWB_GPU_CHECK_LOG:-}" ]; then
  # The whole run into the log, plus each browser's own stderr (why a GPU process fell back to SwiftShader, say),
  # which stays out of the console.
  log "full log, with the browsers' stderr: $AWB_GPU_CHECK_LOG"
  export DEBUG="${DEBUG:+$DEBUG,}pw:browser"
  exec > >(tee -a "$AWB_GPU_CHECK_LOG") 2> >(tee -a "$AWB_GPU_CHECK_LOG" | grep --line-buffered -v ' pw:browser ' >&2)
fi
exec timeout "$LIMIT_S" node node_modules/tsx/dist/cli.mjs bench/gpu-check.ts "$@"
