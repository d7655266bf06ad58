#!/usr/bin/env python3
"""Docs that cannot drift: README.md and every docs/**/*.md may name only vpsim commands, options,
parameter keys and source paths that exist, and may quote code only as it is.

    scripts/check-docs.py VPSIM SOURCE_DIR
    scripts/check-docs.py --self-test      the file-level checks on planted cases in a scratch tree

Checks, in every code span and code block:
  - `vpsim CMD [SUB]`: CMD (and SUB, for commands with subcommands) is a command of `vpsim --help`;
  - the `--options` of such a command line (up to a `|`, `;`, `&&` or `#`): each is an option of that
    command's `--help`;
  - `unit.param=VALUE` (a --set, an axis): unit.param is a parameter of `vpsim params --json`;
  - a source path (model/ rtl/ tb/ tests/ scripts/ examples/ docs/ .ci/ ...): the file or folder exists.
In prose (outside code): a source path with a file extension (`model/sc/pipeline.cpp`, `docs/spec/vs-isa.md`)
exists, and a Markdown link to a local file ([text](../x.md)) resolves from the linking page.
Code blocks in three marked forms (README.md, "The docs are tested too"):
  - quoted: first line `// quoted from PATH`, or the line before the fence `<!-- quoted from PATH -->`:
    every (other) line of the block, whitespace collapsed, occurs in PATH (a line `...` or `// ...`
    stands for omitted lines, `...` inside a line for omitted text);
  - output: the line before the fence `<!-- output checked -->` (or `<!-- output checked, exit N -->`) and
    the first line `$ vpsim ARGS`: vpsim ARGS is run in SOURCE_DIR, must exit 0 (or N) within 60 s, and
    every other line occurs in what it prints;
  - a C++ block with `#include "PATH"` of a project header: every call of a function that PATH declares
    passes a number of arguments that one of its declarations accepts (defaults counted).
Prints each finding as FILE:LINE: what, and exits 1 if there is any; 0 otherwise.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

SELF_TEST = sys.argv[1:] == ["--self-test"]
if not SELF_TEST and len(sys.argv) != 3:
    sys.exit("usage: scripts/check-docs.py VPSIM SOURCE_DIR | --self-test")


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


def code_blocks(text):
    """(line number of the opening fence, language, [(line number, line)], the line before the fence)
    of every fenced block."""
    block, prev = None, ""
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            if block is None:
                block = (n, line.strip()[3:].strip(), [], prev.strip())
            else:
                yield block
                block = None
        elif block is not None:
            block[2].append((n, line))
        prev = line


def prose_lines(text):
    """(line number, line without its code spans) of every line outside code blocks."""
    in_block = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
        elif not in_block:
            yield n, re.sub(r"`[^`]*`", "``", line)


def squash(s):
    return " ".join(s.split())


def split_top(args):
    """Split an argument or parameter list at its top-level commas."""
    parts, depth, cur = [], 0, ""
    for ch in args:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    parts = [p.strip() for p in parts]
    return [] if parts == [""] or parts == ["void"] else parts


def balanced(text, i):
    """The text between the parenthesis at text[i] and its match, and the index after the match."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return text[i + 1:j], j + 1
    return None, len(text)


def strip_comments(code):
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    return re.sub(r"//[^\n]*", " ", code)


NOT_FUNCTIONS = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "static_assert", "alignof",
                 "noexcept", "catch", "defined", "operator", "throw", "alignas"}


def declared_functions(header):
    """{name: [(required, total)]} of the functions a header declares (free, member, constructors)."""
    code = strip_comments(open(header, encoding="utf-8").read())
    out = {}
    for m in re.finditer(r"([A-Za-z_]\w*)\s*\(", code):
        name = m.group(1)
        before = code[:m.start()].rstrip()
        access = re.search(r"\b(public|private|protected)\s*:$", before)
        if name in NOT_FUNCTIONS or not before or (before[-1] in "=,(.+-*/!?:" and not before.endswith("::")
                                                    and not access):
            continue
        params, end = balanced(code, m.end() - 1)
        if params is None:
            continue
        after = code[end:end + 40].lstrip()
        if not re.match(r"(const\b|noexcept\b|override\b|;|\{|=|->|:)", after):
            continue
        ps = split_top(params)
        if any(re.fullmatch(r"[\w.]*\d[\w.]*f?|\"[^\"]*\"|true|false|nullptr", p) for p in ps):
            continue  # a call with literal arguments (an initialiser), not a declaration
        total = float("inf") if any(p.endswith("...") for p in ps) else len(ps)
        required = sum(1 for p in ps if "=" not in p and not p.endswith("..."))
        out.setdefault(name, []).append((required, total))
    return out


