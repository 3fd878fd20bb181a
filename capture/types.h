// Units that are easy to mix up get names of their own (see docs/format.md for the clocks).
#pragma once

#include <cstdint>
#include <limits>

namespace tty {

// Host arrival time: nanoseconds since the Unix epoch (or since an unknown origin for
// formats that only carry elapsed time).
using HostNs = std::int64_t;
// Kernel printk timestamp: microseconds since the kernel's boot.
using KernelUs = std::int64_t;
// 0-based index of a console line within a run.
using LineIndex = std::int64_t;

constexpr HostNs kNoHostTime = std::numeric_limits<HostNs>::min();
constexpr KernelUs kNoKernelTime = -1;

inline bool hasHostTime(HostNs t)
{
    return t != kNoHostTime;
}
inline bool hasKernelTime(KernelUs t)
{
    return t >= 0;
}

} // namespace tty
