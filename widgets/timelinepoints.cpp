// Data to points for the timeline: event keys by kind, marker buckets, pattern rates.
#include "timelinepoints.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tty {

QVector<KindKeys> eventKeysByKind(const Run &run, double shift)
{
    // One pass over the events, by kind, in x order. Events come in line order, which is
    // arrival order except for notes with times of their own: a kind is sorted only when
    // that left it out of order (a big log has 10^5 events).
    QVector<KindKeys> byKind(kEventKindCount);
    const auto &events = run.events;
    for (int ei = 0; ei < int(events.size()); ++ei) {
        if (const std::optional<RunSeconds> t = run.eventTime(std::size_t(ei))) {
            auto &[keys, index] = byKind[int(events[std::size_t(ei)].kind)];
            keys.append(t->count() - shift);
            index.append(ei);
        }
    }
    for (auto &[keys, index] : byKind) {
        if (std::is_sorted(keys.begin(), keys.end())) {
            continue;
        }
        QVector<int> order(keys.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&keys = keys](int a, int b) { return keys[a] < keys[b]; });
        QVector<double> k2;
        QVector<int> i2;
        for (const int o : order) {
            k2.append(keys[o]);
            i2.append(index[o]);
        }
        keys = std::move(k2);
        index = std::move(i2);
    }
    return byKind;
}

QVector<QCPGraphData> markerPoints(const QVector<double> &keys, const QVector<int> &index, double y,
                                   double x0, double x1, double step, QVector<int> *events)
{
    QVector<QCPGraphData> pts;
    events->clear();
    auto it = std::lower_bound(keys.begin(), keys.end(), x0 - 10 * step);
    const auto end = std::upper_bound(keys.begin(), keys.end(), x1 + 10 * step);
    double lastCol = -1e300;
    for (; it != end; ++it) {
        const double col = std::floor((*it - x0) / step);
        if (col == lastCol) {
            continue;
        }
        lastCol = col;
        pts.append(QCPGraphData(*it, y));
        events->append(index[int(it - keys.begin())]);
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
