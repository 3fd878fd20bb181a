#!/bin/sh
# The installed binary starts the GUI (offscreen) with no arguments, opens the bundled
# sample from ROOT/usr/share/ttyscope/samples and saves a screenshot.
# Usage: installed_gui.sh ROOT VERSION
set -eu
root=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/run"
# A private home: the settings written on exit must not touch the user's.
rc=0
env -u DISPLAY -u WAYLAND_DISPLAY -u TTYSCOPE_SAMPLE_DIR QT_QPA_PLATFORM=offscreen \
    XDG_RUNTIME_DIR="$tmp/run" HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" \
    "$root/usr/bin/ttyscope" --size 1400x900 --screenshot "$tmp/shot.png" >"$tmp/log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/log"; fail "ttyscope --screenshot exited $rc"; }
# The window may be wider than asked for (its minimum width); only a real picture counts here.
file "$tmp/shot.png" | grep -q 'PNG image data, [0-9]* x 900,' || fail "screenshot: $(file "$tmp/shot.png")"
echo ok
