// The passes over every line after a load (series, metrics) run on all cores: the load has
// ended, so the machine is otherwise idle, and a gigabyte log has 16 M lines.
#pragma once

#include "types.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace tty {

// The hardware threads, read once: glibc answers std::thread::hardware_concurrency() by
// opening and parsing /sys/devices/system/cpu/online each time, and a small log's load and
// metrics asked it seven times (a tenth of a 40-line log's load, a batch report's
// thousands of boot logs each paying it).
inline int hardwareThreads()
{
    static const int cores = std::max(1, int(std::thread::hardware_concurrency()));
    return cores;
}

// How many slices a pass over n items takes: one per hardware thread, but no slice
// smaller than minPerSlice (threads cost more than a short pass).
inline int sliceCount(std::size_t n, std::size_t minPerSlice)
{
    return int(std::clamp<std::size_t>(n / std::max<std::size_t>(minPerSlice, 1), 1,
                                       std::size_t(hardwareThreads())));
}

// The same for a pass over lines.
inline int sliceCount(LineCount n, LineCount minPerSlice = LineCount(1 << 20))
{
    return sliceCount(std::size_t(std::max<std::int64_t>(n.count(), 0)),
                      std::size_t(std::max<std::int64_t>(minPerSlice.count(), 0)));
}

// A pass cut into more slices than cores, to be run by runOnEveryCore: no slice smaller
// than minPerSlice, and up to kSlicesPerThread per hardware thread, so that one slice with
// more work than the others (the crash reports are not spread evenly) or a core the host
// takes away for a while (this machine's vCPUs are stolen for 100 ms at a time) leaves the
// other cores a share of what is left, not nothing.
constexpr int kSlicesPerThread = 4;
inline int sharedSliceCount(std::size_t n, std::size_t minPerSlice)
{
    return int(std::clamp<std::size_t>(n / std::max<std::size_t>(minPerSlice, 1), 1,
                                       std::size_t(hardwareThreads() * kSlicesPerThread)));
}
inline int sharedSliceCount(LineCount n, LineCount minPerSlice = LineCount(1 << 20))
{
    return sharedSliceCount(std::size_t(std::max<std::int64_t>(n.count(), 0)),
                            std::size_t(std::max<std::int64_t>(minPerSlice.count(), 0)));
}

// Runs f(k) for every k in [0, count) at once, f(0) on the calling thread, and returns when
// all are done.
template <typename F> void runAtOnce(int count, F &&f)
{
    std::vector<std::thread> threads;
    for (int k = 1; k < count; ++k) {
        threads.emplace_back([&f, k] { f(k); });
    }
    f(0);
    for (std::thread &t : threads) {
        t.join();
    }
}

// Runs f(k) for every k in [0, count) on one thread per core (the calling thread one of
// them), each taking the next k in increasing order when it is done with its last, and
// returns when all are done. A slice that takes longer holds back no other.
template <typename F> void runOnEveryCore(int count, F &&f)
{
    std::atomic<int> next{0};
    runAtOnce(std::clamp(count, 1, hardwareThreads()), [&](int) {
        for (int k = next.fetch_add(1, std::memory_order_relaxed); k < count;
             k = next.fetch_add(1, std::memory_order_relaxed)) {
            f(k);
        }
    });
}

// Runs f(slice, from, to) for `slices` equal slices of [begin, end) on every core
// (runOnEveryCore: more slices than cores are shared out), and returns when all are done.
template <typename F> void forEachSlice(LineIndex begin, LineIndex end, int slices, F &&f)
{
    const LineCount n = std::max(end - begin, 0_lines);
    slices = std::max(slices, 1);
    auto bound = [&](int s) { return begin + n * s / slices; };
    runOnEveryCore(slices, [&](int s) { f(s, bound(s), bound(s + 1)); });
}

} // namespace tty
