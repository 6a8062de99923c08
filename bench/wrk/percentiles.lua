-- Runs the workload script WORKLOAD (a path, e.g. the shared harness's get_assessments.lua) and
-- prints, instead of its result line, one with the latency's tail: requests/s, requests, p50, p90, p99 and
-- p99.9 in ms, and the errors (bench/ab.sh): failed connections, reads, writes and timeouts, and
-- answers other than 2xx except on the 429 path, whose answers are 429s. Needs the harness's folder
-- on LUA_PATH.
local workload = os.getenv("WORKLOAD")
dofile(workload)
local statuses_count = not workload:find("rate_limited", 1, true)

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format("PCT rps=%.1f requests=%d p50=%.2f p90=%.2f p99=%.2f p999=%.2f errors=%d\n",
      summary.requests / (summary.duration / 1e6), summary.requests, latency:percentile(50) / 1000,
      latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000,
      e.connect + e.read + e.write + e.timeout + (statuses_count and e.status or 0)))
end
