-- The callbacks that bench/wrk's write scripts share. wrk calls them as globals, so these
-- functions define them: numbered() gives each thread its number (the global thread_no, from 1)
-- and prints the harness's RESULT line when the run is done; rotating(build) adds init() and
-- request(), which send in turn the requests build(thread_no) formats before the run (formatting
-- each in request() would cost wrk CPU that the service and PostgreSQL share the cores with).
local common = require "common"

local threads = {}

function threads.numbered()
   local count = 0
   function setup(thread)
      count = count + 1
      thread:set("thread_no", count)
   end
   function done(summary, latency, requests)
      common.finish(summary, latency)
   end
end

function threads.rotating(build)
   threads.numbered()
   local requests, i
   function init(args)
      requests, i = build(thread_no), 0
   end
   function request()
      i = i % #requests + 1
      return requests[i]
   end
end

return threads
