-- POST /api/v1/health/metrics as post_metrics.lua of the shared harness (16 users a thread), each
-- request with a client_record_id of its own (version 0): the create path of a partner that syncs
-- with client record ids, to compare with the plain POST.
local common = require "common"
local threads = require "threads"

local key = common.env("BENCH_KEY")
threads.numbered()

local n, run

function init(args)
   n, run = 0, tostring(os.time())
end

function request()
   n = n + 1
   local body = string.format(
      '{"user_id":"u-post-%d-%d","client_record_id":"c-%s-%d-%d","metrics":{"weight":72.5,"resting_heart_rate":58}}',
      thread_no, n % 16, run, thread_no, n)
   return wrk.format("POST", "/api/v1/health/metrics",
      { ["Content-Type"] = "application/json", ["x-api-key"] = key }, body)
end
