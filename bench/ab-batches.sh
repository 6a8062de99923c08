#!/usr/bin/env bash
# Two builds of the service on the batch workload of bench/ingest.sh, in turn: a change worth a few
# per cent is smaller than what one build moves between two runs on these VMs, so each jar is started
# PAIRS times, alternated (A B A B ...), each time on a fresh database and JVM, warmed up with WARMUP
# seconds of batches, then measured for DURATION seconds from emptied tables after a checkpoint and a
# sync (what the warm-up left for the kernel to write falls on no run).
#
#   bench/ab-batches.sh JAR_A JAR_B
#
# Prints, per run: the records stored a second (counted in the database), the machine's CPU time per
# record (all processes: the service, PostgreSQL, wrk) and the service's, and the answers other than
# 2xx. Environment: PAIRS (3), USERS (500: the users of a batch of BATCH records), BATCH (500),
# CONNECTIONS (64), DURATION (20), WARMUP (90), JAVA_OPTS, HARNESS (../shared/bench, whose common.lua
# the batch script uses), PGHOST, PGPORT, PGUSER, PGPASSWORD.
# Output: the terminal and bench/results/ab-batches-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

JAR_A=$(realpath "$1")
JAR_B=$(realpath "$2")
HARNESS=$(cd "${HARNESS:-../shared/bench}" && pwd)
# the harness's common.lua and bench/wrk's threads.lua, for the wrk scripts
export LUA_PATH="$HARNESS/wrk/?.lua;$PWD/bench/wrk/?.lua;;"
PAIRS=${PAIRS:-3}
BATCH=${BATCH:-500}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-90}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
export BATCH USERS_PER_BATCH=${USERS:-500}
PORT=18096
ADMIN_TOKEN=ab-admin-token-0123456789
OUT=bench/results/ab-batches-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
# shellcheck source=bench/service.sh
. bench/service.sh

busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
# one JAR: a fresh service, warmed up, then one measured run; prints its line
one() {
	JAR=$1 start_service bench_ab
	BENCH_KEY=$(onboard loadtest)
	export BENCH_KEY
	wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 10s -s bench/wrk/post_metrics_batch.lua "$BASE" >/dev/null
	psql -d bench_ab -qc "truncate metric_records, changes, audit_events"
	flush_writes bench_ab
	local start end stored machine0 machine1 service0 service1
	machine0=$(busy)
	service0=$(cpu_ticks "$PID")
	start=$(date +%s.%N)
	wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s bench/wrk/post_metrics_batch.lua "$BASE" >"$OUT/run.txt"
	end=$(date +%s.%N)
	machine1=$(busy)
	service1=$(cpu_ticks "$PID")
	stored=$(psql -d bench_ab -Atc "select count(*) from metric_records")
	python3 -c "
print('%-40s %6d records/s  CPU us a record: machine %5.1f, service %5.1f  %s' % ('$(basename "$1")',
      round($stored / ($end - $start)), ($machine1 - $machine0) * 1e6 / $CLK_TCK / $stored,
      ($service1 - $service0) * 1e6 / $CLK_TCK / $stored, '$(grep -o 'Non-2xx or 3xx responses: [0-9]*' "$OUT/run.txt" || true)'))" |
		tee -a "$OUT/summary.txt"
	kill "$PID"
	wait "$PID" 2>/dev/null || true
}
for _ in $(seq 1 "$PAIRS"); do
	one "$JAR_A"
	one "$JAR_B"
done
