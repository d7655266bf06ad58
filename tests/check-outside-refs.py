#!/usr/bin/env python3
"""The repository refers to nothing outside itself (docs/spec/README.md).

    tests/check-outside-refs.py SOURCE_DIR     check every tracked file of SOURCE_DIR
    tests/check-outside-refs.py --self-test    plant each kind of reference in a scratch tree and
                                               check that each is found (and that allowed paths are not)

A finding is a path into another checkout or an absolute path of a build machine:
  - ../shared/... or .../shared/spec/... (the references read while writing docs/spec/);
  - an absolute path under /work, /home, /root, /Users, /builds or /srv (a build machine's tree);
  - a Windows path under a drive's Users folder (C:\\Users\\...).
System paths a program or a doc legitimately names (/usr/share/..., /usr/bin/python3, /tmp, /dev/null,
/proc/...) are not findings. Files: `git ls-files` when SOURCE_DIR is a git checkout, else every file
outside .git and build*/ folders; binary files (a NUL byte) and this file (which has to name the
patterns) are skipped. One finding per line (the first rule it breaks).
Prints FILE:LINE: what for each finding and exits 1 if there is any, 0 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from self_test_verdict import verdict  # noqa: E402 (tests/self_test_verdict.py, beside this script)

RULES = [
    (re.compile(r"\.\./shared(?:/|\b)"), "a path into ../shared, outside the repository"),
    (re.compile(r"(?<![\w.-])shared/spec/"), "the shared spec folder, outside the repository (cite docs/spec/)"),
    (re.compile(r"(?<![\w.~:/-])/(?:work|home|root|Users|builds|srv)/[\w.-]"),
     "an absolute path of a build machine"),
    (re.compile(r"\b[A-Za-z]:\\\\?Users\\\\?"), "a Windows user folder"),
]
SELF = "tests/check-outside-refs.py"


def tracked_files(root):
    if os.path.exists(os.path.join(root, ".git")):
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True)
        return [f for f in r.stdout.decode().split("\0") if f]
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
        out += [os.path.relpath(os.path.join(d, f), root) for f in files]
    return sorted(out)


def findings(root):
    out = []
    for rel in tracked_files(root):
        if rel == SELF:
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue  # deleted in the work tree, not yet committed
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue
        for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for rule, what in RULES:
                m = rule.search(line)
                if m:
                    out.append(f"{rel}:{n}: {what}: {line.strip()[:120]}")
                    break
    return out


def self_test():
    """Each rule finds its planted line; the allowed lines give nothing."""
    up, sp, abs_ = "../" + "shared/spec/vs-isa.md", "see shared" + "/spec/patches.md", "/" + "work/shared/x"
    planted = {
        "a.md": f"The facts are in `{up}`.\n",
        "b.h": f"// {sp}\n",
        "c.cpp": f'const char* p = "{abs_}";\n',
        "d.sh": "cd /" + "home/someone/vpsim\n",
        "e.txt": "C:" + "\\Users\\me\\vpsim\n",
        "ok.md": "`/usr/share/doc`, /usr/bin/python3, /tmp/x, build-fuzz/work/corpus/, results/shared/stats.json\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in planted.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        got = findings(root)
    return verdict(got, ["a.md", "b.h", "c.cpp", "d.sh", "e.txt"], "the allowed one")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) != 2:
        sys.exit("usage: tests/check-outside-refs.py SOURCE_DIR | --self-test")
    found = findings(os.path.abspath(sys.argv[1]))
    for f in found:
        print(f)
    print(f"check-outside-refs: {len(found)} reference(s) outside the repository")
    sys.exit(1 if found else 0)
