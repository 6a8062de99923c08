#!/usr/bin/env python3
"""Surge: what the service serves when thousands of connections arrive at once.

Pages of 50 metrics records (GET /api/v1/health/metrics?limit=100), wrk closed loop: first 64
connections for --normal-seconds (the normal rate of 200s), then each of --connections for
--seconds while a prober asks /actuator/health/liveness and /readiness on the partners' port every
200 ms, then 64 connections again (full speed back?). Between stages the JVM's heap after GC and
its thread count are read from /actuator/prometheus (management port). Prints one line a stage and
a JSON summary; exits 1 when a surge saw a socket error or time-out, an answer other than 200 or
503 + Retry-After, fewer 200s a second than 80 % of the normal rate, or a probe slower than 1 s.

  bench/surge.py --base-url http://127.0.0.1:8080 --management-url http://127.0.0.1:8081 \
      --admin-token T [--connections 4096,10000] [--seconds 20]

The instance needs a plan far above what wrk sends (APP_PLANS=...,loadtest=100000000) and
APP_ADMIN_TOKEN=T. Traffic goes to the given URLs only, which must be on this machine. wrk and
this script raise their open-file limit to 65536 where the hard limit allows; the service needs as
many (ulimit -n) for 10,000 connections.
"""
import argparse, json, re, resource, subprocess, sys, tempfile, threading, time, uuid, urllib.request, urllib.error
from urllib.parse import urlparse

ap = argparse.ArgumentParser()
ap.add_argument("--base-url", required=True)
ap.add_argument("--management-url", required=True)
ap.add_argument("--admin-token", required=True)
ap.add_argument("--connections", default="4096,10000")
ap.add_argument("--seconds", type=int, default=20)
ap.add_argument("--normal-seconds", type=int, default=10)
args = ap.parse_args()
base, management = args.base_url.rstrip("/"), args.management_url.rstrip("/")
for url in (base, management):
    if urlparse(url).hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"{url}: this script only sends traffic to this machine")


def call(method, url, body=None, headers=None, timeout=15):
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None, method=method,
                                     headers=dict({"content-type": "application/json"}, **(headers or {})))
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


tag = uuid.uuid4().hex[:8]
_, body = call("POST", base + "/api/v1/auth", {"email": f"surge-{tag}@example.com", "partner_name": f"Surge {tag}"})
registration = json.loads(body)["registration_id"]
_, body = call("POST", f"{base}/admin/v1/registrations/{registration}/approve", {"plan": "loadtest"},
               {"authorization": f"Bearer {args.admin_token}"})
key = json.loads(body)["api_key"]
user = f"surge-{tag}"
for n in range(50):
    call("POST", base + "/api/v1/health/metrics", {"user_id": user, "recorded_at": f"2025-01-{1 + n % 28:02d}T0{n % 10}:00:00Z",
                                                   "metrics": {"weight": 70 + n / 10}}, {"x-api-key": key})

script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
script.write(f'''
wrk.method = "GET"
wrk.headers["x-api-key"] = "{key}"
wrk.path = "/api/v1/health/metrics?user_id={user}&limit=100"
local threads = {{}}
setup = function(thread) table.insert(threads, thread) end
init = function() ok = 0; refused = 0; bare = 0; other = 0 end
response = function(status, headers, body)
  if status == 200 then ok = ok + 1
  elseif status == 503 then
    refused = refused + 1
    if headers["Retry-After"] == nil and headers["retry-after"] == nil then bare = bare + 1 end
  else other = other + 1 end
end
done = function(summary, latency, requests)
  local a, b, c, d = 0, 0, 0, 0
  for _, t in ipairs(threads) do a = a + t:get("ok"); b = b + t:get("refused"); c = c + t:get("bare"); d = d + t:get("other") end
  io.write(string.format("RESULT %d %d %d %d %d %.1f %.1f %d %d %d %d\\n", summary.requests, summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, a, b, c, d))
end
''')
script.close()

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))


def wrk(connections, seconds):
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", script.name, base],
                         capture_output=True, text=True).stdout
    line = next((l for l in out.splitlines() if l.startswith("RESULT")), None)
    if not line:
        sys.exit("wrk printed no result: " + out[-300:])
    f = line.split()[1:]
    requests, connect, read, write, timeout = (int(x) for x in f[:5])
    p50, p99 = float(f[5]), float(f[6])
    ok, refused, bare, other = (int(x) for x in f[7:11])
    return {"requests": requests, "socket_errors": connect + read + write + timeout, "timeouts": timeout,
            "ok": ok, "refused_503": refused, "503_without_retry_after": bare, "other_statuses": other,
            "p50_ms": p50, "p99_ms": p99}


def jvm():
    _, scrape = call("GET", management + "/actuator/prometheus")
    text = scrape.decode()

    def total(name, where=""):
        return sum(float(m.group(1)) for m in re.finditer(rf"^{name}(?:{{[^}}]*{where}[^}}]*}})? ([0-9.eE+-]+)$", text, re.M))
    return {"heap_after_gc_mb": round(total("jvm_gc_live_data_size_bytes") / 2**20),
            "heap_used_mb": round(total("jvm_memory_used_bytes", 'area="heap"') / 2**20),
            "threads": int(total("jvm_threads_live_threads")), "open_files": int(total("process_files_open_files"))}


probes, stop = [], threading.Event()


def probe():
    while not stop.is_set():
        for path in ("/actuator/health/liveness", "/actuator/health/readiness"):
            started = time.time()
            try:
                status, _ = call("GET", base + path, timeout=5)
            except Exception as error:  # noqa: BLE001
                status = type(error).__name__
            probes.append((path, status, time.time() - started))
        time.sleep(0.2)


summary = {"stages": []}
warm = wrk(64, args.normal_seconds)  # the JVM's first seconds are not its normal rate
normal = wrk(64, args.normal_seconds)
normal_rate = normal["ok"] / args.normal_seconds
print(f"normal   64 connections: {normal_rate:8.0f} 200s/s  p99 {normal['p99_ms']:7.1f} ms  {jvm()}")
failed = False
for connections in (int(c) for c in args.connections.split(",")):
    time.sleep(2)
    probes.clear()
    stop.clear()
    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    surge = wrk(connections, args.seconds)
    stop.set()
    prober.join()
    after = wrk(64, args.normal_seconds)
    slow = [p for p in probes if p[1] != 200 or p[2] > 1.0]
    rate = surge["ok"] / args.seconds
    stage = dict(surge, connections=connections, ok_per_s=round(rate), share=round(rate / normal_rate, 2),
                 probes=len(probes), probes_failed_or_over_1s=len(slow),
                 slowest_probe_s=round(max((p[2] for p in probes), default=0), 2),
                 after_ok_per_s=round(after["ok"] / args.normal_seconds), jvm_after=jvm())
    summary["stages"].append(stage)
    print(f"surge {connections:5d} connections: {rate:8.0f} 200s/s ({stage['share']:.0%} of normal), "
          f"{surge['refused_503']} 503s, {surge['other_statuses']} other, {surge['socket_errors']} socket errors, "
          f"p50 {surge['p50_ms']:.1f} ms p99 {surge['p99_ms']:.1f} ms, slowest probe {stage['slowest_probe_s']} s; "
          f"then 64 connections: {stage['after_ok_per_s']} 200s/s; {stage['jvm_after']}")
    failed |= bool(surge["socket_errors"] or surge["other_statuses"] or surge["503_without_retry_after"] or slow
                   or not probes or rate < 0.8 * normal_rate)
summary["normal_ok_per_s"] = round(normal_rate)
print(json.dumps(summary))
sys.exit(1 if failed else 0)
