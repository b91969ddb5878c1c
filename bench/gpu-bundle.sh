#!/usr/bin/env bash
# Packs everything bench/gpu-check.sh needs on a machine that has an NVIDIA GPU and nothing else: no network, no
# package registry, no Node, no Chromium (the tool library's device machine is such a one). Run it here, where
# `bash scripts/setup.sh` has run; it writes .gpu-bundle/ (git-ignored):
#   awb-gpu.tar.xz.NN   the bundle, split into parts small enough to travel one per call (--part-mib)
#   SHA256SUMS          the parts' checksums; gpu-check.sh refuses a bundle whose parts do not match
# The bundle holds this machine's Node, its Chromium with every shared library it loads except glibc's own, the
# node_modules packages the check imports, and the GL/Vulkan loader packages (.deb) that let Chromium reach the NVIDIA
# driver. On the GPU machine, `bash bench/gpu-check.sh` finds the parts (in .gpu-bundle/ or $AWB_GPU_PARTS), unpacks
# them once and runs the check. docs/scoring.md ("GPU scoring") says how to carry the parts there.
# Usage: bench/gpu-bundle.sh [--part-mib N (default 46)] [--no-verify]
set -euo pipefail
cd "$(dirname "$0")/.."

PART_MIB=46
VERIFY=1
while [ $# -gt 0 ]; do
  case "$1" in
    --part-mib) PART_MIB="${2:?--part-mib needs a number of MiB}"; shift 2 ;;
    --no-verify) VERIFY=0; shift ;;
    *) echo "gpu-bundle: unknown option $1 (usage: bench/gpu-bundle.sh [--part-mib N] [--no-verify])" >&2; exit 2 ;;
  esac
done
case "$PART_MIB" in ''|*[!0-9]*) echo "gpu-bundle: --part-mib expects a whole number, got $PART_MIB" >&2; exit 2 ;; esac

