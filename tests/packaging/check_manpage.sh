#!/bin/sh
# The man page formats with groff with every warning on (-ww) and prints none.
# Usage: check_manpage.sh PAGE
set -eu
page=$1
out=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1) || { echo "$out"; exit 1; }
if [ -n "$out" ]; then
    echo "$out"
    exit 1
fi
# The sections a reader looks for are there.
for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" FILES EXAMPLES; do
    grep -q "^\.SH \"*$section\"*\$" "$page" || { echo "no section $section"; exit 1; }
done
echo ok
