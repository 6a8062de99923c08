#!/usr/bin/env bash
# Measures the service's CPU per request under each hot-path workload, one at a time, and records a
# JFR profile of each: the loop behind the figures in docs/performance.md. The
# side-by-side comparison with the peers is ../shared/bench/run.sh; this script is for one service.
#
#   bench/profile.sh [workload...]      workloads: post_metrics get_metrics get_assessments rate_limited
#                                       (the shared harness's), and bench/wrk's: post_metrics_client_ids
#                                       post_metrics_updates changes_page metrics_page_100
#                                       post_metrics_batch (a request is a batch of 500), and the
#                                       issue-28 others: post_assessments mixed signed_post_metrics
#                                       signed_get_metrics export_metrics (run at 2 connections, the
#                                       partner's cap of concurrent exports)
#
# It builds target/health-partner-api.jar if missing, starts it in the prod profile on a fresh
# database bench_profile (port 18094, management 18095), onboards a partner on a plan of 10^9 a
# minute and one on 'default', seeds the GET workloads' data (50 metrics records, 20 assessments;
# and for the feed, a third partner with 100 metrics records of one user, so its feed holds 100 changes),
# warms the JVM up, then for each workload: wrk for DURATION seconds at CONNECTIONS connections,
# the service's and PostgreSQL's CPU seconds from /proc; then (PROFILE=1, the default) each workload again with a
# JFR recording of CPU samples, summarised by bench/jfr-top.py (or, with ASYNC_PROFILER=<path of
# libasyncProfiler.so>, an async-profiler recording, native and kernel frames included, summarised
# by bench/collapsed-top.py; AP_EVENT=alloc records where the heap is allocated instead, in bytes).
# Environment: HARNESS (the shared harness with the wrk scripts, default ../shared/bench), DURATION
# (20), WARMUP (10 per workload), CONNECTIONS (64), JAVA_OPTS (added to the service's JVM), PGHOST,
# PGPORT, PGUSER, PGPASSWORD. Output: bench/results/profile-<time>/ (summary.txt, *.jfr, *.top.txt).
set -euo pipefail
cd "$(dirname "$0")/.."

HARNESS=$(cd "${HARNESS:-../shared/bench}" && pwd)
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-20}
CONNECTIONS=${CONNECTIONS:-64}
WORKLOADS=${*:-post_metrics get_metrics get_assessments rate_limited}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
PORT=18094
ADMIN_TOKEN=profile-admin-token-0123456789
OUT=bench/results/profile-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
# shellcheck source=bench/service.sh
. bench/service.sh
start_service bench_profile
read -r BENCH_KEY BENCH_SECRET < <(credentials loadtest)
DEFAULT_KEY=$(onboard default)
GET_METRICS_USER=u-get-m-profile
GET_ASSESSMENTS_USER=u-get-a-profile
seed_metrics "$BENCH_KEY" "$GET_METRICS_USER"
seed_assessments "$BENCH_KEY" "$GET_ASSESSMENTS_USER"
FEED_KEY=$(onboard loadtest)
FEED_USER=u-feed-profile
for n in $(seq 0 99); do
	curl -sf -o /dev/null -X POST "$BASE/api/v1/health/metrics" -H "x-api-key: $FEED_KEY" -H 'content-type: application/json' \
		-d "{\"user_id\":\"$FEED_USER\",\"client_record_id\":\"feed-$n\",\"metrics\":{\"weight\":$((700 + n))e-1}}"
done
export BENCH_KEY DEFAULT_KEY GET_METRICS_USER GET_ASSESSMENTS_USER START_DATE=2025-01-01 END_DATE=2025-12-31 FEED_KEY FEED_USER

