#!/bin/sh
# The capture service unit as the .deb installs it: systemd-analyze verify finds nothing to
# say about ttyscope-capture@board1.service (no systemd needs to run), and its command
# line, expanded as systemd expands it with the shipped example configuration, records a
# real network console (ser2net, telnet, on loopback) until SIGTERM, which ends it with 0
# and a complete recording, as `systemctl stop` does.
# Usage: check_unit.sh ROOT
set -eu
root=$1
unit=$root/usr/lib/systemd/system/ttyscope-capture@.service
example=$root/usr/share/doc/ttyscope/examples/capture.conf
bin=$root/usr/bin/ttyscope
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -f "$unit" ] || fail "the package lacks usr/lib/systemd/system/ttyscope-capture@.service"
[ -f "$example" ] || fail "the package lacks usr/share/doc/ttyscope/examples/capture.conf"
tmp=$(mktemp -d)
ser2net_pid=
cleanup() {
    [ -z "$ser2net_pid" ] || kill "$ser2net_pid" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# The unit runs the binary the package installs.
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
case "$exec_start" in
/usr/bin/ttyscope\ *) ;;
*) fail "ExecStart does not run /usr/bin/ttyscope: $exec_start" ;;
esac

# systemd-analyze verify checks that ExecStart's program exists: the copy runs the one in
# ROOT. Warnings (unknown keys, bad values) fail as errors do. --man=no: the man page is
# not installed on this machine (packaging_manpage checks it).
mkdir -p "$tmp/units"
sed "s|^ExecStart=/usr/bin/ttyscope |ExecStart=$bin |" "$unit" >"$tmp/units/ttyscope-capture@.service"
if ! out=$(systemd-analyze verify --man=no "$tmp/units/ttyscope-capture@board1.service" 2>&1); then
    echo "$out"
    fail "systemd-analyze verify"
fi
[ -z "$out" ] || { echo "$out"; fail "systemd-analyze verify has warnings"; }
echo "systemd-analyze verify: clean"

# The configuration systemd reads (EnvironmentFile=): the example, with the port of a real
# ser2net here. Expanded like systemd: %i the instance, ${TTYSCOPE_PORT} one word,
# $TTYSCOPE_OPTIONS split at spaces; the state directory is a scratch one.
ser2net=$(command -v ser2net || echo /usr/sbin/ser2net)
[ -x "$ser2net" ] || fail "ser2net is not installed (scripts/deps.sh installs it)"
port=$((20000 + $$ % 20000))
cat >"$tmp/ser2net.yaml" <<YAML
connection: &board1
  accepter: telnet,tcp,127.0.0.1,$port
  connector: echo
YAML
"$ser2net" -n -u -c "$tmp/ser2net.yaml" -P "$tmp/ser2net.pid" >"$tmp/ser2net.log" 2>&1 &
ser2net_pid=$!
sed "s|^TTYSCOPE_PORT=.*|TTYSCOPE_PORT=telnet://127.0.0.1:$port|" "$example" >"$tmp/board1.conf"
TTYSCOPE_PORT=$(sed -n 's/^TTYSCOPE_PORT=//p' "$tmp/board1.conf")
TTYSCOPE_OPTIONS=$(sed -n 's/^TTYSCOPE_OPTIONS=//p' "$tmp/board1.conf")
mkdir -p "$tmp/state/board1"
cmdline=$(echo "$exec_start" | sed -e "s|^/usr/bin/ttyscope |$bin |" -e "s|%i|board1|g" \
    -e "s|/var/lib/ttyscope/|$tmp/state/|g" -e "s|\${TTYSCOPE_PORT}|$TTYSCOPE_PORT|" \
    -e "s|\$TTYSCOPE_OPTIONS|$TTYSCOPE_OPTIONS|")
echo "runs: $cmdline"
i=0
while :; do
    # shellcheck disable=SC2086 # split as systemd splits the command line
    env -u DISPLAY -u WAYLAND_DISPLAY $cmdline >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    sleep 1
    kill -0 "$pid" 2>/dev/null && break
    # ser2net may not listen yet: the unit's Restart= does the same.
    wait "$pid" || true
    i=$((i + 1))
    [ "$i" -lt 5 ] || { cat "$tmp/err" "$tmp/ser2net.log"; fail "the capture did not start"; }
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
cat "$tmp/err"
[ "$rc" -eq 0 ] || fail "the capture exited $rc on SIGTERM"
grep -q "recording telnet://127.0.0.1:$port (telnet, 115200 8N1)" "$tmp/err" || fail "no start line"
rec=$(ls "$tmp/state/board1/"ttyscope-*-board1.ttyrec.zst) || fail "no recording in the state directory"
[ "$(echo "$rec" | wc -l)" -eq 1 ] || fail "several recordings: $rec"
zstd -tq "$rec" || fail "the recording is not a complete zstd file"
"$bin" report "$rec" >"$tmp/report" 2>&1 || { cat "$tmp/report"; fail "report of the recording"; }
echo "ok: $rec"
