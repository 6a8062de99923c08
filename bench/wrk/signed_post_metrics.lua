-- POST /api/v1/health/metrics as post_metrics.lua, each request signed (x-signature) by the bench
-- partner's secret. A write's signature is accepted once, so every request has a body and signature
-- of its own, made beforehand by bench/sign.py into SIGNED_FILE<thread> (a line each: signature TAB
-- body); a thread that runs out starts over, and its replays are answered 401 (counted as non-2xx).
local common = require "common"
local threads = require "threads"

local key = common.env("BENCH_KEY")
local prefix = common.env("SIGNED_FILE")

threads.rotating(function(thread_no)
   local requests = {}
   for line in io.lines(prefix .. thread_no) do
      local tab = line:find("\t", 1, true)
      table.insert(requests, wrk.format("POST", "/api/v1/health/metrics",
         { ["Content-Type"] = "application/json", ["x-api-key"] = key, ["x-signature"] = line:sub(1, tab - 1) },
         line:sub(tab + 1)))
   end
   return requests
end)
