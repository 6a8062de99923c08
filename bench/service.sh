# Sourced by bench/profile.sh, ab.sh, erasure.sh, ingest.sh, ab-batches.sh, soak.sh and webhooks.sh: the service started on a fresh database and
# partners onboarded through the admin API. Needs PORT, ADMIN_TOKEN, OUT and the PG* variables.

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# ports_free PORT...: stops the script if something listens on one of them (bench/ab.sh and
# bench/profile.sh both use 18094, and a second script would recreate the first one's database).
ports_free() {
	local port
	for port in "$@"; do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			log "port $port is taken (another bench/ab.sh or bench/profile.sh running?)"
			exit 1
		fi
	done
}

# sign WORKLOAD SECRET SECONDS FILE USER: a signed workload's signatures, made with the partner's
# SECRET just before its run into FILE (the POSTs' into FILE1 and FILE2, one a wrk thread; the GET's one
# signature, for USER's page of metrics): a signature is valid for 300 s and a write's is accepted once;
# 25,000 writes a second are more than this machine serves, and a run that runs out sends replays,
# answered 401 and counted. Any other workload: nothing.
sign() {
	case $1 in
	signed_post_metrics) python3 bench/sign.py "$2" post $((25000 * $3)) 2 "$4" ;;
	signed_get_metrics) python3 bench/sign.py "$2" get "/api/v1/health/metrics?user_id=$5&start_date=${START_DATE:-2025-01-01}&end_date=${END_DATE:-2025-12-31}&limit=100" "$4" ;;
	esac
}

# cpu_ticks PID: the process's user + system CPU so far, in clock ticks (CLK_TCK a second)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
CLK_TCK=$(getconf CLK_TCK)

json() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

# start_service DATABASE: builds target/health-partner-api.jar if missing (or runs JAR if set), recreates
# DATABASE, starts the jar in the prod profile on PORT (management PORT + 1) with plans up to 10^9 a minute, waits until
# it is ready; sets PID and BASE and stops the service when the script exits.
start_service() {
	local database=$1
	local jar=${JAR:-target/health-partner-api.jar}
	[ -f "$jar" ] || ./mvnw -B -q -DskipTests package
	# before its database is recreated: a script still running on these ports uses it
	ports_free "$PORT" $((PORT + 1))
	psql -d postgres -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" -c "CREATE DATABASE $database" >/dev/null
	# shellcheck disable=SC2086
	SPRING_PROFILES_ACTIVE=prod SERVER_PORT=$PORT MANAGEMENT_SERVER_PORT=$((PORT + 1)) \
	SPRING_R2DBC_URL="r2dbc:postgresql://$PGHOST:$PGPORT/$database" SPRING_R2DBC_USERNAME=$PGUSER \
	SPRING_R2DBC_PASSWORD=$PGPASSWORD APP_ADMIN_TOKEN=$ADMIN_TOKEN \
	APP_SECRET_ENCRYPTION_KEY=$(printf '0123456789abcdef0123456789abcdef' | base64) \
	APP_PLANS=default=60,enterprise=300,loadtest=1000000000 APP_REGISTRATION_LIMIT_PER_HOUR=1000 \
		java ${JAVA_OPTS:-} -jar "$jar" >"$OUT/service.log" 2>&1 &
	PID=$!
	# under set -e a failed kill (the script stopped the jar itself) would end the script with status 1
	trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true' EXIT
	for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$((PORT + 1))/actuator/health/readiness" && break; sleep 0.5; done
	BASE=http://127.0.0.1:$PORT
}

# flush_writes DATABASE: PostgreSQL's dirty pages written (CHECKPOINT) and the kernel's (sync), so that a measured
# run does not pay for the writes of what ran before it (a checkpoint falls on the run at a point of its own,
# the kernel writes back a warm-up's gigabytes about 30 s later).
flush_writes() {
	psql -d "$1" -qc CHECKPOINT >/dev/null
	sync
}

# seed_metrics KEY USER: 50 metrics records of USER, a day apart from 2025-01-01 (the shared harness's
# GET metrics page).
seed_metrics() {
	local n day
	for n in $(seq 0 49); do
		day=$(date -u -d "2025-01-01 08:00:00 UTC + $n days" +%Y-%m-%dT%H:%M:%SZ)
		curl -sf -o /dev/null -X POST "$BASE/api/v1/health/metrics" -H "x-api-key: $1" -H 'content-type: application/json' \
			-d "{\"user_id\":\"$2\",\"metrics\":{\"weight\":$((725 + n))e-1,\"resting_heart_rate\":$((58 + n % 5))},\"recorded_at\":\"$day\"}"
	done
}

# seed_assessments KEY USER: 20 weekly check-ins of USER (the shared harness's GET assessments page).
seed_assessments() {
	local n
	for n in $(seq 0 19); do
		curl -sf -o /dev/null -X POST "$BASE/api/v1/health/assessments" -H "x-api-key: $1" -H 'content-type: application/json' \
			-d "{\"user_id\":\"$2\",\"responses\":{\"smoker\":false,\"activity_level\":\"moderate\",\"sleep_hours\":7,\"stress\":$((1 + n % 5)),\"diet\":\"mixed\",\"alcohol_units_per_week\":$((n % 7)),\"goals\":[\"weight_loss\",\"endurance\"],\"notes\":\"weekly check-in $n\"}}"
	done
}

# credentials PLAN [EMAIL]: registers and approves a partner on PLAN; prints its API key and its secret
# (for signed requests), separated by a space.
credentials() {
	local email=${2:-bench-$1-$(date +%s%N)@example.com} reg
	reg=$(curl -sf -X POST "$BASE/api/v1/auth" -H 'content-type: application/json' \
		-d "{\"email\":\"$email\",\"partner_name\":\"Bench $1\"}" | json registration_id)
	curl -sf -X POST "$BASE/admin/v1/registrations/$reg/approve" -H "authorization: Bearer $ADMIN_TOKEN" \
		-H 'content-type: application/json' -d "{\"plan\":\"$1\"}" |
		python3 -c "import json,sys; a = json.load(sys.stdin); print(a['api_key'], a['api_secret'])"
}

# onboard PLAN [EMAIL]: registers and approves a partner on PLAN; prints its API key.
onboard() {
	local answer
	answer=$(credentials "$@")
	echo "${answer%% *}"
}
