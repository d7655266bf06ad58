#!/usr/bin/env bash
# Irrlicht 1.8.5 as a real D3D8 workload (docs/real-frames.md; issue 32 items 4 and 5). Run by hand,
# not in CI (tens of minutes on 2 cores):
#   scripts/irrlicht.sh [--work DIR] [--build DIR] [--opt FLAG] [--frames N] [--study-frames S]
#                       [--jobs J] [STAGE...]
# Stages, in order (default: all of them; each skips what is already done in the work folder):
#   fetch     Debian's irrlicht source package through a private apt configuration (a temporary
#             deb-src list in the work folder: the machine's apt sources are not touched), unpacked
#             with dpkg-source (Debian's patches applied)
#   engine    the engine as a static library, mingw-w64 x86-64, its Direct3D 8 driver only
#   examples  the examples of EXAMPLES below, each linked with vpsim's d3dx8 compatibility layer
#             (examples/irrlicht/d3dx8) and a driverChoice.h that picks Direct3D 8 without asking
#   record    vpsim capture run of frames 0..N-1 of each example, twice (the two must be identical)
#   convert   vpsim capture info of each capture, and convert of its last S frames (the set-up
#             frame 0 left out, the scenes kept to a size vpsim reads in a few GB: the user-pointer
#             bytes of 60 terrain frames are 177 MB, 236 MB of base64 text)
#   study     every converted capture on every preset (vpsim run --preset P --json)
# --work DIR: where everything goes (default <build>/irrlicht); --build DIR: vpsim's build folder
# (default build; vpsim, its recorder d3d8.dll and the presets come from there); --opt: the engine's
# optimisation (default -O1); --frames N: frames recorded per example (default 60); --study-frames
# S: the last S of them converted and studied (default 10); --jobs J: compile jobs (default 2).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/build
work=
opt=-O1
frames=60
study=10
jobs=2
stages=()
while [ $# -gt 0 ]; do
  case $1 in
    --work) work=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --opt) opt=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --study-frames) study=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    fetch|engine|examples|record|convert|study) stages+=("$1"); shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "irrlicht.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#stages[@]} -eq 0 ] && stages=(fetch engine examples record convert study)
work=${work:-$build/irrlicht}
mkdir -p "$work"
work=$(cd "$work" && pwd)
build=$(cd "$build" && pwd)
vpsim=$build/vpsim

# The examples recorded: their folders in the source package's examples/.
EXAMPLES=(
  01.HelloWorld 02.Quake3Map 03.CustomSceneNode 04.Movement 07.Collision 08.SpecialFX
  10.Shaders 11.PerPixelLighting 12.TerrainRendering 16.Quake3MapShader 20.ManagedLights
)

