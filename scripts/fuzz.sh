#!/bin/sh
# The libFuzzer targets of tests/fuzz (docs/testing.md), built in ./build-asan (clang, ASan +
# UBSan, the same build the sanitizer tests use).
#   scripts/fuzz.sh smoke [SECONDS]       every target for SECONDS (default 15): CI
#   scripts/fuzz.sh run TARGET [ARGS...]  one target by hand, e.g. -runs=10000000 -jobs=1
# New inputs go to build-asan/fuzz-corpus/<target> (the tree's seeds are only read), and a
# crash, leak, timeout or UB report to build-asan/fuzz-findings/: copy it to
# tests/fuzz/regressions/<target>/ once fixed, so that ctest replays it for good.
set -e
cd "$(dirname "$0")/.."
BUILD=build-asan
TARGETS="load load_zstd input rules regex telnet"
[ -f $BUILD/CMakeCache.txt ] ||
    cmake -S . -B $BUILD -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
        -DTTYSCOPE_SANITIZE=address,undefined -DTTYSCOPE_FUZZ=ON
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

fuzz() { # TARGET ARGS...
    t=$1
    shift
    mkdir -p $BUILD/fuzz-corpus/$t $BUILD/fuzz-findings
    # 10 s per input is far beyond any legitimate one (they take milliseconds): a hang.
    $BUILD/tests/fuzz/fuzz_$t -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix=$BUILD/fuzz-findings/$t- "$@" \
        $BUILD/fuzz-corpus/$t tests/fuzz/corpus/$t
}

case "$1" in
smoke)
    seconds=${2:-15}
    cmake --build $BUILD -j2 --target $(for t in $TARGETS; do printf 'fuzz_%s ' $t; done)
    for t in $TARGETS; do
        echo "== fuzz_$t for ${seconds}s"
        log=$BUILD/fuzz-findings/smoke-$t.log
        mkdir -p $BUILD/fuzz-findings
        if ! fuzz $t -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
            tail -n 60 "$log"
            echo "fuzz_$t: a finding (see $BUILD/fuzz-findings/)" >&2
            exit 1
        fi
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|cov:' \
            "$log" | tail -n 4
    done
    ;;
run)
    t=$2
    shift 2
    cmake --build $BUILD -j2 --target fuzz_$t
    fuzz $t -print_final_stats=1 "$@"
    ;;
*)
    echo "usage: $0 smoke [SECONDS] | run TARGET [LIBFUZZER ARGS...]" >&2
    exit 2
    ;;
esac
