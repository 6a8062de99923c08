-- POST /api/v1/health/metrics with one of 16 client_record_ids a thread and an ever higher
-- client_record_version: every request after the first of an id replaces the stored record
-- (Record-Outcome: updated).
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
      '{"user_id":"u-upd-%d","client_record_id":"u-%s-%d-%d","client_record_version":%d,"metrics":{"weight":72.5}}',
      thread_no, run, thread_no, n % 16, n)
   return wrk.format("POST", "/api/v1/health/metrics",
      { ["Content-Type"] = "application/json", ["x-api-key"] = key }, body)
end
