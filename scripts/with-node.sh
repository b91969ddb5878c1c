#!/usr/bin/env bash
# Runs `node "$@"` with the Node of .node-version (Vitest 5 needs Node 22.12 or newer; the machine's own Node may be
# older): the one on PATH when it is that version, else the npm registry's binary that scripts/provide-node.sh keeps.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin=$(bash "$root/scripts/provide-node.sh" "$(cat "$root/.node-version")")
PATH="$bin:$PATH" exec "$bin/node" "$@"
