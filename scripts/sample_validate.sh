#!/usr/bin/env bash
# The validation of sampled simulation (docs/sampling.md, "Validation"): every scene of
# examples/workloads/, examples/scenes/ and examples/scenes/patches/, and the default scene with
# a 1000 x 1000-vertex sphere (32.9 M cycles) and ff_blend2 at 200 x 300 vertices (2.8 M cycles),
# both written to a temporary directory, each run in full and
# with --sample; prints a Markdown table: full cycles, the estimate ± its 99.7 % half-width, the
# error, whether the full run's cycles are inside the interval, the share simulated in detail,
# and the speed-up in CPU seconds (user + sys of the process; "simulation" subtracts the scene's
# loading, measured by `vpsim run SCENE --topology`, which loads it and exits) — or the reason a
# scene is refused; "wall" is the full run's simulation (sc_start) against the whole sampled
# estimate, both in wall seconds as vpsim reports them. Every figure comes from the runs.
#
#   scripts/sample_validate.sh                    # uses $root/build/vpsim
#   VPSIM_BUILD_DIR=build-bench scripts/sample_validate.sh
#   scripts/sample_validate.sh --sample-seed 7    # extra arguments go to every sampled run
#   VPSIM_SAMPLE_ONLY=large scripts/sample_validate.sh   # the two generated scenes only
#   VPSIM_SAMPLE_CAPTURES=build/irrlicht/scenes scripts/sample_validate.sh
#       # also every recorded frame range converted there by scripts/irrlicht.sh (EXAMPLE.json)
#
# It does not build vpsim. Exit status: 0 when every scene sampled has its full cycles inside
# the interval, 1 otherwise, 2 usage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
vpsim="${VPSIM_BUILD_DIR:-$root/build}/vpsim"
[ -x "$vpsim" ] || { echo "sample_validate.sh: $vpsim not found (build it first, or set VPSIM_BUILD_DIR)" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

exec /usr/bin/python3 - "$vpsim" "$root" "$tmp" "$@" <<'EOF'
import json, os, resource, subprocess, sys

vpsim, root, tmp, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

def cpu_run(args):
    """Runs vpsim; returns (exit status, stdout, stderr, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([vpsim] + args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.returncode, p.stdout, p.stderr, cpu

# The large workload: the default scene's sphere at 1000 x 1000 vertices (as `vpsim bench run`'s).
with open(os.path.join(root, "examples/scenes/default.json")) as f:
    big = json.load(f)
sphere = big["buffers"]["sphere"]
sphere["slices"], sphere["stacks"], sphere["indices"] = 999, 999, "INDEX32"
for c in big["commands"]:
    if c.get("op") == "DrawIndexedPrimitive":
        c["num_vertices"] = 1000 * 1000
        c.pop("primitive_count", None)
big_path = os.path.join(tmp, "sphere_1000x1000.json")
with open(big_path, "w") as f:
    json.dump(big, f)

scenes = []
for d in [] if os.environ.get("VPSIM_SAMPLE_ONLY") == "large" else ("examples/workloads", "examples/scenes", "examples/scenes/patches"):
    full = os.path.join(root, d)
    scenes += [(os.path.join(d, n), os.path.join(full, n)) for n in sorted(os.listdir(full)) if n.endswith(".json")]
scenes.append(("sphere 1000 x 1000 (generated)", big_path))
# ff_blend2's limb at 200 x 300 vertices (2.8 M cycles): a long fixed-function blending run.
with open(os.path.join(root, "examples/workloads/ff_blend2.json")) as f:
    blend = json.load(f)
blend["buffers"]["limb"]["slices"], blend["buffers"]["limb"]["stacks"] = 199, 299
blend_path = os.path.join(tmp, "ff_blend2_200x300.json")
with open(blend_path, "w") as f:
    json.dump(blend, f)
scenes.append(("ff_blend2 200 x 300 (generated)", blend_path))
# Recorded frames (docs/real-frames.md), when converted: EXAMPLE.json, not the .ff / .shader splits.
captures = os.environ.get("VPSIM_SAMPLE_CAPTURES", "")
if captures:
    scenes += [("capture " + n[:-5], os.path.join(captures, n)) for n in sorted(os.listdir(captures))
               if n.endswith(".json") and not n.endswith((".info.json", ".ff.json", ".shader.json"))]

print("| scene | full cycles | estimate ± 99.7 % | error | inside | detail | speed-up (simulation) | speed-up (process) | "
      "speed-up (wall) |")
print("|---|---:|---:|---:|:-:|---:|---:|---:|---:|")
outside = 0
for name, path in scenes:
    rc, out, err, full_cpu = cpu_run(["run", path, "--json", "--no-progress"])
    if rc != 0:
        print(f"| {name} | full run failed ({rc}): {err.strip().splitlines()[-1] if err.strip() else ''} | | | | | | | |")
        continue
    full = json.loads(out)
    cycles = full["cycles"]
    rc, out, err, s_cpu = cpu_run(["run", path, "--sample", "--json"] + extra)
    if rc == 2:
        reason = err.strip()
        why = ("patches" if "a patch" in reason else "N-patches" if "N-patches" in reason
               else "phase changes" if "phase changes" in reason else "too short" if "too short" in reason
               else "the draw's start (start check)" if "depends on where the simulation starts" in reason
               else reason)
        print(f"| {name} | {cycles:,} | refused: {why} | | | | | | |")
        continue
    if rc != 0:
        print(f"| {name} | {cycles:,} | sampled run failed ({rc}): {err.strip()} | | | | | | |")
        outside += 1
        continue
    s = json.loads(out)
    est, hw = s["cycles"]["estimate"], s["cycles"]["half_width"]
    error = (est - cycles) / cycles
    inside = abs(est - cycles) <= hw
    outside += 0 if inside else 1
    _, _, _, load_cpu = cpu_run(["run", path, "--topology"])
    # Loading measured apart: when it is nearly the whole sampled run, the difference is noise.
    sim_full, sim_sample = full_cpu - load_cpu, s_cpu - load_cpu
    sim = f"{sim_full / sim_sample:.2f}×" if sim_sample > 0.02 and sim_full > 0 else "n/a (mostly loading)"
    print(f"| {name} | {cycles:,} | {est:,.0f} ± {hw:,.0f} ({100 * hw / est:.2f} %) | {100 * error:+.2f} % | "
          f"{'yes' if inside else '**no**'} | {100 * s['detail_share']:.1f} % | {sim} | "
          f"{full_cpu / s_cpu:.2f}× | {full['host_seconds'] / s['host_seconds']:.2f}× |")
sys.exit(1 if outside else 0)
EOF
