-- GET /api/v1/health/changes?limit=100 with the key of a partner whose feed holds exactly 100
-- changes (FEED_KEY: the created changes of 100 metrics records): one page of 100 changes, each with
-- its record.
local common = require "common"

wrk.method = "GET"
wrk.path = "/api/v1/health/changes?limit=100"
wrk.headers["x-api-key"] = common.env("FEED_KEY")

function done(summary, latency, requests)
   common.finish(summary, latency)
end
