#!/usr/bin/env bash
# Installs what is missing, configures (Ninja, RelWithDebInfo) and builds vpsim.
#   scripts/build.sh [BUILD_DIR] [extra cmake arguments...]   (default BUILD_DIR: build)
# Configures when BUILD_DIR has no build.ninja yet, or when cmake arguments are given that differ
# from the last configure's (kept in BUILD_DIR/.vpsim-cmake-args); without arguments an existing
# BUILD_DIR keeps its configuration.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true
"$root/scripts/deps.sh"
args_file="$build/.vpsim-cmake-args"
args="$(printf '%q ' "$@")"
if [ ! -f "$build/build.ninja" ] || { [ $# -gt 0 ] && [ "$args" != "$(cat "$args_file" 2>/dev/null)" ]; }; then
  cmake -G Ninja -S "$root" -B "$build" "$@"
  printf '%s' "$args" > "$args_file"
fi
jobs="$(nproc 2>/dev/null || echo 2)"
ninja -C "$build" -j "$jobs"
