#!/usr/bin/env bash
# Soak: mixed traffic at about 70 % of the service's capacity for MINUTES (default 30), sampling
# every second the heap used, live threads, open files, PostgreSQL connections and answers/s.
#
#   bench/soak.sh                 # 30 minutes
#   MINUTES=5 bench/soak.sh
#
# It builds target/health-partner-api.jar if missing, starts it in the prod profile on a fresh
# database bench_soak (port 18096, management 18097; the machine's PostgreSQL, PG* variables), onboards
# a partner, seeds 50 metrics records and 20 assessments, measures the capacity of the mix (four
# pages of metrics, two of assessments, three metrics posts and one assessment post in ten; 64
# connections, closed loop, 20 s after a 20 s warm-up), then runs the same mix with each of 64
# connections waiting between requests so that the rate is 70 % of it (SHARE, default 0.7).
# Output: bench/results/soak-<time>/ (samples.csv, soak.png, summary.txt, service.log).
# Needs wrk and python3-matplotlib (apt-get install -y wrk python3-matplotlib).
set -euo pipefail
cd "$(dirname "$0")/.."

MINUTES=${MINUTES:-30}
SHARE=${SHARE:-0.7}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres}
PORT=18096
ADMIN_TOKEN=soak-admin-token-0123456789
OUT=bench/results/soak-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
# the plot needs matplotlib: Debian's python3-matplotlib, for Debian's own python3 (a python3 of
# pyenv or a virtual environment earlier on PATH does not see it)
PLOT_PYTHON=python3
$PLOT_PYTHON -c 'import matplotlib' 2>/dev/null || PLOT_PYTHON=/usr/bin/python3
$PLOT_PYTHON -c 'import matplotlib' 2>/dev/null ||
	apt-get install -y -q python3-matplotlib >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q python3-matplotlib >/dev/null; }
$PLOT_PYTHON -c 'import matplotlib' || { echo "python3-matplotlib is needed for the plot" >&2; exit 1; }
# shellcheck source=bench/service.sh
. bench/service.sh
start_service bench_soak
KEY=$(onboard loadtest)
USER_ID=soak-member
for n in $(seq 1 50); do
	curl -sf -o /dev/null -X POST "$BASE/api/v1/health/metrics" -H "x-api-key: $KEY" -H 'content-type: application/json' \
		-d "{\"user_id\":\"$USER_ID\",\"recorded_at\":\"2025-03-$(printf %02d $((1 + n % 28)))T08:00:00Z\",\"metrics\":{\"weight\":7$((n % 10))}}"
done
for n in $(seq 1 20); do
	curl -sf -o /dev/null -X POST "$BASE/api/v1/health/assessments" -H "x-api-key: $KEY" -H 'content-type: application/json' \
		-d "{\"user_id\":\"$USER_ID\",\"responses\":{\"mood\":$n}}"
done

mix() { # connections seconds delay_ms
	SOAK_KEY=$KEY SOAK_USER=$USER_ID SOAK_DELAY_MS=$3 wrk -t2 -c"$1" -d"$2s" --timeout 10s -s bench/soak/mixed.lua "$BASE" |
		grep '^RESULT'
}
log "warm-up"
mix 64 20 0 >/dev/null
capacity=$(mix 64 20 0)
rps=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$capacity")
# each connection sends one request per (delay + its latency at that load): a first guess that
# ignores the latency, 15 s at it, then the delay corrected by the latency seen
rate() { sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$1"; }
delay=$(python3 -c "print(max(1, round(64 * 1000 / ($rps * $SHARE))))")
trial=$(rate "$(mix 64 15 "$delay")")
delay=$(python3 -c "print(max(1, round(64 * 1000 / ($rps * $SHARE) - (64 * 1000 / $trial - $delay))))")
log "capacity $capacity; soak at $SHARE of it ($(python3 -c "print(round($rps * $SHARE))") requests/s): 64 connections, ${delay} ms between a connection's requests"
seconds=$((MINUTES * 60))
python3 bench/soak/sample.py "http://127.0.0.1:$((PORT + 1))" "$PID" bench_soak "$seconds" >"$OUT/samples.csv" &
SAMPLER=$!
soak=$(mix 64 "$seconds" "$delay")
wait $SAMPLER
echo "$soak" >"$OUT/wrk.txt"
$PLOT_PYTHON bench/soak/plot.py "$OUT/samples.csv" "$OUT/soak.png" "soak: ${MINUTES} min of mixed traffic at ${SHARE} of capacity"
python3 - "$OUT/samples.csv" "$capacity" "$soak" <<'PY' | tee "$OUT/summary.txt"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("capacity (closed loop, 64 connections):", sys.argv[2])
print("soak:", sys.argv[3])
for column in ("answers_per_s", "heap_mb", "threads", "open_files", "db_connections"):
    values = [float(r[column]) for r in rows]
    first, last = values[: max(1, len(values) // 10)], values[-max(1, len(values) // 10):]
    print(f"{column:15s} min {min(values):8.1f}  max {max(values):8.1f}  "
          f"mean of the first tenth {sum(first) / len(first):8.1f}  of the last tenth {sum(last) / len(last):8.1f}")
PY
log "results in $OUT"
