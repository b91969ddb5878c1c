#!/usr/bin/env bash
# One-time set-up on a fresh machine: a Chromium for browser mode (Debian's package when apt is available),
# then the exact npm dependency tree from package-lock.json, then the compiled package (dist/). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

find_chromium() {
  if [ -n "${AWB_CHROMIUM:-}" ] && [ -x "${AWB_CHROMIUM}" ]; then echo "$AWB_CHROMIUM"; return 0; fi
  for candidate in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable; do
    if [ -x "$candidate" ]; then echo "$candidate"; return 0; fi
  done
  return 1
}

if chromium_path=$(find_chromium); then
  echo "setup: using Chromium at $chromium_path"
elif command -v apt-get >/dev/null 2>&1; then
  echo "setup: no Chromium found; installing Debian's chromium package"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
  chromium_path=$(find_chromium) || { echo "setup: apt-get installed chromium but no binary was found" >&2; exit 1; }
  echo "setup: installed Chromium at $chromium_path"
else
  cat >&2 <<'MSG'
setup: no Chromium found and apt-get is not available.
  Install Chromium or Google Chrome with your system's package manager, then either put it at
  /usr/bin/chromium or export AWB_CHROMIUM=/path/to/chromium and run this script again.
MSG
  exit 1
fi

if [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  echo "setup: node_modules is up to date"
else
  npm ci --no-audit --no-fund
fi

# The compiled package (dist/), as `npm pack` builds it; the checkout itself runs from the TypeScript sources.
npm run --silent build
