#!/usr/bin/env python3
"""Turns one run of the shared harness (../shared/bench/run.sh) into a table of docs/performance.md.

usage: bench/compare.py RESULTS_DIR [TARGET [OTHER...]]
    TARGET: the service's name in the run (default 'project'); OTHER: targets shown beside it but not
    counted as peers (e.g. an earlier build of the service run as an external target)

For each workload and connection count: requests/s, p99 and CPU microseconds per request of every
target, the service's ratio to the best peer (every other target of the run but pgbench and the OTHERs)
and to pgbench, and whether the
issue's goals hold (1.25 x the best peer's requests/s, a p99 below every peer's at 256 connections,
POST metrics at 50 % of pgbench). CPU per request is the target's process tree's CPU seconds during
the measured 20 s divided by its requests (the harness's cpu_app column).
"""
import sys

from issue28 import errors, measured

def main(directory, target, others):
    rows = measured(directory)
    named = list(dict.fromkeys(r["target"] for r in rows))
    PEERS = [t for t in named if t not in (target, "pgbench", *others)]
    by = {(r["target"], r["workload"], r["conns"]): r for r in rows}
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    header = "| workload | conns | " + " | ".join(
        f"{t} req/s (p99 ms, CPU µs/req)" for t in (target, *others, *PEERS, "pgbench")) + " | vs best peer | goals |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for workload in workloads:
        for conns in sorted({r["conns"] for r in rows if r["workload"] == workload}, key=int):
            cells = []
            for t in (target, *others, *PEERS, "pgbench"):
                r = by.get((t, workload, conns))
                if r is None:
                    cells.append("—")
                    continue
                rps = float(r["rps"])
                text = f"{rps:,.0f}"
                if t != "pgbench":
                    text += f" ({float(r['p99_us']) / 1000:.1f}"
                    cpu = r["cpu_app"]
                    if cpu not in ("-", "") and rps > 0:
                        text += f", {float(cpu) * 1e6 / float(r['requests']):.0f}"
                    text += ")"
                cells.append(text)
            me = by.get((target, workload, conns))
            peers = [by[(p, workload, conns)] for p in PEERS if (p, workload, conns) in by]
            ratio, goals = "—", []
            if me and peers:
                best = max(peers, key=lambda r: float(r["rps"]))
                ratio = f"{float(me['rps']) / float(best['rps']):.2f} × {best['target']}"
                goals.append("1.25×: " + ("yes" if float(me["rps"]) >= 1.25 * float(best["rps"]) else "no"))
                goals.append("errors: " + str(errors(me)))
                if conns == "256":
                    lowest = all(float(me["p99_us"]) < float(p["p99_us"]) for p in peers)
                    goals.append("lowest p99: " + ("yes" if lowest else "no"))
            pg = by.get(("pgbench", workload, conns))
            if me and pg and workload == "post_metrics":
                share = float(me["rps"]) / float(pg["rps"])
                goals.append(f"{share:.0%} of pgbench: " + ("yes" if share >= 0.5 else "no"))
            print(f"| {workload} | {conns} | " + " | ".join(cells) + f" | {ratio} | {'; '.join(goals)} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "project", sys.argv[3:])
