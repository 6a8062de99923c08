#!/usr/bin/env bash
# Bulk writes against PostgreSQL's own COPY, in one run: the rows/s of `COPY metric_records_copy FROM
# STDIN` (psql, ROWS rows into a table made `LIKE metric_records INCLUDING ALL`: the same columns,
# defaults, indexes and checks, in the service's database), then, each beside COPY's:
#
# - `POST /api/v1/health/metrics/batch` with BATCH records a request from CONNECTIONS connections for
#   DURATION seconds (wrk, bench/wrk/post_metrics_batch.lua), twice: records of BATCH users (a nightly
#   sync of many members, a record each) and of BATCH / 50 users (wearables' syncs, 50 readings of a
#   member each; the audit trail has an event per user of a statement);
# - one import (`POST /api/v1/health/imports?kind=metrics`) of ROWS lines of the same shape, from the
#   first byte sent to `completed` (curl, then the import's view polled every 0.2 s), with the used
#   heap and old generation sampled through it (bench/heap-sampler.py);
# - back-pressure: the shared harness's POST metrics and GET metrics (50 rows) workloads at CONNECTIONS
#   connections, after WARMUP seconds of each: first alone, then while a second import of ROWS lines is
#   received and while it is applied, then alone again once it has completed; rounds of a
#   WINDOW-second POST window and a GET window (interleaved, so that the VM's drift falls on every
#   phase alike), ROUNDS of them alone, and during the import as many as it takes for ROUNDS to fall
#   wholly within its apply (the upload is read slower while requests are under way, so the first
#   rounds fall within the upload; a window across its end counts for neither): the median
#   requests/s and p99 of each path in each phase, every window's p99, the median p99 while the
#   import is received and while it is applied against the median of the windows alone, and the lines
#   it applied a second meanwhile. Before each phase the
#   database is settled (VACUUM ANALYZE, CHECKPOINT, then 10 s of POST unmeasured): what the imports
#   before it left for vacuum and the checkpointer, and the full-page writes that follow a checkpoint,
#   fall on no window.
#
# Nothing is asserted; it prints numbers.
#
#   bench/ingest.sh
#
# It builds target/health-partner-api.jar if missing, starts it in the prod profile on a fresh
# database bench_ingest (port 18098, management 18099), onboards a partner on a plan of 10^9 a
# minute and warms up with STARTUP_WARMUP seconds of the same batches: a fresh JVM's compilers are busy for
# about two minutes of this load (-XX:+LogCompilation: their time per 10 s of load 5-9 s until 60 s in,
# 2-4 s from 70 s, 1-2 s from 110 s; async-profiler 70 s in: the C2 compiler a third of the JVM's
# samples), and COPY, native code, needs none; the shared harness warms a fresh target up for 45 s of
# POST likewise. Each measured workload, COPY included,
# starts from the same state: the tables it writes emptied and a checkpoint taken. The stored rows are
# counted in the database after each run, so the figure is what was stored, not what was answered.
#
# Environment: ROWS (1000000), BATCH (500), CONNECTIONS (64), DURATION (20), STARTUP_WARMUP (120),
# WARMUP (10), WINDOW (10),
# ROUNDS (5: the median of ten 10 s windows alone, of five during each phase of the import; with 3 a
# run's p99 medians moved by up to 30 % between runs of one build), JAVA_OPTS,
# HARNESS (../shared/bench: its common.lua, and the back-pressure workloads), PGHOST, PGPORT, PGUSER, PGPASSWORD.
# Output: the terminal and bench/results/ingest-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-1000000}
BATCH=${BATCH:-500}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-20}
WINDOW=${WINDOW:-10}
ROUNDS=${ROUNDS:-5}
WARMUP=${WARMUP:-10}
STARTUP_WARMUP=${STARTUP_WARMUP:-120}
HARNESS=$(cd "${HARNESS:-../shared/bench}" && pwd)
# the harness's common.lua and bench/wrk's threads.lua, for the wrk scripts
export LUA_PATH="$HARNESS/wrk/?.lua;$PWD/bench/wrk/?.lua;;"
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
PORT=18098
ADMIN_TOKEN=ingest-admin-token-0123456789
OUT=bench/results/ingest-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
# shellcheck source=bench/service.sh
. bench/service.sh
start_service bench_ingest
export BENCH_KEY BATCH
BENCH_KEY=$(onboard loadtest)
PARTNER=$(psql -d bench_ingest -Atc "select id from partners limit 1")   # the only one

now() { date +%s.%N; }
# Every measured workload starts from the state COPY starts from: the tables it writes empty (the
# warm-up's and earlier workloads' rows gone), a checkpoint just taken and the kernel's dirty pages
# written (sync: the gigabytes the warm-up leaves would otherwise be written back, 30 s later, during
# the next measurement).
fresh() {
	psql -d bench_ingest -qc "truncate metric_records, changes, audit_events, import_lines, import_errors"
	flush_writes bench_ingest
}
rate() { python3 -c "print(round($1 / ($3 - $2)))"; }

