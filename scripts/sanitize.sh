#!/bin/sh
# Sanitizer builds and their tests (docs/testing.md), each in a build directory of its own:
# - build-asan (clang, ASan + UBSan, also the fuzz targets): unit, end-to-end and fuzz-replay
#   tests, then every fuzz target for FUZZ_SECONDS (default 10) as a smoke test (the
#   corpus replay is one of the fuzz-labelled tests; long runs are by hand);
# - build-tsan (clang, TSan): live capture and GUI tests, the code with threads.
# Only the targets those tests need are built. Any sanitizer report fails the run.
# Line tables are all the debug information a sanitizer's stack trace needs; full -g
# makes each compile about a fifth slower.
set -e
cd "$(dirname "$0")/.."
./scripts/deps.sh
top=$(pwd)
lines_only="-O2 -gline-tables-only -DNDEBUG"
[ -f build-asan/CMakeCache.txt ] ||
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$lines_only" -DTTYSCOPE_SANITIZE=address,undefined \
        -DTTYSCOPE_FUZZ=ON
cmake --build build-asan -j2 --target sanitize_asan
(
    cd build-asan
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:suppressions=$top/tests/sanitizers/asan.supp"
    export LSAN_OPTIONS="suppressions=$top/tests/sanitizers/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$top/tests/sanitizers/ubsan.supp"
    QT_QPA_PLATFORM=offscreen ctest -L '^(unit|e2e|fuzz)$' -LE kernel -j2 --output-on-failure
)
./scripts/fuzz.sh smoke "${FUZZ_SECONDS:-10}"

# The test programs of this build start processes through QProcess, which clang 14's TSan
# runtime cannot follow without tests/sanitizers/tsan_clone.cpp; Qt is not TSan-built
# (tests/sanitizers/tsan_top.supp). SANITIZE_TSAN=0 leaves this stage out (by hand only).
[ "${SANITIZE_TSAN:-1}" = 1 ] || exit 0
[ -f build-tsan/CMakeCache.txt ] ||
    cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$lines_only" -DTTYSCOPE_SANITIZE=thread
cmake --build build-tsan -j2 --target sanitize_tsan
(
    cd build-tsan
    # Races are reported unless Qt made the access itself (tsan_top.supp says why).
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$top/tests/sanitizers/tsan_top.supp"
    # tst_gui_layout_dpr2 is tst_gui_layout at device pixel ratio 2: the same threads,
    # which tst_gui_layout runs here, and 57 s of the stage's 142 (CI must stay under 30
    # minutes; the plain stage runs it).
    QT_QPA_PLATFORM=offscreen ctest -L '^(live|gui)$' -E '^tst_gui_layout_dpr2$' \
        --output-on-failure
)
