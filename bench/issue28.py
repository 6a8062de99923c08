#!/usr/bin/env python3
"""Prints one full run of the shared harness as docs/performance.md writes it, and what it met of issue 28.

usage: bench/issue28.py RESULTS_DIR [TARGET]
    RESULTS_DIR: ../shared/bench/results/<run id> of `run.sh project fastify mvc mvc-vt vertx vertx-pipe
    pgbench`; TARGET: the service's name in the run (default 'project')

Prints, from the run's results.tsv (the measured 20 s only, not the warm-ups):
- the table of requests/s (p99 ms) of every target, the service's ratio to the best peer (every target
  but the service and pgbench) and its share of pgbench, below the aim in bold;
- the machine's CPU a request at 64 connections (service + PostgreSQL + wrk, µs; for pgbench,
  PostgreSQL + pgbench), the harness's cpu_app, cpu_db and cpu_load seconds over the requests;
- each point of issue 28 met or missed: every workload at 64 and 256 connections at least 1.25x the best
  peer with no error, the lowest p99 at 256 connections, GET metrics at least 90 % and GET assessments
  at least 60 % of pgbench at 64 connections; for a row short of 1.25x, how much cheaper the service's
  own CPU a request had to be for the machine to serve 1.25x the peer's rate (its total µs a request
  against the peer's divided by 1.25).
Written here rather than in a spreadsheet so that every session's tables come out the same way.
"""
import csv
import os
import sys

AIM = 1.25
NAMES = {
    "post_metrics": "POST metrics",
    "get_metrics": "GET metrics, 50 rows",
    "get_assessments": "GET assessments, 20 rows",
    "rate_limited": "429 (plan used up)",
}
SHARES = {"get_metrics": 0.90, "get_assessments": 0.60}
COLUMNS = ["vertx", "vertx-pipe", "mvc-vt", "mvc", "fastify"]
CPU_COLUMNS = ["vertx-pipe", "vertx"]


def num(value):
    """A column's number; the harness writes '-' where it has none (pgbench has no app, HTTP no s429)."""
    return 0.0 if value in (None, "", "-") else float(value)


def cpu(row):
    """(app, db, load, total) µs a request."""
    n = int(row["requests"])
    parts = [num(row[c]) * 1e6 / n for c in ("cpu_app", "cpu_db", "cpu_load")]
    return (*parts, sum(parts))


def cpu_cell(row):
    if row is None:
        return "—"
    app, db, load, total = cpu(row)
    return f"{app:.1f} + {db:.1f} + {load:.1f} = {total:.1f}"


def errors(row):
    """Socket errors and unexpected statuses (on the 429 path a 2xx is expected: the plan's first 60)."""
    wrong = num(row["other"]) if row["workload"] == "rate_limited" else num(row["non2xx"])
    return int(num(row["sock_err"]) + wrong)


def measured(directory):
    """The rows of a run's measured windows (not its warm-ups)."""
    with open(os.path.join(directory, "results.tsv")) as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["phase"] == "measure"]


