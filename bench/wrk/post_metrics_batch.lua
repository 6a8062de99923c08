-- POST /api/v1/health/metrics/batch with BATCH records a request (default 500), each a new record of
-- one of USERS_PER_BATCH users (default BATCH: a user each), with the partner's key BENCH_KEY, as
-- every workload (bench/ingest.sh, bench/ab-batches.sh, bench/ab.sh and bench/profile.sh set it;
-- bench/ingest.sh also BATCH and USERS_PER_BATCH). Prints the harness's RESULT line at the end (a
-- request is a batch), so it needs the harness's folder on LUA_PATH, as bench/wrk's write scripts do.
-- wrk counts answers other than 2xx.
local common = require "common"
local key = os.getenv("BENCH_KEY")
local size = tonumber(os.getenv("BATCH") or "500")
local users = tonumber(os.getenv("USERS_PER_BATCH") or tostring(size))
local bodies = {}
local next_body = 1

function setup(thread)
	thread:set("id", tostring(math.random(1, 1000000000)))
end

function init(args)
	local headers = { ["x-api-key"] = key, ["content-type"] = "application/json" }
	for b = 1, 16 do
		local items = {}
		for i = 1, size do
			local user = "ingest-" .. id .. "-" .. b .. "-" .. (i % users)
			items[i] = string.format('{"user_id":"%s","metrics":{"weight":%d.%d,"resting_heart_rate":%d},' ..
				'"recorded_at":"2026-%02d-%02dT%02d:%02d:00Z"}', user, 60 + i % 40, i % 10, 50 + i % 30,
				1 + b % 10, 1 + i % 28, i % 24, i % 60)
		end
		bodies[b] = wrk.format("POST", "/api/v1/health/metrics/batch", headers,
			'{"records":[' .. table.concat(items, ",") .. ']}')
	end
end

function request()
	local body = bodies[next_body]
	next_body = next_body % #bodies + 1
	return body
end

function done(summary, latency, requests)
	common.finish(summary, latency)
end
