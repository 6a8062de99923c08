#!/usr/bin/env bash
# Measures the NDJSON export against PostgreSQL's own COPY of the same rows: the rows/s of
# `GET /api/v1/health/metrics?user_id=… ` with `Accept: application/x-ndjson` over RECORDS records of
# one user, the rows/s of `COPY (the same select) TO STDOUT` with psql on the same database, their
# ratio, and the service's used heap sampled every 100 ms during one export (it should stay flat:
# the export streams). Nothing is asserted; it prints numbers.
#
#   bench/export.sh
#
# With no settings it builds target/health-partner-api.jar when missing or older than the sources,
# creates a fresh database bench_export_<pid>, starts the jar on it in the prod profile (port
# 18390, management 18391), onboards a partner on a plan of 10^9 a minute through the admin API,
# inserts RECORDS metrics records of one user by SQL, warms up, measures, then stops the service
# and drops the database.
#
# To measure an instance that is already running, give BASE_URL, KEY (a key with the read scope),
# DATABASE (the database it uses, on PGHOST/PGPORT) and, for the heap, MANAGEMENT_URL: the records
# are inserted for a new user of the key's partner and deleted at the end.
#
# Environment: RECORDS (100000), RUNS (5), WARMUP (5 exports), PORT (18390; management PORT+1),
# JAVA_OPTS (the started service's JVM options, default -Xmx512m), PROFILE=1 to record a CPU
# profile of 10 more exports after the measurements (JFR, summarised by bench/jfr-top.py, or with
# ASYNC_PROFILER=<path of libasyncProfiler.so> async-profiler, summarised by bench/collapsed-top.py),
# PGHOST, PGPORT, PGUSER, PGPASSWORD.
# Output goes to the terminal and to bench/results/export-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

RECORDS=${RECORDS:-100000}
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-5}
PORT=${PORT:-18390}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
export PGOPTIONS=${PGOPTIONS:---client-min-messages=warning}
OUT=bench/results/export-$(date -u +%Y%m%dT%H%M%SZ)
JAR=target/health-partner-api.jar
WORK=$(mktemp -d)
mkdir -p "$OUT"
log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
json() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

