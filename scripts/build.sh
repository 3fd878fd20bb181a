#!/bin/sh
# Configures (once) and builds ttyscope in ./build, incrementally.
set -e
cd "$(dirname "$0")/.."
"$(pwd)/scripts/deps.sh"
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2
