// Run's clocks: where kernel time 0 of each boot lies on the host clock, from the lower
// envelope of (arrival - kernel time) the boot split gathered, its shifts and its drift.
#include "run.h"

#include "runbuilder.h"

#include <algorithm>
#include <cmath>

namespace tty {

void Run::estimateOffsets(const std::vector<BootScan> &scans)
{
    for (std::size_t bi = 0; bi < boots.size(); ++bi) {
        Boot &b = boots[bi];
        b.kernelZero.reset(); // none without arrivals
        b.shifts.clear();
        if (scans[bi].envelope != BootScan().envelope) {
            b.kernelZero = scans[bi].envelope;
            b.shifts = scans[bi].shifts;
        }
        b.kernelRate = 1.0;
        const std::optional<double> drift =
            b.kernelZero && b.shifts.empty() && scans[bi].minKernel <= scans[bi].maxKernel
                ? scans[bi].idle.rate(scans[bi].maxKernel - scans[bi].minKernel)
                : std::nullopt;
        if (drift) {
            b.kernelRate = 1.0 + *drift;
            b.kernelZero = driftingFloor(b, b.kernelRate);
        }
        b.timeBase = RunSeconds(0);
    }
    if (!hasArrival) {
        // No host times: lay boots end to end on their kernel clocks, and give every line
        // the time of the last kernel line before it so it can be placed on the timeline.
        // One pass over the lines in order (the table codes arrivals in order).
        std::size_t bi = 0;
        bool entered = false; // boots[bi] has had a line
        double base = 0, t = 0;
        // A kernel time of more than 146 years (the builder's limit for host times) is
        // corrupt, and its nanoseconds may not fit an int64 at all: such a line is placed
        // at the limit, with a warning, rather than at a wrapped or undefined time.
        constexpr double kLimitNs = double(RunBuilder::kHostLimitNs);
        std::int64_t beyond = 0;
        std::optional<LineIndex> firstBeyond;
        auto leaveBoot = [&] {
            if (!entered) {
                boots[bi].timeBase = RunSeconds(base);
                t = base;
            }
            base = t + 1.0;
            entered = false;
            ++bi;
        };
        lines.rewriteArrivals([&](LineIndex i) -> std::optional<HostNs> {
            while (bi < boots.size() && i >= boots[bi].end) {
                leaveBoot();
            }
            if (bi >= boots.size() || i < boots[bi].first) {
                return lines.arrival(i); // in no boot: as it was
            }
            if (!entered) {
                // Lines before the boot's first kernel time (a capture attached to a
                // running board starts mid-line, at kernel time 88 s) take that time, not
                // the boot's kernel time 0, which the capture never saw.
                entered = true;
                boots[bi].timeBase = RunSeconds(base);
                const BootScan &scan = scans[bi];
                t = base + (scan.minKernel <= scan.maxKernel ? toSeconds(scan.minKernel) : 0.0);
            }
            if (const std::optional<KernelUs> kt = lines.kernelTime(i)) {
                t = std::max(t, base + toSeconds(*kt));
            }
            const double ns = t * 1e9;
            if (!(std::abs(ns) <= kLimitNs)) {
                ++beyond;
                firstBeyond = firstBeyond.value_or(i);
                return HostNs(ns > 0 ? RunBuilder::kHostLimitNs : -RunBuilder::kHostLimitNs);
            }
            return HostNs(std::int64_t(ns));
        });
        while (bi < boots.size()) {
            leaveBoot();
        }
        if (beyond > 0) {
            const QString w =
                QStringLiteral("%1 line(s) had a kernel time beyond 146 years "
                               "(first: line %2); the timeline places them there")
                    .arg(QString::number(beyond), QString::number(lineNumber(*firstBeyond)));
            if (!warnings.contains(w)) { // a growing run is finalized again and again
                warnings << w;
            }
        }
        origin = HostNs(0);
        m_lastArrival = lines.empty() ? std::nullopt : lines.arrival(lines.endIndex() - 1_lines);
    }
}

std::optional<HostNs> Run::driftingFloor(const Boot &b, double rate) const
{
    std::optional<HostNs> floor;
    for (LineIndex i = b.first; i < b.end; ++i) {
        const std::optional<KernelUs> k = lines.kernelTime(i);
        const std::optional<HostNs> a = lines.arrival(i);
        if (!k || !a || (lines.flags(i) & KernelTimeNotAtStart)) {
            continue;
        }
        const HostNs z = *a - Nanoseconds(std::int64_t(std::ceil(double(k->count()) * 1e3 * rate)));
        floor = floor ? std::min(*floor, z) : z;
    }
    return floor;
}

RunSeconds Run::bootBase(const Boot &b, std::optional<LineIndex> line) const
{
    const std::optional<HostNs> zero = line ? b.kernelZeroAt(*line) : b.kernelZero;
    return hasArrival && zero ? RunSeconds(toSeconds(*zero - origin)) : b.timeBase;
}

} // namespace tty
