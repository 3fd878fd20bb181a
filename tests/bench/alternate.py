#!/usr/bin/env python3
# Alternates two whole commands N times (after one warm-up each) and prints their medians
# and ratio: usage alternate.py N "CMD A" "CMD B". Alternating keeps drift on a shared host
# from landing on one side.
import subprocess, time, statistics, sys, os
cmds = [sys.argv[2].split(), sys.argv[3].split()]
n = int(sys.argv[1]); res = [[], []]
for c in cmds: subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm-up
for i in range(n):
    for k, c in enumerate(cmds):
        t = time.perf_counter(); subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); res[k].append(time.perf_counter() - t)
for k in range(2):
    print("cmd%d median %.3f s  min %.3f max %.3f  %s" % (k+1, statistics.median(res[k]), min(res[k]), max(res[k]), " ".join("%.2f" % x for x in res[k])))
print("ratio of medians %.3f; per-pair ratios median %.3f" % (statistics.median(res[1]) / statistics.median(res[0]), statistics.median([b / a for a, b in zip(*res)])))
print("load", os.getloadavg())