PID=
STARTED_DB=
SEEDED_USER=
cleanup() {
	set +e
	if [ -n "$PID" ]; then
		kill -TERM "$PID" 2>/dev/null
		wait "$PID" 2>/dev/null
	fi
	if [ -n "$SEEDED_USER" ] && [ -z "$STARTED_DB" ]; then
		psql -X -q -d "$DATABASE" -v user="$SEEDED_USER" -c "delete from metric_records where user_id = :'user'" >/dev/null
	fi
	if [ -n "$STARTED_DB" ]; then
		psql -X -q -d postgres -c "drop database if exists $STARTED_DB with (force)" >/dev/null
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT

if [ -z "${BASE_URL:-}" ]; then
	if [ ! -f "$JAR" ] || [ -n "$(find pom.xml src/main -newer "$JAR" -print -quit)" ]; then
		log "building $JAR"
		./mvnw -B -q -DskipTests package
	fi
	DATABASE=bench_export_$$
	psql -X -q -d postgres -c "drop database if exists $DATABASE with (force)" -c "create database $DATABASE" >/dev/null
	STARTED_DB=$DATABASE
	ADMIN_TOKEN=export-bench-admin-$(date +%s%N)
	BASE_URL=http://127.0.0.1:$PORT
	MANAGEMENT_URL=http://127.0.0.1:$((PORT + 1))
	log "starting $JAR in the prod profile on $BASE_URL, database $DATABASE"
	# shellcheck disable=SC2086
	SPRING_PROFILES_ACTIVE=prod SERVER_PORT=$PORT MANAGEMENT_SERVER_PORT=$((PORT + 1)) \
	MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE=health,info,prometheus,metrics \
	SPRING_R2DBC_URL="r2dbc:postgresql://$PGHOST:$PGPORT/$DATABASE" SPRING_R2DBC_USERNAME=$PGUSER \
	SPRING_R2DBC_PASSWORD=$PGPASSWORD APP_ADMIN_TOKEN=$ADMIN_TOKEN \
	APP_SECRET_ENCRYPTION_KEY=$(printf '0123456789abcdef0123456789abcdef' | base64) \
	APP_PLANS=default=60,enterprise=300,loadtest=1000000000 APP_REGISTRATION_LIMIT_PER_HOUR=1000 \
		java ${JAVA_OPTS:--Xmx512m} -jar "$JAR" >"$OUT/service.log" 2>&1 &
	PID=$!
	for i in $(seq 1 120); do
		curl -sf -o /dev/null "$MANAGEMENT_URL/actuator/health/readiness" && break
		kill -0 "$PID" 2>/dev/null || fail "the service exited during start (see $OUT/service.log)"
		[ "$i" = 120 ] && fail "not ready after 60 s (see $OUT/service.log)"
		sleep 0.5
	done
	registration=$(curl -sf -X POST "$BASE_URL/api/v1/auth" -H 'content-type: application/json' \
		-d "{\"email\":\"export-bench-$(date +%s%N)@bench.example\",\"partner_name\":\"Export bench\"}" | json registration_id)
	KEY=$(curl -sf -X POST "$BASE_URL/admin/v1/registrations/$registration/approve" \
		-H "authorization: Bearer $ADMIN_TOKEN" -H 'content-type: application/json' -d '{"plan":"loadtest"}' | json api_key)
else
	: "${KEY:?with BASE_URL, set KEY to a key with the read scope}"
	: "${DATABASE:?with BASE_URL, set DATABASE to the database the instance uses (for the inserts and COPY)}"
fi

PARTNER=$(curl -sf "$BASE_URL/api/v1/auth/me" -H "x-api-key: $KEY" | json partner_id) || fail "the key is not accepted by $BASE_URL"
USER_ID=export-bench-$(date +%s%N)
log "inserting $RECORDS metrics records of user $USER_ID (partner $PARTNER)"
SEEDED_USER=$USER_ID
# Realistic records: three to five metrics each, one reading every 7 minutes or so (about 500 days
# for 100,000), times with milliseconds, created a few seconds after they were recorded.
psql -X -q -v ON_ERROR_STOP=1 -d "$DATABASE" -v partner="$PARTNER" -v user="$USER_ID" -v records="$RECORDS" >/dev/null <<'SQL'
insert into metric_records (id, partner_id, user_id, metrics, recorded_at, created_at, view)
select *, metric_view(id, user_id, null, null, metrics, api_time(recorded_at), api_time(created_at),
                      api_time(created_at))
from (select gen_random_uuid() as id, cast(:'partner' as uuid) as partner_id, cast(:'user' as text) as user_id,
             m.metrics, r.at as recorded_at, r.at + (1 + random() * 30) * interval '1 second' as created_at
      from generate_series(1, :records) g
      cross join lateral (select timestamptz '2025-01-01 06:00:00Z' + g * interval '7 minutes'
		      + floor(random() * 60000) * interval '1 millisecond' as at) r
      cross join lateral (select jsonb_strip_nulls(jsonb_build_object(
		      'weight', round((55 + random() * 45)::numeric, 1),
		      'resting_heart_rate', 48 + floor(random() * 30)::int,
		      'steps', floor(random() * 20000)::int,
		      'systolic_bp', case when g % 3 = 0 then 105 + floor(random() * 40)::int end,
		      'diastolic_bp', case when g % 3 = 0 then 65 + floor(random() * 25)::int end,
		      'sleep_duration', case when g % 5 = 0 then round((5 + random() * 4)::numeric, 2) end)) as metrics
	      ) m) x;
analyze metric_records;
SQL

EXPORT_URL="$BASE_URL/api/v1/health/metrics?user_id=$USER_ID"

# export: prints the seconds one NDJSON export took, after checking its status and line count
export_once() {
	local result status seconds lines
	result=$(curl -sS -o "$WORK/export.ndjson" -w '%{http_code} %{time_total}' -H "x-api-key: $KEY" \
		-H 'Accept: application/x-ndjson' "$EXPORT_URL") || fail "the export failed"
	status=${result% *}
	seconds=${result#* }
	[ "$status" = 200 ] || fail "the export answered $status: $(head -c 300 "$WORK/export.ndjson")"
	lines=$(wc -l <"$WORK/export.ndjson")
	[ "$lines" = "$RECORDS" ] || fail "the export gave $lines lines, not $RECORDS"
	echo "$seconds"
}
# copy: prints the seconds COPY (the same select) TO STDOUT took, as psql measures it
copy_once() {
	psql -X -q -d "$DATABASE" -o /dev/null -c '\timing on' -c "copy ($SELECT) to stdout" \
		| sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{ printf "%.4f\n", $1 / 1000 }'
}
# The select COPY runs: the one the service runs for the export, as PostgreSQL saw it (read from
# pg_stat_activity during a first export), with its two parameters (partner and user) written in.
# Should it not be caught, the select of records/RecordRepository.listSql for metrics as it was written here.
export_once >/dev/null &
EXPORTING=$!
CAUGHT=
while kill -0 "$EXPORTING" 2>/dev/null && [ -z "$CAUGHT" ]; do
	CAUGHT=$(psql -X -At -d "$DATABASE" -c "select query from pg_stat_activity where datname = current_database()
		and pid <> pg_backend_pid() and query ilike 'select%from metric_records%order by%' and query like '%\$2%' limit 1")
done
wait "$EXPORTING"
if [ -n "$CAUGHT" ] && ! grep -q '\$[3-9]' <<<"$CAUGHT"; then
	SELECT=$(tr '\n' ' ' <<<"$CAUGHT" | sed -e "s/\$1\b/'$PARTNER'/g" -e "s/\$2\b/'$USER_ID'/g")
	log "COPY runs the service's select: $SELECT"
else
	SELECT="select id, user_id, metrics::text as metrics, recorded_at, created_at from metric_records where partner_id = '$PARTNER' and user_id = '$USER_ID' order by recorded_at, id"
	log "the service's select was not caught; COPY runs: $SELECT"
fi
echo "$SELECT" >"$OUT/select.sql"
rows=$(psql -X -At -d "$DATABASE" -c "select count(*) from ($SELECT) s")
[ "$rows" = "$RECORDS" ] || fail "the select finds $rows rows, not $RECORDS"

log "warming up: $WARMUP exports and COPYs"
for _ in $(seq 1 "$WARMUP"); do export_once >/dev/null; copy_once >/dev/null; done

log "measuring: $RUNS exports and $RUNS COPYs, alternately"
: >"$WORK/export.s"
: >"$WORK/copy.s"
for run in $(seq 1 "$RUNS"); do
	e=$(export_once)
	c=$(copy_once)
	echo "$e" >>"$WORK/export.s"
	echo "$c" >>"$WORK/copy.s"
	log "run $run: export ${e} s, COPY ${c} s"
done
cp "$WORK/export.s" "$OUT/export-seconds.txt"
cp "$WORK/copy.s" "$OUT/copy-seconds.txt"

HEAP="heap not sampled (no MANAGEMENT_URL)"
if [ -n "${MANAGEMENT_URL:-}" ]; then
	log "one more export with the heap sampled every 100 ms"
	python3 bench/heap-sampler.py "$MANAGEMENT_URL" 0.1 "$OUT/heap-samples.txt" >"$WORK/heap.txt" &
	SAMPLER=$!
	sleep 0.3
	e=$(export_once)
	sleep 0.2
	kill -TERM "$SAMPLER"
	wait "$SAMPLER" || true
	HEAP="$(cat "$WORK/heap.txt") (export of ${e} s)"
fi

if [ "${PROFILE:-0}" = 1 ] && [ -n "$PID" ]; then
	log "10 more exports with a CPU profile"
	if [ -n "${ASYNC_PROFILER:-}" ]; then
		jcmd "$PID" JVMTI.agent_load "$ASYNC_PROFILER" '"start,event=cpu,interval=1ms"' >/dev/null
		for _ in $(seq 1 10); do export_once >/dev/null; done
		jcmd "$PID" JVMTI.agent_load "$ASYNC_PROFILER" "\"stop,file=$PWD/$OUT/export.collapsed,collapsed\"" >/dev/null
		python3 bench/collapsed-top.py "$OUT/export.collapsed" >"$OUT/export.top.txt" 2>/dev/null || true
	else
		jcmd "$PID" JFR.start name=export settings="$PWD/bench/cpu.jfc" filename="$PWD/$OUT/export.jfr" >/dev/null
		for _ in $(seq 1 10); do export_once >/dev/null; done
		jcmd "$PID" JFR.stop name=export >/dev/null
		python3 bench/jfr-top.py "$OUT/export.jfr" >"$OUT/export.top.txt" 2>/dev/null || true
	fi
	log "profile summary in $OUT/export.top.txt"
fi

python3 - "$RECORDS" "$WORK/export.s" "$WORK/copy.s" "$HEAP" <<'PY' | tee "$OUT/summary.txt"
import statistics, sys
records = int(sys.argv[1])
export = [float(x) for x in open(sys.argv[2]).read().split()]
copy = [float(x) for x in open(sys.argv[3]).read().split()]
def line(name, seconds):
    rates = sorted(records / s for s in seconds)
    return (f'{name:22s} median {statistics.median(rates):9.0f} rows/s   best {rates[-1]:9.0f}   worst {rates[0]:9.0f}'
            f'   ({len(seconds)} runs, median {statistics.median(seconds):.3f} s)')
print(f'{records} records, one user')
print(line('NDJSON export', export))
print(line('COPY ... TO STDOUT', copy))
print(f'ratio (median export rows/s / median COPY rows/s): {100 * statistics.median(copy) / statistics.median(export):.0f} %')
print(sys.argv[4])
PY
log "results in $OUT"
