#!/bin/sh
# Builds ttyscope and opens it on its bundled sample comparison.
set -e
cd "$(dirname "$0")/.."
./scripts/build.sh
exec ./build/app/ttyscope "$@"
