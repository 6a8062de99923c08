-- GET /api/v1/health/metrics with Accept: application/x-ndjson for GET_METRICS_USER (50 records):
-- the NDJSON export of a small member, whole, per request. A partner runs at most 2 exports at once,
-- so run it with -c2 or fewer (bench/profile.sh does): a third connection would be answered 429.
local common = require "common"

wrk.method = "GET"
wrk.path = string.format("/api/v1/health/metrics?user_id=%s&start_date=%s",
   common.env("GET_METRICS_USER"), common.env("START_DATE", "2025-01-01"))
wrk.headers["x-api-key"] = common.env("BENCH_KEY")
wrk.headers["Accept"] = "application/x-ndjson"

function done(summary, latency, requests)
   common.finish(summary, latency)
end
