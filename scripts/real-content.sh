#!/usr/bin/env bash
# The real-content suite (examples/workloads/real/README.md, docs/import.md): installs Debian's
# assimp-testmodels and openarena-data if missing (scripts/deps.sh), imports the models listed
# below with `vpsim import` (OpenArena's MD3 player models tweened between two frames, one arena
# map from its .pk3), runs each on every preset with `vpsim run --preset P`, and writes the table
# into examples/workloads/real/README.md between its markers. The imported scenes and their side
# files go to $REAL_OUT (default: build's real-content/, not committed: this script regenerates
# them).
#
#   scripts/real-content.sh                     # uses $root/build/vpsim
#   VPSIM_BUILD_DIR=build-f scripts/real-content.sh
#   scripts/real-content.sh --quick             # the CI subset (a few models, one preset)
#
# It does not build vpsim.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${VPSIM_BUILD_DIR:-$root/build}"
vpsim="$build/vpsim"
python=/usr/bin/python3
[ -x "$vpsim" ] || { echo "real-content.sh: $vpsim not found (build it first, or set VPSIM_BUILD_DIR)" >&2; exit 2; }
quick=0
[ "${1:-}" = "--quick" ] && quick=1

if [ "$quick" = 1 ]; then
  # The CI subset installs nothing (scripts/deps.sh installs assimp-testmodels).
  [ -d /usr/share/assimp/models ] || { echo "real-content.sh: assimp-testmodels is not installed (scripts/deps.sh)" >&2; exit 2; }
else
  "$root/scripts/deps.sh" assimp-testmodels openarena-data unzip zip
fi

M=/usr/share/assimp/models
OA=/usr/share/games/openarena/baseoa
out="${REAL_OUT:-$build/real-content}"
rm -rf "$out"
mkdir -p "$out/src"

# model | import arguments (besides -o)
models=(
  "$M/X/BCN_Epileptic.X|--time 1"
  "$M/X/BCN_Epileptic.X|--time 1 --effect skin-shader --compress"
  "$M/X/anim_test.x|--time 1"
  "$M/X/Testwuson.X|"
  "$M/X/test_cube_binary.x|"
  "$M/MD2/sydney.md2|--frame 0,1"
  "$M/MD2/faerie.md2|--frame 0,1"
  "$M/MS3D/jeep1.ms3d|"
  "$M/MS3D/Wuson.ms3d|"
  "$M/SMD/WusonSMD.smd|"
  "$M/SMD/holy_grailref.smd|"
  "$M/B3D/WusonBlitz.b3d|"
  "$M/Collada/duck.dae|"
  "$M/Collada/teapots.DAE|"
  "$M/Collada/human.zae|"
  "$M/FBX/spider.fbx|"
  "$M/FBX/huesitos.fbx|"
  "$M/FBX/animation_with_skeleton.fbx|"
  "$M/OBJ/spider.obj|"
  "$M/OBJ/WusonOBJ.obj|"
  "$M/3DS/fels.3ds|"
  "$M/3DS/test1.3ds|"
  "$M/PLY/Wuson.ply|"
  "$M/PLY/cube.ply|"
  "$M/MD5/SimpleCube.md5mesh|"
  "$M/BLEND/BlenderDefault_250.blend|"
  "$M/AC/Wuson.ac|"
  "$M/X/kwxport_test_cubewithvcolors.x|"
  "$M/AC/SphereWithLight.ac|"
)
# OpenArena: MD3 player models, frames 0 and 10 tweened. Assimp's MD3 importer reads a player's
# lower, upper and head parts together from upper.md3 (AI_CONFIG_IMPORT_MD3_HANDLE_MULTIPART, on
# by default). One arena map: a .pk3 holding only its .bsp (Assimp's Q3BSP importer reads the
# first map of a .pk3).
players=(assassin major sergei smarine penguin)
[ "$quick" = 1 ] && players=()
for p in "${players[@]}"; do
  (cd "$out/src" && unzip -o -q "$OA/pak2-players.pk3" "models/players/$p/*.md3" 2>/dev/null || true)
  f="$out/src/models/players/$p/upper.md3"
  [ -f "$f" ] && models+=("$f|--frame 0,10")
done
if [ "$quick" = 0 ]; then
  (cd "$out/src" && unzip -o -q "$OA/pak1-maps.pk3" maps/aggressor.bsp && rm -f aggressor.pk3 && zip -q -r aggressor.pk3 maps)
  models+=("$out/src/aggressor.pk3|")
fi