fail() { echo "gpu-bundle: $*" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || fail "the GPU machine is x86-64; build the bundle on an x86-64 machine (this is $(uname -m))"
NODE_BIN=$(command -v node) || fail "node is not on PATH (run bash scripts/setup.sh first)"
NODE_BIN=$(readlink -f "$NODE_BIN")
CHROMIUM_DIR=${AWB_CHROMIUM_DIR:-/usr/lib/chromium}
[ -x "$CHROMIUM_DIR/chromium" ] || fail "no Chromium at $CHROMIUM_DIR/chromium (Debian's package; set AWB_CHROMIUM_DIR to its folder)"
[ -d node_modules/gpu.js ] || fail "node_modules is incomplete (run bash scripts/setup.sh first)"

# The packages whose files `strace -f -e trace=openat bash bench/gpu-check.sh --software` opened (2026-12), whole
# unless PACKAGE_ONLY names the few files of it that were opened. The verification below runs the check from the
# bundle alone, so a package or file the check starts to need fails it here.
PACKAGES=(
  @esbuild/linux-x64 @mcp-b/webmcp-polyfill @mujoco/mujoco @rolldown/binding-linux-x64-gnu @rolldown/pluginutils
  ajv core-util-is esbuild fast-deep-equal fast-uri fdir gpu.js inherits isarray json-schema-traverse jszip ms munkres
  pako picomatch playwright playwright-core process-nextick-args readable-stream rolldown safe-buffer setimmediate three
  tinyglobby tsx typescript util-deprecate vite zod
)
declare -A PACKAGE_ONLY=([three]='package.json build' [typescript]='package.json')
# Loaders the NVIDIA driver's EGL and Vulkan libraries are reached through (the library's device notes); its driver
# folder /usr/local/nvidia provides the rest.
DEBS=(libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
# glibc's own libraries come from the GPU machine (they must match its loader); needs glibc >= 2.36 there.
GLIBC_LIBS='^(libc|libm|libdl|libpthread|librt|libresolv|libutil|ld-linux-x86-64)\.so'

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
ROOT="$STAGE/awb-gpu"
mkdir -p "$ROOT/bin" "$ROOT/chromium/lib" "$ROOT/chromium/locales" "$ROOT/node_modules" "$ROOT/debs"

echo "gpu-bundle: node $("$NODE_BIN" -v) from $NODE_BIN" >&2
cp "$NODE_BIN" "$ROOT/bin/node"

echo "gpu-bundle: Chromium $("$CHROMIUM_DIR/chromium" --version 2>/dev/null || echo '(version unknown)') from $CHROMIUM_DIR" >&2
for f in chromium chrome_crashpad_handler icudtl.dat resources.pak chrome_100_percent.pak snapshot_blob.bin \
         v8_context_snapshot.bin libEGL.so libGLESv2.so libvulkan.so.1 libvk_swiftshader.so vk_swiftshader_icd.json; do
  [ -e "$CHROMIUM_DIR/$f" ] && cp "$CHROMIUM_DIR/$f" "$ROOT/chromium/"
done
cp "$CHROMIUM_DIR/locales/en-US.pak" "$ROOT/chromium/locales/"
# Every library Chromium links, plus libpci where installed (its GPU detection opens it if present; optional).
libs=$(for f in "$ROOT"/chromium/chromium "$ROOT"/chromium/*.so*; do ldd "$f" 2>/dev/null; done \
  | awk '$3 ~ /^\// { print $3 }' | sort -u)
# (awk reads the whole list: quitting early would fail the pipe under pipefail.)
libpci=$(ldconfig -p | awk '/libpci\.so\.3 .*x86-64/ && !found { print $NF; found = 1 }')
for lib in $libs $libpci; do
  base=$(basename "$lib")
  [[ "$base" =~ $GLIBC_LIBS ]] && continue
  [ -e "$ROOT/chromium/$base" ] && continue # Chromium's own copy (libvulkan.so.1)
  cp -L "$lib" "$ROOT/chromium/lib/$base"
done
cat > "$ROOT/chromium/run" <<'WRAPPER'
#!/bin/sh
# Chromium with the libraries packed beside it (bench/gpu-bundle.sh).
here=$(dirname "$(readlink -f "$0")")
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/chromium" "$@"
WRAPPER
chmod +x "$ROOT/chromium/run"

for package in "${PACKAGES[@]}"; do
  [ -d "node_modules/$package" ] || fail "node_modules/$package is missing (run bash scripts/setup.sh)"
  if [ -n "${PACKAGE_ONLY[$package]:-}" ]; then
    mkdir -p "$ROOT/node_modules/$package"
    for entry in ${PACKAGE_ONLY[$package]}; do cp -a "node_modules/$package/$entry" "$ROOT/node_modules/$package/"; done
  else
    mkdir -p "$ROOT/node_modules/$(dirname "$package")"
    cp -a "node_modules/$package" "$ROOT/node_modules/$package"
  fi
done
mkdir -p "$ROOT/node_modules/.bin"
ln -s ../tsx/dist/cli.mjs "$ROOT/node_modules/.bin/tsx"

(cd "$ROOT/debs" && apt-get download "${DEBS[@]}" >/dev/null) \
  || fail "apt-get download ${DEBS[*]} failed (needs Debian's package lists: apt-get update)"

echo "gpu-bundle: packing $(du -sh "$ROOT" | cut -f1) with xz" >&2
rm -rf .gpu-bundle.tmp && mkdir .gpu-bundle.tmp
# -9: the 64 MiB dictionary finds Chromium's long repeats (one part fewer than -6).
tar -C "$STAGE" -cf - awb-gpu | xz -T0 -9 | split -d -a 2 -b "${PART_MIB}M" - .gpu-bundle.tmp/awb-gpu.tar.xz.
(cd .gpu-bundle.tmp && sha256sum awb-gpu.tar.xz.* > SHA256SUMS)
# Swap in whole: a half-written bundle never replaces a good one.
rm -rf .gpu-bundle.old && { [ ! -e .gpu-bundle ] || mv .gpu-bundle .gpu-bundle.old; } && mv .gpu-bundle.tmp .gpu-bundle && rm -rf .gpu-bundle.old
ls -l .gpu-bundle >&2

if [ "$VERIFY" = 1 ]; then
  # Run the check from a copy of the working tree that has no node_modules, with the bundle's Node and Chromium only.
  echo "gpu-bundle: verifying: bench/gpu-check.sh --software from the bundle alone" >&2
  copy="$STAGE/tree"
  mkdir -p "$copy"
  git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$copy"
  cp -a .gpu-bundle "$copy/"
  (cd "$copy" && env -i HOME="$STAGE" PATH=/usr/bin:/bin AWB_GPU_HOME="$STAGE/unpacked" AWB_GPU_BUNDLE_ONLY=1 \
    bash bench/gpu-check.sh --software --budget-s 5) >&2 || fail "the bundle failed its check (output above)"
fi
echo "gpu-bundle: $(ls .gpu-bundle/awb-gpu.tar.xz.* | wc -l) parts in .gpu-bundle/ ($(du -sh .gpu-bundle | cut -f1))"
# A transfer that carries one part also carries the checkout's own files: say how much that adds up to.
tree_mib=$(git ls-files -co --exclude-standard -z | xargs -0 stat -c %s 2>/dev/null | awk '{ s += $1 } END { printf "%d", s / 1048576 + 1 }')
echo "gpu-bundle: one part plus the checkout's files: about $((PART_MIB + tree_mib)) MiB per transfer ($tree_mib MiB of them the checkout)"
