#!/usr/bin/env python3
"""The mutant import campaign (docs/import.md, "Hostile models"): mutated models of twelve formats
from Debian's assimp-testmodels and openarena-data through `vpsim import`, and every scene it
writes through `vpsim scene-exec`, classified as the user sees them.

  scripts/import-mutants.py [--seed N] [--per-format N] [--jobs N] [--vpsim PATH] [--work DIR]
                            [--time-limit S] [--memory-limit MIB] [--formats a,b,...]
  scripts/import-mutants.py --replay FORMAT:K [--seed N] ...   one mutant again, its output shown

Each mutant is the K-th of its format: a base model (one that imports unmutated) picked and
mutated by random.Random("SEED:FORMAT:K") with 1..8 edits (mostly 1 or 2: bit flips, random bytes,
boundary 32-bit values including NaN and infinity bits, chunks of up to 64 bytes deleted or
duplicated, rarely truncation; in text files mostly numbers replaced by nan, inf, 1e38, 1e308,
4294967295, ...). The seed is printed;
a mutant replays from SEED and FORMAT:K (the CSV in the work directory lists every one).

Outcomes: "imported" (exit 0 and the scene loads and runs in scene-exec), "refused" (exit 2, the
import's error), "time limit" / "memory limit" / "reader crash" (exit 2: the wall's errors);
failures: "crash" (vpsim killed by a signal), "hang" (no exit within the time limit + 60 s),
"internal" (exit 3 or another status), "unloadable" (exit 0 but scene-exec refuses the scene),
"left files" (a failed import left files behind). Exit status 1 when any failure was seen.
"""
import argparse
import concurrent.futures
import csv
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = "/usr/share/assimp/models"
OPENARENA = "/usr/share/games/openarena/baseoa/pak0.pk3"
FORMATS = ["md2", "md3", "ply", "dae", "smd", "x", "obj", "3ds", "ms3d", "b3d", "stl", "ase"]
MAX_BASE_BYTES = 600 * 1024
FAILURES = ["crash", "hang", "internal", "unloadable", "left files"]
OUTCOMES = ["imported", "refused", "time limit", "memory limit", "reader crash"] + FAILURES
INTERESTING32 = [0, 1, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x7F800000, 0xFF800000,
                 0x7FC00000, 0x7F7FFFFF]
INTERESTING_NUMBERS = [b"nan", b"inf", b"-inf", b"1e38", b"-1e38", b"1e308", b"-1", b"0", b"99999999",
                       b"4294967295", b"2147483648", b"65536"]
NUMBER = re.compile(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?")


def bases_of(fmt, work):
    """The base files of a format: assimp-testmodels' files with its extension (at most 600 KiB), for
    MD3 the models in OpenArena's pak0.pk3 (extracted to WORK/bases)."""
    if fmt == "md3":
        out = os.path.join(work, "bases", "md3")
        os.makedirs(out, exist_ok=True)
        files = []
        with zipfile.ZipFile(OPENARENA) as z:
            names = sorted(n for n in z.namelist() if n.lower().endswith(".md3") and z.getinfo(n).file_size <= MAX_BASE_BYTES)
            for i, n in enumerate(names):
                p = os.path.join(out, f"{i:03d}_{os.path.basename(n)}")
                if not os.path.exists(p):
                    with open(p, "wb") as f:
                        f.write(z.read(n))
                files.append(p)
        return files
    files = []
    for d, _, fs in os.walk(MODELS):
        for f in fs:
            p = os.path.join(d, f)
            if f.lower().endswith("." + fmt) and os.path.getsize(p) <= MAX_BASE_BYTES:
                files.append(p)
    return sorted(files)


# Edits and their weights (binary files / text files): small local edits mostly, so that many
# mutants still import and their scenes are loaded; truncation rarely.
EDITS = ["flip", "byte", "int32", "delete", "duplicate", "number", "truncate"]
WEIGHTS_BINARY = [3, 3, 4, 1, 1, 0, 0.2]
WEIGHTS_TEXT = [2, 2, 1, 0.5, 0.5, 6, 0.2]


def mutate(data, rng):
    b = bytearray(data)
    text = b"\0" not in b[:4096]
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3, 4, 8])):
        if not b:
            b = bytearray(b"\0")
        op = rng.choices(EDITS, WEIGHTS_TEXT if text else WEIGHTS_BINARY)[0]
        pos = rng.randrange(len(b))
        if op == "flip":
            b[pos] ^= 1 << rng.randrange(8)
        elif op == "byte":
            b[pos] = rng.randrange(256)
        elif op == "int32":
            pos &= ~3
            b[pos:pos + 4] = rng.choice(INTERESTING32).to_bytes(4, "little")
        elif op == "delete":
            del b[pos:pos + rng.randint(1, 64)]
        elif op == "duplicate":
            b[pos:pos] = b[pos:pos + rng.randint(1, 64)]
        elif op == "number":
            m = NUMBER.search(b, pos) or NUMBER.search(b)
            if m:
                b[m.start():m.end()] = rng.choice(INTERESTING_NUMBERS)
        else:
            del b[pos:]
    return bytes(b)


def make_mutant(seed, fmt, k, bases):
    rng = random.Random(f"{seed}:{fmt}:{k}")
    base = rng.choice(bases)
    with open(base, "rb") as f:
        return base, mutate(f.read(), rng)


