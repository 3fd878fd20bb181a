// Event navigation on the timeline: the marker under the mouse, the next or previous event.
#include "timelineview.h"

#include <qcustomplot.h>

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
    for (int ri = 0; ri < m_runs.size(); ++ri) {
        const Run &r = *m_runs[ri].run;
        for (int ei = 0; ei < int(r.events.size()); ++ei) {
            const Event &e = r.events[std::size_t(ei)];
            if (kind && e.kind != *kind) {
                continue;
            }
            const std::optional<RunSeconds> t = r.eventTime(std::size_t(ei));
            if (!t) {
                continue;
            }
            const double x = m_runs[ri].xOf(*t);
            const bool after = direction > 0 ? x > centre + eps : x < centre - eps;
            if (after && (bestRun < 0 || (direction > 0 ? x < bestX : x > bestX))) {
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
