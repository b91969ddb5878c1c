#!/usr/bin/env bash
# One-time set-up on a fresh machine: a Chromium for browser mode (Debian's packages when apt is available), bubblewrap
# for the agent sandbox (likewise), the Node of .node-version (the npm registry's binary when the Node on PATH is
# another one), the exact npm dependency tree from package-lock.json (Vitest 5), the compiled package (dist/), then
# every test leg of test/legs/legs.json (its Node and its own `npm ci`). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# The paths src/shared/chromium.ts looks at for pages, in its order: the headless shell, then a full browser.
full_browsers="/usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable"
first_executable() {
  for candidate in "$@"; do
    if [ -x "$candidate" ]; then echo "$candidate"; return 0; fi
  done
  return 1
}
find_chromium() {
  if [ -n "${AWB_CHROMIUM:-}" ] && [ -x "${AWB_CHROMIUM}" ]; then echo "$AWB_CHROMIUM"; return 0; fi
  # shellcheck disable=SC2086 # one word per path
  first_executable /usr/bin/chromium-headless-shell $full_browsers
}

# Debian's two Chromium builds, where apt-get can install them and AWB_CHROMIUM does not name another binary: the
# headless shell runs every page (about 2.5 CPU-seconds less per block run than the full browser, src/shared/chromium.ts),
# a full browser the GPU scoring page (its hardware flags are written for it). A full browser is required when there is
# no Chromium at all; the shell is optional (a distribution without the package runs every page on the full browser).
if [ -z "${AWB_CHROMIUM:-}" ] && command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  apt_install() { DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null; }
  # shellcheck disable=SC2086 # one word per path
  has_full_browser() { first_executable $full_browsers >/dev/null; }
  if ! has_full_browser || [ ! -x /usr/bin/chromium-headless-shell ]; then $sudo_cmd apt-get update -qq; fi
  if ! has_full_browser; then
    echo "setup: no Chromium found; installing Debian's chromium package"
    apt_install chromium
  fi
  if [ ! -x /usr/bin/chromium-headless-shell ]; then
    echo "setup: installing Debian's chromium-headless-shell package (the lighter build every page runs on)"
    apt_install chromium-headless-shell || echo "setup: note: chromium-headless-shell could not be installed; pages run on the full browser" >&2
  fi
fi
if chromium_path=$(find_chromium); then
  echo "setup: using Chromium at $chromium_path"
else
  cat >&2 <<'MSG'
setup: no Chromium found and apt-get is not available.
  Install Chromium or Google Chrome with your system's package manager, then either put it at
  /usr/bin/chromium or export AWB_CHROMIUM=/path/to/chromium and run this script again.
MSG
  exit 1
fi

# The agent sandbox (bubblewrap): external {command} agents and the agent CLIs run only inside it (docs/agents.md,
# "The agent sandbox"); the tests run it. Debian's package when apt is available; a machine without it still runs page agents.
if ! command -v bwrap >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  echo "setup: no bubblewrap found; installing Debian's bubblewrap package"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq bubblewrap >/dev/null
fi
if ! command -v bwrap >/dev/null 2>&1; then
  echo "setup: warning: bubblewrap (bwrap) is not installed; external agents and agent CLIs will be refused (install it, or run them with AWB_SANDBOX=off)" >&2
elif bwrap --unshare-all --share-net --die-with-parent --as-pid-1 --ro-bind / / --proc /proc --dev /dev true 2>/dev/null; then
  echo "setup: using bubblewrap $(bwrap --version | awk '{print $2}') at $(command -v bwrap); the agent sandbox starts"
else
  cat >&2 <<'MSG'
setup: warning: bubblewrap is installed but cannot start a sandbox here (unprivileged user namespaces are restricted).
  On Ubuntu 23.10+ and GitHub's Ubuntu runners: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0
  On older Debian: sudo sysctl -w kernel.unprivileged_userns_clone=1; in a container, allow it user namespaces.
  Until then external agents and agent CLIs are refused (or run them with AWB_SANDBOX=off).
MSG
fi

# Vitest 5 needs Node 22.12 or newer: the project runs on the Node of .node-version (scripts/with-node.sh).
node_bin=$(bash scripts/provide-node.sh "$(cat .node-version)")
echo "setup: using Node $("$node_bin/node" --version) from $node_bin"
export PATH="$node_bin:$PATH"

if [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  echo "setup: node_modules is up to date"
else
  npm ci --no-audit --no-fund
fi

# The compiled package (dist/), as `npm pack` builds it; the checkout itself runs from the TypeScript sources.
npm run --silent build

# The other test legs (e.g. Vitest 4.1 on Node 20) and the further Node versions the tests use.
node scripts/test-legs.mjs --prepare
