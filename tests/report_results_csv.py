#!/usr/bin/python3
"""Test helper for tests/cli/report.cmake: writes a sweep-style results.csv (docs/report.md)
from several `vpsim run --out` directories, so the sweep report is tested without `vpsim sweep`.

  report_results_csv.py OUT.csv KEYS POINT_DIR...    (KEYS: comma-separated axis parameter keys)
"""
import csv
import json
import os
import sys


def main(out, keys, dirs):
    keys = keys.split(",")
    rows, header = [], None
    for d in dirs:
        with open(os.path.join(d, "config.json")) as f:
            cfg = json.load(f)
        with open(os.path.join(d, "stats.json")) as f:
            st = json.load(f)
        row = {"scene": cfg["scene"]["name"]}
        for k in keys:
            unit, param = k.split(".", 1)
            v = cfg["params"][unit][param]
            row[k] = json.dumps(v) if not isinstance(v, str) else v
        for k, v in st["summary"].items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in ("host_seconds", "cycles_per_host_second"):
                row[k] = v
        b = st["summary"].get("bottleneck", {})
        for k in ("unit", "reason", "text"):
            row[f"bottleneck.{k}"] = b.get(k, "")
        for unit, g in st["units"].items():
            c = g.get("cycles")
            if not c:
                continue
            row[f"{unit}.busy"] = c["busy"]
            row[f"{unit}.idle"] = c["idle"]
            for reason, v in c["stalled"].items():
                row[f"{unit}.stalled.{reason}"] = v["cycles"]
        header = header or list(row)
        rows.append(row)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
