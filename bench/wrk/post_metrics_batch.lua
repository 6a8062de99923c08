-- POST /api/v1/health/metrics/batch with BATCH records a request (default 500), each a new record of
-- one of USERS_PER_BATCH users (default BATCH: a user each), with the partner's key BENCH_KEY, as
-- every workload (bench/ingest.sh, bench/ab-batches.sh, bench/ab.sh and bench/profile.sh set it;
-- bench/ingest.sh also BATCH and USERS_PER_BATCH). Each thread sends 16 batches formatted before the
-- run in turn and prints the harness's RESULT line at the end (threads.lua; a request is a batch), so
-- it needs the harness's folder on LUA_PATH, as bench/wrk's other write scripts do. wrk counts answers
-- other than 2xx.
local common = require "common"
local threads = require "threads"

local key = common.env("BENCH_KEY")
local size = tonumber(os.getenv("BATCH") or "500")
local users = tonumber(os.getenv("USERS_PER_BATCH") or tostring(size))

threads.rotating(function(thread_no)
	local headers = { ["x-api-key"] = key, ["content-type"] = "application/json" }
	local run = tostring(os.time())
	local bodies = {}
	for b = 1, 16 do
		local items = {}
		for i = 1, size do
			local user = "ingest-" .. run .. "-" .. thread_no .. "-" .. b .. "-" .. (i % users)
			items[i] = string.format('{"user_id":"%s","metrics":{"weight":%d.%d,"resting_heart_rate":%d},' ..
				'"recorded_at":"2026-%02d-%02dT%02d:%02d:00Z"}', user, 60 + i % 40, i % 10, 50 + i % 30,
				1 + b % 10, 1 + i % 28, i % 24, i % 60)
		end
		bodies[b] = wrk.format("POST", "/api/v1/health/metrics/batch", headers,
			'{"records":[' .. table.concat(items, ",") .. ']}')
	end
	return bodies
end)