# the CPU ticks of every PostgreSQL process of the machine (its backends live as long as the pools)
dbcpu() { local t=0 p; for p in $(pgrep -x postgres); do t=$((t + $(cpu_ticks "$p" 2>/dev/null || echo 0))); done; echo $t; }
# a workload of the shared harness, or of bench/wrk (which uses the harness's common.lua, and its
# write scripts bench/wrk/threads.lua)
# (signed workloads: their signatures made just before, bench/service.sh's sign)
SIGNED=$PWD/$OUT/signed
mkdir -p "$SIGNED"
export SIGNED_FILE
run_wrk() {
	local dir="$HARNESS/wrk" connections=$CONNECTIONS
	[ -f "bench/wrk/$1.lua" ] && dir="$PWD/bench/wrk"
	SIGNED_FILE=$SIGNED/$1
	sign "$1" "$BENCH_SECRET" "$2" "$SIGNED_FILE" "$GET_METRICS_USER"
	[ "$1" = export_metrics ] && connections=2
	(cd "$dir" && LUA_PATH="$HARNESS/wrk/?.lua;;" wrk -t2 -c"$connections" -d"$2s" --timeout 10s -s "$1.lua" "$BASE") | grep '^RESULT'
	rm -f "$SIGNED"/*
}

log "warming up: 45 s of POST, then $WARMUP s of each workload"
run_wrk post_metrics 45 >/dev/null
for w in $WORKLOADS; do run_wrk "$w" "$WARMUP" >/dev/null; done
# Statistics for the planner, as autovacuum would gather them: this machine's PostgreSQL runs with
# autovacuum off, and without statistics of the tables the warm-up filled the planner guesses
# (the feed's page, for one, then sorts a bitmap scan instead of reading its index in order).
psql -d bench_profile -qc "ANALYZE" >/dev/null

printf '%-20s %10s %10s %10s %12s %12s %8s\n' workload req/s p50_ms p99_ms cpu_us/req db_us/req non2xx | tee "$OUT/summary.txt"
for w in $WORKLOADS; do
	before=$(cpu_ticks "$PID") db_before=$(dbcpu)
	result=$(run_wrk "$w" "$DURATION")
	after=$(cpu_ticks "$PID") db_after=$(dbcpu)
	python3 - "$result" "$before" "$after" "$CLK_TCK" "$w" "$db_before" "$db_after" <<'PY' | tee -a "$OUT/summary.txt"
import sys
result, before, after, ticks, workload = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
db_us = (int(sys.argv[7]) - int(sys.argv[6])) / ticks * 1e6
r = dict(kv.split('=') for kv in result.split()[1:])
requests = int(r['requests'])
cpu_us = (after - before) / ticks * 1e6 / max(requests, 1)
# the 429 path expects 429s (and up to a plan's 60 a minute of 2xx): there, only the others count
errors = sum(int(r[k]) for k in (('other' if 's429' in r else 'non2xx'), 'connect_err', 'read_err', 'write_err', 'timeout_err'))
# PostgreSQL's CPU is summed over its live processes: a backend that ended during the run took its
# seconds with it, which shows only when the sum went down: then the figure is unknown ('-'), not a
# negative number (a smaller loss goes unseen and lowers the figure)
db = f"{db_us / max(requests, 1):12.1f}" if db_us >= 0 else f"{'-':>12s}"
print(f"{workload:20s} {float(r['rps']):10.0f} {int(r['p50_us'])/1000:10.2f} {int(r['p99_us'])/1000:10.2f} {cpu_us:12.1f} {db} {errors:8d}")
PY
done
# Then (PROFILE=1, the default) each workload again with a JFR recording of CPU samples: after all
# measurements, because a recording and its summary cost CPU that would distort the figures above.
if [ "${PROFILE:-1}" = 1 ]; then
	for w in $WORKLOADS; do
		if [ -n "${ASYNC_PROFILER:-}" ]; then
			# async-profiler (libasyncProfiler.so of tools.profiler:async-profiler) loaded into the
			# running service: native and kernel frames too
			jcmd $PID JVMTI.agent_load "$ASYNC_PROFILER" "\"start,event=${AP_EVENT:-cpu,interval=1ms}\"" >/dev/null
			run_wrk "$w" "$DURATION" >/dev/null
			jcmd $PID JVMTI.agent_load "$ASYNC_PROFILER" "\"stop,file=$PWD/$OUT/$w.collapsed,collapsed\"" >/dev/null
			python3 bench/collapsed-top.py "$OUT/$w.collapsed" >"$OUT/$w.top.txt" 2>/dev/null || true
		else
			jcmd $PID JFR.start name=w settings=$PWD/bench/cpu.jfc filename="$PWD/$OUT/$w.jfr" >/dev/null
			run_wrk "$w" "$DURATION" >/dev/null
			jcmd $PID JFR.stop name=w >/dev/null
		fi
	done
	for w in $WORKLOADS; do
		[ -f "$OUT/$w.jfr" ] && python3 bench/jfr-top.py "$OUT/$w.jfr" >"$OUT/$w.top.txt" 2>/dev/null || true
	done
fi
log "results in $OUT"