log "COPY of $ROWS rows into metric_records_copy (LIKE metric_records INCLUDING ALL)"
psql -d bench_ingest -qc "create table metric_records_copy (like metric_records including all)"
# the rows as the service stores them: a view rendered by metric_view, an id per row, 1,000 users
psql -d bench_ingest -qAt >"$OUT/copy.csv" <<SQL
copy (select gen_random_uuid(), '$PARTNER'::uuid, 'copy-' || (n % 1000),
             jsonb_build_object('weight', 60 + n % 40, 'resting_heart_rate', 50 + n % 30),
             timestamptz '2026-01-01' + n * interval '1 second', now(), null, null, now(),
             metric_view(gen_random_uuid(), 'copy-' || (n % 1000), null, null,
                         jsonb_build_object('weight', 60 + n % 40, 'resting_heart_rate', 50 + n % 30),
                         api_time(timestamptz '2026-01-01' + n * interval '1 second'), api_time(now()), api_time(now()))
      from generate_series(1, $ROWS) n) to stdout with (format csv)
SQL
fresh
START=$(now)
psql -d bench_ingest -qc "\\copy metric_records_copy (id, partner_id, user_id, metrics, recorded_at, created_at, client_record_id, client_record_version, updated_at, view) from '$OUT/copy.csv' with (format csv)"
END=$(now)
COPIED=$(psql -d bench_ingest -Atc "select count(*) from metric_records_copy")
COPY_RATE=$(rate "$COPIED" "$START" "$END")
rm -f "$OUT/copy.csv"
log "COPY: $COPIED rows, $COPY_RATE rows/s"

log "start-up warm-up: batches of $BATCH for ${STARTUP_WARMUP}s"
export USERS_PER_BATCH=$BATCH
wrk -t2 -c"$CONNECTIONS" -d"${STARTUP_WARMUP}s" --timeout 10s -s bench/wrk/post_metrics_batch.lua "$BASE" >"$OUT/warmup.txt"

# batches USERS: BATCH records of USERS users a request; sets ROWS_STORED, BATCH_RATE, OTHERS, P99
batches() {
	export USERS_PER_BATCH=$1
	local before after start end
	fresh
	before=$(psql -d bench_ingest -Atc "select count(*) from metric_records")
	log "batches of $BATCH records of $1 users from $CONNECTIONS connections for ${DURATION}s"
	start=$(now)
	wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency -s bench/wrk/post_metrics_batch.lua "$BASE" \
		| tee "$OUT/batches-$1-users.txt" >&2
	end=$(now)
	after=$(psql -d bench_ingest -Atc "select count(*) from metric_records")
	ROWS_STORED=$((after - before))
	BATCH_RATE=$(rate "$ROWS_STORED" "$start" "$end")
	OTHERS=$(grep -Eo 'Non-2xx or 3xx responses: [0-9]+' "$OUT/batches-$1-users.txt" | grep -Eo '[0-9]+$' || echo 0)
	P99=$(awk '$1 == "99%" { print $2 }' "$OUT/batches-$1-users.txt")
}
share() { python3 -c "print(round(100 * $1 / $COPY_RATE))"; }
# a nightly sync of many members (a record each), then wearables' syncs (50 readings of a member each)
batches "$BATCH"
MANY="| batches of $BATCH records of $BATCH users, $CONNECTIONS connections, ${DURATION}s ($ROWS_STORED rows stored, $OTHERS answers other than 2xx, p99 $P99) | $BATCH_RATE | $(share "$BATCH_RATE") % |"
batches $((BATCH / 50 > 0 ? BATCH / 50 : 1))
FEW="| batches of $BATCH records of $((BATCH / 50 > 0 ? BATCH / 50 : 1)) users, $CONNECTIONS connections, ${DURATION}s ($ROWS_STORED rows stored, $OTHERS answers other than 2xx, p99 $P99) | $BATCH_RATE | $(share "$BATCH_RATE") % |"

# the import's lines: the rows COPY stored, as the single POST's bodies
python3 - "$ROWS" >"$OUT/import.ndjson" <<'PY'
import sys
from datetime import datetime, timedelta, timezone
start = datetime(2026, 1, 1, tzinfo=timezone.utc)
out = sys.stdout
for n in range(1, int(sys.argv[1]) + 1):
    at = (start + timedelta(seconds=n)).strftime('%Y-%m-%dT%H:%M:%SZ')
    out.write('{"user_id":"import-%d","metrics":{"weight":%d,"resting_heart_rate":%d},"recorded_at":"%s"}\n'
              % (n % 1000, 60 + n % 40, 50 + n % 30, at))
