-- Mixed traffic for bench/soak.sh: of every ten requests four read a page of metrics, two a page
-- of assessments, three post a metrics record and one an assessment (SOAK_KEY, SOAK_USER). Each
-- connection waits SOAK_DELAY_MS before each request, which sets the rate; every answer other
-- than 200 or 201 is counted.
local key = os.getenv("SOAK_KEY")
local user = os.getenv("SOAK_USER")
local pause = tonumber(os.getenv("SOAK_DELAY_MS") or "0")
counter = 0
others = 0
local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function request()
   counter = counter + 1
   local kind = counter % 10
   local headers = { ["x-api-key"] = key, ["content-type"] = "application/json" }
   if kind < 4 then
      return wrk.format("GET", "/api/v1/health/metrics?user_id=" .. user .. "&limit=50", headers)
   elseif kind < 6 then
      return wrk.format("GET", "/api/v1/health/assessments?user_id=" .. user .. "&limit=20", headers)
   elseif kind < 9 then
      return wrk.format("POST", "/api/v1/health/metrics", headers,
         '{"user_id":"' .. user .. '-w","metrics":{"steps":' .. (counter % 10000) .. '}}')
   end
   return wrk.format("POST", "/api/v1/health/assessments", headers,
      '{"user_id":"' .. user .. '-w","responses":{"sleep":' .. (counter % 10) .. '}}')
end

-- defined only for a paced run: with it, wrk times every request, which slows a closed loop down
if pause > 0 then
   function delay()
      return pause
   end
end

function response(status, headers, body)
   if status ~= 200 and status ~= 201 then
      others = others + 1
   end
end

function done(summary, latency, requests)
   local bad = 0
   for _, t in ipairs(threads) do bad = bad + t:get("others") end
   io.write(string.format("RESULT requests=%d rps=%.1f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f not_2xx=%d socket_errors=%d\n",
      summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
      latency:percentile(99) / 1000, latency.max / 1000, bad,
      summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
