#!/usr/bin/env bash
# Webhooks under load, in one run (docs/performance.md, Webhooks):
#
# - writes do not wait for webhooks: the shared harness's POST metrics workload (CONNECTIONS
#   connections, DURATION seconds) without any endpoint, then ROUNDS times: with five endpoints
#   receiving every change (five receivers on 127.0.0.1; after a warm-up of HOOKS_WARMUP seconds with them
#   in the first round), then without again (the endpoints deleted); requests/s of each, the share
#   with webhooks of the mean of the runs without on either side, and how long the messages took to
#   drain after the run (one pair alone moved by +-30 % on a noisy VM, hence the rounds, and their sum over
#   all rounds); a CHECKPOINT and a sync before each run;
# - on time at volume: RATE changes a second for DURATION seconds (paced POSTs of a record each, 1,000
#   users) to a partner with one endpoint on 127.0.0.1: the time from each write's answer to its
#   message's arrival (p50, p90, p99, max) and the messages missing.
#
# Nothing is asserted; it prints numbers. Every receiver runs on this machine's loopback address
# (bench/webhooks.mjs, Node); the service is started with APP_WEBHOOKS_ALLOW_HTTP=true and
# APP_WEBHOOKS_ALLOWED_HOSTS=127.0.0.1 for that, on a fresh database bench_webhooks (port 18094,
# management 18095), from target/health-partner-api.jar (built if missing).
#
#   bench/webhooks.sh
#
# Environment: RATE (1000), CONNECTIONS (64), DURATION (20), WARMUP (60: a fresh JVM on these 2 cores
# gets faster for about a minute of POST, as in the shared harness; with 10 s the runs without webhooks
# rose from 5,878 to 8,576 req/s through one run), HOOKS_WARMUP (10: the first round's warm-up with the
# endpoints, whose messages are all sent before it starts), ROUNDS (3), JAVA_OPTS, HARNESS
# (../shared/bench), PGHOST, PGPORT, PGUSER, PGPASSWORD. Output: the terminal and
# bench/results/webhooks-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."

RATE=${RATE:-1000}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-60}
HOOKS_WARMUP=${HOOKS_WARMUP:-10}
ROUNDS=${ROUNDS:-3}
HARNESS=$(cd "${HARNESS:-../shared/bench}" && pwd)
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
PORT=18094
ADMIN_TOKEN=webhooks-admin-token-0123456789
OUT=bench/results/webhooks-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
# the receivers are on this machine's loopback address only
export APP_WEBHOOKS_ALLOW_HTTP=true APP_WEBHOOKS_ALLOWED_HOSTS=127.0.0.1
# shellcheck source=bench/service.sh
. bench/service.sh
start_service bench_webhooks
KEY=$(onboard loadtest)
export BENCH_KEY=$KEY

hot() { (cd "$HARNESS/wrk" && LUA_PATH="$HARNESS/wrk/?.lua;;" wrk -t2 -c"$CONNECTIONS" -d"$1" --timeout 10s -s post_metrics.lua "$BASE") | grep '^RESULT'; }
field() { grep -Eo "$1=[0-9.]+" <<<"$2" | cut -d= -f2; }
open_deliveries() { psql -d bench_webhooks -Atc "select count(*) from webhook_deliveries where status in ('pending', 'failing')"; }

log "warm-up: ${WARMUP}s of POST metrics"
hot "${WARMUP}s" >/dev/null
log "POST metrics without webhooks, ${DURATION}s"
# flush_writes (bench/service.sh) before each measured run: at 13,000 writes a second a checkpoint starts every
# 15-25 s of writing, and without it each run met them at a different point (the runs with endpoints right
# after a run without, those without after minutes of draining)
flush_writes bench_webhooks
PREVIOUS=$(hot "${DURATION}s")
ms() { python3 -c "print(round($(field p99_us "$1") / 1000, 1))"; }

