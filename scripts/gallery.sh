#!/bin/sh
# Regenerates docs/gallery/*.png with the program itself, from the bundled real captures
# (tests/fixtures/samples): a crash run, a group comparison, a multi-boot log and a live
# capture, in the light and the dark theme. Needs a build (scripts/build.sh) and no display
# (Qt's offscreen platform). Look at every picture before committing it.
# Usage: scripts/gallery.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
bin=${1:-build}/app/ttyscope
samples=tests/fixtures/samples
out=docs/gallery
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
server=
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work" XDG_CONFIG_HOME="$work/config"
mkdir -p "$out"

shot() { # OUT.png THEME FILES... : the window at its default size, as a new user sees it
    name=$1 theme=$2
    shift 2
    "$bin" --screenshot "$out/$name" --size 1500x950 --theme "$theme" "$@"
    echo "$out/$name: $(wc -c <"$out/$name") bytes"
}

# A single run that crashes: sysrq-t floods, dropped messages, the panic.
shot crash-light.png light "$samples/blast_crash-smp2-115200-t1.hostts.log.zst"
shot crash-dark.png dark "$samples/blast_crash-smp2-115200-t1.hostts.log.zst"

# Who floods the console: the Sources dock on the 6.12-rt printk flood, and a quiet boot
# against a default one (the A/B table).
sshot() { # like shot, the Sources dock in front
    name=$1 theme=$2
    shift 2
    "$bin" --screenshot "$out/$name" --size 1500x950 --theme "$theme" --pane sources "$@"
    echo "$out/$name: $(wc -c <"$out/$name") bytes"
}
sshot sources-light.png light "$samples/spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"
sshot sources-dark.png dark "$samples/spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"
sshot sources-compare-light.png light "$samples/boot_login-quiet-smp2-115200-t1.hostts.log.zst" \
    "$samples/boot_login-default-smp2-115200-t1.hostts.log.zst"

# Group comparison: Linux 6.1 against 6.12-rt, three trials each, the same module spamming.
a=$samples/spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst
b=$samples/spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst
for t in 2 3; do
    a=$a,$samples/spam_rmmod-A_default-smp4-115200-t$t.hostts.log.zst
    b=$b,$samples/spam_rmmod-k612rt-smp4-115200-t$t.hostts.log.zst
done
shot compare-light.png light --label "6.1" --label "6.12-rt" "$a" "$b"
shot compare-dark.png dark --label "6.1" --label "6.12-rt" "$a" "$b"

# A console server's log across reboots: eight boots in a row (default, quiet, no root),
# each two seconds after the one before, host times shifted to follow on.
multi=$work/console-server.hostts.log
: >"$multi"
last=1796014799 # host seconds: the captures' own epoch, so that the stamps read as such
for k in 0 1 2 3 4 5 6 7; do
    case $((k % 3)) in
    0) s=boot_login-default ;;
    1) s=boot_login-quiet ;;
    *) s=panic_noroot ;;
    esac
    zstdcat "$samples/$s-smp2-115200-t1.hostts.log.zst" >"$work/piece"
    first=$(head -n 1 "$work/piece" | cut -f 1)
    awk -F '\t' -v OFS='\t' -v shift="$(echo "$last + 2 - $first" | bc)" \
        '{ $1 = sprintf("%.6f", $1 + shift); print }' "$work/piece" >>"$multi"
    last=$(tail -n 1 "$multi" | cut -f 1)
done
shot multiboot-light.png light "$multi"

# A live capture: a console that ends in a panic, replayed at its own pace through a TCP
# console (as ser2net serves one) and recorded by `ttyscope capture`, then opened.
zstdcat "$samples/panic_noroot-smp2-115200-t1.hostts.log.zst" >"$work/panic.log"
port=$((20000 + $$ % 20000))
python3 - "$work/panic.log" "$port" <<'PY' &
import socket, sys, time
rows = [l.split(b"\t", 1) for l in open(sys.argv[1], "rb").read().split(b"\n") if l]
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[2])))
srv.listen(1)
conn, _ = srv.accept()
t0, start = float(rows[0][0]), time.monotonic()
for t, text in rows:
    delay = float(t) - t0 - (time.monotonic() - start)
    if delay > 0:
        time.sleep(delay)
    conn.sendall(text + b"\r\n")
time.sleep(30)  # the console stays connected after the panic, silent
PY
server=$!
sleep 1
"$bin" capture --headless --port "tcp://127.0.0.1:$port" --duration 10 \
    --label "qemu ttyS0" --mark-on-start "gallery: power on" --output "$work/live.ttyrec.zst" \
    >/dev/null
kill "$server" 2>/dev/null || true
shot live-dark.png dark "$work/live.ttyrec.zst"
