#!/usr/bin/env bash
# Measures the health-data endpoints of a running service and prints numbers (nothing is asserted).
#
#   APP_ADMIN_TOKEN=… bench/health-data.sh [records] [concurrency]
#
# BASE (default http://localhost:8080) is the service; PLAN (default enterprise) the plan of the
# partner it onboards. Plans limit requests per minute: to measure more than a plan allows, start the
# service with a high plan, e.g. APP_PLANS=default=60,enterprise=300,bench=1000000, and run with
# PLAN=bench. Needs bash, awk and curl 7.66 or later.
set -euo pipefail

BASE=${BASE:-http://localhost:8080}
PLAN=${PLAN:-enterprise}
RECORDS=${1:-2000}
CONCURRENCY=${2:-8}
: "${APP_ADMIN_TOKEN:?set APP_ADMIN_TOKEN to the admin token of the service}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

json_field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }

# Prints count, mean and percentiles of the seconds in a file, as milliseconds.
latencies() {
	sort -n "$1" | awk '{ t[NR] = $1 * 1000; sum += t[NR] }
		END { printf "n=%d mean=%.1fms p50=%.1fms p95=%.1fms p99=%.1fms max=%.1fms\n", NR, sum / NR,
			t[int(NR * 0.50) + (NR * 0.50 > int(NR * 0.50))], t[int(NR * 0.95) + (NR * 0.95 > int(NR * 0.95))],
			t[int(NR * 0.99) + (NR * 0.99 > int(NR * 0.99))], t[NR] }'
}

unique=$(date +%s%N)
registration=$(curl -sf -X POST "$BASE/api/v1/auth" -H 'Content-Type: application/json' \
	-d "{\"email\": \"bench+$unique@bench.example\", \"partner_name\": \"Bench $unique\"}" | json_field registration_id)
KEY=$(curl -sf -X POST "$BASE/admin/v1/registrations/$registration/approve" \
	-H "Authorization: Bearer $APP_ADMIN_TOKEN" -H 'Content-Type: application/json' \
	-d "{\"plan\": \"$PLAN\"}" | json_field api_key)
USER_ID="bench-$unique"
echo "partner on plan $PLAN, user $USER_ID, $RECORDS records, concurrency $CONCURRENCY"

# A curl config of metrics POSTs number $1..$2: one curl process sends them all (over kept-alive
# connections), so the numbers measure the service rather than process start-ups.
metric_posts() {
	for i in $(seq "$1" "$2"); do
		if [ "$i" -gt "$1" ]; then echo next; fi
		cat <<-CONFIG
			url = "$BASE/api/v1/health/metrics"
			request = "POST"
			header = "x-api-key: $KEY"
			header = "Content-Type: application/json"
			data = "{\\"user_id\\": \\"$USER_ID\\", \\"metrics\\": {\\"weight\\": $((60 + i % 40)), \\"steps\\": $i, \\"resting_heart_rate\\": 58}, \\"recorded_at\\": \\"2026-01-01T00:00:00Z\\"}"
			output = "/dev/null"
			write-out = "%{http_code} %{time_total}\\n"
		CONFIG
	done
}

check_created() {
	awk '$1 != 201 { bad[$1]++ } END { for (c in bad) print bad[c] " writes answered " c }' "$1"
}

# 1. sequential writes: latency of one request at a time
metric_posts 1 200 > "$WORK/sequential.config"
curl -s -K "$WORK/sequential.config" > "$WORK/sequential"
check_created "$WORK/sequential"
echo -n "POST metrics, sequential:      "; awk '{ print $2 }' "$WORK/sequential" > "$WORK/s" && latencies "$WORK/s"

# 2. concurrent writes: throughput
metric_posts 201 "$RECORDS" > "$WORK/concurrent.config"
start=$(date +%s.%N)
curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max "$CONCURRENCY" -K "$WORK/concurrent.config" > "$WORK/concurrent"
elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
check_created "$WORK/concurrent"
echo -n "POST metrics, $CONCURRENCY in parallel:   "; awk '{ print $2 }' "$WORK/concurrent" > "$WORK/c" && latencies "$WORK/c"
awk -v n="$(wc -l < "$WORK/concurrent")" -v s="$elapsed" \
	'BEGIN { printf "                               %d requests in %.2fs = %.0f requests/s\n", n, s, n / s }'

# 3. reading pages of 100 (all records share one time: pages are ordered by id)
for i in $(seq 1 100); do
	if [ "$i" -gt 1 ]; then echo next; fi
	printf 'url = "%s"\nheader = "x-api-key: %s"\noutput = "/dev/null"\nwrite-out = "%%{time_total}\\n"\n' \
		"$BASE/api/v1/health/metrics?user_id=$USER_ID&limit=100" "$KEY"
done > "$WORK/pages.config"
curl -s -K "$WORK/pages.config" > "$WORK/pages"
echo -n "GET page of 100:               "; latencies "$WORK/pages"

# 4. NDJSON export of every record
curl -s -o "$WORK/export.ndjson" -w '%{http_code} %{size_download} %{time_total}\n' \
	"$BASE/api/v1/health/metrics?user_id=$USER_ID" -H "x-api-key: $KEY" -H 'Accept: application/x-ndjson' > "$WORK/export"
read -r code bytes seconds < "$WORK/export"
lines=$(wc -l < "$WORK/export.ndjson")
awk -v c="$code" -v n="$lines" -v b="$bytes" -v s="$seconds" \
	'BEGIN { printf "NDJSON export:                 status %s, %d records, %d bytes in %.2fs = %.0f records/s, %.1f MB/s\n", c, n, b, s, n / s, b / s / 1e6 }'
