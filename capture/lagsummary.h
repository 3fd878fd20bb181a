// Console lag over a range of lines: the exact maximum and nearest-rank quantiles, as
// kernel developers quote percentiles (a value that occurred).
#pragma once

#include "run.h"

#include <cstdint>
#include <limits>

namespace tty {

struct LagSummary
{
    std::int64_t kernelLines = 0; // lines with a kernel timestamp
    std::int64_t count = 0;       // ...of which have a lag (arrival and production known)
    double max = std::numeric_limits<double>::quiet_NaN();
    double p50 = std::numeric_limits<double>::quiet_NaN();
    double p99 = std::numeric_limits<double>::quiet_NaN();
};

LagSummary summariseLags(const Run &run, LineIndex first, LineIndex end);

// Nearest rank of quantile p in [0, 1] of n values.
std::size_t rankOf(std::size_t n, double p);

} // namespace tty