def missing_lines(rel, source, text, lines):
    """Lines of a block that do not occur in text (whitespace collapsed; `...` in a line stands for
    any text, a line that is only `...` for omitted lines)."""
    text = squash(text)
    out = []
    for n, line in lines:
        q = squash(line)
        if not q or q in ("...", "// ..."):
            continue
        found = re.search(".*?".join(re.escape(part) for part in q.split("...")), text) if "..." in q else q in text
        if not found:
            out.append(f"{rel}:{n}: not in {source} as quoted: {q}")
    return out


def check_quote(where, path, lines):
    """A block marked as quoted from PATH: each line occurs in PATH."""
    full = os.path.join(root, path)
    if not os.path.isfile(full):
        return [f"{where}: quoted from {path}: no such file"]
    with open(full, encoding="utf-8") as f:
        return missing_lines(where.split(":")[0], path, f.read(), lines)


def check_output(where, command, status, lines):
    """A block marked as a command's output: `$ vpsim ARGS` first, then lines of what it prints
    (standard output and error) when it exits with the given status."""
    args = shlex.split(command)
    try:
        r = subprocess.run([vpsim, *args], capture_output=True, text=True, cwd=root, timeout=60)
    except subprocess.TimeoutExpired:
        return [f"{where}: `vpsim {command}` took more than 60 s"]
    if r.returncode != status:
        return [f"{where}: `vpsim {command}` exited {r.returncode}, not {status}: {r.stderr.strip()[:200]}"]
    return missing_lines(where.split(":")[0], f"the output of `vpsim {command}`", r.stdout + r.stderr, lines)


def check_calls(where, header, lines):
    """A C++ block including a project header: calls of its functions pass an accepted argument count."""
    decls = declared_functions(os.path.join(root, header))
    code = strip_comments("\n".join(line for _, line in lines))
    out = []
    for m in re.finditer(r"(?<![\w])([A-Za-z_]\w*)\s*(?:<[^<>();]*(?:<[^<>();]*>[^<>();]*)*>)?\s*\(", code):
        name = m.group(1)
        if name not in decls:
            continue
        args, _ = balanced(code, m.end() - 1)
        if args is None:
            continue
        n = len(split_top(args))
        if not any(req <= n <= tot for req, tot in decls[name]):
            line = lines[code[:m.start()].count("\n")][0]
            takes = " or ".join(sorted({f"{r}" if r == t else f"{r}..{t}" for r, t in decls[name]}))
            out.append(f"{where.split(':')[0]}:{line}: {name}() called with {n} argument(s); {header} declares it "
                       f"with {takes}")
    return out


prose_path_re = re.compile(r"(?<![\w./-])((?:model|rtl|tb|tests|scripts|examples|docs|\.ci)/[A-Za-z0-9_.+/-]*"
                           r"\.(?:h|cpp|sv|svh|md|json|cmake|py|sh|txt|decl|vsh|yml|yaml|png|svg|csv))(?![\w*{<$\[])")
link_re = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def check_prose(rel, doc, text):
    out = []
    for n, line in prose_lines(text):
        for m in prose_path_re.finditer(line):
            if not os.path.exists(os.path.join(root, m.group(1))):
                out.append(f"{rel}:{n}: {m.group(1)}: no such file")
        for m in link_re.finditer(line):
            target = m.group(1).split("#")[0]
            if not target or re.match(r"[a-z]+:", target):
                continue
            if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(doc), target))):
                out.append(f"{rel}:{n}: link to {m.group(1)}: no such file")
    return out


