#include "run.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tty {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Kernel time falling back starts a new boot even without a banner (it may have been
// dropped) when it falls back to near zero by a clear margin, or by a lot. Small steps back
// are normal: CPUs log out of order during SMP bring-up (calibrate_delay on a secondary).
constexpr KernelUs kNewBootMaxUs = 1000000;
constexpr KernelUs kNewBootMinDropUs = 2000000;
constexpr KernelUs kAlwaysNewBootDropUs = 30000000;
} // namespace

double Run::timeOf(LineIndex i) const
{
    const HostNs a = lines.arrival(i);
    return hasHostTime(a) ? double(a - origin) * 1e-9 : kNaN;
}

double Run::producedAt(LineIndex i) const
{
    const KernelUs k = lines.kernelTime(i);
    if (!hasKernelTime(k)) {
        return kNaN;
    }
    const Boot &b = boots[std::size_t(bootOf(i))];
    if (hasArrival && hasHostTime(b.kernelZero)) {
        return double(b.kernelZero - origin) * 1e-9 + double(k) * 1e-6;
    }
    return b.timeBase + double(k) * 1e-6;
}

double Run::lagOf(LineIndex i) const
{
    // A timestamp behind other text arrived later than the line's first byte: its lag
    // would be wrong, so it has none.
    if (!hasArrival || (lines.flags(i) & KernelTimeNotAtStart)) {
        return kNaN;
    }
    return timeOf(i) - producedAt(i);
}