def main(directory, target):
    rows = measured(directory)
    by = {(r["target"], r["workload"], r["conns"]): r for r in rows}
    targets = list(dict.fromkeys(r["target"] for r in rows))
    peers = [t for t in targets if t not in (target, "pgbench")]
    if target not in targets or not peers:
        sys.exit(f"{directory}: no measured rows of {target} and of a peer")
    shown = [t for t in COLUMNS if t in peers] + [t for t in peers if t not in COLUMNS]
    workloads = [w for w in NAMES if any(r["workload"] == w for r in rows)]
    conns_all = sorted({r["conns"] for r in rows}, key=int)
    misses, met = [], []

    print("| workload | conns | this service | " + " | ".join(f"`{t}`" for t in shown)
          + " | `pgbench` | vs best peer | share of `pgbench` |")
    print("|---|---|---|" + "---|" * len(shown) + "---|---|---|")
    for w in workloads:
        for c in conns_all:
            mine = by.get((target, w, c))
            if mine is None:
                continue
            rps = float(mine["rps"])
            cells = [f"{rps:,.0f} ({float(mine['p99_us']) / 1000:.1f})"]
            for t in shown:
                r = by.get((t, w, c))
                cells.append("—" if r is None else f"{float(r['rps']):,.0f} ({float(r['p99_us']) / 1000:.1f})")
            pg = by.get(("pgbench", w, c))
            cells.append("—" if pg is None else f"{float(pg['rps']):,.0f}")
            present = [t for t in peers if (t, w, c) in by]
            best = max(present, key=lambda t: float(by[(t, w, c)]["rps"]))
            ratio = rps / float(by[(best, w, c)]["rps"])
            text = f"{ratio:.2f}×" if ratio >= AIM or round(ratio, 2) < AIM else f"{ratio:.3f}×"
            cells.append((f"**{text}**" if ratio < AIM else text) + f" `{best}`")
            label = f"{NAMES[w]} at {c}"
            if ratio < AIM:
                misses.append(f"{label}: {ratio:.3f}x `{best}` ({rps:,.0f} against "
                              f"{float(by[(best, w, c)]['rps']):,.0f}); " + cheaper(mine, by[(best, w, c)]))
            else:
                met.append(f"{label}: {ratio:.2f}x `{best}`")
            if pg is None:
                cells.append("—")
            else:
                share = rps / float(pg["rps"])
                aim = SHARES.get(w) if c == "64" else None
                short = aim is not None and share < aim
                text = f"{share * 100:.1f} %" if short and round(share * 100) >= aim * 100 else f"{share * 100:.0f} %"
                cells.append(f"**{text}**" if short else text)
                if aim is not None:
                    (met if share >= aim else misses).append(
                        f"{label}: {share * 100:.1f} % of pgbench (aim {aim * 100:.0f} %)")
            print(f"| {NAMES[w]} | {c} | " + " | ".join(cells) + " |")
            if c == "256":
                p99 = float(mine["p99_us"])
                lowest = min(present, key=lambda t: float(by[(t, w, c)]["p99_us"]))
                other = float(by[(lowest, w, c)]["p99_us"])
                (met if p99 < other else misses).append(
                    f"{label}: p99 {p99 / 1000:.2f} ms against `{lowest}`'s {other / 1000:.2f}")

    print()
    print("| workload, 64 connections | this service | " + " | ".join(f"`{t}`" for t in CPU_COLUMNS)
          + " | `pgbench` |")
    print("|---|---|" + "---|" * len(CPU_COLUMNS) + "---|")
    for w in workloads:
        cells = [cpu_cell(by.get((t, w, "64"))) for t in (target, *CPU_COLUMNS, "pgbench")]
        print(f"| {NAMES[w]} | " + " | ".join(cells) + " |")

    print()
    wrong = {t: sum(errors(r) for r in rows if r["target"] == t) for t in targets if t != "pgbench"}
    print("errors: " + ", ".join(f"{t} {n}" for t, n in wrong.items()))
    if wrong.get(target):
        misses.append(f"the service answered {wrong[target]} requests with an error")
    print("met: " + "; ".join(met))
    print("MISSED: " + ("; ".join(misses) if misses else "nothing"))


def cheaper(mine, peer):
    """How much cheaper the service's own CPU a request had to be for 1.25x the peer's rate."""
    app, _, _, total = cpu(mine)
    peer_total = cpu(peer)[3]
    cut = total - peer_total / AIM
    return (f"the machine {total:.1f} µs a request against {peer_total:.1f}: 1.25x needed {peer_total / AIM:.1f}, "
            f"the service's own {app:.1f} µs {max(cut, 0):.1f} µs ({max(cut, 0) / app * 100:.0f} %) cheaper")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "project")