def check_blocks(rel, text):
    out = []
    for n, lang, lines, before in code_blocks(text):
        where = f"{rel}:{n}"
        first = lines[0][1].strip() if lines else ""
        m = re.fullmatch(r"//\s*quoted from\s+(\S+)", first)
        if m:
            out += check_quote(where, m.group(1), lines[1:])
        m = re.fullmatch(r"<!--\s*quoted from\s+(\S+)\s*-->", before)
        if m:
            out += check_quote(where, m.group(1), lines)
        m = re.fullmatch(r"\$\s+vpsim\s+(.*)", first)
        marker = re.fullmatch(r"<!--\s*output checked(?:,\s*exit\s+(\d+))?\s*-->", before)
        if m and marker:
            out += check_output(where, m.group(1), int(marker.group(1) or 0), lines[1:])
        if lang in ("cpp", "c++", "c"):
            for inc in re.findall(r'#include\s+"([^"]+\.h)"', "\n".join(line for _, line in lines)):
                if os.path.isfile(os.path.join(root, inc)):
                    out += check_calls(where, inc, lines)
    return out


def self_test():
    """Plant one broken and one sound case of each file-level check in a scratch tree; each broken
    one, and nothing else, must be found (ctest "docs: check-docs.py finds ...")."""
    global root, vpsim
    # (line of docs/x.md, the start of the finding it must give, or None)
    doc = [
        ("Sound: model/q.cpp, [y](y.md). Broken: model/none.cpp", "model/none.cpp: no such file"),
        ("and [a missing page](missing.md).", "link to missing.md: no such file"),
        ("```cpp", None), ("// quoted from model/q.cpp", None), ("int add_up(int a, int b) {", None), ("```", None),
        ("```cpp", None), ("// quoted from model/q.cpp", None), ("    return a - b;", "not in model/q.cpp"),
        ("```", None),
        ("<!-- quoted from model/q.cpp -->", None), ("```", None), ("int add_up(...) {", None),
        ("    return b + a;", "not in model/q.cpp"), ("```", None),
        ("```cpp", None), ('#include "model/h.h"', None), ("add_up(1);", None), ("add_up(1, 2);", None),
        ("add_up(1, 2, 3);", "add_up() called with 3 argument(s)"), ("```", None),
        ("<!-- output checked -->", None), ("```", None), ("$ vpsim topology", None), ("units: front_end ...", None),
        ("units: vertex_alu", "not in the output of `vpsim topology`"), ("```", None),
    ]
    want = [f"docs/x.md:{n}: {w}" for n, (_, w) in enumerate(doc, 1) if w]
    files = {
        "model/h.h": "int add_up(int a, int b = 0);\n",
        "model/q.cpp": "int add_up(int a, int b) {\n    return a + b;\n}\n",
        "docs/y.md": "# y\n",
        "docs/x.md": "\n".join(line for line, _ in doc) + "\n",
        "fake-vpsim": "#!/bin/sh\necho 'units: front_end vertex_fetch'\n",
    }
    with tempfile.TemporaryDirectory() as tmp:
        root, vpsim = tmp, os.path.join(tmp, "fake-vpsim")
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w") as f:
                f.write(text)
        os.chmod(vpsim, 0o755)
        with open(os.path.join(tmp, "docs/x.md")) as f:
            text = f.read()
        got = check_prose("docs/x.md", os.path.join(tmp, "docs/x.md"), text) + check_blocks("docs/x.md", text)
    for g in got:
        print(g)
    ok = len(got) == len(want) and all(any(g.startswith(w) for g in got) for w in want)
    print(f"check-docs self-test: {len(got)} finding(s), expected {len(want)}: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if SELF_TEST:
    sys.exit(self_test())
vpsim, root = sys.argv[1], os.path.abspath(sys.argv[2])

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

findings = []
docs = [os.path.join(root, "README.md")] + sorted(
    os.path.join(d, f) for d, _, fs in os.walk(os.path.join(root, "docs")) for f in fs if f.endswith(".md"))
for doc in docs:
    rel = os.path.relpath(doc, root)
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    findings += check_prose(rel, doc, text) + check_blocks(rel, text)
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
