#!/usr/bin/env python3
"""Summarises the CPU samples (jdk.ExecutionSample) of a JFR recording: the methods where the
samples were taken (self), the methods on the stack (total), and the threads, each as a share of
all samples. Usage: bench/jfr-top.py recording.jfr [rows]"""
import collections
import re
import subprocess
import sys

recording = sys.argv[1]
rows = int(sys.argv[2]) if len(sys.argv) > 2 else 40
text = subprocess.run(['jfr', 'print', '--events', 'jdk.ExecutionSample', '--stack-depth', '96', recording],
                      capture_output=True, text=True, check=True).stdout
self_counts, total_counts, threads = collections.Counter(), collections.Counter(), collections.Counter()
samples = 0
for event in text.split('jdk.ExecutionSample {')[1:]:
    thread = re.search(r'sampledThread = "([^"]*)"', event)
    frames = re.findall(r'^\s{4,}([\w$.<>/]+\([^)]*\))', event, re.M)
    if not frames:
        continue
    samples += 1
    threads[re.sub(r'\d+$', 'N', thread.group(1)) if thread else '?'] += 1
    self_counts[frames[0]] += 1
    for frame in set(frames):
        total_counts[frame] += 1

def show(title, counter):
    print(f'{title} ({samples} samples)')
    for frame, count in counter.most_common(rows):
        print(f'{100.0 * count / samples:6.1f}%  {frame}')
    print()

show('self', self_counts)
show('total', total_counts)
show('threads', threads)
