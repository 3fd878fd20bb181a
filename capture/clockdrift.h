// The rate at which a boot's kernel clock and the host's move apart. A board's kernel
// counts time on its own crystal, the host stamps arrivals on an NTP-disciplined clock;
// tens of ppm apart, they drift by a tenth of a second an hour. Console lag is arrival
// minus production, production being kernel time plus the boot's offset: measured from
// one fixed offset, a long capture's lags would hold the drift as if it were lag.
//
// The rate is read where the console was idle: a line that came after a second of
// silence went out as soon as it was produced (a console with a backlog is never idle),
// so its (arrival - kernel time) is the boot's offset at that kernel time. Of these
// points the lower line is taken as Moon, Skelly and Towsley estimate clock skew from
// one-way delays ("Estimation and removal of clock skew from network delay
// measurements", INFOCOM 1999): the line below every point that is closest to all of
// them, which is the edge of their lower convex hull above their mean kernel time. Late
// lines (a console lock held for a second) only lie above it.
#pragma once

#include "types.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tty {

class IdleFloor
{
public:
    // The idle points come in kernel-time order (a boot's kernel clock does not go back);
    // one before the last by the kernel's clock is left out.
    void add(KernelUs kernel, HostNs offset);

    // Host seconds per kernel second, minus 1: none unless the idle points span
    // kMinSpan, the rate is within kMaxRate (a crystal is off by 100 ppm at most; beyond
    // that it is not drift), and over `span` (the boot's kernel time) it moves the
    // offset by kMinEffect at least.
    std::optional<double> rate(Microseconds span) const;

    static constexpr double kMinSpanSeconds = 600;
    static constexpr double kMaxRate = 500e-6;
    static constexpr double kMinEffectSeconds = 0.005;

private:
    struct Point
    {
        double x; // kernel seconds
        double y; // offset in seconds, from the first point's
    };
    std::vector<Point> m_hull; // lower convex hull, by x
    HostNs m_firstOffset{0};
    std::int64_t m_count = 0;
    double m_sumX = 0;
    double m_firstX = 0, m_lastX = 0;
};

} // namespace tty
