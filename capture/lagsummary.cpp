#include "lagsummary.h"

#include "parallel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

namespace tty {

namespace {

// An order-preserving integer key of a (non-NaN) float; its top 16 bits pick the bucket.
std::uint32_t bucketOf(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return ((u & 0x80000000u) ? ~u : (u | 0x80000000u)) >> 16;
}

// A lag kept as a float, back in seconds to the microsecond: a kernel time has no finer
// digit, and the float's own below it are noise a report would print (4.16970920562744).
double toMicroseconds(float lag)
{
    return std::round(double(lag) * 1e6) / 1e6;
}

// One slice of the range: its lags (as floats: a big log has millions, and quantiles need
// no more precision) and their histogram over the buckets.
struct Slice
{
    std::vector<float> lags;
    std::vector<std::uint32_t> histogram;
    std::int64_t kernelLines = 0;
    std::int64_t kernelLinesBehindText = 0;
    double max = -std::numeric_limits<double>::infinity();
    double last = 0;                           // the lag of the slice's last line that has one
    std::array<std::vector<float>, 2> members; // the values in the buckets of the ranks
};

void scan(const Run &run, LineIndex from, LineIndex to, Slice *s, bool histogram = true)
{
    if (histogram) {
        s->histogram.assign(std::size_t(1) << 16, 0);
    }
    s->lags.reserve(std::size_t((to - from).count()));
    // Boot by boot: no boot lookup per line.
    for (const Boot &b : run.bootsOverlapping(from, to)) {
        const LineIndex first = std::max(from, b.first), end = std::min(to, b.end);
        const bool timed = run.hasArrival && b.kernelZero;
        HostNs zero = b.kernelZeroAt(first).value_or(HostNs(0));
        Boot::ShiftWalk shifts(b, first);
        for (LineIndex i = first; i < end; ++i) {
            if (const std::optional<HostNs> z = shifts.at(i)) {
                zero = *z;
            }
            const std::optional<KernelUs> k = run.lines.kernelTime(i);
            if (!k) {
                continue;
            }
            ++s->kernelLines;
            const bool behindText = run.lines.flags(i) & KernelTimeNotAtStart;
            s->kernelLinesBehindText += behindText ? 1 : 0;
            if (!timed || behindText) {
                continue;
            }
            if (const std::optional<HostNs> a = run.lines.arrival(i)) {
                const double lag = toSeconds(*a - zero) - toSeconds(*k) * b.kernelRate;
                s->lags.push_back(float(lag));
                if (histogram) {
                    ++s->histogram[bucketOf(float(lag))];
                }
                s->max = std::max(s->max, lag);
                s->last = lag;
            }
        }
    }
}

} // namespace

std::size_t rankOf(std::size_t n, double p)
{
    return std::min(n - 1, std::size_t(std::ceil(p * double(n))) - (p > 0 ? 1 : 0));
}

LagSummary summariseLags(const Run &run, LineIndex first, LineIndex end)
{
    // A small range: its lags are ranked directly. Setting up the histogram (64 Ki
    // buckets, per slice and merged) cost more than the whole pass over a small log.
    if (end - first <= LineCount(1 << 16)) {
        Slice s;
        scan(run, first, end, &s, false);
        LagSummary r;
        r.kernelLines = s.kernelLines;
        r.kernelLinesBehindText = s.kernelLinesBehindText;
        r.count = std::int64_t(s.lags.size());
        if (r.count == 0) {
            return r;
        }
        r.max = s.max;
        r.last = s.last;
        std::array<double, 2> value{};
        const std::array<double, 2> p = {0.5, 0.99};
        for (std::size_t q = 0; q < 2; ++q) {
            const std::size_t rank = rankOf(s.lags.size(), p[q]);
            std::nth_element(s.lags.begin(), s.lags.begin() + std::ptrdiff_t(rank), s.lags.end());
            value[q] = toMicroseconds(s.lags[rank]);
        }
        r.p50 = value[0];
        r.p99 = value[1];
        return r;
    }
    const int slices = sliceCount(end - first);
    std::vector<Slice> parts(static_cast<std::size_t>(slices));
    forEachSlice(first, end, slices, [&](int s, LineIndex from, LineIndex to) {
        scan(run, from, to, &parts[std::size_t(s)]);
    });

    LagSummary r;
    std::vector<std::uint64_t> histogram(std::size_t(1) << 16, 0);
    for (const Slice &s : parts) {
        r.kernelLines += s.kernelLines;
        r.kernelLinesBehindText += s.kernelLinesBehindText;
        r.count += std::int64_t(s.lags.size());
        if (!s.lags.empty()) {
            r.max = r.max ? std::max(*r.max, double(s.max)) : double(s.max);
            r.last = s.last; // the slices are in line order
        }
        for (std::size_t b = 0; b < histogram.size(); ++b) {
            histogram[b] += s.histogram[b];
        }
    }
    if (r.count == 0) {
        return r;
    }

    // The exact values at the ranks without sorting millions of lags: the histogram tells
    // which bucket holds each rank and where in it; only those buckets are sorted.
    const std::array<std::size_t, 2> ranks = {rankOf(std::size_t(r.count), 0.5),
                                              rankOf(std::size_t(r.count), 0.99)};
    std::array<std::uint32_t, 2> bucket{};
    std::array<std::size_t, 2> within{};
    for (std::size_t q = 0; q < 2; ++q) {
        std::size_t below = 0;
        std::uint32_t b = 0;
        while (below + histogram[b] <= ranks[q]) {
            below += histogram[b++];
        }
        bucket[q] = b;
        within[q] = ranks[q] - below;
    }
    forEachSlice(LineIndex(0), LineIndex(slices), slices, [&](int s, LineIndex, LineIndex) {
        Slice &part = parts[std::size_t(s)];
        for (const float x : part.lags) {
            const std::uint32_t b = bucketOf(x);
            for (std::size_t q = 0; q < 2; ++q) {
                if (b == bucket[q]) {
                    part.members[q].push_back(x);
                }
            }
        }
    });
    std::array<double, 2> value{};
    for (std::size_t q = 0; q < 2; ++q) {
        std::vector<float> m;
        for (const Slice &s : parts) {
            m.insert(m.end(), s.members[q].begin(), s.members[q].end());
        }
        std::nth_element(m.begin(), m.begin() + std::ptrdiff_t(within[q]), m.end());
        value[q] = toMicroseconds(m[within[q]]);
    }
    r.p50 = value[0];
    r.p99 = value[1];
    return r;
}

} // namespace tty
