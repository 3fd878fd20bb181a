// Data to points for the timeline: marker buckets, pattern rates.
#include "timelinepoints.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tty {

QVector<QCPGraphData> markerPoints(const EventKindIndex::Kind &kind, double shift, double y,
                                   double x0, double x1, double step, QVector<int> *events,
                                   std::size_t firstEvent, std::size_t endEvent)
{
    QVector<QCPGraphData> pts;
    events->clear();
    const std::vector<double> &seconds = kind.seconds;
    auto it = std::lower_bound(seconds.begin(), seconds.end(), x0 - 10 * step + shift);
    const auto end = std::upper_bound(seconds.begin(), seconds.end(), x1 + 10 * step + shift);
    double lastCol = -1e300;
    while (it != end) {
        const double x = *it - shift;
        const double col = std::floor((x - x0) / step);
        const std::size_t event = std::size_t(kind.events[std::size_t(it - seconds.begin())]);
        if (col == lastCol || event < firstEvent || event >= endEvent) {
            ++it; // rounding put it on the column before the search's bound, or not ours
            continue;
        }
        lastCol = col;
        pts.append(QCPGraphData(x, y));
        events->append(int(event));
        // The first event of a later column: a binary search, so that a full view of a
        // million events costs one step per column, not one per event.
        it = std::lower_bound(it + 1, end, x0 + (col + 1) * step + shift);
    }
    return pts;
}

QVector<QCPGraphData> patternRatePoints(const std::vector<double> &times, double shift, double x0,
                                        double x1, int bins, double *maxRate)
{
    const double w = (x1 - x0) / bins;
    QVector<QCPGraphData> pts;
    pts.reserve(bins + 1);
    auto lo = std::lower_bound(times.begin(), times.end(), x0 + shift);
    for (int b = 0; b < bins; ++b) {
        const auto hi = std::lower_bound(lo, times.end(), x0 + shift + (b + 1) * w);
        const double rate = double(hi - lo) / w;
        pts.append(QCPGraphData(x0 + b * w, rate));
        *maxRate = std::max(*maxRate, rate);
        lo = hi;
    }
    pts.append(QCPGraphData(x1, pts.isEmpty() ? 0 : pts.back().value));
    return pts;
}

LaneRange robustLaneRange(std::vector<double> values)
{
    LaneRange r;
    if (values.empty()) {
        return r;
    }
    const double max = *std::max_element(values.begin(), values.end());
    const std::size_t at = std::size_t(0.99 * double(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(at), values.end());
    const double q = values[at];
    // Spikes: the highest value more than four times the 99th percentile.
    if (q > 0 && max > 4 * q) {
        r.top = q * 1.5;
        r.clipped = true;
    } else if (max > 0) {
        r.top = max * 1.12;
    }
    return r;
}

} // namespace tty
