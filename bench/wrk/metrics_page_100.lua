-- GET /api/v1/health/metrics?limit=100 for the user whose 100 records make changes_page.lua's feed
-- (FEED_KEY, FEED_USER): a page of 100 records, to compare a feed page with.
local common = require "common"

wrk.method = "GET"
wrk.path = string.format("/api/v1/health/metrics?user_id=%s&limit=100", common.env("FEED_USER"))
wrk.headers["x-api-key"] = common.env("FEED_KEY")

function done(summary, latency, requests)
   common.finish(summary, latency)
end
