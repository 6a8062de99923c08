#!/usr/bin/env bash
# Two builds of the service side by side on the shared harness's workloads: both jars run at once,
# each on a database and a port of its own, seeded with the harness's pages (50 metrics records, 20
# assessments) and warmed up; then each workload runs on A and B in turn, in the order A B B A per
# pair, so that the VM's drift over minutes (a jar's rate climbs for the first minute, and these VMs
# change speed) falls on both. A change worth a few per cent is smaller than what one jar moves
# between two runs; only runs alternated like this compare.
#
#   bench/ab.sh JAR_A JAR_B [workload...]     (default: get_assessments get_metrics post_metrics; also
#                                             bench/wrk's, e.g. mixed, with the same seeded pages, and
#                                             the signed ones, signed with each jar's partner's secret)
#
# Prints, per run: requests/s, requests, p50, p90, p99 and p99.9 (ms), the errors (connect, read, write,
# timeouts, and answers other than 2xx but on the 429 path) and the jar's CPU a request (µs, user +
# system from /proc); then each jar's mean per workload.
# Environment: PAIRS (2), CONNECTIONS (64), DURATION (15), WARMUP (30 s of each workload on each
# jar, after 30 s of POST), HARNESS (../shared/bench), JAVA_OPTS (both jars), JAVA_OPTS_A and JAVA_OPTS_B
# (one jar's, in place of JAVA_OPTS: the same jar twice with two settings), PGHOST, PGPORT, PGUSER, PGPASSWORD.
# Output: the terminal and bench/results/ab-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

JAR_A=$(realpath "$1")
JAR_B=$(realpath "$2")
shift 2
WORKLOADS=${*:-get_assessments get_metrics post_metrics}
HARNESS=$(cd "${HARNESS:-../shared/bench}" && pwd)
PAIRS=${PAIRS:-2}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15}
WARMUP=${WARMUP:-30}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
ADMIN_TOKEN=ab-admin-token-0123456789
OUT=bench/results/ab-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
# shellcheck source=bench/service.sh
. bench/service.sh

declare -A URL BKEY BSECRET DKEY JPID
# up NAME JAR PORT JAVA_OPTS: the jar started on database bench_ab_NAME, its partners onboarded, its pages seeded
up() {
	local name=$1
	OUT_ONE=$OUT/$name
	mkdir -p "$OUT_ONE"
	OUT=$OUT_ONE JAR=$2 PORT=$3 JAVA_OPTS=$4 start_service "bench_ab_$name"
	JPID[$name]=$PID
	# start_service's trap stops only the jar it started
	trap 'kill "${JPID[@]}" 2>/dev/null || true; wait "${JPID[@]}" 2>/dev/null || true' EXIT
	URL[$name]=$BASE
	read -r "BKEY[$name]" "BSECRET[$name]" < <(credentials loadtest)
	DKEY[$name]=$(onboard default)
	seed_metrics "${BKEY[$name]}" u-get-m-ab
	seed_assessments "${BKEY[$name]}" u-get-a-ab
}
up a "$JAR_A" 18094 "${JAVA_OPTS_A-${JAVA_OPTS:-}}"
up b "$JAR_B" 18096 "${JAVA_OPTS_B-${JAVA_OPTS:-}}"

# run NAME WORKLOAD SECONDS: one wrk run, its PCT line (a workload of bench/wrk, else the harness's)
# with the jar's CPU a request added. A signed workload's signatures are made just before with NAME's
# secret (bench/service.sh's sign).
run() {
	local script="$HARNESS/wrk/$2.lua" signed=$PWD/$OUT/signed-$1
	if [ -f "$PWD/bench/wrk/$2.lua" ]; then script="$PWD/bench/wrk/$2.lua"; fi
	sign "$2" "${BSECRET[$1]}" "$3" "$signed" u-get-m-ab
	local before pct
	before=$(cpu_ticks "${JPID[$1]}")
	pct=$(cd "$HARNESS/wrk" && LUA_PATH="$HARNESS/wrk/?.lua;$OLDPWD/bench/wrk/?.lua;;" WORKLOAD="$script" \
		BENCH_KEY=${BKEY[$1]} DEFAULT_KEY=${DKEY[$1]} GET_METRICS_USER=u-get-m-ab GET_ASSESSMENTS_USER=u-get-a-ab \
		START_DATE=2025-01-01 END_DATE=2025-12-31 SIGNED_FILE=$signed \
		wrk -t2 -c"$CONNECTIONS" -d"${3}s" --timeout 10s -s "$OLDPWD/bench/wrk/percentiles.lua" "${URL[$1]}" | grep '^PCT')
	# the jar's CPU (user + system) a request during the run, in µs: what a change costs, where
	# requests/s also move with what wrk and PostgreSQL get of the cores
	awk -v line="$pct" -v ticks=$(($(cpu_ticks "${JPID[$1]}") - before)) -v hz="$CLK_TCK" 'BEGIN {
		requests = (match(line, /requests=[0-9]+/) ? substr(line, RSTART + 9, RLENGTH - 9) : 0)
		printf "%s cpu_us=%.2f\n", line, ticks * 1e6 / hz / (requests > 0 ? requests : 1) }'
	rm -f "$signed"*
}

log "warming up both jars: 30 s of POST, then $WARMUP s of each workload"
for name in a b; do
	run "$name" post_metrics 30 >/dev/null
	for w in $WORKLOADS; do run "$name" "$w" "$WARMUP" >/dev/null; done
done
for name in a b; do psql -d "bench_ab_$name" -qc "ANALYZE" >/dev/null; done

printf '%-16s %-3s %-4s %s\n' workload jar pair result | tee "$OUT/summary.txt"
for w in $WORKLOADS; do
	for pair in $(seq 1 "$PAIRS"); do
		for name in a b b a; do
			printf '%-16s %-3s %-4s %s\n' "$w" "$name" "$pair" "$(run "$name" "$w" "$DURATION")" | tee -a "$OUT/summary.txt"
		done
	done
done
python3 - "$OUT/summary.txt" <<'PY' | tee -a "$OUT/summary.txt"
import collections, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]).read().splitlines()[1:]:
    workload, jar, _, _, *fields = line.split()
    runs[(workload, jar)].append({k: float(v) for k, v in (f.split('=') for f in fields)})
print('means (%d runs each):' % len(next(iter(runs.values()))))
for (workload, jar), rs in sorted(runs.items()):
    mean = lambda k: sum(r[k] for r in rs) / len(rs)
    print(f"{workload:16s} {jar}  rps {mean('rps'):9.0f}  p50 {mean('p50'):7.2f}  p90 {mean('p90'):7.2f}  "
          f"p99 {mean('p99'):7.2f}  p99.9 {mean('p999'):7.2f}  cpu_us {mean('cpu_us'):6.2f}  errors {sum(r['errors'] for r in rs):.0f}")
PY
log "results in $OUT"
