-- A partner's mix, closed loop: of every ten requests four read the GET metrics page (50 records,
-- GET_METRICS_USER), two the GET assessments page (20 records, GET_ASSESSMENTS_USER), three post a
-- metrics record and one an assessment (16 users a thread), all with the bench-plan key (BENCH_KEY).
local common = require "common"
local threads = require "threads"

local key = common.env("BENCH_KEY")

threads.rotating(function(thread_no)
   local headers = { ["Content-Type"] = "application/json", ["x-api-key"] = key }
   local metrics_page = wrk.format("GET", string.format(
      "/api/v1/health/metrics?user_id=%s&start_date=%s&end_date=%s&limit=100",
      common.env("GET_METRICS_USER"), common.env("START_DATE", "2025-01-01"), common.env("END_DATE", "2025-12-31")),
      { ["x-api-key"] = key })
   local assessments_page = wrk.format("GET",
      "/api/v1/health/assessments?user_id=" .. common.env("GET_ASSESSMENTS_USER"), { ["x-api-key"] = key })
   local requests = {}
   -- 16 rounds of ten, so that the writes rotate over 16 users
   for round = 1, 16 do
      local user = string.format("u-mix-%d-%d", thread_no, round)
      local post_metrics = wrk.format("POST", "/api/v1/health/metrics", headers, string.format(
         '{"user_id":"%s","metrics":{"weight":72.5,"resting_heart_rate":58}}', user))
      local post_assessment = wrk.format("POST", "/api/v1/health/assessments", headers, string.format(
         '{"user_id":"%s","responses":{"smoker":false,"activity_level":"moderate","sleep_hours":7,"stress":3}}', user))
      for _, r in ipairs({ metrics_page, post_metrics, assessments_page, metrics_page, post_metrics,
                           metrics_page, assessments_page, post_assessment, metrics_page, post_metrics }) do
         table.insert(requests, r)
      end
   end
   return requests
end)
