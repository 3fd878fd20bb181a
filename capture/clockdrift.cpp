#include "clockdrift.h"

#include <cmath>

namespace tty {

void IdleFloor::add(KernelUs kernel, HostNs offset)
{
    const double x = toSeconds(kernel.sinceOrigin());
    if (m_count == 0) {
        m_firstOffset = offset;
        m_firstX = x;
    } else if (x < m_lastX) {
        return;
    }
    const Point p{x, toSeconds(offset - m_firstOffset)};
    ++m_count;
    m_sumX += x;
    m_lastX = x;
    // Andrew's monotone chain: drop the hull's last points while they do not turn left.
    while (m_hull.size() >= 2) {
        const Point &a = m_hull[m_hull.size() - 2], &b = m_hull.back();
        if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) > 0) {
            break;
        }
        m_hull.pop_back();
    }
    if (!m_hull.empty() && m_hull.back().x == p.x) {
        if (m_hull.back().y <= p.y) {
            return;
        }
        m_hull.pop_back();
    }
    m_hull.push_back(p);
}

std::optional<double> IdleFloor::rate(Microseconds span) const
{
    if (m_hull.size() < 2 || m_lastX - m_firstX < kMinSpanSeconds) {
        return std::nullopt;
    }
    const double mean = m_sumX / double(m_count);
    std::size_t j = 0;
    while (j + 2 < m_hull.size() && m_hull[j + 1].x < mean) {
        ++j;
    }
    const Point &a = m_hull[j], &b = m_hull[j + 1];
    const double r = (b.y - a.y) / (b.x - a.x);
    const double effect = std::abs(r) * toSeconds(span);
    if (!(std::abs(r) <= kMaxRate) || effect < kMinEffectSeconds) {
        return std::nullopt;
    }
    return r;
}

} // namespace tty
