-- POST /api/v1/health/assessments with the bench-plan key (BENCH_KEY): as post_metrics.lua of the
-- shared harness, every thread rotates over 16 user ids of its own (u-post-a-<thread>-<n>); the
-- body is a weekly check-in of eight answers, the shape of the GET assessments page's records.
local common = require "common"
local threads = require "threads"

local key = common.env("BENCH_KEY")

threads.rotating(function(thread_no)
   local requests = {}
   for u = 1, 16 do
      local body = string.format(
         '{"user_id":"u-post-a-%d-%d","responses":{"smoker":false,"activity_level":"moderate",' ..
         '"sleep_hours":7,"stress":%d,"diet":"mixed","alcohol_units_per_week":%d,' ..
         '"goals":["weight_loss","endurance"],"notes":"weekly check-in"}}', thread_no, u, 1 + u % 5, u % 7)
      requests[u] = wrk.format("POST", "/api/v1/health/assessments",
         { ["Content-Type"] = "application/json", ["x-api-key"] = key }, body)
   end
   return requests
end)
