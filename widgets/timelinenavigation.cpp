// Event navigation on the timeline: the marker under the mouse, the next or previous event.
#include "timelineview.h"

#include "laneplot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace tty {

namespace {
constexpr double kMarkerHitPixels = 7;
} // namespace

bool TimelineView::markerAt(const QPoint &pos, int *run, int *eventIndex, double *distance) const
{
    double best = kMarkerHitPixels;
    bool found = false;
    for (const MarkerGraph &m : m_markers) {
        QVariant details;
        const double d = m.graph->selectTest(pos, false, &details);
        if (d < 0 || d >= best) {
            continue;
        }
        const QCPDataSelection sel = details.value<QCPDataSelection>();
        if (sel.isEmpty()) {
            continue;
        }
        const int idx = sel.dataRange(0).begin();
        if (idx < 0 || idx >= m.events.size()) {
            continue;
        }
        best = d;
        *run = m.run;
        *eventIndex = m.events[idx];
        found = true;
    }
    if (distance) {
        *distance = best;
    }
    return found;
}

QPair<int, int> TimelineView::stepEvent(int direction, std::optional<EventKind> kind)
{
    const double centre = (xLower() + xUpper()) / 2;
    const double eps = (xUpper() - xLower()) * 1e-6;
    int bestRun = -1, bestEvent = -1;
    double bestX = 0;
    // The nearest event past the centre in each kind's sorted times (a binary search, not
    // a walk over 10^6 events); of events at the same x, the first run's first.
    const auto better = [&](double x, int ri, int ei) {
        if (bestRun < 0 || (direction > 0 ? x < bestX : x > bestX)) {
            return true;
        }
        return x == bestX && (ri < bestRun || (ri == bestRun && ei < bestEvent));
    };
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        if (!isDrawn(ri)) {
            continue; // its events are not on the timeline to be stepped to
        }
        const double shift = m_runs[ri].shift;
        for (int k = 0; k < kEventKindCount; ++k) {
            if (kind && EventKind(k) != *kind) {
                continue;
            }
            const EventKindIndex::Kind &of = m_runs[ri].run->eventsByKind.of(EventKind(k));
            const std::vector<double> &sec = of.seconds;
            auto it = sec.end();
            if (direction > 0) {
                it = std::upper_bound(sec.begin(), sec.end(), centre + eps + shift);
            } else if (auto past = std::lower_bound(sec.begin(), sec.end(), centre - eps + shift);
                       past != sec.begin()) {
                it = std::lower_bound(sec.begin(), past, *(past - 1)); // first of equal times
            }
            if (it == sec.end()) {
                continue;
            }
            const double x = *it - shift;
            const bool past = direction > 0 ? x > centre + eps : x < centre - eps;
            const int ei = of.events[std::size_t(it - sec.begin())];
            if (past && better(x, ri, ei)) {
                bestRun = ri;
                bestEvent = ei;
                bestX = x;
            }
        }
    }
    if (bestRun >= 0) {
        const double half = (xUpper() - xLower()) / 2;
        setXRange(bestX - half, bestX + half);
    }
    return {bestRun, bestEvent};
}

} // namespace tty
