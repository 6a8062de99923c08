-- POST /api/v1/health/assessments with the bench-plan key (BENCH_KEY): as post_metrics.lua of the
-- shared harness, every thread rotates over 16 user ids of its own (u-post-a-<thread>-<n>); the
-- body is a weekly check-in of eight answers, the shape of the GET assessments page's records.
local common = require "common"

local key = common.env("BENCH_KEY")
local users_per_thread = 16
local thread_count = 0

function setup(thread)
   thread_count = thread_count + 1
   thread:set("thread_no", thread_count)
end

local requests, n, i

function init(args)
   requests, n, i = {}, users_per_thread, 0
   for u = 1, users_per_thread do
      local body = string.format(
         '{"user_id":"u-post-a-%d-%d","responses":{"smoker":false,"activity_level":"moderate",' ..
         '"sleep_hours":7,"stress":%d,"diet":"mixed","alcohol_units_per_week":%d,' ..
         '"goals":["weight_loss","endurance"],"notes":"weekly check-in"}}', thread_no, u, 1 + u % 5, u % 7)
      requests[u] = wrk.format("POST", "/api/v1/health/assessments",
         { ["Content-Type"] = "application/json", ["x-api-key"] = key }, body)
   end
end

function request()
   i = i % n + 1
   return requests[i]
end

function done(summary, latency, requests)
   common.finish(summary, latency)
end
