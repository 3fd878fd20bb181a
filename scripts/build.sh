#!/bin/sh
# Configures (once) and builds ttyscope in ./build, incrementally. TTYSCOPE_DEBUG_INFO=lines
# (CI's) builds it with line tables only, faster than full debug information.
set -e
cd "$(dirname "$0")/.."
"$(pwd)/scripts/deps.sh"
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTTYSCOPE_DEBUG_INFO="${TTYSCOPE_DEBUG_INFO:-full}"
cmake --build build -j2