presets=(nv20 nv2a nv25)
if [ "$quick" = 1 ]; then
  models=("${models[0]}" "${models[1]}" "${models[5]}" "${models[7]}" "${models[18]}")
  presets=(nv20)
fi

rows="$out/rows.jsonl"
: > "$rows"
n=0
for entry in "${models[@]}"; do
  model="${entry%%|*}"
  args="${entry#*|}"
  [ -f "$model" ] || { echo "real-content.sh: skipping $model (not installed)" >&2; continue; }
  n=$((n + 1))
  label="$(basename "$(dirname "$model")")/$(basename "$model")"
  case "$model" in
    */players/*) label="openarena/$(basename "$(dirname "$model")")/$(basename "$model") (with lower, head)" ;;
    */aggressor.pk3) label="openarena/maps/aggressor.bsp (in a .pk3)" ;;
  esac
  case "$args" in *--effect*) label="$label (${args#*--effect })" ;; esac
  scene="$out/scenes/$n-$(basename "${model%.*}").json"
  mkdir -p "$out/scenes"
  # shellcheck disable=SC2086
  if ! "$vpsim" import "$model" -o "$scene" -q $args >/dev/null 2>"$out/import-$n.err"; then
    echo "real-content.sh: import failed: $model: $(cat "$out/import-$n.err")" >&2
    continue
  fi
  for p in "${presets[@]}"; do
    "$vpsim" run "$scene" --preset "$p" --json --no-progress > "$out/run-$n-$p.json" 2>"$out/run-$n-$p.err" || true
  done
  "$python" - "$label" "${scene%.json}.import.json" "$out" "$n" "${presets[@]}" >> "$rows" <<'PY'
import json, sys, os
label, report, out, n, *presets = sys.argv[1:]
r = json.load(open(report))
row = {"model": label, "format": r["format"], "vertices": r["vertices"], "triangles": r["triangles"],
       "bones": r.get("bones", 0), "frames": r.get("tween", {}).get("frames"), "frames_in_file": r.get("frames_in_file"),
       "acmr_file": r["acmr_file"], "acmr_optimised": r["acmr_optimised"], "runs": {}}
for p in presets:
    f = os.path.join(out, f"run-{n}-{p}.json")
    try:
        s = json.load(open(f))
        progs = s.get("fixed_function", {}).get("programs", [])
        row["ff"] = ", ".join(sorted({str(q["instructions"]) for q in progs})) or "-"
        row["runs"][p] = {"cpv": s["cycles_per_vertex"], "bottleneck": s["bottleneck"]["unit"]}
    except Exception:
        err = open(os.path.join(out, f"run-{n}-{p}.err")).read().strip().splitlines()
        row["runs"][p] = {"error": err[-1] if err else "failed"}
print(json.dumps(row))
PY
done

"$python" - "$rows" "$root/examples/workloads/real/README.md" "$quick" "${presets[@]}" <<'PY'
import json, sys
rows_file, readme, quick, *presets = sys.argv[1:]
rows = [json.loads(l) for l in open(rows_file) if l.strip()]
head = "| model | format | vertices | triangles | bones / frames | ACMR file | ACMR meshopt | FF instructions | " + \
       " | ".join(f"{p} cycles/vertex, bottleneck" for p in presets) + " |"
lines = [head, "|" + "---|" * 4 + "---|---:|---:|---|" + "---|" * len(presets)]
lines[1] = "|---|---|---:|---:|---|---:|---:|---|" + "---|" * len(presets)
for r in rows:
    bf = f'{r["bones"]} bones' if r["bones"] else (f'frames {r["frames"][0]}→{r["frames"][1]} of {r["frames_in_file"]}' if r["frames"] else "-")
    cells = []
    for p in presets:
        x = r["runs"].get(p, {})
        cells.append(f'{x["cpv"]:.1f}, {x["bottleneck"]}' if "cpv" in x else f'refused: {x.get("error", "?")[:80]}')
    lines.append(f'| {r["model"]} | {r["format"]} | {r["vertices"]:,} | {r["triangles"]:,} | {bf} | {r["acmr_file"]:.3f} | '
                 f'{r["acmr_optimised"]:.3f} | {r.get("ff", "-")} | ' + " | ".join(cells) + " |")
table = "\n".join(lines) + "\n"
if quick == "1":
    print(table)
    sys.exit(0)
text = open(readme).read()
begin, end = "<!-- table: scripts/real-content.sh -->\n", "<!-- end of table -->\n"
a, b = text.index(begin) + len(begin), text.index(end)
open(readme, "w").write(text[:a] + table + text[b:])
print(f"{len(rows)} models: {readme}")
PY
