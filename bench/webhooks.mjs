// Receivers of webhooks on 127.0.0.1, and (with RATE) a paced writer of metrics records: used by
// bench/webhooks.sh. Node's http server, because a receiver must take several thousand messages a
// second on a machine the service shares; nothing is installed (no dependency).
//
//   node bench/webhooks.mjs receive PORT...            prints "ready", then every 5 s "received N";
//                                                      on SIGTERM "RECEIVED n" and exits
//   node bench/webhooks.mjs write BASE KEY RATE SECONDS PORT GO
//      one receiver on PORT; prints "ready", waits for the file GO (the endpoint added), then
//      POSTs RATE records a second for SECONDS seconds (1,000 users), then waits
//      (up to 60 s) for their messages and prints one line: writes, answered, messages, missing, and
//      the time from each write's answer to its message's arrival (p50, p90, p99, max, in ms)
import http from "node:http";

const [mode, ...args] = process.argv.slice(2);

function receiver(port, onMessage) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      onMessage(Buffer.concat(chunks).toString("utf8"), req.headers);
      res.writeHead(204);
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

if (mode === "receive") {
  let received = 0;
  await Promise.all(args.map((port) => receiver(Number(port), () => received++)));
  console.log("ready");
  setInterval(() => console.error(`received ${received}`), 5000).unref();
  process.on("SIGTERM", () => {
    console.log(`RECEIVED ${received}`);
    process.exit(0);
  });
} else if (mode === "write") {
  const [base, key, rate, seconds, port, go] = args;
  const answered = new Map(); // record id -> time of the write's answer (ms)
  const arrived = new Map(); // record id -> time its message arrived (ms)
  await receiver(Number(port), (body) => {
    const message = JSON.parse(body);
    if (message.type === "metrics.created") {
      arrived.set(message.data.id, performance.now());
    }
  });
  console.log("ready");
  const { existsSync } = await import("node:fs");
  while (!existsSync(go)) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL("/api/v1/health/metrics", base);
  let writes = 0;
  let failed = 0;
  const post = (n) =>
    new Promise((resolve) => {
      const body = JSON.stringify({ user_id: `hook-user-${n % 1000}`, metrics: { weight: 60 + (n % 40) } });
      const req = http.request(url, {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "x-api-key": key, "content-length": Buffer.byteLength(body) },
      }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          const at = performance.now();
          if (res.statusCode === 201) {
            answered.set(JSON.parse(Buffer.concat(chunks).toString("utf8")).id, at);
          } else {
            failed++;
          }
          resolve();
        });
      });
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end(body);
    });
  const total = Number(rate) * Number(seconds);
  const start = performance.now();
  const pending = [];
  // paced: write n leaves at start + n / rate, in ticks of 10 ms
  await new Promise((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * Number(rate)));
      while (writes < due) {
        pending.push(post(writes++));
      }
      if (writes >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });
  const sentIn = (performance.now() - start) / 1000;
  await Promise.all(pending);
  const deadline = performance.now() + 60_000;
  while ([...answered.keys()].some((id) => !arrived.has(id)) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const latencies = [...answered].filter(([id]) => arrived.has(id)).map(([id, at]) => arrived.get(id) - at).sort((a, b) => a - b);
  const pct = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(0) : "-");
  console.log(
    `RESULT writes=${writes} seconds=${sentIn.toFixed(1)} answered=${answered.size} failed=${failed} ` +
      `messages=${latencies.length} missing=${answered.size - latencies.length} ` +
      `p50_ms=${pct(50)} p90_ms=${pct(90)} p99_ms=${pct(99)} max_ms=${latencies.length ? latencies[latencies.length - 1].toFixed(0) : "-"}`,
  );
  process.exit(0);
} else {
  console.error("usage: webhooks.mjs receive PORT... | write BASE KEY RATE SECONDS PORT GO");
  process.exit(2);
}