PY
log "import of $ROWS lines ($(du -h "$OUT/import.ndjson" | cut -f1))"
# import_one NAME: posts the file; sets IMPORT (its path) once answered
import_one() {
	curl -s -o "$OUT/$1.json" -w '%{http_code}' -X POST "$BASE/api/v1/health/imports?kind=metrics" \
		-H "x-api-key: $BENCH_KEY" -H 'Content-Type: application/x-ndjson' --data-binary @"$OUT/import.ndjson" >"$OUT/$1.status"
}
# await_import NAME: polls the import answered in NAME.json until it has ended; prints its view
await_import() {
	local id view
	id=$(json import_id <"$OUT/$1.json")
	while :; do
		view=$(curl -sf "$BASE/api/v1/health/imports/$id" -H "x-api-key: $BENCH_KEY")
		case $view in *'"status":"processing"'*) sleep 0.2 ;; *) echo "$view"; return ;; esac
	done
}
python3 bench/heap-sampler.py "http://127.0.0.1:$((PORT + 1))" 0.5 "$OUT/import-heap.txt" >"$OUT/import-heap-summary.txt" &
SAMPLER=$!
fresh
START=$(now)
import_one import
UPLOADED=$(now)
VIEW=$(await_import import)
END=$(now)
kill -TERM $SAMPLER; wait $SAMPLER || true
echo "$VIEW" >"$OUT/import-view.json"
IMPORTED=$(json created <<<"$VIEW")
IMPORT_RATE=$(rate "$IMPORTED" "$START" "$END")
UPLOAD_SECONDS=$(python3 -c "print(round($UPLOADED - $START, 1))")
APPLY_SECONDS=$(python3 -c "print(round($END - $UPLOADED, 1))")
log "import: $(cat "$OUT/import.status"), $IMPORTED records created in $(python3 -c "print(round($END - $START, 1))") s (upload $UPLOAD_SECONDS s, applied in $APPLY_SECONDS s): $IMPORT_RATE rows/s; heap: $(cat "$OUT/import-heap-summary.txt")"

# back-pressure: the hot paths alone, then while an import is received and applied, then alone again.
# Each phase runs ROUNDS rounds of POST then GET (WINDOW seconds each), so that drift of the VM falls on
# every phase alike, and takes the median p99 of each path's windows; the hot paths are warmed first.
GET_METRICS_USER=u-get-m-ingest
seed_metrics "$BENCH_KEY" "$GET_METRICS_USER"
export GET_METRICS_USER START_DATE=2025-01-01 END_DATE=2025-12-31
# settle: before every phase, what the imports before left for vacuum and the checkpointer is done, then
# 10 s of POST pass unmeasured (after a checkpoint each page's first write puts the whole page into the
# WAL: a POST window right after one measured that surge, not the phase)
settle() {
	psql -d bench_ingest -qc "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
	hot post_metrics 10 >/dev/null
}
hot() { (cd "$HARNESS/wrk" && wrk -t2 -c"$CONNECTIONS" -d"${2:-$WINDOW}s" --timeout 10s -s "$1.lua" "$BASE") | grep '^RESULT'; }
# phase NAME: ROUNDS rounds of POST and GET; appends each window's RESULT line to NAME-post.txt, NAME-get.txt
phase() {
	local round
	for round in $(seq 1 "$ROUNDS"); do
		hot post_metrics >>"$OUT/$1-post.txt"
		hot get_metrics >>"$OUT/$1-get.txt"
	done
}
log "hot paths warmed up, ${WARMUP}s each"
hot post_metrics "$WARMUP" >/dev/null
hot get_metrics "$WARMUP" >/dev/null
settle
log "hot paths alone: $ROUNDS rounds of POST and GET, ${WINDOW}s each"
phase alone
settle
log "hot paths during an import of $ROWS lines: while it is received, then while it is applied"
rm -f "$OUT/import-2.status"
import_one import-2 &
CURL=$!
sleep 1
# the second import's state: receiving (curl has no answer yet), else its status and lines applied
import_state() {
	if [ ! -s "$OUT/import-2.status" ]; then echo receiving; return; fi
	curl -sf "$BASE/api/v1/health/imports?limit=1" -H "x-api-key: $BENCH_KEY" |
		python3 -c "import json,sys; d=json.load(sys.stdin)['data'][0]; print(d['status'], d['processed'])"
}
# window SCRIPT PATH: one window, filed by the import's state at its start and end: receiving-PATH.txt,
# applying-PATH.txt (with the lines applied at its start and end) or, across a change, straddling-PATH.txt
window() {
	local before after result
	before=$(import_state)
	result=$(hot "$1")
	after=$(import_state)
	case "$before|$after" in
	'receiving|receiving') echo "$result" >>"$OUT/receiving-$2.txt" ;;
	processing*'|'processing*) echo "$result from=${before#processing } to=${after#processing }" >>"$OUT/applying-$2.txt" ;;
	*) echo "$result $before -> $after" >>"$OUT/straddling-$2.txt" ;;
	esac
}
count() { [ -f "$1" ] && wc -l <"$1" || echo 0; }
# rounds of POST and GET until ROUNDS of each fell wholly in the apply, the import ended, or 30 rounds
for _ in $(seq 1 30); do
	window post_metrics post
	window get_metrics get
	[ "$(count "$OUT/applying-get.txt")" -ge "$ROUNDS" ] && [ "$(count "$OUT/applying-post.txt")" -ge "$ROUNDS" ] && break
	case $(import_state) in receiving | processing*) ;; *) break ;; esac
