#!/usr/bin/env python3
"""Docs that cannot drift: README.md and docs/*.md may name only vpsim commands, options,
parameter keys and source paths that exist.

    scripts/check-docs.py VPSIM SOURCE_DIR

Checks, in every code span and code block of README.md and docs/*.md (prose is not read):
  - `vpsim CMD [SUB]`: CMD (and SUB, for commands with subcommands) is a command of `vpsim --help`;
  - the `--options` of such a command line (up to a `|`, `;`, `&&` or `#`): each is an option of that
    command's `--help`;
  - `unit.param=VALUE` (a --set, an axis): unit.param is a parameter of `vpsim params --json`;
  - a source path (model/ rtl/ tb/ tests/ scripts/ examples/ docs/ .ci/ ...): the file or folder exists.
Prints each finding as FILE:LINE: what, and exits 1 if there is any; 0 otherwise.
"""
import json
import os
import re
import subprocess
import sys

if len(sys.argv) != 3:
    sys.exit("usage: scripts/check-docs.py VPSIM SOURCE_DIR")
vpsim, root = sys.argv[1], os.path.abspath(sys.argv[2])


def help_text(args):
    r = subprocess.run([vpsim, *args, "--help"], capture_output=True, text=True)
    return r.stdout + r.stderr


def subcommands(text):
    """Names listed under 'Subcommands:' in CLI11's help."""
    names, inside = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
            continue
        if inside:
            m = re.match(r"^  ([a-z][a-z0-9-]*)\s", line)
            if m:
                names.append(m.group(1))
            elif line and not line.startswith(" "):
                inside = False
    return names


def options(text):
    return set(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*)", text))


# The command tree: {cmd: {"options": set, "subs": {sub: set}}}
tree = {}
for cmd in subcommands(help_text([])):
    t = help_text([cmd])
    subs = {s: options(help_text([cmd, s])) for s in subcommands(t)}
    tree[cmd] = {"options": options(t), "subs": subs}

params = set()
for unit in json.loads(subprocess.run([vpsim, "params", "--json"], capture_output=True, text=True, check=True).stdout):
    for p in unit.get("params", []):
        params.add(f'{unit["unit"]}.{p["name"]}')
units = {k.split(".")[0] for k in params}

# Paths under these folders are the project's; build/ and output folders are not checked.
path_re = re.compile(r"(?<![\w./-])((?:model|rtl|tb|tests|scripts|examples|docs|\.ci)/[A-Za-z0-9_.+/-]*[A-Za-z0-9_+/])")
# A command line: at the start of the piece or after ; | && ( $, optional VAR=value words and a path.
cmd_re = re.compile(r"(?:^|[;|&(]|\$)\s*(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:[\w./-]*/)?vpsim\s+([a-z][a-z0-9-]*)"
                    r"((?:[ \t]+[^\s|;&#]+)*)")
set_re = re.compile(r"(?<![\w.])([a-z_]+)\.([a-z_0-9]+)=")


def code_pieces(text):
    """(line number, text) of every code block line and inline code span."""
    in_block = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            yield n, line
        else:
            for span in re.findall(r"`([^`]+)`", line):
                yield n, span


findings = []
docs = [os.path.join(root, "README.md")] + sorted(
    os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
for doc in docs:
    rel = os.path.relpath(doc, root)
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    for n, piece in code_pieces(text):
        where = f"{rel}:{n}"
        for m in cmd_re.finditer(piece):
            cmd, rest = m.group(1), m.group(2)
            if cmd not in tree:
                findings.append(f"{where}: `vpsim {cmd}`: no such command (the commands: {', '.join(sorted(tree))})")
                continue
            words = rest.split()
            known = tree[cmd]["options"]
            if words and tree[cmd]["subs"] and re.fullmatch(r"[a-z][a-z0-9-]*", words[0]):
                if words[0] in tree[cmd]["subs"]:
                    known = known | tree[cmd]["subs"][words[0]]
                elif not os.path.exists(os.path.join(root, words[0])) and words[0] not in ("DIR", "FILE"):
                    findings.append(f"{where}: `vpsim {cmd} {words[0]}`: no such subcommand of {cmd} "
                                    f"({', '.join(sorted(tree[cmd]['subs']))})")
            for w in words:
                opt = re.match(r"(--[a-z0-9][a-z0-9-]*)", w)
                if opt and opt.group(1) not in known and opt.group(1) != "--help":
                    findings.append(f"{where}: `vpsim {cmd}` has no option {opt.group(1)}")
        for m in set_re.finditer(piece):
            key = f"{m.group(1)}.{m.group(2)}"
            if m.group(1) in units and key not in params:
                findings.append(f"{where}: {key}: no such parameter (`vpsim params`)")
        for m in path_re.finditer(piece):
            p = m.group(1)
            after = piece[m.end():m.end() + 1]
            if after in ("*", "{", "<", "$", "[") or "..." in p:
                continue  # a pattern, not a path
            # One folder level and no extension ("model/bare" in a table header) is not taken as a path.
            if p.count("/") < 2 and "." not in os.path.basename(p) and not p.endswith("/") and after != ".":
                continue
            full = os.path.join(root, p.rstrip("/."))
            stem_ok = any(f.startswith(os.path.basename(full) + ".")
                                           for f in os.listdir(os.path.dirname(full))) \
                if os.path.isdir(os.path.dirname(full)) else False
            if not os.path.exists(full) and not stem_ok:
                findings.append(f"{where}: {p}: no such file or folder")

for f in findings:
    print(f)
print(f"check-docs: {len(docs)} documents, {len(tree)} commands, {len(params)} parameters; "
      f"{len(findings)} finding(s)")
sys.exit(1 if findings else 0)
