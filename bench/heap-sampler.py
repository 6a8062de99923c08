#!/usr/bin/env python3
"""Samples the service's used heap every INTERVAL seconds until it gets SIGTERM, then prints
one line: samples, min, max and mean of the used heap and of the old generation, in MiB.
Reads Spring Boot's metrics endpoint (/actuator/metrics/jvm.memory.used?tag=area:heap) when it
is exposed, the Prometheus scrape (/actuator/prometheus) otherwise.
Usage: bench/heap-sampler.py MANAGEMENT_URL [INTERVAL] [RAW_FILE]"""
import json
import re
import signal
import sys
import time
import urllib.error
import urllib.request

base = sys.argv[1].rstrip('/')
interval = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
raw = open(sys.argv[3], 'w') if len(sys.argv) > 3 else None
stop = False


def on_term(signum, frame):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGINT, on_term)


def get(path):
    with urllib.request.urlopen(base + path, timeout=2) as answer:
        return answer.read().decode()


def from_metrics():
    heap = json.loads(get('/actuator/metrics/jvm.memory.used?tag=area:heap'))['measurements'][0]['value']
    old = None
    for pool in ('G1 Old Gen', 'Tenured Gen', 'PS Old Gen', 'ZGC Old Generation'):
        try:
            old = json.loads(get('/actuator/metrics/jvm.memory.used?tag=id:' + urllib.request.quote(pool)))['measurements'][0]['value']
            break
        except urllib.error.HTTPError:
            continue
    return heap, old


PROMETHEUS_LINE = re.compile(r'^jvm_memory_used_bytes\{([^}]*)\}\s+(\S+)', re.M)


def from_prometheus():
    heap, old = 0.0, None
    for labels, value in PROMETHEUS_LINE.findall(get('/actuator/prometheus')):
        if 'area="heap"' in labels:
            heap += float(value)
            if 'Old Gen' in labels or 'Tenured' in labels:
                old = float(value)
    return heap, old


try:
    from_metrics()
    sample = from_metrics
except Exception:
    sample = from_prometheus

heaps, olds = [], []
start = time.monotonic()
while not stop:
    began = time.monotonic()
    try:
        heap, old = sample()
        heaps.append(heap)
        if old is not None:
            olds.append(old)
        if raw:
            raw.write(f'{began - start:.3f} {heap:.0f} {old if old is not None else ""}\n')
    except Exception:
        pass
    time.sleep(max(0.0, interval - (time.monotonic() - began)))

mib = 1024 * 1024


def stats(name, values):
    if not values:
        return f'{name} no samples'
    return (f'{name} min {min(values) / mib:.1f} max {max(values) / mib:.1f} '
            f'mean {sum(values) / len(values) / mib:.1f} first {values[0] / mib:.1f} last {values[-1] / mib:.1f} MiB')


print(f'heap samples {len(heaps)} every {interval * 1000:.0f} ms; {stats("heap used", heaps)}; {stats("old gen used", olds)}')
