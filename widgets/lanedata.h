// Turns a run's series pyramid into plot points for the visible range: about one bin per
// pixel from the level that fits, so drawing cost never depends on the size of the log.
#pragma once

#include "series.h"

#include <qcustomplot.h>

namespace tty {

enum class LaneValue {
    Rate,    // channel sum / bin width (per second)
    Sum,     // channel sum per bin
    Max,     // channel value (a max channel)
    MeanLag, // LagSum / LagCount
};

struct LaneSlice
{
    QVector<QCPGraphData> points; // key = x (run seconds - shift), value
    double binWidth = 0;
    double maxValue = 0;
};

// [x0, x1] in aligned x (run seconds minus shift); maxBins bounds the points produced.
LaneSlice laneSlice(const SeriesPyramid &s, Channel c, LaneValue v, double x0, double x1,
                    double shift, double maxBins);

} // namespace tty
