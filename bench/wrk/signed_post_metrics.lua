-- POST /api/v1/health/metrics as post_metrics.lua, each request signed (x-signature) by the bench
-- partner's secret. A write's signature is accepted once, so every request has a body and signature
-- of its own, made beforehand by bench/sign.py into SIGNED_FILE<thread> (a line each: signature TAB
-- body); a thread that runs out starts over, and its replays are answered 401 (counted as non-2xx).
local common = require "common"

local key = common.env("BENCH_KEY")
local prefix = common.env("SIGNED_FILE")
local thread_count = 0

function setup(thread)
   thread_count = thread_count + 1
   thread:set("thread_no", thread_count)
end

local requests, i

-- every request formatted here, before the run, as post_metrics.lua does: formatting each in
-- request() cost wrk CPU that the service and PostgreSQL share the cores with
function init(args)
   requests, i = {}, 0
   for line in io.lines(prefix .. thread_no) do
      local tab = line:find("\t", 1, true)
      table.insert(requests, wrk.format("POST", "/api/v1/health/metrics",
         { ["Content-Type"] = "application/json", ["x-api-key"] = key, ["x-signature"] = line:sub(1, tab - 1) },
         line:sub(tab + 1)))
   end
end

function request()
   i = i % #requests + 1
   return requests[i]
end

function done(summary, latency, requests)
   common.finish(summary, latency)
end