CXX=x86_64-w64-mingw32-g++
src=$work/irrlicht-1.8.5
jpeg=$work/libjpeg-turbo
log() { echo "== irrlicht.sh: $*" >&2; }
want() { local s; for s in "${stages[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

stage_fetch() {
  [ -f "$src/include/irrlicht.h" ] && [ -f "$jpeg/jpeglib.h" ] && { log "fetch: $src and $jpeg are there"; return; }
  # dpkg-dev: dpkg-source; libz-mingw-w64-dev: zlib for the engine's zip (pk3) reader
  "$here/scripts/deps.sh" dpkg-dev libz-mingw-w64-dev
  local apt=$work/apt
  rm -rf "$apt"
  mkdir -p "$apt/etc" "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/download"
  # The same mirror and keyring as Debian 12's default deb entry, as deb-src, in a list of our own.
  cat >"$apt/etc/src.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  local opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt/etc"
              -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
  apt-get "${opts[@]}" update >&2
  (cd "$apt/download" && apt-get "${opts[@]}" source --download-only irrlicht >&2)
  # libjpeg-turbo: the Quake 3 map's textures are JPEG, and Irrlicht's Quake 3 level loader keeps
  # no surface whose texture it cannot load (Debian's repack drops the bundled jpeglib)
  (cd "$apt/download" && apt-get "${opts[@]}" source --download-only libjpeg-turbo >&2)
  rm -rf "$src" "$jpeg"
  dpkg-source -x "$apt/download"/irrlicht_*.dsc "$src" >&2
  dpkg-source -x "$apt/download"/libjpeg-turbo_*.dsc "$jpeg" >&2
  log "fetch: $(ls "$apt/download"/*.dsc | tr '\n' ' ') unpacked into $src and $jpeg"
}

# libjpeg-turbo as a static library for mingw-w64 (no SIMD: no nasm needed), with its own CMake.
stage_jpeg() {
  [ -f "$jpeg/b/libjpeg.a" ] && return
  cmake -S "$jpeg" -B "$jpeg/b" -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=AMD64 \
    -DCMAKE_C_COMPILER=x86_64-w64-mingw32-gcc -DCMAKE_RC_COMPILER=x86_64-w64-mingw32-windres \
    -DWITH_SIMD=0 -DENABLE_SHARED=0 -DWITH_TURBOJPEG=0 -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$jpeg/inst" >&2
  cmake --build "$jpeg/b" --target jpeg-static -j"$jobs" >&2
}

# The engine's configuration: Direct3D 8 only (the other drivers off), no image libraries the
# Debian repack dropped but libjpeg-turbo built here (png: those textures stay white), zlib from
# libz-mingw-w64-dev.
ENGINE_FLAGS=(
  -D_IRR_STATIC_LIB_ -DIRR_COMPILE_WITH_DX9_DEV_PACK -D_IRR_COMPILE_WITH_DIRECT3D_8_
  -DNO_IRR_COMPILE_WITH_DIRECT3D_9_ -DNO_IRR_COMPILE_WITH_OPENGL_ -DNO_IRR_COMPILE_WITH_SOFTWARE_
  -DNO_IRR_COMPILE_WITH_BURNINGSVIDEO_ -DNO_IRR_COMPILE_WITH_DIRECTINPUT_JOYSTICK_
  -DNO_IRR_COMPILE_WITH_LIBPNG_ -DNO_IRR_COMPILE_WITH_BZIP2_
  -DNO_IRR_COMPILE_WITH_ZIP_ENCRYPTION_
  # mingw-w64's d3d8.h lacks it (d3d8types.h of the DirectX SDK: 0)
  -DD3DPRESENT_RATE_DEFAULT=0
  # CD3D8Texture.cpp's #ifndef around D3DXFilterTexture is inverted: defined, it is not called
  -D_IRR_USE_D3DXFilterTexture_
)

stage_engine() {
  local lib=$work/lib/libIrrlicht.a
  stage_jpeg
  [ -f "$lib" ] && { log "engine: $lib is there"; return; }
  mkdir -p "$work/obj" "$work/lib"
  local mk=$work/obj/Makefile
  {
    echo "SRC := $src/source/Irrlicht"
    echo "OBJ := \$(patsubst \$(SRC)/%.cpp,%.o,\$(wildcard \$(SRC)/*.cpp))"
    echo "FLAGS := $opt -w -fno-strict-aliasing ${ENGINE_FLAGS[*]} -I$src/include -I\$(SRC) -I$jpeg -I$jpeg/b -I$here/examples/irrlicht/d3dx8"
    echo "all: \$(OBJ)"
    echo "%.o: \$(SRC)/%.cpp"
    printf '\t%s -c $(FLAGS) $< -o $@\n' "$CXX"
  } >"$mk"
  local t0=$SECONDS
  make -C "$work/obj" -f "$mk" -j"$jobs" >&2
  x86_64-w64-mingw32-ar rcs "$lib.tmp" "$work"/obj/*.o
  mv "$lib.tmp" "$lib"
  log "engine: $(ls "$work"/obj/*.o | wc -l) objects at $opt in $((SECONDS - t0)) s -> $lib"
}

# The answers of an example that asks on its console (02: the driver, c = Direct3D 8; 08: stencil
# shadows, y): compiled in (VPSIM_IRR_STDIN, examples/irrlicht/irrlicht_d3d8.h).
answers() {
  case $1 in
    02.Quake3Map) echo c ;;
    08.SpecialFX) echo y ;;
  esac
}

layer=$here/examples/irrlicht
bindir() { echo "$src/bin/Win64-gcc"; }  # the examples find ../../media from here, as upstream

# up_to_date FILE DEP...: FILE exists and is newer than every DEP
up_to_date() {
  local f=$1 d
  shift
  [ -f "$f" ] || return 1
  for d in "$@"; do [ "$f" -nt "$d" ] || return 1; done
}

stage_examples() {
  local lib=$work/lib/libIrrlicht.a bin
  # 07.Collision and 08.SpecialFX load media/dwarf.x, which Debian's repack drops (non-free): an
  # animated .x character of Debian's assimp-testmodels stands in for it (in the unpacked source)
  if [ ! -f "$src/media/dwarf.x" ]; then
    "$here/scripts/deps.sh" assimp-testmodels
    cp /usr/share/assimp/models/X/BCN_Epileptic.X "$src/media/dwarf.x"
  fi
  bin=$(bindir)
  mkdir -p "$bin" "$work/obj-layer"
  local cf=("$opt" -Wall -Wextra -I"$layer/d3dx8")
  $CXX "${cf[@]}" -c "$layer/d3dx8/d3dx8_compat.cpp" -o "$work/obj-layer/d3dx8_compat.o"
  $CXX "${cf[@]}" -c "$layer/d3dx8/d3dx8_tokens.cpp" -o "$work/obj-layer/d3dx8_tokens.o"
  local e t0=$SECONDS
  for e in "${EXAMPLES[@]}"; do
    up_to_date "$bin/$e.exe" "$lib" "$jpeg/b/libjpeg.a" "$layer/irrlicht_d3d8.h" "$layer"/d3dx8/* && continue
    local ans=()
    [ -n "$(answers "$e")" ] && ans=(-DVPSIM_IRR_STDIN="\"$(answers "$e")\"")
    $CXX "$opt" -w -D_IRR_STATIC_LIB_ "${ans[@]}" -I"$src/include" -include "$layer/irrlicht_d3d8.h" \
      "$src/examples/$e/main.cpp" "$work/obj-layer/d3dx8_compat.o" "$work/obj-layer/d3dx8_tokens.o" \
      "$lib" "$jpeg/b/libjpeg.a" -lz -lgdi32 -lwinmm -lole32 -luuid -static -static-libgcc -static-libstdc++ \
      -o "$bin/$e.exe.tmp"
    mv "$bin/$e.exe.tmp" "$bin/$e.exe"
  done
  log "examples: ${#EXAMPLES[@]} in $bin ($((SECONDS - t0)) s)"
}

# capture_once EXAMPLE OUT [SHOT.bmp]: frames 0..frames-1 of the example through vpsim capture run;
# with SHOT, the example writes the back buffer of frame frames-2 as a picture
# (examples/irrlicht/irrlicht_d3d8.h).
capture_once() {
  local e=$1 out=$2 shot=${3:-} bin
  bin=$(bindir)
  local env=()
  [ -n "$shot" ] && env=(VPSIM_IRR_SHOT_FRAME=$((frames - 2)) "VPSIM_IRR_SHOT_FILE=shot-$e.bmp")
  rm -f "$bin/shot-$e.bmp"
  env "${env[@]}" "$vpsim" capture run --frames "0-$((frames - 1))" -o "$out" \
    --prefix "$work/wineprefix" --time-limit 900 -- "$bin/$e.exe" >&2 \
    || log "record: $e: vpsim capture run exited $?"
  if [ -n "$shot" ]; then
    [ -f "$bin/shot-$e.bmp" ] && mv "$bin/shot-$e.bmp" "$shot" || log "record: $e saved no picture"
  fi
}

stage_record() {
  mkdir -p "$work/captures" "$work/shots"
  local e t0
  for e in "${EXAMPLES[@]}"; do
    [ -f "$work/captures/$e.vpcap" ] && [ -f "$work/captures/$e.again.vpcap" ] && continue
    t0=$SECONDS
    capture_once "$e" "$work/captures/$e.vpcap" "$work/shots/$e.bmp"
    local t1=$SECONDS
    capture_once "$e" "$work/captures/$e.again.vpcap"
    log "record: $e in $((t1 - t0)) s and $((SECONDS - t1)) s"
  done
  (cd "$work/captures" && md5sum -- *.vpcap) | tee "$work/captures/md5.txt" >&2
}

stage_convert() {
  mkdir -p "$work/scenes"
  local e
  for e in "${EXAMPLES[@]}"; do
    local cap=$work/captures/$e.vpcap
    [ -f "$cap" ] || { log "convert: no $cap"; continue; }
    "$vpsim" capture info "$cap" >"$work/scenes/$e.info.txt"
    "$vpsim" capture info --json "$cap" >"$work/scenes/$e.info.json"
    "$vpsim" capture convert "$cap" --frames "$((frames - study))-$((frames - 1))" \
      -o "$work/scenes/$e.json" 2>"$work/scenes/$e.convert.txt" \
      || log "convert: $e: $(tail -1 "$work/scenes/$e.convert.txt")"
  done
}

# Every converted capture on every preset; a scene with both fixed-function and shader draws is
# also run with only its fixed-function draws and with only its shader draws (the state commands
# kept in both: scripts/real-frames-table.py split).
stage_study() {
  mkdir -p "$work/runs"
  local e p presets
  presets=$("$vpsim" presets | awk 'NR > 1 && NF == 0 {exit} NR > 1 {print $1}')
  for e in "${EXAMPLES[@]}"; do
    local scene=$work/scenes/$e.json
    [ -f "$scene" ] || continue
    python3 "$here/scripts/real-frames-table.py" split "$scene" "$work/scenes/$e"
    for p in $presets; do
      local v
      for v in "" .ff .shader; do
        [ -f "$work/scenes/$e$v.json" ] || continue
        local out=$work/runs/$e$v.$p.json
        [ -f "$out" ] && continue
        local t0=$SECONDS
        if "$vpsim" run "$work/scenes/$e$v.json" --preset "$p" --json --out "$work/runs/$e$v.$p" \
          >"$out.tmp" 2>"$work/runs/$e$v.$p.err"; then
          mv "$out.tmp" "$out"
          log "study: $e$v on $p in $((SECONDS - t0)) s"
        else
          rm -f "$out.tmp"
          log "study: $e$v on $p failed: $(tail -1 "$work/runs/$e$v.$p.err")"
        fi
      done
    done
  done
  python3 "$here/scripts/real-frames-table.py" report "$work" "${EXAMPLES[@]}" | tee "$work/report.md"
  python3 "$here/scripts/real-frames-table.py" table "$work" "$study" "${EXAMPLES[@]}" | tee "$work/table.md"
}

for s in fetch engine examples record convert study; do
  if want "$s"; then "stage_$s"; fi  # (`want && stage` would end the script with 1 when study is not asked)
done
