#include "lanedata.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tty {

namespace {
// How many bins before the first drawn one are read for the lag of the line still on the
// wire there: a line takes a few fine bins at most, and a coarser level's bin holds lines.
constexpr std::size_t kHoldLookBack = 64;
} // namespace

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
    const std::vector<float> &wire = l.ch[std::size_t(Channel::Bytes)];
    // A lag is a line's: a bin where none arrived has none of its own. While the UART was
    // still sending (bytes in the bin), the line on the wire is the last one that arrived,
    // and so is its lag; where it sent nothing the lane has a gap, never a lag of 0.
    const bool perLine = v == LaneValue::Max || v == LaneValue::MeanLag;
    const auto lagIn = [&](std::size_t b) {
        return v == LaneValue::Max ? double(ch[b]) : double(ch[b]) / double(cnt[b]);
    };
    constexpr double kGap = std::numeric_limits<double>::quiet_NaN();
    double held = kGap; // the lag of the line on the wire, a gap when the UART is idle
    if (perLine) {
        // What the bins before the first drawn one leave on the wire.
        for (std::size_t b = b0; b > 0 && wire[b - 1] > 0 && b0 - b < kHoldLookBack; --b) {
            if (cnt[b - 1] > 0) {
                held = lagIn(b - 1);
                break;
            }
        }
    }
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
        case LaneValue::MeanLag:
            if (cnt[b] > 0) {
                held = val = lagIn(b);
            } else {
                held = wire[b] > 0 ? held : kGap;
                val = held;
            }
            break;
        }
        const double key = s.start() + double(b) * l.width - shift;
        out.points.append(QCPGraphData(key, val));
        if (key + l.width >= x0 && key <= x1 && !std::isnan(val)) {
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
