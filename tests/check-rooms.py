#!/usr/bin/env python3
"""Every piece in its room: the folders' #include directions (README.md, "Layout").

    tests/check-rooms.py SOURCE_DIR            check every tracked C/C++ file of SOURCE_DIR
    tests/check-rooms.py --table SOURCE_DIR    print each room and the rooms it includes (with counts)
    tests/check-rooms.py --self-test           plant each kind of include in a scratch tree and check
                                               that each is found (and that allowed ones are not)

A room is a folder under model/ (model/sc, model/rtl, ...) or a top-level folder (tb, tests, ...).
Rooms depend downward; what is checked, for every `#include "ROOM/..."` of a project file:
  - nothing under model/ includes tb/ (the cross-check), except model/cli/, the top, which
    includes both;
  - nothing outside model/cli/ includes model/cli/ (nothing sits above the command);
  - model/rtl/ (Verilated designs as C++, shared by tb/ and the RTL units of model/sc/) does not
    include model/sc/: both of its users sit above it (nor, by the rules above, tb/ or model/cli/).
Files: `git ls-files` when SOURCE_DIR is a git checkout, else every file outside .git and build*/
folders; those ending .h .hpp .c .cc .cpp. Prints FILE:LINE: what for each finding and exits 1 if
there is any, 0 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from self_test_verdict import verdict  # noqa: E402 (tests/self_test_verdict.py, beside this script)

SOURCES = (".h", ".hpp", ".c", ".cc", ".cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')

# (the including room, or a predicate on it; the included room; why)
RULES = [
    (lambda r: r.startswith("model/") and r != "model/cli", "tb",
     "model/ includes tb/ (tb may include model, never the reverse; only model/cli, the top, includes both)"),
    (lambda r: r != "model/cli", "model/cli", "model/cli is the top: nothing below it includes it"),
    (lambda r: r == "model/rtl", "model/sc", "model/rtl sits below the timing model (model/sc includes it)"),
]


def room(path):
    """model/X for a path under model/X/, else the top-level folder ('' for a file at the top)."""
    parts = path.split("/")
    if parts[0] == "model" and len(parts) > 2:
        return "model/" + parts[1]
    return parts[0] if len(parts) > 1 else ""


def source_files(root):
    if os.path.exists(os.path.join(root, ".git")):
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True)
        files = [f for f in r.stdout.decode().split("\0") if f]
    else:
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return sorted(f for f in files if f.endswith(SOURCES) and os.path.isfile(os.path.join(root, f)))


def includes(root):
    """(file, line number, including room, included room) for every project include."""
    out = []
    for rel in source_files(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m or "/" not in m.group(1):
                    continue
                target = m.group(1)
                if not os.path.exists(os.path.join(root, target)):
                    continue  # a generated or system header, not a room's file
                out.append((rel, n, room(rel), room(target), target))
    return out


def findings(root):
    out = []
    for rel, n, src, dst, target in includes(root):
        for applies, to, what in RULES:
            if dst == to and src != dst and applies(src):
                out.append(f'{rel}:{n}: {what}: #include "{target}"')
                break
    return out


def table(root):
    edges = {}
    for _, _, src, dst, _ in includes(root):
        if src != dst:
            edges.setdefault(src, {}).setdefault(dst, 0)
            edges[src][dst] += 1
    for src in sorted(edges):
        print(f"{src}: " + " ".join(f"{d}({c})" for d, c in sorted(edges[src].items())))


def self_test():
    """Each rule finds its planted include; the allowed includes give nothing."""
    headers = ["tb/xcheck.h", "model/cli/commands.h", "model/sc/pipeline.h", "model/rtl/user_rtl.h",
               "model/common/stats.h"]
    planted = {
        "model/sc/a.cpp": '#include "tb/xcheck.h"\n',                 # model -> tb
        "model/rtl/b.h": '#include "model/sc/pipeline.h"\n',          # rtl -> sc
        "model/rtl/c.cpp": '#  include "model/cli/commands.h"\n',     # rtl -> cli
        "tb/d.cpp": '#include "model/cli/commands.h"\n',              # below the top -> cli
        "model/rtl/e.cpp": '#include "tb/xcheck.h"\n',                # rtl -> tb
        # allowed: the top includes both, tb includes model, sc includes rtl, rtl includes common,
        # an include in a comment, a system header
        "model/cli/ok.cpp": '#include "tb/xcheck.h"\n#include "model/sc/pipeline.h"\n',
        "tb/ok.cpp": '#include "model/sc/pipeline.h"\n#include "model/rtl/user_rtl.h"\n',
        "model/sc/ok.cpp": '#include "model/rtl/user_rtl.h"\n// #include "tb/xcheck.h"\n#include <vector>\n',
        "model/rtl/ok.cpp": '#include "model/common/stats.h"\n#include "Vdut.h"\n',
    }
    with tempfile.TemporaryDirectory() as root:
        for name in headers + list(planted):
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), "w") as f:
                f.write(planted.get(name, "#pragma once\n"))
        got = findings(root)
    return verdict(got, sorted(n for n in planted if "/ok." not in n), "the allowed ones")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) == 3 and sys.argv[1] == "--table":
        table(os.path.abspath(sys.argv[2]))
        sys.exit(0)
    if len(sys.argv) != 2:
        sys.exit("usage: tests/check-rooms.py SOURCE_DIR | --table SOURCE_DIR | --self-test")
    found = findings(os.path.abspath(sys.argv[1]))
    for f in found:
        print(f)
    print(f"check-rooms: {len(found)} include(s) against the rooms' direction")
    sys.exit(1 if found else 0)
