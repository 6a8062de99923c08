#!/usr/bin/env python3
"""Summarises an async-profiler recording in collapsed form: where the samples were taken (self),
what was on the stack (total), and the share spent in the kernel. Usage: bench/collapsed-top.py
profile.collapsed [rows]"""
import collections
import sys

rows = int(sys.argv[2]) if len(sys.argv) > 2 else 50
self_counts, total_counts = collections.Counter(), collections.Counter()
samples = kernel = 0
with open(sys.argv[1]) as recording:
    for line in recording:
        stack, _, count = line.rstrip('\n').rpartition(' ')
        count = int(count)
        frames = stack.split(';')
        samples += count
        if frames[-1].endswith('_[k]'):
            kernel += count
        self_counts[frames[-1]] += count
        for frame in set(frames):
            total_counts[frame] += count

print(f'{samples} samples, {100.0 * kernel / max(samples, 1):.1f}% in the kernel\n')
for title, counter in (('self', self_counts), ('total', total_counts)):
    print(title)
    for frame, count in counter.most_common(rows):
        print(f'{100.0 * count / samples:6.1f}%  {frame[:160]}')
    print()
