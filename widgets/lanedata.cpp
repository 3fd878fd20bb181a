#include "lanedata.h"

#include <algorithm>
#include <cmath>

namespace tty {

LaneSlice laneSlice(const SeriesPyramid &s, Channel c, LaneValue v, double x0, double x1,
                    double shift, double maxBins)
{
    LaneSlice out;
    if (s.isEmpty() || x1 <= x0) {
        return out;
    }
    const int li = s.levelFor(x1 - x0, std::max(maxBins, 1.0));
    const SeriesPyramid::Level &l = s.level(li);
    out.binWidth = l.width;
    const double t0 = x0 + shift, t1 = x1 + shift;
    const double n = double(l.bins());
    // One bin of margin each side so lines run to the plot's edges.
    const std::size_t b0 =
        std::size_t(std::clamp(std::floor((t0 - s.start()) / l.width) - 1, 0.0, n));
    const std::size_t b1 =
        std::size_t(std::clamp(std::ceil((t1 - s.start()) / l.width) + 1, 0.0, n));
    const std::vector<float> &ch = l.ch[std::size_t(c)];
    const std::vector<float> &cnt = l.ch[std::size_t(Channel::LagCount)];
    out.points.reserve(int(b1 - b0 + 1));
    for (std::size_t b = b0; b < b1; ++b) {
        double val = 0;
        switch (v) {
        case LaneValue::Rate:
            val = ch[b] / l.width;
            break;
        case LaneValue::Sum:
            val = ch[b];
            break;
        case LaneValue::Max:
            val = ch[b];
            break;
        case LaneValue::MeanLag:
            val = cnt[b] > 0 ? ch[b] / cnt[b] : 0;
            break;
        }
        const double key = s.start() + double(b) * l.width - shift;
        out.points.append(QCPGraphData(key, val));
        if (key + l.width >= x0 && key <= x1) {
            out.maxValue = std::max(out.maxValue, val);
        }
    }
    // Close the last step so the final bin is drawn with its width.
    if (!out.points.isEmpty()) {
        out.points.append(QCPGraphData(out.points.back().key + l.width, out.points.back().value));
    }
    return out;
}

} // namespace tty
