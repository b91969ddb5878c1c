#!/usr/bin/env bash
# Prints the bin folder of a Node of the given exact version, installing it first when needed: the `node` on PATH
# when it is that version, else `.toolchain/node-<version>/bin`, unpacked from the npm registry's
# node-<platform>-<arch> package (the official binaries, repackaged; no other download). Safe to run again.
#   usage: scripts/provide-node.sh 24.22.3
set -euo pipefail
version="${1:?usage: scripts/provide-node.sh VERSION (e.g. 24.22.3)}"
cd "$(dirname "$0")/.."
root="$PWD"

if command -v node >/dev/null 2>&1 && [ "$(node --version)" = "v$version" ]; then
  dirname "$(command -v node)"
  exit 0
fi

target="$root/.toolchain/node-$version"
if [ -x "$target/bin/node" ] && [ "$("$target/bin/node" --version)" = "v$version" ]; then
  echo "$target/bin"
  exit 0
fi

case "$(uname -s)" in
  Linux) platform=linux ;;
  Darwin) platform=darwin ;;
  *) echo "provide-node: no npm package carries Node for $(uname -s); install Node $version yourself and put it first on PATH" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=x64 ;;
  aarch64|arm64) arch=arm64 ;;
  *) echo "provide-node: no npm package carries Node for $(uname -m); install Node $version yourself and put it first on PATH" >&2; exit 1 ;;
esac

package="node-$platform-$arch@$version"
echo "provide-node: installing Node $version from the npm registry ($package) into .toolchain/" >&2
staging="$(mktemp -d "$root/.toolchain.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
(cd "$staging" && npm pack --silent "$package" >/dev/null && tar -xzf ./*.tgz)
[ -x "$staging/package/bin/node" ] || { echo "provide-node: $package has no bin/node" >&2; exit 1; }
"$staging/package/bin/node" --version >/dev/null
# Swapped in whole: a half-unpacked Node is never left where the next run would take it.
mkdir -p "$root/.toolchain"
rm -rf "$target"
mv "$staging/package" "$target"
echo "$target/bin"
