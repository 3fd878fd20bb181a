// Console lag over a range of lines: the exact maximum and nearest-rank quantiles, as
// kernel developers quote percentiles (a value that occurred).
#pragma once

#include "run.h"

#include <cstdint>
#include <optional>

namespace tty {

struct LagSummary
{
    std::int64_t kernelLines = 0; // lines with a kernel timestamp
    // ...of which the timestamp stands behind other text on its line (a prompt, a
    // terminal reset): `grep -c '^\[ *[0-9]'` counts kernelLines minus these.
    std::int64_t kernelLinesBehindText = 0;
    std::int64_t count = 0; // ...of which have a lag (arrival and production known)
    // Absent when no line has a lag (count 0).
    std::optional<double> max, p50, p99;
    // The lag of the range's last line that has one: how far behind the console was when
    // the log ends.
    std::optional<double> last;
};

LagSummary summariseLags(const Run &run, LineIndex first, LineIndex end);

// Nearest rank of quantile p in [0, 1] of n values.
std::size_t rankOf(std::size_t n, double p);

} // namespace tty