def run_one(args, fmt, k, base, data, keep=False):
    d = tempfile.mkdtemp(prefix=f"mut-{fmt}-{k}-", dir=os.path.join(args.work, "runs"))
    model = os.path.join(d, "mutant." + fmt)
    with open(model, "wb") as f:
        f.write(data)
    out = os.path.join(d, "out")
    os.mkdir(out)
    cmd = [args.vpsim, "import", model, "-o", os.path.join(out, "s.json"), "-q",
           "--time-limit", str(args.time_limit), "--memory-limit", str(args.memory_limit)]
    t0 = time.monotonic()
    detail = ""
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=args.time_limit + 60)
        rc, err = r.returncode, r.stderr.decode("utf-8", "replace").strip()
        detail = err.splitlines()[-1] if err else ""
        if rc < 0:
            outcome = "crash"
        elif rc == 0:
            s = subprocess.run([args.vpsim, "scene-exec", os.path.join(out, "s.json")], capture_output=True,
                               timeout=600)
            outcome = "imported" if s.returncode == 0 else "unloadable"
            if s.returncode != 0:
                detail = (s.stderr.decode("utf-8", "replace").strip().splitlines() or [""])[-1]
        elif rc == 2:
            if "(--time-limit)" in err:
                outcome = "time limit"
            elif "(--memory-limit)" in err:
                outcome = "memory limit"
            elif "the reading process crashed" in err:
                outcome = "reader crash"
            else:
                outcome = "refused"
            if os.listdir(out):
                outcome, detail = "left files", " ".join(sorted(os.listdir(out)))
        else:
            outcome = "internal"
    except subprocess.TimeoutExpired:
        outcome = "hang"
    seconds = time.monotonic() - t0
    if keep:
        print(f"mutant {fmt}:{k} in {d}\n  base {base}\n  {' '.join(cmd)}\n  {outcome}: {detail}")
    else:
        shutil.rmtree(d, ignore_errors=True)
    return fmt, k, os.path.basename(base), outcome, round(seconds, 3), detail


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-format", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--vpsim", default=os.path.join(ROOT, "build", "vpsim"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "import-mutants"))
    ap.add_argument("--time-limit", type=float, default=20)
    ap.add_argument("--memory-limit", type=int, default=4096)
    ap.add_argument("--formats", default=",".join(FORMATS))
    ap.add_argument("--replay", default="")
    args = ap.parse_args()
    formats = [f for f in args.formats.split(",") if f]
    for f in formats:
        if f not in FORMATS:
            sys.exit(f"import-mutants: --formats: {f} is not one of {', '.join(FORMATS)}")
    if args.per_format < 1 or args.jobs < 1:
        sys.exit("import-mutants: --per-format and --jobs need a number above 0")
    subprocess.run([os.path.join(ROOT, "scripts", "deps.sh"), "assimp-testmodels", "openarena-data"], check=True)
    args.vpsim = os.path.abspath(args.vpsim)
    os.makedirs(os.path.join(args.work, "runs"), exist_ok=True)
    print(f"import-mutants: seed {args.seed} (replay a mutant: --seed {args.seed} --replay FORMAT:K)", flush=True)
    bases = {}
    for f in formats:
        # Bases: the files of the format that import unmutated (the same limits).
        ok = [b for b in bases_of(f, args.work)
              if run_one(args, f, -1, b, open(b, "rb").read())[3] == "imported"]
        if not ok:
            sys.exit(f"import-mutants: no {f} model imports unmutated")
        bases[f] = ok
    if args.replay:
        f, _, k = args.replay.partition(":")
        if f not in bases or not k.isdigit():
            sys.exit("import-mutants: --replay FORMAT:K, FORMAT one of --formats")
        base, data = make_mutant(args.seed, f, int(k), bases[f])
        run_one(args, f, int(k), base, data, keep=True)
        return 0
    t0 = time.monotonic()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = []
        for k in range(args.per_format):
            for f in formats:
                base, data = make_mutant(args.seed, f, k, bases[f])
                futs.append(ex.submit(run_one, args, f, k, base, data))
        for n, fu in enumerate(concurrent.futures.as_completed(futs), 1):
            rows.append(fu.result())
            if rows[-1][3] in FAILURES:
                print(f"  FAILURE {rows[-1][0]}:{rows[-1][1]} ({rows[-1][2]}): {rows[-1][3]}: {rows[-1][5]}", flush=True)
            if n % 200 == 0:
                print(f"  {n}/{len(futs)} mutants, {time.monotonic() - t0:.0f} s", flush=True)
    wall = time.monotonic() - t0
    rows.sort(key=lambda r: (formats.index(r[0]), r[1]))
    with open(os.path.join(args.work, f"mutants-seed{args.seed}.csv"), "w", newline="") as fcsv:
        w = csv.writer(fcsv)
        w.writerow(["format", "k", "base", "outcome", "seconds", "message"])
        w.writerows(rows)
    table = io.StringIO()
    table.write("| format | bases | mutants | " + " | ".join(OUTCOMES) + " |\n")
    table.write("|---" * (len(OUTCOMES) + 3) + "|\n")
    for f in formats + ["all"]:
        rs = [r for r in rows if f == "all" or r[0] == f]
        nb = sum(len(v) for v in bases.values()) if f == "all" else len(bases[f])
        table.write(f"| {f} | {nb} | {len(rs)} | " + " | ".join(str(sum(r[3] == o for r in rs)) for o in OUTCOMES) + " |\n")
    print(table.getvalue(), end="")
    slow = max(rows, key=lambda r: r[4])
    print(f"wall time {wall:.0f} s with {args.jobs} jobs; slowest mutant {slow[0]}:{slow[1]} {slow[4]} s ({slow[3]})")
    print(f"command: scripts/import-mutants.py --seed {args.seed} --per-format {args.per_format} --jobs {args.jobs} "
          f"--time-limit {args.time_limit:g} --memory-limit {args.memory_limit}")
    failures = sum(r[3] in FAILURES for r in rows)
    print(f"failures (crash, hang, internal, unloadable, left files): {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
