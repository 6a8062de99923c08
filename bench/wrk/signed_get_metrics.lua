-- The GET metrics page of the shared harness's get_metrics.lua, signed (x-signature) by the
-- partner's secret: a read's signature may be sent again, so bench/sign.py makes one, valid for
-- 300 s, into SIGNED_FILE, and every request carries it.
local common = require "common"

wrk.method = "GET"
wrk.path = string.format("/api/v1/health/metrics?user_id=%s&start_date=%s&end_date=%s&limit=100",
   common.env("GET_METRICS_USER"), common.env("START_DATE", "2025-01-01"), common.env("END_DATE", "2025-12-31"))
wrk.headers["x-api-key"] = common.env("BENCH_KEY")
wrk.headers["x-signature"] = io.open(common.env("SIGNED_FILE")):read("*l")

function done(summary, latency, requests)
   common.finish(summary, latency)
end
