#!/usr/bin/env python3
"""A console log dense with crash reports, for timing what they cost (docs/benchmarks.md).

    tests/bench/crashlog.py COPIES OUT

Writes the crash fixtures of tests/fixtures/crashes (all but clean.log) COPIES times over,
one after another, each line stamped with a kernel time 1 us after the one before, so the
log has one clock that never jumps back. 500 copies: 265,000 lines, 10,500 reports.
"""
import pathlib
import re
import sys

copies, out = int(sys.argv[1]), sys.argv[2]
fixtures = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "crashes"
stamp = re.compile(r"^\[\s*\d+\.\d+\]\s?")
bodies = [
    [stamp.sub("", line) for line in f.read_text(errors="replace").splitlines()]
    for f in sorted(fixtures.glob("*.log"))
    if f.name != "clean.log"
]
us = 0
with open(out, "w") as o:
    for _ in range(copies):
        for body in bodies:
            for line in body:
                us += 1
                o.write("[%5d.%06d] %s\n" % (us // 1000000, us % 1000000, line))
