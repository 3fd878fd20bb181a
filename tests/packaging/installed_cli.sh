#!/bin/sh
# The installed binary answers --version and --help without a display, each command has
# its --help, the installed man page renders, and the licence notice is in its doc directory.
# Usage: installed_cli.sh ROOT VERSION
set -eu
root=$1 version=$2
bin=$root/usr/bin/ttyscope
fail() { echo "FAIL: $*" >&2; exit 1; }
nodisplay() { env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$@"; }

out=$(nodisplay "$bin" --version 2>&1) || fail "--version exited $?: $out"
[ "$out" = "ttyscope $version" ] || fail "--version printed: $out"
out=$(nodisplay "$bin" -v 2>&1) || fail "-v exited $?: $out"
[ "$out" = "ttyscope $version" ] || fail "-v printed: $out"
out=$(nodisplay "$bin" --help 2>&1) || fail "--help exited $?: $out"
for word in report export cat capture --align --screenshot --version; do
    echo "$out" | grep -q -e "$word" || fail "--help does not mention $word"
done
for cmd in report export cat capture; do
    out=$(nodisplay "$bin" "$cmd" --help 2>&1) || fail "$cmd --help exited $?: $out"
    echo "$out" | grep -q "Usage: .*$cmd" || fail "$cmd --help: $out"
done

page=$root/usr/share/man/man1/ttyscope.1.gz
out=$(gzip -dc "$page" | LC_ALL=C.UTF-8 groff -man -Tutf8 -ww 2>&1) || fail "man page: $out"
echo "$out" | grep -q 'ttyscope report' || fail "man page has no 'ttyscope report'"
copyright=$root/usr/share/doc/ttyscope/copyright
grep -q '^License: GPL-3.0-or-later' "$copyright" || fail "no GPL-3.0-or-later in $copyright"
echo ok
