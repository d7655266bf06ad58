#!/usr/bin/env bash
# Installs the Debian packages vpsim needs, if any is missing (one apt-get update, then
# apt-get install -y). Safe to run again: it does nothing when everything is there.
#   scripts/deps.sh [--build] [--capture32] [EXTRA_PACKAGE...]
# --build: only what configuring and building needs (scripts/build.sh, and with it the main job,
# scripts/run.sh); without it, also what the tests use (scripts/test.sh), among them Chromium,
# matplotlib and Assimp's test models, most of the download.
# --capture32 (or VPSIM_CAPTURE32=1 in the environment, e.g. for scripts/test.sh): also what
# recording 32-bit Windows programs needs (docs/capture.md): Debian's i386 architecture, wine32:i386
# and g++-mingw-w64-i686, i386 GL and X libraries. Not by default: 311 MB to download, 1.5 GB
# installed, and 68 installed amd64 libraries upgraded to the versions their new i386 twins need.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkgconf
  libsystemc-dev verilator catch2
  nlohmann-json3-dev libcli11-dev libfmt-dev
  libmcpp-dev libmeshoptimizer-dev
  # vpsim import (docs/import.md): Assimp
  libassimp-dev
  # the Python API (docs/python.md): the extension module vpsim._core, built for Debian's python3
  pybind11-dev python3-dev
)
build_only=0 capture32="${VPSIM_CAPTURE32:-0}"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build_only=1 ;;
    --capture32) capture32=1 ;;
    *) break ;;
  esac
  shift
done
if [ "$build_only" != 1 ]; then
  packages+=(
    # vpsim import's tests: `assimp info` (their oracle) and Assimp's test models
    assimp-utils assimp-testmodels
    # vpsim plot / vpsim report (matplotlib), their test and docs picture (headless Chromium)
    python3-matplotlib chromium
    # the Python API's tests and worked study (docs/python.md): pytest, pandas
    python3-pytest python3-pandas
    parallel
    # GNU time: the robustness test measures peak memory with /usr/bin/time
    time
    # vpsim capture (docs/capture.md): the recorder and test program are built with mingw-w64
    # (~640 MB installed, so not in --build: a build configured before it is installed skips them
    # until it is configured again) and run under Wine 8 in Xvfb (x86-64 only)
    wine64 xvfb xauth g++-mingw-w64-x86-64
    # vpsim formal's tests (docs/formal.md): yosys (with yosys-smtbmc) and the z3 solver
    yosys z3
  )
fi
if [ "$capture32" = 1 ]; then
  # vpsim capture of 32-bit programs: Wine's 32-bit half and the i686 mingw-w64 (the recorder's
  # i686 build and the 32-bit test program); wine32 is an i386 package. Its GL (Mesa's llvmpipe)
  # and the X libraries Wine's X11 driver loads are only recommended by libwine:i386, so named:
  # without libgl1:i386 Direct3DCreate8 fails ("Failed to load libGL").
  packages+=(wine32:i386 g++-mingw-w64-i686 libgl1:i386 libgl1-mesa-dri:i386
    libxrandr2:i386 libxi6:i386 libxcursor1:i386 libxcomposite1:i386 libxinerama1:i386
    libxrender1:i386 libxxf86vm1:i386 libxfixes3:i386)
fi
# Extra packages for optional jobs, e.g. scripts/deps.sh yosys
# (scripts/fuzz.sh asks for clang libclang-rt-14-dev: clang with libFuzzer and the sanitizers)
packages+=("$@")

find_missing() {
  missing=()
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
}
find_missing
[ ${#missing[@]} -eq 0 ] && exit 0

# Tests run in parallel (ctest -j) may each ask for a package: one installs at a time (apt's lock
# refuses a second at once), and the next looks again at what is still missing.
if [ "$(id -u)" -eq 0 ] && command -v flock >/dev/null; then
  exec 9>/var/lock/vpsim-deps.lock
  flock 9
  find_missing
  [ ${#missing[@]} -eq 0 ] && exit 0
fi

echo "vpsim: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "vpsim: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
if [ "$capture32" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx i386; then
  $sudo dpkg --add-architecture i386  # apt-get update below then reads the i386 package lists
fi
$sudo apt-get -o DPkg::Lock::Timeout=600 update -q
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
