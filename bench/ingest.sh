#!/usr/bin/env bash
# Bulk writes against PostgreSQL's own COPY, in one run: the rows/s of `COPY metric_records_copy FROM
# STDIN` (psql, ROWS rows into a table made `LIKE metric_records INCLUDING ALL`: the same columns,
# defaults, indexes and checks, in the service's database), then the rows/s of
# `POST /api/v1/health/metrics/batch` with BATCH records a request from CONNECTIONS connections for
# DURATION seconds (wrk, bench/wrk/post_metrics_batch.lua), twice: records of BATCH users (a nightly
# sync of many members, a record each) and of BATCH / 50 users (wearables' syncs, 50 readings of a
# member each; the audit trail has an event per user of a statement), each beside COPY's. Nothing is
# asserted; it prints numbers.
#
#   bench/ingest.sh
#
# It builds target/health-partner-api.jar if missing, starts it in the prod profile on a fresh
# database bench_ingest (port 18098, management 18099), onboards a partner on a plan of 10^9 a
# minute and warms up with WARMUP seconds of the same batches. The stored rows are counted in the
# database after the run, so the figure is what was stored, not what was answered. Imports
# (POST /api/v1/health/imports) are not built yet: their line says so.
#
# Environment: ROWS (1000000), BATCH (500), CONNECTIONS (64), DURATION (20), WARMUP (10), JAVA_OPTS,
# PGHOST, PGPORT, PGUSER, PGPASSWORD. Output: the terminal and bench/results/ingest-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-1000000}
BATCH=${BATCH:-500}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-10}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
PORT=18098
ADMIN_TOKEN=ingest-admin-token-0123456789
OUT=bench/results/ingest-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
# shellcheck source=bench/service.sh
. bench/service.sh
start_service bench_ingest
export KEY BATCH
KEY=$(onboard loadtest)
PARTNER=$(psql -d bench_ingest -Atc "select id from partners limit 1")   # the only one

now() { date +%s.%N; }
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
START=$(now)
psql -d bench_ingest -qc "\\copy metric_records_copy (id, partner_id, user_id, metrics, recorded_at, created_at, client_record_id, client_record_version, updated_at, view) from '$OUT/copy.csv' with (format csv)"
END=$(now)
COPIED=$(psql -d bench_ingest -Atc "select count(*) from metric_records_copy")
COPY_RATE=$(rate "$COPIED" "$START" "$END")
rm -f "$OUT/copy.csv"
log "COPY: $COPIED rows, $COPY_RATE rows/s"

log "warm-up: batches of $BATCH for ${WARMUP}s"
export USERS_PER_BATCH=$BATCH
wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 10s -s bench/wrk/post_metrics_batch.lua "$BASE" >"$OUT/warmup.txt"

# batches USERS: BATCH records of USERS users a request; sets ROWS_STORED, BATCH_RATE, OTHERS, P99
batches() {
	export USERS_PER_BATCH=$1
	local before after start end
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

{
	echo
	echo "| workload | rows/s | share of COPY's |"
	echo "|---|---|---|"
	echo "| COPY of $COPIED rows (psql \\copy) | $COPY_RATE | 100 % |"
	echo "$MANY"
	echo "$FEW"
	echo "| one import of $ROWS lines | not built yet (POST /api/v1/health/imports) | — |"
} | tee "$OUT/summary.md"
