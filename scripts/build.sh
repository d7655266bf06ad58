#!/usr/bin/env bash
# Installs what is missing, configures (Ninja, RelWithDebInfo) and builds vpsim.
#   scripts/build.sh [BUILD_DIR] [extra cmake arguments...]   (default BUILD_DIR: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true
"$root/scripts/deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" "$@"
fi
jobs="$(nproc 2>/dev/null || echo 2)"
ninja -C "$build" -j "$jobs"
