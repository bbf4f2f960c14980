#!/usr/bin/env python3
r"""Hyperscan's block-mode scan over a reference workload, for comparison.

    pip install hyperscan
    python3 crates/engine/benches/hyperscan_scan.py /tmp/wl [--runs 5]

Compiles one database per stage from the workload's `config.json` (every
regex of the stage's regex checks in UTF-8 mode, without Unicode properties:
Hyperscan refuses `\b` with `HS_FLAG_UCP`, so its `\b`, `\w` and `\s` are
ASCII-only; every blocklist word as a literal, caseless unless the check is
case-sensitive; one match per pattern is enough to decide), scans each
request's content (`inputs.jsonl`) with its stage's database, and checks the checks that hit
against the generator's oracle (`expected.jsonl`); tool-name globs are left
to the oracle's `fnmatch`, as they are not content scanning. Prints the
compile time, the scan time summed over requests (best of `--runs`) and the
content bytes per second of scan, on one thread. The scan time includes
the Python binding's cost of each call and match callback (a few
microseconds per request), so Hyperscan's own speed is somewhat higher.
"""

import argparse
import fnmatch
import json
import os
import re
import sys
import time

import hyperscan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workdir")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()

    config = json.load(open(os.path.join(args.workdir, "config.json")))
    inputs = [json.loads(line) for line in open(os.path.join(args.workdir, "inputs.jsonl"), encoding="utf-8")]
    expected = [set(json.loads(line)["hits"]) for line in open(os.path.join(args.workdir, "expected.jsonl"))]

    t0 = time.perf_counter()
    databases = {}
    owners = {}
    globs = []
    per_stage = {}
    for check in config["checks"]:
        stage = check["stage"]
        if check["type"] == "regex":
            for p in check["patterns"]:
                per_stage.setdefault(stage, []).append((p.encode(), hyperscan.HS_FLAG_UTF8, check["id"]))
        elif check["type"] == "blocklist":
            flags = 0 if check.get("case_sensitive") else hyperscan.HS_FLAG_CASELESS
            for w in check["words"]:
                per_stage.setdefault(stage, []).append(
                    (re.escape(w).encode(), flags | hyperscan.HS_FLAG_UTF8, check["id"])
                )
        elif check["type"] == "tool_pattern":
            globs.append((stage, check["id"], check["tools"]))
    for stage, patterns in per_stage.items():
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        db.compile(
            expressions=[p for p, _, _ in patterns],
            ids=list(range(len(patterns))),
            flags=[f | hyperscan.HS_FLAG_SINGLEMATCH for _, f, _ in patterns],
        )
        databases[stage] = db
        owners[stage] = [owner for _, _, owner in patterns]
    compile_s = time.perf_counter() - t0

    contents = [(x["stage"], x.get("tool"), x["content"].encode()) for x in inputs]
    total_bytes = sum(len(c) for _, _, c in contents)

    best = None
    mismatches = 0
    for run in range(args.runs):
        scan_s = 0.0
        mismatches = 0
        for i, (stage, tool, data) in enumerate(contents):
            hits = set()
            owner = owners.get(stage)

            def on_match(pattern, start, end, flags, context, hits=hits, owner=owner):
                hits.add(owner[pattern])
                return 0

            db = databases.get(stage)
            t = time.perf_counter()
            if db is not None:
                db.scan(data, match_event_handler=on_match)
            scan_s += time.perf_counter() - t
            for g_stage, cid, tools in globs:
                if g_stage == stage and tool is not None and any(fnmatch.fnmatchcase(tool, g) for g in tools):
                    hits.add(cid)
            if hits != expected[i]:
                mismatches += 1
        best = scan_s if best is None else min(best, scan_s)

    print(
        json.dumps(
            {
                "requests": len(contents),
                "content_bytes": total_bytes,
                "compile_s": round(compile_s, 4),
                "scan_s": round(best, 4),
                "scan_mb_per_s": round(total_bytes / best / 1e6, 1),
                "mismatches": mismatches,
            }
        )
    )
    return 0 if mismatches == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
