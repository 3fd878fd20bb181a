#!/bin/sh
# `ttyscope report` of the installed binary on the installed sample: the two groups named
# in ROOT/usr/share/ttyscope/samples/sample.json, with their labels. Checks the figures of
# both groups and the exit status (0; 1 for an unreadable file; 3 for a corrupt one).
# Usage: installed_report.sh ROOT VERSION
set -eu
root=$1
bin=$root/usr/bin/ttyscope
samples=$root/usr/share/ttyscope/samples
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The groups: one "files": [...] array and one "label" per side, one side per line.
grep -o '"files": *\[[^]]*\]' "$samples/sample.json" |
    sed -e 's/^"files": *\[//' -e 's/\]$//' -e 's/"//g' -e 's/ //g' >"$tmp/groups"
grep -o '"label": *"[^"]*"' "$samples/sample.json" | sed -e 's/^"label": *"//' -e 's/"$//' >"$tmp/labels"
[ "$(wc -l <"$tmp/groups")" -eq 2 ] || fail "sample.json: expected two groups, got: $(cat "$tmp/groups")"
[ "$(wc -l <"$tmp/labels")" -eq 2 ] || fail "sample.json: expected two labels"
group() { sed -n "${1}p" "$tmp/groups" | tr ',' '\n' | sed "s|^|$samples/|" | paste -sd, -; }
label() { sed -n "${1}p" "$tmp/labels"; }
a=$(group 1) b=$(group 2)
n=$(sed -n 1p "$tmp/groups" | tr ',' '\n' | wc -l)
for f in $(echo "$a,$b" | tr ',' ' '); do
    [ -f "$f" ] || fail "sample file not installed: $f"
done

rc=0
"$bin" report --label "$(label 1)" --label "$(label 2)" "$a" "$b" >"$tmp/out" 2>"$tmp/err" || rc=$?
cat "$tmp/out"
[ "$rc" -eq 0 ] || { cat "$tmp/err"; fail "report exited $rc"; }
grep -qF "$(label 1)" "$tmp/out" || fail "no column '$(label 1)'"
grep -qF "$(label 2)" "$tmp/out" || fail "no column '$(label 2)'"
# The header names each group with its n; each row: mean ± sd per group, then B − A.
[ "$(grep -m1 '^metric' "$tmp/out" | grep -o "(n=$n)" | wc -l)" -eq 2 ] || fail "header lacks two groups of $n"
for row in "console lines" "bytes" "drop notices" "messages dropped" "console lag max (s)"; do
    line=$(grep "^$row  " "$tmp/out") || fail "no row '$row'"
    [ "$(echo "$line" | grep -o " ± " | wc -l)" -eq 2 ] || fail "row '$row' lacks two groups: $line"
done
# Real figures: the legacy console keeps up with the flood without drops, the 6.12-rt printer thread drops.
grep "^messages dropped  " "$tmp/out" | grep -q ' 0\.0 ± 0\.0 ' || fail "group A should drop nothing"

# JSON output of the same: both groups, by label.
"$bin" report --output json --label "$(label 1)" --label "$(label 2)" "$a" "$b" >"$tmp/json" 2>/dev/null ||
    fail "report --output json exited $?"
grep -q '"groups"' "$tmp/json" || fail "JSON has no groups"
grep -qF "\"label\": \"$(label 1)\"" "$tmp/json" || fail "JSON lacks group '$(label 1)'"
grep -qF "\"label\": \"$(label 2)\"" "$tmp/json" || fail "JSON lacks group '$(label 2)'"

# Exit statuses: 1 when a file cannot be read, 3 when one was read only in part.
rc=0
"$bin" report "$a" "$tmp/missing.log" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "report with a missing file exited $rc, want 1"
first=$(echo "$a" | cut -d, -f1)
cp "$first" "$tmp/corrupt.log.zst"
printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' |
    dd of="$tmp/corrupt.log.zst" bs=1 seek=40000 conv=notrunc 2>/dev/null
rc=0
"$bin" report "$tmp/corrupt.log.zst" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 3 ] || fail "report with a corrupt file exited $rc, want 3"
echo ok
