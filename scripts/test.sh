#!/bin/sh
# Builds ttyscope and runs every test (unit, GUI offscreen, end-to-end) with ctest.
set -e
cd "$(dirname "$0")/.."
./scripts/build.sh
cd build
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j2 "$@"
