#!/usr/bin/env python3
"""Shrunk sizes of the planted-bug variants, two vpsim binaries side by side (docs/xcheck.md,
"Shrinking"): for each variant, the first five mismatches of `xcheck --rtl VARIANT --no-corpus
--random N --seed S` (with the variant's back-pressure), the original and shrunk token counts, and
whether the shrunk array still shows the same difference class (the kinds of the two first
differing events, or cycles / missing / extra event, read from each shrunk file's header).

usage: scripts/xcheck-shrink-compare.py OLD_VPSIM NEW_VPSIM [WORK] [RANDOM] [SEED]"""
import glob
import os
import re
import subprocess
import sys

old, new = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
work = sys.argv[3] if len(sys.argv) > 3 else "xcheck-shrink-compare"
random_n = sys.argv[4] if len(sys.argv) > 4 else "20000"
seed = sys.argv[5] if len(sys.argv) > 5 else "1"
src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The planted-bug variants, made from their patches on today's rtl/ (tests/rtl_variants/apply.cmake).
vdir = os.path.join(os.path.abspath(work), "variants")
os.makedirs(vdir, exist_ok=True)
variants = [("decl_decoder_bug.sv", []), ("decl_decoder_bpbug.sv", ["--out-ready", "0.2"]),
            ("decl_decoder_skipbug.sv", []), ("decl_decoder_lenbug.sv", []), ("decl_decoder_slow.sv", [])]


def klass(diff):
    """The difference class of a compare() text: kinds of the two events, or cycles/missing/extra."""
    if diff.startswith("cycles"):
        return "cycles"
    m = re.match(r"event \d+: model (\w+)(?: \S+)*? \| rtl (\w+)", diff)
    if m:
        return "%s|%s" % (m.group(1), m.group(2))
    m = re.match(r"event \d+: (model|rtl) has (\w+)", diff)
    return ("%s has extra %s" % (m.group(1), m.group(2))) if m else diff[:30]


for sv, _ in variants:
    subprocess.run(["cmake", "-DPATCH=" + os.path.join(src, "tests", "rtl_variants", sv[:-3] + ".patch"), "-DROOT=" + src,
                    "-DOUT=" + os.path.join(vdir, sv), "-P", os.path.join(src, "tests", "rtl_variants", "apply.cmake")],
                   check=True)


print("| variant | binary | mismatches | original tokens | shrunk tokens | same class |")
print("|---|---|---|---|---|---|")
for sv, extra in variants:
    for name, exe in (("before", old), ("after", new)):
        d = os.path.abspath(os.path.join(work, name, sv))
        os.makedirs(d, exist_ok=True)
        for f in glob.glob(d + "/*.decl"):
            os.remove(f)
        out = subprocess.run([exe, "xcheck", "--rtl", os.path.join(vdir, sv), "--no-corpus",
                              "--random", random_n, "--seed", seed, "--mismatch-dir", d, "--rtl-cache",
                              os.path.join(os.path.abspath(work), "cache")] + extra,
                             capture_output=True, text=True, cwd=d)
        mism = re.search(r"mismatches: (\d+)", out.stdout)
        orig, shr, same = [], [], 0
        for f in sorted(glob.glob(d + "/*.decl")):
            text = open(f).read()
            m = re.search(r"\((\d+) tokens to (\d+)\)", text)
            orig.append(int(m.group(1)))
            shr.append(int(m.group(2)))
            a = re.search(r"^// original: (.*)$", text, re.M).group(1)
            b = re.search(r"^// shrunk: (.*)$", text, re.M).group(1)
            same += klass(a) == klass(b)
        print("| %s | %s | %s | %s | %s | %d of %d |" % (sv, name, mism.group(1) if mism else "?", " ".join(map(str, orig)),
                                                         " ".join(map(str, shr)), same, len(shr)))
