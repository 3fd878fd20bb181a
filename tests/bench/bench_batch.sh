#!/bin/sh
# Batch report benchmark (docs/benchmarks.md, issue 15): 1,000 console logs of 200 KB,
# zstd-compressed, cut from the bundled real captures (host-timestamped, so every figure
# is computed), reported in one `ttyscope report -o jsonl` call, against `zstd -dc` over
# the same files one after another (one process, and one process per file), alternated
# RUNS times. Whole commands, wall time and peak RSS from /usr/bin/time -v.
#
#   tests/bench/bench_batch.sh build/app/ttyscope [DIR [COUNT [RUNS]]]
#
# DIR (default /tmp/ttyscope-batch) is created and removed again.
set -eu
ttyscope=$(realpath "$1")
dir=${2:-/tmp/ttyscope-batch}
count=${3:-1000}
runs=${4:-3}
samples=$(dirname "$0")/../fixtures/samples
size=204800

rm -rf "$dir"
mkdir -p "$dir/logs"
trap 'rm -rf "$dir"' EXIT

# One long stream of the captures' lines, cut into files of 200 KB at line ends; each file
# starts at a different place of it, so that the files differ.
for f in "$samples"/*.hostts.log.zst; do zstd -dcq "$f"; done > "$dir/all.log"
python3 - "$dir/all.log" "$dir/logs" "$count" "$size" <<'EOF'
import sys
data = open(sys.argv[1], 'rb').read()
out, count, size = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
step = max(1, (len(data) - size) // count)
for i in range(count):
    start = data.rfind(b'\n', 0, i * step) + 1
    end = data.find(b'\n', start + size - 1) + 1 or len(data)
    open('%s/console-%04d.log' % (out, i), 'wb').write(data[start:end])
EOF
rm "$dir/all.log"
zstd -q --rm "$dir"/logs/*.log
ls "$dir"/logs/*.zst > "$dir/list"
echo "files: $(wc -l < "$dir/list"), compressed $(du -sh "$dir/logs" | cut -f1)," \
     "$(for f in $(head -1 "$dir/list"); do zstd -dc "$f" | wc -c; done) bytes each (first)"

measure() { # name command...: prints "name wall_s peak_kb"
    name=$1
    shift
    /usr/bin/time -v -o "$dir/time" "$@" > /dev/null 2> "$dir/stderr" || true
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time" |
           awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time")
    echo "$name $wall $rss"
}

for r in $(seq "$runs"); do
    cat /proc/loadavg | sed 's/^/loadavg /'
    measure zstd-one-process sh -c "xargs zstd -dcq < '$dir/list'"
    measure zstd-per-file sh -c "while read -r f; do zstd -dcq \"\$f\"; done < '$dir/list'"
    measure ttyscope "$ttyscope" report -o jsonl --files-from "$dir/list"
    measure ttyscope-events-none "$ttyscope" report -o jsonl --events none --files-from "$dir/list"
done | tee "$dir/results"
awk '$1 != "loadavg" { t[$1] = t[$1] " " $2; m[$1] = m[$1] " " $3 }
     END { for (k in t) print k ": wall" t[k] " s; peak RSS" m[k] " kB" }' "$dir/results"
# The JSON lines themselves: one per file, in order.
"$ttyscope" report -o jsonl --files-from "$dir/list" 2>/dev/null |
    python3 -c 'import sys, json
lines = [json.loads(l) for l in sys.stdin]
assert [l["seq"] for l in lines] == list(range(len(lines))), "out of order"
print(len(lines), "JSON lines in order;", sum(l["runs"][0]["lines"] for l in lines), "console lines")'
