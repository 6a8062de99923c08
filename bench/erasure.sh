#!/usr/bin/env bash
# Erases a user with RECORDS metrics records (default 1,000,000, each with its created change)
# while the same partner's other users keep writing, and prints how long the erasure took and how
# those writes fared during it against the same load before it: the issue's "no batch delays the
# partner's other writes by more than a few milliseconds", measured.
#
#   bench/erasure.sh
#
# It builds target/health-partner-api.jar if missing, starts it in the prod profile on a fresh
# database bench_erasure (port 18096, management 18097), onboards a partner, stores the user's
# records and changes with one INSERT each (as a long-lived user's would be), runs the shared
# harness's post_metrics.lua (other users of the same partner) with CONNECTIONS connections for
# BASELINE seconds, then again while DELETE /api/v1/health/users/{user_id} runs, until the erasure
# is completed. Environment: HARNESS (default ../shared/bench), RECORDS, CONNECTIONS (16), BASELINE
# (20), JAVA_OPTS, PGHOST, PGPORT, PGUSER, PGPASSWORD. Output: bench/results/erasure-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

HARNESS=$(cd "${HARNESS:-../shared/bench}" && pwd)
RECORDS=${RECORDS:-1000000}
CONNECTIONS=${CONNECTIONS:-16}
BASELINE=${BASELINE:-20}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
PORT=18096
ADMIN_TOKEN=erasure-admin-token-0123456789
OUT=bench/results/erasure-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
# shellcheck source=bench/service.sh
. bench/service.sh
start_service bench_erasure
EMAIL="erasure-$(date +%s%N)@example.com"
BENCH_KEY=$(onboard loadtest "$EMAIL")
PARTNER=$(psql -d bench_erasure -Atc "select id from partners where email = '$EMAIL'")
USER_ID=u-erased-bench

log "storing $RECORDS records of $USER_ID and their created changes"
psql -d bench_erasure -q <<SQL
insert into metric_records (id, partner_id, user_id, metrics, recorded_at, created_at, updated_at, view)
select *, metric_view(id, user_id, null, null, metrics, api_time(recorded_at), api_time(created_at),
                      api_time(updated_at))
from (select gen_random_uuid() as id, cast('$PARTNER' as uuid) as partner_id, text '$USER_ID' as user_id,
             jsonb_build_object('weight', 60 + i % 40) as metrics,
             timestamptz '2020-01-01' + make_interval(mins => i) as recorded_at, now() as created_at,
             now() as updated_at
      from generate_series(1, $RECORDS) i) r;
insert into changes (partner_id, kind, resource, record_id, user_id, changed_at, item)
select partner_id, 'created', 'metrics', id, user_id, created_at,
       change_item('created', 'metrics', id, user_id, null, api_time(created_at), view)
from metric_records where partner_id = '$PARTNER' and user_id = '$USER_ID';
analyze;
SQL

export BENCH_KEY
run_wrk() {
	(cd "$HARNESS/wrk" && LUA_PATH="$HARNESS/wrk/?.lua;;" wrk -t2 -c"$CONNECTIONS" -d"$1s" --timeout 10s -s post_metrics.lua "$BASE") | grep '^RESULT'
}
log "warming up, then $BASELINE s of the other users' writes alone"
run_wrk 20 >/dev/null
BEFORE=$(run_wrk "$BASELINE")

log "erasing $USER_ID while the other users keep writing"
ERASURE=$(curl -sf -X DELETE "$BASE/api/v1/health/users/$USER_ID" -H "x-api-key: $BENCH_KEY" | json erasure_id)
START=$(date +%s.%N)
run_wrk 600 >"$OUT/during.txt" &
WRK=$!
STATUS=pending
while [ "$STATUS" != completed ]; do
	sleep 0.5
	STATUS=$(curl -sf "$BASE/api/v1/health/erasures/$ERASURE" -H "x-api-key: $BENCH_KEY" | json status)
done
END=$(date +%s.%N)
pkill -INT -f "wrk -t2 -c$CONNECTIONS -d600s" 2>/dev/null || true
wait $WRK 2>/dev/null || true
DURING=$(cat "$OUT/during.txt")
curl -sf "$BASE/api/v1/health/erasures/$ERASURE" -H "x-api-key: $BENCH_KEY" >"$OUT/erasure.json"
LEFT=$(psql -d bench_erasure -Atc "select (select count(*) from metric_records where user_id = '$USER_ID') + (select count(*) from changes where user_id = '$USER_ID' and kind <> 'user_erased')")

python3 - "$BEFORE" "$DURING" "$START" "$END" "$RECORDS" "$LEFT" "$OUT/erasure.json" <<'PY' | tee "$OUT/summary.txt"
import json, sys
def parse(line):
    return dict(kv.split('=') for kv in line.split()[1:])
before, during = parse(sys.argv[1]), parse(sys.argv[2])
seconds = float(sys.argv[4]) - float(sys.argv[3])
erasure = json.load(open(sys.argv[7]))
from datetime import datetime
took = (datetime.fromisoformat(erasure['completed_at'].replace('Z', '+00:00'))
        - datetime.fromisoformat(erasure['requested_at'].replace('Z', '+00:00'))).total_seconds()
print(f"erasure of {int(sys.argv[5]):,} records and their changes: {seconds:.1f} s "
      f"(requested_at to completed_at: {took:.1f} s), metrics_deleted {erasure['metrics_deleted']:,}, "
      f"left behind {sys.argv[6]}")
print(f"{'other users writes':22s} {'req/s':>8s} {'p50 ms':>8s} {'p99 ms':>8s} {'max ms':>8s} {'errors':>7s}")
for name, r in (("before the erasure", before), ("during the erasure", during)):
    print(f"{name:22s} {float(r['rps']):8.0f} {int(r['p50_us'])/1000:8.2f} {int(r['p99_us'])/1000:8.2f} "
          f"{int(r['max_us'])/1000:8.2f} "
          f"{sum(int(r[k]) for k in ('non2xx', 'connect_err', 'read_err', 'write_err', 'timeout_err')):7d}")
PY
log "results in $OUT"
