#!/usr/bin/env python3
"""Plots bench/soak.sh's CSV (sample.py's columns) as one PNG of five panels over time.

  plot.py SAMPLES.csv OUT.png [TITLE]
"""
import csv, sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
minutes = [int(r["second"]) / 60 for r in rows]
panels = [("answers_per_s", "answers/s"), ("heap_mb", "heap used (MiB)"), ("threads", "live threads"),
          ("open_files", "open files"), ("db_connections", "PostgreSQL connections")]
figure, axes = plt.subplots(len(panels), 1, figsize=(10, 11), sharex=True)
for axis, (column, label) in zip(axes, panels):
    values = [float(r[column]) for r in rows]
    axis.plot(minutes, values, linewidth=0.8)
    axis.set_ylabel(label)
    axis.set_ylim(bottom=0, top=max(max(values) * 1.15, 1))
    axis.grid(alpha=0.3)
axes[-1].set_xlabel("minutes")
figure.suptitle(sys.argv[3] if len(sys.argv) > 3 else "soak")
figure.tight_layout()
figure.savefig(sys.argv[2], dpi=90)
