#!/usr/bin/python3
"""Rewrites the parameter tables of docs/parameters.md from `vpsim params --json`, so the page
always shows the model's tables. With --check, exits 1 (and prints the unit) when the page
differs instead of writing it. Usage: update-parameters-doc.py VPSIM DOC [--check]"""
import json
import re
import subprocess
import sys


def rng(p):
    kind = p.get("kind")  # capacity, rate or latency: what `vpsim why` relaxes (docs/why.md)
    return base_rng(p) + (f"; {kind}" if kind else "")


def base_rng(p):
    if p["type"] == "enum":
        return "enum {" + ", ".join(p["allowed"]) + "}"
    if p["type"] in ("uint", "int", "double") and "max" in p:
        lo, hi = p.get("min", 0), p["max"]
        f = (lambda v: f"{v:g}" if p["type"] == "double" else str(int(v)))
        return f"{p['type']} in [{f(lo)}, {f(hi)}]"
    return p["type"]


def val(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}" if v != int(v) else f"{v:.1f}"
    return str(v)


def table(unit):
    rows = ["| name | type | unit | default | description | source |",
            "|------|------|------|---------|-------------|--------|"]
    for p in unit["params"]:
        rows.append(f"| `{p['name']}` | {rng(p)} | {p['unit'] or '-'} | {val(p['default'])} | "
                    f"{p['description']} | {p['source']} |")
    return rows


def main():
    vpsim, doc = sys.argv[1], sys.argv[2]
    check = "--check" in sys.argv[3:]
    units = json.loads(subprocess.run([vpsim, "params", "--json"], check=True, capture_output=True,
                                      text=True).stdout)
    lines = open(doc, encoding="utf-8").read().split("\n")
    out, i, bad = [], 0, []
    by_name = {u["unit"]: u for u in units}
    seen = set()
    while i < len(lines):
        m = re.match(r"^### `([a-z_]+)`(?: \(stage \d+\))?: (.*)$", lines[i])
        if not m or m.group(1) not in by_name:
            out.append(lines[i])
            i += 1
            continue
        u = by_name[m.group(1)]
        seen.add(u["unit"])
        head = f"### `{u['unit']}`: {u['description']}"
        out += [head, ""]
        i += 1
        while i < len(lines) and lines[i].strip() == "":
            i += 1
        old = []
        while i < len(lines) and lines[i].startswith("|"):
            old.append(lines[i])
            i += 1
        new = table(u)
        if old != new or lines[i - len(old) - 2] != head:
            bad.append(u["unit"])
        out += new
    missing = [u["unit"] for u in units if u["unit"] not in seen]
    if missing:
        print(f"{doc}: no section for unit(s) {', '.join(missing)}", file=sys.stderr)
        return 1
    text = "\n".join(out)
    if check:
        if bad:
            print(f"{doc}: the table of {', '.join(bad)} differs from `vpsim params` "
                  f"(run scripts/update-parameters-doc.py {vpsim} {doc})", file=sys.stderr)
            return 1
        return 0
    open(doc, "w", encoding="utf-8").write(text)
    print(f"{doc}: rewrote {len(bad)} table(s): {', '.join(bad) or 'none changed'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
