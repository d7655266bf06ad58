#!/usr/bin/env bash
# Installs what building needs if missing (scripts/deps.sh --build), configures (Ninja,
# RelWithDebInfo) and builds vpsim.
#   scripts/build.sh [--target T]... [BUILD_DIR] [extra cmake arguments...]   (default BUILD_DIR: build)
# Builds every target (the test binaries too; scripts/test.sh), or only the ninja targets given
# with --target and what they depend on: scripts/run.sh builds `--target vpsim` (the CLI and its
# run-time data), which skips the test binaries, about a third of the compile work.
# Configures when BUILD_DIR has no build.ninja yet, or when cmake arguments are given that differ
# from the last configure's (kept in BUILD_DIR/.vpsim-cmake-args); without arguments an existing
# BUILD_DIR keeps its configuration.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
targets=()
while [ $# -gt 0 ] && [ "$1" = --target ]; do
  [ $# -ge 2 ] && [ -n "$2" ] || { echo "build.sh: --target needs a target name" >&2; exit 2; }
  targets+=("$2")
  shift 2
done
build="${1:-$root/build}"
shift || true
"$root/scripts/deps.sh" --build
args_file="$build/.vpsim-cmake-args"
args="$(printf '%q ' "$@")"
if [ ! -f "$build/build.ninja" ] || { [ $# -gt 0 ] && [ "$args" != "$(cat "$args_file" 2>/dev/null)" ]; }; then
  cmake -G Ninja -S "$root" -B "$build" "$@"
  printf '%s' "$args" > "$args_file"
fi
jobs="$(nproc 2>/dev/null || echo 2)"
ninja -C "$build" -j "$jobs" "${targets[@]}"
