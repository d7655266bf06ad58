#!/usr/bin/env bash
# The two studies on real content (docs/sweep.md "Studies on real content", issue 22 item 3):
#   examples/studies/real_ptc_entries_order.json   post-transform cache entries x triangle order
#   examples/studies/real_skin_tween_presets.json  cycles per vertex of skinned and tweened models,
#                                                  fixed function against the skinning shader, per preset
# Installs Debian's assimp-testmodels and openarena-data if missing (scripts/deps.sh, as
# scripts/real-content.sh does), imports the scenes the studies need into
# examples/studies/scenes/real/ (generated, not committed), runs `vpsim sweep` (the second study
# once per preset, nv20, nv2a, nv25) and draws the plots with `vpsim plot` into docs/studies/.
# Prints each study's figures (the numbers docs/sweep.md quotes).
#
#   scripts/real-studies.sh [BUILD_DIR] [JOBS]    (defaults: build, the cores)
# The sweep directories go to $REAL_STUDY_OUT (default BUILD_DIR/real-studies). It does not build vpsim.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
jobs="${2:-$(nproc)}"
vpsim="$build/vpsim"
python=/usr/bin/python3
[ -x "$vpsim" ] || { echo "real-studies.sh: $vpsim not found (build it first)" >&2; exit 2; }
"$root/scripts/deps.sh" assimp-testmodels openarena-data unzip python3-matplotlib

M=/usr/share/assimp/models
OA=/usr/share/games/openarena/baseoa
scenes="$root/examples/studies/scenes/real"
out="${REAL_STUDY_OUT:-$build/real-studies}"
rm -rf "$out" "$scenes/ptc" "$scenes/skin" "$scenes/src"
mkdir -p "$out" "$scenes/ptc" "$scenes/skin" "$scenes/src" "$root/docs/studies"

# An OpenArena player: lower, upper and head read together from upper.md3 (as real-content.sh).
player() {
  (cd "$scenes/src" && unzip -o -q "$OA/pak2-players.pk3" "models/players/$1/*.md3")
  echo "$scenes/src/models/players/$1/upper.md3"
}
# import NAME DIR MODEL ARGS...: DIR/NAME.json, failing loudly
import() {
  local name="$1" dir="$2" model="$3"
  shift 3
  "$vpsim" import "$model" -o "$dir/$name.json" -q "$@" > /dev/null \
    || { echo "real-studies.sh: vpsim import $model $* failed" >&2; exit 1; }
}

# Study 1: each model in the file's own triangle order and in meshoptimizer's.
ptc_models=(
  "epileptic|$M/X/BCN_Epileptic.X"
  "duck|$M/Collada/duck.dae"
  "human|$M/Collada/human.zae"
  "wuson|$M/MS3D/Wuson.ms3d"
  "spider|$M/FBX/spider.fbx"
  "fels|$M/3DS/fels.3ds"
  "sergei|$(player sergei)"
)
for e in "${ptc_models[@]}"; do
  import "${e%%|*}.file" "$scenes/ptc" "${e#*|}" --index-order file
  import "${e%%|*}.optimised" "$scenes/ptc" "${e#*|}" --index-order optimised
done

# Study 2: skinned models by fixed-function vertex blending and by the skinning shader (posed at
# 1 s of their first animation); tweened models (fixed function only: the shader is for skinning).
skinned=(
  "epileptic|$M/X/BCN_Epileptic.X"
  "anim_test|$M/X/anim_test.x"
  "testwuson|$M/X/Testwuson.X"
  "huesitos|$M/FBX/huesitos.fbx"
  "fbx_skeleton|$M/FBX/animation_with_skeleton.fbx"
)
for e in "${skinned[@]}"; do
  import "${e%%|*}.ff" "$scenes/skin" "${e#*|}" --time 1
  import "${e%%|*}.shader" "$scenes/skin" "${e#*|}" --time 1 --effect skin-shader
done
import "sydney_md2.ff" "$scenes/skin" "$M/MD2/sydney.md2" --frame 0,1
import "faerie_md2.ff" "$scenes/skin" "$M/MD2/faerie.md2" --frame 0,1
import "oa_sergei.ff" "$scenes/skin" "$(player sergei)" --frame 0,10
import "oa_penguin.ff" "$scenes/skin" "$(player penguin)" --frame 0,10

sweep() { # STUDY OUTDIR [--preset P]
  local study="$1" dir="$2"
  shift 2
  local t0 t1
  t0="$(date +%s.%N)"
  "$vpsim" sweep "$root/examples/studies/$study.json" --jobs "$jobs" --quiet --out "$dir" "$@"
  t1="$(date +%s.%N)"
  awk -v s="$study $*" -v n="$(($(wc -l < "$dir/results.csv") - 1))" -v a="$t0" -v b="$t1" -v j="$jobs" \
    'BEGIN { printf "%s: %d points in %.1f s (--jobs %d)\n", s, n, b - a, j }'
}

