#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${VPSIM_BUILD_DIR:-$root/build}"
"$root/scripts/deps.sh"  # what the tests use too (Chromium, matplotlib, Assimp's models, ...)
"$root/scripts/build.sh" "$build"
# One more job than cores: several tests wait on child processes (Verilator, Slurm, Chromium, Wine)
# part of the time.
jobs="$(( $(nproc 2>/dev/null || echo 2) + 1 ))"
cd "$build"
ctest -j "$jobs" --output-on-failure
