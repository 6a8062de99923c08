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

local lines, i

function init(args)
   lines, i = {}, 0
   for line in io.lines(prefix .. thread_no) do
      table.insert(lines, line)
   end
end

function request()
   i = i % #lines + 1
   local tab = lines[i]:find("\t", 1, true)
   return wrk.format("POST", "/api/v1/health/metrics",
      { ["Content-Type"] = "application/json", ["x-api-key"] = key, ["x-signature"] = lines[i]:sub(1, tab - 1) },
      lines[i]:sub(tab + 1))
end

function done(summary, latency, requests)
   common.finish(summary, latency)
end