# Study 1: the table with a model and an order column (vpsim plot draws any column of
# results.csv): ACMR against entries, a line per order (the mean of the models), and a heatmap
# of every scene's ACMR over entries.
sweep real_ptc_entries_order "$out/ptc"
mkdir -p "$out/ptc-by-order"
"$python" - "$out/ptc/results.csv" "$out/ptc-by-order/results.csv" <<'PY'
import csv, os, sys
src, dst = sys.argv[1:]
with open(src, newline="") as f:
    r = csv.DictReader(f)
    fields, rows = r.fieldnames, list(r)
for row in rows:
    name = os.path.basename(row["scene"]).removesuffix(".json")
    row["model"], row["order"] = name.rsplit(".", 1)
    row["scene"] = name
with open(dst, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["model", "order"] + fields)
    w.writeheader()
    w.writerows(rows)
PY
"$vpsim" plot "$out/ptc-by-order" --x post_transform_cache.entries --y acmr --hue order \
  -o "$root/docs/studies/real_ptc_entries_order.png"
"$vpsim" plot "$out/ptc-by-order" --x post_transform_cache.entries --y acmr --heatmap scene \
  -o "$root/docs/studies/real_ptc_entries_order_models.png"

# Study 2: once per preset; the three tables joined with a preset, variant (the scene's name), model and effect column
# (vpsim plot draws any column of results.csv).
for p in nv20 nv2a nv25; do
  sweep real_skin_tween_presets "$out/skin-$p" --preset "$p"
done
mkdir -p "$out/skin"
"$python" - "$out" <<'PY'
import csv, os, sys
out = sys.argv[1]
rows, fields = [], None
for p in ("nv20", "nv2a", "nv25"):
    with open(os.path.join(out, f"skin-{p}", "results.csv"), newline="") as f:
        r = csv.DictReader(f)
        fields = fields or r.fieldnames
        for row in r:
            name = os.path.basename(row["scene"]).removesuffix(".json")
            model, effect = name.rsplit(".", 1)
            row.update(preset=p, model=model, variant=name,
                       effect={"ff": "fixed function", "shader": "skin-shader"}[effect])
            rows.append(row)
with open(os.path.join(out, "skin", "results.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["preset", "variant", "model", "effect"] + fields)
    w.writeheader()
    w.writerows(rows)
PY
"$vpsim" plot "$out/skin" --x preset --y cycles_per_vertex --heatmap variant \
  -o "$root/docs/studies/real_skin_tween_presets.png"

# The figures.
"$python" - "$out" <<'PY'
import csv, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "ptc", "results.csv"))))
print("\nACMR (post_transform_cache.entries):")
entries = sorted({int(r["post_transform_cache.entries"]) for r in rows})
print("scene".ljust(22) + "".join(f"{e:>7}" for e in entries))
for s in sorted({r["scene"] for r in rows}):
    v = {int(r["post_transform_cache.entries"]): float(r["acmr"]) for r in rows if r["scene"] == s}
    print(os.path.basename(s).removesuffix(".json").ljust(22) + "".join(f"{v[e]:7.3f}" for e in entries))
rows = list(csv.DictReader(open(os.path.join(out, "skin", "results.csv"))))
print("\ncycles per vertex:")
print("model".ljust(16) + "effect".ljust(16) + "".join(f"{p:>8}" for p in ("nv20", "nv2a", "nv25")))
for m in dict.fromkeys(r["model"] for r in rows):
    for e in dict.fromkeys(r["effect"] for r in rows if r["model"] == m):
        v = {r["preset"]: float(r["cycles_per_vertex"]) for r in rows if r["model"] == m and r["effect"] == e}
        print(m.ljust(16) + e.ljust(16) + "".join(f"{v[p]:8.1f}" for p in ("nv20", "nv2a", "nv25")))
PY

# The programs behind the cycles: each fixed-function scene's programs (`vpsim ff-program`:
# instructions and slots, with how many draws run each) and the skinning shader's length
# (vs-isa.md's slot costs: m3x3 / m4x3 3, m4x4 4, the rest 1 here).
echo
echo "programs (nv20's caps):"
for f in "$scenes"/skin/*.ff.json; do
  printf '%-24s %s\n' "$(basename "${f%.json}")" \
    "$("$vpsim" ff-program "$f" --preset nv20 | sed -n 's/^; \([0-9]* instructions, [0-9]* slots\), [0-9]* instruction words$/\1/p' \
       | sort | uniq -c | awk '{ $1 = $1 " x"; print }' | paste -sd ';' -)"
done
"$python" - "$scenes"/skin/*.shader.json <<'PY'
import json, sys
def programs(o):
    if isinstance(o, dict):
        if isinstance(o.get("asm"), str):
            yield o["asm"]
        for v in o.values():
            yield from programs(v)
    elif isinstance(o, list):
        for v in o:
            yield from programs(v)
cost = {"m3x2": 2, "m3x3": 3, "m4x3": 3, "m3x4": 4, "m4x4": 4, "frc": 3, "exp": 12, "log": 12}
for f in sys.argv[1:]:
    lens = set()
    for text in programs(json.load(open(f))):
        ops = [l.split()[0] for l in text.splitlines() if l.strip() and not l.strip().startswith((";", "vs."))]
        lens.add(f"{len(ops)} instructions, {sum(cost.get(o, 1) for o in ops)} slots")
    print(f"{f.rsplit('/', 1)[-1].removesuffix('.json'):24} {'; '.join(sorted(lens))}")
PY