RECEIVER_PORTS=(18201 18202 18203 18204 18205)
node bench/webhooks.mjs receive "${RECEIVER_PORTS[@]}" >"$OUT/receivers.txt" 2>"$OUT/receivers.log" &
RECEIVERS=$!
# errexit holds in the trap too: a receiver already gone must not keep the service running
trap 'kill $RECEIVERS 2>/dev/null || true; kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true' EXIT
until grep -qs ready "$OUT/receivers.txt"; do sleep 0.1; done
succeeded() { psql -d bench_webhooks -Atc "select count(*) from webhook_deliveries where status = 'succeeded'"; }
changes() { psql -d bench_webhooks -Atc "select count(*) from changes"; }
ROWS=()
for round in $(seq "$ROUNDS"); do
	HOOKS=()
	for port in "${RECEIVER_PORTS[@]}"; do
		HOOKS+=("$(curl -sf -X POST "$BASE/api/v1/webhooks" -H "x-api-key: $KEY" -H 'content-type: application/json' \
			-d "{\"url\":\"http://127.0.0.1:$port/hooks\"}" | json webhook_id)")
	done
	if [ "$round" = 1 ]; then
		log "warm-up with the endpoints: ${HOOKS_WARMUP}s of POST metrics, then their messages sent"
		WARM_BEFORE=$(changes)
		hot "${HOOKS_WARMUP}s" >/dev/null
		WARM_WRITTEN=$(( $(changes) - WARM_BEFORE ))
		while [ "$(succeeded)" -lt "$((WARM_WRITTEN * 5))" ] || [ "$(open_deliveries)" -gt 0 ]; do sleep 0.5; done
	fi
	log "round $round: POST metrics with 5 endpoints receiving every change, ${DURATION}s"
	BEFORE=$(changes)
	SENT_BEFORE=$(succeeded)
	flush_writes bench_webhooks
	HOOKED=$(hot "${DURATION}s")
	ENDED=$(date +%s.%N)
	WRITTEN=$(( $(changes) - BEFORE ))
	SENT_DURING=$(( $(succeeded) - SENT_BEFORE ))
	# every change of the run sent to all five
	while [ "$(( $(succeeded) - SENT_BEFORE ))" -lt "$((WRITTEN * 5))" ] || [ "$(open_deliveries)" -gt 0 ]; do sleep 0.5; done
	DRAINED=$(python3 -c "print(round($(date +%s.%N) - $ENDED, 1))")
	for id in "${HOOKS[@]}"; do
		curl -sf -o /dev/null -X DELETE "$BASE/api/v1/webhooks/$id" -H "x-api-key: $KEY"
	done
	# the deleted endpoints' deliveries are deleted in the background (DeliveryRetention): done before the next run
	until [ "$(psql -d bench_webhooks -Atc "select count(*) from webhook_deliveries where webhook_id in (select id from webhooks_deleted)")" = 0 ]; do sleep 1; done
	log "round $round: POST metrics without webhooks again, ${DURATION}s"
	flush_writes bench_webhooks
	AGAIN=$(hot "${DURATION}s")
	ROWS+=("| $round | $(field rps "$PREVIOUS") | $(field rps "$HOOKED") ($(ms "$HOOKED") ms) | $(field rps "$AGAIN") | **$(python3 -c "print(round(100 * $(field rps "$HOOKED") / (($(field rps "$PREVIOUS") + $(field rps "$AGAIN")) / 2)))") %** | $(python3 -c "print(round(100 * $(field rps "$HOOKED") / $(field rps "$AGAIN")))") % | $WRITTEN | $SENT_DURING | $DRAINED s |")
	SUM_WITH="${SUM_WITH:-0} + $(field rps "$HOOKED")"
	SUM_WITHOUT="${SUM_WITHOUT:-0} + ($(field rps "$PREVIOUS") + $(field rps "$AGAIN")) / 2"
	PREVIOUS=$AGAIN
done
kill $RECEIVERS
wait $RECEIVERS || true

log "$RATE changes a second for ${DURATION}s to one endpoint"
KEY2=$(onboard loadtest)
WRITER_PORT=18206
# the writer's receiver listens first, the endpoint is added, then the writes start
node bench/webhooks.mjs write "$BASE" "$KEY2" "$RATE" "$DURATION" "$WRITER_PORT" "$OUT/go" >"$OUT/latency.txt" 2>"$OUT/latency.log" &
WRITER=$!
until grep -qs ready "$OUT/latency.txt"; do sleep 0.1; done
curl -sf -o /dev/null -X POST "$BASE/api/v1/webhooks" -H "x-api-key: $KEY2" -H 'content-type: application/json' \
	-d "{\"url\":\"http://127.0.0.1:$WRITER_PORT/hooks\"}"
touch "$OUT/go"
wait $WRITER
LATENCY=$(grep '^RESULT' "$OUT/latency.txt")

{
	echo
	echo "| round: POST metrics, $CONNECTIONS connections, ${DURATION}s, req/s | without, before | with 5 endpoints receiving every change (p99) | without, after | with, of the mean without | with, of the run after | changes written with | messages sent during the run | the rest sent within |"
	echo "|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${ROWS[@]}"
	echo
	echo "All $ROUNDS rounds: the writes with five endpoints at **$(python3 -c "print(round(100 * ($SUM_WITH) / ($SUM_WITHOUT)))") %** of the mean of the runs without around them."
	echo
	echo "Each change written with the endpoints made five messages; \"without, before\" of a round is the run without of the round before (the first: after ${WARMUP}s of warm-up)."
	echo
	echo "| $RATE changes/s for ${DURATION}s, one endpoint | writes | answered | messages | missing | p50 | p90 | p99 | max |"
	echo "|---|---|---|---|---|---|---|---|---|"
	echo "| from the write's answer to the message's arrival | $(field writes "$LATENCY") in $(field seconds "$LATENCY") s | $(field answered "$LATENCY") | $(field messages "$LATENCY") | $(field missing "$LATENCY") | $(field p50_ms "$LATENCY") ms | $(field p90_ms "$LATENCY") ms | $(field p99_ms "$LATENCY") ms | $(field max_ms "$LATENCY") ms |"
} | tee "$OUT/summary.md"