LineIndex Run::lineAt(double runSeconds) const
{
    LineIndex lo = 0, hi = lines.size();
    if (hi == 0 || !std::isfinite(runSeconds)) {
        return 0;
    }
    const HostNs t = origin + HostNs(runSeconds * 1e9);
    while (lo < hi) {
        const LineIndex mid = lo + (hi - lo) / 2;
        if (lines.arrival(mid) <= t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo > 0 ? lo - 1 : 0;
}

int Run::bootOf(LineIndex i) const
{
    auto it = std::upper_bound(boots.begin(), boots.end(), i,
                               [](LineIndex v, const Boot &b) { return v < b.first; });
    return it == boots.begin() ? 0 : int(it - boots.begin()) - 1;
}

std::string_view Run::eventText(const Event &e) const
{
    if (e.note >= 0 && std::size_t(e.note) < notes.size()) {
        return notes[std::size_t(e.note)];
    }
    if (e.line >= 0 && e.line < lines.size()) {
        return lines.text(e.line);
    }
    return {};
}

HostNs Run::eventArrival(const Event &e) const
{
    if (hasHostTime(e.arrival)) {
        return e.arrival;
    }
    if (e.line >= 0 && e.line < lines.size()) {
        return lines.arrival(e.line);
    }
    return kNoHostTime;
}

double Run::eventTime(const Event &e) const
{
    const HostNs a = eventArrival(e);
    return hasHostTime(a) ? double(a - origin) * 1e-9 : kNaN;
}

void Run::splitBoots()
{
    boots.clear();
    Boot cur;
    KernelUs lastKt = kNoKernelTime;
    LineIndex lastKernelLine = -1;
    std::size_t ev = 0;
    for (LineIndex i = 0; i < lines.size(); ++i) {
        bool banner = false;
        while (ev < events.size() && events[ev].line < i) {
            ++ev;
        }
        for (std::size_t e = ev; e < events.size() && events[e].line == i; ++e) {
            banner = banner || (events[e].kind == EventKind::Boot && events[e].note < 0);
        }
        const KernelUs kt = lines.kernelTime(i);
        if (!hasKernelTime(kt) && !banner) {
            continue;
        }
        const KernelUs drop = hasKernelTime(kt) && hasKernelTime(lastKt) ? lastKt - kt : 0;
        const bool fellBack = (kt <= kNewBootMaxUs && drop >= kNewBootMinDropUs) ||
                              drop >= kAlwaysNewBootDropUs;
        if (cur.firstKernelLine >= 0 && (fellBack || banner)) {
            // Firmware output between the two kernels belongs to the new boot.
            const LineIndex start = lastKernelLine + 1;
            cur.end = start;
            boots.push_back(cur);
            cur = Boot{};
            cur.first = start;
        }
        if (cur.firstKernelLine < 0 && hasKernelTime(kt)) {
            cur.firstKernelLine = i;
        }
        if (hasKernelTime(kt)) {
            lastKt = kt;
            lastKernelLine = i;
        }
    }
    cur.end = lines.size();
    boots.push_back(cur);
    for (const Event &e : events) {
        if (e.kind == EventKind::Boot && e.note < 0 && e.line >= 0) {
            Boot &b = boots[std::size_t(bootOf(e.line))];
            if (b.version.isEmpty()) {
                const std::string_view t = lines.text(e.line);
                const auto p = t.find("Linux version ");
                if (p != std::string_view::npos) {
                    const std::string_view rest = t.substr(p + 14);
                    b.version = QString::fromUtf8(rest.data(), qsizetype(rest.find(' ')));
                }
            }
        }
    }
}

void Run::estimateOffsets()
{
    double base = 0;
    for (Boot &b : boots) {
        b.kernelZero = kNoHostTime;
        b.timeBase = base;
        if (hasArrival) {
            HostNs best = std::numeric_limits<HostNs>::max();
            for (LineIndex i = b.first; i < b.end; ++i) {
                const KernelUs kt = lines.kernelTime(i);
                if (hasKernelTime(kt) && !(lines.flags(i) & KernelTimeNotAtStart)) {
                    best = std::min(best, lines.arrival(i) - kt * 1000);
                }
            }
            if (best != std::numeric_limits<HostNs>::max()) {
                b.kernelZero = best;
            }
            continue;
        }
        // No host times: lay boots end to end on their kernel clocks, and give every line
        // the time of the last kernel line before it so it can be placed on the timeline.
        double t = base;
        for (LineIndex i = b.first; i < b.end; ++i) {
            const KernelUs kt = lines.kernelTime(i);
            if (hasKernelTime(kt)) {
                t = std::max(t, base + double(kt) * 1e-6);
            }
            lines.setArrival(i, HostNs(t * 1e9));
        }
        base = t + 1.0;
    }
    if (!hasArrival) {
        origin = 0;
    }
}

void Run::finalize()
{
    std::stable_sort(events.begin(), events.end(),
                     [](const Event &a, const Event &b) { return a.line < b.line; });
    kernelLines = 0;
    for (LineIndex i = 0; i < lines.size(); ++i) {
        kernelLines += hasKernelTime(lines.kernelTime(i)) ? 1 : 0;
    }
    splitBoots();
    if (hasArrival && !lines.empty()) {
        origin = lines.arrival(0);
    }
    estimateOffsets();

    // The loops below run over every line: they go boot by boot so that a line's
    // production time needs no boot lookup (same values as timeOf/producedAt/lagOf).
    auto bootBase = [&](const Boot &b) {
        return hasArrival && hasHostTime(b.kernelZero) ? double(b.kernelZero - origin) * 1e-9
                                                       : b.timeBase;
    };
    double lo = 0, hi = 0;
    for (const Boot &b : boots) {
        const double base = bootBase(b);
        for (LineIndex i = b.first; i < b.end; ++i) {
            const KernelUs k = lines.kernelTime(i);
            const HostNs a = lines.arrival(i);
            if (hasHostTime(a)) {
                hi = std::max(hi, double(a - origin) * 1e-9);
            }
            if (hasKernelTime(k)) {
                const double p = base + double(k) * 1e-6;
                lo = std::min(lo, p);
                hi = std::max(hi, p);
            }
        }
    }
    series.reset(lo, hi);
    series.setPresent(Channel::Produced, kernelLines > 0);
    for (Channel c : {Channel::Printed, Channel::Bytes, Channel::LagMax, Channel::LagSum,
                      Channel::LagCount}) {
        series.setPresent(c, hasArrival);
    }
    series.setPresent(Channel::Dropped, true);
    const int ending = meta.format == QLatin1String("kmsg") ? 1 : 2;
    for (const Boot &b : boots) {
        const double base = bootBase(b);
        for (LineIndex i = b.first; i < b.end; ++i) {
            const KernelUs k = lines.kernelTime(i);
            const double p = hasKernelTime(k) ? base + double(k) * 1e-6 : kNaN;
            series.add(Channel::Produced, p, 1.0f);
            if (!hasArrival) {
                continue;
            }
            const double t = timeOf(i);
            const std::ptrdiff_t bin = series.binAt(t);
            const std::uint16_t f = lines.flags(i);
            series.addAt(Channel::Printed, bin, 1.0f);
            const bool nl = !(f & (NoNewline | Split));
            series.addAt(Channel::Bytes, bin, float(lines.text(i).size() + (nl ? ending : 0)));
            const double lag = (f & KernelTimeNotAtStart) ? kNaN : t - p;
            if (lag == lag) {
                series.maxAt(Channel::LagMax, bin, float(lag));
                series.addAt(Channel::LagSum, bin, float(lag));
                series.addAt(Channel::LagCount, bin, 1.0f);
            }
        }
    }
    for (const Event &e : events) {
        if (e.kind == EventKind::Drop) {
            series.add(Channel::Dropped, eventTime(e), float(e.count));
        }
    }
    series.build();
}

} // namespace tty
