#!/bin/sh
# A real tio (Debian 12: tio 2.5) logs a real capture replayed through a pseudo-terminal at
# its own pace (tests/fixtures/tio/replay.py), and `ttyscope report` reads that log as tio's:
# the fixtures of tests/fixtures/tio checked against the tio installed here. The counts are
# exact; the times carry the replay's scheduling (a few ms on this host), so they are
# checked against the capture's own (boot to 'login:' 5.271 s, lag 0.000 s) within 50 ms.
# Usage: tio_live.sh TTYSCOPE SAMPLES_DIR REPLAY_PY
set -e
ttyscope=$1 samples=$2 replay=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$replay" "$samples/boot_login-quiet-smp2-115200-t1.hostts.log.zst" 24hour "$work/tio.log"
"$ttyscope" report -o json --events none "$work/tio.log" >"$work/report.json"
python3 - "$work/report.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
run, m = d["runs"][0], d["groups"][0]["metrics"]
value = lambda key: m[key]["values"][0]
checks = [
    ("format", run["format"], run["format"] == "tio"),
    ("lines", value("lines"), value("lines") == 16),
    ("kernel_lines", value("kernel_lines"), value("kernel_lines") == 4),
    ("boot_time_s", value("boot_time_s"), abs(value("boot_time_s") - 5.271) < 0.05),
    ("lag.max_s", value("lag.max_s"), 0 <= value("lag.max_s") < 0.05),
    ("warnings", run.get("warnings"), not run.get("warnings")),
]
for name, got, ok in checks:
    print("%-13s %-8s %s" % (name, "ok" if ok else "FAIL", got))
sys.exit(0 if all(ok for _, _, ok in checks) else 1)
PY
