#!/usr/bin/env python3
"""Samples a running service every second for bench/soak.sh: heap used (MiB, all heap pools), live
threads, open files (of the process), PostgreSQL connections of its database, and the answers/s of
the service (from its request counter). Writes CSV rows to stdout until SECONDS have passed.

  sample.py MANAGEMENT_URL PID DATABASE SECONDS
"""
import re, subprocess, sys, time, urllib.request, os

management, pid, database, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])


def scrape():
    with urllib.request.urlopen(management + "/actuator/prometheus", timeout=5) as answer:
        return answer.read().decode()


def total(text, name, where=""):
    return sum(float(m.group(1)) for m in re.finditer(rf"^{name}(?:{{[^}}]*{where}[^}}]*}})? ([0-9.eE+-]+)$", text, re.M))


print("second,heap_mb,threads,open_files,db_connections,answers_per_s", flush=True)
started, previous = time.time(), None
for second in range(seconds):
    time.sleep(max(0.0, started + second + 1 - time.time()))
    text = scrape()
    answers = total(text, "http_server_requests_seconds_count")
    rate = 0 if previous is None else answers - previous
    previous = answers
    connections = subprocess.run(["psql", "-Atc", f"select count(*) from pg_stat_activity where datname = '{database}'"],
                                 capture_output=True, text=True).stdout.strip() or "0"
    heap = total(text, "jvm_memory_used_bytes", 'area="heap"') / 2**20
    threads = int(total(text, "jvm_threads_live_threads"))
    files = len(os.listdir(f"/proc/{pid}/fd"))
    print(f"{second + 1},{heap:.1f},{threads},{files},{connections},{rate:.0f}", flush=True)