done
DURING_STATE=$(import_state)
wait $CURL
# the import applied to its end, then the hot paths alone again
while curl -sf "$BASE/api/v1/health/imports?limit=1" -H "x-api-key: $BENCH_KEY" | grep -q '"status":"processing"'; do sleep 1; done
settle
log "hot paths alone again"
phase again
# stats PHASE PATH: "median req/s (median p99 ms; p99s ms of the windows)", or "none" without windows
stats() {
	[ -f "$OUT/$1-$2.txt" ] || { echo "none"; return; }
	python3 - "$OUT/$1-$2.txt" <<'PY'
import re, statistics, sys
rows = [dict((k, float(v)) for k, v in re.findall(r'(\w+)=([0-9.]+)', line)) for line in open(sys.argv[1])]
p99 = [r['p99_us'] / 1000 for r in rows]
print('%.0f (%.1f ms; %s)' % (statistics.median(r['rps'] for r in rows), statistics.median(p99),
                               ' '.join('%.1f' % x for x in p99)))
PY
}
# against PHASE PATH: the median p99 of PHASE's windows against the median of the windows alone (before
# and after)
against() {
	[ -f "$OUT/$1-$2.txt" ] || { echo "-"; return; }
	python3 - "$OUT/alone-$2.txt" "$OUT/again-$2.txt" "$OUT/$1-$2.txt" <<'PY'
import re, statistics, sys
def p99s(path):
    return [int(re.search(r'p99_us=([0-9]+)', line).group(1)) for line in open(path)]
alone = statistics.median(p99s(sys.argv[1]) + p99s(sys.argv[2]))
during = statistics.median(p99s(sys.argv[3]))
print('%+d %%' % round(100 * (during - alone) / alone))
PY
}
# hotline NAME PATH: each phase's median req/s and p99, and the p99 while received and applied against alone
hotline() {
	echo "| $1, $CONNECTIONS connections | $(stats alone "$2") | $(stats receiving "$2") | $(stats applying "$2") | $(stats again "$2") | $(against receiving "$2") | $(against applying "$2") |"
}
# the lines the second import applied a second in the windows wholly within its apply
applied_rate() {
	cat "$OUT"/applying-*.txt 2>/dev/null | python3 -c "
import re, sys
spans = [(int(m.group(1)), int(m.group(2))) for m in (re.search(r'from=(\d+) to=(\d+)', l) for l in sys.stdin) if m]
print('%.0f lines/s' % (sum(b - a for a, b in spans) / (len(spans) * $WINDOW)) if spans else 'no window wholly within it')"
}

{
	echo
	echo "| workload | rows/s | share of COPY's |"
	echo "|---|---|---|"
	echo "| COPY of $COPIED rows (psql \\copy) | $COPY_RATE | 100 % |"
	echo "$MANY"
	echo "$FEW"
	echo "| one import of $ROWS lines, first byte to completed ($IMPORTED records; upload $UPLOAD_SECONDS s, applied in $APPLY_SECONDS s; heap $(cat "$OUT/import-heap-summary.txt")) | $IMPORT_RATE | $(share "$IMPORT_RATE") % |"
	echo
	echo "| hot path | alone: req/s (median p99; each window's) | while an import is received | while it is applied | alone again | median p99 while received against alone | while applied |"
	echo "|---|---|---|---|---|---|---|"
	hotline "POST metrics" post
	hotline "GET metrics, 50 rows" get
	echo
	echo "A start-up warm-up of ${STARTUP_WARMUP}s of batches before the first measurement. Windows of ${WINDOW}s, $ROUNDS of each path alone, before and after; during the import, windows until $ROUNDS of each fell wholly within its apply (windows across the upload's end: $(cat "$OUT"/straddling-*.txt 2>/dev/null | wc -l), not counted). While it was applied the import applied $(applied_rate) (it was $DURING_STATE after the windows)."
} | tee "$OUT/summary.md"
rm -f "$OUT/import.ndjson"
